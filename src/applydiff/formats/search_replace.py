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
from collections.abc import Sequence

from ..errors import FormatInvalid
from ..ir import Replace, Splits
from .answer import body, fence, line_number, path_of, tag_fence, unterminated

HEAD = re.compile(r"^\s*<{5,9} ?SEARCH\s*$")
DIVIDER = re.compile(r"^\s*={5,9}\s*$")
TAIL = re.compile(r"^\s*>{5,9} ?REPLACE\s*$")
_NUMBER = re.compile(r"^\s*:(start|end)_line:\s*(\d+)\s*$")
_SEPARATOR = re.compile(r"^\s*-{5,9}\s*$")
# A content line can be a marker only when it starts, after blanks, with one of these.
_MAYBE_MARKER = re.compile(r"\s*[<>=\\:]")
_DIVIDER_TEXT = "======="
_TITLE = re.compile(r"[^\W_][\w ,.:'&-]*")  # a heading's words (no code punctuation)
_ESCAPED = re.compile(
    r"^(\s*)\\(<{5,9} ?SEARCH|={5,9}|>{5,9} ?REPLACE|-{5,9}|:(?:start|end)_line:)"
)


# Slips read where the block would otherwise fail: a stray '<' or '>' after a marker word.
_HEAD_SLIP = re.compile(r"^\s*<{5,9} ?SEARCH\s*[<>]\s*$")
_TAIL_SLIP = re.compile(r"^\s*>{5,9} ?REPLACE\s*[<>]\s*$")


def is_head(line: str, slips: bool = False) -> bool:
    """Whether ``line`` opens a block (with ``slips``, also ``<<<<<<< SEARCH>``)."""
    return bool(HEAD.match(line) or (slips and _HEAD_SLIP.match(line)))


def find_path(lines: list[str], head: int, stop: int) -> str | None:
    """The path named just above the block at ``head``: up to three lines back (not above
    ``stop``), past one fence opener (backticks, tildes or a tag such as ``<source>``) and
    blank lines."""
    seen = 0
    i = head - 1
    while i >= stop and seen < 3:
        line = lines[i]
        i -= 1
        if not line.strip():
            continue
        # Only a line holding one of these can be a fence (a flood of '@@' lines holds none).
        if ("`" in line or "~" in line or "<" in line) and (
            fence(line) or (line.lstrip()[:1] == "<" and tag_fence(line))
        ):
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
    slips: list[str] = []
    # A block opened by a slipped head ends at the next one too, so that a run of them
    # costs each only its own lines.
    slipped_head = not HEAD.match(lines[head])
    if slipped_head:
        slips.append(f"line {head + 1}: the stray character after '<<<<<<< SEARCH' was ignored")
    i = head + 1
    hint = end_hint = None
    numbered = False
    while i < len(lines) and (m := _NUMBER.match(lines[i])):
        numbered = True
        number = line_number(m.group(2), i + 1, "a line number such as ':start_line:12'")
        if m.group(1) == "start":
            hint = max(number, 1)  # lines count from 1; a hint of 0 means the top
        else:
            end_hint = number
        i += 1
    if i < len(lines) and (numbered or dialect) and _SEPARATOR.match(lines[i]):
        i += 1
    first = i  # content[k] is lines[first + k]
    content: list[str] = []
    dividers: list[int] = []  # indexes of the divider lines in content
    slipped_tail: int | None = None  # content index of the first '>>>>>>> REPLACE<' line
    while True:
        line = lines[i] if i < len(lines) else ""
        if i < len(lines) and not _MAYBE_MARKER.match(line):
            content.append(line)
            i += 1
            continue
        if i >= len(lines) or HEAD.match(line) or (slipped_head and _HEAD_SLIP.match(line)):
            # The block runs into the end or into the next block: read a slip if there is
            # one sensible reading, else refuse as before.
            closed = _slipped_end(lines, first, content, dividers, slipped_tail, i)
            if closed is not None:
                end, note = closed
                slips.append(note)
                del content[end - first :]
                dividers = [d for d in dividers if d < len(content)]
                i = end
                break
            if i >= len(lines):
                raise unterminated(
                    "SEARCH/REPLACE block", head + 1, "'=======' then '>>>>>>> REPLACE'"
                )
            raise FormatInvalid(
                f"line {i + 1} opens a new '<<<<<<< SEARCH' before the block opened at line "
                f"{head + 1} is closed with '>>>>>>> REPLACE'",
                line=i + 1,
                expected="'>>>>>>> REPLACE'",
            )
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
        if DIVIDER.match(line):
            dividers.append(len(content))
            content.append(_DIVIDER_TEXT)
        else:
            if slipped_tail is None and dividers and _TAIL_SLIP.match(line):
                slipped_tail = len(content)
            content.append(_ESCAPED.sub(r"\1\2", line))
        i += 1
    if not dividers:
        raise FormatInvalid(
            f"the SEARCH/REPLACE block at line {head + 1} has no '=======' line between the "
            "search and the replacement text",
            line=head + 1,
            expected="'======='",
        )
    literal: Sequence[tuple[str, str]] = ()
    stray = _stray_divider(content, dividers, lines[first + dividers[-1]])
    if stray is None:
        readings = _splits(content, dividers)
    else:
        # A second '=======' right after the first, or right before '>>>>>>> REPLACE': a
        # slip, unless the file holds such lines (then the engine tries the literal readings
        # too, and the file decides or the block is refused).
        literal = _splits(content, dividers)
        kept = content[:stray] + content[stray + 1 :]
        readings = _splits(kept, [d if d < stray else d - 1 for d in dividers if d != stray])
        slips.append(
            f"line {first + stray + 1}: a second '=======' was read as a stray divider, not "
            "a line of the file"
        )
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
        slips=tuple(slips),
        literal=literal,
    )
    return op, i + 1


