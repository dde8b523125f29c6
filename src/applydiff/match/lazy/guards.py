"""The checks that refuse a placement that is not sure.

What cannot be placed for sure is refused, naming the segment: an anchor too common to tell
("}", "try {", "#endif"), new lines that look like a changed copy of the line next to them
(was it meant as an insertion or a change?), a one-sided segment whose other end the file has
elsewhere, new lines that open and close a different number of brackets, a line retyped with
other whitespace and added beside itself, a distinctive added line the file has elsewhere, or
a region that would delete many lines the segment does not show, drop a block line ("}",
"void b() {") at the segment's outer level, or change the bracket balance of what it
replaces.
"""

from __future__ import annotations

import difflib
import itertools
import re

from ...errors import Ambiguous, NoMatch
from ..outline import Syntax
from .blocks import closes_opened_block
from .heads import Index
from .placing import Placement, Placing
from .retype import retyped_copy
from .shapes import (
    OPENS,
    bracket_balance,
    closes_block,
    exact_key,
    indent_of,
    is_import,
    looks_changed,
    weak_or_thin,
)
from .unshown import (
    USE_REACH,
    declared,
    defines,
    definition_name,
    deletion_problem,
    is_definition,
    unexplained_drops,
)

# A region may delete at most this many lines the segment does not show, or twice the
# segment's length if more: past that, a marker was likely forgotten.
MAX_UNSHOWN_DELETE = 20
# A line this long (without its indentation) is taken to be written once in a file.
DISTINCTIVE = 20


def checked_region(placing: Placing, p: int, q: int) -> Placement:
    """The segment over file lines p..q, unless that deletes much more than it shows."""
    seg, name, bare = placing.seg, placing.name, placing.bare
    sk = placing.sk
    sm, same = placing.aligned(p, q)
    unshown = len(bare[p:q]) - len(same)
    kept = set(same.values())
    left = min(indent_of(x) for x in seg.lines if x.strip())
    outer = [
        r for r in range(p, q) if r not in kept and bare[r].strip() and indent_of(bare[r]) < left
    ]
    if outer:
        raise Ambiguous(
            f"{name}: placed at file lines {p + 1}-{q}, it would delete line {outer[0] + 1} "
            f"({bare[outer[0]].strip()!r}), which sits left of every line of the segment, in a "
            "block the segment does not show; add the lines around the change that make its "
            "place unique (one more line of context)",
            lines=[p + 1, outer[0] + 1],
            tier="lazy",
        )
    levels = {indent_of(x) for x in seg.lines if x.strip()}
    if len(levels) > 1:
        # A segment that shows a block (lines at several levels) keeps the block lines at
        # its outermost level ("}", "void b() {"): dropping one unshown cuts a block open.
        cut = [
            r
            for r in _dropped(sm, seg.lines, bare, p)
            if indent_of(bare[r]) <= min(levels)
            and (closes_block(bare[r]) or bare[r].rstrip().endswith(OPENS))
        ]
        if cut:
            raise Ambiguous(
                f"{name}: placed at file lines {p + 1}-{q}, it would delete line {cut[0] + 1} "
                f"({bare[cut[0]].strip()!r}), at the segment's outermost level, which it does "
                "not show; add the lines around the change that make its place unique (one "
                "more line of context)",
                lines=[p + 1, cut[0] + 1],
                tier="lazy",
            )
    if bracket_balance(bare[p:q]) != bracket_balance(seg.lines):
        raise Ambiguous(
            f"{name}: placed at file lines {p + 1}-{q}, it would leave a bracket open or "
            "closed that the file has there; add the lines around the change that make its "
            "place unique (one more line of context)",
            lines=[p + 1],
            tier="lazy",
        )
    no_unbounded_deletion(placing, sm, p, q)
    head = next((r for r in range(len(sk)) if same.get(r) != p + r), len(sk))
    tail = next((r for r in range(len(sk)) if same.get(len(sk) - 1 - r) != q - 1 - r), len(sk))
    weak = weak_or_thin(seg.lines[: max(head, 1)]) or (
        weak_or_thin(seg.lines[len(sk) - max(tail, 1) :])
        # A "}" that closes the block the head opens says where the deletion stops, when
        # the segment shows more of that block than it leaves out (else a marker was
        # likely forgotten before the "}").
        and not (unshown <= len(same) and closes_opened_block(bare, p, max(head, 1), q))
    )
    if weak and unshown > len(sk) - len(same):
        # A "}" or '"""' at an end tells nothing of where a deletion starts or stops.
        raise Ambiguous(
            f"{name}: placed at file lines {p + 1}-{q}, it would delete lines it does not "
            "show, and its first or last line is too common to tell where they are; add a "
            "distinctive unchanged line on each side (one more line of context)",
            lines=[p + 1],
            tier="lazy",
        )
    if unshown > MAX_UNSHOWN_DELETE and unshown > 2 * len(sk):
        raise Ambiguous(
            f"{name}: placed at file lines {p + 1}-{q}, it would delete {unshown} lines it does "
            "not show; if they stay, put an '... existing code ...' line where they are; if "
            "they go, delete them with an edit that quotes them",
            lines=[p + 1],
            tier="lazy",
        )
    return placing.placement_from(p, q, same)


