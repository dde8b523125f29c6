"""Placing one segment: where its head and tail anchor it, and the region it replaces.

Segments are anchored in order, each below the previous one, and an anchor must be the only
place of its kind there: no anchor, or an ambiguous one, is refused. A segment with a head
only inserts its new lines after the head; with a tail only, before it. A tail that ends in a
closing line ends where the file first comes back to that line's level; a marker left of a
segment's last line says the segment showed its block to the end; a lone "}" segment changes
nothing wherever it stands. A segment is read exactly first, then (no anchor that way, or its
indentation retyped) with whitespace ignored.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

from ...errors import Ambiguous, NoMatch
from ..outline import scan
from ..search import LISTED
from .blocks import closing
from .guards import (
    balanced_insertion,
    check_insertion,
    check_new_lines,
    checked_region,
    no_other_end_elsewhere,
    no_retyped_copy,
    no_weak_anchor,
)
from .heads import head_runs, run_at, run_back, tail_runs
from .placing import Placement, Placing
from .readings import (
    changed_or_added,
    no_deletion_elsewhere,
    no_other_place,
    no_other_reading,
    no_shorter_head,
)
from .retype import blank_pairs, by_analogy, reindented, retyped_segment
from .shapes import (
    OPENS,
    bracket_balance,
    exact_key,
    indent_of,
    looks_changed,
    much_alike,
    weak_lines,
    weak_or_thin,
)
from .statements import by_flow_end, by_likeness, by_target, updated
from .unshown import declared, definition_name, is_definition, leaves_open


class NoAnchor(NoMatch):
    """None of a segment's first or last lines is in the file (below the segments before it):
    nothing to anchor it on. Read exactly, a segment that has none may yet be placed with
    whitespace ignored."""


def place(placing: Placing) -> Placement:
    """Where ``placing.seg`` goes (``placing`` read exactly: ``loose`` unset)."""
    seg, name, index = placing.seg, placing.name, placing.index
    bare = index.bare
    first_error: Exception | None = None
    # A segment whose indentation the model retyped (spaces for the file's tabs) matches by
    # its unindented lines alone when compared exactly; read it with whitespace ignored. One
    # whose exact reading is ambiguous while some line of it is a file line retyped gets
    # that reading too.
    retyped = retyped_segment(seg.lines, index)
    for loose in (True,) if retyped is True else (False, True):
        try:
            shown = reindented(seg, index, placing.cursor) if loose else seg
            placed = _place_with(replace(placing, seg=shown, loose=loose))
            if loose:
                # New lines indented like a line the model indented the same way, as the
                # file indents that one (the shift alone misreads tab-and-space alignment)
                placed.lines = by_analogy(seg.lines, shown.lines, placed.same, bare)
                # Blank lines read alike with whitespace ignored: the file's blank line is
                # the one the model wrote with its very bytes (a new blank line beside it).
                placed.same = blank_pairs(seg.lines, placed.same, bare)
            else:
                no_retyped_copy(name, placed, bare)
            check_new_lines(name, placed, index)
            return placed
        except (NoMatch, Ambiguous) as e:
            if first_error is None:
                first_error = e
            if retyped is None and not isinstance(e, NoAnchor):
                raise
    assert first_error is not None
    raise first_error


def _place_with(placing: Placing) -> Placement:
    seg, name, bare, cursor = placing.seg, placing.name, placing.bare, placing.cursor
    view = placing.view
    keys = view.keys
    sk, n = placing.sk, placing.n
    head_len, heads = head_runs(sk, view, cursor, len(keys))
    # No marker before it and the file's own first lines: the top, unless they run longer
    # somewhere else (then a common first line, "import os", is a coincidence).
    if placing.top and (placing.whole or run_at(sk, keys, 0) >= head_len):
        head_len, heads = run_at(sk, keys, 0), [0]

    def tails_from(lo: int, limit: int) -> tuple[int, list[int]]:
        found = tail_runs(sk, view, lo, limit)
        if placing.bottom:  # the same at the end
            at_end = run_back(sk, keys, len(keys), limit, lo)
            if at_end and (placing.whole or at_end >= found[0]):
                return at_end, [len(keys)]
        return found

    if head_len == n and len(heads) == 1:  # the whole segment is there as it is: no change
        p = heads[0]
        no_deletion_elsewhere(placing, p)
        return placing.placement(p, p + n)
    if n == 1 and head_len == 1 and weak_lines(seg.lines):
        # One "}" or "</div>", found as it is: the end of a block shown around an elided
        # body. Whichever place is meant, nothing changes there (one line shows no deletion,
        # two "}" lines may: refused below); the first place keeps the next segments' range
        # widest (an anchor unique from there is unique from the right place too).
        p = heads[0]
        return placing.placement(p, p + n)
    if head_len and len(heads) == 1:
        p = heads[0]
        lo = p + head_len
        tail_len, tails = tails_from(lo, n - head_len)
        # The tail's first lines may as well be new lines (a blank, a common property): where
        # the whole tail stands only further down, deleting the lines between, and the rest
        # of the tail (telling still) right below the head, the segment also reads as lines
        # added there, deleting nothing. Two readings.
        # (Unless the lines it would add are those below the rest of the tail: a deletion.)
        for rest in range(tail_len - 1, 0, -1) if tails and min(tails) - tail_len > lo else ():
            if weak_lines(seg.lines[n - rest :]):
                break
            short_len, short = tails_from(lo, rest)
            added = sk[n - tail_len : n - rest]
            if (
                short_len == rest
                and lo + rest in short
                and keys[lo + rest : lo + rest + len(added)] != added
            ):
                tail_len, tails = short_len, short
                break
        if tail_len and weak_lines(seg.lines[n - tail_len :]):
            # "}" or ")" as the last lines may be the end of new code, not an anchor: the
            # end of the block the head is in, or a place that deletes no line as far left.
            q = closing(bare, lo, tail_len, tails)
            if q is None and len(tails) == 1:
                q = _keeps_outer_lines(placing, p, lo, tail_len, tails[0])
            if q is None:
                q = _closed_by_structure(placing, p, lo, tail_len)
            if q is None:
                q = _inner_end(placing, p, lo)
            if (
                q is None
                and _closes_its_own(seg.lines[head_len:])
                and not _defines_again(placing, seg.lines[head_len:])
            ):
                # Its last lines close blocks its new lines open: no anchor, the end of new
                # code after the head (issue 26, balanced insertion).
                tail_len, tails = 0, []
            elif q is None:
                raise Ambiguous(
                    f"{name}: its last lines ({seg.lines[-1].strip()!r}) are too common to "
                    "tell where it ends; add the unchanged line after it (one more line of "
                    "context)",
                    lines=[t - tail_len + 1 for t in tails[:10]],
                    tier="lazy",
                )
            else:
                no_other_place(placing, p, q)
                tails = [q]
        if not tail_len:
            no_weak_anchor(name, seg.lines[:head_len], "first")
            no_other_reading(placing, p, head_len)
            no_other_end_elsewhere(placing, seg.lines[-1], p, lo, "last")
            to_end = _to_block_end(placing, p)
            if to_end is not None:
                changed_or_added(placing, p, to_end.end)
                return to_end
            k = _changed_in_place(seg.lines[head_len:], bare, lo) if seg.open_after else 0
            if k:
                # One line between the head and a marker, the file's next line changed (and
                # the blank lines after it, the file's).
                placed = placing.placement_from(p, lo + k, placing.aligned(p, lo + k)[1])
                placed.blank_after = 0  # (the file's lines after it are as they were)
                return placed
            if n - head_len > 1 and _edge_changes(seg.lines[-1], bare, lo):
                # Its last line is the file's next line changed: the lines before it are new.
                return placing.placement_from(p, lo + 1, {i: p + i for i in range(head_len)})
            _not_a_member_at_the_top(placing, head_len)
            check_insertion(
                name, seg.lines[head_len:], seg.lines[-1], bare, lo, placing.index.syntax
            )
            balanced_insertion(name, seg.lines[head_len:])
            placed = placing.placement(p, lo)
            # New lines after a head that ends in blank lines, where the file goes on: the
            # blank lines separate them from what follows as they separate the head's.
            if seg.lines[-1].strip():
                placed.blank_after = max(_blank_run(seg.lines[head_len - 1 :: -1]), seg.blank_after)
            return placed
        q = _one_tail(placing, lo, tail_len, tails)
        to_end = _to_block_end(placing, p)
        if to_end is not None and to_end.end != q:
            # The marker after it says the segment ran to its block's end, the tail says
            # it stops elsewhere: two readings, so neither.
            raise Ambiguous(
                f"{name}: its last line {seg.lines[-1].strip()!r} is in the file at line {q}, "
                f"but the marker after it says the segment ends its block at line "
                f"{to_end.end}; add the unchanged line after the change (one more line of "
                "context)",
                lines=[q, to_end.end],
                tier="lazy",
            )
        no_shorter_head(placing, p, head_len, tail_len, q)
        changed_or_added(placing, p, q)
        return checked_region(placing, p, q)
    if head_len and len(heads) > 1:
        tail_len, tails = tails_from(cursor, n - head_len)
        if tail_len and len(tails) == 1 and not weak_lines(seg.lines[:head_len]):
            q = tails[0]
            fit = [p for p in heads if p + head_len <= q - tail_len]
            if len(fit) == 1:
                return checked_region(placing, fit[0], q)
        raise Ambiguous(
            f"{name}: its first lines are in the file at {len(heads)} places"
            + (f" below line {cursor}" if cursor else "")
            + f" (lines {', '.join(str(h + 1) for h in heads[:10])}); add the line before "
            "it (one more line of context) so it fits one place only",
            lines=[h + 1 for h in heads[: LISTED + 1]],
            tier="lazy",
        )
    # No head: the segment's first line is new. Anchor on its tail.
    tail_len, tails = tails_from(cursor, n)
    if not tail_len or weak_lines(seg.lines[n - tail_len :]):
        # Nothing of it in the file but closers: one statement placed by what it is.
        by_statement = (
            by_target(placing) or by_flow_end(placing) or by_likeness(placing, _same_subject)
        )
        if by_statement is not None:
            by_statement.blank_after = 0  # it changes lines in place: the file's blanks stay
            return by_statement
    if not tail_len:
        raise NoAnchor(
            f"{name}: none of its first or last lines is in the file"
            + (f" below line {cursor}" if cursor else "")
            + ", so there is nothing to anchor it on; start and end it with unchanged lines "
            "copied from the file (one more line of context on each side)",
            closest=[],
        )
    if len(tails) > 1:
        raise Ambiguous(
            f"{name}: its last lines are in the file at {len(tails)} places (lines "
            f"{', '.join(str(t - tail_len + 1) for t in tails[:10])}) and its first line is "
            "not in the file; add the unchanged line before the change (one more line of "
            "context) so it fits one place only",
            lines=[t - tail_len + 1 for t in tails[: LISTED + 1]],
            tier="lazy",
        )
    q = tails[0]
    # A "}" or a blank at the tail's start may close the new code as well as the file's
    # block above: the tail starts at its first telling line.
    while tail_len > 1 and all(c in "{}()[];," for c in seg.lines[n - tail_len].strip()):
        tail_len -= 1
    start = q - tail_len
    no_weak_anchor(name, seg.lines[n - tail_len :], "last")
    k = _changed_in_place(seg.lines[n - tail_len - 1 :: -1], bare, start - 1, -1)
    if seg.open_before and k:
        return placing.placement_from(start - k, q, placing.aligned(start - k, q)[1])
    if n - tail_len > 1 and _edge_changes(seg.lines[0], bare, start - 1):
        # Its first line is the file's line above the tail changed ("def f(a):" given a
        # type): the lines between are new.
        same = {n - tail_len + i: start + i for i in range(tail_len)}
        return placing.placement_from(start - 1, q, same)
    balanced_insertion(name, seg.lines[: n - tail_len])
    new = seg.lines[: n - tail_len][::-1]
    check_insertion(name, new, seg.lines[0], bare, start - 1, placing.index.syntax)
    placed = placing.placement(start, q, offset=n - tail_len)
    if seg.lines[0].strip() and start > 0 and bare[start - 1].strip():
        placed.blank_before = _blank_run(seg.lines[n - tail_len :])  # (as after a head)
    return placed


def _blank_run(lines: list[str]) -> int:
    """How many of ``lines`` are blank from the first on."""
    return next((i for i, x in enumerate(lines) if x.strip()), len(lines))


def _one_tail(placing: Placing, lo: int, tail_len: int, tails: list[int]) -> int:
    """The end of the segment's region when its tail is at ``tails``: the only place, or,
    for a tail that closes a block (``}``, ``end``), the nearest one that closes the block the
    head is in (no line between sits at or left of its indentation)."""
    if len(tails) == 1:
        return tails[0]
    q = closing(placing.bare, lo, tail_len, tails)
    if q is not None:
        return q
    raise Ambiguous(
        f"{placing.name}: its last lines are in the file at {len(tails)} places below its "
        f"first lines (lines {', '.join(str(t - tail_len + 1) for t in tails[:10])}); add the "
        "line after it (one more line of context) so its end is clear",
        lines=[t - tail_len + 1 for t in tails[: LISTED + 1]],
        tier="lazy",
    )


def _to_block_end(placing: Placing, p: int) -> Placement | None:
    """A segment whose next marker sits left of its last line showed that line's block to
    its end: it replaces the file from its head (at ``p``) through the end of that block (the
    block of the last segment line left of the last one, which the head must hold), provided
    it deletes no more lines than it writes there (unshown lines are never deleted)."""
    seg, sk, keys, bare = placing.seg, placing.sk, placing.keys, placing.bare
    last = indent_of(seg.lines[-1])
    if seg.after_indent is None or seg.after_indent >= last:
        return None
    if seg.lines[-1].rstrip().endswith(OPENS):
        return None  # a line that opens a block does not end one
    opener = next(
        (
            i
            for i in range(len(sk) - 2, -1, -1)
            if seg.lines[i].strip() and indent_of(seg.lines[i]) < last
        ),
        None,
    )
    if opener is None:
        # All of it sits in the block: that block ends where the file leaves its level.
        level, end = last - 1, p
    elif keys[p : p + opener + 1] != sk[: opener + 1]:
        return None  # the opener is not part of the anchored head
    else:
        level, end = indent_of(bare[p + opener]), p + opener + 1
    for r in range(end, len(bare)):
        if bare[r].strip():
            if indent_of(bare[r]) <= level:
                break
            end = r + 1
    sm, same = placing.aligned(p, end)
    for tag, a1, a2, b1, b2 in sm.get_opcodes():
        # Every file line this drops must come back changed ("x = 1" -> "x = 2"): a line
        # replaced by something else entirely may be one the model kept behind the marker.
        if tag == "insert":
            return None
        if tag == "replace" and not all(
            any(looks_changed(seg.lines[a], bare[p + b]) for a in range(a1, a2))
            for b in range(b1, b2)
        ):
            return None
    return placing.placement_from(p, end, same)


def _keeps_outer_lines(placing: Placing, p: int, lo: int, tail_len: int, q: int) -> int | None:
    """``q`` if the region p..q deletes no line at or left of the tail's indentation (a
    weak tail that ends another block would take that block's opening line with it)."""
    bare = placing.bare
    level = indent_of(bare[q - tail_len])
    kept = set(placing.aligned(p, q)[1].values())
    for row in range(lo, q - tail_len):
        if bare[row].strip() and indent_of(bare[row]) <= level and row not in kept:
            return None
    return q


