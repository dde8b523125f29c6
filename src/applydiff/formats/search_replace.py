"""SEARCH/REPLACE blocks (aider style) and the apply_diff dialect (``:start_line:``).

::

    src/app.py
    ```python
    <<<<<<< SEARCH
    old lines
    =======
    new lines
    >>>>>>> REPLACE
    ```

The path is the line before the fence, or the first line inside it; a block without one
reuses the previous block's path. The apply_diff dialect adds ``:start_line:N`` /
``:end_line:N`` and a ``-------`` line after ``<<<<<<< SEARCH``; marker lines that belong to
the content are escaped with a backslash. A block with several ``=======`` lines can be split
more than one way: every split goes to the engine, which keeps the one that matches.
"""

from __future__ import annotations

import re

from ..errors import FormatInvalid
from ..ir import Replace, Splits
from .text import body, fence, line_number, path_of, unterminated

HEAD = re.compile(r"^\s*<{5,9} ?SEARCH\s*$")
DIVIDER = re.compile(r"^\s*={5,9}\s*$")
TAIL = re.compile(r"^\s*>{5,9} ?REPLACE\s*$")
_NUMBER = re.compile(r"^\s*:(start|end)_line:\s*(\d+)\s*$")
_SEPARATOR = re.compile(r"^\s*-{5,9}\s*$")
# A content line can be a marker only when it starts, after blanks, with one of these.
_MAYBE_MARKER = re.compile(r"\s*[<>=\\:]")
_DIVIDER_TEXT = "======="
_ESCAPED = re.compile(
    r"^(\s*)\\(<{5,9} ?SEARCH|={5,9}|>{5,9} ?REPLACE|-{5,9}|:(?:start|end)_line:)"
)


def is_head(line: str) -> bool:
    return bool(HEAD.match(line))


def find_path(lines: list[str], head: int, stop: int) -> str | None:
    """The path named just above the block at ``head``: up to three lines back (not above
    ``stop``), past one fence opener and blank lines."""
    seen = 0
    i = head - 1
    while i >= stop and seen < 3:
        line = lines[i]
        i -= 1
        if not line.strip():
            continue
        if fence(line):
            continue
        seen += 1
        found = path_of(line)
        if found:
            return found
        return None  # prose right above the block: not a path
    return None


def parse_block(
    lines: list[str],
    head: int,
    path: str,
    *,
    dialect: bool = False,
) -> tuple[Replace, int]:
    """The block whose ``<<<<<<< SEARCH`` is at ``head``, and the index after its last line.

    ``dialect`` reads a ``-------`` line after the head as the apply_diff separator even
    without line numbers.
    """
    i = head + 1
    hint = end_hint = None
    numbered = False
    while i < len(lines) and (m := _NUMBER.match(lines[i])):
        numbered = True
        number = line_number(m.group(2), i + 1, "a line number such as ':start_line:12'")
        if m.group(1) == "start":
            hint = number
        else:
            end_hint = number
        i += 1
    if i < len(lines) and (numbered or dialect) and _SEPARATOR.match(lines[i]):
        i += 1
    content: list[str] = []
    dividers: list[int] = []  # indexes of the divider lines in content
    while True:
        if i >= len(lines):
            raise unterminated("SEARCH/REPLACE block", head + 1, "'=======' then '>>>>>>> REPLACE'")
        line = lines[i]
        if not _MAYBE_MARKER.match(line):
            content.append(line)
            i += 1
            continue
        if TAIL.match(line):
            break
        if _NUMBER.match(line):
            section = "replacement" if dividers else "search text"
            raise FormatInvalid(
                f"line {i + 1} ({line.strip()!r}) stands in the {section} of the block opened "
                f"at line {head + 1}: a line number belongs on the line right after "
                "'<<<<<<< SEARCH' (then a '-------' line); if the file really holds this "
                f"line, escape it with a backslash ('\\{line.strip()}')",
                line=i + 1,
                expected="':start_line:N' only right after '<<<<<<< SEARCH'",
            )
        if HEAD.match(line):
            raise FormatInvalid(
                f"line {i + 1} opens a new '<<<<<<< SEARCH' before the block opened at line "
                f"{head + 1} is closed with '>>>>>>> REPLACE'",
                line=i + 1,
                expected="'>>>>>>> REPLACE'",
            )
        if DIVIDER.match(line):
            dividers.append(len(content))
            content.append(_DIVIDER_TEXT)
        else:
            content.append(_ESCAPED.sub(r"\1\2", line))
        i += 1
    if not dividers:
        raise FormatInvalid(
            f"the SEARCH/REPLACE block at line {head + 1} has no '=======' line between the "
            "search and the replacement text",
            line=head + 1,
            expected="'======='",
        )
    readings = Splits(body(content), _offsets(content, dividers), _DIVIDER_TEXT + "\n")
    old, new = readings[0]
    del end_hint  # a range end says nothing the search text does not
    op = Replace(
        path,
        old,
        new,
        hint_line=hint,
        hint_is_original=hint is not None,
        alternatives=readings[1:] if len(readings) > 1 else (),
        origin=head + 1,
    )
    return op, i + 1


def _offsets(lines: list[str], at: list[int]) -> list[int]:
    """Where the lines at the indexes ``at`` (ascending) start in ``body(lines)``."""
    out, pos, k = [], 0, 0
    for n, line in enumerate(lines):
        if k == len(at):
            break
        if n == at[k]:
            out.append(pos)
            k += 1
        pos += len(line) + 1
    return out
