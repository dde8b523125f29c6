"""Unified diffs, read leniently: line numbers and counts are hints, never trusted.

Accepted: ``---``/``+++`` headers with or without ``a/`` ``b/`` and timestamps, ``/dev/null``
for creation and deletion, ``@@`` headers with wrong numbers or none at all, context lines that
lost their leading space, several files. Each hunk becomes a Replace of context+removed by
context+added, with the hunk's start in the new file as the line hint.

git's extended headers: paths C-quoted as git writes them (``"a/caf\\303\\251.py"``),
``rename from/to`` (a Move, with or without hunks), ``copy from/to`` (a copying Move, then the
hunks on the copy), ``old mode``/``new mode``/``new file mode`` (a Move with ``executable``,
onto the file itself when it stays), ``deleted file mode``, ``similarity index``, ``index``.
A symlink or submodule and a binary patch are refused, naming the file: the text of the rest
is never applied without it.

Without a ``diff --git`` line, differing old and new names are not a rename: as GNU patch
does, the file edited is the best of the two names (fewest components, then the shortest
base name, then the shortest name, then the old), so ``--- f.orig``/``+++ f`` edits ``f``.
"""

from __future__ import annotations

import re

from ..errors import FormatInvalid
from ..ir import Delete, Move, Op, Replace, Write
from .answer import fence, line_number
from .limits import check_count

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
    "rename from",
    "rename to",
    "rename old",  # git before 1.5 wrote these
    "rename new",
)
# git's C quoting: these letters after a backslash, or three octal digits (one byte).
_ESCAPES = {"a": 7, "b": 8, "t": 9, "n": 10, "v": 11, "f": 12, "r": 13, '"': 34, "\\": 92}
_QUOTED = re.compile(r'"((?:[^"\\]|\\.)*)"')
_BINARY = re.compile(r"^Binary files (.+) and (.+) differ\s*$")
_REGULAR, _EXECUTABLE = 0o100644, 0o100755


def is_file_header(lines: list[str], i: int) -> bool:
    return lines[i].startswith("--- ") and i + 1 < len(lines) and lines[i + 1].startswith("+++ ")


def is_start(lines: list[str], i: int) -> bool:
    """A unified diff file section starts at line ``i``."""
    return lines[i].startswith("diff --git ") or is_file_header(lines, i)


def unquote(body: str) -> str:
    """The path inside git's double quotes: escapes decoded, octal escapes as the bytes of the
    path (UTF-8; a byte that is not stands for itself, as Python spells file names)."""
    out = bytearray()
    k = 0
    while k < len(body):
        c = body[k]
        if c == "\\" and k + 1 < len(body):
            nxt = body[k + 1]
            if body[k + 1 : k + 4].isdigit() and len(body[k + 1 : k + 4]) == 3:
                out.append(int(body[k + 1 : k + 4], 8) & 0xFF)
                k += 4
                continue
            if nxt in _ESCAPES:
                out.append(_ESCAPES[nxt])
                k += 2
                continue
        out += c.encode("utf-8", "surrogateescape")
        k += 1
    return out.decode("utf-8", "surrogateescape")


def _path(raw: str) -> str:
    """A path as a header line writes it: C-quoted, or plain up to a tab (a timestamp)."""
    raw = raw.strip()
    m = _QUOTED.match(raw)
    if m:
        return unquote(m.group(1))
    return raw.split("\t")[0].strip().strip('"')


def _clean(raw: str, prefix: str, strip: int | None = None, line: int = 0) -> str | None:
    """A header's path: None for /dev/null; git's ``prefix`` (a/, b/) taken off, or with
    ``strip`` that many leading components (``-p N``)."""
    path = _path(raw)
    if path == "/dev/null":
        return None
    if strip is not None:
        return strip_components(path, strip, line)
    if path.startswith(prefix):
        path = path[len(prefix) :]
    return path


def strip_components(path: str, n: int, line: int) -> str:
    """``path`` without its first ``n`` components (``git apply -p N``, ``patch -pN``); a
    path with no more than ``n`` is ``format_invalid``: nothing would be left to name the
    file."""
    if n < 0:
        raise ValueError(f"strip must be 0 or more, not {n}")
    parts = [p for p in path.split("/") if p]
    if len(parts) <= n:
        raise FormatInvalid(
            f"line {line}: the path {path!r} has {len(parts)} component"
            f"{'s' if len(parts) != 1 else ''}, so stripping {n} (-p{n}) leaves no file "
            "name; use a smaller -p",
            line=line,
            expected=f"paths with more than {n} components",
        )
    return "/".join(parts[n:])


