"""A shown definition matched to the file's definition with its identity, and its text put in
place of the file's: by the line merge within it, member by member, or as it stands."""

from __future__ import annotations

import bisect
import re
from collections import Counter

from rapidfuzz.distance import Indel

from ...errors import Ambiguous, NoChange, NoMatch
from ...text import split_lines
from .. import diff
from ..lazy.shapes import loose_key
from ..lazy.unshown import (
    deletion_problem,
    names_declared,
    partial_by_nature,
    unexplained_drops,
)
from ..outline import Block, header_text, identity
from .pieces import (
    CHANGED_COPY,
    MAX_UNSHOWN,
    Edit,
    Item,
    blocks_within,
    definitions_of,
    depth_keys,
    indent_of,
    leads_definition,
    telling_lines,
)
from .state import State

# A stylesheet declaration on a line of its own ("color: #333;"), and a comment line.
_DECLARATION = re.compile(r"^\s*(--[\w-]+|-?[A-Za-z][\w-]*)\s*:\s*[^{};]+;?\s*$")
_CSS_COMMENT = re.compile(r"^\s*/\*.*\*/\s*$")
# A statement after which nothing in the block runs: a line added after it is not meant there.
_ENDS_FLOW = re.compile(r"^(return|throw|raise|break|continue|exit|goto)\b")


