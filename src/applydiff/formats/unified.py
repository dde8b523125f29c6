"""Unified diffs, read leniently: line numbers and counts are hints, never trusted.

Accepted: ``---``/``+++`` headers with or without ``a/`` ``b/`` and timestamps, ``/dev/null``
for creation and deletion, ``diff --git`` with ``rename from``/``rename to``, ``@@`` headers
with wrong numbers or none at all, context lines that lost their leading space, several files.
Each hunk becomes a Replace of context+removed by context+added, with the hunk's start in the
new file as the line hint.
"""

from __future__ import annotations

import re

from ..errors import FormatInvalid
from ..ir import Delete, Move, Op, Replace, Write
from .text import fence, line_number

_NUMBERS = re.compile(r"-(\d+)(?:,\d+)?(?:\s+\+(\d+)(?:,\d+)?)?")
_GIT = re.compile(r'^diff --git "?a/(.+?)"? "?b/(.+?)"?\s*$')
_EXTENDED = (
    "index ",
    "old mode",
    "new mode",
    "new file mode",
    "deleted file mode",
    "similarity index",
    "dissimilarity index",
    "copy from",
    "copy to",
)


def is_file_header(lines: list[str], i: int) -> bool:
    return lines[i].startswith("--- ") and i + 1 < len(lines) and lines[i + 1].startswith("+++ ")


def is_start(lines: list[str], i: int) -> bool:
    """A unified diff file section starts at line ``i``."""
    return lines[i].startswith("diff --git ") or is_file_header(lines, i)


def _clean(raw: str, prefix: str) -> str | None:
    path = raw.split("\t")[0].strip().strip('"')
    if path == "/dev/null":
        return None
    if path.startswith(prefix):
        path = path[len(prefix) :]
    return path


def parse_file(lines: list[str], i: int, path: str | None = None) -> tuple[list[Op], int]:
    """One file's section starting at ``i`` (or bare hunks for ``path``) and the index after
    it."""
    start = i
    old_path = new_path = path
    renamed: tuple[str, str] | None = None
    created = deleted = False
    if lines[i].startswith("diff --git "):
        m = _GIT.match(lines[i])
        if m:
            old_path, new_path = m.group(1), m.group(2)
        i += 1
        rename_from = rename_to = None
        while i < len(lines) and lines[i].startswith((*_EXTENDED, "rename from", "rename to")):
            line = lines[i]
            if line.startswith("rename from"):
                rename_from = line[len("rename from") :].strip()
            elif line.startswith("rename to"):
                rename_to = line[len("rename to") :].strip()
            elif line.startswith("new file mode"):
                created = True
            elif line.startswith("deleted file mode"):
                deleted = True
            i += 1
        if rename_from and rename_to:
            renamed = (rename_from, rename_to)
    if i < len(lines) and is_file_header(lines, i):
        old_path = _clean(lines[i][4:], "a/")
        new_path = _clean(lines[i + 1][4:], "b/")
        created, deleted = old_path is None, new_path is None
        i += 2
    hunks = []
    while i < len(lines) and lines[i].startswith("@@"):
        hunk, i = _hunk(lines, i)
        hunks.append(hunk)
    target = new_path if old_path is None else old_path
    if target is None:
        raise FormatInvalid(
            f"the diff at line {start + 1} names no file ('/dev/null' on both sides)",
            line=start + 1,
            expected="a path on the '---' or '+++' line",
        )
    if created:
        text = "".join(h.new for h in hunks)
        return [Write(target, text, create=True, origin=start + 1)], i
    if deleted:
        return [Delete(target, origin=start + 1)], i
    ops: list[Op] = []
    for h in hunks:
        if not h.old:
            raise FormatInvalid(
                f"the hunk at line {h.line} adds lines but quotes no context or removed lines, "
                "so there is nothing to find them by; include a few unchanged lines around "
                "the change",
                line=h.line,
                expected="context lines (starting with a space) in the hunk",
            )
        ops.append(Replace(target, h.old, h.new, hint_line=h.hint, origin=h.line))
    if renamed or (new_path is not None and old_path is not None and new_path != old_path):
        src, dst = renamed or (old_path, new_path)
        ops.append(Move(src, dst, origin=start + 1))
    if not ops:
        raise FormatInvalid(
            f"the diff for {target} at line {start + 1} has no hunks",
            line=start + 1,
            expected="'@@' hunks after the '---'/'+++' lines",
        )
    return ops, i


class _Hunk:
    __slots__ = ("hint", "line", "new", "old")

    def __init__(self, line: int, hint: int | None, old: str, new: str) -> None:
        self.line, self.hint, self.old, self.new = line, hint, old, new


def _hunk(lines: list[str], i: int) -> tuple[_Hunk, int]:
    header = lines[i]
    m = _NUMBERS.search(header.split("@@")[1] if header.count("@@") >= 2 else header[2:])
    hint = None
    if m:
        expected = "a hunk header such as '@@ -12,3 +12,4 @@'"
        hint = max(line_number(m.group(2) or m.group(1), i + 1, expected), 1)
    line_no = i + 1
    i += 1
    old: list[str] = []
    new: list[str] = []
    lost: list[int] = []  # positions of blank lines read as context (leading space lost)
    old_open = new_open = False  # "\ No newline at end of file" seen for that side
    last = ""
    while i < len(lines):
        line = lines[i]
        if (
            line.startswith(("@@", "diff --git ", "--- "))
            and (not line.startswith("--- ") or is_file_header(lines, i))
        ) or (("```" in line or "~~~" in line) and fence(line)):
            break
        tag = line[:1]
        if tag == " ":
            old.append(line[1:])
            new.append(line[1:])
        elif tag == "-":
            old.append(line[1:])
        elif tag == "+":
            new.append(line[1:])
        elif line == "":
            lost.append(len(old))
            old.append("")
            new.append("")
            tag = " "
        elif line.startswith("\\"):
            old_open = old_open or last in (" ", "-")
            new_open = new_open or last in (" ", "+")
            i += 1
            continue
        else:
            break  # prose after the diff
        last = tag
        i += 1
    # Blank lines at the very end are the response's spacing, not context.
    while lost and lost[-1] == len(old) - 1 and old and old[-1] == "" and new and new[-1] == "":
        lost.pop()
        old.pop()
        new.pop()
    old_text = "".join(x + "\n" for x in old)
    new_text = "".join(x + "\n" for x in new)
    if old_open and old_text:
        old_text = old_text[:-1]
    if new_open and new_text:
        new_text = new_text[:-1]
    return _Hunk(line_no, hint, old_text, new_text), i
