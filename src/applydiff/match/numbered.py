"""Search text copied with the line numbers of a numbered file read.

Models quote what a numbered read showed them, numbers included: applydiff's own
``read_file`` (``  12| text``), other tools' ``12 | text`` and ``12→text``, and ``cat -n``
(``    12<TAB>text``). A block whose every non-blank line carries such a prefix, with
consecutive numbers, is the file's lines: the prefixes go and the first number is a line hint.
A block where only some lines carry a number (``1 | def f():``, ``    return x``, ``3 | }``),
each the number of its place in the block, or where every line carries the read's bar
without a number (``| def f():``), is read the same way (``strip_some_numbers``). The ladder
tries this only after the literal tiers failed, and keeps a reading only when a literal tier
finds it, so a file whose own lines start with numbers or bars is matched as it is first.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# A number, then the read's separator: a bar (spaces before it, one blank after), a tab
# (cat -n), or an arrow. Only spaces go before a bar or an arrow, so that "1<TAB>|" is
# cat -n showing a line "|".
_PREFIX = re.compile(r"[ \t]*(\d{1,9})(?: *[|│][ \t]?|\t| *→)")


def strip_numbers(text: str, *, consecutive: bool) -> tuple[str, int] | None:
    """``text`` without its line-number prefixes, and the number of its first line; None
    when a non-blank line has no prefix (blank lines may have lost theirs), or, with
    ``consecutive``, when the numbers do not count the lines one by one."""
    lines = text.split("\n")
    out: list[str] = []
    first: int | None = None
    for i, line in enumerate(lines):
        m = _PREFIX.match(line)
        if m is None:
            if line.strip():
                return None
            out.append(line)
            continue
        number = int(m.group(1)) - i  # the number the block's first line would have
        if first is None:
            first = number
        elif consecutive and number != first:
            return None
        out.append(line[m.end() :])
    if first is None:
        return None
    return "\n".join(out), first


# The forms ``strip_some_numbers`` reads: a number with a bar or an arrow (a tab after a
# number is too common in data to read on some lines only), or a bar alone.
_MARKED = re.compile(r"[ \t]*(\d{1,9})(?: *[|│][ \t]?| *→)")
_BAR = re.compile(r" *[|│](?: |$)")


@dataclass(frozen=True, slots=True)
class Partly:
    """A block read without the prefixes some of its lines carry."""

    text: str
    first: int | None  # the number of its first line, when a line had one
    bars: bool  # some line had a bar without a number


def strip_some_numbers(text: str) -> Partly | None:
    """``text`` without the read's prefixes where its lines have them: numbered lines whose
    numbers each count their place in the block (all from one first number), bars without a
    number. None when no line has a prefix, a number is out of place, or (no number at all)
    a non-blank line has no bar."""
    out: list[str] = []
    first: int | None = None
    bars = plain = 0
    for i, line in enumerate(text.split("\n")):
        if m := _MARKED.match(line):
            number = int(m.group(1)) - i
            if first is not None and number != first:
                return None
            first = number
            out.append(line[m.end() :])
        elif b := _BAR.match(line):
            bars += 1
            out.append(line[b.end() :])
        else:
            plain += bool(line.strip())
            out.append(line)
    if first is None and (not bars or plain):
        return None
    return Partly("\n".join(out), first, bars > 0)


def strip_prefixes(text: str, *, numbers: bool, bars: bool) -> str:
    """``text`` (a replacement) without the kinds of prefix its search text had, on every
    line that has one: its numbers count other lines than the search text's."""
    out = []
    for line in text.split("\n"):
        m = (_MARKED.match(line) if numbers else None) or (_BAR.match(line) if bars else None)
        out.append(line if m is None else line[m.end() :])
    return "\n".join(out)


def unnumbered(old: str, new: str | None) -> tuple[str, str | None, int | None] | None:
    """The search text and replacement without the prefixes of a numbered read, and the
    number of the search text's first line (None when it had bars only); None when the
    search text does not read as numbered."""
    whole = strip_numbers(old, consecutive=True)
    if whole is not None:
        if new is not None:
            # Lines the model added carry no number: the others still lose theirs.
            stripped = strip_numbers(new, consecutive=False)
            new = strip_prefixes(new, numbers=True, bars=False) if stripped is None else stripped[0]
        return whole[0], new, whole[1]
    partly = strip_some_numbers(old)
    if partly is None:
        return None
    if new is not None:
        new = strip_prefixes(new, numbers=partly.first is not None, bars=partly.bars)
    return partly.text, new, partly.first
