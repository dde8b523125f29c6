"""The kinds the engine must refuse: a block from another file, a hallucinated block (lines
from elsewhere, names renamed), a real block with one name wrong throughout, and a block
of another file that looks like one of this file's."""

from __future__ import annotations

import math
import re

from rapidfuzz.distance import Levenshtein

from .block_lines import (
    MAX_BLOCK,
    MIN_BLOCK,
    good_block,
    haystack,
    is_code,
    lead,
    line_diff,
    loose,
    occurrences,
)
from .case_maker import Case, CaseMaker
from .intended_edit import make_edit, names_in
from .noise import Noise
from .sources import Source, load, near_copy, shared_defs

WRONG_FILE_SIMILARITY = 0.7  # ``wrong_file``: least similarity to some block of the target


def absent(gen: CaseMaker) -> Case | None:
    src = gen.source()
    got = gen.plain()
    if src is None or got is None or got[0].path == src.path:
        return None
    other, _, block = got
    if "\n".join(block) in src.text:
        return None
    keys = [loose(x) for x in block if x.strip()]
    if sum(k in src.keyset for k in keys) > 0.5 * len(keys):
        return None  # mostly boilerplate this file shares; not clearly absent
    edit = make_edit(gen.rng, block, other.unit, lang=other.lang)
    note = f"block from {other.path}"
    return (
        None
        if edit is None
        else gen.case(src, src.lines, 0, block, edit, Noise(), refuse=True, note=note)
    )


def hallucinated(gen: CaseMaker) -> Case | None:
    got = gen.plain()
    if got is None:
        return None
    src, start, block = got
    nonblank = [i for i, x in enumerate(block) if x.strip()]
    need = math.ceil(0.4 * len(nonblank))
    fake = list(block)
    if gen.rng.random() < 0.5:
        how = "lines from elsewhere"
        for i in gen.rng.sample(nonblank, need):
            line = foreign_line(gen, src)
            if line is None:
                return None
            fake[i] = lead(block[i]) + line
    else:
        how = "identifiers renamed"
        names = names_in(block, src.lang)
        gen.rng.shuffle(names)
        pool = foreign_names(gen, src)
        renamed: dict[str, str] = {}
        for name in names:
            if sum(fake[i] != block[i] for i in nonblank) >= need:
                break
            choices = [x for x in pool if x[0] != name[0] and x not in renamed.values()]
            if not choices:
                return None
            renamed[name] = gen.rng.choice(choices)
            pat = re.compile(rf"\b{re.escape(name)}\b")
            fake = [pat.sub(renamed[name], x) for x in fake]
        how += " (" + ", ".join(f"{a}->{b}" for a, b in renamed.items()) + ")"
    if sum(fake[i] != block[i] for i in nonblank) < need:
        return None
    if any(loose(fake[i]) in src.keyset for i in nonblank if fake[i] != block[i]):
        return None  # a "hallucinated" line the file does hold somewhere
    edit = make_edit(gen.rng, fake, src.unit, lang=src.lang)
    note = f"{how}; real block at line {start + 1}"
    return (
        None
        if edit is None
        else gen.case(src, src.lines, start, fake, edit, Noise(), refuse=True, note=note)
    )


