"""A file's outline: where its blocks open and close, read from the text itself.

A block is a bracket pair (``{`` .. ``}``, ``(`` .. ``)``, ``[`` .. ``]``), an element
(``<div ...>`` .. ``</div>``) or, in Python and YAML, a line and the deeper-indented lines after
it. Strings and comments are skipped by the rules of the file's language family, told by its
extension (:func:`syntax_for`); a file of a language it does not know has no outline (None),
and callers keep their line-based reading.

The scanner is ours, not tree-sitter: it reads every language of a family with one set of
rules, needs no grammar wheel, and reads fragments (a snippet with ``// ... existing code
...`` in place of half its lines) as well as whole files. See ``benchmarks/outline.py`` for
how it compares with tree-sitter on speed and on where blocks close.

>>> o = outline("function f(a) {\\n  if (a) {\\n    return '}';\\n  }\\n}\\n", "x.js")
>>> [(b.start, b.open, b.close) for b in o.blocks if b.kind == "{"]
[(0, 0, 4), (1, 1, 3)]
>>> o.closing(1)
3
"""

from __future__ import annotations

import bisect
import functools
import re
from dataclasses import dataclass, field
from typing import NamedTuple

from ..text import split_lines

# Elements that never have a closing tag.
VOID = frozenset(
    [
        "area",
        "base",
        "br",
        "col",
        "embed",
        "hr",
        "img",
        "input",
        "link",
        "meta",
        "param",
        "source",
        "track",
        "wbr",
    ]
)
# Elements whose content is not markup: scanned by the rules of the code they hold.
RAW = {"script": "js", "style": "css"}
# HTML elements whose end tag may be left out, and the start tags that end them. (A <p> is
# left to its own end tag or its parent's: authors who write one mean it, whatever follows.)
IMPLIED_END = {
    "li": frozenset({"li"}),
    "dt": frozenset({"dt", "dd"}),
    "dd": frozenset({"dt", "dd"}),
    "tr": frozenset({"tr"}),
    "td": frozenset({"td", "th", "tr"}),
    "th": frozenset({"td", "th", "tr"}),
    "option": frozenset({"option", "optgroup"}),
}
# A line that starts so goes on the statement of the line before (a brace on its own line,
# a chained call, an operator); so does a line after one that ends so.
_GOES_ON = re.compile(r"^(?:[{.?:|&+\-*/%=<>]|=>|->|extends\b|implements\b|where\b|throws\b)")
_GOES_ON_AFTER = re.compile(r"(?:[(\[{,.?:|&+\-*/%=<>]|=>|->)$")


@dataclass(frozen=True)
class Syntax:
    """The lexical rules of a language family."""

    name: str
    line_comments: tuple[str, ...] = ()
    block_comments: tuple[tuple[str, str], ...] = ()
    quotes: tuple[str, ...] = ('"', "'")
    triple_quotes: bool = False  # Python's ''' and """
    brackets: bool = True
    tags: bool = False  # markup elements (HTML, XML, Vue templates)
    jsx: bool = False  # elements inside code, told from '<' comparisons by what precedes
    indent: bool = False  # blocks by indentation (Python, YAML)
    # "'" opens a character literal only when it closes within a few characters (Rust
    # lifetimes 'a, and C's 'x' next to prose in comments).
    short_char_quote: bool = False
    raw_backtick: bool = False  # `...` spans lines (JS templates, Go raw strings)
    regex_literals: bool = False  # JS's /.../flags where an expression starts
    dollar_quotes: bool = False  # PostgreSQL's $$...$$ and $tag$...$tag$ bodies


C_LIKE = Syntax("c", ("//",), (("/*", "*/"),), short_char_quote=True)
GO = Syntax(
    "go", ("//",), (("/*", "*/"),), ('"', "'", "`"), short_char_quote=True, raw_backtick=True
)
JS = Syntax("js", ("//",), (("/*", "*/"),), ('"', "'", "`"), raw_backtick=True, regex_literals=True)
JSX = Syntax(
    "jsx",
    ("//",),
    (("/*", "*/"),),
    ('"', "'", "`"),
    raw_backtick=True,
    regex_literals=True,
    jsx=True,
)
CSS = Syntax("css", (), (("/*", "*/"),))
SCSS = Syntax("scss", ("//",), (("/*", "*/"),))
PYTHON = Syntax("python", ("#",), (), triple_quotes=True, indent=True)
YAML = Syntax("yaml", ("#",), (), brackets=False, indent=True)
# Quotes in markup matter only inside a tag, where the tag reader takes them.
MARKUP = Syntax("markup", (), (("<!--", "-->"),), (), brackets=False, tags=True)
SQL = Syntax("sql", ("--",), (("/*", "*/"),), dollar_quotes=True)

