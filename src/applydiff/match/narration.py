"""Narration: comment lines a model writes in a snippet about the edit, not about the code
("// Add a new method to ImportMapReference", "# Update the handler to retry").

The file does not have them, and a careful reader (or a fast-apply model) leaves them out of
the merged file. Position tells them first (issue 26; in snippets models wrote, every such
comment above unchanged code was left out of the merged file, and most above new code were
kept): a comment and nothing else, in the comment syntax of the file's language, that the
file does not have, is narration when it stands right above code the file has unchanged and
its words speak of a change (in the past tense, "Added retry logic"; as an instruction that
names a piece of code, "Update the handler to retry"; or starting with a change verb); or
when it ends the snippet after unchanged code with such words. Above or beside new code it
documents that code and is kept, unless it labels it as the edit ("New method: ...",
"Added: ...") or speaks of the change in words that compare with the file's previous
version ("Add a new method to Foo", "Added error handling for the new endpoint"): those
narrate the diff, not the code.
"""

from __future__ import annotations

import re

from .elision import is_marker
from .outline import Syntax

_CHANGE_VERB = (
    r"add|update|change|modify|remove|delete|replace|insert|refactor|rename|move|implement|"
    r"extend|introduce|adjust|fix|use|handle|include|create|define|register|wrap|make|keep"
)
_PAST_VERB = (
    r"added|updated|changed|modified|removed|deleted|replaced|inserted|refactored|renamed|"
    r"moved|implemented|extended|introduced|adjusted|fixed"
)
_CODE_NOUN = (
    r"method|function|func|class|variant|field|property|prop|props|import|imports|parameter|"
    r"param|argument|state|hook|effect|endpoint|route|handler|column|table|index|rule|style|"
    r"styles|selector|test|tests|case|component|section|type|interface|enum|struct|trait|impl|"
    r"constant|variable|helper|check|validation|logic|option|config|key|export|module|"
    r"dependency|attribute|element|button|block|call|loop|query|migration|listener|event|"
    r"log|logs|logging|retry|retries|cache|caching|guard|support|badge|variant|variants"
)
_NARRATION = re.compile(
    rf"^(?:(?:{_PAST_VERB})\b"
    # "Add a retry helper method": adding a named kind of code is the edit itself; so is
    # adding "a"/"an" anything ("Add a sale badge ..."), or "New method: ...".
    rf"|(?:add|adding|introduce|introducing)\s+(?:(?:a|an|the|new)\s+)*(?:[\w-]+\s+){{0,3}}"
    rf"(?:{_CODE_NOUN})s?\b"
    r"|(?:add|adding)\s+(?:a|an)\s+\w"
    rf"|new\s+(?:{_CODE_NOUN})s?\s*:"
    rf"|new\s+(?:[\w().-]+\s+){{0,2}}(?:{_CODE_NOUN})s?\b(?=.*\b(?:used|for|to|that)\b)"
    rf"|(?:{_CHANGE_VERB})(?:ed|s|ing)?\b(?=.*\b(?:{_CODE_NOUN})s?\b)"
    r"(?=.*\b(?:new|existing|now|here|instead|to\s+[A-Z_]\w*|to\s+(?:use|support|handle|"
    r"retry|include|accept|return|call)|for\s+(?:the\s+)?[A-Z_]\w*|the\s+\w+\s+to)\b)"
    r"|new\s*:|here\s+we\b|now\s+we\b|we\s+now\b)",
    re.I,
)


def comment_text(line: str, syntax: Syntax) -> str | None:
    """The words of ``line`` when it is a comment and nothing else, in ``syntax``'s comment
    forms (JSX's ``{/* ... */}`` too); None otherwise."""
    s = line.strip()
    for opener in syntax.line_comments:
        if s.startswith(opener):
            return s[len(opener) :].lstrip(opener[:1]).strip()
    for opener, closer in syntax.block_comments:
        for a, b in ((opener, closer), ("{" + opener, closer + "}")):
            if s.startswith(a) and s.endswith(b) and len(s) >= len(a) + len(b):
                return s[len(a) : len(s) - len(b)].strip(" *")
    return None


def is_narration(words: str) -> bool:
    """Whether a comment's words speak of the edit rather than of the code."""
    return bool(_NARRATION.match(words))


# A comment above code the file has unchanged that starts with one of these speaks of the
# edit ("Update the handler", "Keep the existing check"): with its position, enough.
_CHANGE_START = re.compile(
    r"^(?:(?:add|update|change|modify|remove|delete|replace|insert|refactor|rename|move|"
    r"implement|extend|introduce|adjust|fix)(?:ed|ing|d)?|new|existing|unchanged)\b",
    re.I,
)
_WORDS = re.compile(r"\w+")


# A comment that labels the code after it as the edit ("New method: ...", "Added: ...",
# "NEW:") is narration wherever it stands.
_LABEL = re.compile(
    r"^(?:new|added|changed|updated|modified|fixed|removed)(?:\s+[\w-]+){0,2}\s*:", re.I
)


