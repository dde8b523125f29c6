"""The matching ladder: tiers in order, the first that finds anything decides.

A tier that finds the text but cannot decide records it (``Search.declined``); no later tier
then applies it: the refusal names both readings (the exact tier's text found once from the
middle of a line, whose replacement's first line is blank, may mean the text as written or
the whole lines). Only where the declining tier read the text as the whole lines it spans
may a later tier place it, there and nowhere else.

More than one hit in that tier is ``ambiguous`` unless ``replace_all`` (exact tier only) or the
line hint picks one. No hit in any tier is ``no_match``, reported with the closest regions.

A tier stops at ``LISTED + 1`` hits (the ambiguity then says "at least"), and a tier that runs
out of its work budget (``budget.py``) before it can tell one place from several refuses.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from rapidfuzz.distance import Levenshtein

from ..errors import Ambiguous, EditError, NoMatch, Region
from . import diff, fuzzy, tiers
from .doc import Doc
from .normalize import content, rstrip
from .numbered import unnumbered
from .rewrite import new_lines
from .search import LISTED, Declined, Hit, Search, line_of

Tier = Callable[[Search], list[Hit]]

# The tiers that compare the search text literally (up to noise), which the line-numbers
# tier runs again on the text without its copied numbers.
_LITERAL: tuple[tuple[str, Tier], ...] = (
    ("exact", tiers.exact),
    ("trailing_whitespace", tiers.trailing_whitespace),
    ("indentation", tiers.indentation),
    ("whitespace", tiers.whitespace),
    ("characters", tiers.characters),
)


def line_numbers(s: Search) -> list[Hit]:
    """The search text as a numbered read showed it (``  12| x = 1``): without the numbers,
    found by a literal tier, the first number a line hint. The replacement loses its
    numbers too when every line of it has one (``s.new`` is then the text to write). A block
    numbered on some lines only, or barred without numbers, is read without those prefixes,
    and its replacement loses the same kinds of prefix where it has them."""
    read = unnumbered(s.old, s.new)
    if read is None:
        return []
    old, new, first = read
    hint = s.hint if s.hint is not None or first is None else max(first - 1, 0)
    sub = Search(s.doc, old, hint=hint, threshold=s.threshold, replace_all=s.replace_all, new=new)
    for name, tier in _LITERAL:
        hits = tier(sub)
        if sub.declined is not None:  # the ladder's rule holds inside this tier too
            s.decline(replace(sub.declined, tier="line_numbers"))
        if hits:
            s.new, s.hint, s.new_rewritten = new, hint, True
            if name in sub.stopped:
                s.stopped["line_numbers"] = sub.stopped[name]
            return [replace(h, tier="line_numbers") for h in hits]
    return []


TIERS: tuple[tuple[str, Tier], ...] = (
    *_LITERAL,
    ("line_numbers", line_numbers),
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
        if s.declined is not None:
            return _where_declined(s, name, hits)
        mid_line = name == "exact" and bool(_head(s, hits[0]))
        if mid_line and len(hits) == 1:
            _whole_lines_elsewhere(s, hits[0])
        if s.replace_all or len(hits) == 1:
            _keep_heads(s, hits)
            return _with_blank_edges(s.doc, hits)
        # Places in the middle of lines are only a guess: no hint picks one of them.
        picked = None if mid_line else _by_hint(s, hits)
        if picked is not None:
            s.picked_by_hint = True
            _keep_heads(s, [picked])
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
    if s.declined is not None:
        raise _declined(s, s.declined)
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


# -- lines quoted from their middle ------------------------------------------------------------
# Line-level tiers run against an exact hit that starts mid-line: a place where the search
# text is whole lines (with noise) makes the one in the middle of a line a guess.
_WHOLE_LINE_TIERS = ("trailing_whitespace", "indentation", "whitespace", "characters")


def _head(s: Search, hit: Hit) -> str:
    """The text of its first line before an exact hit of whole lines ("" when the hit starts
    the line, or after indentation only)."""
    if hit.base is not None or not s.old.endswith("\n"):
        return ""
    t = s.doc.t
    head = t[t.rfind("\n", 0, hit.start) + 1 : hit.start]
    return head if head.strip() else ""


def _whole_lines_elsewhere(s: Search, hit: Hit) -> None:
    """Refuse an exact hit that starts mid-line when the search text also fits as whole lines
    somewhere (the tiers after exact that compare whole lines)."""
    for name, tier in TIERS:
        if name not in _WHOLE_LINE_TIERS:
            continue
        others = tier(s)
        if others:
            doc = s.doc
            here, there = (doc.shown(line_of(doc, h)) for h in (hit, others[0]))
            raise Ambiguous(
                f"the search text occurs once starting in the middle of line {here}, and as "
                f"whole lines (tier {name}) at line {there}; quote the lines whole, as the "
                "file has them at the place to change",
                lines=sorted({here} | {doc.shown(line_of(doc, h)) for h in others})[: LISTED + 1],
                tier=name,
            )


# -- a tier that found the text and did not take it ---------------------------------------------
# The first tier that finds the search text decides. A tier that finds it but cannot decide
# (``Search.declined``) ends the ladder: a later tier's reading is only named in the refusal,
# or, when the declining tier read the text as the whole lines it spans, applied there.


def _where_declined(s: Search, name: str, hits: list[Hit]) -> list[Hit]:
    """The hit of a later tier when it places the text where the declining tier read it as
    whole lines; else the refusal naming both readings."""
    d = s.declined
    assert d is not None
    doc = s.doc
    if d.whole_lines and len(hits) == 1:
        placed = _with_blank_edges(doc, hits)
        if _line_span(doc, placed[0].start, placed[0].end) == _line_span(doc, d.start, d.end):
            _keep_heads(s, placed)
            return placed
    raise _two_readings(s, d, name, hits)


def _line_span(doc: Doc, start: int, end: int) -> tuple[int, int]:
    """The first and last line (0-based) of the text from ``start`` to ``end``."""
    return doc.line_no(start), doc.line_no(max(start, end - 1))


def _line_text(doc: Doc, at: int) -> str:
    """The line holding position ``at``, without its terminator."""
    end = doc.t.find("\n", at)
    return doc.t[doc.t.rfind("\n", 0, at) + 1 : doc.n if end < 0 else end]


def _declined(s: Search, d: Declined) -> NoMatch:
    """The refusal of a search text a tier found and did not take, which no later tier read
    otherwise: where it is and why it was not taken."""
    doc = s.doc
    first = doc.shown(doc.line_no(d.start))
    text = _line_text(doc, d.start)
    return NoMatch(
        f"the search text occurs once, but starts in the middle of line {first} "
        f"({text.strip()!r}), and {d.why}, so what that line should become is unclear; "
        + _QUOTE_WHOLE,
        closest=[Region(first, first, 1.0, text)],
    )


_QUOTE_WHOLE = "quote each line whole, from its first character, as the file has it"


def _two_readings(s: Search, d: Declined, name: str, hits: list[Hit]) -> NoMatch:
    """The refusal of a search text a tier found and did not take while a later tier read
    it as whole lines: both readings, with their lines; neither is applied."""
    doc = s.doc
    first, last = (doc.shown(x) for x in _line_span(doc, d.start, d.end))
    text = _line_text(doc, d.start).strip()
    if d.whole_lines:
        ours = (
            f"as lines {first}-{last} whole, as it occurs once from the middle of line {first} "
            f"({text!r}) and {d.why}"
        )
    else:
        ours = (
            f"as written, from the middle of line {first} ({text!r}) to the end of line "
            f"{last}, where {d.why}"
        )
    regions = [_region(doc, h.start, h.end, h.confidence) for h in hits[:LISTED]]
    places = ", ".join(_where(r) for r in regions)
    here = _region(doc, d.start, d.end, 1.0)
    return NoMatch(
        f"the search text reads two ways: {ours}; and as whole lines (tier {name}) at "
        f"{places}. Which one is meant is unclear, so neither is applied; " + _QUOTE_WHOLE,
        closest=[here, *(r for r in regions if _lines(r) != _lines(here))],
    )


def _lines(r: Region) -> tuple[int, int]:
    return r.start_line, r.end_line


def _where(r: Region) -> str:
    if r.end_line > r.start_line:
        return f"lines {r.start_line}-{r.end_line}"
    return f"line {r.start_line}"


def _region(doc: Doc, start: int, end: int, similarity: float) -> Region:
    """The whole lines from ``start`` to ``end``, as a region of a refusal."""
    a, b = _line_span(doc, start, end)
    first = doc.t.rfind("\n", 0, start) + 1
    last = doc.t.find("\n", max(start, end - 1))
    text = doc.t[first : doc.n if last < 0 else last]
    return Region(doc.shown(a), doc.shown(b), similarity, text)


def _keep_heads(s: Search, hits: list[Hit]) -> None:
    """A tolerant tier never cuts into a line the search text does not cover. A search line
    that stands for the end of its file line ("s_subset = 1" for "is_subset = 1": the model
    started it late, or dropped its first characters) may stay as the file has it, or
    become a replacement line that starts with what it left out (the line rewritten whole);
    any other change of it is refused (marked misquoted, which the splice refuses to change),
    as it would drop or keep that start by guesswork."""
    if s.new is None:
        return
    for hit in hits:
        if hit.base is None or hit.markers:
            continue
        assert hit.ours is not None and hit.base_map is not None
        heads = {}
        for i, (a, b) in enumerate(hit.base_map):
            if b - a == 1 and i not in hit.misquoted:
                head = _left_out(content(hit.base[i]), content(hit.ours[a]))
                if head:
                    heads[i] = head
        if heads:
            _refuse_cut_changes(hit, heads, new_lines(hit, s.new))


def _left_out(quoted: str, line: str) -> str:
    """The start of ``line`` that ``quoted`` leaves out, when ``quoted`` reads as the rest of
    the line (exactly, or within the typo the fuzzy tier allows a line); "" otherwise. Only
    the first characters are tried past the exact case: a cut deeper than a typo leaves the
    line "differs" (misquoted) in the fuzzy tier already, and the other tiers compare lines
    whole."""
    if not quoted or quoted == line:
        return ""
    if line.endswith(quoted):
        return line[: len(line) - len(quoted)]
    for k in range(1, fuzzy.LINE_EDITS):
        left = fuzzy.LINE_EDITS - k
        close = len(line) > k and line[k] == quoted[0]
        if close and Levenshtein.distance(quoted, line[k:], score_cutoff=left) <= left:
            return line[:k]
    return ""


def _refuse_cut_changes(hit: Hit, heads: dict[int, str], theirs: list[str]) -> None:
    assert hit.base is not None and hit.ours is not None and hit.base_map is not None
    misquoted = dict(hit.misquoted)
    bkeys = [rstrip(x) for x in hit.base]
    tkeys = [rstrip(x) for x in theirs]
    for tag, i1, i2, j1, j2 in diff.opcodes(bkeys, tkeys):
        if tag == "equal":
            continue
        for i in range(i1, i2):
            head = heads.get(i)
            if head is None or j1 == j2:  # kept, or deleted whole
                continue
            j = j1 + i - i1 if i2 - i1 == j2 - j1 else None
            written = [theirs[j]] if j is not None else theirs[j1:j2]
            if not any(content(x).startswith(head) for x in written):
                misquoted[i] = "differs"
    if len(misquoted) != len(hit.misquoted):
        hit.misquoted = misquoted


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
    hint = s.hint
    if hint is None:
        return None
    ranked = sorted(_numbered(s.doc, hits), key=lambda h: abs(h.line - hint))
    d1 = abs(ranked[0].line - hint)
    d2 = abs(ranked[1].line - hint)
    if 2 * d1 >= d2:
        return None
    if ranked[0].tier == "fuzzy" and ranked[0].confidence < s.threshold:
        return None
    return ranked[0]
