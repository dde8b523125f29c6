"""Splice: turn a located hit and the model's replacement into the file's new text.

Bytes outside the hit are never touched. Inside a line-level hit, the model's change is merged
onto the file's lines: a line the model left as it wrote it in the search text keeps the
file's own bytes (its indentation, its smart quotes, its terminator, even a typo the model
misremembered); only lines the model changed are written from the replacement, adapted to the
file (re-indented, character noise undone) and ended with the file's dominant terminator.
"""

from __future__ import annotations

from collections.abc import Callable

from ..errors import FormatInvalid, NoMatch, Region
from ..text import LF, to_lf
from . import diff, indent, inline
from .doc import Doc
from .elision import is_marker
from .normalize import rstrip, unescape
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


def merge(hit: Hit, theirs: list[str], first_line: Callable[[], int] = lambda: 0) -> list[Item]:
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
        # A changed line takes the indentation offset of the search line it stands in for;
        # an inserted line, that of the search line before it.
        one_to_one = i2 - i1 == j2 - j1
        for j in range(j1, j2):
            if one_to_one:
                i = i1 + j - j1
                a, b = bmap[i]
                out.append((_changed_line(hit, i, theirs[j]), a if b - a == 1 else None))
            else:
                i = i1 + (j - j1) if i1 + (j - j1) < i2 else (i2 - 1 if i2 > i1 else i1 - 1)
                out.append((hit.adapt(theirs[j], max(i, 0)), None))
    out.extend(range(cursor, len(hit.ours)))
    return out


def _changed_line(hit: Hit, i: int, line: str) -> str:
    """A replacement line standing in for base line ``i``: adapted to the file, and where the
    file's line differs from what the model quoted only by noise, merged inside the line so
    the characters the model did not change keep the file's bytes."""
    adapted = hit.adapt(line, i)
    assert hit.base is not None and hit.ours is not None and hit.base_map is not None
    a, b = hit.base_map[i]
    if b - a != 1:
        return adapted
    base, ours = hit.base[i], hit.ours[a]
    undo = hit.fit.undo.apply if hit.fit is not None and hit.fit.undo is not None else str
    merged = inline.merge(base.lstrip(" \t"), ours.lstrip(" \t"), line.lstrip(" \t"), undo)
    if merged is None:
        return adapted
    return indent.leading(adapted) + merged if adapted.strip() else adapted


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
    items = merge(hit, new_lines(hit, new), lambda: doc.shown(line_of(doc, hit)) - 1)
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
