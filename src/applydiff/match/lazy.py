"""Lazy snippets: changed code with "... existing code ..." lines standing for the rest.

>>> snippet = "# ... existing code ...\\nb\\nB2\\nc\\n# ... existing code ...\\n"
>>> merge_snippet("a\\nb\\nc\\nd\\n", snippet)[0]
'a\\nb\\nB2\\nc\\nd\\n'

The snippet is cut at its marker lines into *segments*. Each segment's leading lines that the
file has, in a row, are its *head* anchor; its trailing ones its *tail* anchor. The segment
replaces the file from the start of its head to the end of its tail, so lines of the file in
between that the segment leaves out are deleted ("a deletion is shown by the context around
it"), and lines it adds are inserted. Text between two segments, which the snippet does not
show, is kept. A segment with a head only inserts its new lines after the head; with a tail
only, before it.

A snippet without a marker before its first segment is read as if it had one, unless that
segment starts with the file's first line (then it is anchored at the top); likewise at the
end. Segments are anchored in order, each below the previous one, and an anchor must be the
only place of its kind there. What cannot be placed for sure is refused, naming the segment:
no anchor, an ambiguous one or one too common to tell ("}", "try {", "#endif"), new lines
that look like a changed copy of the line next to them (was it meant as an insertion or a
change?), a one-sided segment whose other end the file has elsewhere, a segment that fits as
well another way (its head's last or its tail's first lines read as new lines, its first "}"
read as another "}"), or a region that would delete many lines the segment does not show,
drop a block line ("}", "void b() {") at the segment's outer level, or change the bracket
balance of what it replaces. A tail that ends in a closing line ends where the file first
comes back to that line's level; a lone "}" segment changes nothing wherever it stands.

Lines are compared with trailing whitespace ignored, then (for a segment with no anchor
that way, or one whose indentation the model retyped, tabs for spaces) with all whitespace
ignored, re-indenting the segment by the shift its anchors show. Lines the model retyped keep
the file's bytes; a new line takes the indentation the file gives the nearest line the model
indented the same way.
"""

from __future__ import annotations

import bisect
import difflib
import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from ..errors import Ambiguous, NoChange, NoMatch, Region
from ..text import cr_ends_lines, dominant_eol, ends_line, split_lines
from . import diff, indent
from .elision import is_marker
from .index import Coded
from .search import LISTED

# A region may delete at most this many lines the segment does not show, or twice the
# segment's length if more: past that, a marker was likely forgotten.
MAX_UNSHOWN_DELETE = 20
# New lines next to an anchor this similar to the file's line there look like a change of
# that line, not an insertion beside it.
CHANGED_LINE_SIMILARITY = 0.6
# A line this long (without its indentation) is taken to be written once in a file.
DISTINCTIVE = 20


@dataclass
class Segment:
    lines: list[str]  # without line terminators
    first: int  # 1-based line of the snippet where it starts
    open_before: bool  # a marker (written or implied) stands before it
    open_after: bool
    # The indentation of the comment marker after it (None: none, or a bare "..."): a
    # marker left of the segment's last line says the segment showed its block to the end.
    after_indent: int | None = None

    def name(self, k: int) -> str:
        head = next((x.strip() for x in self.lines if x.strip()), "")
        last = self.first + len(self.lines) - 1
        return f"segment {k} (snippet lines {self.first}-{last}, starting {head[:60]!r})"


@dataclass
class Placement:
    """Where a segment goes: file lines ``start``..``end`` (0-based, end exclusive) become
    the segment's lines; ``same`` maps segment lines to file lines they equal (kept byte for
    byte)."""

    start: int
    end: int
    lines: list[str]
    same: dict[int, int] = field(default_factory=dict)
    exact: bool = True  # False: placed with whitespace ignored (its lines re-indented)


@dataclass(frozen=True)
class LazyResult:
    start_line: int  # 1-based, in the original text
    end_line: int
    confidence: float
    segments: int


def split_snippet(
    snippet: str, literal: frozenset[str] = frozenset()
) -> tuple[list[Segment], bool, bool]:
    """The segments of ``snippet`` and whether it has a marker before the first one and after
    the last (blank lines at a segment's edges are dropped). A bare ``...`` line that is in
    ``literal`` (lines of the file: a doctest continuation, a stub's body) is content."""
    lines = snippet.replace("\r\n", "\n").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    segments: list[Segment] = []
    current: list[str] = []
    start = 0
    lead = trail = False
    for i, line in enumerate(lines):
        if is_marker(line) and not (line.rstrip() in literal and _bare_dots(line)):
            marker_indent = None if _bare_dots(line) else _indent(line)
            if current:
                segments.append(_segment(current, start, True))
                segments[-1].after_indent = marker_indent
            elif not segments:
                lead = True
            current = []
            trail = True
            continue
        if not current:
            start = i
        current.append(line)
        trail = False
    if current:
        segments.append(_segment(current, start, False))
    if segments and (segments[0].first > 1 or lead):
        lead = lead or any(is_marker(x) for x in lines[: segments[0].first - 1])
    for k, seg in enumerate(segments):
        seg.open_before = k > 0 or lead
    return [s for s in segments if s.lines], lead, trail


def has_markers(snippet: str) -> bool:
    """Whether ``snippet`` leaves code out: a comment marker anywhere, or a bare ``...`` as
    its first or last line (inside, a bare ``...`` is a stub's body or a doctest line)."""
    lines = [x for x in snippet.replace("\r\n", "\n").split("\n") if x.strip()]
    if not lines:
        return False
    if any(is_marker(x) and not _bare_dots(x) for x in lines):
        return True
    stub_body = (
        len(lines) > 1
        and lines[-2].rstrip().endswith((":", "{"))
        and _indent(lines[-1]) > _indent(lines[-2])
    )
    return _bare_dots(lines[0]) or (_bare_dots(lines[-1]) and not stub_body)


def _bare_dots(line: str) -> bool:
    return line.strip() in ("...", "…") or set(line.strip()) == {"."}


def _segment(lines: list[str], start: int, open_after: bool) -> Segment:
    first = start
    while lines and not lines[0].strip():
        lines = lines[1:]
        first += 1
    while lines and not lines[-1].strip():
        lines = lines[:-1]
    return Segment(list(lines), first + 1, False, open_after)


