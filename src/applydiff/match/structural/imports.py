"""Import lines of the snippet put with the file's imports of their kind."""

from __future__ import annotations

from ...errors import Ambiguous
from ..lazy.shapes import loose_key
from .pieces import (
    IMPORTS,
    Edit,
    Item,
    import_source,
)
from .state import State


class Imports(State):
    def _import_edits(self, items: list[Item]) -> list[Edit]:
        pattern = IMPORTS.get(self.syntax.name)
        if pattern is None:
            return []
        have = {loose_key(x) for x in self.bare}
        new: list[tuple[str, str]] = []
        placed: list[Edit] = []
        for k, x in enumerate(items):
            if x.kind != "import":
                continue
            line = self.lines[x.first]
            if loose_key(line) in have:
                continue
            between = self._between_imports(items, k)
            if between is not None:
                placed.append(Edit(*between, [line.strip()], order=-1000 + k))
                continue
            m = pattern.match(line.strip())
            assert m is not None
            new.append((m.group("kind") or m.group("req") or "", line.strip()))
        if not new:
            return placed
        rows: dict[str, int] = {}
        sources: dict[str, list[int]] = {}  # what an import takes from -> its lines
        for r, y in enumerate(self.bare):
            if y[:1] in " \t":
                continue  # an import inside a function is not the file's imports
            m = pattern.match(y)
            if m and r in self.file.code:
                rows[m.group("kind") or m.group("req") or ""] = r
                if (source := import_source(y)) is not None:
                    sources.setdefault(source, []).append(r)
        edits = []
        for order, (kind, line) in enumerate(new):
            same = sources.get(import_source(line) or "", [])
            if len(same) == 1:
                # More names from a module the file imports already: that import, changed
                # (adding the line beside it would import the first names twice).
                edits.append(Edit(same[0], same[0] + 1, [line], order=-1000 + order))
                continue
            if len(same) > 1:
                raise Ambiguous(
                    f"the new import {line!r} takes from a module the file imports on "
                    f"{len(same)} lines ({', '.join(str(r + 1) for r in same)}); show the "
                    "import lines as they should be, with the line after them",
                    lines=[r + 1 for r in same],
                    tier="lazy",
                )
            if kind in rows:
                at = rows[kind] + 1
            elif rows:
                at = max(rows.values()) + 1
            else:
                at = self._top()
            edits.append(Edit(at, at, [line], order=-1000 + order))
        if not rows and edits and self.bare[edits[-1].start : edits[-1].start + 1] != [""]:
            # New imports at the top of a file that had none: the blank line the snippet shows
            # after them stands for itself (issue 17, item 8).
            last_import = max(x.last for x in items if x.kind == "import")
            after = next((x for x in items if x.first > last_import and x.kind != "blank"), None)
            if (
                after is not None
                and after.first > last_import + 1
                and edits[-1].start < len(self.bare)
            ):
                edits[-1].lines.append("")
        return placed + edits

    def _between_imports(self, items: list[Item], k: int) -> tuple[int, int] | None:
        """A new import the snippet shows right between two imports the file has (no
        marker between): ``(start, end)`` of the file lines it takes the place of (none if
        the two are adjacent: it goes between them; the one line between them: it replaces
        it, an import changed). More lines between: refused. None when its neighbours in
        the snippet are not both the file's imports."""

        def neighbour(step: int) -> int | None:
            j = k + step
            while 0 <= j < len(items) and items[j].kind == "blank":
                j += step
            if not 0 <= j < len(items) or items[j].kind != "import":
                return None
            want = self.lines[items[j].first].rstrip()
            rows = self._rows.get(want, [])
            return rows[0] if len(rows) == 1 else None

        p, q = neighbour(-1), neighbour(1)
        if p is None or q is None or q <= p:
            return None
        if q - p <= 2:
            return p + 1, q
        raise Ambiguous(
            f"the import {self.lines[items[k].first].strip()!r} is shown between file lines "
            f"{p + 1} and {q + 1}, which have {q - p - 1} lines between them; show them",
            lines=[p + 1, q + 1],
            tier="lazy",
        )
