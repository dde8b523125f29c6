"""The snippet read as items at its top level: definitions with the comment and decorator
lines above them, markers, blank lines, imports and runs of other lines."""

from __future__ import annotations

from ..lazy.shapes import IMPORTS
from ..outline import Block, header_text, identity
from .pieces import (
    Item,
    closes_at_its_level,
    context_runs,
    definitions_of,
    indent_of,
    leads_definition,
)
from .state import State


class Reading(State):
    def items(self) -> list[Item]:
        starts = {b.start: b for b in definitions_of(self.lines, self.shown, self.syntax)}
        out: list[Item] = []
        i = 0
        n = len(self.lines)
        imports = IMPORTS.get(self.syntax.name)
        while i < n:
            line = self.lines[i]
            if self.marker[i]:
                out.append(Item("marker", i, i))
            elif not line.strip():
                out.append(Item("blank", i, i))
            elif (
                i in starts
                and closes_at_its_level(self.lines, starts[i])
                and (
                    key := identity(header_text(self.lines, starts[i]), self.syntax, starts[i].kind)
                )
            ):
                # (A block no name tells apart, an 'if' or a call, is read line by line.)
                b = starts[i]
                item = Item("definition", i, self._last_line(b), b, key)
                # Comment and decorator lines right above it are its own.
                while out and out[-1].kind == "line" and self._leads(out[-1].first):
                    item.first = out.pop().first
                    item.lead += 1
                out.append(item)
                i = item.last + 1
                continue
            elif imports is not None and imports.match(line):
                # (at the left edge only: an indented 'import' or 'using' is a body's) The
                # whole statement: 'import {' to '} from "x";' is one import.
                end = self.shown.bracket_close(i) or i
                out.append(Item("import", i, end))
                i = end + 1
                continue
            else:
                out.append(Item("line", i, i))
            i += 1
        last = next((x for x in reversed(out) if x.kind != "blank"), None)
        if last is not None and last.kind == "definition" and self.syntax.indent:
            last.open_end = True
        return context_runs(out)

    def _last_line(self, b: Block) -> int:
        """The last snippet line of an indented block: its last code line, or a marker after
        it indented into the block (the model elided the block's end)."""
        last = b.close
        if b.kind != "indent":
            return last
        level = len(indent_of(self.lines[b.open]).expandtabs(8))
        j = last + 1
        while j < len(self.lines):
            line = self.lines[j]
            if self.marker[j] and len(indent_of(line).expandtabs(8)) > level:
                last = j
            elif line.strip():
                break
            j += 1
        return last

    def _leads(self, i: int) -> bool:
        return leads_definition(self.lines[i], i in self.shown.code)
