"""The kinds where the block occurs twice in the file: two copies with a hint (resolve to
the one hinted) or without one (refuse), and near twins that differ in one line."""

from __future__ import annotations

from .block_lines import loose, unique
from .case_maker import Case, CaseMaker
from .intended_edit import change_token, make_edit, names_in
from .noise import Noise
from .sources import Source

DUP_GAP = 30  # lines between the two copies of a duplicated block


def with_copy(
    gen: CaseMaker, src: Source, start: int, copy: list[str]
) -> tuple[list[str], int, int] | None:
    """The file with ``copy`` inserted at least ``DUP_GAP`` lines from the block at
    ``start``: (lines, new start of the block, start of the copy)."""
    size = len(copy)
    before = list(range(0, start - DUP_GAP + 1))
    after = list(range(start + size + DUP_GAP, src.n + 1))
    spots = before + after
    if not spots:
        return None
    at = gen.rng.choice(spots)
    lines = src.lines[:at] + copy + src.lines[at:]
    return (lines, start + size, at) if at <= start else (lines, start, at)


def duplicated(gen: CaseMaker, *, hint: bool) -> Case | None:
    got = gen.plain()
    if got is None:
        return None
    src, start, block = got
    placed = with_copy(gen, src, start, block)
    if placed is None:
        return None
    lines, orig, copy = placed
    if not unique(lines, orig, len(block), count=2):
        return None
    edit = make_edit(gen.rng, block, src.unit, lang=src.lang)
    if edit is None:
        return None
    if not hint:
        note = f"copies at lines {min(orig, copy) + 1} and {max(orig, copy) + 1}"
        return gen.case(src, lines, orig, block, edit, Noise(), refuse=True, note=note)
    target = gen.rng.choice([orig, copy])
    line = max(1, target + 1 + gen.rng.randint(-2, 2))
    other = copy if target == orig else orig
    note = f"hint {line} for the copy at {target + 1} (other at {other + 1})"
    return gen.case(src, lines, target, block, edit, Noise(), hint=line, note=note)


def duplicated_no_hint(gen: CaseMaker) -> Case | None:
    return duplicated(gen, hint=False)


def duplicated_hint(gen: CaseMaker) -> Case | None:
    return duplicated(gen, hint=True)


def twins(gen: CaseMaker) -> Case | None:
    got = gen.plain()
    if got is None:
        return None
    src, start, block = got
    spots = [i for i, x in enumerate(block) if x.strip()]
    j = gen.rng.choice(spots)
    changed = change_token(gen.rng, block[j], names_in(block, src.lang), lang=src.lang)
    if changed is None or loose(changed) == loose(block[j]):
        return None
    twin = [*block[:j], changed, *block[j + 1 :]]
    placed = with_copy(gen, src, start, twin)
    if placed is None:
        return None
    lines, orig, copy = placed
    target = gen.rng.choice([orig, copy])
    meant = block if target == orig else twin
    if not unique(lines, target, len(meant)):
        return None
    edit = make_edit(gen.rng, meant, src.unit, lang=src.lang)
    if edit is None:
        return None
    noise, how = Noise(), "exact"
    unit = src.unit
    if gen.rng.random() < 0.5 and all(x.startswith(unit) for x in meant if x.strip()):
        noise, how = Noise(lambda x: x[len(unit) :] if x.startswith(unit) else x), "dedented"
    which = "original" if target == orig else "twin"
    note = f"{how}; meant the {which} at {target + 1}, twin differs in block line {j + 1}"
    return gen.case(src, lines, target, meant, edit, noise, note=note)