_BY_EXTENSION = {
    **dict.fromkeys(
        [
            "c",
            "h",
            "cc",
            "cpp",
            "cxx",
            "hpp",
            "hh",
            "hxx",
            "java",
            "cs",
            "kt",
            "kts",
            "swift",
            "scala",
            "dart",
            "rs",
            "m",
            "mm",
        ],
        C_LIKE,
    ),
    "go": GO,
    **dict.fromkeys(["ts", "mts", "cts"], JS),
    **dict.fromkeys(["js", "mjs", "cjs", "jsx", "tsx"], JSX),
    "css": CSS,
    **dict.fromkeys(["scss", "less"], SCSS),
    **dict.fromkeys(["py", "pyi"], PYTHON),
    **dict.fromkeys(["yml", "yaml"], YAML),
    **dict.fromkeys(["html", "htm", "xhtml", "xml", "svg", "vue", "svelte"], MARKUP),
    "sql": SQL,
}
_BY_NAME = {s.name: s for s in (C_LIKE, GO, JS, JSX, CSS, SCSS, PYTHON, YAML, MARKUP, SQL)}


def syntax_for(path: str) -> Syntax | None:
    """The language family of ``path`` by its extension; None for one it does not know."""
    name = path.rsplit("/", 1)[-1]
    if "." not in name:
        return None
    return _BY_EXTENSION.get(name.rsplit(".", 1)[-1].lower())


class Block(NamedTuple):
    """One block, in 0-based line numbers: ``start`` is where the statement that opens it
    begins (a signature over several lines, an annotation above it), ``open`` the line of
    its opener, ``close`` the line of its closer (for an indented block, its last non-blank
    line). ``kind`` is the opener: ``{``, ``(``, ``[``, ``<tag>`` or ``indent``. (A tuple:
    a file of 100,000 one-line rules makes 100,000 of them.)"""

    start: int
    open: int
    close: int
    depth: int
    kind: str


@dataclass
class Outline:
    """The blocks of one text, and per line the blocks left open at its end."""

    blocks: list[Block]
    n_lines: int
    balanced: bool  # every opener closed, every closer matched
    code: frozenset[int] = frozenset()  # lines holding code (not only comments or blanks)
    # line -> the blocks opened on it and still open at its end, outermost first
    _open_at: dict[int, list[Block]] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        for b in self.blocks:
            if b.close > b.open:
                self._open_at.setdefault(b.open, []).append(b)
        for row in self._open_at.values():
            row.sort(key=lambda b: b.depth)

    def opened(self, line: int) -> list[Block]:
        """The blocks opened on ``line`` that end on a later line, outermost first."""
        return self._open_at.get(line, [])

    def closing(self, line: int) -> int | None:
        """The line where the outermost block opened on ``line`` (and left open at its end)
        closes; None when the line leaves no block open."""
        row = self.opened(line)
        return row[0].close if row else None

    def bracket_close(self, line: int) -> int | None:
        """Where the outermost bracket (not an indented body) opened on ``line`` and left
        open closes: the end of a statement over several lines (``import {`` ... ``}``)."""
        row = [b for b in self.opened(line) if b.kind in ("{", "(", "[")]
        return row[0].close if row else None

    def enclosing(self, line: int) -> Block | None:
        """The innermost multi-line block that holds ``line`` strictly inside it."""
        best: Block | None = None
        for b in self.blocks:
            if b.open < line < b.close and (best is None or b.depth > best.depth):
                best = b
        return best


def outline(text: str, path_or_syntax: str | Syntax) -> Outline | None:
    """The outline of ``text``, read by the rules of ``path_or_syntax`` (a path, whose
    extension names the language, or a :class:`Syntax`); None for an unknown language."""
    if isinstance(path_or_syntax, Syntax):
        syntax: Syntax | None = path_or_syntax
    else:
        syntax = syntax_for(path_or_syntax)
    if syntax is None:
        return None
    lines = [x.rstrip("\r\n") for x in split_lines(text)]
    return scan(lines, syntax)