def _closed_by_structure(placing: Placing, p: int, lo: int, tail_len: int) -> int | None:
    """Where a segment ends whose first line opens a block that its last line closes: at
    the close of the block the file opens on the head's first line (file row ``p``), found
    by the file's brackets, elements or indentation, not by searching for the closing line
    (issue 17). None for a language the outline does not know, or a segment of another
    shape, or a close where the segment's last lines are not the file's."""
    outline = placing.index.outline
    syntax = placing.index.syntax
    if outline is None or syntax is None:
        return None
    seg = placing.seg.lines
    shown = scan(seg, syntax)
    opened = shown.opened(0)
    if not opened or opened[0].close != len(seg) - 1:
        return None
    blocks = outline.opened(p)
    if not blocks or blocks[0].kind != opened[0].kind:
        return None
    q = blocks[0].close + 1
    if q - tail_len < lo or placing.keys[q - tail_len : q] != placing.sk[len(seg) - tail_len :]:
        return None
    return q


def _not_a_member_at_the_top(placing: Placing, head_len: int) -> None:
    """A definition's header, then new members, and no marker after them: the snippet shows
    the definition with what it adds, not where in it (issue 26, rule 2: at the end, after
    the member shown before them). Not read as lines added right under the header."""
    seg = placing.seg
    header = seg.lines[head_len - 1]
    first = next((x for x in seg.lines[head_len:] if x.strip()), None)
    if seg.open_after or first is None or not is_definition(header.strip()):
        return
    if not leaves_open(header) or indent_of(first) <= indent_of(header):
        return
    if not any(is_definition(x.strip()) for x in seg.lines[head_len:]):
        return
    raise Ambiguous(
        f"{placing.name}: it shows {header.strip()[:60]!r} with new members and no "
        "'... existing code ...' marker, so it does not say where in it they go; show the "
        "member they follow, or put a marker where the rest stays",
        lines=[placing.cursor + 1],
        tier="lazy",
    )


