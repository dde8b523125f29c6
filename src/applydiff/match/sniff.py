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
from collections import Counter

# How many non-blank lines of the file are read.
HEAD = 100
# The fewest telling lines, and how far ahead of the next language, to name one.
LEAST = 3
AHEAD = 2.0

_PY_HEAD = frozenset(("def", "class", "async"))
_PY_ALONE = frozenset(("else:", "try:", "finally:"))
_JS_DECL = frozenset(("const", "let", "var"))
_RS_ITEM = frozenset(("fn", "impl", "trait", "mod"))
_RS_PUB = frozenset(("fn", "struct", "enum", "impl", "trait", "mod", "use", "const", "static"))
_C_DIRECTIVES = frozenset(
    ("#include", "#define", "#ifdef", "#ifndef", "#endif", "#pragma", "#if", "#else", "#undef")
)
_C_TYPES = frozenset(
    ("void", "int", "char", "bool", "size_t", "double", "float", "unsigned", "long", "static")
)
_SQL_WORDS = frozenset(("CREATE", "ALTER", "DROP", "INSERT", "SELECT", "UPDATE", "DELETE"))
_SQL_CLAUSES = frozenset(("FROM", "WHERE", "JOIN", "REFERENCES", "PRIMARY"))
_CSS_NOT_SELECTOR = frozenset(
    ("if", "for", "while", "else", "function", "switch", "try", "do", "return", "class")
)
_DECL = re.compile(r"-?[a-z][\w-]*\s*:(?!:)\s*[^;{}=()]*(?:\([^)]*\)[^;{}]*)*;$")
_C_FUNCTION = re.compile(r"[\w\s*]+\([^;]*\)\s*\{?$")
# TypeScript read as JSX when it writes elements.
_JSX = re.compile(r"<[A-Z]\w*[\s/>]|return\s*\(\s*$|<(?:div|span|button)\b", re.M)
_KNOWN = ("py", "ts", "go", "rs", "c", "css", "html", "sql")


def _signs(s: str) -> list[str]:
    """The languages a stripped, non-blank line is written in, as far as it tells."""
    words = s.split(None, 2)
    w = words[0]
    second = words[1] if len(words) > 1 else ""
    out = []
    if (
        (w in _PY_HEAD and s.endswith(":"))
        or (w == "from" and " import " in s)
        or (w == "import" and not s.endswith(";") and "{" not in s and " from " not in s)
        or w in ("elif", "except")
        or s in _PY_ALONE
        or s.startswith("self.")
    ):
        out.append("py")
    if (
        (w == "import" and " from " in s and s.rstrip(";")[-1:] in "'\"")
        or w == "export"
        or (w in _JS_DECL and "=" in s and not s.endswith(":"))
        or "=>" in s
        or w in ("function", "async")
        or (w in ("interface", "type") and s.endswith(("{", "=")))
    ):
        out.append("ts")
    if w == "package" or w == "func" or " := " in s or s.startswith("if err != nil"):
        out.append("go")
    if (
        w in _RS_ITEM
        or (w.startswith("pub") and second in _RS_PUB)
        or "let mut " in s
        or "::new(" in s
        or s.startswith("#[")
        or (w == "use" and "::" in s and s.endswith(";"))
    ):
        out.append("rs")
    if (
        w in _C_DIRECTIVES
        or (w in ("public", "private", "protected") and "(" in s)
        or (w in _C_TYPES and _C_FUNCTION.match(s) is not None)
    ):
        out.append("c")
    if (
        s.endswith("{")
        and "(" not in s
        and "=" not in s
        and w not in _CSS_NOT_SELECTOR
        and not s.startswith("}")
    ) or (s.endswith(";") and ":" in s and _DECL.match(s) is not None):
        out.append("css")
    if s[0] == "<" and (s[1:2].isalpha() or s[1:2] in ("!", "/")):
        out.append("html")
    if (w.upper() in _SQL_WORDS and second[:1].isalpha()) or w.upper() in _SQL_CLAUSES:
        out.append("sql")
    if w in ("local", "elseif") or s.endswith(" then") or s in ("end", "end)", "end,"):
        out.append("lua")
    return out


def extension_from_content(text: str) -> str | None:
    """The extension of the language ``text`` is written in (``py``, ``ts``, ``tsx``, ``go``,
    ``rs``, ``c``, ``css``, ``html``, ``sql``), or None when it does not tell clearly."""
    lines: list[str] = []
    for x in text.split("\n", 4 * HEAD)[: 4 * HEAD]:
        s = x.strip()
        if s:
            lines.append(s)
            if len(lines) == HEAD:
                break
    if not lines:
        return None
    if lines[0].lower().startswith(("<!doctype", "<html")):
        return "html"
    scores: Counter[str] = Counter()
    for s in lines:
        scores.update(_signs(s))
    ranked = scores.most_common(2)
    if not ranked:
        return None
    best, top = ranked[0]
    second = ranked[1][1] if len(ranked) > 1 else 0
    # A stylesheet's lines are the easiest to find in other code ("x: y;" in a C struct):
    # it must stand further ahead.
    ahead = AHEAD * (2 if best == "css" else 1)
    if top < LEAST or top < ahead * second or best not in _KNOWN:
        return None
    if best == "ts" and _JSX.search("\n".join(lines)):
        return "tsx"
    return best


__all__ = ["extension_from_content"]