def scan(lines: list[str], syntax: Syntax) -> Outline:
    """The outline of ``lines`` (without terminators) by ``syntax``'s rules."""
    scanner = _Scanner(lines, syntax)
    scanner.run()
    blocks = scanner.blocks
    balanced = scanner.balanced and not scanner.stack
    if syntax.indent:
        yaml = syntax.name == "yaml"
        blocks = blocks + _indent_blocks(lines, scanner.code_lines, scanner.continued, yaml)
    blocks.sort()  # by start, then open, close: tuples, compared in C
    return Outline(blocks, len(lines), balanced, frozenset(scanner.code_lines))


_CLOSER = {"}": "{", ")": "(", "]": "["}
# Block(...) without NamedTuple's __new__ (a Python call): the same tuple, made in C.
_new_block = tuple.__new__
_OPENERS = frozenset("{([")
_ROUND_SQUARE = frozenset("([")


@functools.cache
def _string_body(q: str) -> re.Pattern[str]:
    """A string's body up to its closing quote ``q``: escapes skipped, a backslash at the
    end of the line left unmatched. (A quote of two characters never closes, as before.)"""
    other = f"\\\\{re.escape(q)}" if len(q) == 1 else "\\\\"
    return re.compile(rf"[^{other}]*+(?:\\.[^{other}]*+)*+", re.DOTALL)


_CHAR_LITERAL = re.compile(r"'(?:\\.[^']{0,8}|[^'\\])'")
# A start or end tag. (Possessive: no quote, '>' or '/' in a name, and attributes that
# cannot be read one way cannot be read another, so giving back never finds a tag: without
# it, a '<' not opening a tag costs time in its name and the lines after it.)
_TAG = re.compile(r"<(/?)([A-Za-z][\w.:-]*+)((?:[^>\"'/]++|/(?!>)|\"[^\"]*+\"|'[^']*+')*+)(/?)>")
_WORD_BEFORE = re.compile(r"[\w$)\].]$")
_JSX_KEYWORD_BEFORE = re.compile(r"(?:^|[^\w$])(?:return|yield|await|case|default|in|of)$")
# What an expression can start after (so a '/' there opens a regular expression).
_EXPRESSION_AFTER = re.compile(
    r"(?:[(,=:\[!&|?{};+\-*%<>~^]|(?:^|[^\w$])(?:typeof|void|delete|throw|new|instanceof))$"
)
# The rest of a regular expression literal: escapes, classes (where '/' is literal), flags.
_REGEX_BODY = re.compile(r"(?:\\.|\[(?:\\.|[^\]\\])*\]|[^/\\\[\n])+/[A-Za-z]*")


_CHILDREN_TOKENS = re.compile(r"[<{]")  # what matters in JSX text between tags


@functools.cache
def _token_patterns(syntax: Syntax) -> tuple[re.Pattern[str] | None, re.Pattern[str] | None]:
    """The tokens of ``syntax`` other than brackets and separators (comments, strings, tags,
    in the order they are tried), and its brackets and separators: single characters that
    none of the others holds, so the two are found apart. None for no such token."""
    parts = [re.escape(c) for c in syntax.line_comments]
    parts += [re.escape(a) for a, _ in syntax.block_comments]
    if syntax.triple_quotes:
        parts += ['"""', "'''"]
    parts += [re.escape(q) for q in syntax.quotes]
    if syntax.tags or syntax.jsx:
        parts.append(r"<")
    if syntax.regex_literals:
        parts.append(r"/")  # after '//' and '/*' in the alternation
    if syntax.dollar_quotes:
        parts.append(r"\$(?:[A-Za-z_]\w*)?\$")
    tokens = re.compile("|".join(parts)) if parts else None
    if not syntax.brackets:
        return tokens, None
    return tokens, re.compile(f"[{re.escape(_bracket_chars(syntax))}]")


def _bracket_chars(syntax: Syntax) -> str:
    """The brackets and separators of ``syntax``: ',' ends an item of a list (an object's
    member, an argument) the way ';' ends a statement, except in CSS, where it joins the
    selectors of one rule."""
    return "{}()[];" if syntax.name in ("css", "scss") else "{}()[];,"