def _git_names(rest: str, strip: int | None = None, line: int = 0) -> tuple[str, str] | None:
    """The two paths of a ``diff --git`` line, either of them C-quoted: git's a/ and b/
    taken off, or with ``strip`` that many leading components."""
    if strip is not None:
        raw = _raw_git_names(rest.strip(), strip)
        if raw is None:
            return None
        return strip_components(raw[0], strip, line), strip_components(raw[1], strip, line)
    rest = rest.strip()
    names: list[str] = []
    while rest and len(names) < 2:
        m = _QUOTED.match(rest)
        if m:
            names.append(unquote(m.group(1)))
            rest = rest[m.end() :].lstrip()
        elif len(names) == 1 or not rest.endswith('"'):
            break
        else:  # a plain old name, a quoted new one
            m = re.search(r' ("(?:[^"\\]|\\.)*")$', rest)
            if m is None:
                break
            names.append(rest[: m.start()])
            rest = rest[m.start() :].lstrip()
    if len(names) == 1 and rest and not rest.startswith('"'):
        names.append(rest)
    if len(names) == 2:
        old, new = names
        if old.startswith("a/") and new.startswith("b/"):
            return old[2:], new[2:]
        return None
    # Both plain: a name with a space splits where the two halves name one file.
    half = (len(rest) - 1) // 2
    if (
        rest.startswith("a/")
        and rest[half : half + 3] == " b/"
        and rest[2:half] == rest[half + 3 :]
    ):
        return rest[2:half], rest[2:half]
    m = _GIT.match("diff --git " + rest)
    return (m.group(1), m.group(2)) if m else None


def _raw_git_names(rest: str, strip: int) -> tuple[str, str] | None:
    """The two names of a ``diff --git`` line as written: quoted ones decoded; two plain
    ones split at the space where both name the same file once ``strip`` components are
    gone (a rename has one space only)."""
    quoted = list(_QUOTED.finditer(rest))
    if quoted and quoted[0].start() == 0:
        first = unquote(quoted[0].group(1))
        tail = rest[quoted[0].end() :].strip()
        m = _QUOTED.fullmatch(tail)
        return first, unquote(m.group(1)) if m else tail
    m = re.search(r' ("(?:[^"\\]|\\.)*")$', rest)
    if m:
        return rest[: m.start()], unquote(m.group(1)[1:-1])
    spaces = [k for k, c in enumerate(rest) if c == " "]
    if len(spaces) == 1:
        return rest[: spaces[0]], rest[spaces[0] + 1 :]
    for k in spaces:
        old, new = rest[:k], rest[k + 1 :]
        if old.split("/")[strip:] == new.split("/")[strip:]:
            return old, new
    return None


def _best(old: str, new: str) -> str:
    """GNU patch's best of two names: fewest components, then the shortest base name, then
    the shortest name, then the first (the old)."""

    def rank(p: str) -> tuple[int, int, int]:
        parts = [x for x in p.split("/") if x]
        return len(parts), len(parts[-1]) if parts else 0, len(p)

    return new if rank(new) < rank(old) else old


def _inner(value: str, strip: int | None, line: int) -> str:
    """A 'rename from'/'copy to' path, with ``strip`` components taken off."""
    path = _path(value)
    return path if strip is None else strip_components(path, strip, line)


def _mode(line: str, i: int, path: str | None) -> int:
    """The mode a git header line ends with; a symlink or submodule is refused."""
    text = line.rsplit(None, 1)[-1]
    try:
        mode = int(text, 8)
    except ValueError:
        raise FormatInvalid(
            f"line {i + 1} ({line.strip()!r}) names no mode; git writes 100644 or 100755",
            line=i + 1,
            expected="a mode such as 100644 or 100755",
        ) from None
    kind = mode & 0o170000
    if kind != 0o100000:
        what = {0o120000: "a symbolic link", 0o160000: "a submodule"}.get(kind, "not a file")
        raise FormatInvalid(
            f"line {i + 1} ({line.strip()!r}) makes {path or 'the file'} {what}; applydiff "
            "writes regular files only, and nothing in this response was applied. Leave "
            "that file out of the patch, or change it another way",
            line=i + 1,
            expected="modes 100644 or 100755 only",
        )
    return mode


def _binary(line: str, i: int, path: str | None) -> FormatInvalid:
    m = _BINARY.match(line)
    if m and path is None:
        for raw, prefix in ((m.group(2), "b/"), (m.group(1), "a/")):
            path = _clean(raw, prefix)
            if path is not None:
                break
    return FormatInvalid(
        f"line {i + 1} ({line.strip()!r}) is a binary change to {path or 'a file'}; applydiff "
        "applies text only, so nothing in this response was applied. Send the binary file "
        "another way, or leave it out of the patch and send the rest again",
        line=i + 1,
        expected="text hunks only ('@@' lines), no binary files",
    )


def _is_binary(line: str) -> bool:
    return line.startswith("GIT binary patch") or bool(_BINARY.match(line))