def no_unbounded_deletion(placing: Placing, sm: difflib.SequenceMatcher, p: int, q: int) -> None:
    """The deletion rule (``unshown``): a line the segment leaves out of file lines p..q goes
    only when the segment shows lines on both sides of it in its block, or a changed copy of
    it, and it declares no name that a kept line after it uses (one the snippet's lines
    declare again is theirs)."""
    name, lines, bare = placing.name, placing.seg.lines, placing.bare
    swap = {"insert": "delete", "delete": "insert"}
    ops = [(swap.get(t, t), b1, b2, a1, a2) for t, a1, a2, b1, b2 in sm.get_opcodes()]
    region = bare[p:q]
    dropped, replaced = unexplained_drops(region, lines, ops)
    if not dropped:
        return
    gone = {p + r for r in dropped}
    shown = [r for r in range(p, q) if bare[r].strip() and r not in gone]
    end = scope_end(bare, q, region)
    kept = [p + b for t, b1, b2, _, _ in ops if t == "equal" for b in range(b1, b2)]
    problem = deletion_problem(
        bare,
        sorted(gone),
        shown,
        end,
        placing.declares,
        kept,
        {p + r for r in replaced},
        placing.rewrite,
    )
    if problem is not None:
        raise Ambiguous(
            f"{name}: placed at file lines {p + 1}-{q}, it would delete lines it does not "
            f"show: file {problem}. If those lines stay, put an '... existing code ...' "
            "marker where they are; if they go, show the unchanged lines on both sides of them",
            lines=[min(gone) + 1],
            tier="lazy",
        )


def scope_end(bare: list[str], q: int, region: list[str]) -> int:
    """The row after the file's lines past row ``q`` that are still in the scope of
    ``region`` (up to the first line left of its leftmost line)."""
    level = min((indent_of(x) for x in region if x.strip()), default=0)
    end, stop = q, min(len(bare), q + USE_REACH)  # no further than a use is looked for
    while end < stop and (not bare[end].strip() or indent_of(bare[end]) >= level):
        end += 1
    return end


def _dropped(sm: difflib.SequenceMatcher, lines: list[str], bare: list[str], p: int) -> list[int]:
    """The file rows (from ``p``) a placement deletes without a segment line in their stead:
    left out between matched lines, or beyond the lines that replace them (a line that
    comes back changed is shown, not dropped)."""
    out = []
    for tag, a1, a2, b1, b2 in sm.get_opcodes():
        if tag == "insert":
            out += [p + b for b in range(b1, b2) if bare[p + b].strip()]
        elif tag == "replace" and b2 - b1 > a2 - a1:
            out += [
                p + b
                for b in range(b1, b2)
                if bare[p + b].strip()
                and not any(looks_changed(lines[a], bare[p + b]) for a in range(a1, a2))
            ]
    return out


def no_weak_anchor(name: str, lines: list[str], which: str) -> None:
    """A segment held by one side only needs that side to be more than a ``}``, a blank or
    a few characters."""
    if weak_or_thin(lines):
        shown = ", ".join(repr(x.strip()) for x in lines[:3])
        raise NoMatch(
            f"{name}: its {which} lines ({shown}) are too common to place it by, and nothing "
            "on its other side is in the file; add a distinctive unchanged line on each side "
            "(one more line of context)",
            closest=[],
        )


