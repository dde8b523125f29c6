"""The merge by definitions, step by step: read, match, check the lines between, make the
edits and assemble the file."""

from __future__ import annotations

import itertools

from ...errors import Ambiguous, NoChange, NoMatch
from ..lazy.readings import DeletionOrContext
from ..outline import scan
from .imports import Imports
from .inserting import Inserting
from .pieces import (
    Edit,
    Item,
    StructuralResult,
    outermost_of,
)
from .reading import Reading
from .replacing import Replacing


class Merge(Reading, Replacing, Inserting, Imports):
    def run(self) -> tuple[str, StructuralResult]:
        items = self.items()
        defs = [x for x in items if x.kind == "definition"]
        if not defs and not any(x.kind == "import" for x in items):
            raise NoMatch("the snippet shows no definition to place by structure", closest=[])
        if not any(self.marker) and self._whole_file(defs):
            return self._whole(), StructuralResult(1, max(1, len(self.bare)))
        self._match(defs)
        self._check_lines(items)
        if any(self.marker):
            self._shown_in_a_row(items)
        edits = self._definition_edits(items) + self._import_edits(items)
        merged = self._apply(edits)
        if merged == self.text:
            raise NoChange(
                "the snippet, placed by its definitions, changes nothing: every definition "
                "it shows is already in the file as shown"
            )
        # Each edit puts whole pieces in place of whole pieces: the file keeps its balance
        # when every piece it puts is balanced (checked piece by piece, not by a rescan).
        if self.file.balanced and not all(scan(e.lines, self.syntax).balanced for e in edits):
            raise Ambiguous(
                "placed by its definitions, the snippet would leave a bracket or an element "
                "open or closed twice; show each changed definition whole, from its first "
                "line to its last",
                lines=[],
                tier="lazy",
            )
        touched = [e.start for e in edits] + [max(e.start, e.end - 1) for e in edits]
        return merged, StructuralResult(min(touched) + 1, max(touched) + 1)

    def _definition_edits(self, items: list[Item]) -> list[Edit]:
        edits: list[Edit] = []
        for k, d in enumerate(items):
            if d.kind != "definition":
                continue
            if d.match is not None:
                edits.append(self._replace(d))
            else:
                edits.append(self._insert(items, k))
        return edits

    def _shown_in_a_row(self, items: list[Item]) -> None:
        """A snippet that marks what it leaves out shows, between two markers, what the file
        has in a row: two places it shows with no marker between must have nothing but blank
        lines between them in the file (lines there were deleted, or forgotten: refused)."""
        last: Item | None = None
        for x in items:
            if x.kind == "marker":
                last = None
                continue
            if not self._placed(x):
                if x.kind == "context":
                    last = None  # context at several places: it says nothing of order
                continue
            if last is not None and self._end_reliable(last):
                end, start = self._end_of(last), self._start_of(x)
                hidden = [r for r in range(end, start) if self.bare[r].strip()]
                if hidden:
                    raise Ambiguous(
                        f"snippet lines {last.last + 1}-{x.first + 1}: the file has lines "
                        f"{hidden[0] + 1}-{hidden[-1] + 1} between what the snippet shows "
                        "there in a row, with no '... existing code ...' marker for them: "
                        "deleted, or left out? Put a marker where lines stay, or show the "
                        "deletion with the lines around it",
                        lines=[hidden[0] + 1],
                        tier="lazy",
                    )
            last = x

    def _stands_apart(self, x: Item, at: int) -> tuple[int, int] | None:
        """Where the context run's first line stands with the rest of it a few lines
        further on (1 to 3 lines between), other than at row ``at``: the rows between, or
        None."""
        want = [y.rstrip() for y in self.lines[x.first : x.last + 1] if y.strip()]
        first, rest = want[0], want[1:]
        for r in self._rows.get(first, []):
            for gap in (1, 2, 3):
                b = r + 1 + gap
                got = [y.rstrip() for y in self.bare[b : b + 3 * len(rest)] if y.strip()]
                if got[: len(rest)] == rest and r != at:
                    return r + 1, b
        return None

    @staticmethod
    def _between_markers(items: list[Item], k: int) -> bool:
        def side(step: int) -> bool:
            j = k + step
            while 0 <= j < len(items) and items[j].kind == "blank":
                j += step
            return 0 <= j < len(items) and items[j].kind == "marker"

        return side(-1) and side(1)

    def _whole_file(self, defs: list[Item]) -> bool:
        """A markerless snippet is the whole file when its definitions account for every
        top-level definition of the file (and it shows at least two)."""
        top = outermost_of(self.file_defs)
        keys = {self._key(b) for b in top}
        shown = {d.key for d in defs}
        return len(top) >= 2 and bool(keys) and keys <= shown

    def _whole(self) -> str:
        out = self.eol.join(self.lines)
        return out + self.eol if self.text.endswith(("\n", "\r")) or not self.text else out

    def _check_lines(self, items: list[Item]) -> None:
        """Every run of other lines of the snippet is context the file has, in a row as
        shown: an edit there (a changed, added or deleted line) is not a definition's, and
        structure cannot place it."""
        for k, x in enumerate(items):
            if x.kind != "context":
                continue
            rows = self._occurrences(x)
            shown = self.lines[x.first].strip()
            lines = sum(1 for y in self.lines[x.first : x.last + 1] if y.strip())
            if len(rows) > 1 and lines > 1:
                # In a row at several places: a line deleted between them at the place
                # meant would leave them in a row elsewhere still.
                raise Ambiguous(
                    f"snippet lines {x.first + 1}-{x.last + 1} (starting {shown[:60]!r}) stand "
                    f"in the file at {len(rows)} places (lines "
                    f"{', '.join(str(r + 1) for r in rows[:8])}), so what they show cannot be "
                    "placed; show a line around them that the file has once",
                    lines=[r + 1 for r in rows[:8]],
                    tier="lazy",
                )
            if rows and self._between_markers(items, k):
                # Shown alone between markers, as the file has it: it changes nothing, so
                # the model most likely meant an edit there it did not show (as the line
                # merge reads such a segment).
                raise Ambiguous(
                    f"snippet lines {x.first + 1}-{x.last + 1} stand between markers exactly "
                    f"as the file has them (line {rows[0] + 1}), so they change nothing; show "
                    "the change you meant there, or leave them out",
                    lines=[r + 1 for r in rows[:8]],
                    tier="lazy",
                )
            if rows and lines > 1:
                gap = self._stands_apart(x, rows[0])
                if gap is not None:
                    # As the line merge reads such a segment: in the file as it is here,
                    # changing nothing, and around a few lines there, deleting them.
                    raise DeletionOrContext(
                        f"snippet lines {x.first + 1}-{x.last + 1} are in the file as they "
                        f"are at line {rows[0] + 1}, so they change nothing there, but they "
                        f"may be meant to delete lines {gap[0] + 1}-{gap[1]} (they stand "
                        "around them there); show the change, or the lines around it that "
                        "make the place unique",
                        lines=[rows[0] + 1, gap[0] + 1],
                        tier="lazy",
                    )
            if rows:
                continue
            raise NoMatch(
                f"snippet lines {x.first + 1}-{x.last + 1} (starting {shown[:60]!r}) are "
                "outside every definition the snippet shows and are not in the file as shown, "
                "so nothing places their change by structure; show them inside their "
                "definition, or with unchanged lines around them",
                closest=[],
            )

    def _apply(self, edits: list[Edit]) -> str:
        edits = sorted(edits, key=lambda e: (e.start, e.end > e.start, e.order))
        for a, b in itertools.pairwise(edits):
            if b.start < a.end:
                raise Ambiguous(
                    f"two definitions of the snippet land on the same file lines "
                    f"({a.start + 1}-{a.end} and {b.start + 1}-{b.end}); show each once",
                    lines=[a.start + 1, b.start + 1],
                    tier="lazy",
                )
        out: list[str] = []
        pos = 0
        for e in edits:
            out += self.file_lines[pos : e.start]
            if e.lines and out and not out[-1].endswith(("\n", "\r")):
                out[-1] += self.eol  # the file's last line had no terminator
            kept_end = e.end > e.start and not self.file_lines[e.end - 1].endswith(("\n", "\r"))
            for k, x in enumerate(e.lines):
                last = k == len(e.lines) - 1
                out.append(
                    x if last and kept_end and e.end == len(self.file_lines) else x + self.eol
                )
            pos = e.end
        out += self.file_lines[pos:]
        return "".join(out)

    def merge_within(self, body: str, snippet: str) -> tuple[str, StructuralResult]:
        return Merge(self.syntax, body, snippet, self.merge_lines, inner=True).run()
