"""The pieces of a merge by definitions: the snippet's items, the edits they make, the
languages' import lines, and the reading of blocks shared by every step."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from ..outline import Block, Outline, Syntax, header_text, identity, scan

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
class Edit:
    """File lines ``start``..``end`` (exclusive) become ``lines`` (without terminators)."""

    start: int
    end: int
    lines: list[str]
    order: int = 0  # among insertions at one place, the snippet's order


@dataclass(frozen=True)
class StructuralResult:
    first_line: int  # 1-based lines of the file the merge touched
    last_line: int


def definition_names(
    lines: list[str], syntax: Syntax, outline: Outline | None = None
) -> Counter[str]:
    """How many definitions of each identity ``lines`` hold (named ones only)."""
    found = outline if outline is not None else scan(lines, syntax)
    names: Counter[str] = Counter()
    for b in definitions_of(lines, found, syntax):
        key = identity(header_text(lines, b), syntax, b.kind)
        if key:
            names[key] += 1
    return names


def definitions_of(lines: list[str], outline: Outline, syntax: Syntax) -> list[Block]:
    """The definitions of a text: per line, the block starting there that reaches furthest;
    a block on one line only when it is a definition (``.c { margin: 0; }``, ``function
    b() {}``), not a call or a literal."""
    return outermost(outline, lambda b: one_line_definition(lines, b, syntax))


_ONE_LINE_KINDS = re.compile(
    r"^(?:class|struct|enum|interface|trait|impl|fn|function|def|func|type|let|module) |:$"
)


def one_line_definition(lines: list[str], b: Block, syntax: Syntax) -> bool:
    if b.kind != "{" or b.start != b.open:
        return False
    if syntax.name in ("css", "scss"):
        return True
    return bool(_ONE_LINE_KINDS.search(identity(header_text(lines, b), syntax, b.kind)))


def outermost(outline: Outline, one_line: Callable[[Block], bool] | None = None) -> list[Block]:
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


def blocks_within(blocks: list[Block], outer: Block) -> list[Block]:
    """The blocks directly inside ``outer``'s body (an indented block ends with the last line
    of its last member)."""
    last = outer.close + 1 if outer.kind == "indent" else outer.close
    return outermost_of([b for b in blocks if outer.open < b.start and b.close < last])


def outermost_of(blocks: list[Block]) -> list[Block]:
    """The blocks no other of ``blocks`` holds, in one sweep (blocks nest or are apart)."""
    out: list[Block] = []
    reach = -1
    for b in sorted(blocks, key=lambda b: (b.start, -b.close)):
        if b.start > reach or b.close > reach:
            out.append(b)
            reach = max(reach, b.close)
    return out


def closes_at_its_level(lines: list[str], b: Block) -> bool:
    """A block whose closing line starts with its closer at the indentation of its first
    line (or that closes on its own line, or by indentation). A '}' deeper than the header
    closes an inner block whose opener a marker left out: the snippet's brackets do not
    say where this block ends."""
    if b.kind == "indent" or b.close == b.open:
        return True
    closer = lines[b.close]
    if not closer.lstrip().startswith(("}", ")", "]", "</")):
        return True
    return indent_of(closer) == indent_of(lines[b.start])


# What an import line takes from: JS "from 'x'" / require('x'), Python "from x import",
# Rust "use a::b::{...}".
_SOURCE = re.compile(
    r"""\bfrom\s+(['"])(?P<js>[^'"]+)\1|\brequire\(\s*(['"])(?P<req>[^'"]+)\3"""
    r"|^from\s+(?P<py>[\w.]+)\s+import\b|^use\s+(?P<rs>[\w:]+)::\{"
)


def import_source(line: str) -> str | None:
    m = _SOURCE.search(line.strip())
    if m is None:
        return None
    return next(g for g in (m.group("js"), m.group("req"), m.group("py"), m.group("rs")) if g)


# The names an import statement brings in: JS "import D, { a, b as c } from 'x'" and
# "const { a } = require('x')", Python "from x import a, b", Rust "use x::{a, b};".
_BRACED = re.compile(r"\{([^{}]*)\}")
_PY_NAMES = re.compile(r"^from\s+[\w.]+\s+import\s+\(?([^()]*)\)?\s*$")
_JS_DEFAULT = re.compile(r"^import\s+([\w$]+)\s*(?:,|from\b)")


def import_names(statement: str) -> list[str] | None:
    """The names ``statement`` imports, in its order; None where they are not read this way
    (a namespace import, a bare module)."""
    s = " ".join(statement.split())
    m = _PY_NAMES.match(s)
    if m:
        return [n.strip() for n in m.group(1).split(",") if n.strip()]
    braced = _BRACED.search(s)
    if braced is None:
        return None
    names = [n.strip() for n in braced.group(1).split(",") if n.strip()]
    default = _JS_DEFAULT.match(s)
    return ([default.group(1)] if default else []) + names


def add_names(statement: list[str], names: list[str]) -> list[str] | None:
    """``statement`` (its lines) with ``names`` added at the end of its list: inside its
    braces or parentheses, on its own line when it spans several; None when there is no
    list to extend."""
    if len(statement) == 1:
        line = statement[0]
        close = max(line.rfind("}"), line.rfind(")") if "(" in line else -1)
        if close < 0:
            if line.lstrip().startswith("from ") and " import " in line:
                body = line.rstrip()
                end = body[len(body.rstrip(";")) :]
                return [body.rstrip(";") + ", " + ", ".join(names) + end]
            return None
        head = line[:close].rstrip()
        gap = line[len(head) : close]
        joint = " " if head.endswith(",") else ", "
        return [head + joint + ", ".join(names) + gap + line[close:]]
    last = statement[-1]
    if not last.lstrip().startswith(("}", ")")):
        return None
    before = statement[-2]
    if not before.rstrip().endswith(","):
        return None
    indent = before[: len(before) - len(before.lstrip())]
    return [*statement[:-1], *(f"{indent}{n}," for n in names), last]


def context_runs(items: list[Item]) -> list[Item]:
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


def leads_definition(line: str, code: bool) -> bool:
    """Whether a line right above a definition is part of it: a comment (``code`` False:
    the outline read no code on it), a decorator or an attribute."""
    return not code or line.lstrip().startswith(("@", "#["))


def depth_keys(lines: list[str]) -> list[str]:
    widths = sorted({len(indent_of(x).expandtabs(8)) for x in lines if x.strip()})
    rank = {w: k for k, w in enumerate(widths)}
    return [
        f"{rank[len(indent_of(x).expandtabs(8))]}|{' '.join(x.split())}" if x.strip() else ""
        for x in lines
    ]


def telling_lines(lines: list[str]) -> list[str]:
    """The lines that say something (four word characters or more: not a lone '}')."""
    return [x for x in lines if len(re.sub(r"\W", "", x)) >= 4]


def indent_of(line: str) -> str:
    return line[: len(line) - len(line.lstrip(" \t"))]


def blanks_between(items: list[Item], a: Item | None, b: Item | None) -> list[str]:
    if a is None or b is None:
        return []
    lo, hi = (a, b) if a.first < b.first else (b, a)
    return ["" for x in items if lo.last < x.first < hi.first and x.kind == "blank"]
