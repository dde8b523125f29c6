"""The work one search may do before it refuses rather than go on.

Candidates come from anchors and the line index, so most searches cost about one pass over
the file. What is left unbounded by that is per-candidate work: checking a window line by
line in Python, and the edit-distance cells of the fuzzy tier. Both are counted here; past
either limit the tier stops and the ladder refuses (``ambiguous`` or ``no_match``, saying
why) instead of taking seconds or minutes on a degenerate file or search.

The limits are far above what real edits use (the accuracy corpus peaks at 6% of the lines
and 1% of the cells) and, measured, cost about 0.2 s (lines) and 0.6 s (cells): a fuzzy
search of about 1,000 lines is compared (300 with a line hint, whose 81 windows are scored
too); a longer one is refused.
"""

from __future__ import annotations

# Lines read and compared in Python (window lines, indentation checks, style scans).
LINE_STEPS = 300_000
# Levenshtein cells (length of one text times the other's, without their shared prefix and
# suffix) the fuzzy tier may score: rapidfuzz does about 30 billion a second.
CELLS = 20_000_000_000


class OverBudget(Exception):
    """Raised where the work is done; caught by the tier or the ladder, never by a caller."""


class Budget:
    __slots__ = ("cells_left", "lines_left")

    def __init__(self, lines: int = LINE_STEPS, cells: int = CELLS) -> None:
        self.lines_left = lines
        self.cells_left = cells

    def lines(self, n: int) -> None:
        self.lines_left -= n
        if self.lines_left < 0:
            raise OverBudget

    def cells(self, n: int) -> None:
        self.cells_left -= n
        if self.cells_left < 0:
            raise OverBudget