def _changed_in_place(new: list[str], bare: list[str], row: int, step: int = 1) -> int:
    """The segment's new lines, between its anchor and a marker, are the file's lines past
    the anchor (from ``row``), each changed or as it is, one for one (a blank for a blank):
    models show a change of a few lines with context on one side only (``// Args: w,h``
    given ``,palette``, a ``<title>``, two fields given other types), and in their merged
    files those lines are changed, not written twice. A definition's header of another name
    is no changed copy (a new definition beside the file's), nor is a line the file has
    one off (the lines shifted). ``new`` runs from the anchor outward (``step`` the same
    way in the file). How many file lines it takes (0: not so)."""
    rows = [row + step * i for i in range(len(new))]
    if not new or weak_or_thin(new[:1]) or not all(0 <= r < len(bare) for r in rows):
        return 0
    lo, hi = max(0, min(rows) - 1), min(len(bare), max(rows) + 2)
    near = {exact_key(bare[r]) for r in range(lo, hi)}
    changed = 0
    for line, r in zip(new, rows, strict=True):
        old = bare[r]
        if not line.strip() or not old.strip():
            if line.strip() or old.strip():
                return 0  # a blank for a line: not one for one
            continue
        if exact_key(line) == exact_key(old):
            continue
        if (
            exact_key(line) in near  # a file line one off: the lines shifted, not changed
            or not much_alike(line.strip(), old.strip())
            or not _same_subject(line, old)
            or indent_of(line) != indent_of(old)  # (indentation retyped: not read here)
        ):
            return 0
        changed += 1
    return len(new) if 0 < changed <= _IN_PLACE else 0


