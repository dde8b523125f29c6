"""A definition the file does not have, put beside its neighbours in the snippet, with the
guards that tell a new definition from a changed copy of the file's."""

from __future__ import annotations

from rapidfuzz.distance import Indel

from ...errors import Ambiguous, NoMatch
from ..lazy.shapes import loose_key
from ..outline import header_text, identity
from .pieces import (
    CHANGED_COPY,
    CHANGED_ELEMENT,
    Edit,
    Item,
    blanks_between,
    indent_of,
    telling_lines,
)
from .state import State


class Inserting(State):
    def _insert(self, items: list[Item], k: int) -> Edit:
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
            gap = blanks_between(items, previous, d)
            return Edit(at, at, gap + self._shift(lead + body, before), order=d.first)
        if after is not None and not between_after:
            at = self._start_of(after)
            self._adjacent(items, k, at, header, before=True)
            self._not_a_changed_copy(d, at, -1)
            # Put before the file's blank lines there, which then stand between it and the
            # definition after it; before it, the blank lines the snippet shows.
            while at > 0 and not self.bare[at - 1].strip():
                at -= 1
            preceding = next((x for x in reversed(items[:k]) if x.kind != "blank"), None)
            gap = blanks_between(items, preceding, d)
            return Edit(at, at, gap + self._shift(lead + body, after), order=d.first)
        # At the ends of this scope only a definition at the scope's own level (not one of
        # markup's elements at a file's end, past its root).
        top_level = self._scope_level(d) and (self.inner or not self.syntax.tags)
        if before is None and after is None and top_level and not self._unplaced(items):
            self._not_like_any(d, lead)
            # Only markers (and blank lines) before it: it goes at the end; only markers after
            # it: at the top. Anything else shown on that side would say otherwise. Other
            # new definitions beside it go the same way, in the snippet's order (a run of
            # new methods after a leading marker).
            rest_before = {x.kind for x in items[:k] if not self._new(x)} - {"blank"}
            rest_after = {x.kind for x in items[k + 1 :] if not self._new(x)} - {"blank"}
            markers_before = rest_before == {"marker"}
            markers_after = rest_after == {"marker"}
            if not rest_before and not rest_after and not any(self.marker):
                after_kind = self._after_last_of_kind(d)
                if after_kind is not None:
                    row, blank_lines = after_kind
                    return Edit(row, row, [""] * blank_lines + lead + body, order=d.first)
            if markers_before and not rest_after:
                at = len(self.bare)
                while at > 0 and not self.bare[at - 1].strip():
                    at -= 1
                return Edit(at, at, ["", *lead, *body], order=d.first)
            if markers_after and not rest_before:
                at = self._after_imports()
                if at < len(self.bare) and not self.bare[at].strip():
                    at += 1  # after the blank line that ends the imports
                gap = [""] if at > 0 and self.bare[at - 1].strip() else []
                return Edit(at, at, gap + lead + body + [""], order=d.first)
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
        return bool(telling_lines(body)) and body == file_body[: len(body)]

    def _same_body(self, d: Item, r: int) -> bool:
        """Whether a new definition's body is mostly the body of the file's definition that
        starts at line ``r`` (an edited copy of it)."""
        body, found = self._bodies(d, r)
        file_body = found or []
        if d.open_end and body and body == file_body[: len(body)]:
            return True  # the snippet stops showing it: what it shows begins the file's
        telling = telling_lines(body)
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
        width = len(indent_of(self.lines[d.block.start]).expandtabs(8))
        return width == self._scope_indent

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

    @staticmethod
    def _new(x: Item) -> bool:
        """A definition of the snippet the file does not have."""
        return x.kind == "definition" and x.match is None

    def _after_last_of_kind(self, d: Item) -> tuple[int, int] | None:
        """Where a new definition goes that a markerless snippet shows with nothing the file
        has around it (issue 26, rule 3): after the file's last definition of its kind at
        its level (a ``fn`` after the last ``fn``, a ``def`` after the last ``def``), set
        apart by as many blank lines as that one is from what precedes it. None when the
        file has none of its kind there."""
        assert d.block is not None
        kind = _kind(identity(header_text(self.lines, d.block), self.syntax, d.block.kind))
        if not kind:
            return None
        level = [
            b
            for b in self.file_defs
            if len(indent_of(self.bare[b.start]).expandtabs(8)) == self._scope_indent
            and _kind(self._key(b)) == kind
        ]
        if not level:
            return None
        if any(self._same_body(d, b.start) for b in level):
            return None  # the body of one the file has: that one renamed, or a new one?
        last = max(level, key=lambda b: b.close)
        start = self._lead_start(last)
        gap = 0
        while start - gap > 0 and not self.bare[start - gap - 1].strip():
            gap += 1
        return last.close + 1, max(1, gap)

    def _unplaced(self, items: list[Item]) -> bool:
        return any(x.kind == "context" and not self._placed(x) for x in items)


def _kind(key: str) -> str:
    """The kind of definition an identity names: its first word (``fn``, ``class``,
    ``def``), or ``(`` for a C-like function named by its type and name (``three(``)."""
    if key.endswith("(") and " " not in key:
        return "("
    return key.split(" ")[0]
