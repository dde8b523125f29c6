"""The kinds with noise on the lines a model copies (issue 14): a misquoted or cut line that
new writes as the file has it, tabs retyped as spaces, characters ``str.splitlines`` breaks
at, lone CR line ends; each must resolve."""

from __future__ import annotations

from .block_lines import (
    BLANK_RUNS,
    MAX_BLOCK,
    MIN_BLOCK,
    ODD_BREAKS,
    TAB,
    good_block,
    lead,
    token_change,
    unique,
)
from .case_maker import Case, CaseMaker
from .intended_edit import make_edit
from .noise import Noise, misquote, typo
from .sources import load, with_odd_breaks


def cr_only(gen: CaseMaker) -> Case | None:
    """The file ends its lines with a lone CR (old Mac style); the model writes LF."""
    got = gen.plain()
    if got is None:
        return None
    src, start, block = got
    edit = make_edit(gen.rng, block, src.unit, lang=src.lang)
    if edit is None:
        return None
    return gen.case(src, src.lines, start, block, edit, Noise(), eol="\r")


def misquote_fixed(gen: CaseMaker) -> Case | None:
    """One old line misquoted (a typo, a space or punctuation mark moved or dropped) that
    new writes as the file has it; the intended edit is on another line."""
    got = gen.plain()
    if got is None:
        return None
    src, start, block = got
    edit = make_edit(gen.rng, block, src.unit, lang=src.lang)
    if edit is None:
        return None
    i = gen.other_line(block, edit)
    if i is None:
        return None
    quoted = misquote(gen.rng, block[i])
    if quoted is None:
        return None
    wrong, how = quoted
    note = f"{how} in block line {i + 1}: {token_change(block[i], wrong)}; new has the line"
    return gen.case(src, src.lines, start, block, edit, Noise(search={i: wrong}), note=note)


def tabs_as_spaces(gen: CaseMaker) -> Case | None:
    """Every tab in old and new retyped as spaces (tab width 8, or 4), alignment tabs
    mid-line too; the edit changes a line or adds one. A changed line differs from its old
    line in the changed token only (the spaces around it are the same), an added line has
    the indentation of a neighbour (and no neighbour of the same width has other bytes),
    so ``expected`` (the file's tabs everywhere, a new line with its neighbour's bytes) is
    what the model meant."""
    got = gen.plain()
    if got is None:
        return None
    src, start, block = got
    tabs = sum(x.count(TAB) for x in block)
    if not tabs:
        return None
    width = gen.rng.choice([8, 8, 8, 4])

    def spaced(x: str) -> str:
        return x.expandtabs(width)

    edit = make_edit(gen.rng, block, src.unit, tab=width, lang=src.lang)
    if edit is None or edit.op == "delete":
        return None
    if edit.op == "modify":
        if BLANK_RUNS.findall(spaced(edit.line)) != BLANK_RUNS.findall(spaced(block[edit.at])):
            return None
    else:
        indent = lead(edit.line)
        near = [lead(x) for x in block[edit.at : edit.at + 2] if x.strip()]
        if indent not in near or any(x != indent and spaced(x) == spaced(indent) for x in near):
            return None
    mid = sum(x[len(lead(x)) :].count(TAB) for x in block)
    note = f"tab width {width}; {tabs} tabs in the block, {mid} of them mid-line"
    return gen.case(src, src.lines, start, block, edit, Noise(spaced), note=note)


def cut_first_line(gen: CaseMaker) -> Case | None:
    return cut_line(gen, last=False)


def cut_last_line(gen: CaseMaker) -> Case | None:
    return cut_line(gen, last=True)


