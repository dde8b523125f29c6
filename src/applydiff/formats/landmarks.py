"""Landmarks of a response, found once: the lines where a block of some format can start and
the lines that can close a code fence.

The scan jumps from one possible start to the next instead of testing every line against
every format, and a fence finds its closing line by lookup instead of reading ahead. So no
input makes parsing read a line more than a few times: a response of unclosed fences, or of
blank lines, costs what its size costs.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right

# Every block opener of every format starts, after blanks, with one of these characters
# (fences, '*** Begin Patch', '>>> file:', '<<<<<<< SEARCH', '>>>>>>> REPLACE', '--- a/x',
# '@@') or is a 'diff --git' line. A line that does not is prose or block content. A fence's
# run of backticks or tildes is group 1, and group 2 is set when nothing else follows it.
_START = re.compile(r"^[^\S\n]*(?:(`{3,}|~{3,})([^\S\n]*$)?|[`~*<>@-])|^diff --git ", re.MULTILINE)
FENCE_CHARS = "`~"


class Landmarks:
    """The possible block starts of ``lines``, the fences they open, and the fence-closing
    lines (three or more backticks, or tildes, and nothing else)."""

    def __init__(self, lines: list[str]) -> None:
        self.size = len(lines)
        self.starts: list[int] = []
        self._cursor = 0
        self._fences: dict[int, str] = {}  # line -> the run of fence characters it opens with
        self._ends: dict[int, int | None] = {}  # line -> the line closing its fence (memo)
        # Per fence character: closing lines, their lengths, and for each the next closing
        # line that is longer (so a search for one of at least N characters skips the
        # shorter ones in jumps that each lengthen the fence: at most N of them).
        self._lines: dict[str, list[int]] = {c: [] for c in FENCE_CHARS}
        self._counts: dict[str, list[int]] = {c: [] for c in FENCE_CHARS}
        text = "\n".join(lines)
        # Names bound once: a flood of start lines runs this loop once a line.
        starts, fences, count = self.starts, self._fences, text.count
        line = pos = 0
        for m in _START.finditer(text):
            at = m.start()
            line += count("\n", pos, at)
            pos = at
            starts.append(line)
            run = m.group(1)
            if run:
                fences[line] = run
                if m.group(2) is not None:
                    self._lines[run[0]].append(line)
                    self._counts[run[0]].append(len(run))
        self._longer = {c: _next_longer(self._counts[c]) for c in FENCE_CHARS}

    def next_start(self, i: int) -> int:
        """The first line at or after ``i`` where a block can start (``size`` when none)."""
        starts, k = self.starts, self._cursor
        if k > 0 and starts[k - 1] >= i:  # asked about an earlier line: search again
            k = bisect_left(starts, i)
        while k < len(starts) and starts[k] < i:
            k += 1
        self._cursor = k
        return starts[k] if k < len(starts) else self.size

    def openers(self) -> list[int]:
        """The lines that open a fence (three or more backticks or tildes first), in order
        (the scan found them in order)."""
        return list(self._fences)

    def fence_end(self, i: int) -> int | None:
        """The line closing the fence that line ``i`` opens (None: not a fence opener, or
        never closed): the first later line of the same character, at least as many."""
        if i not in self._ends:
            run = self._fences.get(i)
            self._ends[i] = None if run is None else self.closer(i, run[0], len(run))
        return self._ends[i]

    def closer(self, i: int, char: str, length: int = 3) -> int | None:
        """The first line after ``i`` made only of ``char`` repeated ``length`` or more
        times, or None."""
        lines, counts, longer = self._lines[char], self._counts[char], self._longer[char]
        k = bisect_right(lines, i)
        while k < len(lines) and counts[k] < length:
            k = longer[k]
        return lines[k] if k < len(lines) else None


def _next_longer(counts: list[int]) -> list[int]:
    """For each position, the next position holding a larger count (``len(counts)``: none)."""
    out = [len(counts)] * len(counts)
    stack: list[int] = []
    for k, c in enumerate(counts):
        while stack and counts[stack[-1]] < c:
            out[stack.pop()] = k
        stack.append(k)
    return out
