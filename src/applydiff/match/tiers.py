"""The literal and tolerant tiers of the matching ladder, each ``tier(search) -> list[Hit]``.

Every tier returns the places it accepts (the ladder decides about uniqueness): all of them,
or, when there are more, the first ``LISTED + 1`` (nearest the hint first when there is one),
which proves the ambiguity. Each includes the tolerances of the tiers before it, so that noise
of two kinds at once (an indentation shift and trailing blanks, say) is still found by the
first tier that covers it. Candidate windows come from ``Search.matches`` (anchor probes, or
the line index in a repetitive file), never from a slide over every line. The fuzzy tier
lives in ``fuzzy.py``.
"""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Callable, Iterator

from . import indent, search
from .budget import OverBudget
from .elision import is_marker
from .index import indent_steps
from .normalize import CharUndo, collapse, content, loose, rstrip, unescape
from .search import LISTED, Declined, Fit, Hit, Search, block_lines, nearest

# Past this many windows the indentation tier rules them out by the line index's indentation
# steps rather than one by one.
MANY_WINDOWS = 64


def exact(s: Search) -> list[Hit]:
    """Character-level substring: works mid-line; line endings already normalized."""
    t, old = s.doc.t, s.old
    if not old:
        return []
    first = t.find(old)
    if first < 0:
        return []
    size = len(old)
    whole = old.endswith("\n")
    # Whole lines quoted from the middle of their first line (its text not blank).
    from_mid = whole and "\n" in old[:-1] and bool(old[: old.index("\n")].strip())
    if from_mid:
        head = t[t.rfind("\n", 0, first) + 1 : first]
        if head.strip() and t.find(old, first + 1) < 0:
            # Found once: taken as written (the model quoted a substring), unless the
            # replacement's first line writes that line's start again (whole lines were
            # meant) or is blank (which of the two is unclear).
            if _substring_start(head, old, s.new):
                return [Hit("exact", 1.0, first, first + size)]
            s.decline(_from_mid_line(head, first, size, s.new))
            return []

    def hit(q: int) -> Hit | None:
        # Whole lines (what SEARCH blocks and diff hunks quote) start at a line start, or
        # after indentation only: "count = 0\n" is not the end of "total_count = 0".
        if whole and t[t.rfind("\n", 0, q) + 1 : q].strip():
            return None
        return Hit("exact", 1.0, q, q + size)

    if s.replace_all:
        return [h for q in _forward(t, old, first, size) if (h := hit(q)) is not None]
    hits = s.collect("exact", _occurrences(s, old, first), hit)
    if hits or not from_mid:
        return hits
    # Lines quoted from the middle of their first line, at several places: the ladder calls
    # that ambiguous (as it would the same text at line starts).
    mid = [
        Hit("exact", 1.0, q, q + size)
        for q in itertools.islice(_forward(t, old, first), LISTED + 1)
    ]
    if len(mid) > LISTED:
        s.stopped["exact"] = "enough"
    return mid


def _substring_start(head: str, old: str, new: str | None) -> bool:
    """Whether a search text found once after ``head`` (the file's start of its first line,
    not only indentation) can be replaced from there: the replacement keeps the first line
    as quoted, or writes it on without repeating the head's text; a replacement whose first
    line is blank would glue the head to the line after."""
    if new is None:  # a lookup only
        return True
    first, new_first = old.split("\n", 1)[0], new.split("\n", 1)[0]
    if new_first == first:
        return True
    return bool(new_first.strip()) and not new_first.lstrip().startswith(head.lstrip())


def _from_mid_line(head: str, start: int, size: int, new: str | None) -> Declined:
    """Why a search text found once from the middle of a line (after ``head``) is not taken
    as written: a replacement whose first line starts with the head again means the whole
    lines; a blank one may mean them, or the text as quoted."""
    new_first = (new or "").split("\n", 1)[0]
    if new_first.strip():
        why = f"the replacement's first line starts with {head.strip()!r} again"
        return Declined("exact", start, start + size, why, whole_lines=True)
    why = (
        "the replacement's first line is blank (it would join the start of that line to the "
        "next one)"
    )
    return Declined("exact", start, start + size, why)