def parse_file(
    lines: list[str], i: int, path: str | None = None, strip: int | None = None
) -> tuple[list[Op], int]:
    """One file's section starting at ``i`` (or bare hunks for ``path``) and the index after
    it. ``strip``: leading components taken off every path the headers name (``-p N``; None:
    git's a/ and b/)."""
    # git strips one component fewer from 'rename from'/'copy to' lines, which have no a/ b/.
    inner = None if strip is None else max(strip - 1, 0)
    start = i
    old_path = new_path = path
    renamed: tuple[str, str] | None = None
    copied: tuple[str, str] | None = None
    created = deleted = git = False
    old_mode = new_mode = file_mode = None
    if lines[i].startswith("diff --git "):
        git = True
        names = _git_names(lines[i][len("diff --git ") :], strip, i + 1)
        if names:
            old_path, new_path = names
        i += 1
        rename_from = rename_to = copy_from = copy_to = None
        while i < len(lines) and lines[i].startswith(_EXTENDED):
            line = lines[i]
            key = next(k for k in _EXTENDED if line.startswith(k))
            value = line[len(key) :].strip()
            if key in ("rename from", "rename old"):
                rename_from = _inner(value, inner, i + 1)
            elif key in ("rename to", "rename new"):
                rename_to = _inner(value, inner, i + 1)
            elif key == "copy from":
                copy_from = _inner(value, inner, i + 1)
            elif key == "copy to":
                copy_to = _inner(value, inner, i + 1)
            elif key == "new file mode":
                created = True
                file_mode = _mode(line, i, new_path)
            elif key == "deleted file mode":
                deleted = True
                file_mode = _mode(line, i, old_path)
            elif key == "old mode":
                old_mode = _mode(line, i, old_path)
            elif key == "new mode":
                new_mode = _mode(line, i, new_path)
            i += 1
        if rename_from and rename_to:
            renamed = (rename_from, rename_to)
            old_path, new_path = renamed
        if copy_from and copy_to:
            copied = (copy_from, copy_to)
            old_path, new_path = copied
        if i < len(lines) and _is_binary(lines[i]):
            raise _binary(lines[i], i, new_path or old_path)
    if i < len(lines) and is_file_header(lines, i):
        old_path = _clean(lines[i][4:], "a/", strip, i + 1)
        new_path = _clean(lines[i + 1][4:], "b/", strip, i + 2)
        created, deleted = old_path is None, new_path is None
        i += 2
    hunks = []
    # A hunk that quotes nothing to find it by is refused where it is, not after the rest
    # are read (a flood of empty hunks costs one).
    edited = not created and not deleted
    while i < len(lines) and lines[i].startswith("@@"):
        hunk, i = _hunk(lines, i)
        if edited and not hunk.old:
            raise _no_context(hunk)
        hunks.append(hunk)
        check_count(len(hunks), hunk.line)
    if i < len(lines) and _BINARY.match(lines[i]):
        # ``diff -r`` reports a binary file between text sections: the patch is incomplete.
        raise _binary(lines[i], i, None)
    if not git and old_path is not None and new_path is not None and old_path != new_path:
        old_path = new_path = _best(old_path, new_path)  # not a rename: GNU patch's choice
    target = new_path if old_path is None else old_path
    if target is None:
        raise FormatInvalid(
            f"the diff at line {start + 1} names no file ('/dev/null' on both sides)",
            line=start + 1,
            expected="a path on the '---' or '+++' line",
        )
    executable = None  # git writes 'new mode' only beside 'old mode', when they differ
    if old_mode is not None and new_mode is not None and (old_mode ^ new_mode) & 0o111:
        executable = bool(new_mode & 0o111)
    if created:
        text = "".join(h.new for h in hunks)
        ops: list[Op] = [Write(target, text, create=True, origin=start + 1)]
        if file_mode is not None and file_mode & 0o111:
            ops.append(Move(target, target, origin=start + 1, executable=True))
        return ops, i
    if deleted:
        ops = [Delete(target, origin=start + 1, shown="".join(h.old for h in hunks))]
        if file_mode is not None and file_mode & 0o111:
            # The executable bit goes first, so that the reverse (a creation) sets it again.
            ops.insert(0, Move(target, target, origin=start + 1, executable=False))
        return ops, i
    ops = []
    if copied:
        # The copy starts as its source; the hunks edit the copy.
        ops.append(Move(*copied, origin=start + 1, copy=True, executable=executable))
        target = copied[1]
        executable = None
    for h in hunks:
        ops.append(Replace(target, h.old, h.new, hint_line=h.hint, origin=h.line))
    if not copied and (
        renamed or (new_path is not None and old_path is not None and new_path != old_path)
    ):
        src, dst = renamed or (old_path, new_path)
        assert src is not None and dst is not None
        ops.append(Move(src, dst, origin=start + 1, executable=executable))
    elif executable is not None:
        ops.append(Move(target, target, origin=start + 1, executable=executable))
    if not ops:
        raise FormatInvalid(
            f"the diff for {target} at line {start + 1} has no hunks",
            line=start + 1,
            expected="'@@' hunks after the '---'/'+++' lines",
        )
    return ops, i


def _no_context(h: _Hunk) -> FormatInvalid:
    return FormatInvalid(
        f"the hunk at line {h.line} adds lines but quotes no context or removed lines, so "
        "there is nothing to find them by; include a few unchanged lines around the change",
        line=h.line,
        expected="context lines (starting with a space) in the hunk",
    )


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
