"""Lines and blocks of a file: loose comparison keys, counting occurrences, indentation,
what makes a block worth editing, and how two blocks differ."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from difflib import SequenceMatcher

from rapidfuzz.distance import Levenshtein

from .langs import PY, Lang

MIN_BLOCK, MAX_BLOCK = 5, 20  # line counts of an edited block
MAX_LINE = 160  # the longest line a block worth editing has
TAB = "\t"  # one level of tab indentation
# Characters ``str.splitlines`` breaks at that are not line breaks to applydiff (issue 14).
ODD_BREAKS = ("\f", "\x0b", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029")
SMART_TO_ASCII = str.maketrans({"‘": "'", "’": "'", "“": '"', "”": '"'})
_BLANKS = re.compile(r"\s+")
BLANK_RUNS = re.compile(r"[ \t]+")


def loose(line: str) -> str:
    """Comparison key: smart quotes as ASCII, blank runs collapsed, ends stripped. Two blocks
    with equal keys are the same block to every tolerant tier, so uniqueness is checked on it."""
    return _BLANKS.sub(" ", line.translate(SMART_TO_ASCII)).strip()


def haystack(keys: Iterable[str]) -> str:
    return "\n" + "\n".join(keys) + "\n"


def occurrences(hay: str, needle: str, limit: int = 3) -> int:
    """Overlapping occurrences of ``needle`` in ``hay``, counted up to ``limit``."""
    n, p = 0, hay.find(needle)
    while p >= 0 and n < limit:
        n += 1
        p = hay.find(needle, p + 1)
    return n


def lead(line: str) -> str:
    return line[: len(line) - len(line.lstrip(" \t"))]


def indent_unit(lines: list[str]) -> str:
    tabs = sum(1 for x in lines if x.startswith("\t"))
    widths = Counter(len(lead(x)) for x in lines if x.startswith(" ") and x.strip())
    if tabs > sum(widths.values()):
        return "\t"
    return "  " if widths[2] > widths[4] else "    "


def is_code(line: str, lang: Lang = PY) -> bool:
    s = line.strip()
    return bool(s) and not s.startswith(lang.comment_lines)


def good_block(block: list[str], lang: Lang = PY) -> bool:
    """Worth editing: real code, some indentation, no blank or overlong edges."""
    if not block[0].strip() or not block[-1].strip():
        return False
    if any(len(x) > MAX_LINE for x in block):
        return False
    nonblank = sum(1 for x in block if x.strip())
    return (
        nonblank >= 0.6 * len(block)
        and sum(is_code(x, lang) for x in block) >= 3
        and any(lead(x) for x in block if x.strip())
    )


def unique(lines: list[str], start: int, size: int, count: int = 1) -> bool:
    """The block at ``start`` occurs exactly ``count`` times, as text and as loose keys."""
    block = lines[start : start + size]
    text = "\n".join(lines)
    if occurrences(text, "\n".join(block)) != count:
        return False
    return occurrences(haystack(map(loose, lines)), haystack(map(loose, block))) == count


def line_diff(a: list[str], b: list[str]) -> tuple[int, bool]:
    """How two blocks of loose keys differ, line by line after aligning them: the non-blank
    lines that differ (a line on one side only counts), and whether each of those is paired
    with a line at most two edits from it (what one-character typos make)."""
    differing, small = 0, True
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        xs, ys = a[i1:i2], b[j1:j2]
        for k in range(max(len(xs), len(ys))):
            x = xs[k] if k < len(xs) else None
            y = ys[k] if k < len(ys) else None
            if x is None or y is None:
                if x or y:
                    differing, small = differing + 1, False
            elif x or y:
                differing += 1
                # A one-character typo is up to two edits (a transposition is two).
                small = small and Levenshtein.distance(x, y) <= 2
    return differing, small


def token_change(a: str, b: str) -> str:
    """What differs between two versions of a line, for notes: ``'old' -> 'new'``."""
    p = 0
    while p < min(len(a), len(b)) and a[p] == b[p]:
        p += 1
    q = 0
    while q < min(len(a), len(b)) - p and a[-1 - q] == b[-1 - q]:
        q += 1
    return f"{a[p : len(a) - q]!r} -> {b[p : len(b) - q]!r}"
