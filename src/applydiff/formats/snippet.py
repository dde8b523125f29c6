"""Lazy snippets in chat text: a fenced block of changed code whose unchanged parts are
``... existing code ...`` comment lines, for the file the block names.

::

    src/app.py
    ```python
    # ... existing code ...
    def run():
        return 2
    # ... existing code ...
    ```

The file is named on the line before the fence, in the fence's info string
(```` ```python:src/app.py ````, ```` ```src/app.py ````, ``path=src/app.py``), or by a first
line that is a comment holding only the path (``// src/app.ts``). A fence counts only when it
holds a strict marker line (a comment saying "existing code", "rest of the file", ...) and no
other edit format's markers; one without a file name is taken for an illustration, not an
edit.
"""

from __future__ import annotations

import re
from bisect import bisect_right

from ..ir import Lazy, Op
from ..match.elision import is_strict_marker
from .answer import path_of
from .landmarks import Landmarks
from .search_replace import find_path

_OPEN = re.compile(r"^\s*(`{3,}|~{3,})\s*(.*?)\s*$")
_INFO_PATH = re.compile(r"(?:^|[\s:])(?:path|file|title)=[\"']?([^\"'\s]+)", re.IGNORECASE)
_COMMENT_PATH = re.compile(r"^\s*(?://|#|--|;|<!--|/\*)\s*(\S+?)\s*(?:-->|\*/)?\s*$")
# The space before SEARCH and REPLACE is optional, as search_replace.HEAD and TAIL have it.
_OTHER_FORMATS = re.compile(
    r"^(?:<{5,9} ?SEARCH|={5,9}\s*$|>{5,9} ?REPLACE"
    r"|\*\*\* Begin Patch|--- \S|\+\+\+ \S|@@|>>> ?file:)"
)
# In chat text a marker must say the code is kept ("existing code", "rest of the file",
# "unchanged"): "# ... your code here" in an example is a placeholder, not an edit.
_KEPT_WORDS = re.compile(
    r"\b(?:existing|unchanged|rest|remaining|as before|previous|original|omitted|same|kept|keep)\b",
    re.IGNORECASE,
)
# Each word of _KEPT_WORDS holds one of these: an ASCII fence without any is no lazy snippet,
# found in one pass over its text instead of a regex per line (most fences hold SEARCH/REPLACE
# blocks or whole files). Not ASCII: the regex decides (its ignore-case reads 'ſ' as 's').
_KEPT_STEMS = (
    *("existing", "unchanged", "rest", "remaining", "previous", "original", "omitted"),
    *("same", "kept", "keep", "before"),
)


_STEMS = re.compile("|".join(_KEPT_STEMS))  # one search for them all


def _may_keep(inner: list[str]) -> bool:
    text = "\n".join(inner)
    if not text.isascii():
        return True
    return _STEMS.search(text.lower()) is not None


_NOT_CODE = frozenset(("diff", "patch", "udiff", "markdown", "md", "text", "txt", "console"))


class Nested:
    """The lines inside top-level fences: a fence there is part of an example (a README
    section shown in a ````markdown block), not an edit of its own."""

    def __init__(self, lines: list[str], marks: Landmarks) -> None:
        self._firsts: list[int] = []  # each top-level fence's first inner line
        self._ends: list[int] = []  # and its closing line
        after = 0  # openers before this line are inside the last top-level fence
        for i in marks.openers():
            if i < after:
                continue
            end = marks.fence_end(i)
            if end is not None:
                self._firsts.append(i + 1)
                self._ends.append(end)
                after = end + 1

    def __contains__(self, i: int) -> bool:
        k = bisect_right(self._firsts, i) - 1
        return k >= 0 and i < self._ends[k]


def parse_block(
    lines: list[str], i: int, floor: int, marks: Landmarks
) -> tuple[list[Op], int] | None:
    """The lazy op of the fence opened at line ``i`` and the line after it, or None when the
    fence is not a lazy snippet for a named file."""
    end = marks.fence_end(i)
    if end is None:
        return None
    inner = lines[i + 1 : end]
    if not _may_keep(inner) or not any(
        is_strict_marker(x) and _KEPT_WORDS.search(x) for x in inner
    ):
        return None
    if any(_OTHER_FORMATS.match(x.strip()) for x in inner):
        return None
    info = _OPEN.match(lines[i]).group(2)  # type: ignore[union-attr]
    language = info.split(":")[0].split()
    if language and language[0].lower() in _NOT_CODE:
        return None
    path = _path_from_info(info)
    if path is None and inner:
        m = _COMMENT_PATH.match(inner[0])
        if m and path_of(m.group(1)) and not is_strict_marker(inner[0]):
            path, inner = m.group(1), inner[1:]
    if path is None:
        path = find_path(lines, i + 1, floor)
    if path is None:
        return None
    snippet = "".join(x + "\n" for x in inner)
    return [Lazy(path, snippet, origin=i + 1)], end + 1


def _path_from_info(info: str) -> str | None:
    if not info:
        return None
    m = _INFO_PATH.search(info)
    if m:
        return m.group(1)
    words = info.split()
    if ":" in words[0]:  # ```python:src/app.py
        words[0] = words[0].split(":", 1)[1]
    for word in words[:2]:  # ```src/app.py, ```python src/app.py
        if ("/" in word or "." in word) and path_of(word):
            return path_of(word)
    return None
