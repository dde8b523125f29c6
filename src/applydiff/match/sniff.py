"""A file's language read from its content, for a path whose extension says nothing (issue 26:
a fast-apply call often names a path without one, and the raw API gets no path at all).

Each language scores the lines that only it writes that way (``def f(...):`` and ``from x
import y`` for Python, ``package x`` and ``func`` for Go, a selector line ending in ``{`` and
``prop: value;`` lines for CSS, ...); the best is taken only when it has a few such lines and
at least twice the score of the next, else the language stays unknown (the merge by lines
alone, as before).
"""

from __future__ import annotations

import re

# How many lines of the file are read.
HEAD = 400
# The fewest telling lines, and how far ahead of the next language, to name one.
LEAST = 3
AHEAD = 2.0

_SIGNS: dict[str, tuple[re.Pattern[str], ...]] = {
    "py": (
        re.compile(r"^\s*(?:async\s+)?def\s+\w+\s*\(.*\)\s*(?:->\s*[^:]+)?:\s*(?:#.*)?$"),
        re.compile(r"^\s*class\s+\w+(?:\(.*\))?:\s*$"),
        re.compile(r"^(?:from\s+[\w.]+\s+import\s+\S|import\s+[\w.]+(?:\s+as\s+\w+)?\s*$)"),
        re.compile(r"^\s*(?:elif|except|with)\b.*:\s*$|^\s*(?:else|try|finally):\s*$"),
        re.compile(r"^\s*(?:self\.\w+\s*=|return\s+None$|raise\s+\w+)"),
    ),
    "ts": (
        re.compile(r"^\s*import\s.*\bfrom\s+['\"][^'\"]+['\"];?\s*$"),
        re.compile(
            r"^\s*export\s+(?:default\s+)?(?:async\s+)?(?:function|class|const|interface|type)\b"
        ),
        re.compile(r"^\s*(?:const|let|var)\s+[\w{}\[\], ]+\s*(?::[^=]+)?=.*;?\s*$"),
        re.compile(r"=>\s*[{(]?\s*$|\bfunction\s*\w*\s*\("),
        re.compile(r"^\s*(?:interface|type)\s+\w+.*[{=]\s*$"),
    ),
    "go": (
        re.compile(r"^package\s+\w+\s*$"),
        re.compile(r"^func\s+(?:\([^)]*\)\s*)?\w+\s*\("),
        re.compile(r"\s:=\s"),
        re.compile(r"^\s*if\s+err\s*!=\s*nil\s*\{"),
    ),
    "rs": (
        re.compile(r"^\s*(?:pub(?:\([\w:]+\))?\s+)?(?:fn|struct|enum|impl|trait|mod)\b"),
        re.compile(r"^\s*use\s+[\w:]+(?:::\{.*\})?;\s*$"),
        re.compile(r"\blet\s+mut\s+\w+|&mut\s+\w+|::new\("),
        re.compile(r"^\s*#\[\w+"),
    ),
    "c": (
        re.compile(r"^\s*#\s*(?:include|define|ifdef|ifndef|endif|pragma)\b"),
        re.compile(
            r"^(?:static\s+|inline\s+|const\s+)*(?:void|int|char|bool|size_t|double|float|"
            r"unsigned|long|struct\s+\w+)\s*\**\s*\w+\s*\([^;]*\)\s*\{?\s*$"
        ),
        re.compile(r"^\s*(?:public|private|protected)\s+(?:static\s+)?[\w<>\[\]]+\s+\w+\s*\("),
    ),
    "css": (
        re.compile(r"^\s*[.#@:\w\[\]=\"'*>+~, -]+\{\s*$"),
        re.compile(r"^\s*-?[a-z][\w-]*\s*:(?!:)\s*[^;{}=()]*(?:\([^)]*\)[^;{}]*)*;\s*$"),
    ),
    "html": (
        re.compile(r"^\s*<(?:!DOCTYPE|[a-zA-Z][\w-]*)(?:\s[^<>]*)?/?>"),
        re.compile(r"^\s*</\w+>\s*$"),
    ),
    # Languages the merge has no structure for: named only to keep them from being taken
    # for one it has ("function" and "end" are Lua's as well).
    "lua": (
        re.compile(r"^\s*local\s+(?:function\s+)?\w+"),
        re.compile(r"\bthen\s*$|^\s*end\s*\)?,?\s*$|^\s*elseif\b"),
    ),
}
_KNOWN = ("py", "ts", "go", "rs", "c", "css", "html", "sql")
# TypeScript read as JSX when it writes elements.
_JSX = re.compile(r"<[A-Z]\w*[\s/>]|return\s*\(\s*$|<(?:div|span|button)\b")


def extension_from_content(text: str) -> str | None:
    """The extension of the language ``text`` is written in (``py``, ``ts``, ``tsx``, ``go``,
    ``rs``, ``c``, ``css``, ``html``, ``sql``), or None when it does not tell clearly."""
    lines = [x for x in text.split("\n", HEAD)[:HEAD] if x.strip()]
    if not lines:
        return None
    scores = {
        ext: sum(1 for x in lines if any(p.search(x) for p in signs))
        for ext, signs in _SIGNS.items()
    }
    ranked = sorted(scores.items(), key=lambda kv: -kv[1])
    (best, top), (_, second) = ranked[0], ranked[1]
    if lines[0].lstrip().lower().startswith(("<!doctype", "<html")):
        return "html"
    # A stylesheet's lines are the easiest to find in other code ("x: y;" in a C struct):
    # it must stand further ahead.
    ahead = AHEAD * (2 if best == "css" else 1)
    if top < LEAST or top < ahead * second or best not in _KNOWN:
        return None
    if best == "ts" and any(_JSX.search(x) for x in lines):
        return "tsx"
    return best


__all__ = ["extension_from_content"]