def check_insertion(
    name: str, new: list[str], edge: str, bare: list[str], row: int, syntax: Syntax | None
) -> None:
    """New lines go beside file line ``row`` (0-based): after it for a segment held by its
    head, before it for one held by its tail; ``new`` holds the new lines from the one next
    to it outward, ``edge`` the segment's line at its open end. Inserting is refused, not
    guessed, when the new lines may as well replace that file line: the nearest reads like
    an edit of it, or it sits at the new lines' level (a marker after them does not tell:
    "the rest" may start with that line or after it) and could be that line rewritten."""
    if not 0 <= row < len(bare) or not bare[row].strip():
        return
    neighbour = bare[row]
    near = next((x for x in new if x.strip()), new[0] if new else "")
    changed = looks_changed(near, neighbour) and not other_definition(near, neighbour)
    same_level = indent_of(neighbour) >= indent_of(edge) and not _cannot_be_rewritten(
        new, neighbour, syntax
    )
    if changed or same_level:
        a, b = near.strip(), neighbour.strip()
        how = (
            f"looks like a changed copy of file line {row + 1} ({b!r})"
            if changed
            else f"stands where file line {row + 1} ({b!r}) is"
        )
        raise Ambiguous(
            f"{name}: its new line {a!r} {how}, and nothing on its open side shows whether "
            "it replaces that line or is added beside it; show the unchanged line there too "
            "(one more line of context)",
            lines=[row + 1],
            tier="lazy",
        )


_DOC_START = ("/**", "/*", "//", "#", '"""', "'''", "@", "<!--")


def other_definition(new: str, old: str) -> bool:
    """Two definitions' headers of two names: alike in shape (``public void clear() {``,
    ``public boolean isEmpty() {``), but the new one is not the file's renamed unless its
    body (behind the marker) went with it, which a snippet that does not show it cannot
    delete."""
    a, b = definition_name(new), definition_name(old)
    return a is not None and b is not None and a != b and is_definition(old)


def _cannot_be_rewritten(new: list[str], neighbour: str, syntax: Syntax | None) -> bool:
    """The new lines cannot be the file line beside them rewritten, so the marker past them
    keeps that line (issue 26): they are whole pieces (their brackets balance) where the
    file's line opens or closes a block (taking its place would unbalance the file), their
    first code line is an import and the file's line is none, or it declares a name where
    the file has a definition's header (or the comment or decorator above one) of another
    name, which its body, kept behind the marker, would lose."""
    code = next((x for x in new if x.strip() and not x.strip().startswith(_DOC_START)), None)
    if code is None:
        return False
    n = neighbour.strip()
    if bracket_balance([neighbour]) != 0 and bracket_balance(new) == 0:
        return True  # whole pieces in place of a line that opens or closes a block: no
    if syntax is not None and is_import(code, syntax) and not is_import(neighbour, syntax):
        return True
    name = declared(code)
    if name is None:
        return False
    if n.startswith(_DOC_START):
        return True
    if defines(n) and declared(neighbour) is None:
        return True
    return is_definition(n) and declared(neighbour) != name


def balanced_insertion(name: str, new: list[str]) -> None:
    """Lines inserted beside one anchor are a whole piece of code: as many brackets closed
    as opened. A "}" left over says they belong around an anchor the file has elsewhere."""
    if bracket_balance(new) != 0:
        raise Ambiguous(
            f"{name}: the lines it adds open and close a different number of brackets, so "
            "they are not a whole piece to insert beside its anchor; show the unchanged lines "
            "on both sides of the change (one more line of context)",
            lines=[],
            tier="lazy",
        )