_ID = re.compile(r"""\bid\s*=\s*["']([^"']*)""")
# A field declared without a value: ``int w;``, ``char *name;``, ``String[] args;``.
_FIELD = re.compile(r"^[A-Za-z_][\w<>\[\]:,.*&\s]*?[\s*&]([A-Za-z_]\w*)\s*(?:\[[^\]]*\])?\s*;$")


_ANNOTATED = re.compile(r"^([A-Za-z_$][\w$]*)\s*[?!]?\s*:(?!:)")
_STATEMENT = re.compile(r"^(?:return|throw|delete|break|continue|goto|case|yield|await)\b")


def _subject_name(line: str) -> str | None:
    """The name a line declares or defines, a field without a value too (``int w;``,
    ``x: number;``)."""
    name = definition_name(line)
    if name is None and not _STATEMENT.match(line):
        m = _ANNOTATED.match(line) or _FIELD.match(line)
        name = m.group(1) if m else None
    return name


_IMPORTING = re.compile(r"^(?:import|from|use|using|#\s*include|require)\b")
_WORDS = re.compile(r"\w+")


# Keys a line is known by, beyond a declared name: an assignment's target (``self.age``,
# ``result +=``: ``statements.updated``), a stylesheet property, a macro, a comment's label
# (``// Args:``).
_PROPERTY = re.compile(r"^(-?[A-Za-z][\w-]*)\s*:(?!:)")
_MACRO = re.compile(r"^#\s*define\s+(\w+)")
_LABEL = re.compile(r"^(?://+|#+|--|/\*+|\*|<!--)\s*(\w[\w ]{0,30}):")
# Elements a page has once: the same tag is the same element.
_SINGLE_TAGS = ("<title", "<head", "<body", "<html", "<main", "<header", "<footer")


