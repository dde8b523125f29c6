"""Speed cases: big texts of real code, a 20-line block in them, and the edits to time.

Files of 1k, 10k and 100k lines are standard-library sources (or the user's files)
concatenated and cut; the block is a unique one past the middle; the edits are the block
verbatim, the block with two one-character typos in different lines, and a block from a file
the text does not hold.
"""

from __future__ import annotations

import random

from .block_lines import good_block, haystack, loose, occurrences
from .intended_edit import Edit, change_token, names_in
from .noise import typo
from .sources import load

SIZES = (1_000, 10_000, 100_000)
BLOCK = 20
SPEED_CASES = ("exact", "two_typo", "absent")  # the edits timed at each size


def corpus_text(lines: int, paths: list[str]) -> tuple[str, int]:
    """Sources concatenated, cut to ``lines`` lines; and how many files that took (the rest
    are free for the absent block)."""
    out: list[str] = []
    used = 0
    for p in paths:
        src = load(p)
        if src is None:
            continue
        used += 1
        out.extend(src.lines[: src.n])
        if len(out) >= lines:
            break
    return "\n".join(out[:lines]) + "\n", used


def pick_block(lines: list[str], start: int) -> int:
    """The first good, unique 20-line block at or after ``start``."""
    text = "\n".join(lines)
    hay = haystack(map(loose, lines))
    for s in range(start, len(lines) - BLOCK):
        block = lines[s : s + BLOCK]
        if not good_block(block) or occurrences(text, "\n".join(block)) != 1:
            continue
        if occurrences(hay, haystack(map(loose, block))) == 1:
            return s
    raise RuntimeError("no unique block found")


def edited(rng: random.Random, block: list[str], exclude: set[int]) -> tuple[Edit, list[str]]:
    """One middle line of ``block`` changed by a token."""
    names = names_in(block)
    for i in range(BLOCK // 2, BLOCK - 1):
        if i in exclude or not block[i].strip():
            continue
        line = change_token(rng, block[i], names)
        if line is not None:
            edit = Edit(i, "modify", line)
            return edit, edit.apply(block)[0]
    raise RuntimeError("no line to edit")


def with_typos(rng: random.Random, block: list[str], avoid: int) -> list[str]:
    out = list(block)
    spots = [i for i, x in enumerate(block) if i != avoid and len(x.strip()) >= 8]
    done = 0
    for i in rng.sample(spots, len(spots)):
        wrong = typo(rng, block[i])
        if wrong is not None:
            out[i] = wrong
            done += 1
            if done == 2:
                return out
    raise RuntimeError("could not place two typos")


def absent_block(texts: list[str], paths: list[str]) -> list[str]:
    """A 20-line block from a file none of ``texts`` holds, resembling nothing in them."""
    keys: set[str] = set()
    for t in texts:
        keys.update(loose(x) for x in t.split("\n"))
    for p in reversed(paths):
        src = load(p)
        if src is None:
            continue
        for s in range(0, src.n - BLOCK, 7):
            block = src.lines[s : s + BLOCK]
            if not good_block(block) or any("\n".join(block) in t for t in texts):
                continue
            if sum(loose(x) in keys for x in block if x.strip()) <= 2:
                return block
    raise RuntimeError("no absent block found")


def join(lines: list[str]) -> str:
    return "\n".join(lines) + "\n"


def speed_cases(
    paths: list[str], sizes: tuple[int, ...] = SIZES, seed: int = 0
) -> list[dict[str, object]]:
    """For each size: the text and the three edits (exact, two_typo, absent), with the text
    the clean edit gives."""
    rng = random.Random(seed)
    texts = {}
    used = 0
    for n in sizes:
        texts[n], k = corpus_text(n, paths)
        used = max(used, k)
    gone = absent_block(list(texts.values()), paths[used:] or paths)
    out: list[dict[str, object]] = []
    for n in sizes:
        text = texts[n]
        lines = text.split("\n")
        start = pick_block(lines, n * 3 // 5)
        block = lines[start : start + BLOCK]
        edit, new_block = edited(rng, block, set())
        expected = join(lines[:start] + new_block + lines[start + BLOCK : -1])
        typo_block = with_typos(rng, block, edit.at)
        typo_new = list(typo_block)
        typo_new[edit.at] = edit.line
        gone_new = edited(rng, gone, set())[1]
        for case, old, new, want in (
            ("exact", join(block), join(new_block), expected),
            ("two_typo", join(typo_block), join(typo_new), expected),
            ("absent", join(gone), join(gone_new), None),
        ):
            out.append(
                {"lines": n, "case": case, "text": text, "old": old, "new": new, "expected": want}
            )
    return out
