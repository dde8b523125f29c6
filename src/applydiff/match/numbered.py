"""Search text copied with the line numbers of a numbered file read.

Models quote what a numbered read showed them, numbers included: applydiff's own
``read_file`` (``  12| text``), other tools' ``12 | text`` and ``12→text``, and ``cat -n``
(``    12<TAB>text``). A block whose every non-blank line carries such a prefix, with
consecutive numbers, is the file's lines: the prefixes go and the first number is a line hint.
The ladder tries this only after the literal tiers failed, so a file whose own lines start
with numbers is matched as it is first.
"""

from __future__ import annotations

import re

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