# Words that speak of the file's previous version: "the new endpoint", "the existing check",
# "now", "instead". Code's own documentation does not compare it with an older file.
_RELATIVE = re.compile(
    r"\b(?:new|existing|now|instead|anymore|no\s+longer|previously|original)\b", re.I
)


def _edit_relative(words: str) -> bool:
    """A comment above new code that still narrates: it labels the code as the edit, or
    speaks of the change in words that compare with the file's previous version."""
    return bool(_LABEL.match(words)) or (is_narration(words) and bool(_RELATIVE.search(words)))


def _opening(words: str) -> tuple[str, ...]:
    return tuple(_WORDS.findall(words.lower())[:3])


def drop_narration(
    snippet: str, file_lines: set[str], syntax: Syntax, order: list[str] | None = None
) -> tuple[str, list[str]]:
    """``snippet`` without its narration lines, and a note for each one left out.
    ``file_lines`` holds the file's lines, trailing whitespace stripped; ``order``, when
    given, the file's lines in order: code counts as unchanged around a comment only where
    the code lines on both sides of it follow each other in the file (a comment inside
    rewritten code documents it, wherever else the file has its lines).

    Narration is told by position first (issue 26): a comment the file does not have, right
    above code the file has unchanged, speaks of the edit when its words do (a change verb
    at its start is enough); the same comment above or beside new code documents that code,
    and stays."""
    lines = snippet.split("\n")
    marked = [is_marker(x) and x.rstrip() not in file_lines for x in lines]
    # How the file's comments begin: a comment that begins as one of them does is that
    # comment changed, not narration.
    openings: set[tuple[str, ...]] = set()
    read_openings = False

    def code(k: int, step: int) -> int | None:
        """The nearest line from ``k`` (by ``step``) that is neither blank nor a comment."""
        j = k + step
        while 0 <= j < len(lines) and (
            not lines[j].strip() or (not marked[j] and comment_text(lines[j], syntax) is not None)
        ):
            j += step
        return j if 0 <= j < len(lines) and not marked[j] else None

    rows: dict[str, list[int]] | None = None

    def follow(a: str, b: str) -> bool:
        """Whether the file has line ``b`` as the next code line after line ``a``."""
        nonlocal rows
        if order is None:
            return True
        if rows is None:
            rows = {}
            for r, x in enumerate(order):
                rows.setdefault(x.rstrip(), []).append(r)
        for r in rows.get(a, []):
            j = r + 1
            while j < len(order) and (
                not order[j].strip() or comment_text(order[j], syntax) is not None
            ):
                j += 1
            if j < len(order) and order[j].rstrip() == b:
                return True
        return False

    def unchanged(j: int | None, i: int | None) -> bool:
        """Line ``j`` (the code below a comment) is the file's, and, when line ``i`` (the
        code above it) is the file's too, the two follow each other in the file (else the
        comment stands in rewritten code)."""
        if j is None or lines[j].rstrip() not in file_lines:
            return False
        if i is None or lines[i].rstrip() not in file_lines:
            return True  # after a marker, the start, or new code: the code below is kept
        return follow(lines[i].rstrip(), lines[j].rstrip())

    def new(j: int | None) -> bool:
        return j is not None and lines[j].rstrip() not in file_lines

    def _past_closers(j: int | None) -> int | None:
        """The nearest code line from ``j`` up that is more than closing brackets."""
        while j is not None and all(c in "{}()[];," for c in lines[j].strip()):
            j = code(j, -1)
        return j

    kept: list[str] = []
    notes: list[str] = []
    dropped_after_blank = False
    for k, line in enumerate(lines):
        if dropped_after_blank and not line.strip():
            dropped_after_blank = False
            continue  # the blank line after a dropped comment that had one before it
        dropped_after_blank = False
        words = comment_text(line, syntax)
        if words is None or marked[k] or line.rstrip() in file_lines:
            kept.append(line)
            continue
        if not read_openings:  # read once, and only for a snippet with a comment of its own
            openings = {_opening(w) for x in file_lines if (w := comment_text(x, syntax))}
            read_openings = True
        if _opening(words) in openings:
            kept.append(line)
            continue
        below, above = code(k, 1), code(k, -1)
        if new(below) and new(_past_closers(above)):
            # Inside new code (a body the snippet rewrites): it documents that code, unless
            # it labels it as the edit ("NEW: ...").
            narrates = bool(_LABEL.match(words))
        elif new(below) or (below is None and new(above)):
            narrates = _edit_relative(words)  # else it documents the new code
        elif unchanged(below, above):
            narrates = bool(
                _LABEL.match(words) or is_narration(words) or _CHANGE_START.match(words)
            )
        else:
            narrates = bool(_LABEL.match(words) or is_narration(words))
        if narrates:
            notes.append(f"left out the narration comment {line.strip()!r}")
            dropped_after_blank = bool(kept) and not kept[-1].strip()
            continue
        kept.append(line)
    return "\n".join(kept), notes


__all__ = ["comment_text", "drop_narration", "is_narration"]