class _Scanner:
    """One pass over the text: strings and comments skipped, brackets and tags matched."""

    def __init__(self, lines: list[str], syntax: Syntax) -> None:
        self.lines = lines
        self.syntax = syntax
        self.blocks: list[Block] = []
        # open entries: (kind, line, start line of its statement)
        self.stack: list[tuple[str, int, int]] = []
        self.balanced = True
        # per depth, the line where the current statement began (None: not begun)
        self.statement: list[int | None] = [None]
        self.code_lines: set[int] = set()  # lines holding some code (not only comments)
        self.continued: set[int] = set()  # lines that go on a statement open in brackets
        self._tokens, self._brackets_pattern = _token_patterns(syntax)
        self._last_code = ""  # the last line that held code, stripped

    def run(self) -> None:
        lines = self.lines
        n = len(lines)
        syntax = self.syntax
        jsx = syntax.jsx
        indent = syntax.indent
        sql = syntax.name == "sql"
        tokens, brackets = self._tokens, self._brackets_pattern
        bracket_chars = _bracket_chars(syntax)
        # Bound once: the loop below runs per line and per token.
        stack, statement = self.stack, self.statement
        code_lines, continued = self.code_lines, self.continued
        goes_on, goes_on_after = _GOES_ON.match, _GOES_ON_AFTER.search
        i, col = 0, 0
        while i < n:
            line = lines[i]
            if col == 0:
                # A new line: it goes on the statement before, or begins one.
                kind = stack[-1][0] if stack else ""  # the innermost open block's
                if kind in _OPENERS:
                    continued.add(i)
                elif indent and i > 0 and lines[i - 1].endswith("\\"):
                    continued.add(i)  # a backslash joins the line to the one before
                stripped = line.strip()
                if not stripped:
                    i += 1  # a blank line: no token, no code
                    continue
                if not (sql or kind in _ROUND_SQUARE) and (
                    # (_GOES_ON_AFTER ends at the end: the last two characters tell.)
                    indent or not (goes_on(stripped) or goes_on_after(self._last_code[-2:]))
                ):
                    statement[-1] = None
            if jsx and stack and stack[-1][0][0] == "<":
                i, col = self._children(i, col)
                continue
            # The next token that moves the scan (a string, a comment, a tag), and the
            # brackets and separators before it, which need no positions.
            m = tokens.search(line, col) if tokens else None
            at = m.start() if m else len(line)
            toks: list[str] = []
            if brackets is not None:
                toks = brackets.findall(line, col, at)
                k = self._brackets(toks, i) if toks else 0
                if jsx and stack and stack[-1][0][0] == "<":
                    # Into an element's children after token k - 1: read on from there.
                    col = [b.end() for b in brackets.finditer(line, col, at)][k - 1]
                    continue
            if i not in code_lines or statement[-1] is None:
                # Code between the last bracket (or ``col``) and the token or the line's end?
                # (Before a comment it marks the line; the other tokens mark it themselves.)
                gap = line[col:at].rstrip()
                if gap and not (toks and gap[-1] in bracket_chars):
                    self._code(i)
            if m is None:
                i, col = i + 1, 0
            else:
                i, col = self._token(m.group(), i, at, m.end())

    def _brackets(self, toks: list[str], i: int) -> int:
        """The brackets and separators ``toks``, in order, on line ``i``; how many were read
        (all, unless in JSX a closer leaves the scan in an element's children: then the
        ones up to it)."""
        stack, statement = self.stack, self.statement
        self._code(i)
        jsx = self.syntax.jsx
        for k, tok in enumerate(toks):
            if tok in "{([":
                s = statement[-1]
                if s is None:
                    statement[-1] = s = i
                stack.append((tok, i, s))
                statement.append(None)
            elif tok in "})]":
                if statement[-1] is None:
                    statement[-1] = i
                kind = _CLOSER[tok]
                if stack and stack[-1][0] == kind:  # the usual case: the innermost closes
                    opener, line, start = stack.pop()
                    statement.pop()
                    self.blocks.append(_new_block(Block, (start, line, i, len(stack), opener)))
                else:
                    self._close(kind, i)
                if tok == "}":
                    statement[-1] = None  # a block ends a statement
                if jsx and stack and stack[-1][0][0] == "<":
                    return k + 1
            else:
                statement[-1] = None  # ';' or ','
        return len(toks)

    def _children(self, i: int, col: int) -> tuple[int, int]:
        """JSX text between tags, from ``col`` of line ``i``: only '<' and '{' matter. Where
        the scan goes on."""
        line = self.lines[i]
        prev = col
        for m in _CHILDREN_TOKENS.finditer(line, col):
            tok = m.group()
            at, end = m.span()
            if line[prev:at].strip():
                self._code(i)
            if tok == "{":
                self._brackets([tok], i)
                return i, end  # into code
            j, c = self._token(tok, i, at, end)
            if j != i or c != end or not (self.stack and self.stack[-1][0][0] == "<"):
                return j, c
            prev = c
        if line[prev:].strip():
            self._code(i)
        return i + 1, 0

    def _code(self, i: int) -> None:
        if i not in self.code_lines:
            self._last_code = self.lines[i].strip()
        self.code_lines.add(i)
        if self.statement[-1] is None:
            self.statement[-1] = i

    def _token(self, tok: str, i: int, at: int, end: int) -> tuple[int, int]:
        """A token other than a bracket or separator (see :meth:`_brackets`)."""
        s = self.syntax
        if tok in s.line_comments:
            return i + 1, 0
        for a, b in s.block_comments:
            if tok == a:
                return self._skip_to(b, i, end)
        if tok in ('"""', "'''"):
            self._code(i)
            j, col = self._skip_to(tok, i, end)
            self._continues(i, min(j, len(self.lines) - 1))
            return j, col
        if tok in s.quotes:
            return self._string(tok, i, at, end)
        if tok == "<":
            return self._angle(i, at, end)
        if tok == "/":
            return self._slash(i, at, end)
        # A '$tag$' quote (the one token left).
        self._code(i)
        j, col = self._skip_to(tok, i, end)
        self._continues(i, min(j, len(self.lines) - 1))
        return j, col

    def _close(self, kind: str, i: int) -> None:
        stack = self.stack
        if stack and stack[-1][0] == kind:  # the usual case: the innermost closes
            opener, line, start = stack.pop()
            self.statement.pop()
            self.blocks.append(_new_block(Block, (start, line, i, len(stack), opener)))
            return
        # An unmatched closer leaves the stack alone; a mismatched one closes what it
        # matches if that is open (the ones above it were never closed).
        for k in range(len(self.stack) - 1, -1, -1):
            if self.stack[k][0] == kind:
                if k != len(self.stack) - 1:
                    self.balanced = False
                while len(self.stack) > k:
                    opener, line, start = self.stack.pop()
                    self.statement.pop()
                    self.blocks.append(_new_block(Block, (start, line, i, len(self.stack), opener)))
                return
        self.balanced = False

    def _skip_to(self, closer: str, i: int, col: int) -> tuple[int, int]:
        while i < len(self.lines):
            k = self.lines[i].find(closer, col)
            if k >= 0:
                return i, k + len(closer)
            i, col = i + 1, 0
        return i, 0

    def _string(self, q: str, i: int, at: int, end: int) -> tuple[int, int]:
        line = self.lines[i]
        self._code(i)
        if q == "'" and self.syntax.short_char_quote:
            m = _CHAR_LITERAL.match(line, at)
            return (i, m.end()) if m else (i, end)
        spans_lines = q == "`" and self.syntax.raw_backtick
        escapes = not (q == "`" and self.syntax.name == "go")  # Go's `...` is raw
        body = _string_body(q)
        first, col = i, end
        while True:
            if escapes:
                b = body.match(line, col)  # (it always matches, if only "")
                k = b.end() if b else col
                if k < len(line) and line[k] == q:
                    self._continues(first, i)
                    return i, k + 1
                dangling = k < len(line)  # a backslash at the end escapes the line break
            else:
                k = line.find(q, col)
                if k >= 0:
                    self._continues(first, i)
                    return i, k + 1
                dangling = False
            if not spans_lines and not dangling:
                return i + 1, 0  # an unclosed string ends with its line
            if not spans_lines:
                self._continues(i, i + 1)  # a backslash at the end: the string goes on
            i, col = i + 1, 0
            if i >= len(self.lines):
                return i, 0
            line = self.lines[i]

    def _slash(self, i: int, at: int, end: int) -> tuple[int, int]:
        """A regular expression literal where an expression starts; else a division."""
        self._code(i)
        before = self.lines[i][:at].rstrip() or self._last_code_before(i)
        tail = before[-11:]  # as long as the longest match: " instanceof"
        if before and not (_EXPRESSION_AFTER.search(tail) or _JSX_KEYWORD_BEFORE.search(tail)):
            return i, end
        m = _REGEX_BODY.match(self.lines[i], end)
        return (i, m.end()) if m else (i, end)

    def _last_code_before(self, i: int) -> str:
        return "" if i == 0 else self._last_code if i - 1 in self.code_lines else ""

    def _continues(self, first: int, last: int) -> None:
        """Lines ``first + 1`` .. ``last`` go on a statement begun on ``first``."""
        self.continued.update(range(first + 1, last + 1))

    def _angle(self, i: int, at: int, end: int) -> tuple[int, int]:
        line = self.lines[i]
        s = self.syntax
        if s.tags and line.startswith("<!--", at):
            return self._skip_to("-->", i, at + 4)
        in_children = bool(self.stack) and self.stack[-1][0][0] == "<"
        if s.jsx and not in_children and not line.startswith("</", at):
            before = line[:at].rstrip()
            if (
                # (Both end at the end: the last 8 characters, " default", tell.)
                (_WORD_BEFORE.search(before[-8:]) and not _JSX_KEYWORD_BEFORE.search(before[-8:]))
                or line.startswith("<=", at)
                or line.startswith("<<", at)
            ):
                return i, end  # a comparison, a shift or a type's <T>
        m = _tag_at(self.lines, i, at)
        if m is None:
            if s.jsx and line.startswith("<>", at):
                self._open_tag("", i)
                return i, at + 2
            if s.jsx and line.startswith("</>", at):
                self._close_tag("", i)
                return i, at + 3
            return i, end
        last, col, closing, name, self_closing = m
        if not closing and not self_closing and name.lower() in RAW and s.tags:
            return self._raw(name.lower(), i, last, col)
        if closing:
            self._close_tag(name, i)
        elif self_closing or (s.tags and name.lower() in VOID):
            self._code(i)
        else:
            self._open_tag(name, i)
        return last, col

    def _open_tag(self, name: str, i: int) -> None:
        self._code(i)
        if self.syntax.tags:
            self._end_implied(name.lower(), i)
        self.stack.append((f"<{name}>", i, i))  # an element's header is its start tag
        self.statement.append(None)

    def _close_tag(self, name: str, i: int) -> None:
        self._code(i)
        kind = f"<{name}>"
        if any(k == kind for k, _, _ in self.stack):
            # An element left open inside it (an HTML <p> or <li>) ends with it, on the
            # line before its end tag.
            while self.stack:
                opener, line, start = self.stack.pop()
                self.statement.pop()
                close = i if opener == kind or i == line else i - 1
                self.blocks.append(Block(start, line, close, len(self.stack), opener))
                if opener == kind:
                    break
            self.statement[-1] = None
        else:
            self.balanced = False

    def _end_implied(self, name: str, i: int) -> None:
        """An HTML element whose end tag was left out ends where the next one starts."""
        while self.stack and self.stack[-1][0].startswith("<"):
            open_name = self.stack[-1][0][1:-1].lower()
            if name not in IMPLIED_END.get(open_name, ()):
                return
            opener, line, start = self.stack.pop()
            self.statement.pop()
            close = i - 1 if i > line else i
            self.blocks.append(Block(start, line, close, len(self.stack), opener))

    def _raw(self, name: str, i: int, last: int, col: int) -> tuple[int, int]:
        """A <script> or <style> element: its content scanned by the code's own rules."""
        self._open_tag(name, i)
        closer = f"</{name}"
        j, c = last, col
        while j < len(self.lines):
            k = self.lines[j].lower().find(closer, c)
            if k >= 0:
                break
            j, c = j + 1, 0
        inner_lines = self.lines[last : j + 1] if j < len(self.lines) else self.lines[last:]
        if inner_lines:
            inner_lines = list(inner_lines)
            if j < len(self.lines):
                inner_lines[-1] = inner_lines[-1][:k]
            inner_lines[0] = " " * col + inner_lines[0][col:]
            inner = _Scanner(inner_lines, _BY_NAME[RAW[name]])
            inner.run()
            depth = len(self.stack)
            for b in inner.blocks:
                self.blocks.append(
                    Block(b.start + last, b.open + last, b.close + last, b.depth + depth, b.kind)
                )
            self.code_lines |= {x + last for x in inner.code_lines}
            self.balanced = self.balanced and inner.balanced and not inner.stack
        if j >= len(self.lines):
            return j, 0
        end = self.lines[j].find(">", k)
        self._close_tag(name, j)
        return j, (end + 1 if end >= 0 else len(self.lines[j]))