def _forward(t: str, old: str, p: int, step: int = 1) -> Iterator[int]:
    while p >= 0:
        yield p
        p = t.find(old, p + step)


def _backward(t: str, old: str, before: int) -> Iterator[int]:
    """Occurrences of ``old`` starting before ``before``, nearest first."""
    p = t.rfind(old, 0, before - 1 + len(old))
    while p >= 0:
        yield p
        p = t.rfind(old, 0, p - 1 + len(old))


def _occurrences(s: Search, old: str, first: int) -> Iterator[int]:
    """Every occurrence (overlaps included) in file order, or nearest the hint first when
    there are more than a tier collects (else the order does not matter)."""
    t, doc = s.doc.t, s.doc
    found = _forward(t, old, first)
    head = list(itertools.islice(found, LISTED + 2))
    if s.hint is None or len(head) <= LISTED + 1:
        return itertools.chain(head, found)
    at = doc.pos_of_line(s.hint)
    at = doc.n + 1 if at is None else at
    below = _forward(t, old, t.find(old, at))
    return nearest(_backward(t, old, at), below, doc.line_no, s.hint)


def trailing_whitespace(s: Search) -> list[Hit]:
    """Whole lines equal once trailing blanks are ignored."""
    lines = s.lines
    return s.collect(
        "trailing_whitespace",
        s.nearest_first(s.matches(lines, rstrip)),
        lambda p: _line_hit("trailing_whitespace", 0.99, s, p, _window(s, p, len(lines)), lines),
    )


def indentation(s: Search) -> list[Hit]:
    """Lines equal after one uniform indentation shift (tabs and spaces on one scale)."""
    lines = s.lines
    starts = s.matches(lines, content)
    if not starts:
        return []
    if len(starts) > MANY_WINDOWS:
        # Many windows (a repetitive file): rule out in one pass those that no indentation
        # style could shift into place, before each costs a style scan of 80 lines.
        starts = _shiftable(s, starts, indent.Shifts(lines))

    def accept(start: int) -> Hit | None:
        w = _window(s, start, len(lines))
        style = s.style_near(start)
        shift = indent.fit(list(zip(lines, w[0], strict=True)), style, lines)
        if shift is None:
            return None
        fit = Fit.of(_pairs(lines, w[0]), len(lines), style, lines, uniform=shift)
        return _line_hit("indentation", 0.97, s, start, w, lines, fit)

    return s.collect("indentation", s.nearest_first(starts), accept)


def _shiftable(s: Search, starts: list[int], shifts: indent.Shifts) -> list[int]:
    """The windows of ``starts`` whose non-blank lines all sit at one offset from the
    model's under some (tab width, scale) of ``shifts`` (what ``indent.fit`` needs, whatever
    the style), found in one pass per pair through the line index's indentation steps: in
    a repetitive file checking each window in Python would cost its length times their
    number."""
    lines = s.lines
    index = s.doc.index
    tabbed = index.has_tabs() or any("\t" in indent.leading(x) for x in lines)
    fits: set[int] = set()
    for tab, scale in {(u if tabbed else 1, sc) for u, sc in shifts.combos}:
        cols = [indent.column(x, indent.Style(tabs=False, unit=tab)) for x in lines]
        steps = indent_steps(lines, cols, scale)[1:]
        if not steps:
            return starts
        fits.update(x - 1 for x in index.steps(tab).occurrences(steps, 1))
    return [p for p in starts if index.line_of(p) in fits]


def whitespace(s: Search) -> list[Hit]:
    """Lines equal once runs of blanks are collapsed (indentation ignored)."""
    lines = s.lines

    def accept(start: int) -> Hit:
        w = _window(s, start, len(lines))
        fit = Fit.of(_pairs(lines, w[0]), len(lines), s.style_near(start), lines)
        return _line_hit("whitespace", 0.95, s, start, w, lines, fit)

    return s.collect("whitespace", s.nearest_first(s.matches(lines, collapse)), accept)


