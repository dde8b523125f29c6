"""Turn titles into URL slugs."""

from __future__ import annotations

import re
import unicodedata

_NON_WORD = re.compile(r"[^a-z0-9]+")


def normalize_whitespace(text: str) -> str:
    return " ".join(text.split())


def strip_accents(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def collapse_hyphens(text: str) -> str:
    return re.sub(r"-{2,}", "-", text).strip("-")


def slugify(title: str, max_length: int = 60) -> str:
    text = strip_accents(normalize_whitespace(title)).lower()
    slug = _NON_WORD.sub("-", text).strip("-")
    return truncate(slug, max_length)


def truncate(slug: str, max_length: int) -> str:
    if len(slug) <= max_length:
        return slug
    cut = slug[:max_length]
    return cut.rsplit("-", 1)[0] if "-" in cut else cut
