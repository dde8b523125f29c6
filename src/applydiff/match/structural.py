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

import bisect
import itertools
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from rapidfuzz.distance import Indel

from ..errors import Ambiguous, NoChange, NoMatch
from ..text import dominant_eol, split_lines
from . import diff
from .elision import is_marker
from .lazy.shapes import loose_key
from .outline import Block, Outline, Syntax, header_text, identity, scan, syntax_for

# A definition shown without markers may leave out at most this many of the file's lines
# (and no more than a third of the lines it shows): past that, a marker was likely forgotten.
MAX_UNSHOWN = 20

# A new definition's first line this similar to the file's line where it goes looks like a
# changed copy of it (as the line merge's guard has it).
CHANGED_COPY = 0.6
# An element's start tag this similar to the file's element there is that element with an
# attribute edited (an id, a class), whatever its body shows.
CHANGED_ELEMENT = 0.85

# (file text, snippet) -> merged text: the line merge, used within one definition.
LineMerge = Callable[[str, str], str]

# JavaScript's: an import statement, or a require() bound to a name.
_JS_IMPORT = re.compile(
    r"^(?P<kind>import)\b|^(?:const|let|var)\s+[\w{}\s,]+=\s*(?P<req>require)\s*\("
)
# Import lines by language family: what each starts with (the group names the kind).
_IMPORTS = {
    "python": re.compile(r"^(?P<kind>import|from)\s+[\w.]+"),
    "js": _JS_IMPORT,
    "jsx": _JS_IMPORT,
    # '#include <...>' and '#include "..."' are two kinds: system headers, then the project's.
    "c": re.compile(r"^(?P<kind>#\s*include\s*[<\"]|use\b|using\b|import\b|package\b)"),
    "go": re.compile(r"^(?P<kind>import)\b"),
    # A Vue or Svelte component's <script> imports, at the left edge as they are written.
    "markup": re.compile(r"^(?P<kind>import)\s+[\w{*]"),
    "css": re.compile(r"^(?P<kind>@import|@use|@forward)\b"),
    "scss": re.compile(r"^(?P<kind>@import|@use|@forward)\b"),
}


@dataclass
class Item:
    """One top-level piece of the snippet: lines ``first``..``last`` (0-based, inclusive)."""

    kind: str  # "definition", "marker", "blank", "import", "context" (a run of other lines)
    first: int
    last: int
    block: Block | None = None
    key: str = ""
    lead: int = 0  # comment and decorator lines above a definition, part of it
    # An indented definition the snippet ends with: where it stops, it may only have
    # stopped showing it.
    open_end: bool = False
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
    outline: Callable[[], Outline] | None = None,
) -> tuple[str, StructuralResult]:
    """``text`` with ``snippet`` merged in by definitions (see the module's docstring).
    ``outline`` gives the file's outline when the caller has read it already."""
    syntax = syntax_for(path)
    if syntax is None:
        raise NoMatch(f"{path}: no structure is known for this kind of file", closest=[])
    return _Merge(syntax, text, snippet, merge_lines, outline=outline).run()


