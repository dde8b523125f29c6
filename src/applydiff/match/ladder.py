"""The matching ladder: tiers in order, the first that finds anything decides.

More than one hit in that tier is ``ambiguous`` unless ``replace_all`` (exact tier only) or the
line hint picks one. No hit in any tier is ``no_match``, reported with the closest regions.

A tier stops at ``LISTED + 1`` hits (the ambiguity then says "at least"), and a tier that runs
out of its work budget (``budget.py``) before it can tell one place from several refuses.
"""

from __future__ import annotations

from collections.abc import Callable

from ..errors import Ambiguous, EditError, NoMatch, Region
from . import fuzzy, tiers
from .doc import Doc
from .search import LISTED, Hit, Search, line_of

Tier = Callable[[Search], list[Hit]]

TIERS: tuple[tuple[str, Tier], ...] = (
    ("exact", tiers.exact),
    ("trailing_whitespace", tiers.trailing_whitespace),
    ("indentation", tiers.indentation),
    ("whitespace", tiers.whitespace),
    ("characters", tiers.characters),
    ("elision", tiers.elision),
    ("boundary", tiers.boundary),
    ("fuzzy", fuzzy.fuzzy),
)
TIER_NAMES = tuple(name for name, _ in TIERS)


def find(s: Search) -> list[Hit]:
    """The hit(s) to apply: one, or every exact occurrence with ``replace_all``."""
    for name, tier in TIERS:
        if s.replace_all and name != "exact":
            break
        hits = tier(s)
        stopped = s.stopped.get(name)
        if stopped == "budget" and len(hits) < 2:
            raise _too_much(s, name, hits)
        if name == "fuzzy" and len(hits) == 1:
            _refuse_if_already_applied(s, hits[0])
        if not hits:
            continue
        if s.replace_all or len(hits) == 1:
            return _with_blank_edges(s.doc, hits)
        picked = _by_hint(s, hits)
        if picked is not None:
            s.picked_by_hint = True
            return _with_blank_edges(s.doc, [picked])
        lines = [s.doc.shown(h.line) for h in _numbered(s.doc, hits)]
        shown = ", ".join(map(str, lines[:LISTED])) + (" ..." if len(lines) > LISTED else "")
        count = f"at least {len(hits)}" if stopped else str(len(hits))
        raise Ambiguous(
            f"the search text matches {count} places (tier {name}) at lines {shown}; "
            "add surrounding lines that make it unique, give a line hint, or set replace_all "
            "to change every occurrence",
            lines=lines,
            tier=name,
        )
    region = fuzzy.closest(s)
    if region:
        where = "; closest: " + ", ".join(
            f"lines {r.start_line}-{r.end_line} ({r.similarity:.0%} similar)" for r in region
        )
    elif s.stopped.get("closest") == "budget":
        where = "; the file is too large or repetitive to look for the closest lines"
    else:
        where = "; nothing in the file resembles it"
    how = "exact tier only, because replace_all is set" if s.replace_all else "any tier"
    raise NoMatch(
        f"the search text was not found ({how}){where}; re-read the file and copy the lines "
        "to change exactly",
        closest=region,
    )


def _too_much(s: Search, name: str, hits: list[Hit]) -> EditError:
    """The refusal of a tier that ran out of work before it could tell one place from
    several: never a guess, and never a fall through to a looser tier."""
    if name == "fuzzy":
        return NoMatch(
            "the search text is not in the file as written, and comparing it approximately "
            "with the file stopped at the work limit: the search text is too long, or the "
            "file too repetitive, to compare that way. Quote fewer lines, copied exactly as "
            "the file has them, with a distinctive line among them, or give a line hint",
        )
    lines = [s.doc.shown(h.line) for h in _numbered(s.doc, hits)]
    found = f"; it fits at line {lines[0]}, and perhaps elsewhere" if lines else ""
    return Ambiguous(
        f"the search text (tier {name}) could fit so many places in this repetitive file "
        f"that checking them stopped at the work limit{found}; add lines that occur only "
        "around the place to change, or give a line hint",
        lines=lines,
        tier=name,
    )


def _refuse_if_already_applied(s: Search, hit: Hit) -> None:
    """The search text is nowhere, but the place the fuzzy tier found already holds the
    replacement: the edit was most likely applied already (an agent's retry), and applying it
    again would duplicate what it adds."""
    new = (s.new or "").strip("\n")
    if not new or len(new.strip()) < fuzzy.MIN_CHARS or new in s.old:
        return
    t = s.doc.t
    p = t.find(new, hit.start, hit.end)
    if p >= 0:
        line = s.doc.shown(s.doc.line_no(p))
        end = line + new.count("\n")
        raise NoMatch(
            f"the search text is not in the file, but the replacement already is (lines "
            f"{line}-{end}): the edit looks applied already; re-read the file before editing "
            "it again",
            closest=[Region(line, end, 1.0, new)],
        )


def _with_blank_edges(doc: Doc, hits: list[Hit]) -> list[Hit]:
    """Line-level tiers match without the blank lines at the edges of the search text; where
    the file has blank lines there too, take them into the hit, so that a replacement that
    drops (or keeps) them does so."""
    for h in hits:
        if h.base is None or not (h.lead_blank or h.trail_blank):
            continue
        assert h.ours is not None and h.base_map is not None
        t = doc.t
        above: list[str] = []
        while len(above) < h.lead_blank and h.start > 0:
            prev = doc.back(h.start, 1)
            assert prev is not None
            if t[prev : h.start - 1].strip():
                break
            above.append(t[prev : h.start - 1])
            h.start = prev
        below: list[str] = []
        while len(below) < h.trail_blank and h.end < doc.n:
            e = t.find("\n", h.end)
            stop = doc.n if e < 0 else e
            if t[h.end : stop].strip():
                break
            below.append(t[h.end : stop])
            h.end = doc.n if e < 0 else e + 1
        if not above and not below:
            continue
        k, m, n = len(above), len(below), len(h.ours)
        h.ours = above[::-1] + h.ours + below
        h.base = [""] * k + h.base + [""] * m
        h.base_map = (
            [(x, x + 1) for x in range(k)]
            + [(a + k, b + k) for a, b in h.base_map]
            + [(n + k + x, n + k + x + 1) for x in range(m)]
        )
        h.markers = frozenset(x + k for x in h.markers)
        h.misquoted = {x + k: why for x, why in h.misquoted.items()}
        if h.fit is not None and h.fit.line_shifts is not None:
            h.fit.line_shifts = [None] * k + h.fit.line_shifts + [None] * m
        h.lead_blank -= k
        h.trail_blank -= m
        h.line = -1
    return hits


def _numbered(doc: Doc, hits: list[Hit]) -> list[Hit]:
    for h in hits:
        line_of(doc, h)
    return hits


def _by_hint(s: Search, hits: list[Hit]) -> Hit | None:
    """The hit nearest the hint, if it is clearly nearest (less than half the distance of the
    runner-up) and, for the fuzzy tier, itself above the threshold."""
    if s.hint is None:
        return None
    ranked = sorted(_numbered(s.doc, hits), key=lambda h: abs(h.line - s.hint))
    d1 = abs(ranked[0].line - s.hint)
    d2 = abs(ranked[1].line - s.hint)
    if 2 * d1 >= d2:
        return None
    if ranked[0].tier == "fuzzy" and ranked[0].confidence < s.threshold:
        return None
    return ranked[0]
