"""Segments placed by what their one statement is, when none of their lines is in the file
(issue 26): a top-level statement with an assignment target the file assigns once is that
line changed (rule 7), and a body's new last statement that ends the flow (``return``,
``raise``, ``throw``) after a marker is the changed last statement of the definition the
segment before it is in (rule 8); a lone line between markers much like one file line only
is that line changed."""

from __future__ import annotations

import re
from collections.abc import Callable

from rapidfuzz.distance import Indel

from .placing import Placement, Placing
from .shapes import bracket_balance, exact_key, indent_of, loose_key, weak_lines
from .unshown import is_definition

# What a statement assigns: ``export default``, ``module.exports``, ``exports.x``, or a name
# (with its declaring keyword and type left out): ``const API = ...``, ``DEBUG: bool = ...``.
_EXPORT_DEFAULT = re.compile(r"^export\s+default\b")
_ASSIGNED_TO = (
    r"^(?:export\s+)?(?:(?:const|let|var|val|final|static|pub|local|readonly)\s+)*"
    r"([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)\s*(?::\s*[^=]+?)?\s*"
)
_ASSIGNED = re.compile(_ASSIGNED_TO + r"=(?![=>])")
# The same with a compound assignment too (``result += x``: it assigns ``result`` again).
_UPDATED = re.compile(_ASSIGNED_TO + r"[-+*/%|&^]?=(?![=>])")
_ENDS_FLOW = re.compile(r"^(return|raise|throw)\b")
# What can carry a statement past its brackets: a triple quote, a template literal.
_LITERAL_OPEN = re.compile(r'"""|\'\'\'|`')


def target(line: str) -> str | None:
    """What a statement line assigns (a call, ``x == y`` or a lambda assigns nothing)."""
    s = line.strip()
    if _EXPORT_DEFAULT.match(s):
        return "export default"
    m = _ASSIGNED.match(s)
    return m.group(1) if m else None


def updated(line: str) -> str | None:
    """The name or attribute path a line assigns, by ``=`` or a compound ``+=`` (a stripped
    line); None for any other line."""
    m = _UPDATED.match(line)
    return m.group(1) if m else None


def by_target(placing: Placing) -> Placement | None:
    """The segment is one top-level statement whose target the file assigns once, at the
    same indentation, below the cursor, in a statement of its own (``module.exports = {f}``
    for ``module.exports = {f, g}``): it takes that statement's place. None otherwise."""
    seg, bare = placing.seg.lines, placing.bare
    lines = [x for x in seg if x.strip()]
    if not lines or indent_of(lines[0]) or weak_lines(lines):
        return None
    name = target(lines[0])
    if name is None or not _one_statement(seg):
        return None
    rows = [
        r
        for r in range(placing.cursor, len(bare))
        if bare[r][:1].strip() and target(bare[r]) == name
    ]
    if len(rows) != 1:
        return None
    start = rows[0]
    end = _statement_end(bare, start)
    if end is None or is_definition(bare[start].strip()):
        return None  # (``export default function App() {``: a definition, not a statement)
    if end - start > 1 and len(lines) == 1:
        return None  # one line for a statement over several: what goes is not shown
    if not all(_whole_line(bare, r) for r in range(start, end)):
        return None
    return placing.placement_from(start, end, {})


def _whole_line(bare: list[str], row: int) -> bool:
    """File line ``row`` holds no string or line join that its brackets do not bound (a
    triple quote, a template literal, a backslash at its end)."""
    line = bare[row]
    return not _LITERAL_OPEN.search(line) and not line.rstrip().endswith("\\")


def _one_statement(lines: list[str]) -> bool:
    """Its brackets close only on its last non-blank line."""
    depth = 0
    body = [x for x in lines if x.strip()]
    for k, x in enumerate(body):
        depth += bracket_balance([x])
        if depth < 0 or (depth == 0 and k < len(body) - 1):
            return False
    return depth == 0


def _statement_end(bare: list[str], start: int) -> int | None:
    """The row after the statement that begins at ``start`` (its brackets closed)."""
    depth = 0
    for r in range(start, min(len(bare), start + 2000)):
        depth += bracket_balance([bare[r]])
        if depth <= 0:
            return r + 1 if depth == 0 else None
    return None


# How alike a lone changed line must be to the one file line it changes, and by how much
# more than to any other.
_LIKE = 0.75
_LIKE_MARGIN = 0.1


def by_likeness(placing: Placing, same_subject: Callable[[str, str], bool]) -> Placement | None:
    """The segment is one line between markers, not in the file, and much like exactly one
    file line below the cursor, of the same subject, clearly more than like any other
    (``setProperty(key, value, important ? "important" : "")`` given a constant for the
    string): it is that line changed. None otherwise."""
    lines = [x for x in placing.seg.lines if x.strip()]
    if len(lines) != 1 or len(placing.seg.lines) != 1 or weak_lines(lines):
        return None
    if not (placing.seg.open_before and placing.seg.open_after):
        return None
    line = lines[0].strip()
    bare = placing.bare
    scored = sorted(
        (
            (Indel.normalized_similarity(line, bare[r].strip()), r)
            for r in range(placing.cursor, len(bare))
            if bare[r].strip()
        ),
        reverse=True,
    )
    if not scored or scored[0][0] < _LIKE:
        return None
    best, row = scored[0]
    if len(scored) > 1 and scored[1][0] > best - _LIKE_MARGIN:
        return None
    if not same_subject(line, bare[row].strip()) or indent_of(lines[0]) != indent_of(bare[row]):
        return None
    if not _whole_line(bare, row):
        return None  # the file's line goes on below it: one line is not all it changes
    return placing.placement_from(row, row + 1, {})


def by_flow_end(placing: Placing) -> Placement | None:
    """The segment, after a marker, is a new statement that ends the flow (and the closers
    after it): it is the last statement of the definition the previous segment is in, and
    that statement, of the same kind, is the one it changes (``return y`` made
    ``return y * 2``). None otherwise."""
    seg, bare = placing.seg.lines, placing.bare
    if placing.cursor == 0 or not placing.seg.open_before:
        return None
    body = [x for x in seg if x.strip()]
    m = _ENDS_FLOW.match(body[0].strip()) if body else None
    if m is None or (len(body) > 1 and not weak_lines(body[1:])):
        return None
    if bracket_balance(body[:1]) != 0:
        return None  # a statement over several lines: not told apart here
    outline = placing.index.outline  # (read only now: scanning the file costs)
    if outline is None:
        return None
    block = outline.enclosing(placing.cursor - 1)
    if block is None:
        return None
    indented = block.kind == "indent"
    last = block.close if indented else block.close - 1
    while last > block.open and not bare[last].strip():
        last -= 1
    if last <= block.open or last < placing.cursor:
        return None
    there = bare[last].strip()
    if not there.startswith(m.group(1)) or indent_of(bare[last]) != indent_of(body[0]):
        return None
    if bracket_balance([bare[last]]) != 0 or exact_key(bare[last]) == exact_key(body[0]):
        return None
    # The closers it shows are the file's closers after that statement, in a row.
    closers = body[1:]
    end = last + 1 + len(closers)
    if [loose_key(x) for x in bare[last + 1 : end]] != [loose_key(x) for x in closers]:
        return None
    if len([x for x in seg if x.strip()]) != len(seg):
        return None  # blank lines among them: not one statement and its closers
    same = {1 + i: last + 1 + i for i in range(len(closers))}
    return placing.placement_from(last, end, same)


__all__ = ["by_flow_end", "by_likeness", "by_target", "target", "updated"]