def _keyed(pattern: re.Pattern[str]) -> Callable[[str], str | None]:
    def key(line: str) -> str | None:
        m = pattern.match(line)
        return m.group(1) if m else None

    return key


_KEYS = (_subject_name, updated, _keyed(_PROPERTY), _keyed(_MACRO))


def _same_subject(new: str, old: str) -> bool:
    """``new`` is about what ``old`` is about, so it can be that line changed: the same
    letters but for their case (``list[str]`` made ``List[str]``); else, with as many brackets
    left open, the same name declared or assigned (``self.age`` is not ``self.email``), the
    same property or macro, an import of the same source that keeps every name the file's
    line imports, an element with the same id (or one a page has once, ``<title>``), a
    comment with the same label (``// Args:``), or the rest of a header (``) -> list:``).
    Anything else (two calls, two entries of a list, two strings, two ``if`` lines) may as
    well be a sibling added beside the file's line: not the same."""
    a, b = new.strip(), old.strip()
    if a.lower() == b.lower():
        return True
    if bracket_balance([a]) != bracket_balance([b]):
        return False
    if _IMPORTING.match(b):
        sa, sb = _import_source(a), _import_source(b)
        return sa is not None and sa == sb and set(_WORDS.findall(b)) <= set(_WORDS.findall(a))
    if is_definition(a) and is_definition(b) and not _same_parameters(a, b):
        return False  # another overload, or the parameters renamed: not sure
    for key in _KEYS:
        ka, kb = key(a), key(b)
        if ka is not None or kb is not None:
            return ka == kb
    if a.startswith("<") and b.startswith("<"):
        ia, ib = _ID.search(a), _ID.search(b)
        if ia or ib:  # an element is known by its id
            return ia is not None and ib is not None and ia.group(1) == ib.group(1)
        return any(a.startswith(t) and b.startswith(t) for t in _SINGLE_TAGS)
    la, lb = _LABEL.match(a), _LABEL.match(b)
    if la or lb:
        return la is not None and lb is not None and la.group(1).lower() == lb.group(1).lower()
    return a[:1] in ")]}" and b[:1] in ")]}"  # the rest of a header or a call