def _tag_at(lines: list[str], i: int, at: int) -> tuple[int, int, bool, str, bool] | None:
    """The tag starting at ``lines[i][at]`` (it may span lines): ``(last line, column after
    it, closing, name, self-closing)``; None when no tag starts there."""
    text = lines[i][at:]
    j = i
    # A tag's attributes may run over a few lines.
    while True:
        m = _TAG.match(text)
        if m:
            closing, name, _, slash = m.group(1), m.group(2), m.group(3), m.group(4)
            if j == i:
                return j, at + m.end(), bool(closing), name, bool(slash)
            tail = len(text) - m.end()
            return j, len(lines[j]) - tail, bool(closing), name, bool(slash)
        if j - i >= 20 or j + 1 >= len(lines) or (">" in text and not _opens_attrs(text)):
            return None
        j += 1
        text = text + "\n" + lines[j]


def _opens_attrs(text: str) -> bool:
    """``text`` starts a tag whose attributes are not closed yet (a quote left open)."""
    return text.count('"') % 2 == 1 or text.count("'") % 2 == 1


def _indent(line: str) -> int:
    if "\t" in line:
        line = line.expandtabs(8)
    return len(line) - len(line.lstrip())


_SEQUENCE_ITEM = re.compile(r"[ \t]*-(?:[ \t]|$)")
_DOCUMENT_MARK = re.compile(r"(?:---|\.\.\.)(?:[ \t]|$)")


