"""The deletion rule of lazy snippets (issue 26): a line of the file that the snippet does not
show is deleted only when the snippet shows lines on both sides of it inside its block with no
marker between (a header that opens the block, or a closer that ends it, bounds nothing), or
when a changed copy of it takes its place; and never when it declares a name that a line kept
after it still uses.

``unexplained_drops`` finds what an alignment of a snippet's lines with the file's deletes
without a changed copy in its stead; ``deletion_problem`` says why such a deletion is not
sure (None when the rule allows it). Both the line merge and the merge by definitions ask it.
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Collection, Iterable, Sequence

from ..outline import Syntax
from .shapes import bracket_balance, closes_block, indent_of, looks_changed, opens_block

Opcode = tuple[str, int, int, int, int]

# A header's end that leaves a block open (Python, YAML, shell, an arrow function).
_OPENS_AT_END = re.compile(r"(?::|\bthen|\bdo|=>|\\)\s*$")

# The head of a named definition, whose brackets may open on a later line
# (``interface DayProps`` / ``  extends Pick<``, ``private def run[T](``, ``pub fn f``).
_DEFINITION_HEAD = (
    r"^\s*(?:export\s+(?:default\s+)?)?(?:declare\s+)?(?:pub(?:\([\w:]+\))?\s+)?"
    r"(?:(?:abstract|public|private|protected|static|final|sealed|data|case|async|unsafe|"
    r"local|override|inline)\s+)*"
    r"(?:def|function|fn|func|class|struct|enum|type|interface|trait|impl|object|module|"
    r"namespace)\b"
)
_IS_DEFINITION_HEAD = re.compile(_DEFINITION_HEAD + r"\s*[A-Za-z_$<]")

# What a line declares: a variable (``const x =``, ``let mut x``, ``x := ``, ``int x =``,
# ``x = `` in Python), a function or a class. Attribute and index targets (``self.x =``,
# ``a[0] =``) declare nothing.
_DECLARES = (
    re.compile(r"^\s*([A-Za-z_]\w*)\s*:\s*[\w.\[\], |]+=(?!=)"),  # Python's "x: int = 0"
    re.compile(
        r"^\s*(?:export\s+)?(?:const|let|var|val|auto|static|final|local|my|our)\s+"
        r"(?:mut\s+|const\s+)?[\[{(]?\s*([A-Za-z_$][\w$]*)"
    ),
    re.compile(r"^\s*(?:[A-Za-z_][\w<>\[\],:*&\s]*\s+[*&]?)?([A-Za-z_$][\w$]*)\s*(?::=|=(?!=))"),
    re.compile(_DEFINITION_HEAD + r"\s+([A-Za-z_$][\w$]*)"),
)
_WORD = re.compile(r"[A-Za-z_$][\w$]*")
_KEYWORDS = frozenset(
    ("return", "if", "else", "for", "while", "yield", "await", "throw", "function")
)


def unexplained_drops(
    old: Sequence[str], new: Sequence[str], opcodes: Iterable[Opcode]
) -> tuple[list[int], set[int]]:
    """Rows of ``old`` (not blank) the alignment ``opcodes`` of old against new deletes with
    no line of ``new`` in their stead that reads as a changed copy of them; and those of them
    that new lines stand in place of (the rest are deleted outright)."""
    out: list[int] = []
    replaced: set[int] = set()
    for tag, a1, a2, b1, b2 in opcodes:
        if tag == "delete":
            out += [a for a in range(a1, a2) if old[a].strip()]
        elif tag == "replace":
            rows = [
                a
                for a in range(a1, a2)
                if old[a].strip() and not any(looks_changed(new[b], old[a]) for b in range(b1, b2))
            ]
            out += rows
            replaced.update(rows)
    return out, replaced


def leaves_open(line: str) -> bool:
    """The line leaves a block open for the lines after it: what ``shapes.opens_block``
    reads (a last ``{``, ``(``, ``[``, a start tag), a bracket left open before other text,
    or a header's ``:`` (Python, YAML), ``then``, ``do``, ``=>``."""
    s = line.rstrip()
    return opens_block(s) or bracket_balance([s]) > 0 or bool(_OPENS_AT_END.search(s))


_CONTROL = re.compile(
    r"^(?:\}\s*)?(?:if|else|elif|elsif|for|foreach|while|do|switch|case|default|try|catch|"
    r"except|finally|with|match|loop|unless|until|when|select|begin|rescue|ensure|return|"
    r"yield|await|throw|raise|defer|go)\b"
)
_NAMED = re.compile(r"[A-Za-z_]")  # a bare "{" or "[" opens a literal, not a definition
_PY_HEADER = re.compile(r"^(?:async\s+)?(?:def|class)\b|^[\w.-]+:$")


# A method's name in a header with no keyword before it: the word before its parameters
# (``public boolean isEmpty() {``, ``void draw(int x) {``).
_CALLED = re.compile(r"([A-Za-z_$][\w$]*)\s*(?:<[^()]*>)?\s*\(")


def definition_name(line: str) -> str | None:
    """The name a definition's header (or a declaration) gives, if it reads as one."""
    name = declared(line)
    if name is None and defines(line):
        m = _CALLED.search(line)
        name = m.group(1) if m else None
    return name


def is_definition(line: str) -> bool:
    """The line is a definition's header: it opens the definition's block (``defines``) or
    starts with the keywords of one whose brackets open later."""
    return defines(line) or _IS_DEFINITION_HEAD.match(line) is not None


def keyword_definition(line: str) -> bool:
    """The line starts a definition with a keyword that says so (``def``, ``class``,
    ``function``, ``fn``, ``struct``, ...): a call that passes a block is never one."""
    return _IS_DEFINITION_HEAD.match(line) is not None


def defines(line: str) -> bool:
    """The line is the header of a definition (a function, a class, a rule, an element, a
    mapping key), not of a statement's block (``if``, ``for``, ``try``) nor a call's or a
    literal's brackets left open (``foo(``, ``[``, a key whose value follows)."""
    s = line.strip()
    if not _NAMED.search(s) or not leaves_open(s) or _CONTROL.match(s):
        return False
    if s.startswith("<") and opens_block(s):
        return True  # an element's start tag
    if s.endswith(":"):
        return bool(_PY_HEADER.match(s))
    return not s.endswith(("(", "[", ",", "\\")) and s[:1] not in "\"'`"


# How far up a closer's opener is looked for, and how many kept lines after a deleted
# declaration are read for a use of its name: bounded work on any file (past them, a use is
# not looked for).
_OPENER_REACH = 4000
USE_REACH = 2000


def opener_of(bare: Sequence[str], closer: int) -> int | None:
    """The row that opens the block ``bare[closer]`` ends: by brackets for a bracket, else
    the nearest row above at its indentation or left of it."""
    line = bare[closer]
    level = indent_of(line)
    balance = -bracket_balance([line])
    for r in range(closer - 1, max(-1, closer - _OPENER_REACH), -1):
        x = bare[r]
        if not x.strip():
            continue
        if balance > 0:
            balance -= bracket_balance([x])
            if balance <= 0:
                return r
        elif indent_of(x) <= level:
            return r
    return None


def deletion_problem(
    bare: Sequence[str],
    dropped: Sequence[int],
    shown: Sequence[int],
    after: int,
    fresh: Collection[str] = (),
    kept: Collection[int] | None = None,
    replaced: Collection[int] = (),
    rewrite: bool = False,
) -> str | None:
    """Why deleting rows ``dropped`` of the file ``bare`` is not sure, or None. ``shown``:
    the rows the snippet shows (kept, or changed in place), around them; ``after``: the end
    of the scope whose lines may still use a name a dropped line declares; ``fresh``: the
    names the snippet's new lines declare (a use of one of them is theirs); ``kept``: the
    shown rows kept as they are (the rest of ``shown`` changed: their uses are the snippet's;
    None: all); ``replaced``: the dropped rows the snippet shows new lines in place of.

    A header or an end bounds a deletion only where the snippet shows its definition whole
    but for it: no new line in its place, and at least twice as many of the definition's
    lines kept as the deletion takes (``whole_but``): the definition written out again
    with a line left out, not a part of it shown with the rest meant to stay. ``rewrite``: the
    snippet marks what it leaves out elsewhere, so a definition it shows from its header to
    its end without a marker is shown whole (rewritten): its header and end bound."""
    same = sorted(shown if kept is None else kept)
    rows = sorted(shown)
    gone = set(dropped)
    runs: list[list[int]] = []
    for r in sorted(gone):
        if runs and all(r2 in gone or not bare[r2].strip() for r2 in range(runs[-1][-1] + 1, r)):
            runs[-1].append(r)
        else:
            runs.append([r])
    for run in runs:
        k = bisect.bisect_left(rows, run[0])
        above = rows[k - 1] if k > 0 else None
        k = bisect.bisect_right(rows, run[-1])
        below = rows[k] if k < len(rows) else None
        level = min(indent_of(bare[r]) for r in run)
        quoted = bare[run[0]].strip()[:60]
        if above is None or below is None:
            return f"line {run[0] + 1} ({quoted!r}) is not shown on both sides"
        whole = (rewrite and _shown_to_end(bare, run, level, rows)) or (
            not any(r in replaced for r in run) and _whole_but(bare, run, level, same)
        )
        head = bare[above]
        if defines(head) and (indent_of(head) < level or leaves_open(head)) and not whole:
            return (
                f"line {run[0] + 1} ({quoted!r}) has only {head.strip()[:60]!r} above it, "
                "the header of its definition: a header does not say the lines after it go"
            )
        tail = bare[below]
        if indent_of(tail) <= level and bracket_balance([bare[r] for r in run]) <= 0:
            opener = opener_of(bare, below) if closes_block(tail) else None
            ends = opener is not None and opener < run[0] and defines(bare[opener])
            if (ends or (indent_of(tail) < level and defines(tail))) and not whole:
                return (
                    f"line {run[0] + 1} ({quoted!r}) has only {tail.strip()[:60]!r} below "
                    "it, where its definition ends: the end of a definition does not say "
                    "the lines before it go"
                )
        used = _used_after(bare, run, same[bisect.bisect_right(same, run[-1]) :], after, fresh)
        if used is not None:
            name, row = used
            return (
                f"line {run[0] + 1} ({quoted!r}) declares {name!r}, which line "
                f"{row + 1} kept after it still uses"
            )
    return None


def _shown_to_end(bare: Sequence[str], run: list[int], level: int, rows: list[int]) -> bool:
    """The snippet shows the run's block to its end: the block's last line (its closer, or
    its last line before the file comes back left of it) is a shown row."""
    last = None
    for r in range(run[-1] + 1, min(len(bare), run[-1] + _OPENER_REACH)):
        x = bare[r]
        if not x.strip():
            continue
        if indent_of(x) < level:
            if closes_block(x):
                last = r
            break
        last = r
    else:
        last = last if last is not None else run[-1]
    if last is None:
        return False
    k = bisect.bisect_left(rows, last)
    return k < len(rows) and rows[k] == last


def _whole_but(bare: Sequence[str], run: list[int], level: int, same: list[int]) -> bool:
    """The snippet keeps at least twice as many lines of the run's block (the rows at its
    level or deeper around it, up to the lines left of it) as the run has, and two or more."""
    need = max(2, 2 * sum(1 for r in run if bare[r].strip()))
    k = bisect.bisect_left(same, run[0])
    count = 0
    for r in reversed(same[:k]):  # above the run, while still in its block
        if indent_of(bare[r]) < level:
            break
        count += 1
    for r in same[k:]:
        if indent_of(bare[r]) < level:
            break
        count += 1
    return count >= need


def partial_by_nature(syntax: Syntax | None) -> bool:
    """A stylesheet's rule or a markup element shown with some of its declarations or
    children shows those only (a property is set, an element added), whatever else the
    snippet marks."""
    return syntax is not None and (syntax.tags or syntax.name in ("css", "scss"))


def declared(line: str) -> str | None:
    """The name ``line`` declares, if it reads as a declaration (a line that goes on with a
    comma is a named argument or a field of a literal: ``verbose = true,``)."""
    if line.rstrip().endswith(","):
        return None
    for pattern in _DECLARES:
        m = pattern.match(line)
        if m and m.group(1) not in _KEYWORDS:
            return m.group(1)
    return None


def names_declared(lines: Iterable[str]) -> frozenset[str]:
    """The names ``lines`` declare."""
    return frozenset(n for x in lines if (n := declared(x)) is not None)


def _used_after(
    bare: Sequence[str], run: list[int], kept: Sequence[int], after: int, fresh: Collection[str]
) -> tuple[str, int] | None:
    """A name a row of ``run`` declares and a kept row after it (``kept``, then the file up to
    row ``after``) uses: the first such name and row. A name the lines above the run
    declare too (or the header of its block names: a parameter) is only assigned again
    there: its uses do not hang on the run."""
    names = {n for r in run if (n := declared(bare[r])) is not None} - set(fresh)
    if names:
        names -= _declared_above(bare, run[0], min(indent_of(bare[r]) for r in run), names)
    if not names:
        return None
    rest = range(max(kept, default=run[-1]) + 1, after)
    for r in itertools.islice(itertools.chain(kept, rest), USE_REACH):
        x = bare[r]
        if not any(n in x for n in names):
            continue  # (a substring test first: most lines name none of them)
        words = set(_WORD.findall(x))
        hit = next((n for n in names if n in words), None)
        if hit is not None:
            return hit, r
    return None


def _declared_above(bare: Sequence[str], row: int, level: int, names: set[str]) -> set[str]:
    """Those of ``names`` that a line above ``row`` in its scope declares, or the line that
    opens the scope mentions."""
    found: set[str] = set()
    for r in range(row - 1, max(-1, row - USE_REACH), -1):
        x = bare[r]
        if not x.strip():
            continue
        if indent_of(x) < level:
            found |= names & set(_WORD.findall(x))  # the scope's header: its parameters
            if defines(x):
                break
            continue
        if any(n in x for n in names) and declared(x) in names:
            found.add(declared(x) or "")
    return found


__all__ = [
    "USE_REACH",
    "declared",
    "defines",
    "definition_name",
    "deletion_problem",
    "is_definition",
    "keyword_definition",
    "leaves_open",
    "names_declared",
    "opener_of",
    "partial_by_nature",
    "unexplained_drops",
]
