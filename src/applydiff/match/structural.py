"""Lazy snippets merged definition by definition, for a file whose language the outline
scanner knows (issue 17).

The line merge (``lazy.merge_snippet``) anchors a snippet's segments by their lines; real
snippets are shaped by blocks instead: a whole ``class Calculator { ... }`` with one method
changed, a few functions of a larger file shown without any marker, new imports with nothing
to anchor them, a segment whose last line is a ``}`` like a hundred others. Here the snippet
is read as a sequence of *items* at its top level: definitions (a block and its header, with
the comment and decorator lines right above it), marker lines, imports, and other lines.

- A definition is matched to the file's definition with the same identity
  (``outline.identity``: kind and name, a CSS selector, an element's tag and key attributes),
  anywhere in the file, in the snippet's order. Its text replaces the file's: through the
  line merge, scoped to that definition, when it holds markers; as it stands when it holds
  none (then it must show every member of the file's definition, and leave out at most a
  few lines of it).
- A definition the file does not have is new: it goes after the file's place of the item
  before it in the snippet, or before the place of the item after it; with neither, after
  a leading marker at the end of the file, or before a trailing one at the top.
- New import lines go after the file's last import line of their kind (or of any kind, or at
  the top); imports the file has are not added again.
- Other lines must be lines of the file (context, kept as they are): anything else cannot
  be placed by structure, and is refused. (Narration comments are taken out before, by
  ``narration.drop_narration``.)
- What the snippet does not show stays; the result must keep the file's brackets balanced.

A markerless snippet whose definitions account for every definition of the file is the whole
file. Refusals raise ``Ambiguous`` or ``NoMatch`` with the reason; the caller decides whether
the line merge's refusal or this one is the better advice.
"""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from ..errors import Ambiguous, NoChange, NoMatch
from ..text import dominant_eol, split_lines
from .elision import is_marker
from .outline import Block, Outline, Syntax, header_text, identity, scan, syntax_for

# A definition shown without markers may leave out at most this many of the file's lines
# (or a third of them, if more): past that, a marker was likely forgotten.
MAX_UNSHOWN = 20

# (file text, snippet) -> merged text: the line merge, used within one definition.
LineMerge = Callable[[str, str], str]

# Import lines by language family: what each starts with (the group names the kind).
_IMPORTS = {
    "python": re.compile(r"^(?P<kind>import|from)\s+[\w.]+"),
    "js": re.compile(
        r"^(?P<kind>import)\b|^(?:const|let|var)\s+[\w{}\s,]+=\s*(?P<req>require)\s*\("
    ),
    "jsx": re.compile(
        r"^(?P<kind>import)\b|^(?:const|let|var)\s+[\w{}\s,]+=\s*(?P<req>require)\s*\("
    ),
    "c": re.compile(r"^(?P<kind>#\s*include|use|using|import|package)\b"),
    "go": re.compile(r"^(?P<kind>import)\b"),
    "css": re.compile(r"^(?P<kind>@import|@use|@forward)\b"),
    "scss": re.compile(r"^(?P<kind>@import|@use|@forward)\b"),
}


@dataclass
class Item:
    """One top-level piece of the snippet: lines ``first``..``last`` (0-based, inclusive)."""

    kind: str  # "definition", "marker", "blank", "import", "line"
    first: int
    last: int
    block: Block | None = None
    key: str = ""
    lead: int = 0  # comment and decorator lines above a definition, part of it
    match: Block | None = None  # the file's definition it is


@dataclass
class _Edit:
    """File lines ``start``..``end`` (exclusive) become ``lines`` (without terminators)."""

    start: int
    end: int
    lines: list[str]
    order: int = 0  # among insertions at one place, the snippet's order


@dataclass(frozen=True)
class StructuralResult:
    first_line: int  # 1-based lines of the file the merge touched
    last_line: int


def merge_by_definitions(
    path: str,
    text: str,
    snippet: str,
    merge_lines: LineMerge,
) -> tuple[str, StructuralResult]:
    """``text`` with ``snippet`` merged in by definitions (see the module's docstring)."""
    syntax = syntax_for(path)
    if syntax is None:
        raise NoMatch(f"{path}: no structure is known for this kind of file", closest=[])
    return _Merge(syntax, text, snippet, merge_lines).run()


