"""Edit cases for the benchmarks, built from real source files on this machine.

A case is what a model sends to change one line of a file it remembers imperfectly: a block of
5-20 lines of the file as ``old``, the same block with one line changed, inserted or deleted
as ``new``, both carrying the same *noise* (how the model's memory differs from the file), and
the exact text the file must hold afterwards, or ``None`` when the engine must refuse.

The intended edit is made on the block as the file holds it, so ``expected`` is known exactly:
lines the model did not change keep the file's bytes, changed lines come out in the file's
style. Everything is deterministic for a given seed and set of files.

Two sets of files: the standard library's Python (the default), and the *foreign* corpus
(``files="foreign"``: C headers, npm's JavaScript, C/C++, Perl, CSS/HTML, Go found on the
machine, ``foreign_groups``). Lines the generator writes (new statements, comments, elision
markers) are in the file's language (``Lang``). Some kinds put noise in ``old`` only
(``LINE_KINDS``: a misquoted or cut line that ``new`` writes as the file has it).

>>> cases = generate(["exact"], 1, seed=0)
>>> cases[0].kind, cases[0].expected is not None
('exact', True)
"""

from __future__ import annotations

import glob as globlib
import keyword
import math
import random
import re
import string
import subprocess
import sysconfig
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from difflib import SequenceMatcher
from functools import cache
from pathlib import Path

from rapidfuzz.distance import Levenshtein

# Kinds the engine must resolve to ``expected``.
RESOLVE_KINDS = (
    "exact",
    "trailing_ws",
    "dedented",
    "over_indented",
    "tabs_spaces",
    "first_line_unindented",
    "truncated_boundary",
    "typo1",
    "typo2",
    "escaped_quotes",
    "smart_quotes",
    "elision",
    "crlf",
    "trailing_newline_missing",
    "duplicated_hint",
    "twins",
    "typo3",
    "missing_line",
    "extra_line",
    "stale_line",
    "short_block_typo",
)
# Kinds the engine must refuse (``expected`` is None).
REFUSE_KINDS = (
    "absent",
    "hallucinated",
    "duplicated_no_hint",
    "hallucinated_light",
    "wrong_file",
)
KINDS = RESOLVE_KINDS + REFUSE_KINDS  # the standard-library corpus of ``applydiff bench``
# Noise on the lines a model copies (issue 14); all must resolve. Kept apart from ``KINDS`` so
# that ``applydiff bench`` keeps its corpus; ``benchmarks/accuracy.py`` runs them too.
LINE_KINDS = (
    "misquote_fixed",
    "tabs_as_spaces",
    "cut_first_line",
    "cut_last_line",
    "odd_line_breaks",
    "cr_only",
)
ALL_KINDS = KINDS + LINE_KINDS
# What ``benchmarks/accuracy.py`` runs on each corpus (the standard library has no tabs).
STDLIB_KINDS = KINDS + tuple(k for k in LINE_KINDS if k != "tabs_as_spaces")
FOREIGN_KINDS = ALL_KINDS
# Kinds whose outcome hinges on the fuzzy tier's similarity threshold.
FUZZY_KINDS = (
    "typo1",
    "typo2",
    "typo3",
    "missing_line",
    "extra_line",
    "stale_line",
    "short_block_typo",
    "hallucinated",
    "hallucinated_light",
    "wrong_file",
    "absent",
)
# Kinds whose ``old`` must differ from every stretch of the file (the noise changed something).
NOISY_KINDS = frozenset(
    {
        "trailing_ws",
        "dedented",
        "over_indented",
        "tabs_spaces",
        "first_line_unindented",
        "truncated_boundary",
        "typo1",
        "typo2",
        "escaped_quotes",
        "smart_quotes",
        "elision",
        "typo3",
        "missing_line",
        "extra_line",
        "stale_line",
        "short_block_typo",
        "misquote_fixed",
        "tabs_as_spaces",
        "cut_first_line",
        "cut_last_line",
    }
)

