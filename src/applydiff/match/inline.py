"""Three-way merge inside one line.

When the model changes a line it quoted with noise (smart quotes where the file has ASCII, a
dash, odd spacing, a typo), the characters it did not change are taken from the file's line
and only the spans it changed come from its replacement: the file's ``s = “hello” — hi``
edited by a model that quoted it as ``s = "hello" - hi`` into ``"goodbye"`` keeps the smart
quotes and the dash.

It is a diff3 over tokens. The model's change (search line -> replacement line) and the
noise (search line -> file line) are each a list of hunks on the search line's tokens. Hunks
of one side apply as they are; where hunks of both sides touch or overlap, the two must say
the same thing there (a typo the model fixed in its replacement is the file's own text), or
the line is a conflict: merging would guess, so the caller refuses, unless the model's line
is what a merge taking the model's side would give (then it is the model's line as written).
A change is never applied twice: the file's ``/* x */`` quoted as ``/ *x */`` and written
back as ``/* x */`` is the file's line, not ``/** x */``.

Runs of blanks align as one kind of token, so words decide how lines line up. In columns the
file aligns with tabs that the model retyped as spaces, a model that changes a word and pads
the blanks after it to keep the next column in place gets the file's tabs, bringing that
column where the model put it (``Place`` gives the columns the lines start at).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from rapidfuzz.distance import Indel

from . import diff
from .normalize import chars, loose

# Lines less alike than this are not "the same line with noise" (base vs file), or the change
# is a rewrite rather than an edit inside the line (base vs replacement).
SAME_LINE = 0.75
EDITED_LINE = 0.5
# Edit-distance cells (see ``diff.cells``) one line comparison may take: a few milliseconds.
LINE_CELLS = 100_000_000

# Tokens: words, runs of blanks, single other characters. Merging token by token (not char by
# char) keeps a change of spacing or a retyped word from being spliced into a neighbour.
_TOKEN = re.compile(r"\w+|\s+|[^\w\s]")
_blanks = re.compile(r"\s+")


class Conflict(Exception):
    """The model's change and the file's difference from what the model quoted touch the
    same tokens and say different things there."""


@dataclass(frozen=True, slots=True)
class _Hunk:
    """Base tokens ``[i1, i2)`` become ``new`` on one side (``ours``: the file)."""

    i1: int
    i2: int
    new: tuple[str, ...]
    ours: bool


@dataclass(frozen=True, slots=True)
class Place:
    """Where the three lines start (their leading blanks, which ``merge_line`` is not given) and
    where the merged line will, and the tab width: for the columns of tab-aligned text."""

    base: str = ""
    ours: str = ""
    theirs: str = ""
    out: str = ""
    tab: Callable[[], int] = lambda: 8  # asked only when a gap needs columns


@dataclass(frozen=True, slots=True)
class _Gap:
    """Blanks to write before the token at ``b``/``o``/``t`` (its index in the base, file and
    model's lines): enough to bring it to the column the file has it at, moved as far as the
    model moved it; with tabs where the file used a tab."""

    b: int
    o: int
    t: int
    tabs: bool


def merge_line(
    base: str, ours: str, theirs: str, undo: Callable[[str], str], place: Place | None = None
) -> str | None:
    """``theirs`` with every span it kept from ``base`` written as ``ours`` has it; None when
    the lines are not alike enough for that to be meaningful (or, in lines of many thousands
    of characters, too costly to compare: then ``theirs`` is written as it is). Raises
    ``Conflict`` when both changed the same span differently."""
    if theirs == ours or base == theirs:
        return ours  # the model wrote the file's line, or left its own quote as it was
    if base == ours:
        return theirs
    if diff.cells(base, ours) > LINE_CELLS:
        return None  # a line this long and this changed: too costly to compare
    if Indel.normalized_similarity(_blanks.sub(" ", base), _blanks.sub(" ", ours)) < SAME_LINE:
        return None  # (spacing is noise: tab-aligned columns retyped as spaces are alike)
    b, o, t = _TOKEN.findall(base), _TOKEN.findall(ours), _TOKEN.findall(theirs)
    try:
        merged = _merge_tokens(b, o, t, undo, place or Place())
    except diff.TooCostly:
        return None  # tokens too many and too repetitive to align
    if merged is not None and loose(merged) == loose(ours) != loose(theirs) != loose(base):
        # The model changed its line into something the file's line is not, and nothing of
        # that change is left: the diffs read it as the file's own difference (a slash the
        # model deleted from its misquote "/ /x" of "// x"), which is a guess.
        raise Conflict
    return merged


def _keys(tokens: list[str]) -> list[str]:
    """Tokens as the alignment sees them: every run of blanks alike, so that words decide
    where the lines line up (a retyped run of blanks is a change in place, not a reason to
    pair a word with its namesake further on)."""
    return [" " if x[0].isspace() else x for x in tokens]


def _hunks(base: list[str], other: list[str], ours: bool) -> list[_Hunk]:
    out = []
    for tag, i1, i2, j1, j2 in diff.matcher(_keys(base), _keys(other)).get_opcodes():
        if tag != "equal":
            out.append(_Hunk(i1, i2, tuple(other[j1:j2]), ours))
            continue
        out += [
            _Hunk(i1 + d, i1 + d + 1, (other[j1 + d],), ours)
            for d in range(i2 - i1)
            if base[i1 + d] != other[j1 + d]
        ]
    return out


def _merge_tokens(
    b: list[str], o: list[str], t: list[str], undo: Callable[[str], str], place: Place
) -> str | None:
    if diff.matcher(_keys(b), _keys(t)).ratio() < EDITED_LINE:
        return None
    hunks = sorted(_hunks(b, o, True) + _hunks(b, t, False), key=lambda h: (h.i1, h.i2))
    out: list[str | _Gap] = []
    theirs_side: list[str] = []  # the same merge, taking the model's side in every conflict
    conflict = False
    k = 0
    for group in _groups(b, hunks):
        lo, hi = group[0].i1, max(h.i2 for h in group)
        kept = b[k:lo]
        out += kept
        theirs_side += kept
        k = hi
        mine = [h for h in group if h.ours]
        yours = [h for h in group if not h.ours]
        t_side = _side(b, lo, hi, yours)
        t_text = undo("".join(t_side)) if yours else ""
        if not yours:
            got = "".join(_side(b, lo, hi, mine))
            out.append(got)
            theirs_side.append(got)
        elif not mine:
            out.append(t_text)
            theirs_side.append(t_text)
        else:
            o_text = "".join(_side(b, lo, hi, mine))
            if _same_change(b[lo:hi], o_text, t_side):
                out.append(o_text)  # both made this change: once, in the file's bytes
            elif (gaps := _realigned(b, lo, hi, mine, hunks, t_side)) is not None:
                # The model changed words and the blanks after them to keep the next token
                # in its column; the file aligns that token with its own blanks (tabs).
                out += [g if isinstance(g, _Gap) else undo(g) for g in gaps]
            else:
                conflict = True
            theirs_side.append(t_text)
    out += b[k:]
    theirs_side += b[k:]
    merged = None if conflict else _fill(out, b, o, t, place)
    if merged is None:
        # Taking the model's side everywhere it clashes is the model's line only when the
        # file's noise lies nowhere else in the line; anything else would be a guess.
        if "".join(theirs_side) == undo("".join(t)):
            return "".join(theirs_side)
        raise Conflict
    return merged


def _realigned(
    b: list[str], lo: int, hi: int, mine: list[_Hunk], hunks: list[_Hunk], t_side: list[str]
) -> list[str | _Gap] | None:
    """The model's text for a clash over base tokens ``[lo, hi)`` with a gap for each run of
    blanks the file retyped, or None unless the clash is only that: the file changed nothing
    there but runs of blanks (each for one run of blanks), and the model's text has the same
    shape as its quote (a word for a word, blanks for blanks), so its runs of blanks stand
    for the file's one for one."""
    if len(t_side) != hi - lo or any(
        x.isspace() != y.isspace() for x, y in zip(b[lo:hi], t_side, strict=True)
    ):
        return None
    for h in mine:
        if h.i2 - h.i1 != 1 or len(h.new) != 1 or not (b[h.i1].isspace() and h.new[0].isspace()):
            return None
        if h.i2 >= len(b):
            return None  # blanks at the end of the line: no column to keep
    theirs = [h for h in hunks if not h.ours]
    ours = [h for h in hunks if h.ours]
    t_lo = _index(lo, theirs)
    retyped = {h.i1: h for h in mine}
    out: list[str | _Gap] = []
    for k, tok in enumerate(t_side):
        blanks = retyped.get(lo + k)
        if blanks is None:
            out.append(tok)
        else:
            p = lo + k + 1
            out.append(_Gap(p, _index(p, ours), t_lo + k + 1, "\t" in blanks.new[0]))
    return out


def _fill(
    out: list[str | _Gap],
    b: list[str],
    o: list[str],
    t: list[str],
    place: Place,
) -> str | None:
    """The merged line with each gap written out, or None when a gap cannot be: the text
    before it already reaches past the column it should bring its token to."""
    if not any(isinstance(x, _Gap) for x in out):
        return "".join(x for x in out if isinstance(x, str))
    tab = place.tab()
    text = ""
    for x in out:
        if isinstance(x, str):
            text += x
            continue
        # The token after the gap in the file and in the model's lines: where it stands,
        # and how far the model moved it.
        file_col = _width(place.ours + "".join(o[: x.o]), tab)
        moved = _width(place.theirs + "".join(t[: x.t]), tab) - _width(
            place.base + "".join(b[: x.b]), tab
        )
        col = _width(place.out + text, tab)
        target = file_col + moved
        if target <= col:
            return None
        blanks = ""
        if x.tabs:
            while (col // tab + 1) * tab <= target:
                blanks += "\t"
                col = (col // tab + 1) * tab
        text += blanks + " " * (target - col)
    return text


def _index(p: int, hunks: list[_Hunk]) -> int:
    """Where the boundary before base token ``p`` (inside none of ``hunks``) falls on their
    side: after every hunk before it, before anything inserted there."""
    return p + sum(len(h.new) - (h.i2 - h.i1) for h in hunks if h.i1 < p and h.i2 <= p)


def _width(text: str, tab: int) -> int:
    return len(text.expandtabs(tab))


def _groups(b: list[str], hunks: list[_Hunk]) -> list[list[_Hunk]]:
    """Hunks (sorted by start) gathered into runs that must be settled together: they
    overlap, or they touch where one could be the other's change aligned a token over."""
    out: list[list[_Hunk]] = []
    hi = -1
    for h in hunks:
        if out and (h.i1 < hi or (h.i1 == hi and _touch(b, out[-1], h))):
            out[-1].append(h)
            hi = max(hi, h.i2)
        else:
            out.append([h])
            hi = h.i2
    return out


def _touch(b: list[str], group: list[_Hunk], h: _Hunk) -> bool:
    """Whether ``h``, starting where ``group`` ends, interacts with it: two insertions at one
    place are ordered only by guess, and two changes that meet at a boundary could slide
    across it (the diff's alignment of the one side is not the other's) when they share a
    token (runs of blanks all alike)."""
    for g in group:
        if g.i2 != h.i1:
            continue
        if g.i1 == g.i2 == h.i2:
            return True
        if set(_keys([*b[g.i1 : g.i2], *g.new])) & set(_keys([*b[h.i1 : h.i2], *h.new])):
            return True
    return False


def _side(b: list[str], lo: int, hi: int, hunks: list[_Hunk]) -> list[str]:
    """Base tokens ``[lo, hi)`` as one side has them."""
    out: list[str] = []
    k = lo
    for h in hunks:  # sorted, and one side's hunks never overlap
        out += b[k : h.i1]
        out += h.new
        k = h.i2
    out += b[k:hi]
    return out


def _same_change(base: list[str], ours: str, theirs: list[str]) -> bool:
    """Whether the model's text for a span says what the file's does: the same characters
    once unicode punctuation is read as ASCII and blanks are set aside, where the model kept
    the blanks it quoted (so it changed no spacing the file could have differently)."""
    t_text = "".join(theirs)
    if chars(ours) == chars(t_text):
        return True
    if "".join(chars(ours).split()) != "".join(chars(t_text).split()):
        return False
    return [x for x in base if x.isspace()] == [x for x in theirs if x.isspace()]