def characters(s: Search) -> list[Hit]:
    """Lines equal once unicode punctuation is mapped to ASCII; failing that, once one level
    of over-escaping (``\\"``, a literal ``\\n``) is undone in the search text."""
    hits = _characters(s, s.lines, unescaped=False)
    if hits or "\\" not in s.old or s.stopped.get("characters") == "budget":
        return hits
    lines = block_lines(unescape(s.old))[0]
    return _characters(s, lines, unescaped=True) if lines != s.lines else []


def _characters(s: Search, lines: list[str], *, unescaped: bool) -> list[Hit]:
    def accept(start: int) -> Hit:
        w = _window(s, start, len(lines))
        pairs = _pairs(lines, w[0])
        fit = Fit.of(pairs, len(lines), s.style_near(start), lines, undo=_undo(pairs))
        hit = _line_hit("characters", 0.9 if unescaped else 0.93, s, start, w, lines, fit)
        hit.unescaped = unescaped
        if unescaped:
            _, hit.lead_blank, hit.trail_blank = block_lines(unescape(s.old))
        return hit

    return s.collect("characters", s.nearest_first(s.matches(lines, loose)), accept)


def elision(s: Search) -> list[Hit]:
    """Marker lines (``...``, ``# ... existing code ...``) in the search text stand for any
    number of file lines; the segments between them must match, in order."""
    lines = s.lines
    marks = [i for i, x in enumerate(lines) if is_marker(x)]
    if not marks:
        return []
    segs = []
    prev = 0
    for m in [*marks, len(lines)]:
        if m > prev:
            segs.append((prev, m))
        prev = m + 1
    if not segs:
        return []
    a0, b0 = segs[0]
    later = [(_Next(s, lines[a:b], j < PROBED), b - a) for j, (a, b) in enumerate(segs[1:])]
    starts = s.matches(lines[a0:b0], loose)
    return _tight(
        s,
        starts,
        lambda i: _chain(s, starts[i], b0 - a0, later),
        lambda placed, end: _elision_hit(s, marks, segs, placed, end),
    )


# Segments after the first found with the anchor probes; the rest (a search with many markers)
# in the line index, as a probe scans the whole text once per segment.
PROBED = 8


class _Next:
    """Where a segment next matches at or after a position: a bisect in the probes' short
    list, or a find in the line index from where the last search left off (the chains ask
    in increasing order, so each segment's scan of the file is one pass)."""

    def __init__(self, s: Search, lines: list[str], probe: bool) -> None:
        self.s = s
        self.lines = lines
        self.probe = probe
        self.ready = False
        self.found: list[int] | None = None

    def _prepare(self) -> None:
        # On first use only: a segment no chain reaches is never probed (the probes' cache
        # is shared with the fuzzy tier, which must see what it always saw).
        s, lines = self.s, self.lines
        if self.probe and s.starts(lines) is not None:
            self.found = s.matches(lines, loose)
        else:
            self.coded = s.doc.index.coded(loose)
            self.keys = s.keys(loose, lines)
            self.asked, self.answer = -1, -1
        self.ready = True

    def at_or_after(self, pos: int) -> int | None:
        if not self.ready:
            self._prepare()
        if self.found is not None:
            i = bisect.bisect_left(self.found, pos)
            return self.found[i] if i < len(self.found) else None
        index = self.s.doc.index
        line = index.line_of(pos)
        # The last answer still holds if it was asked from at or above ``line`` and lies at or
        # below it (or there was none).
        fresh = 0 <= self.asked <= line and (self.answer < 0 or self.answer >= line)
        if not fresh:
            self.asked, self.answer = line, self.coded.first(self.keys, line)
        return None if self.answer < 0 else index.starts[self.answer]


