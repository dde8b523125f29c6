"""The tree as a model may see it: walking a directory under the policy, glob patterns, sizes.

:func:`walk` yields what lies under a directory of the root, depth first and sorted: what the
policy hides (the ignore rules, ``.git``, ``.applydiff``) is left out, and so is a link that
leads out of the root; a link to a directory inside is listed but not entered (no loops).
:func:`glob_match` reads a glob the way models write them: ``*`` and ``?`` within a name,
``**`` across directories, ``[abc]``, ``{a,b}``; a pattern without ``/`` matches a name at
any depth (``*.py``), one ending in ``/`` everything under that directory.
:func:`human_size` is a size as people read it.
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Iterator
from pathlib import Path

from ..errors import EditError
from ..policy import Policy

FIND_PATHS = 200  # paths per find_files answer
FIND_LINES = 100  # matching lines per find_files answer
LINE_CHARS = 200  # a matching line is cut to this many characters
TREE_LIMIT = 2000  # entries in one directory_tree / search_files answer


def walk(policy: Policy, key: str, where: Path, *, deep: bool = True) -> Iterator[tuple[str, bool]]:
    """``(key, is_dir)`` for everything under the directory ``where`` (whose key is ``key``,
    ``""`` for the root) that the policy lets the model see, depth first, names sorted;
    without ``deep``, only what is right under it."""
    try:
        entries = sorted(os.scandir(where), key=lambda e: e.name)
    except OSError:
        return
    for entry in entries:
        child = f"{key}/{entry.name}" if key else entry.name
        linked = entry.is_symlink()
        try:
            _, real = policy.resolve(child)  # a link out of the root is refused here
        except EditError:
            continue
        is_dir = real.is_dir()
        if not policy.allowed(child, is_dir):
            continue
        yield child, is_dir
        if deep and is_dir and not linked:
            yield from walk(policy, child, real)


@functools.lru_cache(maxsize=64)
def _compile(pattern: str) -> re.Pattern[str]:
    out, i = [], 0
    while i < len(pattern):
        c = pattern[i]
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
            continue
        if pattern.startswith("**", i):
            out.append(".*")
            i += 2
            continue
        if c == "*":
            out.append("[^/]*")
        elif c == "?":
            out.append("[^/]")
        elif c == "[" and (end := pattern.find("]", i + 2)) > 0:
            body = pattern[i + 1 : end]
            negated = body.startswith(("!", "^"))
            body = re.escape(body[1:] if negated else body).replace("\\-", "-")
            out.append(f"[{'^' if negated else ''}{body}]")
            i = end + 1
            continue
        elif c == "{" and (end := pattern.find("}", i)) > 0:
            choices = pattern[i + 1 : end].split(",")
            out.append("(?:" + "|".join(_compile(x).pattern[:-2] for x in choices) + ")")
            i = end + 1
            continue
        else:
            out.append(re.escape(c))
        i += 1
    return re.compile("".join(out) + r"\Z")


def glob_match(path: str, pattern: str) -> bool:
    """Whether ``path`` (relative, ``/`` separated) matches the glob ``pattern``; a pattern
    without ``/`` also matches the last name of the path."""
    pattern = pattern.strip().removeprefix("./")
    if not pattern:
        return True
    if pattern.endswith("/"):  # a directory: everything under it
        pattern += "**"
    if _compile(pattern).match(path):
        return True
    return "/" not in pattern.rstrip("/") and bool(_compile(pattern).match(path.rsplit("/", 1)[-1]))


def human_size(n: int) -> str:
    """``512 B``, ``1.50 KB``, ``3.25 MB``: powers of 1024."""
    if n < 1024:
        return f"{n} B"
    size = float(n)
    for unit in ("KB", "MB", "GB", "TB"):
        size /= 1024
        if size < 1024 or unit == "TB":
            break
    return f"{size:.2f} {unit}"
