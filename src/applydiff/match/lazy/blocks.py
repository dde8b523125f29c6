"""The file's blocks, read by indentation: which of a segment's tails closes the block its
head is in, and whether a closing line ends a block the head opens (so a deletion stops
there)."""

from __future__ import annotations

from .shapes import bracket_balance, closes_block, indent_of, opens_block


def closing(bare: list[str], lo: int, tail_len: int, tails: list[int]) -> int | None:
    """The nearest tail that closes the block the head is in: it closes a block (``}``,
    ``end``) and no line between sits at or left of its indentation. None if there is none."""
    q = tails[0]
    tail_first = bare[q - tail_len]
    level = indent_of(tail_first)
    between = [x for x in bare[lo : q - tail_len] if x.strip()]
    if closes_block(tail_first) and all(indent_of(x) > level for x in between):
        return q
    # A tail that ends in a closing line ("break;", "}") ends where the file first comes back
    # to that line's level after the head: everything before it is inside the block that line
    # closes. Only one tail can end there; two that each could (at two levels) are refused.
    ends = set(tails)
    found = []
    for level in sorted({indent_of(bare[t - 1]) for t in tails}):
        r = first_at(bare, lo, level)
        if r is not None and r + 1 in ends and closes_block(bare[r]):
            found.append(r + 1)
    return found[0] if len(found) == 1 else None


def first_at(bare: list[str], lo: int, level: int, stop: int | None = None) -> int | None:
    """The first non-blank row from ``lo`` (before ``stop``) at or left of ``level``."""
    end = len(bare) if stop is None else stop
    return next(
        (r for r in range(lo, end) if bare[r].strip() and indent_of(bare[r]) <= level), None
    )


def closes_opened_block(bare: list[str], p: int, head_len: int, q: int) -> bool:
    """File row ``q - 1`` closes a block that a head row (``p`` ..) opens: the head row at its
    level opens a block, every row between is deeper, and the brackets between balance."""
    last = q - 1
    if last < p + head_len or not closes_block(bare[last]):
        return False
    level = indent_of(bare[last])
    opener = next(
        (
            h
            for h in range(p + head_len - 1, p - 1, -1)
            if bare[h].strip() and indent_of(bare[h]) <= level
        ),
        None,
    )
    if opener is None or indent_of(bare[opener]) != level or not opens_block(bare[opener]):
        return False
    if first_at(bare, opener + 1, level, last + 1) != last:
        return False
    return bracket_balance(bare[opener:q]) == 0
