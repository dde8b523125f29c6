"""A file's lines as a string of one character per line, for finding runs of whole lines.

Each distinct line key (a line under one normalization) gets a character; a block of lines
is then a substring, and ``str.find`` locates every window where a block's keys match in
one pass at C speed, however repetitive the file. Built once per file and normalization,
only when the anchor probes of ``search.py`` cannot narrow the candidates.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterator
from itertools import accumulate

# Distinct keys beyond this many share characters (``Coded.exact`` turns False and every
# occurrence is checked key by key).
_CODES = 0x110000


class Coded:
    """``keys`` (one per line) as a string: equal keys, equal characters."""

    __slots__ = ("exact", "keys", "table", "text")

    def __init__(self, keys: list[str]) -> None:
        self.keys = keys
        table: dict[str, str] = {}
        codes = []
        for k in keys:
            c = table.get(k)
            if c is None:
                c = table[k] = chr(len(table) % _CODES)
            codes.append(c)
        self.table = table
        self.text = "".join(codes)
        self.exact = len(table) <= _CODES

    def pattern(self, keys: list[str]) -> str | None:
        """The string ``keys`` would be in the file, or None when one of them is nowhere."""
        get = self.table.get
        out = []
        for k in keys:
            c = get(k)
            if c is None:
                return None
            out.append(c)
        return "".join(out)

    def matcher(self, keys: list[str]) -> Callable[[int], bool]:
        """A test of whether ``keys`` start at a given line."""
        pat = self.pattern(keys)
        if pat is None or not keys:
            return lambda p: False
        startswith = self.text.startswith
        return lambda p: p >= 0 and startswith(pat, p) and self._real(p, keys)

    def _real(self, p: int, keys: list[str]) -> bool:
        return self.exact or self.keys[p : p + len(keys)] == keys

    def first(self, keys: list[str], lo: int = 0, hi: int | None = None) -> int:
        """The first line ``p >= lo`` where ``keys`` start (ending by ``hi``), or -1."""
        pat = self.pattern(keys)
        if pat is None or not keys:
            return -1
        end = len(self.text) if hi is None else hi
        p = self.text.find(pat, lo, end)
        while p >= 0 and not self._real(p, keys):
            p = self.text.find(pat, p + 1, end)
        return p

    def occurrences(self, keys: list[str], lo: int = 0) -> Iterator[int]:
        """Every line ``p >= lo`` where ``keys`` start, overlaps included, in order."""
        pat = self.pattern(keys)
        if pat is None or not keys:
            return
        for p in _find_all(self.text, pat, lo):
            if self._real(p, keys):
                yield p

    def all(self, keys: list[str], lo: int = 0) -> list[int]:
        return list(self.occurrences(keys, lo))


def _period(pat: str) -> int:
    """The smallest period of ``pat`` (KMP failure function)."""
    fail = [0] * len(pat)
    k = 0
    for i in range(1, len(pat)):
        while k and pat[i] != pat[k]:
            k = fail[k - 1]
        if pat[i] == pat[k]:
            k += 1
        fail[i] = k
    return len(pat) - fail[-1]


def _find_all(text: str, pat: str, lo: int) -> Iterator[int]:
    """Positions of ``pat`` in ``text`` from ``lo``, overlaps included, in linear time: after
    a hit at ``p`` the next can only be at ``p + period``, and one comparison of the last
    ``period`` characters tells whether it is there (a plain ``find(pat, p + 1)`` per hit
    costs ``len(pat)`` each in a file of one repeated line)."""
    find, startswith = text.find, text.startswith
    m = len(pat)
    per = 0
    p = find(pat, lo)
    while p >= 0:
        yield p
        if not per:
            per = _period(pat)
            tail = pat[m - per :]
        if startswith(tail, p + m):
            p += per
        else:
            p = find(pat, p + per + 1)


class LineIndex:
    """The lines of a text (as ``Doc`` splits them), their start positions, and their keys
    under each normalization asked for, coded (see :class:`Coded`)."""

    __slots__ = ("_coded", "_leading", "_steps", "lines", "starts")

    def __init__(self, t: str) -> None:
        lines = t.split("\n")
        if lines[-1] == "":
            lines.pop()  # a final newline ends the last line; it does not open one
        self.lines = lines
        self.starts = [0, *accumulate(len(x) + 1 for x in lines[:-1])] if lines else []
        self._coded: dict[Callable[[str], str], Coded] = {}
        self._leading: tuple[list[int], list[int]] | None = None
        self._steps: dict[int, Coded] = {}

    def __len__(self) -> int:
        return len(self.lines)

    def coded(self, norm: Callable[[str], str]) -> Coded:
        got = self._coded.get(norm)
        if got is None:
            got = self._coded[norm] = Coded(list(map(norm, self.lines)))
        return got

    def has_tabs(self) -> bool:
        """Whether any line is indented with a tab (else a tab's width changes nothing)."""
        return any(self.leading()[1])

    def leading(self) -> tuple[list[int], list[int]]:
        """The spaces and the tabs in each line's indentation."""
        if self._leading is None:
            spaces, tabs = [], []
            for x in self.lines:
                ws = x[: len(x) - len(x.lstrip(" \t"))]
                spaces.append(ws.count(" "))
                tabs.append(ws.count("\t"))
            self._leading = (spaces, tabs)
        return self._leading

    def steps(self, tab: int) -> Coded:
        """Each line's indentation step from the previous non-blank line, in columns with a
        tab ``tab`` wide (see ``indent_steps``), coded."""
        got = self._steps.get(tab)
        if got is None:
            spaces, tabs = self.leading()
            cols = [sp + tb * tab for sp, tb in zip(spaces, tabs, strict=True)]
            got = self._steps[tab] = Coded(indent_steps(self.lines, cols))
        return got

    def line_of(self, pos: int) -> int:
        """0-based number of the line holding position ``pos`` (as ``Doc.line_no`` counts:
        the end of a text with a final newline is on the line after the last)."""
        i = bisect.bisect_right(self.starts, pos) - 1
        if i < 0:
            return 0
        return i + 1 if pos > self.starts[i] + len(self.lines[i]) else i

    def start_of(self, line: int) -> int | None:
        """Start position of 0-based ``line`` (as ``Doc.pos_of_line`` answers)."""
        if 0 <= line < len(self.starts):
            return self.starts[line]
        return 0 if line == 0 else None


def indent_steps(lines: list[str], cols: list[int], scale: int = 1) -> list[str]:
    """For each line, how much deeper (in ``cols``, times ``scale``) it is indented than the
    previous non-blank line, as a key: "" for a blank line, "*" for the first non-blank one.

    Two runs of lines with blank lines at the same places and equal steps after their first
    line differ in indentation by one constant shift, which is what the indentation tier
    asks of a window.
    """
    out = []
    prev: int | None = None
    for x, c in zip(lines, cols, strict=True):
        if not x.strip():
            out.append("")
            continue
        out.append("*" if prev is None else str((c - prev) * scale))
        prev = c
    return out
