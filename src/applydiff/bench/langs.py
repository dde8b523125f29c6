"""The languages of the corpus's files: how each writes comments, the lines the generator
adds, and the words an edit never renames."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Lang:
    """How a file's language writes what the generator adds: comments, new lines, names."""

    name: str
    comment: tuple[str, str]  # a comment's opener and closer ("": it runs to the line's end)
    comment_lines: tuple[str, ...]  # how a line that is only a comment starts
    opens: tuple[str, ...]  # a line ending so opens a block (the next line is deeper)
    statements: tuple[str, ...]  # new lines: format strings of ``name`` and ``n``
    reserved: frozenset[str] = frozenset()  # words an edit never renames

    def remark(self, text: str) -> str:
        opener, closer = self.comment
        return f"{opener} {text} {closer}" if closer else f"{opener} {text}"


# Keywords of the brace languages (and Perl, CSS): an edit renames names, not these.
_BRACE_WORDS = frozenset(
    """auto bool break case char class const constexpr continue default define delete do double
    else endif enum explicit extern false final float for friend goto ifdef ifndef include
    inline int long mutable namespace new noexcept nullptr operator override private
    protected public register restrict return short signed sizeof static struct switch
    template this throw true try catch typedef typename undef union unsigned using virtual
    void volatile while NULL async await export extends function import instanceof let null
    require super typeof undefined var yield func package chan defer map range select
    interface type impl pub mod use crate self Self mut match loop trait where dyn boolean
    byte implements abstract synchronized our sub local unless elsif foreach last next
    important inherit none if fn go in of is as""".split()  # noqa: SIM905
)
PY = Lang(
    "python",
    ("#", ""),
    ("#",),
    (":",),
    (
        "{name}_count = {n}",
        "assert {name} is not None",
        "log.debug('{name}: %r', {name})",
        "self._{name} = {name}",
        "if {name} is None:  # guard {n}",
    ),
)
BRACE = Lang(
    "brace",
    ("//", ""),
    ("//", "/*", "*"),
    ("{",),
    (
        "{name}_count = {n};",
        "assert({name} != 0);",
        'debug("{name}: %d", {name});',
        "if (!{name}) return {n};",
        "{name} += {n};",
    ),
    _BRACE_WORDS,
)
PERL = Lang(
    "perl",
    ("#", ""),
    ("#",),
    ("{",),
    (
        "my ${name}_count = {n};",
        "return {n} unless ${name};",
        'warn "{name}: $_\\n";',
        "local ${name} = {n};",
        "${name}++;",
    ),
    _BRACE_WORDS,
)
CSS = Lang(
    "css",
    ("/*", "*/"),
    ("/*", "*"),
    ("{",),
    (
        "{name}-width: {n}px;",
        "margin-{name}: {n}em;",
        "z-index: {n}; /* {name} */",
        "--{name}-size: {n}px;",
        "{name}: inherit;",
    ),
    _BRACE_WORDS,
)
HTML = Lang(
    "html",
    ("<!--", "-->"),
    ("<!--",),
    (">",),
    (
        '<p class="{name}">{n}</p>',
        '<span id="{name}-{n}"></span>',
        '<a href="#{name}">{n}</a>',
        "<li>{name} {n}</li>",
        "<!-- {name} {n} -->",
    ),
    _BRACE_WORDS,
)
LANGS = {".py": PY, ".pl": PERL, ".pm": PERL, ".css": CSS, ".html": HTML, ".htm": HTML}


def lang_of(path: str) -> Lang:
    """By the file's extension; C, C++, JavaScript, Go, Rust, Java and the rest: ``BRACE``."""
    return LANGS.get(Path(path).suffix.lower(), BRACE)
