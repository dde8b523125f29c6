"""Anchored edits: ``start`` lines (and optionally ``end`` lines) quoted from the file delimit
the region that ``content`` replaces.

Anchors are compared exactly, then with trailing blanks ignored, then trimmed; the first
comparison that finds ``start`` decides, and it must find exactly one place (or the hint must
pick one). ``end`` is the first match at or after ``start``.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable
from itertools import islice

from ..errors import Ambiguous, NoMatch
from ..text import to_lf
from . import fuzzy
from .doc import Doc
from .normalize import content, rstrip
from .rewrite import splice
from .search import LISTED, Fit, Hit, Search

COMPARISONS: tuple[tuple[str, Callable[[str], str]], ...] = (
    ("exact", lambda x: x),
    ("trailing_whitespace", rstrip),
    ("trimmed", content),
)


def replace_anchored(
    text: str,
    start: list[str],
    new_content: list[str],
    end: list[str] | None = None,
    *,
    hint_line: int | None = None,
) -> tuple[str, Hit, Doc]:
    """``text`` with the anchored region replaced; also the hit (for its tier and lines)."""
    doc = Doc(text)
    start = [to_lf(x).rstrip("\n") for x in start]
    s = Search(doc, "\n".join(start) + "\n", hint=None if hint_line is None else hint_line - 1)
    tier, pos = _find_start(s, start)
    w = s.window(pos, len(start))
    assert w is not None
    region_end = w[1]
    if end:
        end = [to_lf(x).rstrip("\n") for x in end]
        region_end = _find_end(s, end, pos, w[1])
    count = doc.t.count("\n", pos, region_end) + (
        0 if region_end > pos and doc.t[region_end - 1] == "\n" else 1
    )
    got = doc.lines_at(pos, count)
    assert got is not None
    ours = got[0]
    fit = None
    if tier == "trimmed":
        pairs = [(i, o, f) for i, (o, f) in enumerate(zip(start, ours, strict=False))]
        fit = Fit.of(pairs, len(ours), s.style_near(pos), start)
        # Every region line is shifted like the start lines (the model saw none of the rest).
        fit.line_shifts = None
    hit = Hit(
        tier,
        {"exact": 1.0, "trailing_whitespace": 0.99, "trimmed": 0.95}[tier],
        pos,
        region_end,
        base=ours,
        ours=ours,
        base_map=[(i, i + 1) for i in range(len(ours))],
        fit=fit,
        line=doc.line_no(pos),
    )
    body = "".join(to_lf(x).rstrip("\n") + "\n" for x in new_content)
    return splice(doc, [hit], body), hit, doc


def _find_start(s: Search, start: list[str]) -> tuple[str, int]:
    for tier, norm in COMPARISONS:
        found = s.matches(start, norm)
        if len(found) == 1:
            return tier, found[0]
        if found:
            if s.hint is not None:
                near = list(islice(s.by_distance(found), 2))
                d1, d2 = (abs(s.doc.line_no(p) - s.hint) for p in near)
                if 2 * d1 < d2:
                    return tier, near[0]
            lines = [s.doc.line_no(p) + 1 for p in found[: LISTED + 1]]
            shown = ", ".join(map(str, lines[:LISTED])) + (" ..." if len(found) > LISTED else "")
            raise Ambiguous(
                f"the start lines match {len(found)} places (at lines {shown}); quote more "
                "lines so they are unique",
                lines=lines,
                tier=tier,
            )
    raise NoMatch(
        "the start lines were not found in the file; quote them exactly as the file has them",
        closest=fuzzy.closest(s),
    )


def _find_end(s: Search, end: list[str], start_pos: int, start_end: int) -> int:
    """End position of the first ``end`` match at or after the start whose end is not before
    the start's end."""
    for _tier, norm in COMPARISONS:
        cands = s.matches(end, norm)
        for pos in cands[bisect.bisect_left(cands, start_pos) :]:
            stop = s.advance(pos, len(end))
            if stop >= start_end:
                return stop
    raise NoMatch(
        "the end lines were not found after the start lines; quote them exactly, or leave "
        "end out to replace only the start lines",
    )
