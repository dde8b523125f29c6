"""One segment being placed, and where it goes.

``Placing`` holds what every step of placing a segment reads (the segment, its name, the
file's index, the cursor below which it goes, whether its lines are compared with whitespace
ignored); ``Placement`` is the answer: the file lines it replaces and the lines it writes.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property

from ...errors import Ambiguous
from .. import diff
from .heads import ALIGN_WORK, Index, Keys
from .retype import retyped
from .segments import Segment
from .shapes import exact_key, loose_key


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
    # Blank lines the snippet shows after it, before a marker, written after its new last
    # line (None: as many as the snippet shows).
    blank_after: int | None = None
    blank_before: int = 0  # blank lines to write before its first, new, line


@dataclass(frozen=True)
class Placing:
    """Segment ``seg`` (named ``name`` in refusals) being placed in the file that ``index``
    holds, below file row ``cursor``, its lines compared exactly or (``loose``) with all
    whitespace ignored. ``top`` / ``bottom``: no marker before (after) it and the file's own
    first (last) line at its start (end); ``whole``: both, the snippet's only segment;
    ``declares``: the names any line of the snippet declares (a deletion rule's check);
    ``rewrite``: the snippet marks what it leaves out and its language is code (not a
    stylesheet's rules nor markup's elements, whose shown parts are partial by nature): a
    definition it shows from header to end without a marker is the whole definition."""

    seg: Segment
    name: str
    index: Index
    cursor: int
    loose: bool = False
    top: bool = False
    bottom: bool = False
    whole: bool = False
    declares: frozenset[str] = frozenset()  # the names the snippet's lines declare
    rewrite: bool = False  # a definition shown header to end without a marker is whole

    @property
    def bare(self) -> list[str]:
        """The file's lines, without line terminators."""
        return self.index.bare

    @property
    def view(self) -> Keys:
        return self.index.view(self.loose)

    @property
    def keys(self) -> list[str]:
        return self.view.keys

    @property
    def keyf(self) -> Callable[[str], str]:
        return loose_key if self.loose else exact_key

    @cached_property
    def sk(self) -> list[str]:
        """The segment's line keys."""
        return [self.keyf(x) for x in self.seg.lines]

    @property
    def n(self) -> int:
        return len(self.seg.lines)

    def aligned(self, p: int, q: int) -> tuple[difflib.SequenceMatcher, dict[int, int]]:
        """The segment's keys aligned with file rows ``p``..``q``: the matcher (for its
        opcodes) and segment line -> file row for the lines they share.

        A long region of one repeated line costs its length times the segment's to align:
        past ``ALIGN_WORK`` steps that is refused rather than done."""
        region = self.keys[p:q]
        sm = diff.matcher(self.sk, region, ALIGN_WORK)
        try:
            blocks = sm.get_matching_blocks()
        except diff.TooCostly:
            raise Ambiguous(
                f"{self.name}: placed at file lines {p + 1}-{p + len(region)}, the file's lines "
                "there are too many and too much alike to align with the segment line by line; "
                "add the lines around the change that make its place unique (one more line of "
                "context)",
                lines=[p + 1],
                tier="lazy",
            ) from None
        same = {a + i: p + b + i for a, b, size in blocks for i in range(size)}
        return sm, same

    def placement(self, start: int, end: int, offset: int = 0) -> Placement:
        """The segment over file lines start..end, its lines ``offset``.. being those lines
        as they are."""
        same = {offset + i: start + i for i in range(end - start)}
        return self.placement_from(start, end, same)

    def placement_from(self, start: int, end: int, same: dict[int, int]) -> Placement:
        """The segment over file lines start..end, its lines ``same`` kept as the file has
        them (read exactly, also the lines the model retyped)."""
        lines = self.seg.lines
        if not self.loose:
            same, lines = retyped(lines, start, end, same, self.bare)
        return Placement(start, end, lines, _blanks_in_new_code(lines, same), exact=not self.loose)


def _blanks_in_new_code(lines: list[str], same: dict[int, int]) -> dict[int, int]:
    """``same`` without the blank lines that stand between new lines on both sides: they
    belong to the new code, written as the model wrote them (``"    "`` too), not to the
    file's blank line the alignment paired them with. A blank line next to a kept line is
    context and stays the file's, byte for byte."""
    n = len(lines)

    def new_beside(i: int, step: int) -> bool:
        j = i + step
        while 0 <= j < n and not lines[j].strip():
            j += step
        return 0 <= j < n and j not in same

    drop = {
        i
        for i in same
        if not lines[i].strip() and lines[i] and new_beside(i, -1) and new_beside(i, 1)
    }
    return {i: r for i, r in same.items() if i not in drop} if drop else same
