"""The literal and tolerant tiers of the matching ladder, each ``tier(search) -> list[Hit]``.

Every tier returns *all* the places it accepts (the ladder decides about uniqueness) and
includes the tolerances of the tiers before it, so that noise of two kinds at once (an
indentation shift and trailing blanks, say) is still found by the first tier that covers it.
The fuzzy tier lives in ``fuzzy.py``.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterator

from . import indent
from .elision import is_marker
from .normalize import CharUndo, collapse, content, loose, rstrip, unescape
from .search import Fit, Hit, Search, block_lines

# Past this many exact occurrences the answer is "ambiguous" anyway; stop counting.
MAX_HITS = 1000


def exact(s: Search) -> list[Hit]:
    """Character-level substring: works mid-line; line endings already normalized."""
    t, old = s.doc.t, s.old
    if not old:
        return []
    find = t.find
    p = find(old)
    if p < 0:
        return []
    step = len(old) if s.replace_all else 1
    out = [p]
    p = find(old, p + step)
    while p >= 0 and len(out) < MAX_HITS:
        out.append(p)
        p = find(old, p + step)
    if old.endswith("\n"):
        # Whole lines (what SEARCH blocks and diff hunks quote) start at a line start, or
        # after indentation only: "count = 0\n" is not the end of "total_count = 0".
        out = [q for q in out if not t[t.rfind("\n", 0, q) + 1 : q].strip()]
    size = len(old)
    return [Hit("exact", 1.0, q, q + size) for q in out]


def trailing_whitespace(s: Search) -> list[Hit]:
    """Whole lines equal once trailing blanks are ignored."""
    return [
        _line_hit("trailing_whitespace", 0.99, s, start, w, s.lines)
        for start, w in _windows(s, s.lines, rstrip)
    ]


def indentation(s: Search) -> list[Hit]:
    """Lines equal after one uniform indentation shift (tabs and spaces on one scale)."""
    lines = s.lines
    out = []
    for start, w in _windows(s, lines, content):
        style = s.style_near(start)
        shift = indent.fit(list(zip(lines, w[0], strict=True)), style, lines)
        if shift is not None:
            fit = Fit.of(_pairs(lines, w[0]), len(lines), style, lines, uniform=shift)
            out.append(_line_hit("indentation", 0.97, s, start, w, lines, fit))
    return out


def whitespace(s: Search) -> list[Hit]:
    """Lines equal once runs of blanks are collapsed (indentation ignored)."""
    lines = s.lines
    out = []
    for start, w in _windows(s, lines, collapse):
        fit = Fit.of(_pairs(lines, w[0]), len(lines), s.style_near(start), lines)
        out.append(_line_hit("whitespace", 0.95, s, start, w, lines, fit))
    return out


def characters(s: Search) -> list[Hit]:
    """Lines equal once unicode punctuation is mapped to ASCII; failing that, once one level
    of over-escaping (``\\"``, a literal ``\\n``) is undone in the search text."""
    hits = _characters(s, s.lines, unescaped=False)
    if hits or "\\" not in s.old:
        return hits
    lines = block_lines(unescape(s.old))[0]
    return _characters(s, lines, unescaped=True) if lines != s.lines else []


def _characters(s: Search, lines: list[str], *, unescaped: bool) -> list[Hit]:
    out = []
    for start, w in _windows(s, lines, loose):
        pairs = _pairs(lines, w[0])
        fit = Fit.of(pairs, len(lines), s.style_near(start), lines, undo=_undo(pairs))
        hit = _line_hit("characters", 0.9 if unescaped else 0.93, s, start, w, lines, fit)
        hit.unescaped = unescaped
        if unescaped:
            _, hit.lead_blank, hit.trail_blank = block_lines(unescape(s.old))
        out.append(hit)
    return out


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
    keys = s.keys(loose)
    out = []
    a0, b0 = segs[0]
    for start in s.candidate_starts(lines[a0:b0]):
        hit = _chain(s, lines, keys, marks, segs, start)
        if hit is not None:
            out.append(hit)
    # Two readings that end at the same place differ only in where the first segment is; the
    # one starting earlier would hide a copy of that segment inside its elision. Keep the
    # tight one.
    return [h for h in out if not any(o.end == h.end and o.start > h.start for o in out)]


def _chain(
    s: Search,
    lines: list[str],
    keys: list[str],
    marks: list[int],
    segs: list[tuple[int, int]],
    start: int,
) -> Hit | None:
    """Match each segment at the nearest place after the previous one."""
    doc = s.doc
    placed: list[int] = []  # start position of each segment
    pos = start
    for j, (a, b) in enumerate(segs):
        seg_keys = keys[a:b]
        if j == 0:
            w = s.window(pos, b - a)
            if w is None or not _same(w[0], seg_keys, loose):
                return None
            placed.append(pos)
            pos = w[1]
            continue
        cands = s.candidate_starts(lines[a:b])
        i = bisect.bisect_left(cands, pos)
        for c in cands[i:]:
            w = s.window(c, b - a)
            if w is not None and _same(w[0], seg_keys, loose):
                placed.append(c)
                pos = w[1]
                break
        else:
            return None
    end = pos
    total = doc.t.count("\n", start, end) + (0 if end > start and doc.t[end - 1] == "\n" else 1)
    got = doc.lines_at(start, total)
    if got is None:
        return None
    ours = got[0]
    offsets = [doc.t.count("\n", start, p) for p in placed]
    base_map: list[tuple[int, int]] = [(0, 0)] * len(lines)
    seg_of = {}
    for (a, b), off in zip(segs, offsets, strict=True):
        for i in range(a, b):
            base_map[i] = (off + i - a, off + i - a + 1)
            seg_of[i] = off
    # A marker covers the lines between the segment before it and the one after it.
    for m in marks:
        before = max((base_map[i][1] for i in range(m) if i in seg_of), default=0)
        after = min(
            (base_map[i][0] for i in range(m + 1, len(lines)) if i in seg_of), default=len(ours)
        )
        base_map[m] = (before, after)
    pairs = [(i, lines[i], ours[base_map[i][0]]) for i in seg_of]
    style = s.style_near(start)
    fit = Fit.of(pairs, len(lines), style, lines, undo=_undo(pairs))
    # A marker right below a header ("def a():" then "    ...") and followed by a line that is
    # still in the header's body ("    return x") stands for part of that body: what it elides
    # stays deeper than the header, so it cannot run through the end of a() into the next
    # function to find the line quoted after it. (Followed by a line at the header's level or
    # above, the marker may stand for the rest of the body and whatever follows.)
    for m in marks:
        if m == 0 or m - 1 in marks or not lines[m - 1].strip():
            continue
        head = indent.column(ours[base_map[m - 1][0]], style)
        a, b = base_map[m]
        after = next((x for x in ours[b:] if x.strip()), None)
        if after is None or indent.column(after, style) <= head:
            continue
        if fit.shift.apply(indent.column(lines[m], style)) <= head:
            continue
        if any(x.strip() and indent.column(x, style) <= head for x in ours[a:b]):
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


def boundary(s: Search) -> list[Hit]:
    """The first and/or last search line is a truncated prefix of the file's line; every
    other line matches in full."""
    lines = s.lines
    n = len(lines)
    if n < 2:
        return []
    starts = s.candidate_starts(lines)
    keys = s.keys(loose) if starts else []
    out = []
    for start in starts:
        w = s.window(start, n)
        if w is None:
            continue
        cut = set()
        for i, (k, f) in enumerate(zip(keys, w[0], strict=True)):
            fk = loose(f)
            if fk == k:
                continue
            if i in (0, n - 1) and len(k) >= 3 and fk.startswith(k):
                cut.add(i)
                continue
            break
        else:
            if cut and len(cut) < n:
                full = [p for p in _pairs(lines, w[0]) if p[0] not in cut]
                fit = Fit.of(full, n, s.style_near(start), lines)
                hit = _line_hit("boundary", 0.88, s, start, w, lines, fit)
                hit.misquoted = dict.fromkeys(cut, "cut short")
                out.append(hit)
    return out


# -- helpers -------------------------------------------------------------------------------
def _same(ours: list[str], keys: list[str], norm: Callable[[str], str]) -> bool:
    return all(norm(f) == k for f, k in zip(ours, keys, strict=True))


def _windows(
    s: Search, lines: list[str], norm: Callable[[str], str]
) -> Iterator[tuple[int, tuple[list[str], int]]]:
    """Windows whose lines equal ``lines`` under ``norm``."""
    if not lines:
        return
    starts = s.candidate_starts(lines)
    if not starts:
        return
    keys = s.keys(norm, None if lines is s.lines else lines)
    for start in starts:
        w = s.window(start, len(lines))
        if w is not None and _same(w[0], keys, norm):
            yield start, w


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