def _chain(
    s: Search, start: int, first_len: int, later: list[tuple[_Next, int]]
) -> tuple[list[int], int] | None:
    """Each segment at the nearest place after the previous one: the start position of each
    and the end of the last, or None when one is not found."""
    placed = [start]
    pos = s.advance(start, first_len)
    for nxt, size in later:
        s.budget.lines(1)
        c = nxt.at_or_after(pos)
        if c is None:
            return None
        placed.append(c)
        pos = s.advance(c, size)
    return placed, pos


def _tight(
    s: Search,
    starts: list[int],
    chain: Callable[[int], tuple[list[int], int] | None],
    make: Callable[[list[int], int], Hit | None],
) -> list[Hit]:
    """One hit per place the chains (from each of ``starts``) end at. Two readings that end
    at the same place differ only in where the first segment is; the one starting earlier
    would hide a copy of that segment inside its elision, so the tight one (the latest
    start ``make`` accepts) is kept.

    A later start never ends earlier (nor finds a segment the earlier one missed), so the
    starts of one place are neighbours and its first and last are found by bisection: a
    file where every line starts the first segment costs a few chains per place, not one
    per line. Places come in file order, or nearest the hint first; this stops at
    ``LISTED + 1`` of them or when the budget runs out (``s.stopped`` says which).
    """
    memo: dict[int, tuple[list[int], int] | None] = {}

    def at(i: int) -> tuple[list[int], int] | None:
        if i not in memo:
            memo[i] = chain(i)
        return memo[i]

    tries = [0]

    def places(i: int, step: int) -> Iterator[Hit]:
        """The hit of the place holding start ``i``, then of each place beyond it."""
        while 0 <= i < len(starts):
            got = at(i)
            if got is None:
                return  # no later start finds every segment either
            lo, hi = _same_end(at, i, len(starts), got[1])
            hit = _settle(s, at, lo, hi, got[1], make, tries)
            if hit is not None:
                yield hit
            i = hi + 1 if step > 0 else lo - 1

    out: list[Hit] = []
    try:
        for hit in _in_order(s, starts, at, places):
            out.append(hit)
            if len(out) > LISTED:
                s.stopped["elision"] = "enough"
                break
    except OverBudget:
        s.stopped["elision"] = "budget"
    out.sort(key=lambda h: h.start)
    return out


def _in_order(
    s: Search,
    starts: list[int],
    at: Callable[[int], tuple[list[int], int] | None],
    places: Callable[[int, int], Iterator[Hit]],
) -> Iterator[Hit]:
    """The places in file order, or nearest the hint first: from the place holding the
    first start at or below the hint's line, down and up (that place itself goes to the
    side its hit lies on, so that each side comes nearest first)."""
    if s.hint is None or not starts:
        yield from places(0, 1)
        return
    doc = s.doc
    line = doc.pos_of_line(s.hint)
    hint_pos = doc.n + 1 if line is None else line
    pivot = bisect.bisect_left(starts, hint_pos)
    got = at(pivot) if pivot < len(starts) else None
    if got is None:  # every place lies above the hint: from the last start that has one
        yield from places(_last_chained(at, pivot), -1)
        return
    lo, _ = _same_end(at, pivot, len(starts), got[1])
    below = places(lo, 1)
    here = [h for h in [next(below, None)] if h is not None]
    up = [h for h in here if h.start < hint_pos]
    down = [h for h in here if h.start >= hint_pos]
    yield from nearest(
        itertools.chain(up, places(lo - 1, -1)),
        itertools.chain(down, below),
        lambda h: doc.line_no(h.start),
        s.hint,
    )


def _last_chained(at: Callable[[int], tuple[list[int], int] | None], n: int) -> int:
    """The last index below ``n`` whose chain finds every segment (-1 if none does): those
    that do not are the last ones."""
    lo, hi = -1, n  # at(lo) has a chain (or lo is -1); none from hi on
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if at(mid) is not None:
            lo = mid
        else:
            hi = mid
    return lo