# Where an import line imports from: ``from X import``, ``... from 'x'``, a ``use`` path's
# part before its braces (``use std::fs;`` and ``use std::fs::File;`` are two imports).
_FROM = re.compile(r"^from\s+([\w.]+)\s+import\b|\bfrom\s+(['\"][^'\"]+['\"])")
_USE_GROUP = re.compile(r"^use\s+([\w:]+)::\{")


def _import_source(line: str) -> str | None:
    m = _FROM.search(line)
    if m:
        return m.group(1) or m.group(2)
    m = _USE_GROUP.match(line)
    return m.group(1) if m else None


_PARAMETERS = re.compile(r"\(([^()]*)\)")


def _same_parameters(new: str, old: str) -> bool:
    """Two headers whose parameter lists pair up, each pair sharing a word (``gm:
    GraphModule`` given ``Optional``): a changed header, not another overload (``run(String
    s)`` beside ``run(Object o)``)."""
    pa, pb = _PARAMETERS.search(new), _PARAMETERS.search(old)
    if pa is None or pb is None:
        return pa is None and pb is None
    xs = [set(_WORDS.findall(x)) for x in pa.group(1).split(",") if x.strip()]
    ys = [set(_WORDS.findall(y)) for y in pb.group(1).split(",") if y.strip()]
    return len(xs) == len(ys) and all(x & y for x, y in zip(xs, ys, strict=True))