class _Merge:
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
        self.file_defs = _definitions(self.bare, self.file, syntax)
        self._keys: dict[int, str] = {}  # a file definition's start -> its identity
        self._def_starts = [b.start for b in self.file_defs]  # sorted: one block per start
        self._def_starting_at = {b.start: b for b in self.file_defs}
        self._def_closing_at = {b.close: b.start for b in self.file_defs}

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
            elif (
                i in starts
                and _closes_at_its_level(self.lines, starts[i])
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
                # (at the left edge only: an indented 'import' or 'using' is a body's)
                out.append(Item("import", i, i))
            else:
                out.append(Item("line", i, i))
            i += 1
        last = next((x for x in reversed(out) if x.kind != "blank"), None)
        if last is not None and last.kind == "definition" and self.syntax.indent:
            last.open_end = True
        return _runs(out)

    def _last_line(self, b: Block) -> int:
        """The last snippet line of an indented block: its last code line, or a marker after
        it indented into the block (the model elided the block's end)."""
        last = b.close
        if b.kind != "indent":
            return last
        level = len(_indentation(self.lines[b.open]).expandtabs(8))
        j = last + 1
        while j < len(self.lines):
            line = self.lines[j]
            if self.marker[j] and len(_indentation(line).expandtabs(8)) > level:
                last = j
            elif line.strip():
                break
            j += 1
        return last

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

    @staticmethod
    def _between_markers(items: list[Item], k: int) -> bool:
        def side(step: int) -> bool:
            j = k + step
            while 0 <= j < len(items) and items[j].kind == "blank":
                j += step
            return 0 <= j < len(items) and items[j].kind == "marker"

        return side(-1) and side(1)

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

    def _whole_file(self, defs: list[Item]) -> bool:
        """A markerless snippet is the whole file when its definitions account for every
        top-level definition of the file (and it shows at least two)."""
        top = _outermost_of(self.file_defs)
        keys = {self._key(b) for b in top}
        shown = {d.key for d in defs}
        return len(top) >= 2 and bool(keys) and keys <= shown

    def _whole(self) -> str:
        out = self.eol.join(self.lines)
        return out + self.eol if self.text.endswith(("\n", "\r")) or not self.text else out

    def _key(self, b: Block) -> str:
        key = self._keys.get(b.start)
        if key is None:
            key = self._keys[b.start] = identity(header_text(self.bare, b), self.syntax, b.kind)
        return key

    def _match(self, defs: list[Item]) -> None:
        by_key: dict[str, list[Block]] = {}
        for b in self.file_defs:
            by_key.setdefault(self._key(b), []).append(b)
        last: Block | None = None
        for d in defs:
            assert d.block is not None
            header = header_text(self.lines, d.block)
            found = by_key.get(d.key, [])
            if len(found) > 1:
                found = [b for b in found if header_text(self.bare, b) == header] or found
            if len(found) > 1:
                # Twins at different depths (a rule again inside @media): the one indented
                # as the snippet shows it.
                indent = _indentation(self.lines[d.block.start])
                found = [b for b in found if _indentation(self.bare[b.start]) == indent] or found
            if len(found) > 1:
                raise Ambiguous(
                    f"snippet line {d.first + 1}: {header[:60]!r} is in the file "
                    f"{len(found)} times (lines {', '.join(str(b.start + 1) for b in found[:8])})"
                    "; show a line around it that tells which one is meant",
                    lines=[b.start + 1 for b in found[:8]],
                    tier="lazy",
                )
            if not found:
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
        # A header over fewer lines than the file's ('_M_grab(...)' without the '_CharT*'
        # above it): the lines the snippet does not show stay.
        header_start = max(b.start, b.open - (d.block.open - d.block.start))
        if d.lead and header_start > b.start:
            shown_header = self.lines[d.block.start].strip()[:60]
            raise Ambiguous(
                f"snippet line {d.first + 1}: the lines above {shown_header!r} do not follow "
                f"the file, which has {self.bare[b.start].strip()[:40]!r} between them; show "
                "the definition from its first line",
                lines=[b.start + 1],
                tier="lazy",
            )
        start = self._lead_start(b) if d.lead else header_start
        if d.lead and d.lead < b.start - start:
            # The snippet shows fewer comment lines above it than the file has: after a
            # marker, or as the file's last ones, it shows only those; the lines above stay.
            shown_lead = [loose_key(x) for x in self.lines[d.first : d.first + d.lead]]
            file_tail = [loose_key(x) for x in self.bare[b.start - d.lead : b.start]]
            after_marker = d.first > 0 and self.marker[d.first - 1]
            if after_marker or shown_lead == file_tail:
                start = b.start - d.lead
        body = self.lines[d.first : d.last + 1]
        lead = body[: d.lead]
        shown = body[d.lead :]
        file_text = "".join(self.file_lines[header_start : b.close + 1])
        if any(self.marker[d.first + d.lead : d.last + 1]):
            self._tail_ends_here(d, b)
            snippet = "\n".join(shown) + "\n"
            try:
                merged = self.merge_lines(file_text, snippet)
                new = [x.rstrip("\r\n") for x in split_lines(merged)]
            except NoChange:
                new = self.bare[header_start : b.close + 1]
            except (NoMatch, Ambiguous) as line_error:
                new = self._merge_body(d, b, line_error, header_start)
        else:
            new = self._reindent(shown, self.bare[header_start])
            self._shows_all_members(d, b, new)
            new = self._keep_file_bytes(self.bare[header_start : b.close + 1], new)
        return _Edit(start, b.close + 1, lead + new)

    def _tail_ends_here(self, d: Item, b: Block) -> None:
        """A definition shown with a marker inside and new lines after it: the lines after the
        marker that the file has must not also end a later definition, or the marker may have
        left out this definition's end and the next one's start (a CSS rule, then the next
        rule's last declaration and '}'): which one the new lines end is not known."""
        last_marker = max(i for i in range(d.first, d.last + 1) if self.marker[i])
        tail = [x for x in self.lines[last_marker + 1 : d.last + 1] if x.strip()]
        have = {loose_key(x) for x in self.bare[b.open + 1 : b.close + 1] if x.strip()}
        context = [loose_key(x) for x in tail if loose_key(x) in have]
        if len(context) == len(tail) or not _telling(context):
            return  # nothing new after the marker, or only a closer to go by
        for c in self.file_defs:
            if c.start <= b.close or c.kind != b.kind:
                continue
            ending = [loose_key(x) for x in self.bare[c.open + 1 : c.close + 1] if x.strip()]
            if ending[-len(context) :] == context:
                raise Ambiguous(
                    f"snippet line {last_marker + 2}: the lines after the '... existing code "
                    f"...' marker end the definition at line {b.start + 1} and also the one "
                    f"at line {c.start + 1}; show the lines between, or put the change in "
                    "the definition it belongs to with its own header",
                    lines=[b.start + 1, c.start + 1],
                    tier="lazy",
                )

    def _keep_file_bytes(self, old: list[str], new: list[str]) -> list[str]:
        """``new`` with each line that is the file's (whitespace aside) written as the file
        has it, and each other line indented as the file indents the lines the snippet
        indented the same way (a model retyping tabs as spaces changes neither)."""
        # A line is the same line when its words and its depth (the rank of its indentation
        # among the side's indentations) agree: a retyped indentation keeps its rank, and a
        # new method's '}' is not the class's '}'.
        keys_old, keys_new = _depth_keys(old), _depth_keys(new)
        pairs = [
            (i, j)
            for tag, i1, i2, j1, j2 in diff.opcodes(keys_old, keys_new)
            if tag == "equal"
            for i, j in zip(range(i1, i2), range(j1, j2), strict=True)
        ]
        # How the snippet's indentation maps to the file's, by most pairs: a pair against it
        # ("}" of a new method aligned with the class's "}") is not the same line.
        votes: dict[str, Counter[str]] = {}
        for i, j in pairs:
            if new[j].strip():
                votes.setdefault(_indentation(new[j]), Counter())[_indentation(old[i])] += 1
        indents = {have: got.most_common(1)[0][0] for have, got in votes.items()}
        out = list(new)
        kept: set[int] = set()
        for i, j in pairs:
            if not new[j].strip() or indents[_indentation(new[j])] == _indentation(old[i]):
                out[j] = old[i]
                kept.add(j)
        for j, x in enumerate(new):
            if j not in kept and x.strip():
                have = _indentation(x)
                if have in indents:
                    out[j] = indents[have] + x[len(have) :]
        return out

    def _merge_body(
        self, d: Item, b: Block, line_error: NoMatch | Ambiguous, header_start: int
    ) -> list[str]:
        """The definition merged member by member: its header and closer as the snippet
        writes them, its body by the same structural merge, one level down."""
        s = d.block
        assert s is not None
        closer = 0 if b.kind == "indent" else 1
        if (s.kind == "indent") != (b.kind == "indent"):
            raise line_error
        f_body = self.file_lines[b.open + 1 : b.close + 1 - closer]
        s_end = d.last + 1 if s.kind == "indent" else s.close
        s_body = self.lines[s.open + 1 : s_end]
        inner = _Merge(
            self.syntax,
            "".join(f_body),
            "\n".join(s_body) + "\n",
            self.merge_lines,
            inner=True,
        )
        try:
            merged, _ = inner.run()
            body = [x.rstrip("\r\n") for x in split_lines(merged)]
        except NoChange:
            body = [x.rstrip("\r\n") for x in f_body]
        except (NoMatch, Ambiguous):
            raise line_error from None
        header = self._same_or_shown(
            self.bare[header_start : b.open + 1], self.lines[s.start : s.open + 1]
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
        if [loose_key(x) for x in file_lines] == [loose_key(x) for x in shown]:
            return list(file_lines)
        return self._reindent(shown, file_lines[0])

    def _reindent(self, lines: list[str], file_header: str) -> list[str]:
        """The snippet's lines moved to the file header's indentation."""
        first = next((x for x in lines if x.strip()), "")
        return self._reindent_from(lines, first, file_header)

    def _shows_all_members(self, d: Item, b: Block, new: list[str]) -> None:
        """A definition shown without markers replaces the file's: it must not leave out a
        member or many lines (a forgotten marker deletes them)."""
        assert d.block is not None
        lo = bisect.bisect_right(self._def_starts, b.open)
        hi = bisect.bisect_left(self._def_starts, b.close)
        members = _within(self.file_defs[lo:hi], b)
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
        have = Counter(loose_key(x) for x in new)
        gone = []
        for r in range(b.start, b.close + 1):
            line = loose_key(self.bare[r])
            if not line:
                continue
            if have[line] > 0:
                have[line] -= 1
            else:
                gone.append(r)
        # A changed definition rewrites some of its lines; one that drops more lines than a
        # third of what it shows (or MAX_UNSHOWN) most likely left them out by mistake.
        shown = sum(1 for x in new if x.strip())
        allowed = min(MAX_UNSHOWN, max(3, shown // 3))
        last = max((r for r in range(b.start, b.close + 1) if self.bare[r].strip()), default=-1)
        # An indented definition the snippet ends with may just stop being shown: it must
        # reach the definition's last line.
        if len(gone) > allowed or (d.open_end and last in gone):
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
        if any(self.marker[d.first : d.last + 1]):
            raise NoMatch(
                f"snippet line {d.first + 1}: {header_text(self.lines, d.block)[:60]!r} is not "
                "in the file, yet it leaves code out with a '... existing code ...' marker; "
                "show the definition the file has, as the file names it",
                closest=[],
            )
        lead = lines[: d.lead]
        body = lines[d.lead :]
        header = header_text(self.lines, d.block)
        before, between_before = self._neighbour(items, k, -1)
        after, between_after = self._neighbour(items, k, 1)
        if before is not None and not between_before:
            at = self._end_of(before)
            self._adjacent(items, k, at, header)
            self._not_a_changed_copy(d, at, 1)
            if after is not None and not between_after:
                # Shown right between two places of the file with no marker: whatever the
                # file has between them, the snippet replaces, or adds beside: two readings.
                end = self._start_of(after)
                if any(x.strip() for x in self.bare[at:end]):
                    raise Ambiguous(
                        f"snippet line {d.first + 1}: {header[:60]!r} is new, and it stands "
                        f"where the file has lines {at + 1}-{end}, which the snippet does not "
                        "show: it may replace them or be added beside them; put a "
                        "'... existing code ...' marker where they stay, or show them",
                        lines=[at + 1],
                        tier="lazy",
                    )
            # The blank lines the snippet shows right before it (another new definition
            # between brings its own).
            previous = next((x for x in reversed(items[:k]) if x.kind != "blank"), before)
            gap = _blanks_between(items, previous, d)
            return _Edit(at, at, gap + self._shift(lead + body, before), order=d.first)
        if after is not None and not between_after:
            at = self._start_of(after)
            self._adjacent(items, k, at, header, before=True)
            self._not_a_changed_copy(d, at, -1)
            # Put before the file's blank lines there, which then stand between it and the
            # definition after it; before it, the blank lines the snippet shows.
            while at > 0 and not self.bare[at - 1].strip():
                at -= 1
            preceding = next((x for x in reversed(items[:k]) if x.kind != "blank"), None)
            gap = _blanks_between(items, preceding, d)
            return _Edit(at, at, gap + self._shift(lead + body, after), order=d.first)
        # At the ends of this scope only a definition at the scope's own level (not one of
        # markup's elements at a file's end, past its root).
        top_level = self._scope_level(d) and (self.inner or not self.syntax.tags)
        if before is None and after is None and top_level and not self._unplaced(items):
            self._not_like_any(d, lead)
            # Only markers (and blank lines) before it: it goes at the end; only markers after
            # it: at the top. Anything else shown on that side would say otherwise.
            rest_before = {x.kind for x in items[:k]} - {"blank"}
            rest_after = {x.kind for x in items[k + 1 :]} - {"blank"}
            markers_before = rest_before == {"marker"}
            markers_after = rest_after == {"marker"}
            if markers_before and not rest_after:
                at = len(self.bare)
                while at > 0 and not self.bare[at - 1].strip():
                    at -= 1
                return _Edit(at, at, ["", *lead, *body], order=d.first)
            if markers_after and not rest_before:
                at = self._after_imports()
                if at < len(self.bare) and not self.bare[at].strip():
                    at += 1  # after the blank line that ends the imports
                gap = [""] if at > 0 and self.bare[at - 1].strip() else []
                return _Edit(at, at, gap + lead + body + [""], order=d.first)
        raise Ambiguous(
            f"snippet line {d.first + 1}: {header[:60]!r} is new, and nothing right before or "
            "after it in the snippet is in the file at one place to say where it goes; show "
            "the unchanged lines or definition next to it",
            lines=[],
            tier="lazy",
        )

    def _not_like_any(self, d: Item, lead: list[str]) -> None:
        """A new definition put at a scope's end with nothing around it must not be a file
        definition renamed: its comment lines are not the ones above a file definition, and
        it is not one with a header much like its own and mostly its body."""
        assert d.block is not None
        ours = loose_key(self.lines[d.block.start])
        shown_lead = [x.strip() for x in lead if x.strip()]
        for b in self.file_defs:
            theirs = loose_key(self.bare[b.start])
            above = [x.strip() for x in self.bare[self._lead_start(b) : b.start] if x.strip()]
            if (shown_lead and shown_lead == above) or (
                Indel.normalized_similarity(ours, theirs) >= CHANGED_ELEMENT
                and self._same_body(d, b.start)
            ):
                raise Ambiguous(
                    f"snippet line {d.first + 1}: {ours[:60]!r} is not in the file, but it "
                    f"looks like file line {b.start + 1} ({theirs[:60]!r}) changed: is it that "
                    "one, or a new one? Show the unchanged lines next to it",
                    lines=[b.start + 1],
                    tier="lazy",
                )

    def _not_a_changed_copy(self, d: Item, at: int, step: int) -> None:
        """A new definition put next to a file definition with a header much like its own
        and the same body may be that one changed (an id, a name, a selector edited)."""
        assert d.block is not None
        r = at if step > 0 else at - 1
        while 0 <= r < len(self.bare) and not self.bare[r].strip():
            r += step
        if not 0 <= r < len(self.bare):
            return
        if step < 0:  # the definition that ends at line r
            r = self._def_closing_at.get(r, r)
        ours = loose_key(self.lines[d.block.start])
        theirs = loose_key(self.bare[r])
        similarity = Indel.normalized_similarity(ours, theirs)
        renamed = self._begins_like(d, r)
        if similarity < CHANGED_COPY and not renamed:
            return
        if renamed:
            same_body = True  # it stops where the file's, renamed, begins the same way
        elif d.block.kind.startswith("<") and similarity >= CHANGED_ELEMENT:
            same_body = True  # an element's start tag with an attribute edited: its body too
        else:
            same_body = self._same_body(d, r)
        if same_body:
            raise Ambiguous(
                f"snippet line {d.first + 1}: {ours[:60]!r} is not in the file, and it stands "
                f"next to file line {r + 1} ({theirs[:60]!r}), which it looks like a changed "
                "copy of: is it that one changed, or a new one beside it? Show the unchanged "
                "line next to it (one more line of context)",
                lines=[r + 1],
                tier="lazy",
            )

    def _bodies(self, d: Item, r: int) -> tuple[list[str], list[str] | None]:
        """The new definition's body lines and those of the file's definition that starts at
        line ``r`` (None: none starts there), whitespace aside."""
        assert d.block is not None
        there = self._def_starting_at.get(r)
        body = [loose_key(x) for x in self.lines[d.block.start + 1 : d.block.close + 1]]
        if there is None:
            return body, None
        return body, [loose_key(x) for x in self.bare[there.start + 1 : there.close + 1]]

    def _begins_like(self, d: Item, r: int) -> bool:
        """An indented definition the snippet ends with, whose telling lines all begin the
        body of the file's definition at line ``r``: that one, with its header changed."""
        body, file_body = self._bodies(d, r)
        if not d.open_end or file_body is None:
            return False
        return bool(_telling(body)) and body == file_body[: len(body)]

    def _same_body(self, d: Item, r: int) -> bool:
        """Whether a new definition's body is mostly the body of the file's definition that
        starts at line ``r`` (an edited copy of it)."""
        body, found = self._bodies(d, r)
        file_body = found or []
        if d.open_end and body and body == file_body[: len(body)]:
            return True  # the snippet stops showing it: what it shows begins the file's
        telling = _telling(body)
        if telling:
            return 2 * sum(x in set(file_body) for x in telling) >= len(telling)
        return body == file_body

    def _adjacent(
        self, items: list[Item], k: int, at: int, header: str, before: bool = False
    ) -> None:
        """A new definition put at file line ``at`` must have there, on its other side,
        what the snippet shows next to it (unless a marker stands between): else the
        snippet shows it in place of the file's lines there, or beside them."""
        step = -1 if before else 1
        j = k + step
        while 0 <= j < len(items) and items[j].kind in ("blank", "definition"):
            if items[j].kind == "definition" and items[j].match is not None:
                break
            j += step
        if not 0 <= j < len(items) or items[j].kind in ("marker", "import"):
            return
        x = items[j]
        want = self.lines[x.last if before else x.first].rstrip()
        if x.kind == "definition":
            assert x.match is not None
            want = self.bare[x.match.close if before else self._lead_start(x.match)].rstrip()
        r = at - 1 if before else at
        while 0 <= r < len(self.bare) and not self.bare[r].strip():
            r += step
        there = self.bare[r].rstrip() if 0 <= r < len(self.bare) else ""
        if there != want:
            raise Ambiguous(
                f"snippet line {items[k].first + 1}: {header[:60]!r} is new, and the snippet "
                f"shows {want.strip()[:40]!r} right {'before' if before else 'after'} it, but "
                f"the file has {there.strip()[:40]!r} there (line {r + 1}): it may replace "
                "lines the snippet does not show, or be added beside them; show them, or put a "
                "'... existing code ...' marker where they stay",
                lines=[r + 1],
                tier="lazy",
            )

    def _scope_level(self, d: Item) -> bool:
        assert d.block is not None
        width = len(_indentation(self.lines[d.block.start]).expandtabs(8))
        if not hasattr(self, "_level"):
            levels = [len(_indentation(x).expandtabs(8)) for x in self.bare if x.strip()]
            self._level = min(levels) if levels else 0
        return width == self._level

    def _neighbour(self, items: list[Item], k: int, step: int) -> tuple[Item | None, bool]:
        """The nearest item before (``step`` -1) or after (1) item ``k`` that has one place
        in the file, and whether a marker stands between them. Context the file has at
        several places, or not at all, in between: no neighbour (it does not say where)."""
        marker = False
        j = k + step
        while 0 <= j < len(items):
            x = items[j]
            if x.kind == "marker":
                marker = True
            elif x.kind in ("blank", "import"):
                pass
            elif self._placed(x):
                if step < 0 and not self._end_reliable(x):
                    return None, marker
                return x, marker
            elif x.kind == "definition":
                pass  # another new definition: go on past it
            else:
                return None, marker
            j += step
        return None, marker

    def _unplaced(self, items: list[Item]) -> bool:
        return any(x.kind == "context" and not self._placed(x) for x in items)

    def _placed(self, x: Item) -> bool:
        return (x.kind == "definition" and x.match is not None) or (
            x.kind == "context" and self._anchor(x) is not None
        )

    def _occurrences(self, x: Item) -> list[int]:
        """Where the context run's lines stand in the file, in a row, as the snippet shows
        them (trailing whitespace aside)."""
        want = [y.rstrip() for y in self.lines[x.first : x.last + 1]]
        rows = self._rows.get(want[0], [])
        n = len(want)
        return [r for r in rows if [y.rstrip() for y in self.bare[r : r + n]] == want]

    @property
    def _rows(self) -> dict[str, list[int]]:
        cached: dict[str, list[int]] | None = getattr(self, "_rows_by_line", None)
        if cached is None:
            cached = {}
            for r, y in enumerate(self.bare):
                cached.setdefault(y.rstrip(), []).append(r)
            self._rows_by_line = cached
        return cached

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

    def _shift(self, lines: list[str], ref: Item) -> list[str]:
        """New lines indented as the file indents the snippet item they stand beside."""
        file_row = self._start_of(ref) if ref.kind != "definition" else ref.match.start  # type: ignore[union-attr]
        snippet_row = ref.first + ref.lead if ref.kind == "definition" else ref.first
        return self._reindent_from(lines, self.lines[snippet_row], self.bare[file_row])

    def _reindent_from(self, lines: list[str], have_line: str, want_line: str) -> list[str]:
        have, want = _indentation(have_line), _indentation(want_line)
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

    # -- imports and other lines -----------------------------------------------------------
    def _import_edits(self, items: list[Item]) -> list[_Edit]:
        pattern = _IMPORTS.get(self.syntax.name)
        if pattern is None:
            return []
        have = {loose_key(x) for x in self.bare}
        new: list[tuple[str, str]] = []
        placed: list[_Edit] = []
        for k, x in enumerate(items):
            if x.kind != "import":
                continue
            line = self.lines[x.first]
            if loose_key(line) in have:
                continue
            between = self._between_imports(items, k)
            if between is not None:
                placed.append(_Edit(*between, [line.strip()], order=-1000 + k))
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
                if (source := _import_source(y)) is not None:
                    sources.setdefault(source, []).append(r)
        edits = []
        for order, (kind, line) in enumerate(new):
            same = sources.get(_import_source(line) or "", [])
            if len(same) == 1:
                # More names from a module the file imports already: that import, changed
                # (adding the line beside it would import the first names twice).
                edits.append(_Edit(same[0], same[0] + 1, [line], order=-1000 + order))
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
            edits.append(_Edit(at, at, [line], order=-1000 + order))
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
                    # An import over several lines (Go's 'import (' ... ')'): to its close.
                    last = self.file.closing(r) or r
        return last + 1 if last >= 0 else self._top()

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
            if rows:
                continue
            raise NoMatch(
                f"snippet lines {x.first + 1}-{x.last + 1} (starting {shown[:60]!r}) are "
                "outside every definition the snippet shows and are not in the file as shown, "
                "so nothing places their change by structure; show them inside their "
                "definition, or with unchanged lines around them",
                closest=[],
            )

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


def is_import(line: str, syntax: Syntax) -> bool:
    """Whether ``line`` is an import line of the file's language, at the left edge."""
    pattern = _IMPORTS.get(syntax.name)
    return pattern is not None and pattern.match(line) is not None


def definition_names(
    lines: list[str], syntax: Syntax, outline: Outline | None = None
) -> Counter[str]:
    """How many definitions of each identity ``lines`` hold (named ones only)."""
    found = outline if outline is not None else scan(lines, syntax)
    names: Counter[str] = Counter()
    for b in _definitions(lines, found, syntax):
        key = identity(header_text(lines, b), syntax, b.kind)
        if key:
            names[key] += 1
    return names


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
    return _outermost_of([b for b in blocks if outer.open < b.start and b.close < outer.close])


def _outermost_of(blocks: list[Block]) -> list[Block]:
    """The blocks no other of ``blocks`` holds, in one sweep (blocks nest or are apart)."""
    out: list[Block] = []
    reach = -1
    for b in sorted(blocks, key=lambda b: (b.start, -b.close)):
        if b.start > reach or b.close > reach:
            out.append(b)
            reach = max(reach, b.close)
    return out


def _closes_at_its_level(lines: list[str], b: Block) -> bool:
    """A block whose closing line starts with its closer at the indentation of its first
    line (or that closes on its own line, or by indentation). A '}' deeper than the header
    closes an inner block whose opener a marker left out: the snippet's brackets do not
    say where this block ends."""
    if b.kind == "indent" or b.close == b.open:
        return True
    closer = lines[b.close]
    if not closer.lstrip().startswith(("}", ")", "]", "</")):
        return True
    return _indentation(closer) == _indentation(lines[b.start])


# What an import line takes from: JS "from 'x'" / require('x'), Python "from x import",
# Rust "use a::b::{...}".
_SOURCE = re.compile(
    r"""\bfrom\s+(['"])(?P<js>[^'"]+)\1|\brequire\(\s*(['"])(?P<req>[^'"]+)\3"""
    r"|^from\s+(?P<py>[\w.]+)\s+import\b|^use\s+(?P<rs>[\w:]+)::\{"
)


def _import_source(line: str) -> str | None:
    m = _SOURCE.search(line.strip())
    if m is None:
        return None
    return next(g for g in (m.group("js"), m.group("req"), m.group("py"), m.group("rs")) if g)


def _runs(items: list[Item]) -> list[Item]:
    """Lines outside definitions, markers and imports joined into runs of context (blank
    lines inside a run are part of it; those at its ends stay apart). Import lines shown
    with other lines around them, no marker between, are context too: the snippet shows
    where they stand (a changed import is not a new one)."""
    k = 0
    while k < len(items):
        j = k
        while j < len(items) and items[j].kind in ("import", "blank", "line"):
            j += 1
        if any(x.kind == "line" for x in items[k:j]):
            for x in items[k:j]:
                if x.kind == "import":
                    x.kind = "line"
        k = j + 1
    out: list[Item] = []
    for x in items:
        if x.kind != "line":
            out.append(x)
            continue
        k = len(out)
        while k > 0 and out[k - 1].kind == "blank":
            k -= 1
        if k > 0 and out[k - 1].kind == "context":
            out[k - 1].last = x.last
            del out[k:]
        else:
            out.append(Item("context", x.first, x.last))
    return out


def _depth_keys(lines: list[str]) -> list[str]:
    widths = sorted({len(_indentation(x).expandtabs(8)) for x in lines if x.strip()})
    rank = {w: k for k, w in enumerate(widths)}
    return [
        f"{rank[len(_indentation(x).expandtabs(8))]}|{' '.join(x.split())}" if x.strip() else ""
        for x in lines
    ]


def _telling(lines: list[str]) -> list[str]:
    """The lines that say something (four word characters or more: not a lone '}')."""
    return [x for x in lines if len(re.sub(r"\W", "", x)) >= 4]


def _indentation(line: str) -> str:
    return line[: len(line) - len(line.lstrip(" \t"))]


def _blanks_between(items: list[Item], a: Item | None, b: Item | None) -> list[str]:
    if a is None or b is None:
        return []
    lo, hi = (a, b) if a.first < b.first else (b, a)
    return ["" for x in items if lo.last < x.first < hi.first and x.kind == "blank"]


__all__ = [
    "MAX_UNSHOWN",
    "StructuralResult",
    "definition_names",
    "is_import",
    "merge_by_definitions",
]
