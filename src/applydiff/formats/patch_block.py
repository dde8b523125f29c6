"""ApplyDiff patch blocks.

::

    >>> file: src/app.py | mode=patch | fuzz=0.85
    --- from
    old lines
    --- to
    new lines
    <

``mode=replace`` makes the ``--- to`` section the whole new file (``--- from`` may be left
out); ``fuzz`` sets the block's fuzzy threshold. A block may hold several from/to pairs.
"""

from __future__ import annotations

import re

from ..errors import FormatInvalid
from ..ir import Op, Replace, Write
from .answer import body, unterminated
from .limits import check_count

_HEAD = re.compile(r"^\s*>>> ?file:\s*(.*?)\s*$")
FROM = "--- from"
TO = "--- to"
CLOSE = "<"


def is_start(line: str) -> bool:
    return bool(_HEAD.match(line))


def _options(raw: str, line: int) -> tuple[str, str, float | None]:
    parts = [p.strip() for p in raw.split("|")]
    path, mode, fuzz = parts[0], "patch", None
    if not path:
        raise FormatInvalid(
            f"the '>>> file:' header at line {line} names no path",
            line=line,
            expected="'>>> file: PATH'",
        )
    for opt in parts[1:]:
        key, _, value = opt.partition("=")
        key, value = key.strip().lower(), value.strip()
        if key == "mode" and value in ("patch", "replace"):
            mode = value
        elif key == "fuzz":
            try:
                fuzz = float(value)
            except ValueError:
                fuzz = -1.0
            if not 0.0 < fuzz <= 1.0:
                raise FormatInvalid(
                    f"fuzz={value!r} at line {line} is not a number in (0, 1]",
                    line=line,
                    expected="fuzz=0.85 (a similarity between 0 and 1)",
                )
        else:
            raise FormatInvalid(
                f"unknown option {opt!r} in the '>>> file:' header at line {line}",
                line=line,
                expected="'mode=patch', 'mode=replace' or 'fuzz=0.85'",
            )
    return path, mode, fuzz


def parse_block(lines: list[str], i: int) -> tuple[list[Op], int]:
    """The block whose header is at ``i`` and the index after its closing ``<``."""
    head = i
    m = _HEAD.match(lines[i])
    assert m
    path, mode, fuzz = _options(m.group(1), i + 1)
    i += 1
    sections: list[tuple[str, int, list[str]]] = []  # (marker, line, lines)
    loose: list[str] = []  # lines before any marker
    while True:
        if i >= len(lines):
            raise unterminated("patch block", head + 1, f"a line '{CLOSE}'")
        line = lines[i]
        s = line.strip()
        if s == CLOSE:
            break
        if s in (FROM, TO):
            sections.append((s, i + 1, []))
            check_count(len(sections) // 2, head + 1)  # a from/to pair is one edit
        elif sections:
            sections[-1][2].append(line)
        else:
            loose.append(line)
        i += 1
    end = i + 1
    if mode == "replace":
        tos = [x for x in sections if x[0] == TO]
        content = tos[-1][2] if tos else loose
        return [Write(path, body(content), origin=head + 1)], end
    if loose and any(x.strip() for x in loose):
        raise FormatInvalid(
            f"line {head + 2}: the patch block for {path} must start with '{FROM}'",
            line=head + 2,
            expected=f"'{FROM}'",
        )
    ops: list[Op] = []
    k = 0
    while k < len(sections):
        marker, at, old = sections[k]
        if marker != FROM:
            raise FormatInvalid(
                f"'{TO}' at line {at} has no '{FROM}' section before it",
                line=at,
                expected=f"'{FROM}'",
            )
        if k + 1 >= len(sections) or sections[k + 1][0] != TO:
            raise FormatInvalid(
                f"the '{FROM}' section at line {at} is not followed by '{TO}'",
                line=at,
                expected=f"'{TO}'",
            )
        new = sections[k + 1][2]
        ops.append(Replace(path, body(old), body(new), threshold=fuzz, origin=at))
        k += 2
    if not ops:
        raise FormatInvalid(
            f"the patch block at line {head + 1} has no '{FROM}'/'{TO}' sections",
            line=head + 1,
            expected=f"'{FROM}', the old lines, '{TO}', the new lines",
        )
    return ops, end
