"""Pieces of a model's answer that every text format reads: its lines, fences, path lines, block
bodies, line numbers."""

from __future__ import annotations

import re

from ..errors import FormatInvalid

_FENCE = re.compile(r"^\s*(`{3,}|~{3,})\s*([\w+#.-]*)\s*$")
# The HTML-like fences some tools ask for (aider's transcripts with Claude use <source>):
# an opening tag, perhaps with attributes (<code lang="python">) or a language word after it
# (<source>python), alone on its line; and the matching closing tag.
_TAGS = "source|sourcecode|code|codeblock|pre"
_TAG_OPEN = re.compile(rf"^\s*<({_TAGS})(?:\s[^<>]*)?>\s*[\w+#.-]*\s*$", re.IGNORECASE)
_TAG_CLOSE = re.compile(rf"^\s*</({_TAGS})>\s*$", re.IGNORECASE)
_LABEL = re.compile(r"^(?:file(?:name)?|path)\s*:\s*", re.IGNORECASE)
_PATHLIKE = re.compile(r"[\w@+~.,\-/\\\[\]()]+")
DOTLESS = frozenset(
    {
        "Makefile",
        "Dockerfile",
        "LICENSE",
        "README",
        "Procfile",
        "Gemfile",
        "Rakefile",
        "Jenkinsfile",
        "Vagrantfile",
        "CODEOWNERS",
        "Containerfile",
        "Justfile",
    }
)


# What a path line holds somewhere, whatever decorates it (path_of): most lines hold none,
# and this one search turns them away before the stripping.
_MAY_NAME = re.compile(r"[./\\]|" + "|".join(sorted(DOTLESS)))


def response_lines(text: str) -> list[str]:
    """The response split into lines; a CR before the LF is dropped (CRLF responses)."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if "\r" not in text:
        return lines
    return [x[:-1] if x.endswith("\r") else x for x in lines]


def fence(line: str) -> tuple[str, str] | None:
    """``(marker, language)`` when ``line`` opens or closes a code fence."""
    m = _FENCE.match(line)
    return (m.group(1), m.group(2)) if m else None


def tag_fence(line: str) -> bool:
    """Whether ``line`` opens or closes an HTML-like fence (``<source>python``, ``</code>``)."""
    return bool(_TAG_OPEN.match(line) or _TAG_CLOSE.match(line))


def path_of(line: str) -> str | None:
    """The path a line names, when the line is nothing but a path with decorations:
    ``src/a.py``, ``**src/a.py**``, ``# `src/a.py`:``, ``File: src/a.py``."""
    if not _MAY_NAME.search(line):
        return None
    s = line.strip()
    s = s.lstrip("#").strip()
    s = _LABEL.sub("", s)
    s = s.strip("*_ ").strip("`'\"").strip()
    s = s.rstrip(":").strip().strip("`'\"*")
    if not s or len(s) > 255 or not _PATHLIKE.fullmatch(s):
        return None
    if s.startswith(("<<<", "===", ">>>", "---", "+++", "@@")):
        return None
    if "." not in s and "/" not in s and "\\" not in s and s not in DOTLESS:
        return None
    if s.strip(".") == "" or s.replace(".", "").isdigit():
        return None
    return s


def body(lines: list[str]) -> str:
    """Block lines as text: each line ends with a newline; no lines is the empty string."""
    return "".join(x + "\n" for x in lines)


def line_number(digits: str, line: int, expected: str) -> int:
    """The line number ``digits`` written at ``line`` of the response. Past the digits int()
    reads (``sys.get_int_max_str_digits()``, 4,300 by default) it raises ValueError, which
    would escape every caller's error handling: that is ``format_invalid`` here."""
    try:
        return int(digits)
    except ValueError:
        raise FormatInvalid(
            f"line {line}: a line number of {len(digits)} digits is too long to read",
            line=line,
            expected=expected,
        ) from None


def unterminated(what: str, line: int, expected: str) -> FormatInvalid:
    return FormatInvalid(
        f"the {what} opened at line {line} is never closed: expected {expected}",
        line=line,
        expected=expected,
    )
