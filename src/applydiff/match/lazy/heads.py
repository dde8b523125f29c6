"""Where a segment's lines are in the file: its *head* anchor (its leading lines that the
file has, in a row) and its *tail* anchor (its trailing ones), found through an index of the
file's line keys.

Runs are measured by walking from each place of a segment's first (last) line while it has
few places, else by ``str.find`` in the keys coded as text (one file of one repeated line has
it on every line); the index carries the limits, which the merge reads at each call.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable

from .. import diff
from ..index import Coded
from ..outline import Outline, Syntax, scan
from .shapes import exact_key, loose_key

# Steps a line alignment may take (see ``diff.Matcher``).
ALIGN_WORK = diff.WORK


class Index:
    """Positions of each line of the file, by key (built once per merge, per key kind).
    ``few``: the places of a line up to which runs are walked, not found with ``str.find``;
    ``walk``: the steps a walk from each place may take, past which the coded keys are used."""

    def __init__(
        self,
        bare: list[str],
        few: int,
        walk: int,
        syntax: Syntax | None = None,
        outline: Callable[[], Outline] | None = None,
    ) -> None:
        self.bare = bare
        self.few = few
        self.walk = walk
        self.syntax = syntax  # the file's language family, when the outline knows it
        self._by: dict[bool, Keys] = {}
        self._read_outline = outline
        self._outline: Outline | None = None

    @property
    def outline(self) -> Outline | None:
        """Where the file's blocks open and close (None for a language not known)."""
        if self._outline is None and self.syntax is not None:
            if self._read_outline is not None:
                self._outline = self._read_outline()
            else:
                self._outline = scan(self.bare, self.syntax)
        return self._outline

    def view(self, loose: bool) -> Keys:
        if loose not in self._by:
            keyf = loose_key if loose else exact_key
            self._by[loose] = Keys([keyf(x) for x in self.bare], self.few, self.walk)
        return self._by[loose]


class Keys:
    """The file's line keys of one kind, where each one is, and (built the first time a run
    must be found among many places) the keys coded for ``str.find``."""

    def __init__(self, keys: list[str], few: int, walk: int) -> None:
        self.keys = keys
        self.few = few
        self.walk = walk
        self.where: dict[str, list[int]] = {}
        for i, k in enumerate(keys):
            self.where.setdefault(k, []).append(i)
        self._coded: Coded | None = None

    @property
    def coded(self) -> Coded:
        if self._coded is None:
            self._coded = Coded(self.keys)
        return self._coded

    def places(self, key: str, lo: int, hi: int | None = None) -> list[int]:
        """Where ``key`` is, in [lo, hi)."""
        rows = self.where.get(key, [])
        end = len(rows) if hi is None else bisect.bisect_left(rows, hi)
        return rows[bisect.bisect_left(rows, lo) : end]


def head_runs(sk: list[str], view: Keys, lo: int, hi: int) -> tuple[int, list[int]]:
    """(length, positions) of the longest run of the segment's first lines found in a row in
    the file, starting in [lo, hi)."""
    starts = view.places(sk[0], lo, hi)
    if len(starts) > view.few:
        return _head_runs_coded(sk, view.coded, lo, hi)
    best, at = 0, []
    for p in starts:
        r = run_at(sk, view.keys, p)
        if r > best:
            best, at = r, [p]
        elif r == best:
            at.append(p)
    return best, at


def tail_runs(sk: list[str], view: Keys, lo: int, limit: int) -> tuple[int, list[int]]:
    """(length, end positions) of the longest run of the segment's last lines (at most
    ``limit`` of them) found in a row in the file, lying in [lo, ...)."""
    ends = view.places(sk[-1], lo)
    if len(ends) > view.few:
        return _tail_runs_coded(sk, view.coded, lo, limit)
    best, at = 0, []
    for q in ends:
        r = run_back(sk, view.keys, q + 1, limit, lo)
        if r > best:
            best, at = r, [q + 1]
        elif r == best and r:
            at.append(q + 1)
    return best, at