class _Merge:
    def __init__(self, syntax: Syntax, text: str, snippet: str, merge_lines: LineMerge) -> None:
        self.syntax = syntax
        self.text = text
        self.merge_lines = merge_lines
        self.file_lines = split_lines(text)
        self.bare = [x.rstrip("\r\n") for x in self.file_lines]
        self.eol = dominant_eol(text)
        self.file = scan(self.bare, syntax)
        lines = snippet.replace("\r\n", "\n").split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        self.lines = lines
        literal = {x.rstrip() for x in self.bare}
        self.marker = [is_marker(x) and x.rstrip() not in literal for x in lines]
        # Marker lines read as blank, so a bare '...' is not code.
        self.shown = scan(["" if m else x for x, m in zip(lines, self.marker, strict=True)], syntax)
        self.file_defs = _definitions(self.bare, self.file, syntax)

    # -- reading the snippet ---------------------------------------------------------------
    def items(self) -> list[Item]:
        starts = {b.start: b for b in _definitions(self.lines, self.shown, self.syntax)}
        out: list[Item] = []
        i = 0
        n = len(self.lines)
        imports = _IMPORTS.get(self.syntax.name)
        while i < n:
            line = self.lines[i]
            if self.marker[i]:
                out.append(Item("marker", i, i))
            elif not line.strip():
                out.append(Item("blank", i, i))
            elif i in starts:
                b = starts[i]
                key = identity(header_text(self.lines, b), self.syntax, b.kind)
                item = Item("definition", i, b.close, b, key)
                # Comment and decorator lines right above it are its own.
                while out and out[-1].kind == "line" and self._leads(out[-1].first):
                    item.first = out.pop().first
                    item.lead += 1
                out.append(item)
                i = b.close + 1
                continue
            elif imports is not None and imports.match(line.strip()):
                out.append(Item("import", i, i))
            else:
                out.append(Item("line", i, i))
            i += 1
        return out

    def _leads(self, i: int) -> bool:
        s = self.lines[i].strip()
        comment = i not in self.shown.code
        return comment or s.startswith(("@", "#["))

    # -- the merge ---------------------------------------------------------------------------
    def run(self) -> tuple[str, StructuralResult]:
        items = self.items()
        defs = [x for x in items if x.kind == "definition"]
        if not defs and not any(x.kind == "import" for x in items):
            raise NoMatch("the snippet shows no definition to place by structure", closest=[])
        if not any(self.marker) and self._whole_file(defs):
            return self._whole(), StructuralResult(1, max(1, len(self.bare)))
        self._match(defs)
        edits = self._definition_edits(items) + self._import_edits(items)
        self._check_lines(items)
        merged = self._apply(edits)
        if merged == self.text:
            raise NoChange(
                "the snippet, placed by its definitions, changes nothing: every definition "
                "it shows is already in the file as shown"
            )
        if (
            self.file.balanced
            and not scan([x.rstrip("\r\n") for x in split_lines(merged)], self.syntax).balanced
        ):
            raise Ambiguous(
                "placed by its definitions, the snippet would leave a bracket or an element "
                "open or closed twice; show each changed definition whole, from its first "
                "line to its last",
                lines=[],
                tier="lazy",
            )
        touched = [e.start for e in edits] + [max(e.start, e.end - 1) for e in edits]
        return merged, StructuralResult(min(touched) + 1, max(touched) + 1)

    def _whole_file(self, defs: list[Item]) -> bool:
        """A markerless snippet is the whole file when its definitions account for every
        top-level definition of the file (and it shows at least two)."""
        top = [b for b in self.file_defs if not _inside_any(b, self.file_defs)]
        keys = {self._key(b) for b in top}
        shown = {d.key for d in defs}
        return len(top) >= 2 and bool(keys) and keys <= shown

    def _whole(self) -> str:
        out = self.eol.join(self.lines)
        return out + self.eol if self.text.endswith(("\n", "\r")) or not self.text else out

    def _key(self, b: Block) -> str:
        return identity(header_text(self.bare, b), self.syntax, b.kind)

    def _match(self, defs: list[Item]) -> None:
        by_key: dict[str, list[Block]] = {}
        for b in self.file_defs:
            by_key.setdefault(self._key(b), []).append(b)
        last: Block | None = None
        for d in defs:
            assert d.block is not None
            header = header_text(self.lines, d.block)
            found = by_key.get(d.key, []) if d.key else []
            if len(found) > 1:
                found = [b for b in found if header_text(self.bare, b) == header] or found
            if len(found) > 1:
                # Twins at different depths (a rule again inside @media): the one indented
                # as the snippet shows it.
                indent = _indentation(self.lines[d.block.start])
                found = [b for b in found if _indentation(self.bare[b.start]) == indent] or found
            if not d.key:
                found = [b for b in self.file_defs if header_text(self.bare, b) == header]
            if len(found) > 1:
                raise Ambiguous(
                    f"snippet line {d.first + 1}: {header[:60]!r} is in the file "
                    f"{len(found)} times (lines {', '.join(str(b.start + 1) for b in found[:8])})"
                    "; show a line around it that tells which one is meant",
                    lines=[b.start + 1 for b in found[:8]],
                    tier="lazy",
                )
            if not found:
                if not d.key:
                    raise NoMatch(
                        f"snippet line {d.first + 1}: {header[:60]!r} is a block without a "
                        "name that the file does not have as written; show the lines around "
                        "it as the file has them",
                        closest=[],
                    )
                continue  # a new definition
            b = found[0]
            if last is not None and (b.start <= last.close):
                raise Ambiguous(
                    f"snippet line {d.first + 1}: {header[:60]!r} is in the file at line "
                    f"{b.start + 1}, before or inside the definition the snippet shows "
                    f"above it (line {last.start + 1}); show definitions in the file's order",
                    lines=[last.start + 1, b.start + 1],
                    tier="lazy",
                )
            d.match = b
            last = b

    # -- definitions -----------------------------------------------------------------------
    def _definition_edits(self, items: list[Item]) -> list[_Edit]:
        edits: list[_Edit] = []
        for k, d in enumerate(items):
            if d.kind != "definition":
                continue
            if d.match is not None:
                edits.append(self._replace(d))
            else:
                edits.append(self._insert(items, k))
        return edits

    def _lead_start(self, b: Block) -> int:
        """The first of the comment and decorator lines right above a file definition."""
        p = b.start
        while p > 0:
            s = self.bare[p - 1].strip()
            if not s or not ((p - 1) not in self.file.code or s.startswith(("@", "#["))):
                break
            p -= 1
        return p

    def _replace(self, d: Item) -> _Edit:
        b = d.match
        assert b is not None and d.block is not None
        start = self._lead_start(b) if d.lead else b.start
        body = self.lines[d.first : d.last + 1]
        lead = body[: d.lead]
        shown = body[d.lead :]
        file_text = "".join(self.file_lines[b.start : b.close + 1])
        if any(self.marker[d.first + d.lead : d.last + 1]):
            snippet = "\n".join(shown) + "\n"
            try:
                merged = self.merge_lines(file_text, snippet)
                new = [x.rstrip("\r\n") for x in split_lines(merged)]
            except NoChange:
                new = self.bare[b.start : b.close + 1]
            except (NoMatch, Ambiguous) as line_error:
                new = self._merge_body(d, b, line_error)
        else:
            new = self._reindent(shown, self.bare[b.start])
            self._shows_all_members(d, b, new)
        return _Edit(start, b.close + 1, lead + new)

    def _merge_body(self, d: Item, b: Block, line_error: NoMatch | Ambiguous) -> list[str]:
        """The definition merged member by member: its header and closer as the snippet
        writes them, its body by the same structural merge, one level down."""
        s = d.block
        assert s is not None
        closer = 0 if b.kind == "indent" else 1
        if (s.kind == "indent") != (b.kind == "indent"):
            raise line_error
        f_body = self.file_lines[b.open + 1 : b.close + 1 - closer]
        s_body = self.lines[s.open + 1 : s.close + 1 - closer]
        inner = _Merge(
            self.syntax,
            "".join(f_body),
            "\n".join(s_body) + "\n",
            self.merge_lines,
        )
        try:
            merged, _ = inner.run()
            body = [x.rstrip("\r\n") for x in split_lines(merged)]
        except NoChange:
            body = [x.rstrip("\r\n") for x in f_body]
        except (NoMatch, Ambiguous):
            raise line_error from None
        header = self._same_or_shown(
            self.bare[b.start : b.open + 1], self.lines[s.start : s.open + 1]
        )
        tail = (
            self._same_or_shown(self.bare[b.close : b.close + 1], self.lines[s.close : s.close + 1])
            if closer
            else []
        )
        return header + body + tail

    def _same_or_shown(self, file_lines: list[str], shown: list[str]) -> list[str]:
        """The file's lines where the snippet shows them alike (whitespace aside), else the
        snippet's, moved to the file's indentation."""
        if [" ".join(x.split()) for x in file_lines] == [" ".join(x.split()) for x in shown]:
            return list(file_lines)
        return self._reindent(shown, file_lines[0])

    @property
    def _file_set(self) -> set[str]:
        cached: set[str] | None = getattr(self, "_file_lines_set", None)
        if cached is None:
            cached = {x.rstrip() for x in self.bare}
            self._file_lines_set = cached
        return cached

    def _reindent(self, lines: list[str], file_header: str) -> list[str]:
        """The snippet's lines moved to the file header's indentation."""
        first = next((x for x in lines if x.strip()), "")
        have = first[: len(first) - len(first.lstrip(" \t"))]
        want = file_header[: len(file_header) - len(file_header.lstrip(" \t"))]
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
                    "of its definition; show the definition with its own indentation",
                    lines=[],
                    tier="lazy",
                )
        return out

    def _shows_all_members(self, d: Item, b: Block, new: list[str]) -> None:
        """A definition shown without markers replaces the file's: it must not leave out a
        member or many lines (a forgotten marker deletes them)."""
        assert d.block is not None
        members = _within(self.file_defs, b)
        shown_defs = {x.key for x in self._inner_items(d)}
        missing = [c for c in members if self._key(c) and self._key(c) not in shown_defs]
        if missing:
            names = ", ".join(repr(self._key(c)) for c in missing[:5])
            raise Ambiguous(
                f"snippet line {d.first + 1}: it shows {header_text(self.lines, d.block)[:60]!r} "
                f"without {names} (file line {missing[0].start + 1}), and with no "
                "'... existing code ...' marker where it is left out; show it, or put a marker "
                "in its place",
                lines=[c.start + 1 for c in missing[:8]],
                tier="lazy",
            )
        # Counted as a multiset: a line the file has 100 times and the snippet twice is
        # deleted 98 times (at least: an alignment could only find more).
        have = Counter(" ".join(x.split()) for x in new)
        gone = []
        for r in range(b.start, b.close + 1):
            line = " ".join(self.bare[r].split())
            if not line:
                continue
            if have[line] > 0:
                have[line] -= 1
            else:
                gone.append(r)
        size = b.close + 1 - b.start
        if len(gone) > max(MAX_UNSHOWN, size // 3):
            raise Ambiguous(
                f"snippet line {d.first + 1}: shown without a marker, it would delete "
                f"{len(gone)} lines of the file's definition (lines {b.start + 1}-{b.close + 1}) "
                "that it does not show; put a '... existing code ...' marker where lines are "
                "left out",
                lines=[gone[0] + 1],
                tier="lazy",
            )

    def _inner_items(self, d: Item) -> list[Item]:
        """The definitions directly inside a shown definition, with their identities."""
        assert d.block is not None
        blocks = [
            b
            for b in _within(_definitions(self.lines, self.shown, self.syntax), d.block)
            if b.start > d.block.open and b.close < d.block.close
        ]
        return [
            Item(
                "definition",
                b.start,
                b.close,
                b,
                identity(header_text(self.lines, b), self.syntax, b.kind),
            )
            for b in blocks
        ]

    def _insert(self, items: list[Item], k: int) -> _Edit:
        d = items[k]
        assert d.block is not None
        lines = self.lines[d.first : d.last + 1]
        lead = lines[: d.lead]
        body = lines[d.lead :]
        before = next((x for x in reversed(items[:k]) if self._placed(x)), None)
        after = next((x for x in items[k + 1 :] if self._placed(x)), None)
        gap_before = _blanks_between(items, before, d) if before else []
        gap_after = _blanks_between(items, d, after) if after else []
        if before is not None:
            at, ref_line = self._end_of(before), before
            new = gap_before + self._shift(lead + body, ref_line)
            return _Edit(at, at, new, order=d.first)
        if after is not None:
            at = self._start_of(after)
            return _Edit(at, at, self._shift(lead + body, after) + gap_after, order=d.first)
        markers_before = any(x.kind == "marker" for x in items[:k])
        markers_after = any(x.kind == "marker" for x in items[k + 1 :])
        if markers_before and not markers_after:
            at = len(self.bare)
            while at > 0 and not self.bare[at - 1].strip():
                at -= 1
            return _Edit(at, at, ["", *lead, *body], order=d.first)
        if markers_after and not markers_before:
            at = self._after_imports()
            gap = [""] if at > 0 else []
            return _Edit(at, at, gap + lead + body + [""], order=d.first)
        header = header_text(self.lines, d.block)
        raise Ambiguous(
            f"snippet line {d.first + 1}: {header[:60]!r} is new, and nothing around it in the "
            "snippet is in the file to say where it goes; show the unchanged definition before "
            "or after it",
            lines=[],
            tier="lazy",
        )

    def _placed(self, x: Item) -> bool:
        return (x.kind == "definition" and x.match is not None) or (
            x.kind == "line" and self._anchor(x) is not None
        )

    def _anchor(self, x: Item) -> int | None:
        """The one file line a context line of the snippet is (None: none, or several)."""
        want = self.lines[x.first].rstrip()
        rows = [r for r, y in enumerate(self.bare) if y.rstrip() == want]
        return rows[0] if len(rows) == 1 else None

    def _end_of(self, x: Item) -> int:
        if x.kind == "definition":
            assert x.match is not None
            return x.match.close + 1
        row = self._anchor(x)
        assert row is not None
        return row + 1

    def _start_of(self, x: Item) -> int:
        if x.kind == "definition":
            assert x.match is not None
            return self._lead_start(x.match)
        row = self._anchor(x)
        assert row is not None
        return row

    def _shift(self, lines: list[str], ref: Item) -> list[str]:
        """New lines indented as the file indents the snippet item they stand beside."""
        file_row = self._start_of(ref) if ref.kind != "definition" else ref.match.start  # type: ignore[union-attr]
        snippet_row = ref.first + ref.lead if ref.kind == "definition" else ref.first
        return self._reindent_from(lines, self.lines[snippet_row], self.bare[file_row])

    def _reindent_from(self, lines: list[str], have_line: str, want_line: str) -> list[str]:
        have = have_line[: len(have_line) - len(have_line.lstrip(" \t"))]
        want = want_line[: len(want_line) - len(want_line.lstrip(" \t"))]
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
                    f"the snippet line {x.strip()[:60]!r} is indented less than the code "
                    "beside it; show the new code at its own indentation",
                    lines=[],
                    tier="lazy",
                )
        return out

    # -- imports and other lines -----------------------------------------------------------
    def _import_edits(self, items: list[Item]) -> list[_Edit]:
        pattern = _IMPORTS.get(self.syntax.name)
        if pattern is None:
            return []
        have = {" ".join(x.split()) for x in self.bare}
        new: list[tuple[str, str]] = []
        for x in items:
            if x.kind != "import":
                continue
            line = self.lines[x.first]
            if " ".join(line.split()) in have:
                continue
            m = pattern.match(line.strip())
            assert m is not None
            new.append((m.group("kind") or m.group("req") or "", line.strip()))
        if not new:
            return []
        rows: dict[str, int] = {}
        for r, y in enumerate(self.bare):
            if y[:1] in " \t":
                continue  # an import inside a function is not the file's imports
            m = pattern.match(y)
            if m and r in self.file.code:
                rows[m.group("kind") or m.group("req") or ""] = r
        edits = []
        for order, (kind, line) in enumerate(new):
            if kind in rows:
                at = rows[kind] + 1
            elif rows:
                at = max(rows.values()) + 1
            else:
                at = self._top()
            edits.append(_Edit(at, at, [line], order=-1000 + order))
        return edits

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
        pattern = _IMPORTS.get(self.syntax.name)
        last = -1
        if pattern is not None:
            for r, y in enumerate(self.bare):
                if pattern.match(y):
                    last = r
        return last + 1 if last >= 0 else self._top()

    def _check_lines(self, items: list[Item]) -> None:
        """Every other line of the snippet is context the file has."""
        for x in items:
            if x.kind != "line":
                continue
            line = self.lines[x.first]
            if line.rstrip() in self._file_set or " ".join(line.split()) in self._loose_set:
                continue
            raise NoMatch(
                f"snippet line {x.first + 1}: {line.strip()[:60]!r} is outside every "
                "definition the snippet shows and is not in the file, so nothing places it "
                "by structure; show it inside its definition, or with unchanged lines "
                "around it",
                closest=[],
            )

    @property
    def _loose_set(self) -> set[str]:
        cached: set[str] | None = getattr(self, "_loose_lines_set", None)
        if cached is None:
            cached = {" ".join(x.split()) for x in self.bare}
            self._loose_lines_set = cached
        return cached

    # -- assembling ------------------------------------------------------------------------
    def _apply(self, edits: list[_Edit]) -> str:
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


