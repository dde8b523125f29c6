"""Import statements of the snippet put with the file's imports of their kind (issue 26: an
import over several lines is one statement)."""

from __future__ import annotations

import re

from ...errors import Ambiguous
from ..lazy.shapes import IMPORTS, loose_key
from .pieces import (
    Edit,
    Item,
    add_names,
    import_names,
    import_source,
)
from .state import State


class Imports(State):
    def _import_edits(self, items: list[Item]) -> list[Edit]:
        pattern = IMPORTS.get(self.syntax.name)
        if pattern is None:
            return []
        have = {loose_key(x) for x in self.bare}
        new: list[tuple[str, list[str]]] = []
        placed: list[Edit] = []
        statements = self._file_statements(pattern)
        have |= {loose_key(" ".join(self.bare[a : b + 1])) for a, b in statements}
        for k, x in enumerate(items):
            if x.kind != "import":
                continue
            line = self.lines[x.first]
            shown = self.lines[x.first : x.last + 1]
            if loose_key(" ".join(shown)) in have:
                continue
            between = self._between_imports(items, k)
            if between is not None:
                placed.append(Edit(*between, [line.strip()], order=-1000 + k))
                continue
            m = pattern.match(line.strip())
            assert m is not None
            new.append((m.group("kind") or m.group("req") or "", shown))
        if not new:
            return placed
        rows: dict[str, int] = {}  # an import's kind -> the last line of its last statement
        sources: dict[str, list[tuple[int, int]]] = {}  # what it takes from -> statements
        for a, b in statements:
            m = pattern.match(self.bare[a])
            assert m is not None
            rows[m.group("kind") or m.group("req") or ""] = b
            if (source := import_source(" ".join(self.bare[a : b + 1]))) is not None:
                sources.setdefault(source, []).append((a, b))
        edits = []
        for order, (kind, shown) in enumerate(new):
            stripped = [shown[0].strip(), *shown[1:]]
            text = " ".join(shown)
            same = sources.get(import_source(text) or "", [])
            if len(same) == 1:
                # Names from a module the file imports already: that statement, replaced
                # when the new one names all it names, else extended with the new names
                # (adding a second statement would import the first names twice).
                edit = self._same_source(same[0], stripped, text)
                if edit is not None:
                    edit.order = -1000 + order
                    edits.append(edit)
                continue
            if len(same) > 1:
                raise Ambiguous(
                    f"the new import {text.strip()!r} takes from a module the file imports in "
                    f"{len(same)} statements (lines {', '.join(str(a + 1) for a, _ in same)}); "
                    "show the import lines as they should be, with the line after them",
                    lines=[a + 1 for a, _ in same],
                    tier="lazy",
                )
            if kind in rows:
                at = rows[kind] + 1
            elif rows:
                at = max(rows.values()) + 1
            else:
                at = self._top()
            edits.append(Edit(at, at, stripped, order=-1000 + order))
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

    def _file_statements(self, pattern: re.Pattern[str]) -> list[tuple[int, int]]:
        """The file's import statements at its top level: (first row, last row), a
        statement over several lines ('import {' ... '} from "x";') read whole."""
        out = []
        r = 0
        while r < len(self.bare):
            y = self.bare[r]
            if y[:1] not in " \t" and pattern.match(y) and r in self.file.code:
                end = self.file.bracket_close(r) or r
                out.append((r, end))
                r = end + 1
                continue
            r += 1
        return out

    def _same_source(self, at: tuple[int, int], shown: list[str], text: str) -> Edit | None:
        """The edit that makes the file's statement at rows ``at`` import what ``text``
        does from the same module: None when it names nothing new; the new statement in
        its place when it names all the file's does; else the file's statement with the new
        names added; refused where they cannot be added."""
        a, b = at
        old = self.bare[a : b + 1]
        have, want = import_names(" ".join(old)), import_names(text)
        if have is None or want is None:
            return Edit(a, b + 1, shown)  # names not read (a default import): as before
        missing = [n for n in want if n not in have]
        if not missing:
            return None
        if set(have) <= set(want):
            return Edit(a, b + 1, shown)
        extended = add_names(old, missing)
        if extended is None:
            raise Ambiguous(
                f"the new import {text.strip()!r} adds {', '.join(missing)} to the import on "
                f"line {a + 1}, which names {', '.join(have)}; show that import as it should "
                "be, whole",
                lines=[a + 1],
                tier="lazy",
            )
        return Edit(a, b + 1, extended)

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
