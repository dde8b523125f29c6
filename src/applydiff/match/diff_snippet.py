"""A lazy snippet written with a diff's marks (issue 26): models mix the two forms, marking
added lines with ``+`` and removed ones with ``-`` between plain context lines and
``... existing code ...`` markers. Merged as it stands, the marks would be written into the
file; here each run between markers is read as a hunk without a header (the old text: its
context and removed lines; the new: its context and added lines) and placed by the matching
ladder, as a SEARCH/REPLACE edit is.

Models write the marks two ways: in front of the line's indentation (``+    x = 1``) or in
place of its first column (``+   x = 1`` for a 4-space line); some also put a space in front
of every context line, as a unified diff does. Which one a snippet uses is read from the file:
the way under which its removed lines (else its context lines, else the widths of its added
lines' indentation) are the file's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import Ambiguous, NoMatch
from ..text import split_lines
from . import replace_with_matches
from .elision import is_marker
from .lazy.shapes import indent_of

# The tiers that find text the file has as written, but for whitespace or a character's form
# (quotes, dashes): a hunk found only by a looser one holds lines that are not the file's.
SAME_TEXT = frozenset(("exact", "trailing_whitespace", "indentation", "whitespace", "characters"))

# A line a diff marks as added or removed: one "+" or "-" at the very start (not "--", a Lua
# or SQL comment, nor "->", "++", "+=", "-=").
DIFF_MARK = re.compile(r"^[+-](?![-+>=])")


@dataclass(frozen=True)
class DiffMerge:
    text: str
    start_line: int  # 1-based, of the first hunk's place
    end_line: int
    confidence: float
    hunks: int


def diff_marked(snippet: str, bare: list[str]) -> list[int]:
    """The 1-based lines of ``snippet`` that start with a diff's mark no line of the file
    (``bare``) starts with (a Markdown or YAML list starts with "-"): empty when it is not
    written as a diff."""
    found = [
        (k, x) for k, x in enumerate(snippet.split("\n"), 1) if x[:1] in "+-" and DIFF_MARK.match(x)
    ]
    if not found:
        return []
    marks = {
        c for c in {x[0] for _, x in found} if any(DIFF_MARK.match(y) and y[0] == c for y in bare)
    }
    return [k for k, x in found if x[0] not in marks]


def merge_diff_snippet(text: str, snippet: str, bare: list[str]) -> DiffMerge:
    """``text`` with the diff-marked lazy ``snippet`` applied hunk by hunk. Raises
    ``NoMatch`` / ``Ambiguous`` (a hunk the ladder cannot place for sure, or one with no old
    line to place it by). ``bare``: the file's lines, without their ends."""
    hunks = read_hunks(snippet, bare)
    confidence = 1.0
    first = last = 0
    for k, (old, new, line) in enumerate(hunks, 1):
        before = text
        try:
            text, matches = replace_with_matches(text, old, new, report=True)
        except NoMatch as e:
            e.args = (f"snippet lines from {line}, read as a diff's hunk: {e.args[0]}",)
            raise
        loose = [m for m in matches if m.tier not in SAME_TEXT]
        if loose:
            # A context line that is not the file's may be a change the model left unmarked
            # (or a slip): kept as the file has it, or written as shown? Two readings.
            raise Ambiguous(
                f"snippet lines from {line}, read as a diff's hunk: its context and removed "
                f"lines are not the file's as written (found only by the {loose[0].tier} "
                f"tier, at file line {loose[0].start_line}); a context line may hold a change "
                "without its '+'/'-' mark: mark every changed line, and copy the others as "
                "the file has them",
                lines=[loose[0].start_line],
                tier="lazy",
            )
        for m in matches:
            if m.tier in ("indentation", "whitespace") and _uneven(before, m.start_line, old):
                # Its lines indented each by another amount than the file's: the new lines'
                # indentation cannot be read from them.
                raise Ambiguous(
                    f"snippet lines from {line}, read as a diff's hunk: its context lines are "
                    f"indented unlike the file's at line {m.start_line}, each by another "
                    "amount, so the new lines' indentation is unclear; copy the context "
                    "lines with the file's indentation",
                    lines=[m.start_line],
                    tier="lazy",
                )
        if matches:
            confidence = min(confidence, *(m.confidence for m in matches))
            if k == 1:
                first = matches[0].start_line
            last = max(last, matches[-1].end_line)
    return DiffMerge(text, max(1, first), max(1, first, last), confidence, len(hunks))


def _uneven(text: str, start_line: int, old: str) -> bool:
    """The lines of ``old`` found at ``start_line`` of ``text`` (a tier that forgives
    whitespace) are shifted from the file's by more than one amount."""
    file_lines = [x.rstrip("\r\n") for x in split_lines(text)][start_line - 1 :]
    shifts = {
        indent_of(f) - indent_of(o)
        for o, f in zip(old.split("\n")[:-1], file_lines, strict=False)
        if o.strip() and f.strip()
    }
    return len(shifts) > 1