def _same_end(
    at: Callable[[int], tuple[list[int], int] | None], i: int, n: int, end: int
) -> tuple[int, int]:
    """The first and last index around ``i`` (whose chain ends at ``end``) whose chains end
    there too."""
    lo, hi = 0, i  # the first index whose chain ends at or past ``end`` is in [lo, hi]
    while lo < hi:
        mid = (lo + hi) // 2
        got = at(mid)
        if got is not None and got[1] >= end:
            hi = mid
        else:
            lo = mid + 1
    first = hi
    lo, hi = i, n  # at(lo) ends at ``end``; from ``hi`` on none does
    while hi - lo > 1:
        mid = (lo + hi) // 2
        got = at(mid)
        if got is not None and got[1] == end:
            lo = mid
        else:
            hi = mid
    return first, lo


def _settle(
    s: Search,
    at: Callable[[int], tuple[list[int], int] | None],
    i: int,
    j: int,
    end: int,
    make: Callable[[list[int], int], Hit | None],
    tries: list[int],
) -> Hit | None:
    """The tightest reading of one place (starts ``i``..``j``) that ``make`` accepts; each
    one tried after the tier's first costs its span from the budget."""
    for k in range(j, i - 1, -1):
        got = at(k)
        assert got is not None
        placed = got[0]
        if tries[0]:
            s.budget.lines(s.doc.t.count("\n", placed[0], end) + 1)
        tries[0] += 1
        hit = make(placed, end)
        if hit is not None:
            return hit
    return None


def _elision_hit(
    s: Search, marks: list[int], segs: list[tuple[int, int]], placed: list[int], end: int
) -> Hit | None:
    """The hit for segments placed at ``placed`` (start positions) and ending at ``end``."""
    doc, lines, start = s.doc, s.lines, placed[0]
    total = doc.t.count("\n", start, end) + (0 if end > start and doc.t[end - 1] == "\n" else 1)
    got = doc.lines_at(start, total)
    if got is None:
        return None
    ours = got[0]
    steps = (doc.t.count("\n", a, b) for a, b in itertools.pairwise([start, *placed]))
    offsets = list(itertools.accumulate(steps))
    base_map: list[tuple[int, int]] = [(0, 0)] * len(lines)
    seg_of = {}
    for (a, b), off in zip(segs, offsets, strict=True):
        for i in range(a, b):
            base_map[i] = (off + i - a, off + i - a + 1)
            seg_of[i] = off
    _map_markers(base_map, marks, segs, len(ours))
    pairs = [(i, lines[i], ours[base_map[i][0]]) for i in seg_of]
    style = s.style_near(start)
    fit = Fit.of(pairs, len(lines), style, lines, undo=_undo(pairs))
    if not _markers_in_body(lines, marks, ours, base_map, style, fit):
        return None
    return Hit(
        "elision",
        0.9,
        start,
        end,
        base=lines,
        ours=ours,
        base_map=base_map,
        fit=fit,
        markers=frozenset(marks),
        lead_blank=s.lead_blank,
        trail_blank=s.trail_blank,
    )


def _map_markers(
    base_map: list[tuple[int, int]], marks: list[int], segs: list[tuple[int, int]], n: int
) -> None:
    """A marker covers the lines between the segment before it and the one after it (the
    window's edges where there is none): one pass, segments being in order."""
    ends = [(a, b, base_map[a][0], base_map[b - 1][1]) for a, b in segs]
    j = 0
    for m in marks:
        while j < len(ends) and ends[j][1] <= m:
            j += 1
        before = ends[j - 1][3] if j else 0
        after = ends[j][2] if j < len(ends) else n
        base_map[m] = (before, after)


