"""Narration: comment lines a model writes in a snippet about the edit, not about the code
("// Add a new method to ImportMapReference", "# Update the handler to retry").

The file does not have them, and a careful reader (or a fast-apply model) leaves them out of
the merged file. A line is narration only when all of these hold, so that documentation is
kept: it is a comment and nothing else, in the comment syntax of the file's language; the
file does not have it; it stands right before or after lines the file does not have (the new
code); and its words speak of a change, either in the past tense ("Added retry logic") or as
an instruction that names a piece of code and how it changes ("Add a new method to Foo",
"Update the handler to retry").
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


def drop_narration(snippet: str, file_lines: set[str], syntax: Syntax) -> tuple[str, list[str]]:
    """``snippet`` without its narration lines (see the module's docstring), and a note for
    each one left out. ``file_lines`` holds the file's lines, trailing whitespace stripped."""
    lines = snippet.split("\n")
    marked = [is_marker(x) and x.rstrip() not in file_lines for x in lines]

    def new_code(k: int) -> bool:
        x = lines[k]
        return bool(x.strip()) and not marked[k] and x.rstrip() not in file_lines

    def beside_new_code(k: int, step: int) -> bool:
        j = k + step
        while 0 <= j < len(lines) and not lines[j].strip():
            j += step
        return 0 <= j < len(lines) and new_code(j) and comment_text(lines[j], syntax) is None

    kept: list[str] = []
    notes: list[str] = []
    for k, line in enumerate(lines):
        words = comment_text(line, syntax)
        if (
            words is not None
            and not marked[k]
            and line.rstrip() not in file_lines
            and is_narration(words)
            and (beside_new_code(k, 1) or beside_new_code(k, -1))
        ):
            notes.append(f"left out the narration comment {line.strip()!r}")
            continue
        kept.append(line)
    return "\n".join(kept), notes


__all__ = ["comment_text", "drop_narration", "is_narration"]