MIN_BLOCK, MAX_BLOCK = 5, 20
SHORT_BLOCK = (2, 4)  # line counts of ``short_block_typo`` blocks
WRONG_FILE_SIMILARITY = 0.7  # ``wrong_file``: least similarity to some block of the target
DUP_GAP = 30  # lines between the two copies of a duplicated block
ELISION_MARKER = "# ... existing code ..."
MAX_FILE_BYTES = 250_000  # past this, stdlib files are data (pydoc topics), not code
MAX_LINE = 160
SKIP_DIRS = frozenset({"test", "tests", "idle_test", "site-packages", "__pycache__"})
TAB = "\t"
# Characters ``str.splitlines`` breaks at that are not line breaks to applydiff (issue 14).
ODD_BREAKS = ("\f", "\x0b", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029")


@dataclass(frozen=True)
class Case:
    """One edit: apply ``replace(text, old, new, hint_line=..., replace_all=...)``."""

    kind: str
    path: str
    text: str
    old: str
    new: str
    hint_line: int | None
    expected: str | None
    replace_all: bool = False
    line: int = 0  # 1-based first line of the intended block in ``text`` (0: none)
    note: str = ""  # how the case was made, for reports


# -- languages --------------------------------------------------------------------------------
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


# -- source files -----------------------------------------------------------------------------
FOREIGN = "foreign"  # the ``files`` pattern that names the foreign corpus
# The foreign corpus: (group, globs, most files taken). ``{npm}`` is ``npm root -g``.
FOREIGN_SOURCES: tuple[tuple[str, tuple[str, ...], int], ...] = (
    ("C headers", ("/usr/include/**/*.h",), 600),
    ("npm JavaScript", ("{npm}/**/*.js", "{npm}/**/*.mjs", "{npm}/**/*.cjs"), 400),
    (
        "C and C++ sources",
        (
            "/usr/share/**/*.c",
            "/usr/include/**/*.c",
            "/usr/include/**/*.hpp",
            "/usr/include/c++/*/bits/*.tcc",
        ),
        200,
    ),
    ("Perl", ("/usr/share/perl/**/*.pm", "/usr/share/perl5/**/*.pm"), 150),
    ("CSS and HTML", ("/usr/share/**/*.css", "/usr/share/doc/**/*.html", "{npm}/**/*.html"), 100),
    (
        "Go, Rust, Java",
        (
            "/usr/share/**/*.go",
            "/usr/local/go/src/**/*.go",
            "~/.rustup/toolchains/*/lib/rustlib/src/**/*.rs",
            "/usr/share/**/*.java",
        ),
        100,
    ),
)
_GENERATED = re.compile(
    r"generated by|automatically generated|auto-?generated|do not edit|@generated", re.I
)


@cache
def npm_root() -> str:
    """Where npm keeps its global packages (npm's own JavaScript is there)."""
    try:
        out = subprocess.run(
            ["npm", "root", "-g"], capture_output=True, text=True, timeout=30, check=True
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        out = ""
    return out or "/usr/lib/node_modules"


def handwritten(path: str) -> bool:
    """Loads, and reads as written by hand: no generator's banner at the top, no minified
    lines (longest line at most 400 characters, non-blank lines 100 on average)."""
    src = load(path)
    if src is None or _GENERATED.search(src.text[:2000]):
        return False
    lines = [x for x in src.lines if x.strip()]
    return bool(lines) and max(map(len, lines)) <= 400 and sum(map(len, lines)) <= 100 * len(lines)


@cache
def foreign_groups() -> dict[str, list[str]]:
    """The foreign corpus's files by group: each group's matches sorted, shuffled with a
    fixed seed, and taken while ``handwritten`` up to the group's cap; sorted."""
    out: dict[str, list[str]] = {}
    seen: set[str] = set()
    for group, patterns, cap in FOREIGN_SOURCES:
        found: set[str] = set()
        for pattern in patterns:
            pattern = str(Path(pattern.format(npm=npm_root())).expanduser())
            found.update(p for p in globlib.glob(pattern, recursive=True) if Path(p).is_file())
        paths = sorted(found - seen)
        random.Random(f"applydiff-foreign/{group}").shuffle(paths)
        taken: list[str] = []
        for p in paths:
            if len(taken) == cap:
                break
            if handwritten(p):
                taken.append(p)
        out[group] = sorted(taken)
        seen.update(taken)
    return out


def source_files(pattern: str | None = None) -> list[str]:
    """The files cases are made from: the standard library's ``*.py`` outside test
    directories, the foreign corpus (``pattern`` ``"foreign"``: ``foreign_groups``), or
    every file matching ``pattern`` (a recursive glob); sorted."""
    if pattern == FOREIGN:
        return sorted(p for paths in foreign_groups().values() for p in paths)
    if pattern is None:
        root = Path(sysconfig.get_paths()["stdlib"])
        paths = [
            p
            for p in root.rglob("*.py")
            if not SKIP_DIRS.intersection(p.relative_to(root).parts[:-1])
        ]
        return sorted(str(p) for p in paths if p.is_file())
    return sorted(p for p in globlib.glob(pattern, recursive=True) if Path(p).is_file())


@dataclass
class Source:
    """A file as LF lines (a final newline leaves a last ``""``) and their loose keys."""

    path: str
    lines: list[str]
    text: str
    keys: list[str]
    haystack: str  # "\n" + keys joined + "\n": line-aligned search for loose windows
    keyset: frozenset[str]
    unit: str  # one level of indentation
    lang: Lang = PY

    @property
    def n(self) -> int:
        """Real lines (without the sentinel a final newline leaves)."""
        return len(self.lines) - (1 if self.lines and self.lines[-1] == "" else 0)


@cache
def load(path: str) -> Source | None:
    try:
        data = Path(path).read_bytes()
        if len(data) > MAX_FILE_BYTES or b"\0" in data or b"\r" in data:
            return None
        text = data.decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    lines = text.split("\n")
    if len(lines) < 2 * MAX_BLOCK:
        return None
    keys = [loose(x) for x in lines]
    return Source(
        path,
        lines,
        text,
        keys,
        haystack(keys),
        frozenset(k for k in keys if k),
        indent_unit(lines),
        lang_of(path),
    )


# -- line helpers -----------------------------------------------------------------------------
_SMART_TO_ASCII = str.maketrans({"‘": "'", "’": "'", "“": '"', "”": '"'})
_BLANKS = re.compile(r"\s+")
_BLANK_RUNS = re.compile(r"[ \t]+")


def loose(line: str) -> str:
    """Comparison key: smart quotes as ASCII, blank runs collapsed, ends stripped. Two blocks
    with equal keys are the same block to every tolerant tier, so uniqueness is checked on it."""
    return _BLANKS.sub(" ", line.translate(_SMART_TO_ASCII)).strip()


def haystack(keys: Iterable[str]) -> str:
    return "\n" + "\n".join(keys) + "\n"


def occurrences(hay: str, needle: str, limit: int = 3) -> int:
    """Overlapping occurrences of ``needle`` in ``hay``, counted up to ``limit``."""
    n, p = 0, hay.find(needle)
    while p >= 0 and n < limit:
        n += 1
        p = hay.find(needle, p + 1)
    return n


def lead(line: str) -> str:
    return line[: len(line) - len(line.lstrip(" \t"))]


def indent_unit(lines: list[str]) -> str:
    tabs = sum(1 for x in lines if x.startswith("\t"))
    widths = Counter(len(lead(x)) for x in lines if x.startswith(" ") and x.strip())
    if tabs > sum(widths.values()):
        return "\t"
    return "  " if widths[2] > widths[4] else "    "


def is_code(line: str, lang: Lang = PY) -> bool:
    s = line.strip()
    return bool(s) and not s.startswith(lang.comment_lines)


def good_block(block: list[str], lang: Lang = PY) -> bool:
    """Worth editing: real code, some indentation, no blank or overlong edges."""
    if not block[0].strip() or not block[-1].strip():
        return False
    if any(len(x) > MAX_LINE for x in block):
        return False
    nonblank = sum(1 for x in block if x.strip())
    return (
        nonblank >= 0.6 * len(block)
        and sum(is_code(x, lang) for x in block) >= 3
        and any(lead(x) for x in block if x.strip())
    )


def unique(lines: list[str], start: int, size: int, count: int = 1) -> bool:
    """The block at ``start`` occurs exactly ``count`` times, as text and as loose keys."""
    block = lines[start : start + size]
    text = "\n".join(lines)
    if occurrences(text, "\n".join(block)) != count:
        return False
    return occurrences(haystack(map(loose, lines)), haystack(map(loose, block))) == count


def line_diff(a: list[str], b: list[str]) -> tuple[int, bool]:
    """How two blocks of loose keys differ, line by line after aligning them: the non-blank
    lines that differ (a line on one side only counts), and whether each of those is paired
    with a line at most two edits from it (what one-character typos make)."""
    differing, small = 0, True
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        xs, ys = a[i1:i2], b[j1:j2]
        for k in range(max(len(xs), len(ys))):
            x = xs[k] if k < len(xs) else None
            y = ys[k] if k < len(ys) else None
            if x is None or y is None:
                if x or y:
                    differing, small = differing + 1, False
            elif x or y:
                differing += 1
                # A one-character typo is up to two edits (a transposition is two).
                small = small and Levenshtein.distance(x, y) <= 2
    return differing, small


def near_copy(keys: list[str], src: Source) -> bool:
    """Whether some window of ``src`` differs from the block ``keys`` by one line, or by up to
    three lines with a one-character typo each: what a single must-resolve kind's noise
    makes."""
    where: dict[str, list[int]] = {}
    for p, k in enumerate(src.keys):
        if k:
            where.setdefault(k, []).append(p)
    starts = {
        p - k + d
        for k, key in enumerate(keys)
        if key
        for p in where.get(key, ())[:50]
        for d in (-2, -1, 0, 1, 2)
    }
    size = len(keys)
    for s in sorted(x for x in starts if x >= 0):
        for c in range(max(1, size - 2), size + 3):
            if s + c > src.n:
                continue
            differing, small = line_diff(keys, src.keys[s : s + c])
            if differing <= 1 or (small and differing <= 3):
                return True
    return False


def token_change(a: str, b: str) -> str:
    """What differs between two versions of a line, for notes: ``'old' -> 'new'``."""
    p = 0
    while p < min(len(a), len(b)) and a[p] == b[p]:
        p += 1
    q = 0
    while q < min(len(a), len(b)) - p and a[-1 - q] == b[-1 - q]:
        q += 1
    return f"{a[p : len(a) - q]!r} -> {b[p : len(b) - q]!r}"


_DEF = re.compile(r"^\s*(?:async\s+)?def (\w+)\(")
# Brace languages: a name and "(" after any words ("static int", "async"), on a line that
# opens the body ("{" there, or alone on the next line).
_DEF_BRACE = re.compile(r"^\s*(?:[\w$*&:<>]+\s+)*\**([A-Za-z_$][\w$]*)\s*\(")


def defined_at(src: Source, i: int) -> str | None:
    """The function line ``i`` of ``src`` defines, if it starts a definition."""
    line = src.lines[i]
    if src.lang is PY:
        m = _DEF.match(line)
        return m.group(1) if m else None
    m = _DEF_BRACE.match(line)
    if m is None or not renamable(m.group(1), src.lang):
        return None
    end = line.rstrip()
    after = src.lines[i + 1].strip() if i + 1 < len(src.lines) else ""
    return m.group(1) if end.endswith("{") or (end.endswith(")") and after == "{") else None


@cache
def shared_defs(paths: tuple[str, ...]) -> dict[str, list[tuple[str, int]]]:
    """Function names defined in at least two of ``paths``, and where: (path, line index)."""
    where: defaultdict[str, list[tuple[str, int]]] = defaultdict(list)
    for path in paths:
        src = load(path)
        if src is None:
            continue
        for i in range(len(src.lines)):
            name = defined_at(src, i)
            if name:
                where[name].append((path, i))
    return {k: v for k, v in sorted(where.items()) if len({p for p, _ in v}) >= 2}


@cache
def with_odd_breaks(paths: tuple[str, ...]) -> tuple[str, ...]:
    """Those of ``paths`` that hold one of ``ODD_BREAKS`` (C headers' form feeds)."""
    return tuple(
        p for p in paths if (src := load(p)) is not None and any(c in src.text for c in ODD_BREAKS)
    )


# -- the intended edit --------------------------------------------------------------------------
_NUM = re.compile(r"(?<![\w.])\d+(?![\w.])")
_STR = re.compile(r"""(['"])([A-Za-z][A-Za-z0-9 _-]{0,30})\1""")
_NAME = re.compile(r"\b[A-Za-z_]\w{2,}\b")
_SKIP_NAMES = frozenset({"self", "cls", "None", "True", "False"})  # and ``Lang.reserved``


def names_in(lines: Iterable[str], lang: Lang = PY) -> list[str]:
    out = {m.group() for x in lines for m in _NAME.finditer(x)}
    return sorted(x for x in out if renamable(x, lang))


def renamable(name: str, lang: Lang = PY) -> bool:
    return not keyword.iskeyword(name) and name not in _SKIP_NAMES and name not in lang.reserved


def change_token(
    rng: random.Random,
    line: str,
    names: list[str],
    what: Iterable[str] = ("num", "str", "name"),
    lang: Lang = PY,
) -> str | None:
    """``line`` with one number, short string or identifier changed, as a model edit does
    (``what`` says which of those may change)."""
    allowed = set(what)
    spans: list[tuple[str, re.Match[str]]] = []
    if "num" in allowed:
        spans += [("num", m) for m in _NUM.finditer(line)]
    if "str" in allowed:
        spans += [("str", m) for m in _STR.finditer(line)]
    if "name" in allowed:
        spans += [("name", m) for m in _NAME.finditer(line) if renamable(m.group(), lang)]
    if not spans:
        return None
    what, m = rng.choice(spans)
    word = m.group()
    if what == "num":
        repl = str(int(word) + rng.randint(1, 9))
    elif what == "str":
        repl = m.group(1) + m.group(2) + rng.choice(["_v2", " (new)", "s"]) + m.group(1)
    else:
        others = [x for x in names if x != word]
        repl = rng.choice([word + "_new", "new_" + word, word + "2", *others[:1]])
        if others and rng.random() < 0.3:
            repl = rng.choice(others)
    out = line[: m.start()] + repl + line[m.end() :]
    return out if out != line else None


def new_statement(rng: random.Random, indent: str, names: list[str], lang: Lang = PY) -> str:
    name = rng.choice(names) if names else "value"
    n = rng.randint(2, 99)
    return indent + rng.choice([x.format(name=name, n=n) for x in lang.statements])


def deeper(indent: str, unit: str, tab: int = 4) -> str:
    """One level more: tabs first, then spaces, when the indentation has tabs (a tab counting
    ``tab`` columns), as an editor writes it."""
    if unit != TAB and TAB not in indent:
        return indent + unit
    cols = len(indent.expandtabs(tab)) + tab
    return TAB * (cols // tab) + " " * (cols % tab)


@dataclass(frozen=True)
class Edit:
    """One line of a block changed (``modify``), added after it (``insert``) or removed."""

    at: int
    op: str
    line: str = ""

    def apply(self, block: list[str]) -> tuple[list[str], list[int | None]]:
        """The edited block, and for each of its lines the block line it is (None: new)."""
        origin: list[int | None] = list(range(len(block)))
        lines = list(block)
        if self.op == "modify":
            lines[self.at], origin[self.at] = self.line, None
        elif self.op == "insert":
            lines.insert(self.at + 1, self.line)
            origin.insert(self.at + 1, None)
        else:
            del lines[self.at], origin[self.at]
        return lines, origin

    def describe(self) -> str:
        return f"{self.op} block line {self.at + 1}"


def make_edit(
    rng: random.Random,
    block: list[str],
    unit: str,
    exclude: Iterable[int] = (),
    tab: int = 4,
    *,
    ends: bool = False,
    lang: Lang = PY,
) -> Edit | None:
    """An edit to a non-blank middle line of ``block`` (the first or last too when ``ends``);
    ``unit`` is one indentation level of the file, ``tab`` the columns a tab stands for, new
    lines are written in ``lang``."""
    skip = set(exclude)
    lo, hi = (0, len(block)) if ends else (1, len(block) - 1)
    spots = [i for i in range(lo, hi) if block[i].strip() and i not in skip]
    if not spots:
        return None
    at = rng.choice(spots)
    names = names_in(block, lang)
    op = rng.choices(["modify", "insert", "delete"], [6, 2, 2])[0]
    if op == "modify":
        line = change_token(rng, block[at], names, lang=lang)
        return None if line is None else Edit(at, op, line)
    if op == "insert":
        indent = lead(block[at])
        if block[at].rstrip().endswith(lang.opens):
            indent = deeper(indent, unit, tab)
        return Edit(at, op, new_statement(rng, indent, names, lang))
    return Edit(at, op)


# -- noise --------------------------------------------------------------------------------------
@dataclass
class Noise:
    """How the model writes the block: ``lines`` replaces given block lines (in old and new
    alike), ``every`` rewrites every line, ``elide`` turns a run of block lines into one
    marker line, ``drop`` leaves block lines out, ``extra`` puts a line the file does not
    have there before a block line, ``search`` replaces block lines in old only (new has the
    file's line)."""

    every: Callable[[str], str] | None = None
    lines: dict[int, str] = field(default_factory=dict)
    elide: tuple[int, int] | None = None
    marker: str = ""
    drop: frozenset[int] = frozenset()
    extra: dict[int, str] = field(default_factory=dict)
    search: dict[int, str] = field(default_factory=dict)

    def render(self, lines: list[str], origin: list[int | None], *, old: bool = False) -> list[str]:
        a, b = self.elide or (-1, -1)
        out = []
        for line, o in zip(lines, origin, strict=True):
            if o is not None and o in self.extra:
                x = self.extra[o]
                out.append(self.every(x) if self.every else x)
            if o is not None and o in self.drop:
                continue
            if o is not None and a <= o < b:
                if o == a:
                    out.append(self.marker)
                continue
            x = self.lines.get(o, line) if o is not None else line
            if old and o in self.search:
                x = self.search[o]
            out.append(self.every(x) if self.every else x)
        return out


def typo(rng: random.Random, line: str) -> str | None:
    """One character substituted, deleted or transposed (never in the indentation)."""
    start, end = len(lead(line)), len(line.rstrip())
    if end - start < 4:
        return None
    op = rng.choice(["sub", "del", "swap"])
    pos = rng.randrange(start, end)
    if op == "sub":
        ch = line[pos]
        repl = rng.choice([c for c in string.ascii_lowercase if c != ch.lower()])
        out = line[:pos] + (repl.upper() if ch.isupper() else repl) + line[pos + 1 :]
    elif op == "del":
        out = line[:pos] + line[pos + 1 :]
    else:
        swaps = [i for i in range(start, end - 1) if line[i] != line[i + 1]]
        if not swaps:
            return None
        i = rng.choice(swaps)
        out = line[:i] + line[i + 1] + line[i] + line[i + 2 :]
    return out if out != line else None


def misquote(rng: random.Random, line: str) -> tuple[str, str] | None:
    """A line as a model misquotes it, and how: a typo, a space moved or dropped
    (``backup="", *,`` as ``backup="",*,``, ``/* Invalid`` as ``/ *Invalid``), or a
    punctuation mark dropped or swapped with its neighbour."""
    start, end = len(lead(line)), len(line.rstrip())
    how = rng.choice(["typo", "space", "punct"])
    out: str | None = None
    if how == "typo":
        out = typo(rng, line)
    elif how == "space":
        spots = [
            p
            for p in range(start + 1, end - 1)
            if line[p] == " " and line[p - 1] not in " \t" and line[p + 1] not in " \t"
        ]
        if not spots:
            return None
        p = rng.choice(spots)
        move = rng.choice(["left", "drop", "right"])
        how += " " + move
        if move == "left":
            out = line[: p - 1] + " " + line[p - 1] + line[p + 1 :]
        elif move == "drop":
            out = line[:p] + line[p + 1 :]
        else:
            out = line[:p] + line[p + 1] + " " + line[p + 2 :]
    else:
        spots = [p for p in range(start, end) if line[p] in string.punctuation]
        if not spots:
            return None
        p = rng.choice(spots)
        if rng.random() < 0.5 or p + 1 >= end or line[p + 1] == line[p]:
            how, out = "punct drop", line[:p] + line[p + 1 :]
        else:
            how, out = "punct swap", line[:p] + line[p + 1] + line[p] + line[p + 2 :]
    return None if out is None or out == line else (out, how)


def escape(line: str) -> str:
    return line.replace("\\", "\\\\").replace('"', '\\"')


def smarten(line: str) -> str:
    """ASCII quotes as typographic ones: apostrophes inside words, the rest paired."""
    out = []
    double = single = 0
    for i, ch in enumerate(line):
        if ch == '"':
            out.append("“" if double % 2 == 0 else "”")
            double += 1
        elif ch == "'":
            inside = 0 < i < len(line) - 1 and line[i - 1].isalnum() and line[i + 1].isalnum()
            if inside:
                out.append("’")
            else:
                out.append("‘" if single % 2 == 0 else "’")
                single += 1
        else:
            out.append(ch)
    return "".join(out)


def ascii_quotes(line: str) -> str:
    return line.translate(_SMART_TO_ASCII)


def tabify(line: str, unit: str) -> str:
    """Leading ``unit`` groups as tabs (a remainder of spaces stays)."""
    ws = lead(line)
    return "\t" * (len(ws) // len(unit)) + " " * (len(ws) % len(unit)) + line[len(ws) :]


def untabify(line: str, unit: str) -> str:
    ws = lead(line)
    return ws.replace("\t", unit) + line[len(ws) :]


# -- the generator ------------------------------------------------------------------------------
class Generator:
    """Makes cases of one kind from a shuffled walk over the source files."""

    def __init__(self, kind: str, seed: int, files: list[str]) -> None:
        self.kind = kind
        self.rng = random.Random(f"applydiff-corpus/{seed}/{kind}")
        self.files = files

    # -- picking ----------------------------------------------------------------------------
    def source(self, exclude: str = "") -> Source | None:
        path = self.rng.choice(self.files)
        return None if path == exclude else load(path)

    def block_at(
        self, lines: list[str], n: int, *, at_end: bool = False, lang: Lang = PY
    ) -> tuple[int, int]:
        size = self.rng.randint(MIN_BLOCK, MAX_BLOCK)
        if n < size + 2:
            return -1, size
        start = n - size if at_end else self.rng.randrange(0, n - size + 1)
        return (start, size) if good_block(lines[start : start + size], lang) else (-1, size)

    def other_line(self, block: list[str], edit: Edit) -> int | None:
        """A random line of ``block`` that the edit leaves alone and that has text enough to
        misquote (None when there is none)."""
        spots = [i for i, x in enumerate(block) if i != edit.at and len(x.strip()) >= 4]
        return self.rng.choice(spots) if spots else None

    def case(
        self,
        src: Source,
        lines: list[str],
        start: int,
        block: list[str],
        edit: Edit,
        noise: Noise,
        *,
        note: str = "",
        refuse: bool = False,
        hint: int | None = None,
        eol: str = "\n",
        final_newline: bool | None = None,
    ) -> Case | None:
        """Assemble and check a case: ``lines`` is the file as the engine sees it (with
        ``eol`` line endings), ``block`` the lines the model meant (at ``start``, unless
        ``refuse``); the model writes ``\n``."""
        edited, origin = edit.apply(block)
        if edited == block:
            return None
        old_lines = noise.render(block, list(range(len(block))), old=True)
        new_lines = noise.render(edited, origin)
        if final_newline is None:
            final_newline = self.rng.random() < 0.8
        tail = "\n" if final_newline else ""
        if start + len(block) == len(lines) and self.kind != "trailing_newline_missing":
            tail = ""  # the block ends a file without a final newline; so do old and new
        old, new = "\n".join(old_lines) + tail, "\n".join(new_lines) + tail
        text = "\n".join(lines)
        if old == new:
            return None
        if self.kind in NOISY_KINDS and old_lines == block:
            return None  # the noise changed nothing
        if self.kind in NOISY_KINDS - {"first_line_unindented"} and old in text:
            return None  # still verbatim in the file (a selection copied mid-line is, by design)
        expected = None
        if not refuse:
            expected = "\n".join(lines[:start] + edited + lines[start + len(block) :])
        if eol != "\n":
            text = text.replace("\n", eol)
            expected = expected.replace("\n", eol) if expected is not None else None
        parts = [edit.describe()] + ([note] if note else [])
        return Case(
            self.kind,
            src.path,
            text,
            old,
            new,
            hint,
            expected,
            line=0 if refuse else start + 1,
            note="; ".join(parts),
        )

    def plain(self, *, at_end: bool = False) -> tuple[Source, int, list[str]] | None:
        """A source and a good block in it that is unique (as text and as loose keys)."""
        src = self.source()
        if src is None:
            return None
        start, size = self.block_at(src.lines, src.n, at_end=at_end, lang=src.lang)
        if start < 0:
            return None
        if not self.unique_in(src, start, size):
            return None
        return src, start, src.lines[start : start + size]

    @staticmethod
    def unique_in(src: Source, start: int, size: int) -> bool:
        """``unique`` for a block of the file as loaded (with its cached keys)."""
        block = src.lines[start : start + size]
        if occurrences(src.text, "\n".join(block)) != 1:
            return False
        return occurrences(src.haystack, haystack(src.keys[start : start + size])) == 1

    # -- kinds ------------------------------------------------------------------------------
    def make(self) -> Case | None:
        return getattr(self, "k_" + self.kind)()

    def k_exact(self) -> Case | None:
        got = self.plain()
        if got is None:
            return None
        src, start, block = got
        edit = make_edit(self.rng, block, src.unit, lang=src.lang)
        return None if edit is None else self.case(src, src.lines, start, block, edit, Noise())

    def k_crlf(self) -> Case | None:
        got = self.plain()
        if got is None:
            return None
        src, start, block = got
        edit = make_edit(self.rng, block, src.unit, lang=src.lang)
        return (
            None
            if edit is None
            else self.case(src, src.lines, start, block, edit, Noise(), eol="\r\n")
        )

    def k_cr_only(self) -> Case | None:
        """The file ends its lines with a lone CR (old Mac style); the model writes LF."""
        got = self.plain()
        if got is None:
            return None
        src, start, block = got
        edit = make_edit(self.rng, block, src.unit, lang=src.lang)
        if edit is None:
            return None
        return self.case(src, src.lines, start, block, edit, Noise(), eol="\r")

    def k_trailing_newline_missing(self) -> Case | None:
        src = self.source()
        if src is None:
            return None
        lines = src.text.rstrip().split("\n")
        start, size = self.block_at(lines, len(lines), at_end=True, lang=src.lang)
        if start < 0 or not unique(lines, start, size):
            return None
        block = lines[start:]
        edit = make_edit(self.rng, block, src.unit, lang=src.lang)
        final = self.rng.random() < 0.5
        note = "old ends with a newline" if final else "old ends without a newline"
        return (
            None
            if edit is None
            else self.case(src, lines, start, block, edit, Noise(), note=note, final_newline=final)
        )

    def k_trailing_ws(self) -> Case | None:
        got = self.plain()
        if got is None:
            return None
        src, start, block = got
        edit = make_edit(self.rng, block, src.unit, lang=src.lang)
        if edit is None:
            return None
        where = self.rng.choice(["model", "file", "both"])
        others = [i for i in range(len(block)) if i != edit.at]
        picks = self.rng.sample(others, min(len(others), self.rng.randint(2, 6)))
        half = len(picks) // 2 if where == "both" else len(picks)
        model_side, file_side = (picks, []) if where == "model" else (picks[half:], picks[:half])
        lines = list(src.lines)
        noise = Noise()
        for i in file_side:
            lines[start + i] = block[i] + self.ws()
            noise.lines[i] = block[i]
        for i in model_side:
            noise.lines[i] = block[i] + self.ws()
        if file_side and not unique(lines, start, len(block)):
            return None
        new_block = lines[start : start + len(block)]
        return self.case(
            src, lines, start, new_block, edit, noise, note=f"trailing blanks in {where}"
        )

    def ws(self) -> str:
        return self.rng.choice([" ", "  ", "   ", "\t", " \t", "    "])

    def k_dedented(self) -> Case | None:
        got = self.plain()
        if got is None:
            return None
        src, start, block = got
        unit = src.unit
        levels = min(len(lead(x)) // len(unit) for x in block if x.strip())
        if levels < 1 or not all(x.startswith(unit * levels) for x in block if x.strip()):
            return None
        cut = unit * self.rng.randint(1, levels)
        edit = make_edit(self.rng, block, unit, lang=src.lang)

        def dedent(x: str) -> str:
            return x[len(cut) :] if x.startswith(cut) else x.strip()

        note = f"dedented by {len(cut)} {'tabs' if unit == TAB else 'spaces'}"
        return (
            None
            if edit is None
            else self.case(src, src.lines, start, block, edit, Noise(dedent), note=note)
        )

    def k_over_indented(self) -> Case | None:
        got = self.plain()
        if got is None:
            return None
        src, start, block = got
        add = src.unit * self.rng.randint(1, 2)
        edit = make_edit(self.rng, block, src.unit, lang=src.lang)

        def indent(x: str) -> str:
            return add + x if x.strip() else x

        note = f"indented by {len(add)}"
        return (
            None
            if edit is None
            else self.case(src, src.lines, start, block, edit, Noise(indent), note=note)
        )

    def k_tabs_spaces(self) -> Case | None:
        src = self.source()
        if src is None:
            return None
        unit = src.unit
        lines = src.lines
        file_unit, tab = unit, 4  # the file's indentation level, and a tab's width in it
        if unit == TAB:
            how, to_model = "file tabs, model spaces", lambda x: untabify(x, "    ")
        elif self.rng.random() < 0.5:
            how, to_model = "file spaces, model tabs", lambda x: tabify(x, unit)
        else:
            how, to_model = "file tabs (converted), model spaces", lambda x: untabify(x, unit)
            lines = [tabify(x, unit) for x in lines]
            file_unit, tab = TAB, len(unit)
        start, size = self.block_at(lines, src.n, lang=src.lang)
        if start < 0 or not unique(lines, start, size):
            return None
        block = lines[start : start + size]
        edit = make_edit(self.rng, block, file_unit, tab=tab, lang=src.lang)
        return (
            None
            if edit is None
            else self.case(src, lines, start, block, edit, Noise(to_model), note=how)
        )

    def k_first_line_unindented(self) -> Case | None:
        got = self.plain()
        if got is None:
            return None
        src, start, block = got
        if not lead(block[0]):
            return None
        edit = make_edit(self.rng, block, src.unit, lang=src.lang)
        noise = Noise(lines={0: block[0].lstrip()})
        return None if edit is None else self.case(src, src.lines, start, block, edit, noise)

    def k_truncated_boundary(self) -> Case | None:
        got = self.plain()
        if got is None:
            return None
        src, start, block = got
        i = self.rng.choice([0, len(block) - 1])
        line = block[i].rstrip()
        if len(line.strip()) < 8:
            return None
        cut = self.rng.randint(math.ceil(len(line) / 2), len(line) - 1)
        if len(line[:cut].strip()) < 3 or not line[cut:].strip():
            return None
        edit = make_edit(self.rng, block, src.unit, lang=src.lang)
        noise = Noise(lines={i: line[:cut]})
        which = "first" if i == 0 else "last"
        note = f"{which} line cut to {cut}/{len(line)} chars"
        return (
            None
            if edit is None
            else self.case(src, src.lines, start, block, edit, noise, note=note, final_newline=True)
        )

    def k_typo1(self) -> Case | None:
        return self.typos(1)

    def k_typo2(self) -> Case | None:
        return self.typos(2)

    def typos(self, count: int) -> Case | None:
        got = self.plain()
        if got is None:
            return None
        src, start, block = got
        edit = make_edit(self.rng, block, src.unit, lang=src.lang)
        if edit is None:
            return None
        spots = [i for i, x in enumerate(block) if i != edit.at and len(x.strip()) >= 4]
        if len(spots) < count:
            return None
        noise = Noise()
        for i in self.rng.sample(spots, count):
            wrong = typo(self.rng, block[i])
            if wrong is None:
                return None
            noise.lines[i] = wrong
        note = "typos in block lines " + ", ".join(str(i + 1) for i in sorted(noise.lines))
        return self.case(src, src.lines, start, block, edit, noise, note=note)

    def k_escaped_quotes(self) -> Case | None:
        got = self.plain()
        if got is None:
            return None
        src, start, block = got
        if not any('"' in x for x in block):
            return None
        edit = make_edit(self.rng, block, src.unit, lang=src.lang)
        return (
            None if edit is None else self.case(src, src.lines, start, block, edit, Noise(escape))
        )

    def k_smart_quotes(self) -> Case | None:
        got = self.plain()
        if got is None:
            return None
        src, start, block = got
        edit = make_edit(self.rng, block, src.unit, lang=src.lang)
        if edit is None:
            return None
        if self.rng.random() < 0.5:
            if not any("'" in x or '"' in x for x in block):
                return None
            return self.case(
                src, src.lines, start, block, edit, Noise(smarten), note="model smart quotes"
            )
        # The file holds typographic quotes in a comment; the model writes them as ASCII.
        spots = [
            i
            for i, x in enumerate(block)
            if i != edit.at and x.strip() and not x.rstrip().endswith("\\")
        ]
        if not spots:
            return None
        i = self.rng.choice(spots)
        line = block[i]
        if line.lstrip().startswith(src.lang.comment_lines) and ("'" in line or '"' in line):
            fancy = smarten(line)
        else:
            remark = self.rng.choice(["the “fast” path", "don’t touch", "see ‘notes’", "“legacy”"])
            fancy = line + "  " + src.lang.remark(remark)
        lines = list(src.lines)
        lines[start + i] = fancy
        if not unique(lines, start, len(block)):
            return None
        noise = Noise(lines={i: ascii_quotes(fancy)})
        new_block = lines[start : start + len(block)]
        return self.case(
            src, lines, start, new_block, edit, noise, note="file smart quotes, model ASCII"
        )

    def k_elision(self) -> Case | None:
        got = self.plain()
        if got is None:
            return None
        src, start, block = got
        edit = make_edit(self.rng, block, src.unit, lang=src.lang)
        if edit is None:
            return None
        size = len(block)
        runs = [
            (a, a + k)
            for k in range(3, size - 2)
            for a in range(1, size - k)
            if not a <= edit.at < a + k and any(x.strip() for x in block[a : a + k])
        ]
        if not runs:
            return None
        a, b = self.rng.choice(runs)
        first = next(x for x in block[a:b] if x.strip())
        marker = lead(first) + src.lang.remark(ELISION_MARKER[2:])
        noise = Noise(elide=(a, b), marker=marker)
        note = f"block lines {a + 1}-{b} elided"
        return self.case(src, src.lines, start, block, edit, noise, note=note)

    def k_typo3(self) -> Case | None:
        return self.typos(3)

    def k_missing_line(self) -> Case | None:
        """The model leaves out one context line (the file keeps it)."""
        got = self.plain()
        if got is None:
            return None
        src, start, block = got
        edit = make_edit(self.rng, block, src.unit, lang=src.lang)
        if edit is None:
            return None
        # Not the edited line; not the line after an inserted one (where the new line goes
        # relative to a line the model never wrote would be a guess).
        spots = [
            i
            for i in range(1, len(block) - 1)
            if block[i].strip() and i != edit.at and not (edit.op == "insert" and i == edit.at + 1)
        ]
        if not spots:
            return None
        i = self.rng.choice(spots)
        note = f"block line {i + 1} omitted: {block[i].strip()!r}"
        return self.case(src, src.lines, start, block, edit, Noise(drop=frozenset({i})), note=note)

    def k_extra_line(self) -> Case | None:
        """The model adds a context line the file does not have (the file gains nothing)."""
        got = self.plain()
        if got is None:
            return None
        src, start, block = got
        edit = make_edit(self.rng, block, src.unit, lang=src.lang)
        if edit is None:
            return None
        # Before block line p, with p - 1 and p both unedited (not next to the edit).
        spots = [p for p in range(1, len(block)) if p not in (edit.at, edit.at + 1)]
        if not spots:
            return None
        p = self.rng.choice(spots)
        indent = lead(block[p] if block[p].strip() else block[p - 1])
        keys = set(src.keys[start : start + len(block)])
        line = None
        if self.rng.random() < 0.5:
            how = "made-up statement"
            line = new_statement(self.rng, indent, names_in(block, src.lang), src.lang)
        else:
            how = "line from elsewhere in the file"
            for _ in range(20):
                x = self.rng.choice(src.lines).strip()
                if (
                    12 <= len(x) <= 100
                    and is_code(x, src.lang)
                    and x[-1] not in ":([{,\\"
                    and loose(x) not in keys
                ):
                    line = indent + x
                    break
        if line is None or loose(line) in keys:
            return None
        note = f"{how} before block line {p + 1}: {line.strip()!r}"
        noise = Noise(extra={p: line})
        return self.case(src, src.lines, start, block, edit, noise, note=note)

    def k_stale_line(self) -> Case | None:
        """One unedited line as the model remembers it: a number or a name on it differs."""
        got = self.plain()
        if got is None:
            return None
        src, start, block = got
        edit = make_edit(self.rng, block, src.unit, lang=src.lang)
        if edit is None:
            return None
        spots = [i for i, x in enumerate(block) if i != edit.at and x.strip()]
        self.rng.shuffle(spots)
        names = names_in(block, src.lang)
        for i in spots:
            stale = change_token(self.rng, block[i], names, what=("num", "name"), lang=src.lang)
            if stale is not None and loose(stale) != loose(block[i]):
                break
        else:
            return None
        note = f"block line {i + 1} stale: {token_change(block[i], stale)}"
        noise = Noise(lines={i: stale})
        return self.case(src, src.lines, start, block, edit, noise, note=note)

    def k_short_block_typo(self) -> Case | None:
        """A block of 2-4 lines with one typo in a line the edit does not touch."""
        src = self.source()
        if src is None:
            return None
        size = self.rng.randint(*SHORT_BLOCK)
        if src.n < size + 2:
            return None
        start = self.rng.randrange(0, src.n - size + 1)
        block = src.lines[start : start + size]
        if not block[0].strip() or not block[-1].strip() or any(len(x) > MAX_LINE for x in block):
            return None
        if sum(is_code(x, src.lang) for x in block) < 2 or not self.unique_in(src, start, size):
            return None
        edit = make_edit(self.rng, block, src.unit, ends=True, lang=src.lang)
        if edit is None:
            return None
        i = self.other_line(block, edit)
        if i is None:
            return None
        wrong = typo(self.rng, block[i])
        if wrong is None:
            return None
        chars = len("\n".join(loose(x) for x in block))
        note = f"{size} lines ({chars} chars loose), typo in block line {i + 1}"
        noise = Noise(lines={i: wrong})
        # An edit to the last line ends old/new with a newline: without it, deleting a last
        # line after a blank one leaves new ending in "\n", which reads as no blank line.
        last = edit.at == size - 1 or None
        return self.case(src, src.lines, start, block, edit, noise, note=note, final_newline=last)

    # -- noise on copied lines (issue 14) ----------------------------------------------------
    def k_misquote_fixed(self) -> Case | None:
        """One old line misquoted (a typo, a space or punctuation mark moved or dropped) that
        new writes as the file has it; the intended edit is on another line."""
        got = self.plain()
        if got is None:
            return None
        src, start, block = got
        edit = make_edit(self.rng, block, src.unit, lang=src.lang)
        if edit is None:
            return None
        i = self.other_line(block, edit)
        if i is None:
            return None
        quoted = misquote(self.rng, block[i])
        if quoted is None:
            return None
        wrong, how = quoted
        note = f"{how} in block line {i + 1}: {token_change(block[i], wrong)}; new has the line"
        return self.case(src, src.lines, start, block, edit, Noise(search={i: wrong}), note=note)

    def k_tabs_as_spaces(self) -> Case | None:
        """Every tab in old and new retyped as spaces (tab width 8, or 4), alignment tabs
        mid-line too; the edit changes a line or adds one. A changed line differs from its old
        line in the changed token only (the spaces around it are the same), an added line has
        the indentation of a neighbour (and no neighbour of the same width has other bytes),
        so ``expected`` (the file's tabs everywhere, a new line with its neighbour's bytes) is
        what the model meant."""
        got = self.plain()
        if got is None:
            return None
        src, start, block = got
        tabs = sum(x.count(TAB) for x in block)
        if not tabs:
            return None
        width = self.rng.choice([8, 8, 8, 4])

        def spaced(x: str) -> str:
            return x.expandtabs(width)

        edit = make_edit(self.rng, block, src.unit, tab=width, lang=src.lang)
        if edit is None or edit.op == "delete":
            return None
        if edit.op == "modify":
            if _BLANK_RUNS.findall(spaced(edit.line)) != _BLANK_RUNS.findall(
                spaced(block[edit.at])
            ):
                return None
        else:
            indent = lead(edit.line)
            near = [lead(x) for x in block[edit.at : edit.at + 2] if x.strip()]
            if indent not in near or any(x != indent and spaced(x) == spaced(indent) for x in near):
                return None
        mid = sum(x[len(lead(x)) :].count(TAB) for x in block)
        note = f"tab width {width}; {tabs} tabs in the block, {mid} of them mid-line"
        return self.case(src, src.lines, start, block, edit, Noise(spaced), note=note)

    def k_cut_first_line(self) -> Case | None:
        return self.cut_line(last=False)

    def k_cut_last_line(self) -> Case | None:
        return self.cut_line(last=True)

    def cut_line(self, *, last: bool) -> Case | None:
        """Old's first or last line cut short mid-line (its end left out); new holds the
        file's full line."""
        got = self.plain()
        if got is None:
            return None
        src, start, block = got
        i = len(block) - 1 if last else 0
        line = block[i].rstrip()
        begin = len(lead(line))
        if len(line) - begin < 8:
            return None
        short = line[: self.rng.randint(begin + 3, len(line) - 1)].rstrip()
        if len(short) - begin < 3:
            return None
        edit = make_edit(self.rng, block, src.unit, lang=src.lang)
        which = "last" if last else "first"
        note = f"{which} line cut to {len(short)}/{len(line)} chars; new has the full line"
        if edit is None:
            return None
        noise = Noise(search={i: short})
        return self.case(src, src.lines, start, block, edit, noise, note=note, final_newline=True)

    def k_odd_line_breaks(self) -> Case | None:
        """Lines near the edit hold characters ``str.splitlines`` breaks at (``ODD_BREAKS``):
        where the file has them (half the cases when some files do), or put in (at a line's
        start, middle or end, or a line of their own, as C's form feeds); the model copies
        them, verbatim, with a typo on another line, or indented one level more."""
        holding = with_odd_breaks(tuple(self.files))
        own = bool(holding) and self.rng.random() < 0.5
        src = load(self.rng.choice(holding)) if own else self.source()
        if src is None:
            return None
        lines = list(src.lines)
        if own:
            natural = [i for i in range(src.n) if any(c in lines[i] for c in ODD_BREAKS)]
            at = self.rng.choice(natural)
            size = self.rng.randint(MIN_BLOCK, MAX_BLOCK)
            start = at - self.rng.randint(1, size - 2)
            if start < 0 or start + size > src.n:
                return None
            how = "the file's own"
        else:
            start, size = self.block_at(lines, src.n, lang=src.lang)
            if start < 0:
                return None
            block = lines[start : start + size]
            at = self.rng.randrange(1, size - 1)
            put = []
            for _ in range(self.rng.choice([1, 1, 2, 3])):
                i, ch = self.rng.choice([at - 1, at, at + 1]), self.rng.choice(ODD_BREAKS)
                where = self.rng.choice(["start", "middle", "end", "own line"])
                x = block[i]
                if where == "middle":
                    spots = [p for p in range(len(lead(x)) + 1, len(x.rstrip())) if x[p - 1] == " "]
                    where = "middle" if spots else "end"
                if where == "start":
                    block[i] = ch + x
                elif where == "middle":
                    p = self.rng.choice(spots)
                    block[i] = x[:p] + ch + x[p:]
                elif where == "end":
                    block[i] = x + ch
                else:
                    block[i] = ch + "\n" + x  # split into lines below
                put.append(f"{ch!r} {where}")
            block = "\n".join(block).split("\n")
            lines[start : start + size] = block
            size = len(block)
            how = "put in: " + ", ".join(put)
        block = lines[start : start + size]
        odd = [i for i, x in enumerate(block) if any(c in x for c in ODD_BREAKS)]
        if not odd or not good_block(block, src.lang) or not unique(lines, start, size):
            return None
        near = {i + d for i in odd for d in (-1, 0, 1)}
        far = [i for i in range(size) if i not in near]
        edit = make_edit(self.rng, block, src.unit, far, lang=src.lang)
        if edit is None:
            return None
        variant = self.rng.choice(["verbatim", "verbatim", "typo", "indented"])
        noise = Noise()
        if variant == "typo":
            spots = [i for i in far if i != edit.at and len(block[i].strip()) >= 4]
            i = self.rng.choice(spots) if spots else -1
            wrong = typo(self.rng, block[i]) if spots else None
            if wrong is None:
                return None
            noise.lines[i] = wrong
        elif variant == "indented":
            unit = src.unit
            noise.every = lambda x: unit + x if x.strip(" \t") else x
        lines_at = ", ".join(str(i + 1) for i in odd)
        note = f"{how}; odd characters in block lines {lines_at}; model: {variant}"
        return self.case(src, lines, start, block, edit, noise, note=note)

    # -- duplicates ---------------------------------------------------------------------------
    def with_copy(
        self, src: Source, start: int, copy: list[str]
    ) -> tuple[list[str], int, int] | None:
        """The file with ``copy`` inserted at least ``DUP_GAP`` lines from the block at
        ``start``: (lines, new start of the block, start of the copy)."""
        size = len(copy)
        before = list(range(0, start - DUP_GAP + 1))
        after = list(range(start + size + DUP_GAP, src.n + 1))
        spots = before + after
        if not spots:
            return None
        at = self.rng.choice(spots)
        lines = src.lines[:at] + copy + src.lines[at:]
        return (lines, start + size, at) if at <= start else (lines, start, at)

    def duplicated(self, *, hint: bool) -> Case | None:
        got = self.plain()
        if got is None:
            return None
        src, start, block = got
        placed = self.with_copy(src, start, block)
        if placed is None:
            return None
        lines, orig, copy = placed
        if not unique(lines, orig, len(block), count=2):
            return None
        edit = make_edit(self.rng, block, src.unit, lang=src.lang)
        if edit is None:
            return None
        if not hint:
            note = f"copies at lines {min(orig, copy) + 1} and {max(orig, copy) + 1}"
            return self.case(src, lines, orig, block, edit, Noise(), refuse=True, note=note)
        target = self.rng.choice([orig, copy])
        line = max(1, target + 1 + self.rng.randint(-2, 2))
        other = copy if target == orig else orig
        note = f"hint {line} for the copy at {target + 1} (other at {other + 1})"
        return self.case(src, lines, target, block, edit, Noise(), hint=line, note=note)

    def k_duplicated_no_hint(self) -> Case | None:
        return self.duplicated(hint=False)

    def k_duplicated_hint(self) -> Case | None:
        return self.duplicated(hint=True)

    def k_twins(self) -> Case | None:
        got = self.plain()
        if got is None:
            return None
        src, start, block = got
        spots = [i for i, x in enumerate(block) if x.strip()]
        j = self.rng.choice(spots)
        changed = change_token(self.rng, block[j], names_in(block, src.lang), lang=src.lang)
        if changed is None or loose(changed) == loose(block[j]):
            return None
        twin = [*block[:j], changed, *block[j + 1 :]]
        placed = self.with_copy(src, start, twin)
        if placed is None:
            return None
        lines, orig, copy = placed
        target = self.rng.choice([orig, copy])
        meant = block if target == orig else twin
        if not unique(lines, target, len(meant)):
            return None
        edit = make_edit(self.rng, meant, src.unit, lang=src.lang)
        if edit is None:
            return None
        noise, how = Noise(), "exact"
        unit = src.unit
        if self.rng.random() < 0.5 and all(x.startswith(unit) for x in meant if x.strip()):
            noise, how = Noise(lambda x: x[len(unit) :] if x.startswith(unit) else x), "dedented"
        which = "original" if target == orig else "twin"
        note = f"{how}; meant the {which} at {target + 1}, twin differs in block line {j + 1}"
        return self.case(src, lines, target, meant, edit, noise, note=note)

    # -- must refuse --------------------------------------------------------------------------
    def k_absent(self) -> Case | None:
        src = self.source()
        got = self.plain()
        if src is None or got is None or got[0].path == src.path:
            return None
        other, _, block = got
        if "\n".join(block) in src.text:
            return None
        keys = [loose(x) for x in block if x.strip()]
        if sum(k in src.keyset for k in keys) > 0.5 * len(keys):
            return None  # mostly boilerplate this file shares; not clearly absent
        edit = make_edit(self.rng, block, other.unit, lang=other.lang)
        note = f"block from {other.path}"
        return (
            None
            if edit is None
            else self.case(src, src.lines, 0, block, edit, Noise(), refuse=True, note=note)
        )

    def k_hallucinated(self) -> Case | None:
        got = self.plain()
        if got is None:
            return None
        src, start, block = got
        nonblank = [i for i, x in enumerate(block) if x.strip()]
        need = math.ceil(0.4 * len(nonblank))
        fake = list(block)
        if self.rng.random() < 0.5:
            how = "lines from elsewhere"
            for i in self.rng.sample(nonblank, need):
                line = self.foreign_line(src)
                if line is None:
                    return None
                fake[i] = lead(block[i]) + line
        else:
            how = "identifiers renamed"
            names = names_in(block, src.lang)
            self.rng.shuffle(names)
            pool = self.foreign_names(src)
            renamed: dict[str, str] = {}
            for name in names:
                if sum(fake[i] != block[i] for i in nonblank) >= need:
                    break
                choices = [x for x in pool if x[0] != name[0] and x not in renamed.values()]
                if not choices:
                    return None
                renamed[name] = self.rng.choice(choices)
                pat = re.compile(rf"\b{re.escape(name)}\b")
                fake = [pat.sub(renamed[name], x) for x in fake]
            how += " (" + ", ".join(f"{a}->{b}" for a, b in renamed.items()) + ")"
        if sum(fake[i] != block[i] for i in nonblank) < need:
            return None
        if any(loose(fake[i]) in src.keyset for i in nonblank if fake[i] != block[i]):
            return None  # a "hallucinated" line the file does hold somewhere
        edit = make_edit(self.rng, fake, src.unit, lang=src.lang)
        note = f"{how}; real block at line {start + 1}"
        return (
            None
            if edit is None
            else self.case(src, src.lines, start, fake, edit, Noise(), refuse=True, note=note)
        )

    def k_hallucinated_light(self) -> Case | None:
        """A real block with one name, found on at least 3 of its lines, renamed throughout to
        a name the file does not hold: the code's shape with a wrong name."""
        got = self.plain()
        if got is None:
            return None
        src, start, block = got
        nonblank = [i for i, x in enumerate(block) if x.strip()]
        code = "\n".join(x for x in block if is_code(x, src.lang))

        def where(name: str) -> list[int]:
            pat = re.compile(rf"\b{re.escape(name)}\b")
            return [i for i in nonblank if pat.search(block[i])]

        def in_code(name: str) -> bool:  # used as code somewhere, not only in prose
            n = re.escape(name)
            return re.search(rf"\.{n}\b|\b{n}\s*[(\[.=,):]", code) is not None

        spread = [x for x in names_in(block, src.lang) if len(where(x)) >= 3 and in_code(x)]
        if not spread:
            return None
        name = self.rng.choice(spread)
        # A name of about the same length: the block keeps its shape, only the name is wrong.
        pool = [
            x
            for x in self.foreign_names(src)
            if Levenshtein.distance(x, name) >= 3 and abs(len(x) - len(name)) <= len(name) // 2
        ]
        if not pool:
            return None
        other = self.rng.choice(pool)
        pat = re.compile(rf"\b{re.escape(name)}\b")
        fake = [pat.sub(other, x) for x in block]
        edit = make_edit(self.rng, fake, src.unit, lang=src.lang)
        note = (
            f"{name} -> {other} on {len(where(name))} of {len(nonblank)} lines; "
            f"real block at line {start + 1}"
        )
        return (
            None
            if edit is None
            else self.case(src, src.lines, start, fake, edit, Noise(), refuse=True, note=note)
        )

    def k_wrong_file(self) -> Case | None:
        """A block from another file that looks like one of this file's (a function both
        define, at least ``WRONG_FILE_SIMILARITY`` alike), and is not in this file. Blocks
        that differ from the target's by no more than a must-resolve kind's noise (one line,
        or up to three one-character typos) are skipped: those would be that kind's cases."""
        defs = shared_defs(tuple(self.files))
        if not defs:
            return None
        name = self.rng.choice(list(defs))
        a_path, a_at = self.rng.choice(defs[name])
        b_path, b_at = self.rng.choice([x for x in defs[name] if x[0] != a_path])
        other, src = load(a_path), load(b_path)
        if other is None or src is None:
            return None
        size = self.rng.randint(MIN_BLOCK, MAX_BLOCK)
        a_start = a_at - self.rng.randint(0, 2)
        if a_start < 0 or a_start + size > other.n:
            return None
        block = other.lines[a_start : a_start + size]
        keys = other.keys[a_start : a_start + size]
        if not good_block(block, other.lang) or "\n".join(block) in src.text:
            return None
        if occurrences(src.haystack, haystack(keys), 1):
            return None
        key = "\n".join(keys)
        sim, b_start, count = max(
            (
                (Levenshtein.normalized_similarity(key, "\n".join(src.keys[s : s + c])), s, c)
                for s in range(max(0, b_at - 4), min(src.n, b_at + 5))
                for c in range(max(1, size - 2), size + 3)
                if s + c <= src.n
            ),
            default=(0.0, 0, 0),
        )
        if sim < WRONG_FILE_SIMILARITY:
            return None
        # Any window of the file (not only near the twin) that differs by no more than a
        # must-resolve kind's noise makes the case that kind's, not a wrong file.
        if near_copy(keys, src):
            return None
        differing, _ = line_diff(keys, src.keys[b_start : b_start + count])
        edit = make_edit(self.rng, block, other.unit, lang=other.lang)
        note = (
            f"def {name}: block from {a_path}:{a_start + 1}; closest at line {b_start + 1} "
            f"({count} lines): similarity {sim:.3f}, {differing} lines differ"
        )
        return (
            None
            if edit is None
            else self.case(src, src.lines, 0, block, edit, Noise(), refuse=True, note=note)
        )

    def foreign_line(self, src: Source) -> str | None:
        for _ in range(20):
            other = self.source(exclude=src.path)
            if other is None:
                continue
            line = self.rng.choice(other.lines).strip()
            if (
                12 <= len(line) <= 100
                and is_code(line, other.lang)
                and loose(line) not in src.keyset
            ):
                return line
        return None

    def foreign_names(self, src: Source) -> list[str]:
        for _ in range(20):
            other = self.source(exclude=src.path)
            if other is not None:
                start = self.rng.randrange(0, max(1, other.n - 50))
                names = [
                    x
                    for x in names_in(other.lines[start : start + 50], other.lang)
                    if x not in src.text
                ]
                if len(names) >= 5:
                    return names
        return []


def generate(
    kinds: Iterable[str] = KINDS,
    per_kind: int = 200,
    seed: int = 0,
    files: str | None = None,
    *,
    max_tries: int = 400,
) -> list[Case]:
    """``per_kind`` cases of each kind (fewer when ``max_tries * per_kind`` attempts do not
    find enough), from the files ``source_files(files)`` lists."""
    paths = source_files(files)
    if not paths:
        raise ValueError(f"no source files match {files!r}")
    out: list[Case] = []
    for kind in kinds:
        if kind not in ALL_KINDS:
            raise ValueError(f"unknown kind {kind!r}; kinds: {', '.join(ALL_KINDS)}")
        gen = Generator(kind, seed, paths)
        got = 0
        for _ in range(per_kind * max_tries):
            if got == per_kind:
                break
            case = gen.make()
            if case is not None:
                out.append(case)
                got += 1
    return out