def _definitions(lines: list[str], outline: Outline, syntax: Syntax) -> list[Block]:
    """The definitions of a text: per line, the block starting there that reaches furthest;
    a block on one line only when it is a definition (``.c { margin: 0; }``, ``function
    b() {}``), not a call or a literal."""
    return _outermost(outline, lambda b: _one_line_definition(lines, b, syntax))


_ONE_LINE_KINDS = re.compile(
    r"^(?:class|struct|enum|interface|trait|impl|fn|function|def|func|type|let|module) |:$"
)


def _one_line_definition(lines: list[str], b: Block, syntax: Syntax) -> bool:
    if b.kind != "{" or b.start != b.open:
        return False
    if syntax.name in ("css", "scss"):
        return True
    return bool(_ONE_LINE_KINDS.search(identity(header_text(lines, b), syntax, b.kind)))


def _outermost(outline: Outline, one_line: Callable[[Block], bool] | None = None) -> list[Block]:
    """Per start line, the block that reaches furthest (a call's ``(`` around its callback's
    ``{``; Python's indented body around a signature's brackets); blocks on one line only
    where ``one_line`` takes them."""
    best: dict[int, Block] = {}
    for b in outline.blocks:
        if b.close <= b.open and (one_line is None or not one_line(b)):
            continue
        have = best.get(b.start)
        if have is None or b.close > have.close or (b.close == have.close and b.kind == "indent"):
            best[b.start] = b
    return sorted(best.values(), key=lambda b: b.start)


def _within(blocks: list[Block], outer: Block) -> list[Block]:
    """The blocks directly inside ``outer``'s body."""
    inner = [b for b in blocks if outer.open < b.start and b.close < outer.close]
    return [b for b in inner if not _inside_any(b, inner)]


def _inside_any(b: Block, blocks: list[Block]) -> bool:
    return any(o is not b and o.start <= b.start and b.close <= o.close and o != b for o in blocks)


def _indentation(line: str) -> str:
    return line[: len(line) - len(line.lstrip(" \t"))]


def _blanks_between(items: list[Item], a: Item | None, b: Item | None) -> list[str]:
    if a is None or b is None:
        return []
    lo, hi = (a, b) if a.first < b.first else (b, a)
    return ["" for x in items if lo.last < x.first < hi.first and x.kind == "blank"]


__all__ = ["MAX_UNSHOWN", "StructuralResult", "merge_by_definitions"]