def _indent_blocks(
    lines: list[str], code: set[int], continued: set[int], yaml: bool = False
) -> list[Block]:
    """Blocks by indentation: a logical line whose next one is deeper opens a block that ends
    with the last line of the last logical line deeper than it. A comment line neither opens
    nor ends a block (as in Python), but one indented into an open block is part of it."""
    starts = [i for i in sorted(code) if i not in continued]
    ordered = sorted(continued)
    last_line: dict[int, int] = {}  # logical line -> its last physical line
    for k, i in enumerate(starts):
        nxt = starts[k + 1] if k + 1 < len(starts) else len(lines)
        # The last continued line before the next logical line, if it is after this one.
        p = bisect.bisect_left(ordered, nxt) - 1
        last_line[i] = ordered[p] if p >= 0 and ordered[p] > i else i
    comments = {
        i for i, x in enumerate(lines) if x.strip() and i not in code and i not in continued
    }
    out: list[Block] = []
    # The open blocks, outermost first, in three columns: their indentation (rising: a
    # line pops the ones as deep as it or deeper), opening line and last line so far.
    levels: list[int] = []
    opens: list[int] = []
    lasts: list[int] = []
    for i in sorted(comments.union(starts)):
        level = _indent(lines[i])
        if i in comments:
            # Blocks with a body so far hold it (the last entry has none yet): the ones
            # shallower than the comment, below the top.
            k = min(bisect.bisect_left(levels, level), len(levels) - 1)
            if k > 0:
                lasts[:k] = [i] * k
            continue
        if yaml and _SEQUENCE_ITEM.match(lines[i]):
            level += 1  # "key:" then "- item" at the key's indentation: the key's items
        if yaml and _DOCUMENT_MARK.match(lines[i]):
            level = -1  # '---' ends every block and opens none
        while levels and levels[-1] >= level:
            levels.pop()
            opened = opens.pop()
            out.append(_new_block(Block, (opened, opened, lasts.pop(), len(levels), "indent")))
        last = last_line[i]
        lasts = [last] * len(levels)
        if level >= 0:
            levels.append(level)
            opens.append(i)
            lasts.append(last)
    while levels:
        levels.pop()
        opened = opens.pop()
        out.append(_new_block(Block, (opened, opened, lasts.pop(), len(levels), "indent")))
    return [b for b in out if b.close > last_line[b.open]]


