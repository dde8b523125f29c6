"""For tests that check advice names only fields a schema has: the words of a message that
look like field names."""

from __future__ import annotations

import re
from collections.abc import Iterable

_IDENT = re.compile(r"\b[a-z][a-z0-9]*(?:_[a-z0-9]+)+\b|\b[a-z]+(?:[A-Z][a-z0-9]*)+\b")


def field_like(text: str, names: Iterable[str]) -> list[str]:
    """The words of ``text`` that look like field names (snake_case, camelCase) and are among
    ``names``, in order of appearance, each once."""
    known = set(names)
    seen: list[str] = []
    for word in _IDENT.findall(text):
        if word in known and word not in seen:
            seen.append(word)
    return seen
