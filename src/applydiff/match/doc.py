"""A file's text prepared for matching: LF-normalized, with lazy, local line access.

Lines end where ``text.split_lines`` ends them: at LF, CRLF, and a lone CR in a file whose
lines end with one (old Mac files); each terminator becomes one LF in ``Doc.t`` and comes back
as it was when the text is spliced.

Matching a 20-line block in a 100k-line file must cost about as much as one ``str.find`` over
it, so nothing here splits the whole text into lines up front: lines are read around the
places the anchors point at, and line numbers are counted from the nearest known checkpoint.
"""

from __future__ import annotations

import bisect

from ..text import CR, CRLF, LF, cr_ends_lines, to_lf
from .index import LineIndex


class Doc:
    """Matching view of ``text``: ``t`` is the text with every line terminator turned into
    LF (CRLF always, a lone CR when ``cr``: the file's lines end with one).

    Positions (``pos``) are offsets into ``t``; :meth:`orig_offset` maps them back.
    """

    __slots__ = (
        "_crlf",
        "_dominant",
        "_index",
        "_line_count",
        "_mark_lines",
        "_mark_pos",
        "cr",
        "has_cr",
        "n",
        "orig",
        "shown_from",
        "t",
    )

    def __init__(self, text: str, *, shown_from: int = 0) -> None:
        self.orig = text
        # Lines the caller cut off above this text: added to the line numbers errors show.
        self.shown_from = shown_from
        self.has_cr = CR in text
        self.cr = self.has_cr and cr_ends_lines(text)
        self.t = to_lf(text, self.cr) if self.has_cr else text  # no second scan for CR
        self.n = len(self.t)
        self._crlf: list[int] | None = None
        self._dominant: str | None = None
        self._line_count: int | None = None
        self._index: LineIndex | None = None
        # Checkpoints: sorted line-start positions and their 0-based line numbers.
        self._mark_pos = [0]
        self._mark_lines = [0]

    # -- line terminators -------------------------------------------------------------
    def lf(self, text: str) -> str:
        """A text of the model's (a search or replacement) with its line terminators read as
        this file's are, turned into LF."""
        return to_lf(text, self.cr)

    @property
    def crlf(self) -> list[int]:
        """Sorted positions (in ``t``) of the newlines that were CRLF in the original."""
        if self._crlf is None:
            out: list[int] = []
            if self.has_cr:
                find = self.orig.find
                q = find(CRLF)
                while q >= 0:
                    out.append(q - len(out))
                    q = find(CRLF, q + 2)
            self._crlf = out
        return self._crlf

    def orig_offset(self, pos: int) -> int:
        """The offset in the original text of position ``pos`` of ``t``."""
        if not self.has_cr:
            return pos
        return pos + bisect.bisect_left(self.crlf, pos)

    def eol_at(self, nl_pos: int) -> str:
        """The original terminator of the line whose LF is at ``nl_pos`` ('' at end of text)."""
        if nl_pos >= self.n:
            return ""
        if not self.has_cr:
            return LF
        crlf = self.crlf
        i = bisect.bisect_left(crlf, nl_pos)
        if i < len(crlf) and crlf[i] == nl_pos:
            return CRLF
        return CR if self.cr and self.orig[nl_pos + i] == CR else LF

    def dominant_eol(self) -> str:
        """The terminator most lines end with (counted once: a splice asks once per hit)."""
        if not self.has_cr:
            return LF
        if self.cr:
            return CR
        if self._dominant is None:
            crlf = len(self.crlf)
            self._dominant = CRLF if crlf > self.t.count(LF) - crlf else LF
        return self._dominant

    # -- lines --------------------------------------------------------------------------
    @property
    def index(self) -> LineIndex:
        """Every line and its start (built on first use: it costs a pass over the text, which
        a search that the anchor probes narrow down never pays)."""
        if self._index is None:
            self._index = LineIndex(self.t)
        return self._index

    @property
    def built_index(self) -> LineIndex | None:
        """The index if a search has built it already (then line arithmetic is cheap)."""
        return self._index

    @property
    def line_count(self) -> int:
        if self._line_count is None:
            t = self.t
            self._line_count = t.count(LF) + (1 if t and not t.endswith(LF) else 0)
        return self._line_count

    def line_start(self, pos: int) -> int:
        """Start of the line holding ``pos``."""
        return self.t.rfind(LF, 0, pos) + 1

    def line_no(self, pos: int) -> int:
        """0-based number of the line holding ``pos``."""
        if self._index is not None:
            return self._index.line_of(pos)
        start = self.line_start(pos)
        i = bisect.bisect_right(self._mark_pos, start) - 1
        mark = self._mark_pos[i]
        if mark == start:
            return self._mark_lines[i]
        line = self._mark_lines[i] + self.t.count(LF, mark, start)
        self._mark_pos.insert(i + 1, start)
        self._mark_lines.insert(i + 1, line)
        return line

    def shown(self, line: int) -> int:
        """The 1-based line number a person sees for 0-based ``line`` of this text."""
        return line + 1 + self.shown_from

    def pos_of_line(self, line: int) -> int | None:
        """Start position of 0-based line ``line``, or None past the end."""
        if line < 0:
            return None
        if self._index is not None:
            return self._index.start_of(line)
        i = bisect.bisect_right(self._mark_lines, line) - 1
        pos, at = self._mark_pos[i], self._mark_lines[i]
        find = self.t.find
        while at < line:
            e = find(LF, pos)
            if e < 0 or e + 1 >= self.n:
                return None
            pos, at = e + 1, at + 1
        if pos >= self.n and not (pos == 0 and line == 0):
            return None
        self._mark_pos.insert(i + 1, pos)
        self._mark_lines.insert(i + 1, line)
        return pos

    def line_starts(self, lo: int, hi: int) -> dict[int, int]:
        """Start positions of 0-based lines ``lo``..``hi`` that exist (as ``pos_of_line`` gives
        them), found by one lookup and a walk: for a run of lines near a hint."""
        lo = max(lo, 0)
        pos = self.pos_of_line(lo)
        out: dict[int, int] = {}
        find = self.t.find
        for line in range(lo, hi + 1):
            if pos is None:
                break
            out[line] = pos
            e = find(LF, pos)
            pos = None if e < 0 or e + 1 >= self.n else e + 1
        return out

    def back(self, start: int, k: int) -> int | None:
        """The line start ``k`` lines before the line start ``start`` (None before the top)."""
        rfind = self.t.rfind
        for _ in range(k):
            if start == 0:
                return None
            start = rfind(LF, 0, start - 1) + 1
        return start

    def lines_at(self, start: int, count: int) -> tuple[list[str], int] | None:
        """``count`` lines from line start ``start`` and the position after the last one's LF.

        None when the text ends first.
        """
        t, n = self.t, self.n
        find = t.find
        out: list[str] = []
        p = start
        for _ in range(count):
            if p >= n:
                return None
            e = find(LF, p)
            if e < 0:
                out.append(t[p:])
                p = n
            else:
                out.append(t[p:e])
                p = e + 1
        return out, p

    def line_ends(self, start: int, count: int) -> list[int]:
        """For ``count`` lines from ``start``, the position of each line's LF (``n`` at EOF)."""
        find = self.t.find
        out = []
        p = start
        for _ in range(count):
            e = find(LF, p)
            if e < 0:
                e = self.n
            out.append(e)
            p = e + 1
        return out

    def find_all(self, needle: str, limit: int) -> list[int]:
        """Positions of ``needle`` (overlaps included), at most ``limit + 1`` of them."""
        find = self.t.find
        out: list[int] = []
        p = find(needle)
        while p >= 0:
            out.append(p)
            if len(out) > limit:
                break
            p = find(needle, p + 1)
        return out
