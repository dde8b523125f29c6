"""Where in a file an edit may match: below a scope line, below the previous edit, at the end.

apply_patch chunks carry this context (``@@ def f``, the order of chunks, ``*** End of File``);
the engine cuts the file at the region's first line and matches in the rest only.
"""

from __future__ import annotations

from collections.abc import Callable

from .match.normalize import chars, collapse, content, rstrip
from .text import count_lines, cr_ends_lines, line_texts, split_lines, to_lf

# Scope lines are compared ever more loosely; the first comparison that finds one wins.
_COMPARISONS: tuple[Callable[[str], str], ...] = (
    lambda x: x,
    rstrip,
    content,
    lambda x: collapse(chars(x)),
)


def line_start(text: str, line: int) -> int:
    """Offset where 0-based ``line`` starts (the text's length past the end)."""
    if line <= 0:
        return 0
    if cr_ends_lines(text):
        return sum(map(len, split_lines(text, True)[:line]))
    pos = 0
    for _ in range(line):
        nl = text.find("\n", pos)
        if nl < 0:
            return len(text)
        pos = nl + 1
    return pos


def find_line(text: str, wanted: str, first: int) -> int | None:
    """The 0-based number of the first line at or after ``first`` that reads ``wanted``."""
    lines = line_texts(text)[first:]
    for norm in _COMPARISONS:
        key = norm(wanted)
        if not key.strip():
            return None
        for i, line in enumerate(lines):
            if norm(line) == key:
                return first + i
    return None


def tail_top(text: str, old: str) -> int:
    """First line of the smallest tail of ``text`` that can hold ``old`` (and the blank lines
    that end the file)."""
    cr = cr_ends_lines(text)
    lines = line_texts(text, cr)
    blank = 0
    while blank < len(lines) and not lines[-1 - blank].strip():
        blank += 1
    return max(0, len(lines) - count_lines(to_lf(old, cr).strip("\n") + "\n", False) - blank)
