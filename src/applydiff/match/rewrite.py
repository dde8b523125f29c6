"""Splice: turn a located hit and the model's replacement into the file's new text.

Bytes outside the hit are never touched. Inside a line-level hit, the model's change is merged
onto the file's lines: a line the model left as it wrote it in the search text keeps the
file's own bytes (its indentation, its smart quotes, its terminator, even a typo the model
misremembered); so does a line it misquoted but wrote in the replacement as the file has it
(the fix is not made twice). Only lines the model changed are written from the replacement,
merged inside the line with the file's (``inline.py``), given the file's indentation bytes of
a search line the model indented alike (``Leads``), and ended as the file ends its lines.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from functools import cached_property

from rapidfuzz.distance import Indel

from ..errors import FormatInvalid, NoMatch, Region
from ..text import LF, to_lf
from . import diff, indent, inline
from .doc import Doc
from .elision import is_marker
from .normalize import collapse, content, rstrip, unescape
from .search import Hit, line_of


def splice(doc: Doc, hits: list[Hit], new: str) -> str:
    """The original text with each hit replaced by ``new`` (hits must not overlap)."""
    pieces = []
    tail = len(doc.orig)
    kept: dict[tuple[str, str], list[tuple[int, int]]] = {}  # see _kept_lines
    for hit in sorted(hits, key=lambda h: h.start, reverse=True):
        if hit.base is None:
            a, b, text = _char_replacement(doc, hit, new, kept)
        else:
            a, b, text = _line_replacement(doc, hit, new)
        pieces += [doc.orig[b:tail], text]
        tail = a
    pieces.append(doc.orig[:tail])
    return "".join(reversed(pieces))


def _continued(doc: Doc, hit: Hit, new: str) -> str:
    """A one-line search text found after a line's indentation, replaced by several lines:
    the model wrote the added lines as if the first started at column 0, so they take the
    indentation it left out ("x = 1" -> "x = 1\\ny = 2" inside a function)."""
    if "\n" not in new.rstrip("\n"):
        return new  # one line: nothing to indent (checked first: replace_all asks per hit)
    t = doc.t
    old = t[hit.start : hit.end]
    prefix = t[t.rfind("\n", 0, hit.start) + 1 : hit.start]
    if not prefix or prefix.strip() or "\n" in old.rstrip("\n"):
        return new
    first, *rest = new.split("\n")
    if all(x.startswith(prefix) for x in rest if x.strip()):
        return new  # already written at the file's indentation
    return "\n".join([first, *(prefix + x if x.strip() else x for x in rest)])


def _char_replacement(
    doc: Doc, hit: Hit, new: str, kept: dict[tuple[str, str], list[tuple[int, int]]]
) -> tuple[int, int, str]:
    new = _continued(doc, hit, to_lf(new))
    if not doc.has_cr:
        return hit.start, hit.end, new
    region = doc.t[hit.start : hit.end]
    old_segs = region.split(LF)
    # The terminator each line of the region had (the last segment has none in the region).
    terms = []
    p = hit.start
    for seg in old_segs[:-1]:
        p += len(seg)
        terms.append(doc.eol_at(p))
        p += 1
    new_segs = new.split(LF)
    dom = doc.dominant_eol()
    new_terms = [dom] * (len(new_segs) - 1)
    # Unchanged lines and lines edited in place keep their own terminator.
    key = (region, new)
    if key not in kept:
        kept[key] = _kept_lines(old_segs[:-1], new_segs[:-1])
    for i, j in kept[key]:
        new_terms[j] = terms[i]
    text = "".join(seg + term for seg, term in zip(new_segs, [*new_terms, ""], strict=True))
    return doc.orig_offset(hit.start), doc.orig_offset(hit.end), text


def _kept_lines(old: list[str], new: list[str]) -> list[tuple[int, int]]:
    """(old line, new line) pairs of lines unchanged or edited in place: the same for every
    hit of a replace_all, so it is worked out once per region text."""
    out = []
    for tag, i1, i2, j1, j2 in diff.opcodes(old, new):
        if tag == "equal" or (tag == "replace" and i2 - i1 == j2 - j1):
            out += [(i1 + d, j1 + d) for d in range(i2 - i1)]
    return out


def new_lines(hit: Hit, new: str) -> list[str]:
    """The replacement as lines, with the blank edge lines the search text also had dropped."""
    text = to_lf(unescape(new) if hit.unescaped else new)
    lines = text.split(LF)
    if lines[-1] == "":
        lines.pop()
    lead = 0
    while lead < hit.lead_blank and lead < len(lines) and not lines[lead].strip():
        lead += 1
    trail = 0
    while trail < hit.trail_blank and trail < len(lines) - lead and not lines[-1 - trail].strip():
        trail += 1
    return lines[lead : len(lines) - trail]


# An output line: an int is a window line kept byte for byte; a (text, k) pair is a line from
# the replacement, ended like window line k (the line it edits) or, when k is None (an added
# line), with the file's dominant terminator.
Item = int | tuple[str, int | None]


def merge_window(
    hit: Hit, theirs: list[str], first_line: Callable[[], int] = lambda: 0
) -> list[Item]:
    """Three-way merge of the model's change (base -> theirs) onto the file window (ours).

    Returns the output lines in order (see :data:`Item`); replacement lines come adapted to
    the file.
    """
    assert hit.base is not None and hit.ours is not None and hit.base_map is not None
    base, bmap = hit.base, hit.base_map
    bkeys = [rstrip(x) for x in base]
    tkeys = [rstrip(x) for x in theirs]
    if hit.markers:
        for k, i in enumerate(sorted(hit.markers)):
            bkeys[i] = f"\0elision {k}"
        tmarks = [j for j, x in enumerate(theirs) if is_marker(x)]
        if len(tmarks) != len(hit.markers) and any(x.strip() for x in theirs):
            raise FormatInvalid(
                f"the search text elides code with {len(hit.markers)} marker line(s) such as "
                f"'...', but the replacement has {len(tmarks)}; give each elision in the search "
                "text a matching marker line in the replacement, or write the lines out in full",
                expected="the same number of elision markers in search and replacement",
            )
        for k, j in enumerate(tmarks):
            tkeys[j] = f"\0elision {k}"
    else:
        tmarks = []
    _written_as_in_file(hit, bkeys, tkeys)
    leads = Leads(hit)
    deleting_all = not any(x.strip() for x in theirs)
    out: list[Item] = []
    cursor = 0
    for tag, i1, i2, j1, j2 in diff.opcodes(bkeys, tkeys):
        if tag == "equal":
            for i in range(i1, i2):
                b = bmap[i][1]
                if b > cursor:
                    out.extend(range(cursor, b))
                    cursor = b
            continue
        moved = [i for i in range(i1, i2) if i in hit.markers] or [
            j for j in range(j1, j2) if j in tmarks
        ]
        if moved and not deleting_all:
            raise FormatInvalid(
                "the elision markers ('...') of the search text and of the replacement do not "
                "line up: each marker must stand in the same place, between the same lines, in "
                "both; move code by writing it out in full",
                expected="elision markers in the same places in search and replacement",
            )
        if i1 < i2:
            wrong = [i for i in range(i1, i2) if i in hit.misquoted]
            if wrong:
                raise _misquoted(hit, wrong[0], first_line())
            phantom = [
                i
                for i in range(i1, i2)
                if bmap[i][0] == bmap[i][1] and base[i].strip() and i not in hit.markers
            ]
            if phantom:
                raise _phantom(hit, phantom[0], first_line())
            a, b = bmap[i1][0], bmap[i2 - 1][1]
            covered = {x for i in range(i1, i2) for x in range(*bmap[i])}
            stray = [x for x in range(a, b) if x not in covered and hit.ours[x].strip()]
            if stray and not deleting_all:
                raise _unquoted(hit, stray[0], first_line())
            if a > cursor:
                out.extend(range(cursor, a))
            cursor = max(cursor, b)
        # A changed line takes the indentation of the search line it stands in for and is
        # merged with its file line; an inserted line takes the indentation of a search line
        # the model indented alike (see ``Leads``).
        if i2 - i1 == j2 - j1:
            edits = {j1 + d: i1 + d for d in range(i2 - i1)}
        else:
            edits = _edited(base, theirs, (i1, i2, j1, j2))
        for j in range(j1, j2):
            if j in edits:
                i = edits[j]
                a, b = bmap[i]
                line = _changed_line(hit, i, theirs[j], leads, first_line)
                out.append((line, a if b - a == 1 else None))
            else:
                i = i1 + (j - j1) if i1 + (j - j1) < i2 else (i2 - 1 if i2 > i1 else i1 - 1)
                out.append((leads.adapt(theirs[j], max(i, 0)), None))
    out.extend(range(cursor, len(hit.ours)))
    return out


# Past this many line pairs a changed stretch is not searched for edited lines (its added
# lines are written as the model wrote them, re-indented): a few milliseconds.
PAIR_CELLS = 2_500


def _edited(base: list[str], theirs: list[str], box: tuple[int, int, int, int]) -> dict[int, int]:
    """In a changed stretch where the model wrote more or fewer lines than it quoted
    (base[i1:i2] -> theirs[j1:j2]), which new lines are edits of which quoted lines: the
    in-order pairing of lines at least ``inline.EDITED_LINE`` alike that is most alike in
    sum. Maps replacement line to search line."""
    i1, i2, j1, j2 = box
    if i1 == i2 or j1 == j2 or (i2 - i1) * (j2 - j1) > PAIR_CELLS:
        return {}
    bs = [collapse(x) for x in base[i1:i2]]
    ts = [collapse(x) for x in theirs[j1:j2]]
    m, n = len(bs), len(ts)
    score = [[0.0] * (n + 1) for _ in range(m + 1)]
    for i in range(m):
        for j in range(n):
            sim = Indel.normalized_similarity(bs[i], ts[j], score_cutoff=inline.EDITED_LINE)
            paired = score[i][j] + sim if sim and bs[i] and ts[j] else -1.0
            score[i + 1][j + 1] = max(score[i][j + 1], score[i + 1][j], paired)
    out = {}
    i, j = m, n
    while i and j:
        if score[i][j] == score[i - 1][j]:
            i -= 1
        elif score[i][j] == score[i][j - 1]:
            j -= 1
        else:
            out[j1 + j - 1] = i1 + i - 1
            i, j = i - 1, j - 1
    return out


# Below this similarity a quoted line is not the file's line with a slip (a typo, its
# spacing) in it.
_SLIP = 0.5


def _written_as_in_file(hit: Hit, bkeys: list[str], tkeys: list[str]) -> None:
    """Search lines the model quoted wrong (a typo, a line cut short) while its replacement
    writes that file line out as the file has it: each is keyed as that replacement line, so
    the diff reads it as unchanged and the file's line is kept byte for byte, not merged a
    second time with the change the model made to its own misquote."""
    assert hit.base is not None and hit.ours is not None and hit.base_map is not None
    present = set(tkeys)
    by_content: dict[str, list[int]] | None = None  # built for the first misquoted line
    unshifted = hit.fit is None or hit.fit.shift == indent.Shift()
    for i, (a, b) in enumerate(hit.base_map):
        if b - a != 1 or i in hit.markers or bkeys[i] in present:
            continue
        file_line = rstrip(hit.ours[a])
        if file_line == bkeys[i] or not file_line.strip():
            continue
        if hit.misquoted.get(i) == "differs" and (
            Indel.normalized_similarity(bkeys[i].strip(), file_line.strip()) < _SLIP
        ):
            # Not the file's line with a slip in it but another line, which the replacement
            # writes as the file has it: the edit looks made already (a diff applied twice,
            # or reversed where it never was). Left as a change of a misquoted line: refused.
            continue
        if by_content is None:
            # Replacement lines that are some search line as quoted stand for that line
            # (a "}" the model kept), not for another file line that reads the same: only
            # those the replacement has more of than the search text are free.
            spare = Counter(tkeys)
            spare.subtract(Counter(bkeys))
            by_content = {}
            for j, key in enumerate(tkeys):
                if spare[key] > 0:
                    by_content.setdefault(content(key), []).append(j)
        found = by_content.get(content(file_line))
        if not found:
            continue
        # Written with the indentation it was quoted with, or with the file's own (when the
        # model quotes the file's indentation as it is: else that is a coincidence).
        leads = [indent.leading(hit.base[i])]
        if unshifted:
            leads.append(indent.leading(file_line))
        for lead in leads:
            same = next((j for j in found if indent.leading(tkeys[j]) == lead), None)
            if same is not None:
                bkeys[i] = tkeys[same]
                break


class Leads:
    """The file's indentation for the model's lines, by analogy: a replacement line indented
    as the model indented a neighbouring search line takes that line's file indentation, byte
    for byte (in tab-aligned code the file's tabs and spaces, which no column arithmetic can
    rebuild). The nearest such line decides; at equal distance, the indentation more of them
    have, then the line above. A line with no such neighbour follows the mapping the search
    lines show, when they show one (see ``_unseen``), else is re-indented by the hit's shift
    (``Hit.adapt``)."""

    def __init__(self, hit: Hit) -> None:
        self.hit = hit  # the rest is worked out when first asked (most hits never ask)

    @cached_property
    def table(self) -> dict[str, list[tuple[int, str]]]:
        """Model indentation -> (search line, its file line's indentation), in order."""
        hit = self.hit
        assert hit.base is not None and hit.ours is not None and hit.base_map is not None
        table: dict[str, list[tuple[int, str]]] = {}
        if hit.base is hit.ours:
            return table  # an anchored edit: the model quoted no lines, its shift says all
        for i, (a, b) in enumerate(hit.base_map):
            if b - a != 1 or i in hit.markers:
                continue
            model, file_line = hit.base[i], hit.ours[a]
            if model.strip() and file_line.strip():
                table.setdefault(indent.leading(model), []).append((i, indent.leading(file_line)))
        return table

    @cached_property
    def pairs(self) -> list[tuple[str, str]]:
        """(model indentation, file indentation) of each search line and its file line."""
        return [(m, f) for m, got in self.table.items() for _, f in got]

    @cached_property
    def tab(self) -> int | None:
        """The tab width to write indentation the model retyped from tabs (see above)."""
        return indent.tab_width(self.pairs) if self.pairs else None

    def _unseen(self, lead: str) -> str | None:
        """The file's indentation for a model indentation no search line has, when the
        search lines tell how the model's indentation maps onto the file's: byte for byte
        (the model quoted every line's indentation as the file has it: its own stands), its
        spaces for the file's tabs (``indent.tab_width``), or its tabs for the file's
        spaces (``indent.spaces_for_tabs``)."""
        pairs = self.pairs
        if not pairs:
            return None
        if all(m == f for m, f in pairs):
            return lead
        if self.tab is not None:
            return indent.Style(tabs=True, unit=self.tab).render(indent.width(lead, self.tab))
        tab = indent.spaces_for_tabs(pairs)
        return None if tab is None else " " * indent.width(lead, tab)

    def stops(self) -> int:
        """The tab width for columns inside lines (tab-aligned comments, say)."""
        if self._stops is None:
            hit = self.hit
            assert hit.base is not None and hit.ours is not None and hit.base_map is not None
            lines = [
                (hit.base[i], hit.ours[a]) for i, (a, b) in enumerate(hit.base_map) if b - a == 1
            ]
            self._stops = indent.tab_stops(lines) or self.tab or 8
        return self._stops

    _stops: int | None = None

    def of(self, line: str, i: int) -> str | None:
        """The file's indentation for ``line`` standing at search line ``i``, or None."""
        lead = indent.leading(line)
        got = self.table.get(lead)
        if not got:
            return self._unseen(lead)
        counts = Counter(lead for _, lead in got)
        return min(got, key=lambda x: (abs(x[0] - i), -counts[x[1]], x[0]))[1]

    def adapt(self, line: str, i: int) -> str:
        """``line`` (added near search line ``i``) written the way the file would hold it."""
        adapted = self.hit.adapt(line, i)
        if not adapted.strip():
            return adapted
        lead = self.of(line, i)
        return adapted if lead is None else lead + adapted.lstrip(" \t")


def _changed_line(hit: Hit, i: int, line: str, leads: Leads, first_line: Callable[[], int]) -> str:
    """A replacement line standing in for base line ``i``: adapted to the file, and where the
    file's line differs from what the model quoted only by noise, merged inside the line so
    the characters the model did not change keep the file's bytes (and a change both made,
    a typo the model fixed, is made once)."""
    assert hit.base is not None and hit.ours is not None and hit.base_map is not None
    adapted = hit.adapt(line, i)
    if not adapted.strip():
        return adapted
    a, b = hit.base_map[i]
    if b - a != 1:
        return leads.adapt(line, i)
    base, ours = hit.base[i], hit.ours[a]
    if rstrip(line) == rstrip(ours):
        return ours  # the model wrote the file's line as it is
    lead = indent.leading(line)
    if lead == indent.leading(base) and ours.strip():
        lead = indent.leading(ours)  # indentation unchanged: the file's bytes
    else:
        near = leads.of(line, i)
        lead = indent.leading(adapted) if near is None else near
    undo = hit.fit.undo.apply if hit.fit is not None and hit.fit.undo is not None else str
    place = inline.Place(
        indent.leading(base), indent.leading(ours), indent.leading(line), lead, leads.stops
    )
    try:
        merged = inline.merge_line(
            base.lstrip(" \t"), ours.lstrip(" \t"), line.lstrip(" \t"), undo, place
        )
    except inline.Conflict:
        if collapse(base) == collapse(ours):
            # The file's line is the quoted one but for its blanks, some inside the part the
            # model rewrote: its line is the answer, at the file's indentation.
            return lead + adapted.lstrip(" \t")
        raise _conflict(hit, i, line, first_line()) from None
    return lead + (adapted.lstrip(" \t") if merged is None else merged)


def _conflict(hit: Hit, i: int, line: str, first_line: int) -> NoMatch:
    assert hit.base is not None and hit.ours is not None and hit.base_map is not None
    at = hit.base_map[i][0]
    shown = first_line + 1 + at
    return NoMatch(
        f"line {i + 1} of the search text ({hit.base[i].strip()!r}) differs from file line "
        f"{shown} ({hit.ours[at].strip()!r}) in the part the replacement changes "
        f"({line.strip()!r}), so what it should become is unclear; quote that line exactly as "
        "the file has it",
        closest=[Region(shown, shown, hit.confidence, hit.ours[at])],
    )


def _phantom(hit: Hit, i: int, first_line: int) -> NoMatch:
    assert hit.base is not None and hit.ours is not None
    last = first_line + len(hit.ours)
    return NoMatch(
        f"line {i + 1} of the search text ({hit.base[i].strip()!r}) is not in the file where "
        f"the rest of the block is (lines {first_line + 1}-{last}), and the replacement changes "
        "or removes it; re-read the file and quote the lines as they are",
        closest=[Region(first_line + 1, last, hit.confidence, "\n".join(hit.ours))],
    )


def _unquoted(hit: Hit, x: int, first_line: int) -> NoMatch:
    assert hit.ours is not None
    line = first_line + 1 + x
    return NoMatch(
        f"file line {line} ({hit.ours[x].strip()!r}) sits among the lines the replacement "
        "rewrites, but the search text does not quote it, so it would be lost; quote the lines "
        "as the file has them",
        closest=[
            Region(first_line + 1, first_line + len(hit.ours), hit.confidence, "\n".join(hit.ours))
        ],
    )


def _misquoted(hit: Hit, i: int, first_line: int) -> NoMatch:
    assert hit.base is not None and hit.ours is not None and hit.base_map is not None
    at = hit.base_map[i][0]
    line = first_line + 1 + at
    how = "is cut short of" if hit.misquoted[i] == "cut short" else "differs from"
    return NoMatch(
        f"line {i + 1} of the search text ({hit.base[i].strip()!r}) {how} file line {line} "
        f"({hit.ours[at].strip()!r}) and the replacement changes it, so what it should become "
        "is unclear; quote that line exactly as the file has it",
        closest=[Region(line, line, hit.confidence, hit.ours[at])],
    )


def _line_replacement(doc: Doc, hit: Hit, new: str) -> tuple[int, int, str]:
    assert hit.ours is not None
    items = merge_window(hit, new_lines(hit, new), lambda: doc.shown(line_of(doc, hit)) - 1)
    ours = hit.ours
    ends = doc.line_ends(hit.start, len(ours))
    terms = [doc.eol_at(e) for e in ends]
    dom = doc.dominant_eol()
    pieces = [
        [ours[x], terms[x]]
        if isinstance(x, int)
        else [x[0], dom if x[1] is None or not terms[x[1]] else terms[x[1]]]
        for x in items
    ]
    for piece in pieces[:-1]:
        if not piece[1]:
            piece[1] = dom
    start = doc.orig_offset(hit.start)
    at_eof_without_newline = bool(terms) and not terms[-1]
    if at_eof_without_newline:
        if pieces:
            pieces[-1][1] = ""
        elif hit.start > 0:
            # Everything up to the end was deleted: the line before becomes the last one and,
            # like the file, ends without a newline.
            start = doc.orig_offset(hit.start - 1)
    elif pieces and not pieces[-1][1]:
        pieces[-1][1] = dom
    return start, doc.orig_offset(hit.end), "".join(c + e for c, e in pieces)
