"""Line and token alignment with a bounded cost.

``difflib.SequenceMatcher`` looks each element of one sequence up among the equal elements of
the other, so two long runs of one repeated line (or token) cost the product of their
lengths: minutes for a few thousand lines. Past ``WORK`` lookups the alignment here keeps
what the two sequences share at their ends and aligns only the middle (or, if that is still
too costly, replaces it whole), a coarser but valid alignment for input that only
degenerate files produce.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Sequence
from difflib import SequenceMatcher

from rapidfuzz.distance import Postfix, Prefix

# Lookups (see ``lookups``) past which SequenceMatcher is not run: about a second of it.
WORK = 1_000_000

Opcode = tuple[str, int, int, int, int]


def lookups(a: Sequence[Hashable], b: Sequence[Hashable]) -> int:
    """How many (element of a, equal element of b) pairs there are: what one pass of
    SequenceMatcher costs."""
    counts = Counter(b)
    return len(a) + len(b) + sum(counts[x] for x in a)


def cells(a: str, b: str) -> int:
    """The edit-distance cells comparing ``a`` and ``b`` costs: the product of their lengths
    without the prefix and suffix they share (which rapidfuzz strips first), plus a pass."""
    same = Prefix.similarity(a, b)
    same += min(Postfix.similarity(a, b), min(len(a), len(b)) - same)
    return (len(a) - same) * (len(b) - same) + len(a) + len(b)


def opcodes(a: Sequence[Hashable], b: Sequence[Hashable], work: int = WORK) -> list[Opcode]:
    """``SequenceMatcher(None, a, b, autojunk=False).get_opcodes()``, or, when that would
    take more than ``work`` lookups, the shared ends as equal and the middle aligned the
    same way (replaced whole if even that is too costly)."""
    if lookups(a, b) <= work:
        return SequenceMatcher(None, a, b, autojunk=False).get_opcodes()
    p = _shared_prefix(a, b)
    s = _shared_prefix(a[p:][::-1], b[p:][::-1])
    la, lb = len(a), len(b)
    out: list[Opcode] = [("equal", 0, p, 0, p)] if p else []
    mid_a, mid_b = a[p : la - s], b[p : lb - s]
    if mid_a or mid_b:
        if mid_a and mid_b and lookups(mid_a, mid_b) <= work:
            inner = SequenceMatcher(None, mid_a, mid_b, autojunk=False).get_opcodes()
            out += [(tag, i1 + p, i2 + p, j1 + p, j2 + p) for tag, i1, i2, j1, j2 in inner]
        else:
            tag = "replace" if mid_a and mid_b else ("delete" if mid_a else "insert")
            out.append((tag, p, la - s, p, lb - s))
    if s:
        out.append(("equal", la - s, la, lb - s, lb))
    return out


def _shared_prefix(a: Sequence[Hashable], b: Sequence[Hashable]) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n