def read_hunks(snippet: str, bare: list[str]) -> list[tuple[str, str, int]]:
    """The snippet's runs between markers as ``(old, new, first snippet line)``."""
    lines = snippet.replace("\r\n", "\n").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    have = {x.rstrip() for x in bare}
    widths = {indent_of(x) for x in bare if x.strip()}
    # A blank line the model indents is the file's kind of blank line only if it has them.
    padded_blanks = any(x and not x.strip() for x in bare)
    marked = [bool(DIFF_MARK.match(x)) or x in ("+", "-") for x in lines]
    context = [
        x for x, m in zip(lines, marked, strict=True) if not m and x.strip() and not is_marker(x)
    ]
    # Context lines with a space in front of each, as a unified diff writes them.
    spaced = sum(x.startswith(" ") and x[1:].rstrip() in have for x in context)
    plain = sum(x.rstrip() in have for x in context)
    shift = spaced > plain
    runs: list[tuple[int, list[tuple[str, bool]]]] = []
    run: list[tuple[str, bool]] = []
    start = 1
    for k, (x, m) in enumerate(zip(lines, marked, strict=True), 1):
        if not m and is_marker(x):
            runs.append((start, run))
            run, start = [], k + 1
            continue
        run.append((x, m))
    runs.append((start, run))
    whole = [pair for _, r in runs for pair in r]
    default = _mode(whole, have, widths, None, shift)
    hunks: list[tuple[str, str, int]] = []
    for first, r in runs:
        mode = _mode(r, have, widths, default, shift)
        old: list[str] = []
        new: list[str] = []
        for x, m in r:
            if m:
                body = _strip(x, mode)
                if x[0] == "-":
                    old.append(body)
                else:
                    new.append(body if body.strip() or padded_blanks else "")
                continue
            body = x[1:] if shift and x.startswith(" ") else x
            if not body.strip() and not padded_blanks:
                body = ""  # a context blank line the model indented
            old.append(body)
            new.append(body)
        if not any(x.strip() for x in old + new):
            continue
        if not any(x.strip() for x in old):
            raise NoMatch(
                f"snippet lines from {first}, read as a diff's hunk, only add lines: nothing "
                "the file has says where they go; show the unchanged lines around them",
                closest=[],
            )
        old, new = _trim(old, new)
        hunks.append(("\n".join(old) + "\n", "\n".join(new) + "\n" if new else "", first))
    return hunks


_MODES = ("drop", "space", "pair")


def _strip(x: str, mode: str) -> str:
    """A marked line without its mark: dropped (``drop``), read as the first column of its
    indentation (``space``), or dropped with the space after it (``pair``: "+ x = 1")."""
    rest = x[1:]
    if not rest.strip():
        return rest
    if mode == "space":
        return " " + rest
    if mode == "pair" and rest.startswith(" "):
        return rest[1:]
    return rest


def _mode(
    run: list[tuple[str, bool]],
    have: set[str],
    widths: set[int],
    default: str | None,
    shift: bool,
) -> str:
    """How the marks of ``run`` are written: the reading under which its removed lines are
    the file's, else its added lines are indented as the context lines next to them and as
    the file indents; ``default`` on a tie (None: ``drop``)."""
    near: list[int | None] = []  # the width of the nearest context line to each line
    last: int | None = None
    for x, m in run:
        near.append(last)
        if not m and x.strip():
            last = indent_of(x)
    following: int | None = None
    for k in range(len(run) - 1, -1, -1):
        x, m = run[k]
        if near[k] is None:
            near[k] = following
        if not m and x.strip():
            following = indent_of(x)

    def score(mode: str) -> int:
        total = 0
        for (x, m), width in zip(run, near, strict=True):
            if not m:
                continue
            body = _strip(x, mode)
            if x[0] == "-":
                total += 1000 * (body.rstrip() in have)
            elif body.strip():
                total += (indent_of(body) in widths) + 10 * (indent_of(body) == width)
        return total

    # With a unified diff's context (a space first), a mark takes the first column: the
    # line follows it, right after or after one space more.
    modes = ("drop", "pair") if shift else _MODES
    scores = {mode: score(mode) for mode in modes}
    best = max(scores.values())
    top = [mode for mode in modes if scores[mode] == best]
    if default in top:
        return default
    return top[0]


def _trim(old: list[str], new: list[str]) -> tuple[list[str], list[str]]:
    """Blank lines that both sides start (end) with are the snippet's spacing around its
    markers, not lines to match."""
    while old and new and not old[0].strip() and not new[0].strip():
        old, new = old[1:], new[1:]
    while old and new and not old[-1].strip() and not new[-1].strip():
        old, new = old[:-1], new[:-1]
    return old, new


__all__ = ["DIFF_MARK", "DiffMerge", "diff_marked", "merge_diff_snippet", "read_hunks"]