def _head_runs_coded(sk: list[str], coded: Coded, lo: int, hi: int) -> tuple[int, list[int]]:
    """``head_runs`` by bisection on the run's length (a run occurs wherever a longer one
    does), each step one ``find``."""

    def found(r: int) -> bool:
        return coded.first(sk[:r], lo, min(len(coded.keys), hi - 1 + r)) >= 0

    best = _longest(len(sk), found)
    if not best:
        return 0, []
    at = []
    for p in coded.occurrences(sk[:best], lo):
        if p >= hi:
            break
        at.append(p)
    return best, at


def _tail_runs_coded(sk: list[str], coded: Coded, lo: int, limit: int) -> tuple[int, list[int]]:
    """``tail_runs`` as ``_head_runs_coded`` finds the head's."""
    n = len(sk)
    best = _longest(min(limit, n), lambda r: coded.first(sk[n - r :], lo) >= 0)
    if not best:
        return 0, []
    return best, [p + best for p in coded.occurrences(sk[n - best :], lo)]


def _longest(most: int, found: Callable[[int], bool]) -> int:
    """The largest r in [0, most] with ``found(r)`` (0 if none), for a ``found`` that holds
    for every r below one it holds for."""
    if most < 1 or not found(1):
        return 0
    good, bad = 1, most + 1
    while bad - good > 1:
        mid = (good + bad) // 2
        if found(mid):
            good = mid
        else:
            bad = mid
    return good


def run_at(sk: list[str], keys: list[str], p: int) -> int:
    """How many of the segment's first lines stand in the file from ``p``."""
    r = 0
    while r < len(sk) and p + r < len(keys) and keys[p + r] == sk[r]:
        r += 1
    return r


def run_back(sk: list[str], keys: list[str], q: int, limit: int, lo: int) -> int:
    """How many of the segment's last lines (at most ``limit``) end the file at ``q``."""
    r = 0
    n = len(sk)
    while r < limit and q - 1 - r >= lo and keys[q - 1 - r] == sk[n - 1 - r]:
        r += 1
    return r


def split_walk(
    keys: list[str], starts: list[int], sk: list[str], split: int, gap: int
) -> tuple[int, int] | None:
    """``split_at`` by walking from each place of the first line (few of them)."""
    n = len(sk)
    for a in starts:
        if keys[a : a + split] != sk[:split]:
            continue
        for b in range(a + split + 1, min(len(keys), a + split + gap) + 1):
            if keys[b : b + n - split] == sk[split:]:
                return a, b
    return None


def split_at(
    coded: Coded, left: list[str], right: list[str], lo: int, gap: int
) -> tuple[int, int] | None:
    """The first ``a`` (from ``lo``), then the first ``b``, with ``left`` at ``a`` and
    ``right`` at ``b``, one to ``gap`` lines below the end of ``left``.

    The places of the rarer side are listed (both are read in step until one ends) and the
    other side is checked around each: in a repetitive file one side may be everywhere.
    """
    k = len(left)
    lefts, rights = coded.occurrences(left, lo), coded.occurrences(right, lo + k + 1)
    seen_l: list[int] = []
    seen_r: list[int] = []
    while True:
        x = next(lefts, None)
        if x is None:
            return _pair_from_left(seen_l, coded.matcher(right), k, gap)
        seen_l.append(x)
        y = next(rights, None)
        if y is None:
            return _pair_from_right(seen_r, coded.matcher(left), k, gap, lo)
        seen_r.append(y)


def _pair_from_left(
    lefts: list[int], right_at: Callable[[int], bool], k: int, gap: int
) -> tuple[int, int] | None:
    for a in lefts:
        for b in range(a + k + 1, a + k + gap + 1):
            if right_at(b):
                return a, b
    return None


def _pair_from_right(
    rights: list[int], left_at: Callable[[int], bool], k: int, gap: int, lo: int
) -> tuple[int, int] | None:
    best: tuple[int, int] | None = None
    for b in rights:
        for a in range(max(lo, b - k - gap), b - k):
            if best is not None and (a, b) >= best:
                break
            if left_at(a):
                best = (a, b)
                break
    return best