class Replacing(State):
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
                indent = indent_of(self.lines[d.block.start])
                found = [b for b in found if indent_of(self.bare[b.start]) == indent] or found
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

    def _replace(self, d: Item) -> Edit:
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
                try:
                    new = self._merge_body(d, b, line_error, header_start)
                except (NoMatch, Ambiguous):
                    appended = self._appended_at_end(d, b, header_start)
                    if appended is None:
                        raise
                    new = appended
        else:
            new = self._reindent(shown, self.bare[header_start])
            by_property = self._declarations_set(b, header_start, new)
            if by_property is not None:
                new = by_property
            else:
                try:
                    self._shows_all_members(d, b, new, header_start)
                    new = self._keep_file_bytes(self.bare[header_start : b.close + 1], new)
                except Ambiguous as missing:
                    if not self._members_only(d) or self._left_out_between(d, b):
                        raise
                    # Members only, without a marker (issue 26, rule 2): each replaces its
                    # namesake, a new one goes after the member shown before it or at the
                    # end; the members it does not show stay.
                    new = self._merge_body(d, b, missing, header_start)
        return Edit(start, b.close + 1, lead + new)

    def _declarations_set(self, b: Block, header_start: int, new: list[str]) -> list[str] | None:
        """A stylesheet rule shown without markers, with declarations only (issue 26): each
        one sets its property, in place of the file's declaration of it, or added after the
        rule's last declaration; the declarations it does not show stay. None where that is
        not the reading (not a stylesheet, not a rule over lines of its own, other lines)."""
        if self.syntax.name not in ("css", "scss") or b.kind != "{" or b.close <= b.open:
            return None
        if b.open != header_start or len(new) < 2 or new[0].strip() != self.bare[b.open].strip():
            return None
        if loose_key(new[-1]) != loose_key(self.bare[b.close]):
            return None
        shown = [x for x in new[1:-1] if x.strip()]
        body = self.bare[b.open + 1 : b.close]
        if not shown or not all(_DECLARATION.match(x) for x in shown):
            return None
        if not all(_DECLARATION.match(x) or _CSS_COMMENT.match(x) for x in body if x.strip()):
            return None
        where: dict[str, list[int]] = {}
        for r, x in enumerate(body):
            m = _DECLARATION.match(x)
            if m:
                where.setdefault(m.group(1).lower(), []).append(r)
        props = {_DECLARATION.match(x).group(1).lower() for x in shown}  # type: ignore[union-attr]
        if set(where) <= props:
            return None  # every declaration shown: the rule whole, as the snippet orders it
        out = list(body)
        added: list[str] = []
        last = max((r for r, x in enumerate(body) if _DECLARATION.match(x)), default=None)
        indent = indent_of(body[last]) if last is not None else indent_of(shown[0]) or "  "
        shown_props: list[str] = []
        for x in shown:
            prop = _DECLARATION.match(x).group(1).lower()  # type: ignore[union-attr]
            shown_props.append(prop)
            rows = where.get(prop, [])
            if len(rows) > 1:
                return None  # set twice in the rule (a fallback): which one is meant?
            if rows:
                r = rows[0]
                if loose_key(out[r]) != loose_key(x):
                    out[r] = indent_of(out[r]) + x.strip()
            else:
                added.append(indent + x.strip())
        # A declaration the snippet leaves out between two it shows (in the file's order)
        # is shown on both sides: it goes (the deletion rule); the others stay.
        placed = [where[p][0] for p in shown_props if p in where]
        gone: set[int] = set()
        if len(placed) > 1 and placed == sorted(placed):
            shown_rows = set(placed)
            gone = {
                r
                for r in range(placed[0] + 1, placed[-1])
                if r not in shown_rows and _DECLARATION.match(body[r])
            }
        if not added and not gone and out == body:
            # It changes nothing but leaves declarations out: they go (the rule shown whole
            # without them), or they stay (the rule shown as context)? Two readings.
            raise Ambiguous(
                f"file line {b.open + 1}: the snippet shows {self.bare[b.open].strip()[:60]!r} "
                "with fewer declarations than the file has and changes none of them; show "
                "the declarations to delete between two that stay, or put an "
                "'... existing code ...' marker where the rest stays",
                lines=[b.open + 1],
                tier="lazy",
            )
        at = (last + 1) if last is not None else len(body)
        out[at:at] = added
        kept = [x for r, x in enumerate(out) if r not in gone or r >= at]
        return [self.bare[b.open], *kept, self.bare[b.close]]

    def _appended_at_end(self, d: Item, b: Block, header_start: int) -> list[str] | None:
        """A bracketed definition whose lines after its last marker are all new but its
        closer: the model adds them at the end of the definition its header names (the line
        merge will not anchor a segment on a lone '}'). None where that reading is not sure:
        the file's last statement there ends the flow ('return'), or looks like the first new
        line changed, or the new lines are not at the body's indentation as the file has it."""
        s = d.block
        assert s is not None
        first = d.first + d.lead
        if b.kind == "indent" or s.kind == "indent" or b.close <= b.open or d.last != s.close:
            return None
        last_marker = self._last_marker(d)
        if loose_key(self.lines[d.last]) != loose_key(self.bare[b.close]):
            return None
        added = self.lines[last_marker + 1 : d.last]
        new_lines = [x for x in added if x.strip()]
        body = [x for x in self.bare[b.open + 1 : b.close] if x.strip()]
        if not new_lines or not body:
            return None
        # A line the file has (here, or in a later definition whose end the marker may
        # have run on to) is context, not new: the end is not this definition's for sure.
        if any(loose_key(x) in self._loose_lines for x in new_lines):
            return None
        if _ENDS_FLOW.match(body[-1].strip()) or (
            Indel.normalized_similarity(loose_key(new_lines[0]), loose_key(body[-1]))
            >= CHANGED_COPY
        ):
            return None
        head = "\n".join(self.lines[first : last_marker + 1]) + "\n"
        try:
            merged_text = self.merge_lines(
                "".join(self.file_lines[header_start : b.close + 1]), head
            )
            merged = [x.rstrip("\r\n") for x in split_lines(merged_text)]
        except NoChange:
            merged = self.bare[header_start : b.close + 1]
        except (NoMatch, Ambiguous):
            return None
        if not merged or merged[-1] != self.bare[b.close]:
            return None
        moved = self._reindent_from(added, self.lines[s.start], self.bare[header_start])
        # At the body's indentation, typed as the file types it (a model retyping tabs as
        # spaces here would leave the file mixed: not placed).
        body_indent = indent_of(body[-1])
        moved_new = [x for x in moved if x.strip()]
        if not body_indent or indent_of(moved_new[0]) != body_indent:
            return None
        for x in moved_new:
            extra = indent_of(x)[len(body_indent) :]
            if not x.startswith(body_indent) or set(extra) - set(body_indent):
                return None
        return merged[:-1] + moved + merged[-1:]

    def _last_marker(self, d: Item) -> int:
        """The snippet line of the last marker inside definition ``d`` (its comment lines
        above hold none: a marker is an item of its own)."""
        return max(i for i in range(d.first, d.last + 1) if self.marker[i])

    def _tail_ends_here(self, d: Item, b: Block) -> None:
        """A definition shown with a marker inside and new lines after it: the lines after the
        marker that the file has must not also end a later definition, or the marker may have
        left out this definition's end and the next one's start (a CSS rule, then the next
        rule's last declaration and '}'): which one the new lines end is not known."""
        last_marker = self._last_marker(d)
        tail = [x for x in self.lines[last_marker + 1 : d.last + 1] if x.strip()]
        have = {loose_key(x) for x in self.bare[b.open + 1 : b.close + 1] if x.strip()}
        context = [loose_key(x) for x in tail if loose_key(x) in have]
        if len(context) == len(tail) or not telling_lines(context):
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
        keys_old, keys_new = depth_keys(old), depth_keys(new)
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
                votes.setdefault(indent_of(new[j]), Counter())[indent_of(old[i])] += 1
        indents = {have: got.most_common(1)[0][0] for have, got in votes.items()}
        out = list(new)
        kept: set[int] = set()
        for i, j in pairs:
            if not new[j].strip() or indents[indent_of(new[j])] == indent_of(old[i]):
                out[j] = old[i]
                kept.add(j)
        for j, x in enumerate(new):
            if j not in kept and x.strip():
                have = indent_of(x)
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
        try:
            merged, _ = self.merge_within("".join(f_body), "\n".join(s_body) + "\n")
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

    def _shows_all_members(self, d: Item, b: Block, new: list[str], start: int) -> None:
        """A definition shown without markers replaces the file's: it must not leave out a
        member or many lines (a forgotten marker deletes them)."""
        assert d.block is not None
        lo = bisect.bisect_right(self._def_starts, b.open)
        hi = bisect.bisect_left(self._def_starts, b.close)
        members = blocks_within(self.file_defs[lo:hi], b)
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
        if gone:
            self._deletes_only_bounded(d, b, new, start)
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

    def _deletes_only_bounded(self, d: Item, b: Block, new: list[str], start: int) -> None:
        """The deletion rule (``lazy.unshown``) for a definition shown without markers: a
        line of the file's definition it leaves out goes only when shown lines bound it in
        its block (not the definition's header or closer: ``.title { color: #333; }`` does
        not empty the rule), or a changed copy replaces it."""
        old = self.bare[start : b.close + 1]  # from the header's first line the snippet shows
        ops = diff.opcodes([loose_key(x) for x in old], [loose_key(x) for x in new])
        dropped, replaced = unexplained_drops(old, new, ops)
        # The definition's header and closer are the shown ones, whatever the alignment of
        # its many alike lines ("}") paired them with.
        ends = {0, len(old) - 1} if loose_key(new[-1]) == loose_key(old[-1]) else {0}
        dropped = [r for r in dropped if r not in ends]
        if not dropped:
            return
        gone = {start + r for r in dropped}
        shown = [r for r in range(start, b.close + 1) if self.bare[r].strip() and r not in gone]
        kept = [start + r for t, a1, a2, _, _ in ops if t == "equal" for r in range(a1, a2)]
        rewrite = any(self.marker) and not partial_by_nature(self.syntax)
        problem = deletion_problem(
            self.bare,
            sorted(gone),
            shown,
            b.close + 1,
            names_declared(new),
            kept,
            {start + r for r in replaced},
            rewrite,
        )
        if problem is not None:
            assert d.block is not None
            raise Ambiguous(
                f"snippet line {d.first + 1}: shown without a marker, "
                f"{header_text(self.lines, d.block)[:60]!r} would delete lines of the file's "
                f"definition that it does not show: file {problem}. If they stay, put an "
                "'... existing code ...' marker where they are",
                lines=[min(gone) + 1],
                tier="lazy",
            )

    def _members_only(self, d: Item) -> bool:
        """Whether definition ``d`` shows, between its header and its end, nothing but whole
        member definitions (with the comment and decorator lines right above them) and
        blank lines."""
        s = d.block
        assert s is not None
        end = d.last + 1 if s.kind == "indent" else s.close
        inner = self._inner_items(d)
        if not inner:
            return False
        covered = {r for x in inner for r in range(x.first, x.last + 1)}
        for r in range(s.open + 1, end):
            line = self.lines[r]
            if not line.strip() or r in covered:
                continue
            nxt = next((j for j in range(r + 1, end) if self.lines[j].strip()), None)
            if (
                nxt is None
                or nxt not in covered
                or not leads_definition(line, r in self.shown.code)
            ):
                return False
            covered.add(r)  # a comment or decorator line above a member
        return True

    def _left_out_between(self, d: Item, b: Block) -> bool:
        """A member of the file's definition ``b`` that the snippet leaves out between two
        members it shows (in the file's order): the deletion rule would take it (shown on
        both sides), rule 2 would keep it (members not shown stay). Two readings."""
        lo = bisect.bisect_right(self._def_starts, b.open)
        hi = bisect.bisect_left(self._def_starts, b.close + 1)
        members = blocks_within(self.file_defs[lo:hi], b)
        shown = {x.key for x in self._inner_items(d)}
        rows = [k for k, c in enumerate(members) if self._key(c) in shown]
        return bool(rows) and any(
            self._key(c) not in shown for c in members[rows[0] : rows[-1] + 1]
        )

    def _inner_items(self, d: Item) -> list[Item]:
        """The definitions directly inside a shown definition, with their identities."""
        assert d.block is not None
        blocks = [
            b
            for b in blocks_within(definitions_of(self.lines, self.shown, self.syntax), d.block)
            if b.start > d.block.open and (b.close < d.block.close or d.block.kind == "indent")
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
