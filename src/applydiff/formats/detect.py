"""Find every edit block of every format in a response, in order.

A chat answer mixes prose, shell snippets and edits in several dialects; one pass over its
lines recognizes where each block starts and hands it to that format's parser, which returns
the ops and where the block ended. Prose and unrelated fences are skipped.
"""

from __future__ import annotations

import json
from typing import Any

from ..errors import FormatInvalid
from ..ir import Op
from . import apply_patch, lazy, patch_block, search_replace, tool_calls, unified
from .text import fence, response_lines

FORMATS = (
    "search_replace",
    "apply_diff",
    "patch_block",
    "unified",
    "apply_patch",
    "tool_calls",
    "lazy",
)


def parse_text(text: str, format: str = "auto", path: str | None = None) -> list[Op]:
    """The ops of ``text`` read as ``format`` (``auto``: every format, blocks in order)."""
    if format not in ("auto", *FORMATS):
        raise ValueError(f"unknown format {format!r}; expected auto or one of {FORMATS}")
    if format in ("auto", "tool_calls"):
        calls = _json_calls(text)
        if calls is not None:
            return tool_calls.parse_calls(calls, _text_parser)
        if format == "tool_calls":
            raise FormatInvalid(
                "the text is not a JSON tool call (or list of them)",
                line=1,
                expected='{"name": ..., "arguments": {...}}',
            )
    only = (
        None if format == "auto" else ("search_replace",) if format == "apply_diff" else (format,)
    )
    ops = scan(response_lines(text), only=only, path=path, dialect=format == "apply_diff")
    if format != "auto" and not ops:
        raise FormatInvalid(
            f"no {format} block found in the text",
            line=1,
            expected=_OPENERS[format],
        )
    return ops


_OPENERS = {
    "search_replace": "'<<<<<<< SEARCH' blocks",
    "apply_diff": "'<<<<<<< SEARCH' blocks",
    "patch_block": "'>>> file: PATH' blocks",
    "unified": "'--- a/PATH' and '+++ b/PATH' lines, then '@@' hunks",
    "apply_patch": "'*** Begin Patch'",
    "tool_calls": "a JSON tool call",
    "lazy": "a fenced snippet with '... existing code ...' lines, after its file's path",
}


def _text_parser(text: str, format: str, path: str | None, dialect: bool) -> list[Op]:
    return scan(
        response_lines(text),
        only=(format,),
        path=path,
        dialect=dialect,
    )


def _json_calls(text: str) -> Any:
    s = text.strip()
    if not s.startswith(("{", "[")):
        return None
    try:
        value = json.loads(s)
    except json.JSONDecodeError:
        return None
    return value if tool_calls.looks_like_calls(value) else None


def scan(
    lines: list[str],
    *,
    only: tuple[str, ...] | None = None,
    path: str | None = None,
    dialect: bool = False,
) -> list[Op]:
    """Every block in ``lines`` of the formats in ``only`` (all when None), in order.

    ``path`` is the file for blocks that name none (a tool call's ``path`` argument).
    """

    def allowed(name: str) -> bool:
        return only is None or name in only

    ops: list[Op] = []
    last_path = path
    floor = 0  # look-back for a block's path stops here (the end of the previous block)
    i = 0
    n = len(lines)
    nested = lazy.nested_lines(lines) if allowed("lazy") else frozenset()
    while i < n:
        line = lines[i]
        if allowed("lazy") and (lazy_ops := lazy.parse_block(lines, i, floor, nested)) is not None:
            found, i = lazy_ops
        elif allowed("apply_patch") and apply_patch.is_start(line):
            found, i = apply_patch.parse_patch(lines, i)
        elif allowed("patch_block") and patch_block.is_start(line):
            found, i = patch_block.parse_block(lines, i)
        elif allowed("search_replace") and search_replace.is_head(line):
            block_path = search_replace.find_path(lines, i, floor) or last_path
            if block_path is None:
                raise FormatInvalid(
                    f"the SEARCH/REPLACE block at line {i + 1} names no file: write the path "
                    "alone on the line before the block's fence (or before '<<<<<<< SEARCH')",
                    line=i + 1,
                    expected="a file path on the line before the block",
                )
            op, i = search_replace.parse_block(lines, i, block_path, dialect=dialect)
            last_path = block_path
            found = [op]
        elif allowed("search_replace") and search_replace.TAIL.match(line):
            raise FormatInvalid(
                f"line {i + 1} closes a SEARCH/REPLACE block ('>>>>>>> REPLACE') that was never "
                "opened with '<<<<<<< SEARCH'",
                line=i + 1,
                expected="'<<<<<<< SEARCH' before it",
            )
        elif allowed("unified") and unified.is_start(lines, i):
            found, i = unified.parse_file(lines, i)
        elif (
            allowed("unified")
            and line.startswith("@@")
            and (hunk_path := search_replace.find_path(lines, i, floor) or path)
        ):
            found, i = unified.parse_file(lines, i, hunk_path)
        elif only is None and (json_ops := _fenced_json(lines, i)) is not None:
            found, i = json_ops
        else:
            i += 1
            continue
        ops.extend(found)
        floor = i
    return ops


def _fenced_json(lines: list[str], i: int) -> tuple[list[Op], int] | None:
    """Tool calls inside a ```json fence opening at ``i``, and the index after the fence."""
    opened = fence(lines[i])
    if not opened or opened[1] not in ("json", "JSON", ""):
        return None
    for j in range(i + 1, len(lines)):
        closed = fence(lines[j])
        if closed and closed[0].startswith(opened[0][:3]) and not closed[1]:
            value = _json_calls("\n".join(lines[i + 1 : j]))
            if value is None:
                return None
            return tool_calls.parse_calls(value, _text_parser), j + 1
    return None
