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

from .normalize import collapse

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


# Inserted or deleted lines up to which two versions of a file are aligned exactly.
FEW = 300


def align_versions(old: Sequence[str], new: Sequence[str]) -> list[Opcode]:
    """Opcodes of two versions of one file's lines (terminators off): lines equal but for
    trailing whitespace first (so a block moved and re-indented is not paired with one left
    alone), then, inside each stretch that differs, lines equal but for whitespace. The
    ends they share are equal; the middle is aligned exactly (Myers) when it differs in a
    few places, else by the bounded ``opcodes``."""
    out: list[Opcode] = []
    for tag, i1, i2, j1, j2 in _versions([x.rstrip() for x in old], [x.rstrip() for x in new]):
        if tag != "replace":
            out.append((tag, i1, i2, j1, j2))
            continue
        inner = _versions([collapse(x) for x in old[i1:i2]], [collapse(x) for x in new[j1:j2]])
        out += [(t, a1 + i1, a2 + i1, b1 + j1, b2 + j1) for t, a1, a2, b1, b2 in inner]
    return out


def _versions(a: Sequence[str], b: Sequence[str]) -> list[Opcode]:
    p = _shared_prefix(a, b)
    s = _shared_prefix(a[p:][::-1], b[p:][::-1])
    out: list[Opcode] = [("equal", 0, p, 0, p)] if p else []
    ma, mb = a[p : len(a) - s], b[p : len(b) - s]
    middle = few_changes(ma, mb, FEW) or opcodes(ma, mb)
    out += [(t, i1 + p, i2 + p, j1 + p, j2 + p) for t, i1, i2, j1, j2 in middle]
    if s:
        out.append(("equal", len(a) - s, len(a), len(b) - s, len(b)))
    return out


def few_changes(
    a: Sequence[Hashable], b: Sequence[Hashable], most: int = 400
) -> list[Opcode] | None:
    """A shortest alignment of ``a`` and ``b`` (Myers' O(ND) diff) when they differ by at
    most ``most`` inserted or deleted elements, else None. Two versions of one file that an
    edit touched in a few places are aligned exactly, in steps that grow with the file times
    the changes, where ``SequenceMatcher`` pays for every repeated line ("}", blank)."""
    n, m = len(a), len(b)
    v: dict[int, int] = {1: 0}
    trace: list[dict[int, int]] = []
    for d in range(most + 1):
        trace.append(dict(v))
        for k in range(-d, d + 1, 2):
            x = v[k + 1] if k == -d or (k != d and v[k - 1] < v[k + 1]) else v[k - 1] + 1
            y = x - k
            while x < n and y < m and a[x] == b[y]:
                x += 1
                y += 1
            v[k] = x
            if x >= n and y >= m:
                return _opcodes_of(_path(trace, d, n, m), n, m)
    return None


def _path(trace: list[dict[int, int]], d: int, x: int, y: int) -> list[tuple[int, int]]:
    """The equal pairs (i, j) of the edit path that ends at (x, y) after ``d`` edits
    (``trace[step]``: the furthest x on each diagonal before edit ``step``)."""
    pairs: list[tuple[int, int]] = []
    for step in range(d, 0, -1):
        v = trace[step]
        k = x - y
        down = k == -step or (k != step and v[k - 1] < v[k + 1])  # an insertion
        px = v[k + 1] if down else v[k - 1]
        py = px - (k + 1 if down else k - 1)
        mid_x = px if down else px + 1  # after the one edit, the equal run to (x, y)
        while x > mid_x:
            x, y = x - 1, y - 1
            pairs.append((x, y))
        x, y = px, py
    while x > 0 and y > 0:
        x, y = x - 1, y - 1
        pairs.append((x, y))
    return pairs[::-1]


def _opcodes_of(pairs: list[tuple[int, int]], n: int, m: int) -> list[Opcode]:
    """Opcodes from the equal pairs of an alignment (increasing on both sides)."""
    out: list[Opcode] = []
    i = j = 0
    for x, y in [*pairs, (n, m)]:
        if i < x or j < y:
            tag = "replace" if i < x and j < y else ("delete" if i < x else "insert")
            out.append((tag, i, x, j, y))
        if x == n and y == m:
            break
        if out and out[-1][0] == "equal" and out[-1][2] == x and out[-1][4] == y:
            out[-1] = ("equal", out[-1][1], x + 1, out[-1][3], y + 1)
        else:
            out.append(("equal", x, x + 1, y, y + 1))
        i, j = x + 1, y + 1
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
