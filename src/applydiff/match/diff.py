"""Line and token alignment with a bounded cost.

``difflib.SequenceMatcher`` looks each element of one sequence up among the equal elements of
the other, and does so again for each part left of and right of every match it finds, so two
long runs of one repeated line (or token), or a thousand small matches, cost the product of
their lengths: minutes for a few thousand lines. Past ``WORK`` steps the alignment here keeps
what the two sequences share at their ends and aligns only the middle (or, if that is still
too costly, replaces it whole), a coarser but valid alignment for input that only degenerate
files and searches produce.
"""

from __future__ import annotations

import bisect
from collections import Counter
from collections.abc import Hashable, Sequence
from difflib import SequenceMatcher
from itertools import accumulate

from rapidfuzz.distance import Postfix, Prefix

# Steps (see ``Matcher``) after which an alignment is given up: about a tenth of a second.
WORK = 300_000
# Below this product of lengths an alignment costs under WORK whatever the sequences hold
# (at most min(len) + 1 searches, each at most len(a) * (len(b) + 1) steps): not counted.
SMALL = 2_500

Opcode = tuple[str, int, int, int, int]


class TooCostly(Exception):
    """An alignment went past its work limit (raised from inside ``Matcher``)."""


class Matcher(SequenceMatcher):
    """A SequenceMatcher (no autojunk) that counts its work and raises ``TooCostly`` past
    ``work``: each search for a longest match walks the a-range and, for each element, the
    equal elements of b; ``spent`` adds that up exactly (prefix sums), so the limit is hit
    before the time is spent, not estimated from the sizes."""

    def __init__(self, a: Sequence[Hashable], b: Sequence[Hashable], work: int) -> None:
        super().__init__(None, a, b, autojunk=False)
        counts = Counter(b)
        self._cost = [0, *accumulate(counts[x] + 1 for x in a)]
        self.work = work
        self.spent = 0

    def find_longest_match(self, alo=0, ahi=None, blo=0, bhi=None):  # type: ignore[no-untyped-def]
        hi = len(self.a) if ahi is None else ahi
        self.spent += self._cost[hi] - self._cost[alo] + 1
        if self.spent > self.work:
            raise TooCostly
        return super().find_longest_match(alo, ahi, blo, bhi)


def matcher(a: Sequence[Hashable], b: Sequence[Hashable], work: int = WORK) -> SequenceMatcher:
    """A SequenceMatcher for ``a`` and ``b`` (no autojunk): a counting ``Matcher`` unless
    they are too short for the count to matter."""
    if len(a) * len(b) <= SMALL:
        return SequenceMatcher(None, a, b, autojunk=False)
    return Matcher(a, b, work)


def cells(a: str, b: str) -> int:
    """The edit-distance cells comparing ``a`` and ``b`` costs: the product of their lengths
    without the prefix and suffix they share (which rapidfuzz strips first), plus a pass."""
    same = Prefix.similarity(a, b)
    same += min(Postfix.similarity(a, b), min(len(a), len(b)) - same)
    return (len(a) - same) * (len(b) - same) + len(a) + len(b)


def opcodes(a: Sequence[Hashable], b: Sequence[Hashable], work: int = WORK) -> list[Opcode]:
    """``SequenceMatcher(None, a, b, autojunk=False).get_opcodes()``, or, when that would
    take more than ``work`` steps, a coarser alignment in about as many more: the ends the
    sequences share are equal; in between, elements found once on each side and in the same
    order are equal too (the anchors of ``diff --patience``), and each stretch between two
    anchors is aligned by a ``Matcher`` while steps remain, else replaced whole."""
    try:
        return list(matcher(a, b, work).get_opcodes())
    except TooCostly:
        pass
    la, lb = len(a), len(b)
    p = _shared_prefix(a, b)
    s = _shared_prefix(a[p:][::-1], b[p:][::-1])
    left = [work]
    out: list[Opcode] = [("equal", 0, p, 0, p)] if p else []
    out += _between(a, b, (p, la - s, p, lb - s), left, anchored=True)
    if s:
        out.append(("equal", la - s, la, lb - s, lb))
    return out


def _between(
    a: Sequence[Hashable],
    b: Sequence[Hashable],
    box: tuple[int, int, int, int],
    left: list[int],
    *,
    anchored: bool,
) -> list[Opcode]:
    """Opcodes for a[alo:ahi] against b[blo:bhi] (``box``), spending from ``left[0]``."""
    alo, ahi, blo, bhi = box
    if alo == ahi or blo == bhi:
        if alo == ahi and blo == bhi:
            return []
        return [("insert" if alo == ahi else "delete", alo, ahi, blo, bhi)]
    m = Matcher(a[alo:ahi], b[blo:bhi], left[0])
    try:
        codes = m.get_opcodes()
        return [(t, i1 + alo, i2 + alo, j1 + blo, j2 + blo) for t, i1, i2, j1, j2 in codes]
    except TooCostly:
        pass
    finally:
        left[0] -= m.spent
    anchors = _anchors(a, b, box) if anchored else []
    if not anchors:
        return [("replace", alo, ahi, blo, bhi)]
    out: list[Opcode] = []
    i, j = alo, blo
    for x, y in anchors:
        out += _between(a, b, (i, x, j, y), left, anchored=False)
        out.append(("equal", x, x + 1, y, y + 1))
        i, j = x + 1, y + 1
    return out + _between(a, b, (i, ahi, j, bhi), left, anchored=False)


def _anchors(
    a: Sequence[Hashable], b: Sequence[Hashable], box: tuple[int, int, int, int]
) -> list[tuple[int, int]]:
    """(i, j) pairs of elements found once in a[alo:ahi] and once in b[blo:bhi], the longest
    run of them increasing on both sides."""
    alo, ahi, blo, bhi = box
    ca, cb = Counter(a[alo:ahi]), Counter(b[blo:bhi])
    where_b = {b[j]: j for j in range(blo, bhi) if cb[b[j]] == 1}
    pairs = [(i, where_b[a[i]]) for i in range(alo, ahi) if ca[a[i]] == 1 and a[i] in where_b]
    # Longest increasing run of j (patience sorting): tails[k] ends the best run of k + 1.
    tails: list[int] = []
    back: list[int] = []
    ends: list[int] = []
    for n, (_, j) in enumerate(pairs):
        k = bisect.bisect_left(tails, j)
        if k == len(tails):
            tails.append(j)
            ends.append(n)
        else:
            tails[k] = j
            ends[k] = n
        back.append(ends[k - 1] if k else -1)
    out = []
    n = ends[-1] if ends else -1
    while n >= 0:
        out.append(pairs[n])
        n = back[n]
    return out[::-1]


def _shared_prefix(a: Sequence[Hashable], b: Sequence[Hashable]) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n