def merge_snippet(text: str, snippet: str) -> tuple[str, LazyResult]:
    """``text`` with the lazy ``snippet`` merged in (raises ``NoMatch`` / ``Ambiguous`` with
    the segment and the reason when it cannot be placed for sure)."""
    file_lines = split_lines(text)  # never str.splitlines: it splits at \f, \x85, U+2028
    bare = [x.rstrip("\r\n") for x in file_lines]
    dots = frozenset(x.rstrip() for x in bare if _bare_dots(x))
    segments, lead, trail = split_snippet(snippet, dots)
    if not segments:
        raise NoMatch("the snippet holds only '... existing code ...' lines: no change to make")
    index = _Index(bare)
    placements: list[Placement] = []
    cursor = 0
    last = len(segments)
    for k, seg in enumerate(segments, 1):
        top = k == 1 and not lead and bool(bare) and _key(seg.lines[0]) == _key(bare[0])
        bottom = k == last and not trail and bool(bare) and _key(seg.lines[-1]) == _key(bare[-1])
        # No marker at all, and the file's own first and last lines: the whole file.
        whole = last == 1 and top and bottom
        placed = _place(seg, k, index, bare, cursor, top, bottom, whole)
        placements.append(placed)
        cursor = placed.end
    merged = _assemble(file_lines, placements, text)
    if merged == text:
        raise NoChange(
            "the snippet, placed in the file, changes nothing: every line it shows is already "
            "there as shown; write the changed lines in it"
        )
    return merged, _result(placements)


def _result(placements: list[Placement]) -> LazyResult:
    first, final = placements[0], placements[-1]
    return LazyResult(
        first.start + 1,
        max(first.start + 1, final.end),
        1.0 if all(p.exact for p in placements) else 0.95,
        len(placements),
    )


# -- anchoring -----------------------------------------------------------------------------------
def _key(line: str) -> str:
    return line.rstrip()


def _loose(line: str) -> str:
    return " ".join(line.split())


class _Index:
    """Positions of each line of the file, by key (built once per merge, per key kind)."""

    def __init__(self, bare: list[str]) -> None:
        self.bare = bare
        self._by: dict[bool, _Keys] = {}

    def keys(self, loose: bool) -> tuple[list[str], dict[str, list[int]]]:
        got = self.view(loose)
        return got.keys, got.where

    def view(self, loose: bool) -> _Keys:
        if loose not in self._by:
            self._by[loose] = _Keys([(_loose if loose else _key)(x) for x in self.bare])
        return self._by[loose]


class _Keys:
    """The file's line keys of one kind, where each one is, and (built the first time a run
    must be found among many places) the keys coded for ``str.find``."""

    def __init__(self, keys: list[str]) -> None:
        self.keys = keys
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


# Up to this many places of a segment's first (last) line, runs are measured by walking from
# each; past it, by ``str.find`` in the coded keys (one file of one repeated line has it on
# every line).
FEW = 64
WALK = 20_000
# Steps a line alignment may take (see ``diff.Matcher``).
ALIGN_WORK = diff.WORK


def _head_runs(sk: list[str], view: _Keys, lo: int, hi: int) -> tuple[int, list[int]]:
    """(length, positions) of the longest run of the segment's first lines found in a row in
    the file, starting in [lo, hi)."""
    starts = view.places(sk[0], lo, hi)
    if len(starts) > FEW:
        return _head_runs_coded(sk, view.coded, lo, hi)
    best, at = 0, []
    for p in starts:
        r = _run_at(sk, view.keys, p)
        if r > best:
            best, at = r, [p]
        elif r == best:
            at.append(p)
    return best, at


def _tail_runs(sk: list[str], view: _Keys, lo: int, limit: int) -> tuple[int, list[int]]:
    """(length, end positions) of the longest run of the segment's last lines (at most
    ``limit`` of them) found in a row in the file, lying in [lo, ...)."""
    ends = view.places(sk[-1], lo)
    if len(ends) > FEW:
        return _tail_runs_coded(sk, view.coded, lo, limit)
    best, at = 0, []
    for q in ends:
        r = _run_back(sk, view.keys, q + 1, limit, lo)
        if r > best:
            best, at = r, [q + 1]
        elif r == best and r:
            at.append(q + 1)
    return best, at


def _head_runs_coded(sk: list[str], coded: Coded, lo: int, hi: int) -> tuple[int, list[int]]:
    """``_head_runs`` by bisection on the run's length (a run occurs wherever a longer one
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
    """``_tail_runs`` as ``_head_runs_coded`` finds the head's."""
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


def _place(
    seg: Segment,
    k: int,
    index: _Index,
    bare: list[str],
    cursor: int,
    top: bool,
    bottom: bool,
    whole: bool = False,
) -> Placement:
    first_error: Exception | None = None
    # A segment whose indentation the model retyped (spaces for the file's tabs) matches by
    # its unindented lines alone when compared exactly; read it with whitespace ignored. One
    # whose exact reading is ambiguous while some line of it is a file line retyped gets
    # that reading too.
    retyped = _retyped_segment(seg.lines, index)
    for loose in (True,) if retyped is True else (False, True):
        try:
            shown = _reindented(seg, index, bare, cursor) if loose else seg
            placed = _place_with(shown, k, index, bare, cursor, top, bottom, loose, whole)
            if loose:
                # New lines indented like a line the model indented the same way, as the
                # file indents that one (the shift alone misreads tab-and-space alignment)
                placed.lines = _by_analogy(seg.lines, shown.lines, placed.same, bare)
            else:
                _no_retyped_copy(seg.name(k), placed, bare)
            _check_new_lines(seg.name(k), placed, index)
            return placed
        except (NoMatch, Ambiguous) as e:
            if first_error is None:
                first_error = e
            if retyped is None and (
                isinstance(e, Ambiguous) or not getattr(e, "_no_anchor", False)
            ):
                raise
    assert first_error is not None
    raise first_error


def _retyped_segment(lines: list[str], index: _Index) -> bool | None:
    """Whether the model retyped the segment's indentation (tabs for spaces, or spaces for
    tabs): True when no line it indents by a tab or by more than one space is in the file as
    it is, and some line is there with the other kind; "maybe" (False) when some other line
    is; None when no line says so."""
    strict = index.view(False).where
    indented = [x for x in lines if x.strip() and x[0] in " \t"]
    other = [x for x in indented if _key(x) not in strict]
    if not any(k in strict for x in other for k in _other_kind(x)):
        return None
    copied = any(
        _key(x) in strict and ("\t" in indent.leading(x) or "  " in indent.leading(x))
        for x in indented
    )
    return not copied


