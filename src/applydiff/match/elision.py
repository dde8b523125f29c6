"""Elision markers: lines a model writes to stand for text it did not repeat.

``loose`` markers (a bare ``...`` too) are read as elisions only by the elision tier, after
every literal tier failed. ``strict`` markers (a comment saying "existing code", "rest of ...",
"unchanged") are never real code: one in the replacement that the search text and file lack
would delete text silently, so it is refused.
"""

from __future__ import annotations

import re

_OPEN = r"(?:#|//|/\*+|<!--|--|;+|%|'|\{/\*|\(\*|\"\"\"|''')"
_CLOSE = r"(?:\*+/|-->|\*/\}|\*\)|\"\"\"|''')"
_DOTS = r"(?:\.{3,}|…)"

# "...", "…", "# ...", "// ... existing code ...", "/* ... */", "<!-- ... -->", "{/* ... */}".
# Without a comment opener only bare dots count: "...   end=x)" is a doctest continuation.
_LOOSE = re.compile(
    rf"^\s*(?:{_DOTS}|{_OPEN}\s*{_DOTS}(?:\s+[^\n]*?)?\s*{_CLOSE}?)\s*$",
)
# A comment whose words say "code goes here": "// existing code", "# rest of file unchanged".
_NOUNS = (
    r"(?:code|file|implementation|methods?|functions?|logic|content|body|lines|imports|fields|"
    r"properties|tests|cases|config|class|module|component|definitions?|handlers?|props|styles)"
)
_STRICT = re.compile(
    rf"^\s*{_OPEN}\s*[\[(]?\s*(?:"
    rf"{_DOTS}\s*[\w(\[].*"
    rf"|(?:the\s+)?(?:existing|remaining|previous|other|unchanged|original)\s+{_NOUNS}\b.*"
    rf"|(?:the\s+)?rest\s+of\s+(?:the\s+)?{_NOUNS}\b.*"
    rf"|.*?\b(?:rest|everything\s+else|all\s+else|{_NOUNS})\s+"
    r"(?:is\s+|are\s+|stays?\s+|remains?\s+)?(?:unchanged|(?:the\s+)?same|as\s+before)\b.*"
    rf"|(?:code|lines?|implementation)\s+(?:omitted|elided|skipped)\b.*"
    rf")\s*{_CLOSE}?\s*$",
    re.IGNORECASE,
)


def is_marker(line: str) -> bool:
    """A line that may stand for elided text (only when it does not match the file literally)."""
    s = line.strip()
    if not s:
        return False
    if _LOOSE.match(s):
        # "...args," or "...rest" is JavaScript spread, not an elision: dots must stand alone
        # or be followed by a space and words.
        return not _spread(s)
    return bool(_STRICT.match(s))


def is_strict_marker(line: str) -> bool:
    """A comment line that can only mean "the existing code goes here"."""
    s = line.strip()
    if not s or _spread(s):
        return False
    return bool(_STRICT.match(s))


def _spread(s: str) -> bool:
    body = re.sub(rf"^{_OPEN}\s*", "", s)
    return bool(re.match(r"(?:\.{3})[A-Za-z_$\[{(]", body))
