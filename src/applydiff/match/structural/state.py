"""One merge by definitions' state: the file and the snippet read (lines, outlines, markers,
definitions), and where a shown item stands in the file."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cached_property

from ...errors import Ambiguous
from ...text import dominant_eol, split_lines
from ..elision import is_marker
from ..lazy.shapes import IMPORTS, loose_key
from ..outline import Block, Outline, Syntax, header_text, identity, scan
from .pieces import (
    Item,
    LineMerge,
    StructuralResult,
    definitions_of,
    indent_of,
    leads_definition,
)


class State:
    """What every step of the merge reads: set up once, then only looked up."""

    def __init__(
        self,
        syntax: Syntax,
        text: str,
        snippet: str,
        merge_lines: LineMerge,
        inner: bool = False,  # the body of a definition, not a whole file
        outline: Callable[[], Outline] | None = None,  # the file's, if already read
    ) -> None:
        self.inner = inner
        self.syntax = syntax
        self.text = text
        self.merge_lines = merge_lines
        self.file_lines = split_lines(text)
        self.bare = [x.rstrip("\r\n") for x in self.file_lines]
        self.eol = dominant_eol(text)
        self.file = outline() if outline is not None else scan(self.bare, syntax)
        lines = snippet.replace("\r\n", "\n").split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        self.lines = lines
        literal = {x.rstrip() for x in self.bare}
        self.marker = [is_marker(x) and x.rstrip() not in literal for x in lines]
        # Marker lines read as blank, so a bare '...' is not code.
        self.shown = scan(["" if m else x for x, m in zip(lines, self.marker, strict=True)], syntax)
        self.file_defs = definitions_of(self.bare, self.file, syntax)
        self._keys: dict[int, str] = {}  # a file definition's start -> its identity
        self._def_starts = [b.start for b in self.file_defs]  # sorted: one block per start
        self._def_starting_at = {b.start: b for b in self.file_defs}
        self._def_closing_at = {b.close: b.start for b in self.file_defs}

    def _key(self, b: Block) -> str:
        key = self._keys.get(b.start)
        if key is None:
            key = self._keys[b.start] = identity(header_text(self.bare, b), self.syntax, b.kind)
        return key

    def _lead_start(self, b: Block) -> int:
        """The first of the comment and decorator lines right above a file definition."""
        p = b.start
        while p > 0:
            line = self.bare[p - 1]
            if not line.strip() or not leads_definition(line, p - 1 in self.file.code):
                break
            p -= 1
        return p

    def _occurrences(self, x: Item) -> list[int]:
        """Where the context run's lines stand in the file, in a row, as the snippet shows
        them (trailing whitespace aside)."""
        want = [y.rstrip() for y in self.lines[x.first : x.last + 1]]
        rows = self._rows.get(want[0], [])
        n = len(want)
        return [r for r in rows if [y.rstrip() for y in self.bare[r : r + n]] == want]

    @cached_property
    def _rows(self) -> dict[str, list[int]]:
        """The file's lines (trailing whitespace aside) -> the rows that hold them."""
        rows: dict[str, list[int]] = {}
        for r, y in enumerate(self.bare):
            rows.setdefault(y.rstrip(), []).append(r)
        return rows

    @cached_property
    def _loose_lines(self) -> set[str]:
        """The file's lines, whitespace aside."""
        return {loose_key(x) for x in self.bare}

    @cached_property
    def _scope_indent(self) -> int:
        """The width of the scope's least-indented line: its own level."""
        levels = [len(indent_of(x).expandtabs(8)) for x in self.bare if x.strip()]
        return min(levels) if levels else 0

    def _anchor(self, x: Item) -> int | None:
        """The one place in the file of a context run (None: none, or several)."""
        rows = self._occurrences(x)
        return rows[0] if len(rows) == 1 else None

    def _end_of(self, x: Item) -> int:
        if x.kind == "definition":
            assert x.match is not None
            return x.match.close + 1
        row = self._anchor(x)
        assert row is not None
        return row + x.last + 1 - x.first

    def _start_of(self, x: Item) -> int:
        if x.kind == "definition":
            assert x.match is not None
            return self._lead_start(x.match)
        row = self._anchor(x)
        assert row is not None
        return row

    def _placed(self, x: Item) -> bool:
        return (x.kind == "definition" and x.match is not None) or (
            x.kind == "context" and self._anchor(x) is not None
        )

    def _end_reliable(self, x: Item) -> bool:
        """Whether the snippet shows where item ``x`` ends in the file: not a definition
        whose closing line comes right after a marker (that closer may be a later one)."""
        if x.kind != "definition":
            return True
        k = x.last
        if x.block is not None and x.block.kind != "indent" and x.block.close > x.block.open:
            k -= 1  # the line before its closer
        while k > x.first and not self.lines[k].strip():
            k -= 1
        return not self.marker[k]

    def _reindent(self, lines: list[str], file_header: str) -> list[str]:
        """The snippet's lines moved to the file header's indentation."""
        first = next((x for x in lines if x.strip()), "")
        return self._reindent_from(lines, first, file_header)

    def _reindent_from(self, lines: list[str], have_line: str, want_line: str) -> list[str]:
        have, want = indent_of(have_line), indent_of(want_line)
        if have == want:
            return list(lines)
        out = []
        for x in lines:
            if not x.strip():
                out.append("")
            elif x.startswith(have):
                out.append(want + x[len(have) :])
            else:
                raise Ambiguous(
                    f"the snippet line {x.strip()[:60]!r} is indented less than the first line "
                    "of its code; show the code at its own indentation",
                    lines=[],
                    tier="lazy",
                )
        return out

    def _shift(self, lines: list[str], ref: Item) -> list[str]:
        """New lines indented as the file indents the snippet item they stand beside."""
        file_row = self._start_of(ref) if ref.kind != "definition" else ref.match.start  # type: ignore[union-attr]
        snippet_row = ref.first + ref.lead if ref.kind == "definition" else ref.first
        return self._reindent_from(lines, self.lines[snippet_row], self.bare[file_row])

    def _top(self) -> int:
        """Where the first line of a file without imports goes: after a shebang or a
        directive ('use strict', 'use client')."""
        at = 0
        while at < len(self.bare) and (
            self.bare[at].startswith("#!") or re.match(r"^['\"]use \w+['\"];?$", self.bare[at])
        ):
            at += 1
        return at

    def _after_imports(self) -> int:
        pattern = IMPORTS.get(self.syntax.name)
        last = -1
        if pattern is not None:
            for r, y in enumerate(self.bare):
                if pattern.match(y):
                    # An import over several lines (Go's 'import (' ... ')'): to its close.
                    last = self.file.closing(r) or r
        return last + 1 if last >= 0 else self._top()

    def merge_within(self, body: str, snippet: str) -> tuple[str, StructuralResult]:
        """The same merge over one definition's body (the composed merge runs it)."""
        raise NotImplementedError