def cut_line(gen: CaseMaker, *, last: bool) -> Case | None:
    """Old's first or last line cut short mid-line (its end left out); new holds the
    file's full line."""
    got = gen.plain()
    if got is None:
        return None
    src, start, block = got
    i = len(block) - 1 if last else 0
    line = block[i].rstrip()
    begin = len(lead(line))
    if len(line) - begin < 8:
        return None
    short = line[: gen.rng.randint(begin + 3, len(line) - 1)].rstrip()
    if len(short) - begin < 3:
        return None
    edit = make_edit(gen.rng, block, src.unit, lang=src.lang)
    which = "last" if last else "first"
    note = f"{which} line cut to {len(short)}/{len(line)} chars; new has the full line"
    if edit is None:
        return None
    noise = Noise(search={i: short})
    return gen.case(src, src.lines, start, block, edit, noise, note=note, final_newline=True)


def odd_line_breaks(gen: CaseMaker) -> Case | None:
    """Lines near the edit hold characters ``str.splitlines`` breaks at (``ODD_BREAKS``):
    where the file has them (half the cases when some files do), or put in (at a line's
    start, middle or end, or a line of their own, as C's form feeds); the model copies
    them, verbatim, with a typo on another line, or indented one level more."""
    holding = with_odd_breaks(tuple(gen.files))
    own = bool(holding) and gen.rng.random() < 0.5
    src = load(gen.rng.choice(holding)) if own else gen.source()
    if src is None:
        return None
    lines = list(src.lines)
    if own:
        natural = [i for i in range(src.n) if any(c in lines[i] for c in ODD_BREAKS)]
        at = gen.rng.choice(natural)
        size = gen.rng.randint(MIN_BLOCK, MAX_BLOCK)
        start = at - gen.rng.randint(1, size - 2)
        if start < 0 or start + size > src.n:
            return None
        how = "the file's own"
    else:
        start, size = gen.block_at(lines, src.n, lang=src.lang)
        if start < 0:
            return None
        block = lines[start : start + size]
        at = gen.rng.randrange(1, size - 1)
        put = []
        for _ in range(gen.rng.choice([1, 1, 2, 3])):
            i, ch = gen.rng.choice([at - 1, at, at + 1]), gen.rng.choice(ODD_BREAKS)
            where = gen.rng.choice(["start", "middle", "end", "own line"])
            x = block[i]
            if where == "middle":
                spots = [p for p in range(len(lead(x)) + 1, len(x.rstrip())) if x[p - 1] == " "]
                where = "middle" if spots else "end"
            if where == "start":
                block[i] = ch + x
            elif where == "middle":
                p = gen.rng.choice(spots)
                block[i] = x[:p] + ch + x[p:]
            elif where == "end":
                block[i] = x + ch
            else:
                block[i] = ch + "\n" + x  # split into lines below
            put.append(f"{ch!r} {where}")
        block = "\n".join(block).split("\n")
        lines[start : start + size] = block
        size = len(block)
        how = "put in: " + ", ".join(put)
    block = lines[start : start + size]
    odd = [i for i, x in enumerate(block) if any(c in x for c in ODD_BREAKS)]
    if not odd or not good_block(block, src.lang) or not unique(lines, start, size):
        return None
    near = {i + d for i in odd for d in (-1, 0, 1)}
    far = [i for i in range(size) if i not in near]
    edit = make_edit(gen.rng, block, src.unit, far, lang=src.lang)
    if edit is None:
        return None
    variant = gen.rng.choice(["verbatim", "verbatim", "typo", "indented"])
    noise = Noise()
    if variant == "typo":
        spots = [i for i in far if i != edit.at and len(block[i].strip()) >= 4]
        i = gen.rng.choice(spots) if spots else -1
        wrong = typo(gen.rng, block[i]) if spots else None
        if wrong is None:
            return None
        noise.lines[i] = wrong
    elif variant == "indented":
        unit = src.unit
        noise.every = lambda x: unit + x if x.strip(" \t") else x
    lines_at = ", ".join(str(i + 1) for i in odd)
    note = f"{how}; odd characters in block lines {lines_at}; model: {variant}"
    return gen.case(src, lines, start, block, edit, noise, note=note)
