"""What a line says of itself when a lazy segment is placed: its key (compared exactly, or with
all whitespace ignored), its indentation, whether it is too common to place anything by ("}",
"try {", "#endif"), whether it opens or closes a block, the brackets it leaves open, whether
it reads like an edit of another line, and whether it is an import line of its language."""

from __future__ import annotations

import difflib
import re

from rapidfuzz.distance import Indel

from ..outline import Syntax

# New lines next to an anchor this similar to the file's line there look like a change of
# that line, not an insertion beside it.
CHANGED_LINE_SIMILARITY = 0.6
# Anchor lines with fewer characters than this in all ("4", "x"), besides the weak ones,
# are too thin to say where a deletion stops.
THIN_ANCHOR = 4
# Line ends that open a block or continue a statement on the next line.
OPENS = (":", "{", "(", "[", ",", "\\", " then", " do", "=>")


def exact_key(line: str) -> str:
    """The line as compared exactly: trailing whitespace ignored."""
    return line.rstrip()


def loose_key(line: str) -> str:
    """The line as compared with all whitespace ignored."""
    return " ".join(line.split())


def indent_of(line: str) -> int:
    """The characters of the line's indentation (a tab counts one)."""
    return len(line) - len(line.lstrip(" \t"))


# Lines too common to place a segment by on their own.
_WEAK = frozenset(
    ("", "'''", '"""', "pass", "return", "break", "continue", "else:", "try:", "finally:", "end")
) | frozenset(("fi", "done", "*/", "-->"))


# A line that is one of these words with punctuation around it ("try {", "} else {",
# "#endif", "end;") says nothing of where it is.
_WEAK_WORDS = frozenset(
    ("try", "else", "finally", "do", "catch", "end", "fi", "done", "return", "break", "continue")
) | frozenset(("pass", "default", "endif", "then", "begin", "esac"))
# Words that add nothing to a weak one: "return null;", "} catch (e) {".
_LITERALS = frozenset(("null", "None", "nil", "undefined", "true", "false", "True", "False"))
_CATCH_ARGS = re.compile(r"\bcatch\s*\([^)]*\)")
_WORD = re.compile(r"[A-Za-z_]\w*")
_CLOSING_TAG = re.compile(r"^</[\w.:-]+>$")


def weak_line(line: str) -> bool:
    s = line.strip()
    if s in _WEAK or all(c in "{}()[];,:<>/" for c in s) or _CLOSING_TAG.match(s):
        return True
    words = [w for w in _WORD.findall(_CATCH_ARGS.sub("catch", s)) if w not in _LITERALS]
    return len(words) == 1 and words[0] in _WEAK_WORDS


def weak_lines(lines: list[str]) -> bool:
    return all(weak_line(x) for x in lines)


def weak_or_thin(lines: list[str], least: int = THIN_ANCHOR) -> bool:
    return weak_lines(lines) or sum(len(x.strip()) for x in lines if not weak_line(x)) < least


def closes_block(line: str) -> bool:
    s = line.strip()
    return bool(s) and (
        all(c in "})];,>" for c in s)
        or s in ("end", "fi", "done", "esac", "endif", "endfor", "endwhile")
        or s.startswith("</")
    )


_OPEN_TAG = re.compile(r"^<([A-Za-z][\w.:-]*)\b[^>]*(?<!/)>$")


def opens_block(line: str) -> bool:
    s = line.rstrip()
    return s.endswith(("{", "(", "[")) or bool(_OPEN_TAG.match(s.strip()))


# A simple string literal on one line ("...", '...', `...`).
STRING_LITERAL = re.compile(r"\"(?:\\.|[^\"\\])*\"|'(?:\\.|[^'\\])*'|`[^`]*`")


def bracket_balance(lines: list[str]) -> int:
    """Brackets opened minus closed, outside simple string literals."""
    total = 0
    for line in lines:
        bare = STRING_LITERAL.sub("", line)
        total += sum(bare.count(c) for c in "([{") - sum(bare.count(c) for c in ")]}")
    return total


_LEAD_WORD = re.compile(r"^[A-Za-z_]\w*")
_DIGITS = re.compile(r"\d+")


def much_alike(a: str, b: str) -> bool:
    """Two lines (stripped) with much the same text, or the same but for their numbers."""
    # Indel's similarity (by the longest common subsequence) bounds difflib's ratio from
    # above, in C: most pairs of unrelated lines are told apart without difflib's search.
    if (
        Indel.normalized_similarity(a, b) >= CHANGED_LINE_SIMILARITY
        and difflib.SequenceMatcher(None, a, b).ratio() >= CHANGED_LINE_SIMILARITY
    ):
        return True
    return _DIGITS.sub("0", a) == _DIGITS.sub("0", b)  # "4" for "2", "x[1] = 10" for "x[0] = 9"


def looks_changed(new: str, old: str) -> bool:
    """``new`` reads like an edit of ``old``: much the same text, or a statement of the same
    kind at the same place (same indentation, same first word: ``return``, ``x =``)."""
    a, b = new.strip(), old.strip()
    if a == b:
        return False
    if much_alike(a, b):
        return True
    wa, wb = _LEAD_WORD.match(a), _LEAD_WORD.match(b)
    return (
        indent_of(new) == indent_of(old)
        and wa is not None
        and wb is not None
        and (wa.group() == wb.group())
    )


# JavaScript's: an import statement, or a require() bound to a name.
_JS_IMPORT = re.compile(
    r"^(?P<kind>import)\b|^(?:const|let|var)\s+[\w{}\s,]+=\s*(?P<req>require)\s*\("
)
# Import lines by language family: what each starts with (the group names the kind).
IMPORTS = {
    "python": re.compile(r"^(?P<kind>import|from)\s+[\w.]+"),
    "js": _JS_IMPORT,
    "jsx": _JS_IMPORT,
    # '#include <...>' and '#include "..."' are two kinds: system headers, then the project's.
    "c": re.compile(r"^(?P<kind>#\s*include\s*[<\"]|use\b|using\b|import\b|package\b)"),
    "go": re.compile(r"^(?P<kind>import)\b"),
    # A Vue or Svelte component's <script> imports, at the left edge as they are written.
    "markup": re.compile(r"^(?P<kind>import)\s+[\w{*]"),
    "css": re.compile(r"^(?P<kind>@import|@use|@forward)\b"),
    "scss": re.compile(r"^(?P<kind>@import|@use|@forward)\b"),
}


def is_import(line: str, syntax: Syntax) -> bool:
    """Whether ``line`` is an import line of the file's language, at the left edge."""
    pattern = IMPORTS.get(syntax.name)
    return pattern is not None and pattern.match(line) is not None