def _other_kind(line: str) -> list[str]:
    """``line``'s key with its indentation written the other way: spaces as tabs (a tab for
    every 2, 4 or 8), or tabs as 2, 4 or 8 spaces."""
    ws = indent.leading(line)
    rest = _key(line)[len(ws) :]
    if "\t" in ws:
        return [ws.expandtabs(w) + rest for w in (2, 4, 8)]
    return ["\t" * (len(ws) // w) + " " * (len(ws) % w) + rest for w in (2, 4, 8) if len(ws) >= w]


def _reindented(seg: Segment, index: _Index, bare: list[str], cursor: int) -> Segment:
    """The segment in the file's indentation, for reading it with whitespace ignored: the
    shift its first (else last) lines found in the file show, measured as the matching
    ladder does (tabs and spaces on one scale, another indent unit), so that every later
    comparison of levels is between file columns."""
    view = index.view(True)
    sk = [_loose(x) for x in seg.lines]
    run, at = _head_runs(sk, view, cursor, len(view.keys))
    pairs = [(seg.lines[i], bare[at[0] + i]) for i in range(run)] if run else []
    if not pairs:
        run, ends = _tail_runs(sk, view, cursor, len(sk))
        n = len(sk)
        pairs = [(seg.lines[n - 1 - i], bare[ends[0] - 1 - i]) for i in range(run)] if run else []
    if not pairs:
        return seg
    style = indent.detect(bare, seg.lines)
    width = _tab_width(pairs) if style.tabs else None
    if width is not None:
        style = indent.Style(tabs=True, unit=width)
    shift = indent.common(pairs, style, seg.lines)

    def moved(col: int | None) -> int | None:
        return None if col is None else len(indent.leading(style.render(shift.apply(col))))

    lines = [indent.reindent(x, shift, style) if x.strip() else "" for x in seg.lines]
    return replace(seg, lines=lines, after_indent=moved(seg.after_indent))


def _tab_width(pairs: list[tuple[str, str]]) -> int | None:
    """The columns the model gave a tab, where it wrote spaces for the file's tabs: from the
    lines the file indents with tabs then spaces ("\t\t  ", as GNU C aligns) and the model with
    spaces alone; None unless they all say the same."""
    widths = set()
    for model, own in pairs:
        m, f = indent.leading(model), indent.leading(own)
        tabs = len(f) - len(f.lstrip("\t"))
        if not tabs or "\t" in m or "\t" in f[tabs:] or not model.strip():
            continue
        width, rest = divmod(len(m) - (len(f) - tabs), tabs)
        if rest or width < 1:
            return None
        widths.add(width)
    return widths.pop() if len(widths) == 1 else None


def _place_with(
    seg: Segment,
    k: int,
    index: _Index,
    bare: list[str],
    cursor: int,
    top: bool,
    bottom: bool,
    loose: bool,
    whole: bool = False,
) -> Placement:
    view = index.view(loose)
    keys, where = view.keys, view.where
    keyf = _loose if loose else _key
    sk = [keyf(x) for x in seg.lines]
    n = len(sk)
    name = seg.name(k)
    head_len, heads = _head_runs(sk, view, cursor, len(keys))
    # No marker before it and the file's own first lines: the top, unless they run longer
    # somewhere else (then a common first line, "import os", is a coincidence).
    if top and (whole or _run_at(sk, keys, 0) >= head_len):
        head_len, heads = _run_at(sk, keys, 0), [0]

    def tails_from(lo: int, limit: int) -> tuple[int, list[int]]:
        found = _tail_runs(sk, view, lo, limit)
        if bottom:  # the same at the end
            at_end = _run_back(sk, keys, len(keys), limit, lo)
            if at_end and (whole or at_end >= found[0]):
                return at_end, [len(keys)]
        return found

    if head_len == n and len(heads) == 1:  # the whole segment is there as it is: no change
        p = heads[0]
        _no_deletion_elsewhere(name, sk, view, cursor, p)
        return _placement(seg, p, p + n, list(range(p, p + n)), bare, loose)
    if n == 1 and head_len == 1 and _weak(seg.lines):
        # One "}" or "</div>", found as it is: the end of a block shown around an elided
        # body. Whichever place is meant, nothing changes there (one line shows no deletion,
        # two "}" lines may: refused below); the first place keeps the next segments' range
        # widest (an anchor unique from there is unique from the right place too).
        p = heads[0]
        return _placement(seg, p, p + n, list(range(p, p + n)), bare, loose)
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
            if _weak(seg.lines[n - rest :]):
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
        if tail_len and _weak(seg.lines[n - tail_len :]):
            # "}" or ")" as the last lines may be the end of new code, not an anchor: the
            # end of the block the head is in, or a place that deletes no line as far left.
            q = _closing(bare, lo, tail_len, tails)
            if q is None and len(tails) == 1:
                q = _keeps_outer_lines(seg, name, sk, keys, bare, p, lo, tail_len, tails[0])
            if q is None:
                raise Ambiguous(
                    f"{name}: its last lines ({seg.lines[-1].strip()!r}) are too common to "
                    "tell where it ends; add the unchanged line after it (one more line of "
                    "context)",
                    lines=[t - tail_len + 1 for t in tails[:10]],
                    tier="lazy",
                )
            _no_other_place(seg, name, sk, view, index, bare, cursor, p, q, loose)
            tails = [q]
        if not tail_len:
            _weak_anchor(name, seg.lines[:head_len], "first")
            _no_other_reading(name, sk, view, cursor, p, head_len)
            _elsewhere(name, seg.lines[-1], keys, where, keyf, cursor, p, lo, "last")
            to_end = _to_block_end(seg, name, sk, keys, bare, p, loose)
            if to_end is not None:
                _changed_or_added(seg, name, sk, view, bare, cursor, p, to_end.end, loose)
                return to_end
            _check_insertion(name, seg.lines[head_len], seg.lines[-1], bare, lo)
            _balanced_insertion(name, seg.lines[head_len:])
            return _placement(seg, p, lo, list(range(p, lo)), bare, loose)
        q = _one_tail(seg, name, sk, keys, bare, lo, tail_len, tails)
        to_end = _to_block_end(seg, name, sk, keys, bare, p, loose)
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
        _no_shorter_head(name, sk, keys, p, head_len, tail_len, q)
        _changed_or_added(seg, name, sk, view, bare, cursor, p, q, loose)
        return _checked(seg, name, p, q, bare, loose, keyf)
    if head_len and len(heads) > 1:
        tail_len, tails = tails_from(cursor, n - head_len)
        if tail_len and len(tails) == 1 and not _weak(seg.lines[:head_len]):
            q = tails[0]
            fit = [p for p in heads if p + head_len <= q - tail_len]
            if len(fit) == 1:
                return _checked(seg, name, fit[0], q, bare, loose, keyf)
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
    if not tail_len:
        error = NoMatch(
            f"{name}: none of its first or last lines is in the file"
            + (f" below line {cursor}" if cursor else "")
            + ", so there is nothing to anchor it on; start and end it with unchanged lines "
            "copied from the file (one more line of context on each side)",
            closest=[],
        )
        error._no_anchor = True  # type: ignore[attr-defined]
        raise error
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
    _weak_anchor(name, seg.lines[n - tail_len :], "last")
    _balanced_insertion(name, seg.lines[: n - tail_len])
    _check_insertion(name, seg.lines[n - tail_len - 1], seg.lines[0], bare, start - 1)
    return _placement(seg, start, q, list(range(start, q)), bare, loose, offset=n - tail_len)


def _no_shorter_head(
    name: str, sk: list[str], keys: list[str], p: int, head_len: int, tail_len: int, q: int
) -> None:
    """The head's last lines may as well be new lines: where the tail stands right after a
    shorter head, the segment also reads as lines added there, and the file below it stays
    (a property added before its twin, "display: flex;" written twice). Two readings."""
    tail = sk[len(sk) - tail_len :]
    for h in range(head_len - 1, 0, -1):
        t = p + h
        if t + tail_len != q and keys[t : t + tail_len] == tail:
            raise Ambiguous(
                f"{name}: it fits file lines {p + 1}-{q} with its first {head_len} lines there "
                f"as they are, and as well lines {p + 1}-{t + tail_len} with its first {h} "
                "there and the rest new; add the unchanged line after the change (one more "
                "line of context)",
                lines=[p + 1, t + 1],
                tier="lazy",
            )


def _changed_or_added(
    seg: Segment,
    name: str,
    sk: list[str],
    view: _Keys,
    bare: list[str],
    cursor: int,
    p: int,
    q: int,
    loose: bool,
) -> None:
    """A segment that starts with a "}" and, placed over p..q, changes a file line there (a
    new line that reads like a changed copy of it): if from another "}" it reads as lines
    added right before its last lines, changing nothing, and fits there by the same rules,
    it is changed or added? ("}" then the file's "if" block changed, or a new "if" block
    after another "}"). Two readings: refused, as for a segment held on one side."""
    if not _closes_block(seg.lines[0]):
        return  # its first line tells where it is
    keyf = _loose if loose else _key
    n = len(sk)
    sm, _ = _aligned(sk, view.keys[p:q], p, name)
    if not any(
        _looks_changed(seg.lines[x], bare[p + y])
        for tag, a1, a2, b1, b2 in sm.get_opcodes()
        if tag == "replace"
        for x in range(a1, a2)
        for y in range(b1, b2)
    ):
        return  # it only adds or deletes there
    others = [a for a in view.places(sk[0], cursor) if a != p]
    for a in sorted(others, key=lambda a: abs(a - p))[:OTHER_PLACES]:
        h = _run_at(sk, view.keys, a)
        for r in range(1, n - h):
            t = a + h + r
            if view.keys[a + h : t] != sk[n - r :]:
                continue
            try:  # (its new lines may be in the file: that is what the other reading adds)
                _checked(seg, name, a, t, bare, loose, keyf)
            except (NoMatch, Ambiguous):
                continue
            raise Ambiguous(
                f"{name}: it fits file lines {p + 1}-{q}, changing some, and as well lines "
                f"{a + 1}-{t}, its first {h} line(s) there and the rest added; add the "
                "unchanged line before the change (one more line of context)",
                lines=[p + 1, a + 1],
                tier="lazy",
            )


# Other places of a segment's first line checked for a second reading, at most.
OTHER_PLACES = 32


def _no_other_place(
    seg: Segment,
    name: str,
    sk: list[str],
    view: _Keys,
    index: _Index,
    bare: list[str],
    cursor: int,
    p: int,
    q: int,
    loose: bool,
) -> None:
    """A segment held at ``p`` by its longest head and at ``q`` by a "}" tail: its head's
    last lines may as well be new lines, and the segment fit wherever its first line stands
    with a "}" below (a new property before a rule's end, say). If it fits, by the same rules,
    at another place of its first line, there are two readings: refused."""
    keyf = _loose if loose else _key
    n = len(sk)
    others = [a for a in view.places(sk[0], cursor) if a != p]
    if len(others) > OTHER_PLACES:
        others = sorted(others, key=lambda a: abs(a - p))[:OTHER_PLACES]
    for a in others:
        h = _run_at(sk, view.keys, a)
        lo = a + h
        tail_len, tails = _tail_runs(sk, view, lo, n - h)
        if not tail_len or not _weak(seg.lines[n - tail_len :]):
            continue
        t = _closing(bare, lo, tail_len, tails)
        if t is None:
            continue
        try:
            other = _checked(seg, name, a, t, bare, loose, keyf)
            _check_new_lines(name, other, index)
        except (NoMatch, Ambiguous):
            continue
        raise Ambiguous(
            f"{name}: it fits file lines {p + 1}-{q}, its first {_run_at(sk, view.keys, p)} "
            f"lines there as they are, but as well lines {a + 1}-{t}, its first {h} there and "
            "the rest new; add a distinctive unchanged line before the change (one more line "
            "of context)",
            lines=[p + 1, a + 1],
            tier="lazy",
        )


def _dropped(sm: difflib.SequenceMatcher, lines: list[str], bare: list[str], p: int) -> list[int]:
    """The file rows (from ``p``) a placement deletes without a segment line in their stead:
    left out between matched lines, or beyond the lines that replace them (a line that
    comes back changed is shown, not dropped)."""
    out = []
    for tag, a1, a2, b1, b2 in sm.get_opcodes():
        if tag == "insert":
            out += [p + b for b in range(b1, b2) if bare[p + b].strip()]
        elif tag == "replace" and b2 - b1 > a2 - a1:
            out += [
                p + b
                for b in range(b1, b2)
                if bare[p + b].strip()
                and not any(_looks_changed(lines[a], bare[p + b]) for a in range(a1, a2))
            ]
    return out


def _balanced_insertion(name: str, new: list[str]) -> None:
    """Lines inserted beside one anchor are a whole piece of code: as many brackets closed
    as opened. A "}" left over says they belong around an anchor the file has elsewhere."""
    if _balance(new) != 0:
        raise Ambiguous(
            f"{name}: the lines it adds open and close a different number of brackets, so "
            "they are not a whole piece to insert beside its anchor; show the unchanged lines "
            "on both sides of the change (one more line of context)",
            lines=[],
            tier="lazy",
        )


_STRING = re.compile(r"\"(?:\\.|[^\"\\])*\"|'(?:\\.|[^'\\])*'|`[^`]*`")


def _balance(lines: list[str]) -> int:
    """Brackets opened minus closed, outside simple string literals."""
    total = 0
    for line in lines:
        bare = _STRING.sub("", line)
        total += sum(bare.count(c) for c in "([{") - sum(bare.count(c) for c in ")]}")
    return total


def _elsewhere(
    name: str,
    line: str,
    keys: list[str],
    where: dict[str, list[int]],
    keyf,
    lo: int,
    p: int,
    q: int,
    which: str,
) -> None:
    """A segment held by one side whose other end (a telling line) the file has somewhere
    else may be meant to go there: refused."""
    if _weak_or_thin([line]):
        return
    rows = [r for r in where.get(keyf(line), []) if r >= lo and not p <= r < q]
    if rows:
        raise Ambiguous(
            f"{name}: it is placed by its {'first' if which == 'last' else 'last'} lines at "
            f"line {p + 1}, but its {which} line {line.strip()!r} is in the file at line "
            f"{rows[0] + 1}; show the unchanged lines on both sides of the change (one more "
            "line of context)",
            lines=[p + 1, rows[0] + 1],
            tier="lazy",
        )


def _no_other_reading(
    name: str, sk: list[str], view: _Keys, lo: int, p: int, head_len: int
) -> None:
    """A segment held by its head alone (its first ``head_len`` lines at ``p``) inserts its
    other lines there; but if elsewhere the file holds its first line and, a little below,
    its last lines, it may as well be a head-and-tail edit there (a deletion between them,
    say). A longer head run does not settle that: refused."""
    n = len(sk)
    tail_len, ends = _tail_runs(sk, view, lo, n - 1)
    if not tail_len:
        return
    starts = view.where.get(sk[0], [])
    for q in ends:
        # The first line at ``a``, from ``lo``, at most that far above ``q``, and above its
        # last lines; the nearest such ``a`` other than ``p`` comes first in ``starts``.
        i = bisect.bisect_left(starts, max(lo, q - n - MAX_UNSHOWN_DELETE))
        for a in starts[i : bisect.bisect_right(starts, q - tail_len - 1)]:
            if a == p:
                continue
            raise Ambiguous(
                f"{name}: its first lines are in the file at line {p + 1}, where it would "
                f"add lines, but it also fits lines {a + 1}-{q} (its first and last lines "
                "are there); add the unchanged lines around the change (one more line of "
                "context) so it fits one place only",
                lines=[p + 1, a + 1],
                tier="lazy",
            )


def _no_deletion_elsewhere(name: str, sk: list[str], view: _Keys, lo: int, p: int) -> None:
    """A segment found in the file as it is changes nothing there; but if elsewhere its lines
    stand with a few lines between them, it may be meant to delete those. Refused then."""
    n = len(sk)
    starts = view.places(sk[0], lo)
    # Walking from each place of its first line costs this much; past it, the coded keys.
    walk = len(starts) * n * (n + MAX_UNSHOWN_DELETE)
    for split in range(1, n):
        if walk <= WALK:
            pair = _split_walk(view.keys, starts, sk, split, MAX_UNSHOWN_DELETE)
        else:
            pair = _split_at(view.coded, sk[:split], sk[split:], lo, MAX_UNSHOWN_DELETE)
        if pair is not None:
            a, b = pair
            raise Ambiguous(
                f"{name}: it is in the file as it is at lines {p + 1}-{p + n}, so it "
                f"changes nothing there, but it may be meant to delete lines "
                f"{a + split + 1}-{b} (its lines stand around them there); show the "
                "change, or the lines around it that make the place unique",
                lines=[p + 1, a + 1],
                tier="lazy",
            )


def _split_walk(
    keys: list[str], starts: list[int], sk: list[str], split: int, gap: int
) -> tuple[int, int] | None:
    """``_split_at`` by walking from each place of the first line (few of them)."""
    n = len(sk)
    for a in starts:
        if keys[a : a + split] != sk[:split]:
            continue
        for b in range(a + split + 1, min(len(keys), a + split + gap) + 1):
            if keys[b : b + n - split] == sk[split:]:
                return a, b
    return None


def _split_at(
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


def _check_new_lines(name: str, placed: Placement, index: _Index) -> None:
    """A line the placement adds that the file has, once, somewhere else (a distinctive line,
    not a ``return None``) means the segment was likely meant to stand there: refused."""
    _, where = index.keys(False)
    for i, line in enumerate(placed.lines):
        if i in placed.same:
            continue
        key = _key(line)
        rows = where.get(key, [])
        if len(key.strip()) >= DISTINCTIVE and len(rows) == 1:
            row = rows[0]
            if not placed.start <= row < placed.end:
                raise Ambiguous(
                    f"{name}: placed at file lines {placed.start + 1}-{placed.end}, it would "
                    f"add {key.strip()!r}, which the file has at line {row + 1}; if the snippet "
                    "means that place, show the lines around it there (one more line of "
                    "context)",
                    lines=[placed.start + 1, row + 1],
                    tier="lazy",
                )


def _aligned(
    sk: list[str], region: list[str], p: int, name: str
) -> tuple[difflib.SequenceMatcher, dict[int, int]]:
    """The segment's keys aligned with a region of the file starting at row ``p``: the
    matcher (for its opcodes) and segment line -> file row for the lines they share.

    A long region of one repeated line costs its length times the segment's to align: past
    ``ALIGN_WORK`` steps that is refused rather than done."""
    sm = diff.matcher(sk, region, ALIGN_WORK)
    try:
        blocks = sm.get_matching_blocks()
    except diff.TooCostly:
        raise Ambiguous(
            f"{name}: placed at file lines {p + 1}-{p + len(region)}, the file's lines there "
            "are too many and too much alike to align with the segment line by line; add the "
            "lines around the change that make its place unique (one more line of context)",
            lines=[p + 1],
            tier="lazy",
        ) from None
    same = {a + i: p + b + i for a, b, size in blocks for i in range(size)}
    return sm, same


def _run_at(sk: list[str], keys: list[str], p: int) -> int:
    r = 0
    while r < len(sk) and p + r < len(keys) and keys[p + r] == sk[r]:
        r += 1
    return r


def _run_back(sk: list[str], keys: list[str], q: int, limit: int, lo: int) -> int:
    """How many of the segment's last lines (at most ``limit``) end the file at ``q``."""
    r = 0
    n = len(sk)
    while r < limit and q - 1 - r >= lo and keys[q - 1 - r] == sk[n - 1 - r]:
        r += 1
    return r


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


def _one_tail(
    seg: Segment,
    name: str,
    sk: list[str],
    keys: list[str],
    bare: list[str],
    lo: int,
    tail_len: int,
    tails: list[int],
) -> int:
    """The end of the segment's region when its tail is at ``tails``: the only place, or,
    for a tail that closes a block (``}``, ``end``), the nearest one that closes the block the
    head is in (no line between sits at or left of its indentation)."""
    if len(tails) == 1:
        return tails[0]
    q = _closing(bare, lo, tail_len, tails)
    if q is not None:
        return q
    raise Ambiguous(
        f"{name}: its last lines are in the file at {len(tails)} places below its first "
        f"lines (lines {', '.join(str(t - tail_len + 1) for t in tails[:10])}); add the line "
        "after it (one more line of context) so its end is clear",
        lines=[t - tail_len + 1 for t in tails[: LISTED + 1]],
        tier="lazy",
    )


def _closing(bare: list[str], lo: int, tail_len: int, tails: list[int]) -> int | None:
    """The nearest tail that closes the block the head is in: it closes a block (``}``,
    ``end``) and no line between sits at or left of its indentation. None if there is none."""
    q = tails[0]
    tail_first = bare[q - tail_len]
    level = _indent(tail_first)
    between = [x for x in bare[lo : q - tail_len] if x.strip()]
    if _closes_block(tail_first) and all(_indent(x) > level for x in between):
        return q
    # A tail that ends in a closing line ("break;", "}") ends where the file first comes back
    # to that line's level after the head: everything before it is inside the block that line
    # closes. Only one tail can end there; two that each could (at two levels) are refused.
    ends = set(tails)
    found = []
    for level in sorted({_indent(bare[t - 1]) for t in tails}):
        r = _first_at(bare, lo, level)
        if r is not None and r + 1 in ends and _closes_block(bare[r]):
            found.append(r + 1)
    return found[0] if len(found) == 1 else None


def _first_at(bare: list[str], lo: int, level: int, stop: int | None = None) -> int | None:
    """The first non-blank row from ``lo`` (before ``stop``) at or left of ``level``."""
    end = len(bare) if stop is None else stop
    return next((r for r in range(lo, end) if bare[r].strip() and _indent(bare[r]) <= level), None)


def _closes_opened_block(bare: list[str], p: int, head_len: int, q: int) -> bool:
    """File row ``q - 1`` closes a block that a head row (``p`` ..) opens: the head row at its
    level opens a block, every row between is deeper, and the brackets between balance."""
    last = q - 1
    if last < p + head_len or not _closes_block(bare[last]):
        return False
    level = _indent(bare[last])
    opener = next(
        (
            h
            for h in range(p + head_len - 1, p - 1, -1)
            if bare[h].strip() and _indent(bare[h]) <= level
        ),
        None,
    )
    if opener is None or _indent(bare[opener]) != level or not _opens_block(bare[opener]):
        return False
    if _first_at(bare, opener + 1, level, last + 1) != last:
        return False
    return _balance(bare[opener:q]) == 0


_OPEN_TAG = re.compile(r"^<([A-Za-z][\w.:-]*)\b[^>]*(?<!/)>$")


def _opens_block(line: str) -> bool:
    s = line.rstrip()
    return s.endswith(("{", "(", "[")) or bool(_OPEN_TAG.match(s.strip()))


def _to_block_end(
    seg: Segment,
    name: str,
    sk: list[str],
    keys: list[str],
    bare: list[str],
    p: int,
    loose: bool,
) -> Placement | None:
    """A segment whose next marker sits left of its last line showed that line's block to
    its end: it replaces the file from its head through the end of that block (the block of
    the last segment line left of the last one, which the head must hold), provided it
    deletes no more lines than it writes there (unshown lines are never deleted)."""
    last = _indent(seg.lines[-1])
    if seg.after_indent is None or seg.after_indent >= last:
        return None
    if seg.lines[-1].rstrip().endswith(_OPENS):
        return None  # a line that opens a block does not end one
    opener = next(
        (
            i
            for i in range(len(sk) - 2, -1, -1)
            if seg.lines[i].strip() and _indent(seg.lines[i]) < last
        ),
        None,
    )
    if opener is None:
        # All of it sits in the block: that block ends where the file leaves its level.
        level, end = last - 1, p
    elif keys[p : p + opener + 1] != sk[: opener + 1]:
        return None  # the opener is not part of the anchored head
    else:
        level, end = _indent(bare[p + opener]), p + opener + 1
    for r in range(end, len(bare)):
        if bare[r].strip():
            if _indent(bare[r]) <= level:
                break
            end = r + 1
    sm, same = _aligned(sk, keys[p:end], p, name)
    for tag, a1, a2, b1, b2 in sm.get_opcodes():
        # Every file line this drops must come back changed ("x = 1" -> "x = 2"): a line
        # replaced by something else entirely may be one the model kept behind the marker.
        if tag == "insert":
            return None
        if tag == "replace" and not all(
            any(_looks_changed(seg.lines[a], bare[p + b]) for a in range(a1, a2))
            for b in range(b1, b2)
        ):
            return None
    return _placement_from(seg, p, end, same, bare, loose)


# Line ends that open a block or continue a statement on the next line.
_OPENS = (":", "{", "(", "[", ",", "\\", " then", " do", "=>")


def _keeps_outer_lines(
    seg: Segment,
    name: str,
    sk: list[str],
    keys: list[str],
    bare: list[str],
    p: int,
    lo: int,
    tail_len: int,
    q: int,
) -> int | None:
    """``q`` if the region p..q deletes no line at or left of the tail's indentation (a
    weak tail that ends another block would take that block's opening line with it)."""
    level = _indent(bare[q - tail_len])
    kept = set(_aligned(sk, keys[p:q], p, name)[1].values())
    for row in range(lo, q - tail_len):
        if bare[row].strip() and _indent(bare[row]) <= level and row not in kept:
            return None
    return q


# Lines too common to place a segment by on their own.
_WEAK = frozenset(
    ("", "'''", '"""', "pass", "return", "break", "continue", "else:", "try:", "finally:", "end")
) | frozenset(("fi", "done", "*/", "-->"))


# A line that is one of these words with punctuation around it ("try {", "} else {",
# "#endif", "end;") says nothing of where it is.
_WEAK_WORDS = frozenset(
    ("try", "else", "finally", "do", "catch", "end", "fi", "done", "return", "break", "continue")
) | frozenset(("pass", "default", "endif", "then", "begin", "esac"))
# Words that add nothing to a weak one: "return null;", "} catch (e) {".
_LITERALS = frozenset(("null", "None", "nil", "undefined", "true", "false", "True", "False"))
_CATCH_ARGS = re.compile(r"\bcatch\s*\([^)]*\)")
_WORD = re.compile(r"[A-Za-z_]\w*")
_CLOSING_TAG = re.compile(r"^</[\w.:-]+>$")


def _weak_line(line: str) -> bool:
    s = line.strip()
    if s in _WEAK or all(c in "{}()[];,:<>/" for c in s) or _CLOSING_TAG.match(s):
        return True
    words = [w for w in _WORD.findall(_CATCH_ARGS.sub("catch", s)) if w not in _LITERALS]
    return len(words) == 1 and words[0] in _WEAK_WORDS


def _weak(lines: list[str]) -> bool:
    return all(_weak_line(x) for x in lines)


# Anchor lines with fewer characters than this in all ("4", "x"), besides the weak ones,
# are too thin to say where a deletion stops.
THIN_ANCHOR = 4


def _weak_or_thin(lines: list[str], least: int = THIN_ANCHOR) -> bool:
    return _weak(lines) or sum(len(x.strip()) for x in lines if not _weak_line(x)) < least


def _weak_anchor(name: str, lines: list[str], which: str) -> None:
    """A segment held by one side only needs that side to be more than a ``}``, a blank or
    a few characters."""
    if _weak_or_thin(lines):
        shown = ", ".join(repr(x.strip()) for x in lines[:3])
        raise NoMatch(
            f"{name}: its {which} lines ({shown}) are too common to place it by, and nothing "
            "on its other side is in the file; add a distinctive unchanged line on each side "
            "(one more line of context)",
            closest=[],
        )


def _closes_block(line: str) -> bool:
    s = line.strip()
    return bool(s) and (
        all(c in "})];,>" for c in s)
        or s in ("end", "fi", "done", "esac", "endif", "endfor", "endwhile")
        or s.startswith("</")
    )


def _check_insertion(name: str, new_line: str, edge: str, bare: list[str], row: int) -> None:
    """New lines go beside file line ``row`` (0-based): after it for a segment held by its
    head, before it for one held by its tail; ``new_line`` is the new line next to it,
    ``edge`` the segment's line at its open end. Inserting is refused, not guessed, when the
    new lines may as well replace that file line: it reads like an edit of it, or it sits at
    the new lines' level (a marker after them does not tell: "the rest" may start with that
    line or after it)."""
    if not 0 <= row < len(bare) or not bare[row].strip():
        return
    neighbour = bare[row]
    changed = _looks_changed(new_line, neighbour)
    same_level = _indent(neighbour) >= _indent(edge)
    if changed or same_level:
        a, b = new_line.strip(), neighbour.strip()
        how = (
            f"looks like a changed copy of file line {row + 1} ({b!r})"
            if changed
            else f"stands where file line {row + 1} ({b!r}) is"
        )
        raise Ambiguous(
            f"{name}: its new line {a!r} {how}, and nothing on its open side shows whether "
            "it replaces that line or is added beside it; show the unchanged line there too "
            "(one more line of context)",
            lines=[row + 1],
            tier="lazy",
        )


_LEAD_WORD = re.compile(r"^[A-Za-z_]\w*")
_DIGITS = re.compile(r"\d+")


def _looks_changed(new: str, old: str) -> bool:
    """``new`` reads like an edit of ``old``: much the same text, or a statement of the same
    kind at the same place (same indentation, same first word: ``return``, ``x =``)."""
    a, b = new.strip(), old.strip()
    if a == b:
        return False
    if difflib.SequenceMatcher(None, a, b).ratio() >= CHANGED_LINE_SIMILARITY:
        return True
    if _DIGITS.sub("0", a) == _DIGITS.sub("0", b):  # "4" for "2", "x[1] = 10" for "x[0] = 9"
        return True
    wa, wb = _LEAD_WORD.match(a), _LEAD_WORD.match(b)
    return (
        _indent(new) == _indent(old)
        and wa is not None
        and wb is not None
        and (wa.group() == wb.group())
    )


def _checked(
    seg: Segment, name: str, p: int, q: int, bare: list[str], loose: bool, keyf
) -> Placement:
    """The segment over file lines p..q, unless that deletes much more than it shows."""
    region = [keyf(x) for x in bare[p:q]]
    sk = [keyf(x) for x in seg.lines]
    sm, same = _aligned(sk, region, p, name)
    unshown = len(region) - len(same)
    kept = set(same.values())
    left = min(_indent(x) for x in seg.lines if x.strip())
    outer = [
        r for r in range(p, q) if r not in kept and bare[r].strip() and _indent(bare[r]) < left
    ]
    if outer:
        raise Ambiguous(
            f"{name}: placed at file lines {p + 1}-{q}, it would delete line {outer[0] + 1} "
            f"({bare[outer[0]].strip()!r}), which sits left of every line of the segment, in a "
            "block the segment does not show; add the lines around the change that make its "
            "place unique (one more line of context)",
            lines=[p + 1, outer[0] + 1],
            tier="lazy",
        )
    levels = {_indent(x) for x in seg.lines if x.strip()}
    if len(levels) > 1:
        # A segment that shows a block (lines at several levels) keeps the block lines at
        # its outermost level ("}", "void b() {"): dropping one unshown cuts a block open.
        cut = [
            r
            for r in _dropped(sm, seg.lines, bare, p)
            if _indent(bare[r]) <= min(levels)
            and (_closes_block(bare[r]) or bare[r].rstrip().endswith(_OPENS))
        ]
        if cut:
            raise Ambiguous(
                f"{name}: placed at file lines {p + 1}-{q}, it would delete line {cut[0] + 1} "
                f"({bare[cut[0]].strip()!r}), at the segment's outermost level, which it does "
                "not show; add the lines around the change that make its place unique (one "
                "more line of context)",
                lines=[p + 1, cut[0] + 1],
                tier="lazy",
            )
    if _balance(bare[p:q]) != _balance(seg.lines):
        raise Ambiguous(
            f"{name}: placed at file lines {p + 1}-{q}, it would leave a bracket open or "
            "closed that the file has there; add the lines around the change that make its "
            "place unique (one more line of context)",
            lines=[p + 1],
            tier="lazy",
        )
    head = next((r for r in range(len(sk)) if same.get(r) != p + r), len(sk))
    tail = next((r for r in range(len(sk)) if same.get(len(sk) - 1 - r) != q - 1 - r), len(sk))
    weak = _weak_or_thin(seg.lines[: max(head, 1)]) or (
        _weak_or_thin(seg.lines[len(sk) - max(tail, 1) :])
        # A "}" that closes the block the head opens says where the deletion stops, when
        # the segment shows more of that block than it leaves out (else a marker was
        # likely forgotten before the "}").
        and not (unshown <= len(same) and _closes_opened_block(bare, p, max(head, 1), q))
    )
    if weak and unshown > len(sk) - len(same):
        # A "}" or '"""' at an end tells nothing of where a deletion starts or stops.
        raise Ambiguous(
            f"{name}: placed at file lines {p + 1}-{q}, it would delete lines it does not "
            "show, and its first or last line is too common to tell where they are; add a "
            "distinctive unchanged line on each side (one more line of context)",
            lines=[p + 1],
            tier="lazy",
        )
    if unshown > MAX_UNSHOWN_DELETE and unshown > 2 * len(sk):
        raise Ambiguous(
            f"{name}: placed at file lines {p + 1}-{q}, it would delete {unshown} lines it does "
            "not show; if they stay, put an '... existing code ...' line where they are; if "
            "they go, delete them with an edit that quotes them",
            lines=[p + 1],
            tier="lazy",
        )
    return _placement_from(seg, p, q, same, bare, loose)


def _placement(
    seg: Segment,
    start: int,
    end: int,
    file_rows: list[int],
    bare: list[str],
    loose: bool,
    offset: int = 0,
) -> Placement:
    """The segment over file lines start..end, whose lines ``offset``.. equal ``file_rows``."""
    same = {offset + i: row for i, row in enumerate(file_rows)}
    return _placement_from(seg, start, end, same, bare, loose)


def _placement_from(
    seg: Segment, start: int, end: int, same: dict[int, int], bare: list[str], loose: bool
) -> Placement:
    lines = seg.lines
    if not loose:
        same, lines = _retyped(lines, start, end, same, bare)
    return Placement(start, end, lines, same, exact=not loose)


def _retyped_copy(line: str, own: str) -> bool:
    """``line`` is the file's line ``own`` written with the other kind of whitespace."""
    model, file_ws = indent.leading(line), indent.leading(own)
    return (
        bool(own.strip()) and line.strip() == own.strip() and (("\t" in model) != ("\t" in file_ws))
    )


def _no_retyped_copy(name: str, placed: Placement, bare: list[str]) -> None:
    """New lines inserted beside a file line that they begin (or end) with, written with
    other whitespace: the model retyped that line, and inserting would write it twice."""
    lines, same = placed.lines, placed.same
    kept = [-1, *sorted(same), len(lines)]  # segment lines kept, between the two ends
    for i, j in itertools.pairwise(kept):
        new = [x for x in lines[i + 1 : j] if x.strip()]
        before = same.get(i, placed.start - 1)
        after = same.get(j, placed.end)
        if not new or after != before + 1:
            continue  # nothing added here, or it replaces file lines
        for row, line in ((after, new[0]), (before, new[-1])):
            if 0 <= row < len(bare) and _retyped_copy(line, bare[row]):
                raise Ambiguous(
                    f"{name}: its line {line.strip()!r} is file line {row + 1} written with "
                    "other whitespace, and it would be added beside that line; copy the lines "
                    "around the change as the file has them",
                    lines=[row + 1],
                    tier="lazy",
                )


def _blank_pairs(lines: list[str], same: dict[int, int], bare: list[str]) -> dict[int, int]:
    """A blank segment line paired with a file line of spaces whose very bytes are those of
    a later blank segment line, unpaired, with only new lines between the two: that later
    one is the file's line, and the first one a line the model added."""
    out = dict(same)
    for a in sorted(same):
        b = out[a]
        if lines[a].strip() or lines[a] == bare[b]:
            continue
        for a2 in range(a + 1, len(lines)):
            if a2 in out:
                break  # a paired line between: the order would not hold
            if lines[a2] == bare[b]:
                del out[a]
                out[a2] = b
                break
    return out


def _retyped(
    lines: list[str], start: int, end: int, same: dict[int, int], bare: list[str]
) -> tuple[dict[int, int], list[str]]:
    """A segment placed by its exact lines may hold lines the model retyped: the file's text
    at the file's column with spaces for tabs (or tabs for spaces). Those are the file's lines,
    byte for byte; and a new line whose indentation in the segment is that of a line it shows
    takes that line's indentation in the file (the nearest such line), so that the new code
    is written as the file writes its indentation."""
    same = _blank_pairs(lines, same, bare)
    kept = set(same.values())
    loose_rows = {bare[b].strip() for b in range(start, end) if b not in kept}
    if not any(a not in same and lines[a].strip() in loose_rows for a in range(len(lines))):
        return same, lines  # no line of the file there written another way: nothing to do
    found: dict[int, int] = {}
    style: indent.Style | None = None
    anchors = sorted(same.items())
    for (a0, b0), (a1, b1) in itertools.pairwise([(-1, start - 1), *anchors, (len(lines), end)]):
        if a1 - a0 < 2 or b1 - b0 < 2:
            continue
        model_lines = lines[a0 + 1 : a1]
        sm = diff.matcher(
            [x.strip() for x in model_lines], [x.strip() for x in bare[b0 + 1 : b1]], ALIGN_WORK
        )
        try:
            blocks = sm.get_matching_blocks()
        except diff.TooCostly:
            continue  # too much alike to pair up: the model's bytes stand
        for i, k, size in blocks:
            rows = range(b0 + 1 + k, b0 + 1 + k + size)
            for a, b in zip(range(a0 + 1 + i, a0 + 1 + i + size), rows, strict=True):
                model, own = indent.leading(lines[a]), indent.leading(bare[b])
                if model == own or not lines[a].strip():
                    continue
                if style is None:
                    style = indent.detect(bare, lines)
                if indent.columns(model, style.unit) == indent.columns(own, style.unit):
                    found[a] = b
    if not found:
        return same, lines
    same = {**same, **found}
    assert style is not None
    return same, _by_analogy(lines, lines, same, bare, style)


def _by_analogy(
    original: list[str],
    lines: list[str],
    same: dict[int, int],
    bare: list[str],
    style: indent.Style | None = None,
) -> list[str]:
    """``lines`` with each new line (not in ``same``) indented as the file indents the
    nearest kept line that the model indented as it (``original``: the segment as the model
    wrote it); with no such line, in ``style`` at its column (or as it is, without one)."""
    out = list(lines)
    by_ws: dict[str, list[int]] = {}  # kept segment lines by their indentation, in order
    for b in sorted(same):
        if original[b].strip():
            by_ws.setdefault(indent.leading(original[b]), []).append(b)
    for a, line in enumerate(original):
        if a in same or not line.strip():
            continue
        ws = indent.leading(line)
        rows = by_ws.get(ws)
        if rows:
            i = bisect.bisect_left(rows, a)
            near = min(rows[max(i - 1, 0) : i + 1], key=lambda b: abs(b - a))
            out[a] = indent.leading(bare[same[near]]) + line[len(ws) :]
        elif style is not None:
            out[a] = style.render(indent.columns(ws, style.unit)) + line[len(ws) :]
    return out


# -- the new text --------------------------------------------------------------------------------
def _assemble(file_lines: list[str], placements: list[Placement], text: str) -> str:
    eol = dominant_eol(text) if text else "\n"
    ended = ("\n", "\r") if cr_ends_lines(text) else "\n"
    out: list[str] = []
    at = 0
    for pl in placements:
        out += file_lines[at : pl.start]
        for i, line in enumerate(pl.lines):
            row = pl.same.get(i)
            if row is not None:
                out.append(
                    file_lines[row] if file_lines[row].endswith(ended) else file_lines[row] + eol
                )
                continue
            out.append(line + eol)
        at = max(at, pl.end)
    rest = file_lines[at:]
    out += rest
    merged = "".join(out)
    if text and not ends_line(text) and not rest and merged.endswith(eol):
        merged = merged[: -len(eol)]  # the file had no final newline: it still has none
    return merged


__all__ = ["LazyResult", "Region", "has_markers", "merge_snippet", "split_snippet"]