# -- headers -------------------------------------------------------------------------------------
# Words before a definition's kind that do not change which definition it is.
_MODIFIERS = re.compile(
    r"^(?:(?:export|default|public|private|protected|internal|static|async|abstract|final|"
    r"override|virtual|inline|extern|unsafe|sealed|open|data|pub(?:\([\w:]+\))?|const(?=\s+fn)|"
    r"declare|readonly)\s+)+"
)
_KINDS = (
    r"class|struct|enum|interface|trait|impl|fn|fun|function\*?|def|func|type|module|namespace|"
    r"object|record|union|protocol|extension|mod|macro_rules!"
)
_DEFINITION = re.compile(rf"^(?P<kind>{_KINDS})\b\s*(?P<rest>.*)", re.S)
_NAME = re.compile(r"[A-Za-z_$][\w$]*")
_GO_METHOD = re.compile(r"^\(\s*\w*\s*\*?\s*([\w.]+)[^)]*\)\s*(\w+)")
_DECLARATION = re.compile(r"^(?:const|let|var|val|static)\s+(?:mut\s+)?([A-Za-z_$][\w$]*)")
_CALL = re.compile(r"^([A-Za-z_$][\w$.]*)\s*\(\s*(?P<arg>'[^']*'|\"[^\"]*\"|`[^`]*`)?")
# A function or method with its return type before its name (C, C++, Java, C#).
_TYPED_FUNCTION = re.compile(r"^(?:[\w:<>\[\],.?&*]+\s+)+[*&]*((?:\w+::)*~?[A-Za-z_]\w*)\s*\(")
# Blocks that are not definitions: they have no name to be told by.
_CONTROL = re.compile(
    r"^(?:\}\s*)?(?:if|else|for|foreach|while|do|switch|try|catch|finally|with|elif|except|"
    r"loop|match|case|default|unless|until|select|when)\b"
)
# A method header: a name, its parameters, perhaps a return type, then the body's brace.
_METHOD = re.compile(r"^[A-Za-z_$][\w$]*\s*(?:<[^>]*>)?\s*\([^()]*\)\s*(?::\s*[^{=]+)?\{?$")
_PROPERTY = re.compile(r"^([A-Za-z_$][\w$]*|'[^']*'|\"[^\"]*\")\s*:")
_SQL = re.compile(
    r"^(create|alter)\s+(?:or\s+replace\s+)?(?:temp(?:orary)?\s+)?(?:unique\s+)?"
    r"(table|view|function|procedure|index|trigger|type|schema|sequence|materialized\s+view)"
    r"\s+(?:if\s+not\s+exists\s+)?([\w.\"]+)",
    re.I,
)
_KEY_ATTRS = re.compile(
    r"\b(id|class|className|name|key|ref|slot|v-for|v-if|:key|for|href|src|type)\s*=\s*"
    r"(\"[^\"]*\"|'[^']*'|\{[^}]*\})"
)