def no_other_end_elsewhere(placing: Placing, line: str, p: int, q: int, which: str) -> None:
    """A segment held by one side (placed over rows p..q) whose other end, ``line`` (a
    telling line), the file has somewhere else below the cursor may be meant to go there:
    refused."""
    if weak_or_thin([line]):
        return
    rows = [
        r
        for r in placing.view.where.get(placing.keyf(line), [])
        if r >= placing.cursor and not p <= r < q
    ]
    if rows:
        raise Ambiguous(
            f"{placing.name}: it is placed by its {'first' if which == 'last' else 'last'} "
            f"lines at line {p + 1}, but its {which} line {line.strip()!r} is in the file at "
            f"line {rows[0] + 1}; show the unchanged lines on both sides of the change (one "
            "more line of context)",
            lines=[p + 1, rows[0] + 1],
            tier="lazy",
        )


def no_retyped_copy(name: str, placed: Placement, bare: list[str]) -> None:
    """New lines inserted beside a file line that they begin (or end) with, written with
    other whitespace: the model retyped that line, and inserting would write it twice."""
    lines, same = placed.lines, placed.same
    kept = [-1, *sorted(same), len(lines)]  # segment lines kept, between the two ends
    for i, j in itertools.pairwise(kept):
        new = [x for x in lines[i + 1 : j] if x.strip()]
        before = same.get(i, placed.start - 1)
        after = same.get(j, placed.end)
        if not new or after != before + 1:
            continue  # nothing added here, or it replaces file lines
        for row, line in ((after, new[0]), (before, new[-1])):
            if 0 <= row < len(bare) and retyped_copy(line, bare[row]):
                raise Ambiguous(
                    f"{name}: its line {line.strip()!r} is file line {row + 1} written with "
                    "other whitespace, and it would be added beside that line; copy the lines "
                    "around the change as the file has them",
                    lines=[row + 1],
                    tier="lazy",
                )


_KEYWORD_DECLARATION = re.compile(
    r"^\s*(?:export\s+)?(?:const|let|var|val|static|final|local|my|our)\s+[A-Za-z_$]"
)


def check_new_lines(name: str, placed: Placement, index: Index) -> None:
    """A line the placement adds that the file has, once, somewhere else (a distinctive line,
    not a ``return None``) means the segment was likely meant to stand there: refused."""
    where = index.view(False).where
    for i, line in enumerate(placed.lines):
        if i in placed.same:
            continue
        key = exact_key(line)
        rows = where.get(key, [])
        # A top-level definition's header or declaration is written once in a file, however
        # short (``class Config {``, ``const LIMIT = 10;``): added beside the file's, it is
        # likely the file's own, shown where the snippet does not mean it.
        telling = len(key.strip()) >= DISTINCTIVE or (
            not line[:1].isspace()
            and (is_definition(line) or _KEYWORD_DECLARATION.match(line) is not None)
            and not weak_or_thin([line])
        )
        if telling and len(rows) == 1:
            row = rows[0]
            if not placed.start <= row < placed.end:
                raise Ambiguous(
                    f"{name}: placed at file lines {placed.start + 1}-{placed.end}, it would "
                    f"add {key.strip()!r}, which the file has at line {row + 1}; if the snippet "
                    "means that place, show the lines around it there (one more line of "
                    "context)",
                    lines=[placed.start + 1, row + 1],
                    tier="lazy",
                )
        _declared_twice(name, line, placed, index.bare)


def _declared_twice(name: str, line: str, placed: Placement, bare: list[str]) -> None:
    """An added top-level declaration (``const handler = ...``, ``def f():``) of a name the
    file declares at its top level outside the placement: the file would declare it twice
    (the model rewrote the file's, shown where it does not stand). Refused."""
    if line[:1].isspace() or not (
        is_definition(line) or _KEYWORD_DECLARATION.match(line) is not None
    ):
        return
    declared_name = definition_name(line)
    if declared_name is None:
        return
    for row, x in enumerate(bare):
        if placed.start <= row < placed.end or x[:1].isspace() or declared_name not in x:
            continue
        if (is_definition(x) or _KEYWORD_DECLARATION.match(x) is not None) and definition_name(
            x
        ) == declared_name:
            raise Ambiguous(
                f"{name}: placed at file lines {placed.start + 1}-{placed.end}, it would "
                f"declare {declared_name!r}, which the file declares at line {row + 1}; if it "
                "changes that one, show it there with the lines around it",
                lines=[row + 1],
                tier="lazy",
            )