CLOSED_BY_DIVIDER = "was read as the end of the block"


def _slipped_end(
    lines: list[str],
    first: int,
    content: list[str],
    dividers: list[int],
    slipped_tail: int | None,
    stop: int,
) -> tuple[int, str] | None:
    """Where a block that runs into ``stop`` (the next block's head, or the end) really
    ended, and a note saying which slip was read: a '>>>>>>> REPLACE' with a stray character,
    or a second '=======' written for '>>>>>>> REPLACE' and followed only by blank lines, a
    fence, or the next block. The returned line is the slipped closer's index."""
    if slipped_tail is not None:
        at = first + slipped_tail
        return at, f"line {at + 1}: the stray character after '>>>>>>> REPLACE' was ignored"
    if len(dividers) < 2:
        return None
    at = first + dividers[-1]
    for k in range(at + 1, stop):
        line = lines[k]
        if not line.strip():
            continue
        if fence(line) or tag_fence(line):
            break
        return None  # text after it: it may be a line of the replacement
    return at, f"line {at + 1}: '=======' {CLOSED_BY_DIVIDER} ('>>>>>>> REPLACE' was meant)"


def _stray_divider(content: list[str], dividers: list[int], underline: str) -> int | None:
    """The content index of a stray second divider: of two, one right after the other, or
    the second as the block's last line (right before '>>>>>>> REPLACE') unless it
    underlines a heading (``underline`` is that line as written)."""
    if len(dividers) != 2:
        return None
    a, b = dividers
    if b == a + 1:
        return b
    if b == len(content) - 1 and not _heading(content, a, b, len(underline.strip())):
        return b
    return None


def _heading(content: list[str], a: int, b: int, width: int) -> bool:
    """Whether the line above ``content[b]`` reads as a heading title it underlines: short
    words, after a blank line or first in the replacement (``a`` is the divider above)."""
    title = content[b - 1].strip()
    return (
        b - 1 > a
        and 0 < len(title) <= width
        and bool(_TITLE.fullmatch(title))
        and (b - 2 == a or not content[b - 2].strip())
    )


def _splits(lines: list[str], dividers: list[int]) -> Splits:
    """The readings of block ``lines`` split at each of its divider lines (``dividers``:
    their indexes, ascending)."""
    return Splits(body(lines), _offsets(lines, dividers), _DIVIDER_TEXT + "\n")


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
