"""OpenAI Codex's apply_patch format.

::

    *** Begin Patch
    *** Add File: docs/new.md
    +text
    *** Update File: src/app.py
    *** Move to: src/main.py
    @@ class App
     context
    -old
    +new
    *** End of File
    *** Delete File: old.txt
    *** End Patch

Marker lines may be padded with blanks; a heredoc wrapper (``apply_patch <<'EOF'``) or prose
around the patch is ignored. ``@@ scope`` lines narrow where the next chunk is searched (and
stack: ``@@ class A`` then ``@@ def f``); chunks of one file are searched in order, each below
the previous; ``*** End of File`` anchors a chunk at the end; a chunk of pure additions goes at
the end of the file; an updated file always ends with a newline. Add File on an existing path
overwrites it, as codex does.
"""

from __future__ import annotations

import re

from ..errors import FormatInvalid
from ..ir import Delete, Move, Op, Replace, Write
from .answer import body, unterminated
from .limits import check_count

BEGIN = "*** Begin Patch"
END = "*** End Patch"
EOF_MARK = "*** End of File"
_HEADER = re.compile(r"^\*\*\* (Add|Delete|Update) File:\s*(.*?)\s*$")
_MOVE = re.compile(r"^\*\*\* Move to:\s*(.*?)\s*$")


def is_start(line: str) -> bool:
    return line.strip() == BEGIN


def parse_patch(lines: list[str], i: int) -> tuple[list[Op], int]:
    """The patch whose ``*** Begin Patch`` is at ``i`` and the index after ``*** End Patch``."""
    begin = i
    i += 1
    ops: list[Op] = []
    while True:
        if i >= len(lines):
            raise unterminated("patch", begin + 1, f"'{END}'")
        s = lines[i].strip()
        if s == END:
            if not ops:
                raise FormatInvalid(
                    f"the patch at line {begin + 1} is empty: it changes no file",
                    line=begin + 1,
                    expected="'*** Add File:', '*** Update File:' or '*** Delete File:'",
                )
            return ops, i + 1
        if not s:
            i += 1
            continue
        m = _HEADER.match(s)
        if not m:
            what = "unknown header" if s.startswith("***") else "unexpected line"
            raise FormatInvalid(
                f"{what} at line {i + 1} of the patch ({s[:60]!r}); expected "
                "'*** Add File: PATH', '*** Update File: PATH', '*** Delete File: PATH' or "
                f"'{END}'",
                line=i + 1,
                expected="a file header",
            )
        kind, path = m.group(1), m.group(2)
        if not path:
            raise FormatInvalid(
                f"the '*** {kind} File:' header at line {i + 1} names no path",
                line=i + 1,
                expected="a path after the colon",
            )
        if kind == "Delete":
            ops.append(Delete(path, origin=i + 1))
            i += 1
        elif kind == "Add":
            header = i
            content, i = _added(lines, i + 1)
            ops.append(Write(path, content, origin=header + 1, added=True))
        else:
            update, i = _update(lines, i, path)
            ops.extend(update)
        check_count(len(ops), begin + 1)


def _is_section_end(s: str) -> bool:
    return s.startswith("***") and (s == END or bool(_HEADER.match(s)))


def _added(lines: list[str], i: int) -> tuple[str, int]:
    out: list[str] = []
    blanks = 0  # blank lines that lost their '+': content only if more content follows
    while i < len(lines):
        raw = lines[i]
        s = raw.strip()
        if _is_section_end(s):
            break
        if raw.startswith("+"):
            out += [""] * blanks + [raw[1:]]
            blanks = 0
        elif raw == "":
            blanks += 1
        else:
            raise FormatInvalid(
                f"line {i + 1} of an '*** Add File:' section does not start with '+': "
                "every line of a new file is written as '+' and the line",
                line=i + 1,
                expected="'+' at the start of the line",
            )
        i += 1
    return body(out), i


class _Chunk:
    __slots__ = ("blanks", "eof", "line", "new", "old", "scope")

    def __init__(self, line: int, scope: list[str]) -> None:
        self.line = line
        self.scope = scope
        self.old: list[str] = []
        self.new: list[str] = []
        self.eof = False
        self.blanks = 0  # empty lines (lost their ' '): context only if the chunk goes on

    def add(self, tag: str, text: str) -> None:
        self.old += [""] * self.blanks
        self.new += [""] * self.blanks
        self.blanks = 0
        if tag != "+":
            self.old.append(text)
        if tag != "-":
            self.new.append(text)


def _update(lines: list[str], i: int, path: str) -> tuple[list[Op], int]:
    header = i
    i += 1
    to = None
    if i < len(lines) and (m := _MOVE.match(lines[i].strip())):
        to = m.group(1)
        if not to:
            raise FormatInvalid(
                f"the '*** Move to:' line at line {i + 1} names no path",
                line=i + 1,
                expected="a path after the colon",
            )
        i += 1
    chunks: list[_Chunk] = []
    cur: _Chunk | None = None
    while i < len(lines):
        raw = lines[i]
        s = raw.strip()
        if _is_section_end(s):
            break
        if s.startswith("@@"):
            scope = s[2:].strip()
            if cur is not None and not cur.old and not cur.new:
                if scope:
                    cur.scope.append(scope)  # stacked scopes: '@@ class A' then '@@ def f'
            else:
                cur = _Chunk(i + 1, [scope] if scope else [])
                chunks.append(cur)
                check_count(len(chunks), header + 1)
        elif s == EOF_MARK:
            if cur is None:
                raise FormatInvalid(
                    f"'{EOF_MARK}' at line {i + 1} ends no chunk",
                    line=i + 1,
                    expected="a chunk of ' ', '-', '+' lines before it",
                )
            cur.eof = True
        elif raw == "":
            if cur is not None:
                cur.blanks += 1
        elif raw[:1] in (" ", "-", "+"):
            if cur is None:
                cur = _Chunk(i + 1, [])
                chunks.append(cur)
            cur.add(raw[:1], raw[1:])
        else:
            what = "unknown header" if s.startswith("***") else "unexpected line"
            raise FormatInvalid(
                f"{what} at line {i + 1} in the update of {path} ({s[:60]!r}): lines of a "
                "chunk start with ' ' (context), '-' (removed) or '+' (added)",
                line=i + 1,
                expected="' ', '-' or '+' at the start of the line",
            )
        i += 1
    ops: list[Op] = []
    for k, c in enumerate(chunks):
        if not c.old and not c.new:
            continue
        ops.append(
            Replace(
                path,
                body(c.old),
                body(c.new),
                scope=tuple(c.scope),
                after_previous=k > 0,
                at_end=c.eof or not c.old,
                final_newline=True,
                origin=c.line,
            )
        )
    if to:
        ops.append(Move(path, to, origin=header + 2))
    if not ops:
        raise FormatInvalid(
            f"the '*** Update File: {path}' at line {header + 1} changes nothing",
            line=header + 1,
            expected="chunks of ' ', '-', '+' lines, or a '*** Move to:' line",
        )
    return ops, i