def header_text(lines: list[str], block: Block) -> str:
    """The block's header as one line: from its statement's start to its opener's line,
    whitespace collapsed."""
    return " ".join(" ".join(lines[block.start : block.open + 1]).split())


def identity(header: str, syntax: Syntax, kind: str = "{") -> str:
    """What a block is, told by its header: kind and name for a definition (``function
    handleStdout``, ``class Calculator``, ``impl<T> Trait for Weak<T>``), the selector of a CSS
    rule, the tag and key attributes of an element, the statement and name of SQL, the
    callee and first argument of a call taking a block (``describe('parse'``); "" for a
    control block (``if``, ``for``, ``try``), a call or anything else no name tells apart.
    Two blocks of one file with the same identity are the same definition shown twice, or
    twins."""
    text = header.strip()
    if kind.startswith("<"):
        attrs = " ".join(f"{k}={v}" for k, v in _KEY_ATTRS.findall(text))
        return f"{kind[:-1]} {attrs}>" if attrs else kind
    if syntax.name in ("css", "scss"):
        return " ".join(text.split("{", 1)[0].split())  # the selector (a rule on one line too)
    m = _SQL.match(text)
    if m:
        return f"{m.group(1).lower()} {' '.join(m.group(2).lower().split())} {m.group(3)}"
    while text.startswith("@") or text.startswith("#["):
        # Decorators and attributes before the definition on its own line.
        cut = re.match(r"^(?:@[\w.]+(?:\([^)]*\))?|#\[[^\]]*\])\s*", text)
        if not cut or not cut.group():
            break
        text = text[cut.end() :]
    if _CONTROL.match(text):
        return ""
    text = _MODIFIERS.sub("", text)
    m = _DEFINITION.match(text)
    if m:
        kind_word, rest = m.group("kind").rstrip("*"), m.group("rest")
        if kind_word == "impl":
            return "impl " + " ".join(re.sub(r"\s*(where\b.*)?\{?\s*$", "", rest).split())
        if kind_word == "func":
            go = _GO_METHOD.match(rest)
            if go:
                return f"func ({go.group(1)}).{go.group(2)}"
        name = _NAME.match(rest)
        return f"{kind_word} {name.group()}" if name else kind_word
    m = _TYPED_FUNCTION.match(text) if syntax.name == "c" else None
    if m:
        return f"{m.group(1)}("
    m = _DECLARATION.match(text)
    if m:
        return f"let {m.group(1)}"  # const, let, var: one name, whichever keyword
    m = _PROPERTY.match(text)
    if m:
        return f"{m.group(1).strip(chr(34) + chr(39))}:"
    m = _CALL.match(text)
    if m:
        arg = m.group("arg")
        if arg and text.endswith("{"):
            # A call whose callback's body opens on its line: describe('parse', () => {,
            # app.get('/users', (req, res) => {. (Other calls are statements.)
            return f"{m.group(1)}({arg}"
        if _METHOD.match(text):
            return f"{m.group(1)}("  # a method: its parameters, then its body
    return ""  # a statement, an expression: nothing names it
