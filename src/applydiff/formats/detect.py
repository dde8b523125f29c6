"""Find every edit block of every format in a response, in order.

A chat answer mixes prose, shell snippets and edits in several dialects; one pass over its
lines recognizes where each block starts and hands it to that format's parser, which returns
the ops and where the block ended. Prose and unrelated fences are skipped.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from .. import names
from ..errors import FormatInvalid
from ..ir import Op, Replace
from . import apply_patch, patch_block, search_replace, snippet, tool_calls, unified
from .answer import fence, response_lines
from .landmarks import FENCE_CHARS, Landmarks
from .limits import check_count, check_size

FORMATS = names.FORMATS


def parse_text(
    text: str, format: str = "auto", path: str | None = None, strip: int | None = None
) -> list[Op]:
    """The ops of ``text`` read as ``format`` (``auto``: every format, blocks in order);
    ``strip`` leading components come off the paths of unified and git diffs (``-p N``)."""
    if format not in ("auto", *FORMATS):
        raise ValueError(f"unknown format {format!r}; expected auto or one of {FORMATS}")
    check_size(text)
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
    ops = scan(
        response_lines(text), only=only, path=path, dialect=format == "apply_diff", strip=strip
    )
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
        value = tool_calls.decode(s)
    except json.JSONDecodeError:
        return None
    return value if tool_calls.looks_like_calls(value) else None


def scan(
    lines: list[str],
    *,
    only: tuple[str, ...] | None = None,
    path: str | None = None,
    dialect: bool = False,
    strip: int | None = None,
) -> list[Op]:
    """Every block in ``lines`` of the formats in ``only`` (all when None), in order.

    ``path`` is the file for blocks that name none (a tool call's ``path`` argument);
    ``strip``: leading components taken off the paths a diff's headers name.
    """

    def allowed(name: str) -> bool:
        return only is None or name in only

    lazy_on, search_on, unified_on = allowed("lazy"), allowed("search_replace"), allowed("unified")
    ops: list[Op] = []
    retry: int | None = None  # index in ops of a block closed by '=======' (it may be retried)
    last_path = path
    floor = 0  # look-back for a block's path stops here (the end of the previous block)
    i = 0
    n = len(lines)
    marks = Landmarks(lines)
    nested = snippet.Nested(lines, marks) if lazy_on else None
    while (i := marks.next_start(i)) < n:
        line = lines[i]
        lead = line.lstrip()[:1]  # each format's opener has its own first character
        block: tuple[list[Op], int] | None = None
        if lead in FENCE_CHARS:
            # A fence inside another is part of an example (a README section shown in a
            # ````markdown block), not an edit of its own.
            if nested is None or i not in nested:
                if lazy_on:
                    block = snippet.parse_block(lines, i, floor, marks)
                if block is None and only is None:
                    block = _fenced_json(lines, i, marks)
        elif lead == "*":
            if allowed("apply_patch") and apply_patch.is_start(line):
                block = apply_patch.parse_patch(lines, i)
        elif lead == ">":
            if allowed("patch_block") and patch_block.is_start(line):
                block = patch_block.parse_block(lines, i)
            elif search_on and search_replace.TAIL.match(line):
                if i > 0 and _quoted(lines[i - 1]):
                    # '>' + '>>>>>>> REPLACE' of a block quoted back as '>text' lines (a
                    # tool echoing a failed edit): transcript, not an edit.
                    i += 1
                    continue
                raise FormatInvalid(
                    f"line {i + 1} closes a SEARCH/REPLACE block ('>>>>>>> REPLACE') that was "
                    "never opened with '<<<<<<< SEARCH'",
                    line=i + 1,
                    expected="'<<<<<<< SEARCH' before it",
                )
        elif lead == "<":
            exact = search_on and search_replace.is_head(line)
            if exact or (search_on and search_replace.is_head(line, slips=True)):
                # '<<<<<<< SEARCH>' opens a block only when the rest of it reads as one.
                block_path = search_replace.find_path(lines, i, floor) or last_path
                if block_path is None:
                    if not exact:
                        i += 1
                        continue
                    raise FormatInvalid(
                        f"the SEARCH/REPLACE block at line {i + 1} names no file: write the "
                        "path alone on the line before the block's fence (or before "
                        "'<<<<<<< SEARCH')",
                        line=i + 1,
                        expected="a file path on the line before the block",
                    )
                try:
                    op, end = search_replace.parse_block(lines, i, block_path, dialect=dialect)
                except FormatInvalid:
                    if exact:
                        raise
                    i += 1
                    continue
                last_path = block_path
                if retry is not None and _retries(ops[retry], op):
                    # The block closed by '=======' is followed by a corrected try of it.
                    note = (
                        f"the block at line {ops[retry].origin}, closed by '=======', gave way "
                        "to this retry of it"
                    )
                    del ops[retry]
                    op = dataclasses.replace(op, slips=(*op.slips, note))
                retry = len(ops) if _closed_by_divider(op) else None
                block = [op], end
        elif unified_on:
            if lead == "@":  # hunks with no header: for the path above them, or the call's
                if line.startswith("@@") and (
                    hunk_path := search_replace.find_path(lines, i, floor) or path
                ):
                    block = unified.parse_file(lines, i, hunk_path)
            elif unified.is_start(lines, i):
                block = unified.parse_file(lines, i, strip=strip)
        if block is None:
            i += 1
            continue
        start, (found, i) = i, block
        if lead != "<":
            retry = None
        ops.extend(found)
        check_count(len(ops), start + 1)
        floor = i
    return ops


def _quoted(line: str) -> bool:
    """A line of text quoted with a single '>' ('>>> file:' and markers are not)."""
    return line.startswith(">") and not line.startswith(">>")


def _closed_by_divider(op: Op) -> bool:
    return isinstance(op, Replace) and any(
        search_replace.CLOSED_BY_DIVIDER in note for note in op.slips
    )


def _retries(first: Op, op: Replace) -> bool:
    """Whether ``op`` is a retry of ``first``: the same file and the same search text."""
    return isinstance(first, Replace) and first.path == op.path and first.old == op.old


def _fenced_json(lines: list[str], i: int, marks: Landmarks) -> tuple[list[Op], int] | None:
    """Tool calls inside a ```json fence opening at ``i``, and the index after the fence."""
    opened = fence(lines[i])
    if not opened or opened[1] not in ("json", "JSON", ""):
        return None
    j = marks.closer(i, opened[0][0])
    if j is None:
        return None
    value = _json_calls("\n".join(lines[i + 1 : j]))
    if value is None:
        return None
    return tool_calls.parse_calls(value, _text_parser), j + 1