def hallucinated_light(gen: CaseMaker) -> Case | None:
    """A real block with one name, found on at least 3 of its lines, renamed throughout to
    a name the file does not hold: the code's shape with a wrong name."""
    got = gen.plain()
    if got is None:
        return None
    src, start, block = got
    nonblank = [i for i, x in enumerate(block) if x.strip()]
    code = "\n".join(x for x in block if is_code(x, src.lang))

    def where(name: str) -> list[int]:
        pat = re.compile(rf"\b{re.escape(name)}\b")
        return [i for i in nonblank if pat.search(block[i])]

    def in_code(name: str) -> bool:  # used as code somewhere, not only in prose
        n = re.escape(name)
        return re.search(rf"\.{n}\b|\b{n}\s*[(\[.=,):]", code) is not None

    spread = [x for x in names_in(block, src.lang) if len(where(x)) >= 3 and in_code(x)]
    if not spread:
        return None
    name = gen.rng.choice(spread)
    # A name of about the same length: the block keeps its shape, only the name is wrong.
    pool = [
        x
        for x in foreign_names(gen, src)
        if Levenshtein.distance(x, name) >= 3 and abs(len(x) - len(name)) <= len(name) // 2
    ]
    if not pool:
        return None
    other = gen.rng.choice(pool)
    pat = re.compile(rf"\b{re.escape(name)}\b")
    fake = [pat.sub(other, x) for x in block]
    edit = make_edit(gen.rng, fake, src.unit, lang=src.lang)
    note = (
        f"{name} -> {other} on {len(where(name))} of {len(nonblank)} lines; "
        f"real block at line {start + 1}"
    )
    return (
        None
        if edit is None
        else gen.case(src, src.lines, start, fake, edit, Noise(), refuse=True, note=note)
    )


def wrong_file(gen: CaseMaker) -> Case | None:
    """A block from another file that looks like one of this file's (a function both
    define, at least ``WRONG_FILE_SIMILARITY`` alike), and is not in this file. Blocks
    that differ from the target's by no more than a must-resolve kind's noise (one line,
    or up to three one-character typos) are skipped: those would be that kind's cases."""
    defs = shared_defs(tuple(gen.files))
    if not defs:
        return None
    name = gen.rng.choice(list(defs))
    a_path, a_at = gen.rng.choice(defs[name])
    b_path, b_at = gen.rng.choice([x for x in defs[name] if x[0] != a_path])
    other, src = load(a_path), load(b_path)
    if other is None or src is None:
        return None
    size = gen.rng.randint(MIN_BLOCK, MAX_BLOCK)
    a_start = a_at - gen.rng.randint(0, 2)
    if a_start < 0 or a_start + size > other.n:
        return None
    block = other.lines[a_start : a_start + size]
    keys = other.keys[a_start : a_start + size]
    if not good_block(block, other.lang) or "\n".join(block) in src.text:
        return None
    if occurrences(src.haystack, haystack(keys), 1):
        return None
    key = "\n".join(keys)
    sim, b_start, count = max(
        (
            (Levenshtein.normalized_similarity(key, "\n".join(src.keys[s : s + c])), s, c)
            for s in range(max(0, b_at - 4), min(src.n, b_at + 5))
            for c in range(max(1, size - 2), size + 3)
            if s + c <= src.n
        ),
        default=(0.0, 0, 0),
    )
    if sim < WRONG_FILE_SIMILARITY:
        return None
    # Any window of the file (not only near the twin) that differs by no more than a
    # must-resolve kind's noise makes the case that kind's, not a wrong file.
    if near_copy(keys, src):
        return None
    differing, _ = line_diff(keys, src.keys[b_start : b_start + count])
    edit = make_edit(gen.rng, block, other.unit, lang=other.lang)
    note = (
        f"def {name}: block from {a_path}:{a_start + 1}; closest at line {b_start + 1} "
        f"({count} lines): similarity {sim:.3f}, {differing} lines differ"
    )
    return (
        None
        if edit is None
        else gen.case(src, src.lines, 0, block, edit, Noise(), refuse=True, note=note)
    )


def foreign_line(gen: CaseMaker, src: Source) -> str | None:
    for _ in range(20):
        other = gen.source(exclude=src.path)
        if other is None:
            continue
        line = gen.rng.choice(other.lines).strip()
        if 12 <= len(line) <= 100 and is_code(line, other.lang) and loose(line) not in src.keyset:
            return line
    return None


def foreign_names(gen: CaseMaker, src: Source) -> list[str]:
    for _ in range(20):
        other = gen.source(exclude=src.path)
        if other is not None:
            start = gen.rng.randrange(0, max(1, other.n - 50))
            names = [
                x
                for x in names_in(other.lines[start : start + 50], other.lang)
                if x not in src.text
            ]
            if len(names) >= 5:
                return names
    return []
