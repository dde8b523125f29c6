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
_COMMENT = re.compile(rf"^{_OPEN}\s*[\[(]?\s*")
# What the comment's words start with ("... skipped", "existing code", "rest of the file")...
_LEADS = re.compile(
    rf"{_DOTS}\s*[\w(\[]"
    rf"|(?:the\s+)?(?:existing|remaining|previous|other|unchanged|original)\s+{_NOUNS}\b"
    rf"|(?:the\s+)?rest\s+of\s+(?:the\s+)?{_NOUNS}\b"
    r"|(?:code|lines?|implementation)\s+(?:omitted|elided|skipped)\b",
    re.IGNORECASE,
)
# ...or say anywhere ("other methods remain the same", "the rest is unchanged").
_KEPT = re.compile(
    rf"\b(?:rest|everything\s+else|all\s+else|{_NOUNS})\s+"
    r"(?:is\s+|are\s+|stays?\s+|remains?\s+)?(?:unchanged|(?:the\s+)?same|as\s+before)\b",
    re.IGNORECASE,
)


def _strict(s: str) -> bool:
    m = _COMMENT.match(s)
    if m is None:
        return False
    body = s[m.end() :]
    return bool(_LEADS.match(body) or _KEPT.search(body))


# Every marker holds dots or one of these words; anything else is rejected before a regex runs.
HINTS = (
    "...",
    "…",
    "existing",
    "remaining",
    "previous",
    "other",
    "unchanged",
    "original",
    "rest",
    "same",
    "before",
    "omitted",
    "elided",
    "skipped",
)
_OPENERS = tuple("#/;<-%'({\"*")
_OPEN_RE = re.compile(rf"^{_OPEN}\s*")
_SPREAD_RE = re.compile(r"\.{3}[A-Za-z_$\[{(]")


def could_hold_marker(text: str) -> bool:
    """False when ``text`` holds no marker line for sure (a fast check before line scans)."""
    low = text.lower()
    return any(w in low for w in HINTS)


def _could_be(s: str) -> bool:
    if "." in s or "…" in s:
        return True
    low = s.lower()
    return any(w in low for w in HINTS)


def is_marker(line: str) -> bool:
    """A line that may stand for elided text (only when it does not match the file literally)."""
    s = line.strip()
    if not s or not _could_be(s):
        return False
    if _LOOSE.match(s):
        # "...args," or "...rest" is JavaScript spread, not an elision: dots must stand alone
        # or be followed by a space and words.
        return not _spread(s)
    return s.startswith(_OPENERS) and _strict(s)


def is_strict_marker(line: str) -> bool:
    """A comment line that can only mean "the existing code goes here"."""
    s = line.strip()
    if not s or not s.startswith(_OPENERS) or not _could_be(s) or _spread(s):
        return False
    return _strict(s)


def _spread(s: str) -> bool:
    return bool(_SPREAD_RE.match(_OPEN_RE.sub("", s, count=1)))