# A change shown with context on one side only is read in place for up to this many
# changed lines.
_IN_PLACE = 6


def _edge_changes(edge: str, bare: list[str], row: int) -> bool:
    """The segment's open end, ``edge``, is file line ``row`` changed: a definition's header
    that reads like an edit of the file's header there, of the same name (``def f(gm):``
    given a type). A changed copy takes the place of the line it changes, and the segment's
    new lines between it and its anchor are inserted; a definition is not written twice,
    where a statement may be (a second ``save(...)`` call beside the first)."""
    if not 0 <= row < len(bare) or not bare[row].strip() or not is_definition(edge):
        return False
    line = bare[row]
    name = declared(edge)
    return name is not None and name == declared(line) and looks_changed(edge, line)


def _closes_its_own(lines: list[str]) -> bool:
    """``lines`` open blocks and close each of them, and close none they do not open (their
    brackets never fall below zero)."""
    depth = deepest = 0
    for line in lines:
        depth += bracket_balance([line])
        if depth < 0:
            return False
        deepest = max(deepest, depth)
    return depth == 0 and deepest > 0


def _defines_again(placing: Placing, lines: list[str]) -> bool:
    """Some of ``lines`` declares or defines a name with a line the file has as it is
    (``class Config {``, ``const LIMIT = 10;``): they are not all new code, whatever their
    brackets say (read as new, the file would hold that definition twice)."""
    where = placing.view.where
    return any(
        placing.keyf(x) in where and (is_definition(x) or declared(x) is not None)
        for x in lines
        if x.strip()
    )


def _inner_end(placing: Placing, p: int, lo: int) -> int | None:
    """Where a segment ends whose last lines are closers too common to place it by, found
    from inside it (issue 26, rules 5 and 6): its last telling line that the file has once
    below the head anchors its end, if the brackets open there are as many in the file as
    in the segment; the segment then ends at the file's first line past it that comes back
    to the segment's closing depth, which must be the segment's last line."""
    seg, sk, bare = placing.seg.lines, placing.sk, placing.bare
    head_len = lo - p
    for i in range(len(sk) - 1, head_len - 1, -1):
        if weak_or_thin([seg[i]]):
            continue
        rows = placing.view.places(sk[i], lo)
        if len(rows) > 1:
            return None  # at several places: nothing sure to end by
        if rows:
            r = rows[0]
            break
    else:
        return None
    if bracket_balance(seg[: i + 1]) != bracket_balance(bare[p : r + 1]):
        return None  # the segment and the file are not as deep there: another reading
    depth, want = bracket_balance(seg[: i + 1]), bracket_balance(seg)
    last = sk[-1]
    for row in range(r + 1, min(len(bare), r + 1 + _INNER_REACH)):
        depth += bracket_balance([bare[row]])
        if depth <= want:
            return row + 1 if depth == want and placing.keys[row] == last else None
    return None


# How far past its inner anchor a segment's end is looked for.
_INNER_REACH = 2000