def _markers_in_body(
    lines: list[str],
    marks: list[int],
    ours: list[str],
    base_map: list[tuple[int, int]],
    style: indent.Style,
    fit: Fit,
) -> bool:
    """A marker right below a header ("def a():" then "    ...") and followed by a line that
    is still in the header's body ("    return x") stands for part of that body: what it
    elides stays deeper than the header, so it cannot run through the end of a() into the
    next function to find the line quoted after it. (Followed by a line at the header's level
    or above, the marker may stand for the rest of the body and whatever follows.)"""
    for m in marks:
        if m == 0 or m - 1 in marks or not lines[m - 1].strip():
            continue
        head = indent.column(ours[base_map[m - 1][0]], style)
        a, b = base_map[m]
        after = next((ours[x] for x in range(b, len(ours)) if ours[x].strip()), None)
        if after is None or indent.column(after, style) <= head:
            continue
        if fit.shift.apply(indent.column(lines[m], style)) <= head:
            continue
        if any(x.strip() and indent.column(x, style) <= head for x in ours[a:b]):
            return False
    return True


def boundary(s: Search) -> list[Hit]:
    """The first and/or last search line is a truncated prefix of the file's line; every
    other line matches in full."""
    lines = s.lines
    if len(lines) < 2:
        return []
    keys = s.keys(loose)
    starts = s.starts(lines)
    if starts is None or len(starts) * len(lines) > search.SCAN_WORK:
        starts = _boundary_starts(s, keys)
    return s.collect("boundary", s.nearest_first(starts), lambda p: _boundary_hit(s, p, keys))


def _boundary_starts(s: Search, keys: list[str]) -> list[int]:
    """Windows whose inner lines match in full, from the line index (when the probes are all
    common): the first or last line of each is checked against the index's keys before a
    window is read, so that a file where only the inner lines repeat costs one pass."""
    index = s.doc.index
    coded = index.coded(loose)
    n = len(keys)
    if n > 2:
        tops = [x - 1 for x in coded.occurrences(keys[1:-1], 1)]
    else:
        tops = sorted(set(coded.all(keys[:1])) | {x - 1 for x in coded.all(keys[1:], 1)})
    return [
        index.starts[x]
        for x in tops
        if x + n <= len(index)
        and _end_fits(keys[0], coded.keys[x])
        and _end_fits(keys[-1], coded.keys[x + n - 1])
    ]


def _end_fits(k: str, fk: str) -> bool:
    return fk == k or (len(k) >= 3 and fk.startswith(k))


def _boundary_hit(s: Search, start: int, keys: list[str]) -> Hit | None:
    lines = s.lines
    n = len(lines)
    w = s.window(start, n)
    if w is None:
        return None
    cut = set()
    for i, (k, f) in enumerate(zip(keys, w[0], strict=True)):
        fk = loose(f)
        if fk == k:
            continue
        if i in (0, n - 1) and len(k) >= 3 and fk.startswith(k):
            cut.add(i)
            continue
        return None
    if not cut or len(cut) == n:
        return None
    full = [p for p in _pairs(lines, w[0]) if p[0] not in cut]
    fit = Fit.of(full, n, s.style_near(start), lines)
    hit = _line_hit("boundary", 0.88, s, start, w, lines, fit)
    hit.misquoted = dict.fromkeys(cut, "cut short")
    return hit


# -- helpers -------------------------------------------------------------------------------
def _window(s: Search, start: int, count: int) -> tuple[list[str], int]:
    """The window at a place a tier found (it exists: its lines were compared)."""
    w = s.window(start, count)
    assert w is not None
    return w


def _line_hit(
    tier: str,
    confidence: float,
    s: Search,
    start: int,
    w: tuple[list[str], int],
    base: list[str],
    fit: Fit | None = None,
) -> Hit:
    ours, end = w
    return Hit(
        tier,
        confidence,
        start,
        end,
        base=base,
        ours=ours,
        base_map=[(i, i + 1) for i in range(len(base))],
        fit=fit,
        lead_blank=s.lead_blank,
        trail_blank=s.trail_blank,
    )


def _pairs(lines: list[str], ours: list[str]) -> list[tuple[int, str, str]]:
    return [(i, o, f) for i, (o, f) in enumerate(zip(lines, ours, strict=True))]


def _undo(pairs: list[tuple[int, str, str]]) -> CharUndo:
    undo = CharUndo()
    for _, o, f in pairs:
        undo.learn(o, f)
    return undo
