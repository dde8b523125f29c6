"""Lazy-snippet cases in brace languages: JavaScript, TypeScript, Java, Go, Rust, C, CSS, HTML.

The Python corpus (``bench.lazy_corpus``) has few lines that repeat; brace languages are full of
them (``}``, ``return 0;``, ``break;``, ``</div>``), and that is where a lazy merge can go
wrong. Files come from the machine where it has them (npm's JavaScript, Rust's standard
library from the rustdoc source pages, C headers under /usr/include and Python's, zlib's
examples, CSS and HTML from the documentation under /usr/share/doc and the Rust books, Go
under /usr/share/doc) and are generated otherwise, and in any case half the time: modules of
functions, classes, switches, guards, rules and nested elements drawn from small vocabularies,
so that most of their block lines repeat.

A snippet is what a model writes: marker comments in the language's syntax (``// ...
existing code ...``, ``/* ... */``, ``<!-- ... -->``), one to three regions, each a line
changed, statements or a small block inserted, statements deleted, a block's last line changed
(shown with a marker left of it), or a new member (function, method, rule, element) after
another. Context styles:

* ``careful``: one to three lines on each side, more until each side is unique in the file;
* ``terse``: one line on each side, unique or not (a refusal is right when it is not);
* ``whole``: the whole enclosing block, from its opening line to its closing one;
* ``scoped``: the enclosing block's opening line, a marker, the change with careful context,
  a marker and the block's closing line, the block picked at the innermost or outermost level.

Markers stand at the indentation of the code they skip (sometimes at column 0). In files
indented with tabs, some snippets have their indentation retyped as spaces (``noise``
``retyped``): the merged file keeps the file's tabs. The expected text is the file with the
edits made on it. The corpus is deterministic for a seed and the files on the machine.

>>> cases = generate(16, seed=0)
>>> sorted({c.lang for c in cases}) == sorted(LANGS)
True
"""

from __future__ import annotations

import glob
import hashlib
import html
import itertools
import os
import random
import re
import sysconfig
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from ..match.elision import is_marker
from .lazy_corpus import LazyCase

LANGS = ("js", "ts", "java", "go", "rust", "c", "css", "html")
KINDS = ("replace", "insert", "delete", "replace_end", "member")
KIND_WEIGHTS = (3, 3, 2, 1, 2)
# Context styles, cycled: careful half the time.
CONTEXTS = ("careful", "careful", "terse", "scoped", "careful", "whole", "careful", "terse")
MIN_GAP = 12  # lines between two regions' changes
BLOCK_GAP = 30  # the same, when each region shows its block
MAX_CONTEXT = 8  # code lines of careful context at most on a side
MAX_WHOLE = 40  # lines of a block shown whole
MAX_FILE_BYTES = 250_000
MIN_LINES = 60
RETYPED = 0.15  # share of snippets on tab-indented files whose tabs a model retyped


@dataclass(frozen=True)
class Lang:
    name: str
    exts: tuple[str, ...]
    markers: tuple[str, ...]  # marker comments as models write them, the usual one first
    comments: tuple[str, ...]  # what a comment line starts with
    keywords: frozenset[str]  # words a changed token is never
    unit: str  # indentation of generated files


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_C_MARKERS = (
    "// ... existing code ...",
    "// ...",
    "// ... rest of the code ...",
    "// ...existing code...",
)
_C_COMMENTS = ("//", "/*", "*", "*/")
_JS_WORDS = _words(
    "break case catch class const continue debugger default delete do else export extends "
    "finally for function if import in instanceof let new return super switch this throw try "
    "typeof var void while with yield async await static of null undefined true false require "
    "module exports get set"
)
_TS_WORDS = _JS_WORDS | _words(
    "interface type implements public private protected readonly number string boolean any "
    "unknown never enum namespace declare abstract keyof as"
)
_JAVA_WORDS = _words(
    "abstract boolean break byte case catch char class const continue default do double else "
    "enum extends final finally float for if implements import instanceof int interface long "
    "native new package private protected public return short static super switch "
    "synchronized this throw throws try void volatile while null true false String var"
)
_GO_WORDS = _words(
    "break case chan const continue default defer else fallthrough for func go goto if import "
    "interface map package range return select struct switch type var nil true false err "
    "error string int bool byte rune"
)
_RUST_WORDS = _words(
    "as break const continue crate else enum extern false fn for if impl in let loop match mod "
    "move mut pub ref return self Self static struct super trait true type unsafe use where "
    "while async await dyn Some None Ok Err Option Result Vec String usize u32 u64 i32 i64 u8 "
    "bool str"
)
_C_WORDS = _words(
    "auto break case char const continue default do double else enum extern float for goto if "
    "inline int long register restrict return short signed sizeof static struct switch "
    "typedef union unsigned void volatile while NULL define include ifdef ifndef endif elif "
    "undef pragma size_t"
)

LANG = {
    "js": Lang("js", (".js", ".mjs", ".cjs"), _C_MARKERS, _C_COMMENTS, _JS_WORDS, "  "),
    "ts": Lang("ts", (".ts",), _C_MARKERS, _C_COMMENTS, _TS_WORDS, "  "),
    "java": Lang("java", (".java",), _C_MARKERS, _C_COMMENTS, _JAVA_WORDS, "    "),
    "go": Lang("go", (".go",), _C_MARKERS, _C_COMMENTS, _GO_WORDS, "\t"),
    "rust": Lang("rust", (".rs",), _C_MARKERS, _C_COMMENTS, _RUST_WORDS, "    "),
    "c": Lang(
        "c",
        (".c", ".h"),
        ("/* ... existing code ... */", "// ... existing code ...", "/* ... */"),
        _C_COMMENTS,
        _C_WORDS,
        "\t",
    ),
    "css": Lang(
        "css",
        (".css",),
        ("/* ... existing code ... */", "/* ... */", "/* ... existing styles ... */"),
        ("/*", "*", "*/"),
        frozenset(),
        "  ",
    ),
    "html": Lang(
        "html",
        (".html", ".htm"),
        ("<!-- ... existing code ... -->", "<!-- ... -->", "<!-- ... existing content ... -->"),
        ("<!--", "-->"),
        frozenset(),
        "  ",
    ),
}


# -- real files ---------------------------------------------------------------------------------
def _home(*parts: str) -> str:
    return os.path.join(os.path.expanduser("~"), *parts)


def _rustdoc(path: str) -> str:
    return path.split("/share/doc/rust/html/", 1)[-1]


def _patterns(lang: str) -> list[str]:
    doc = "/usr/share/doc/**/*"
    rust_html = _home(".rustup", "toolchains", "*", "share", "doc", "rust", "html")
    node = ["/usr/lib/node_modules", "/usr/local/lib/node_modules", "/usr/share/nodejs"]
    if lang in ("js", "ts"):
        ext = "js" if lang == "js" else "ts"
        return [f"{root}/**/*.{ext}" for root in node] + [f"{doc}.{ext}"]
    if lang == "java":
        return [f"{doc}.java", "/usr/lib/jvm/**/*.java", "/usr/share/java/**/*.java"]
    if lang == "go":
        return [f"{doc}.go", "/usr/lib/go*/src/**/*.go", "/usr/local/go/src/**/*.go"]
    if lang == "rust":
        return [
            f"{rust_html}/src/**/*.rs.html",
            _home(".rustup", "toolchains", "*", "lib", "rustlib", "src", "**", "*.rs"),
            _home(".cargo", "registry", "src", "**", "*.rs"),
        ]
    if lang == "c":
        include = sysconfig.get_paths()["include"]
        return ["/usr/include/**/*.h", f"{include}/**/*.h", f"{doc}.c"]
    if lang == "css":
        return [f"{doc}.css", f"{rust_html}/*/css/*.css", f"{rust_html}/static.files/*.css"]
    return [f"{doc}.html", f"{rust_html}/*/*.html", f"{rust_html}/*/*/*.html"]


@cache
def real_files(lang: str) -> tuple[str, ...]:
    """The machine's files in ``lang``, sorted; one copy of each Rust documentation file
    (every toolchain ships them)."""
    found: set[str] = set()
    for pattern in _patterns(lang):
        found.update(p for p in glob.glob(pattern, recursive=True) if os.path.isfile(p))
    if lang in ("js", "ts"):
        found = {p for p in found if not p.endswith((".min.js", ".d.ts"))}
    if lang == "html":  # rustdoc's API pages are one long line per item
        found = {p for p in found if "/html/src/" not in p}
    seen: dict[str, str] = {}
    for p in sorted(found):
        key = _rustdoc(p) if "/share/doc/rust/html/" in p else p
        seen.setdefault(key, p)
    return tuple(sorted(seen.values()))


_ANCHOR = re.compile(r"<a href=#\d+ id=\d+ data-nosnippet>\d+</a>")
_TAG = re.compile(r"<[^>]+>")


def _from_rustdoc(page: str) -> str | None:
    """The Rust source a rustdoc source page shows."""
    m = re.search(r"<pre class=\"rust\"><code>(.*?)</code></pre>", page, re.S)
    if m is None:
        return None
    return html.unescape(_TAG.sub("", _ANCHOR.sub("", m.group(1)))).rstrip("\n") + "\n"


@cache
def _read(path: str) -> str | None:
    try:
        data = Path(path).read_bytes()
        if len(data) > 4 * MAX_FILE_BYTES or b"\0" in data:
            return None
        text = data.decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    if path.endswith(".rs.html"):
        got = _from_rustdoc(text)
        if got is None:
            return None
        text = got
    if len(text) > MAX_FILE_BYTES or "\r" in text or "\f" in text:
        return None
    lines = text.split("\n")
    long = sum(1 for x in lines if len(x) > 200)
    # HTML's paragraphs are long lines; elsewhere many long lines say minified
    if len(lines) < MIN_LINES or long > len(lines) // (4 if path.endswith(".html") else 50):
        return None
    if sum(1 for x in lines if x.startswith((" ", "\t"))) < len(lines) // 10:
        return None  # no block structure to speak of
    return text


# -- generated files ----------------------------------------------------------------------------
_WORDS = sorted(
    _words(
        "item user count value node entry buffer config result state index total name path "
        "size offset token request response handler cache queue key data options target source"
    )
)


class _Writer:
    """Lines at an indentation level that blocks open and close."""

    def __init__(self, unit: str) -> None:
        self.unit = unit
        self.depth = 0
        self.lines: list[str] = []

    def __call__(self, line: str = "") -> None:
        self.lines.append(self.unit * self.depth + line if line else "")

    def open(self, line: str) -> None:
        self(line)
        self.depth += 1

    def close(self, line: str = "}") -> None:
        self.depth -= 1
        self(line)


def _vocab(rng: random.Random) -> list[str]:
    return rng.sample(_WORDS, 8)


def _stmt(rng: random.Random, lang: str, v: list[str], semi: bool = True) -> str:
    a, b = rng.choice(v), rng.choice(v)
    n = rng.choice((0, 1, 1, 2, 3, rng.randint(4, 99)))
    end = ";" if semi else ""
    if lang in ("js", "ts"):
        return rng.choice(
            [f"{a} += {n}{end}", f"{a}.push({b}){end}", f"this.{a} = {b}{end}", f"count++{end}"]
        )
    if lang == "java":
        return rng.choice([f"{a} += {n};", f"{a}.add({b});", f"this.{a} = {b};", "count++;"])
    if lang == "go":
        return rng.choice([f"{a} += {n}", f"{a} = append({a}, {b})", f"{a}.{b} = {n}", "count++"])
    if lang == "rust":
        return rng.choice([f"{a} += {n};", f"{a}.push({b});", f"self.{a} = {b};", "count += 1;"])
    return rng.choice([f"{a} += {n};", f"{a}->{b} = {n};", f"{a}({b});", "count++;"])


def _cond(rng: random.Random, lang: str, v: list[str]) -> str:
    a = rng.choice(v)
    n = rng.choice((0, 1, 2))
    if lang in ("js", "ts"):
        return rng.choice([f"!{a}", f"{a} === {n}", f"{a}.length > {n}"])
    if lang == "java":
        return rng.choice([f"{a} == null", f"{a} == {n}", f"{a}.size() > {n}"])
    if lang == "go":
        return rng.choice(["err != nil", f"{a} == nil", f"len({a}) > {n}"])
    if lang == "rust":
        return rng.choice([f"{a}.is_empty()", f"{a} == {n}", f"{a}.len() > {n}"])
    return rng.choice([f"{a} == NULL", f"{a} < {n}", f"!{a}"])


def _if(lang: str, cond: str) -> str:
    return f"if {cond} {{" if lang in ("go", "rust") else f"if ({cond}) {{"


def _ret(rng: random.Random, lang: str, v: list[str], semi: bool = True) -> str:
    end = ";" if semi else ""
    if lang in ("js", "ts"):
        return rng.choice(["return null", "return", f"return {rng.choice(v)}", "return 0"]) + end
    if lang == "java":
        return rng.choice(["return null;", "return;", f"return {rng.choice(v)};", "return 0;"])
    if lang == "go":
        return rng.choice(["return nil", "return err", "return 0, nil", f"return {rng.choice(v)}"])
    if lang == "rust":
        return rng.choice(["return None;", "return Ok(());", f"return {rng.choice(v)};"])
    return rng.choice(["return 0;", "return -1;", "return NULL;", f"return {rng.choice(v)};"])


def _body(w: _Writer, rng: random.Random, lang: str, v: list[str], depth: int, semi: bool) -> None:
    """A function body of statements, guards, loops and switches."""
    for _ in range(rng.randint(2, 6)):
        pick = rng.random()
        if pick < 0.35:
            w(_stmt(rng, lang, v, semi))
        elif pick < 0.55:
            w.open(_if(lang, _cond(rng, lang, v)))
            w(_ret(rng, lang, v, semi))
            if rng.random() < 0.3:
                w.close("} else {")
                w.depth += 1
                w(_stmt(rng, lang, v, semi))
            w.close()
        elif pick < 0.7 and depth < 2:
            a = rng.choice(v)
            loops = {
                "go": f"for _, {a} := range {rng.choice(v)}s {{",
                "rust": f"for {a} in {rng.choice(v)}s.iter() {{",
                "c": f"for (i = 0; i < {a}_len; i++) {{",
                "java": f"for (int i = 0; i < {a}.size(); i++) {{",
            }
            w.open(loops.get(lang, f"for (const {a} of {rng.choice(v)}s) {{"))
            _body(w, rng, lang, v, depth + 1, semi)
            w.close()
        elif pick < 0.8 and depth < 2:
            _switch(w, rng, lang, v, semi)
        elif pick < 0.9 and depth < 2:
            _guarded(w, rng, lang, v, semi)
        else:
            w(_stmt(rng, lang, v, semi))
            w(_stmt(rng, lang, v, semi))
    if rng.random() < 0.6:
        w(_ret(rng, lang, v, semi))


def _guarded(w: _Writer, rng: random.Random, lang: str, v: list[str], semi: bool) -> None:
    """A try/catch (JavaScript, TypeScript, Java), a preprocessor branch (C), an error check
    (Go), a match on a result (Rust): weak lines ("try {", "#endif", "}") around a call."""
    a = rng.choice(v)
    if lang in ("js", "ts", "java"):
        w.open("try {")
        w(_stmt(rng, lang, v, semi))
        w.close("} catch (e) {" if lang != "java" else "} catch (Exception e) {")
        w.depth += 1
        w(_ret(rng, lang, v, semi))
        w.close()
    elif lang == "c":
        w.lines.append(f"#ifdef HAVE_{a.upper()}")
        w(_stmt(rng, lang, v, semi))
        w.lines.append("#endif")
    elif lang == "go":
        w(f"if err := {a}.Close(); err != nil {{")
        w.depth += 1
        w("return err")
        w.close()
    else:
        w.open(f"match {a}.get() {{")
        w("Ok(v) => v,")
        w("Err(e) => return Err(e),")
        w.close("};")


def _switch(w: _Writer, rng: random.Random, lang: str, v: list[str], semi: bool) -> None:
    a = rng.choice(v)
    if lang == "rust":
        w.open(f"match {a} {{")
        for n in range(rng.randint(2, 4)):
            w.open(f"{n} => {{")
            w(_stmt(rng, lang, v))
            w.close("}")
        w("_ => {}")
        w.close()
        return
    w.open(f"switch {a} {{" if lang == "go" else f"switch ({a}) {{")
    for n in range(rng.randint(2, 4)):
        w(f"case {n}:")
        w.depth += 1
        w(_stmt(rng, lang, v, semi))
        if lang != "go":
            w("break" + (";" if semi else ""))
        w.depth -= 1
    w("default:")
    w.depth += 1
    w("break" + (";" if semi else "") if lang != "go" else _stmt(rng, lang, v, semi))
    w.depth -= 1
    w.close()


def _params(lang: str, v: list[str]) -> str:
    a, b = v[0], v[1]
    return {
        "ts": f"{a}: number, {b}: string",
        "java": f"int {a}, String {b}",
        "go": f"{a} int, {b} string",
        "rust": f"&mut self, {a}: u32, {b}: &str",
        "c": f"int {a}, const char *{b}",
    }.get(lang, f"{a}, {b}")


def _function(w: _Writer, rng: random.Random, lang: str, v: list[str], name: str, semi: bool):
    args = _params(lang, rng.sample(v, 2))
    if lang == "c" and rng.random() < 0.5:
        w(f"static int {name}({args})")
        w.open("{")
    else:
        header = {
            "js": f"function {name} ({args}) {{" if not semi else f"function {name}({args}) {{",
            "ts": f"export function {name}({args}): number {{",
            "java": f"public int {name}({args}) {{",
            "go": f"func {name}({args}) error {{",
            "rust": f"pub fn {name}({args}) -> Option<u32> {{",
            "c": f"int {name}({args}) {{",
        }[lang]
        w.open(header)
    _body(w, rng, lang, v, 0, semi)
    w.close()


def _synth_code(rng: random.Random, lang: str) -> str:
    unit = LANG[lang].unit if lang != "c" else rng.choice(("\t", "    "))
    w = _Writer(unit)
    v = _vocab(rng)
    semi = lang != "js" or rng.random() < 0.5
    head = {
        "js": ["'use strict'" + (";" if semi else ""), ""],
        "ts": ["import { Config } from './config';", ""],
        "java": ["package com.example.app;", "", "import java.util.List;", ""],
        "go": ["package main", "", 'import "fmt"', ""],
        "rust": ["use std::collections::HashMap;", ""],
        "c": ["#include <stdio.h>", "#include <stdlib.h>", ""],
    }[lang]
    w.lines += head
    in_class = lang in ("ts", "java", "rust") or (lang == "js" and rng.random() < 0.5)
    if in_class:
        cls = rng.choice(v).title() + rng.choice(("Service", "Store", "Manager"))
        w.open(
            {
                "rust": f"impl {cls} {{",
                "java": f"public class {cls} {{",
            }.get(lang, f"export class {cls} {{" if lang == "ts" else f"class {cls} {{")
        )
    for k in range(rng.randint(6, 18)):
        name = f"{rng.choice(v)}{rng.choice(('Get', 'Set', 'Load', 'Check'))}{k}"
        if lang in ("rust", "c"):
            name = re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()
        if in_class and lang in ("js", "ts"):
            w.open(f"{name}({_params(lang, rng.sample(v, 2))}) {{")
            _body(w, rng, lang, v, 0, semi)
            w.close()
        else:
            _function(w, rng, lang, v, name, semi)
        if lang == "c" and rng.random() < 0.15:
            w("")
            w(f"#ifdef HAVE_{name.upper()}")
            w(f"#define {name.upper()}_SIZE {rng.randint(1, 64)}")
            w("#endif")
        w("")
    if in_class:
        w.lines.pop()
        w.close()
    return "\n".join(w.lines).rstrip("\n") + "\n"


def _synth_css(rng: random.Random) -> str:
    w = _Writer("  ")
    v = _vocab(rng)
    props = [
        "margin: 0;",
        "padding: 0;",
        "display: flex;",
        "color: inherit;",
        "border: none;",
        "box-sizing: border-box;",
    ]
    for k in range(rng.randint(12, 40)):
        media = rng.random() < 0.15
        if media:
            w.open(f"@media (max-width: {rng.choice((600, 768, 1024))}px) {{")
        for _ in range(2 if media else 1):
            w.open(f".{rng.choice(v)}-{rng.choice(('card', 'title', 'list', 'item'))}{k} {{")
            for _ in range(rng.randint(1, 7)):
                if rng.random() < 0.6:
                    w(rng.choice(props))
                else:
                    prop = rng.choice(("margin-top", "width", "font-size"))
                    w(f"{prop}: {rng.randint(1, 40)}px;")
            w.close()
        if media:
            w.close()
        w("")
    return "\n".join(w.lines).rstrip("\n") + "\n"


def _synth_html(rng: random.Random) -> str:
    w = _Writer("  ")
    v = _vocab(rng)
    w.lines += ["<!DOCTYPE html>", "<html>"]
    w.depth = 1
    w.open("<body>")

    def element(depth: int) -> None:
        pick = rng.random()
        if pick < 0.3 and depth < 4:
            w.open(f'<div class="{rng.choice(v)}">')
            for _ in range(rng.randint(1, 4)):
                element(depth + 1)
            w.close("</div>")
        elif pick < 0.45 and depth < 4:
            w.open("<ul>")
            for _ in range(rng.randint(2, 5)):
                w(f'<li><a href="#{rng.choice(v)}">{rng.choice(v).title()}</a></li>')
            w.close("</ul>")
        elif pick < 0.55:
            w("<br>")
        else:
            w(f"<p>{rng.choice(v).title()} {rng.choice(v)} {rng.randint(1, 9)}</p>")

    for k in range(rng.randint(6, 16)):
        w.open(f'<section id="{rng.choice(v)}-{k}">')
        w(f"<h2>{rng.choice(v).title()}</h2>")
        for _ in range(rng.randint(1, 4)):
            element(1)
        w.close("</section>")
    w.close("</body>")
    w.depth = 0
    w("</html>")
    return "\n".join(w.lines) + "\n"


def synth(rng: random.Random, lang: str) -> str:
    """A generated file in ``lang``, most of its block lines repeated."""
    if lang == "css":
        return _synth_css(rng)
    if lang == "html":
        return _synth_html(rng)
    return _synth_code(rng, lang)


# -- lines --------------------------------------------------------------------------------------
def _indent(line: str) -> str:
    return line[: len(line) - len(line.lstrip(" \t"))]


def _width(line: str) -> int:
    return len(_indent(line).expandtabs(4))


_VOID = _words("br hr img input meta link source area base col embed param track wbr")
_OPEN_TAG = re.compile(r"^<([A-Za-z][\w-]*)\b[^>]*>$")
_MEMBER_ENDS = frozenset(("}", "};", "</div>", "</section>", "</li>", "</p>", "</ul>"))
_HINT = re.compile(
    r"…|existing|remaining|previous|other|unchanged|original|rest|same|before|omitted|elided|skipped",
    re.IGNORECASE,
)
_WORD = re.compile(r"[A-Za-z_]\w+")
# Words that tell nothing of where a line is, in any language.
_PLAIN = _words(
    "null nil None undefined true false return break continue else try catch finally do end "
    "default case div span p li ul ol section br"
)
_CONTINUES = (",", "(", "[", "+", "-", "*", "/", "=", "&&", "||", "?", ":", ".", "\\", "|", "&")


class _File:
    """A file's lines and what each one is, for picking where to edit."""

    def __init__(self, text: str, lang: Lang) -> None:
        lines = text.split("\n")
        if lines and lines[-1] == "":
            lines.pop()
        self.lines = lines
        self.lang = lang
        self.keys = [x.rstrip() for x in lines]
        self.where: dict[str, list[int]] = {}
        for i, k in enumerate(self.keys):
            self.where.setdefault(k, []).append(i)
        self.unit = _unit(lines)
        self.is_code = [self.code(x) for x in lines]
        code = [k for k, c in zip(self.keys, self.is_code, strict=True) if c]
        self.semi = sum(1 for x in code if x.endswith(";")) * 5 >= len(code)
        self._spots: dict[str, list[int]] = {}
        self.text = text
        words = {m.group() for x in lines[:400] for m in _NAME.finditer(x)}
        self.names = sorted(w for w in words if w not in lang.keywords) or ["value"]

    def code(self, line: str) -> bool:
        """Code a model would edit: not blank, not a comment, nothing like a marker."""
        s = line.strip()
        if not s or len(s) > 160 or s.startswith(self.lang.comments):
            return False
        return "..." not in s and not (_HINT.search(s) and is_marker(line))

    def spots(self, kind: str) -> list[int]:
        """Rows where an edit of ``kind`` may go, away from the file's edges."""
        if kind not in self._spots:
            test = {
                "replace": lambda i: self.is_code[i],
                "insert": self.complete,
                "delete": self.statement,
                "replace_end": self.ends_block,
                "member": self.ends_member,
            }[kind]
            self._spots[kind] = [i for i in range(8, len(self.lines) - 8) if test(i)]
        return self._spots[kind]

    def ends_block(self, i: int) -> bool:
        j = self.next_code(i + 1)
        return (
            j is not None
            and self.statement(i)
            and self.closes(j)
            and _width(self.lines[j]) < _width(self.lines[i])
        )

    def ends_member(self, i: int) -> bool:
        """A closing line with another member after it, at its level."""
        if self.lines[i].strip() not in _MEMBER_ENDS:
            return False
        j = self.next_code(i + 1)
        return (
            j is not None and _width(self.lines[j]) == _width(self.lines[i]) and not self.closes(j)
        )

    def opens(self, i: int) -> bool:
        s = self.keys[i].strip()
        if self.lang.name == "html":
            m = _OPEN_TAG.match(s)
            return m is not None and m.group(1).lower() not in _VOID
        return s.endswith("{")

    def closes(self, i: int) -> bool:
        s = self.keys[i].strip()
        return bool(s) and (s[0] in "})]" or s.startswith("</"))

    def next_code(self, i: int, step: int = 1) -> int | None:
        while 0 <= i < len(self.lines):
            if self.lines[i].strip():
                return i
            i += step
        return None

    def complete(self, i: int) -> bool:
        """Line ``i`` ends a statement (or opens or closes a block)."""
        if not self.is_code[i]:
            return False
        s = self.keys[i].strip()
        if self.lang.name == "html":
            return s.startswith("<") and s.endswith(">")
        if self.lang.name == "css":
            return s.endswith((";", "{", "}"))
        if self.opens(i) or s.endswith((";", "}")):
            return True
        if s.endswith(_CONTINUES) or s.startswith(("#", "@")):
            return False
        j = self.next_code(i + 1)
        if j is None:
            return False
        after = self.lines[j].strip()
        return _width(self.lines[j]) <= _width(self.lines[i]) and not after.startswith(
            (".", "?", ":", "&&", "||", "+", "-", "=")
        )

    def statement(self, i: int) -> bool:
        return self.complete(i) and not self.opens(i) and not self.closes(i)

    def unique(self, a: int, b: int) -> bool:
        """Lines a..b (b exclusive, some of them not blank) are in the file once."""
        if a < 0 or b > len(self.keys) or a >= b:
            return False
        block = self.keys[a:b]
        if not any(x.strip() for x in block):
            return False
        n = b - a
        hits = 0
        for r in self.where.get(block[0], []):
            if self.keys[r : r + n] == block:
                hits += 1
                if hits > 1:
                    return False
        return hits == 1

    def telling(self, a: int, b: int) -> bool:
        """Some line in rows a..b names something: more than "}", "return;" or "</div>"."""
        return any(
            w not in self.lang.keywords and w not in _PLAIN
            for x in self.lines[a:b]
            for w in _WORD.findall(x)
        )

    def header(self, o: int) -> int:
        """The first row of the header whose block opens at row ``o`` (a lone "{" follows
        its function's line in C)."""
        return o - 1 if self.keys[o].strip() == "{" and o > 0 and self.is_code[o - 1] else o

    def block(self, i: int, outermost: bool = False) -> tuple[int, int] | None:
        """(opening, closing) rows of the block around row ``i``: the innermost, or the
        outermost below the file's top level."""
        found = None
        row, width = i, _width(self.lines[i])
        while True:
            o = next(
                (
                    r
                    for r in range(row - 1, -1, -1)
                    if self.lines[r].strip() and _width(self.lines[r]) < width
                ),
                None,
            )
            if o is None or not self.opens(o):
                return found
            level = _width(self.lines[o])
            c = next(
                (
                    r
                    for r in range(i + 1, len(self.lines))
                    if self.lines[r].strip() and _width(self.lines[r]) <= level
                ),
                None,
            )
            if c is None or not self.closes(c) or _width(self.lines[c]) != level:
                return found
            found = (o, c)
            if not outermost or level == 0:
                return found
            row, width = o, level


def _unit(lines: list[str]) -> str:
    tabs = sum(1 for x in lines if x.startswith("\t"))
    spaces = [len(_indent(x)) for x in lines if x.startswith(" ") and x.strip()]
    if tabs > len(spaces):
        return "\t"
    two = sum(1 for n in spaces if n % 4 == 2)
    return "  " if two * 10 > len(spaces) else "    "


# -- edits --------------------------------------------------------------------------------------
_NUM = re.compile(r"(?<![\w.#-])\d+")
_STR = re.compile(r"""(['"])([A-Za-z][\w .-]{0,30})\1""")
_NAME = re.compile(r"\b[A-Za-z_]\w{2,}\b")
_TAGS = re.compile(r"<[^>]*>")


def _change(rng: random.Random, f: _File, row: int, names: list[str]) -> str | None:
    """File line ``row`` with one number, short string or name changed."""
    line = f.lines[row]
    spans: list[re.Match[str]] = list(_NUM.finditer(line)) + list(_STR.finditer(line))
    lang = f.lang.name
    if lang == "html":  # names only in text, not in tags
        tags = [m.span() for m in _TAGS.finditer(line)]
        spans += [m for m in _NAME.finditer(line) if not any(a <= m.start() < b for a, b in tags)]
    elif lang != "css" or f.opens(row):  # CSS: names in selectors, not properties
        spans += [m for m in _NAME.finditer(line) if m.group() not in f.lang.keywords]
    if not spans:
        return None
    m = rng.choice(spans)
    word = m.group()
    if word.isdigit():
        repl = str(int(word) + rng.randint(1, 9))
    elif m.re is _STR:
        repl = m.group(1) + m.group(2) + rng.choice(["_v2", " (new)", "s"]) + m.group(1)
    else:
        others = [x for x in names if x != word]
        repl = rng.choice([word + "New", "new_" + word, word + "2", *others[:1]])
    out = line[: m.start()] + repl + line[m.end() :]
    return out if out != line and not is_marker(out) else None


def _new_lines(rng: random.Random, f: _File, indent: str, names: list[str]) -> list[str]:
    """Statements (or one small block) a model adds at ``indent``."""
    lang = f.lang.name
    name = rng.choice(names)
    n = rng.randint(2, 99)
    deeper = indent + f.unit
    end = ";" if f.semi or lang != "js" else ""
    if lang == "css":
        pool = [f"margin-top: {n}px;", f"color: #{n:03x};", f"font-size: {n}px;", "display: flex;"]
        return [indent + x for x in rng.sample(pool, rng.randint(1, 2))]
    if lang == "html":
        if rng.random() < 0.3:
            return [
                indent + f'<div class="{name}">',
                deeper + f"<p>{name} {n}</p>",
                indent + "</div>",
            ]
        return [indent + f'<p class="{name}">{name.title()} {n}</p>']
    if rng.random() < 0.25:
        guard = {
            "js": (f"if ({name} === {n}) {{", f"return {name}{end}"),
            "ts": (f"if ({name} === undefined) {{", "return null;"),
            "java": (f"if ({name} == null) {{", "return null;"),
            "go": (f"if {name} == nil {{", "return nil"),
            "rust": (f"if {name}.is_empty() {{", "return None;"),
            "c": (f"if ({name} == NULL) {{", "return -1;"),
        }[lang]
        return [indent + guard[0], deeper + guard[1], indent + "}"]
    pool = {
        "js": [f"const {name}Total = {n}{end}", f"console.log('{name}', {name}){end}"],
        "ts": [f"const {name}Total: number = {n};", f"console.log('{name}', {name});"],
        "java": [f"int {name}Total = {n};", f'System.out.println("{name}: " + {name});'],
        "go": [f"{name}Total := {n}", f'fmt.Println("{name}", {name})'],
        "rust": [f"let {name}_total = {n};", f'println!("{{}}", {name});'],
        "c": [f"int {name}_total = {n};", f'printf("%d\\n", {name});'],
    }[lang]
    pool.append(f"{name}Count += {n}" + ("" if lang == "go" else end or ""))
    return [indent + x for x in rng.sample(pool, rng.randint(1, 3))]


def _member(rng: random.Random, f: _File, indent: str, names: list[str]) -> list[str]:
    """A new function, method, rule or element at ``indent``."""
    lang = f.lang.name
    name = f"{rng.choice(names)}{rng.randint(2, 99)}"
    n = rng.randint(2, 99)
    body = indent + f.unit
    end = ";" if f.semi or lang != "js" else ""
    if lang == "css":
        return [indent + f".{name}-new {{", body + f"margin: {n}px;", indent + "}"]
    if lang == "html":
        return [indent + f'<div class="{name}">', body + f"<p>{name} {n}</p>", indent + "</div>"]
    top = indent == ""
    header = {
        "js": f"function {name}(value) {{" if top else f"{name}(value) {{",
        "ts": f"export function {name}(value: number): number {{"
        if top
        else f"{name}(value: number): number {{",
        "java": f"public int {name}(int value) {{",
        "go": f"func {name}(value int) int {{",
        "rust": f"fn {name}(value: u32) -> u32 {{"
        if top
        else f"pub fn {name}(value: u32) -> u32 {{",
        "c": f"static int {name}(int value) {{",
    }[lang]
    ret = (
        f"value + {n}" if lang == "rust" else f"return value + {n}" + ("" if lang == "go" else end)
    )
    return [indent + header, body + ret, indent + "}"]


def _edit(
    rng: random.Random, f: _File, at: int, kind: str, names: list[str]
) -> tuple[int, int, list[str]] | None:
    """``(start, end, replacement)``: lines start..end become the replacement."""
    lines = f.lines
    if kind == "replace":
        count = rng.choice((1, 1, 2))
        out = []
        for i in range(at, min(at + count, len(lines))):
            changed = _change(rng, f, i, names) if f.is_code[i] else None
            if changed is None:
                return None
            out.append(changed)
        return at, at + len(out), out
    if kind == "replace_end":
        if not f.ends_block(at):
            return None
        changed = _change(rng, f, at, names)
        return None if changed is None else (at, at + 1, [changed])
    if kind == "insert":
        if not f.complete(at):
            return None
        indent = _indent(lines[at])
        if f.opens(at):
            j = f.next_code(at + 1)
            deeper = j is not None and _width(lines[j]) > _width(lines[at])
            indent = _indent(lines[j]) if deeper and j is not None else indent + f.unit
        elif f.closes(at):
            j = f.next_code(at + 1)
            if j is None or (f.closes(j) and _width(lines[j]) == _width(lines[at])):
                return None
        return at + 1, at + 1, _new_lines(rng, f, indent, names)
    if kind == "member":
        j = f.next_code(at + 1)
        if j is None or not f.ends_member(at):
            return None
        gap = j > at + 1
        if f.lang.name != "html" and not gap:
            return None
        member = _member(rng, f, _indent(lines[at]), names)
        return at + 1, at + 1, ([""] if gap else []) + member
    # delete: whole statements at one level, between complete lines, not opening a block
    count = rng.choice((1, 1, 2))
    level = _width(lines[at])
    prev = f.next_code(at - 1, -1)
    if prev is None or not f.complete(prev):
        return None
    for i in range(at, at + count):
        if i >= len(lines) or not f.statement(i) or _width(lines[i]) != level:
            return None
    j = f.next_code(at + count)
    if j is None or _width(lines[j]) > level:
        return None
    return at, at + count, []


# -- cases --------------------------------------------------------------------------------------
def _span(f: _File, at: int, step: int, code: int) -> int | None:
    """How many lines from ``at`` (backwards for step -1) hold ``code`` non-blank lines."""
    n = seen = 0
    i = at - 1 if step < 0 else at
    while 0 <= i < len(f.lines):
        n += 1
        if f.lines[i].strip():
            seen += 1
            if seen == code:
                return n
        i += step
    return None


def _context(
    rng: random.Random, f: _File, start: int, end: int, careful: bool
) -> tuple[tuple[int, int], tuple[int, int]] | None:
    """Rows shown before (``b0..start``) and after (``end..a1``) a change: one line on each
    side (terse), or one to three and more until each side is unique (careful)."""
    want_b = rng.choice((1, 2, 3)) if careful else 1
    want_a = rng.choice((1, 2, 3)) if careful else 1
    b, a = _span(f, start, -1, want_b), _span(f, end, 1, want_a)
    if careful:  # as a careful model shows it: unique, and more than "}" and "return;"
        while b is not None and not (f.unique(start - b, start) and f.telling(start - b, start)):
            more = sum(1 for x in f.lines[start - b : start] if x.strip()) + 1
            b = _span(f, start, -1, more) if more <= MAX_CONTEXT else None
        while a is not None and not (f.unique(end, end + a) and f.telling(end, end + a)):
            more = sum(1 for x in f.lines[end : end + a] if x.strip()) + 1
            a = _span(f, end, 1, more) if more <= MAX_CONTEXT else None
    if b is None or a is None:
        return None
    return (start - b, start), (end, end + a)


def _marker(style: str, f: _File, near: int | None, column0: bool) -> str:
    if near is None or column0:
        return style
    return _indent(f.lines[min(near, len(f.lines) - 1)]) + style


@dataclass
class _Region:
    kind: str
    start: int
    end: int
    replacement: list[str]
    before: tuple[int, int]  # rows shown before the change
    after: tuple[int, int]  # and after it
    first: int  # first row shown
    last: int  # row after the last shown
    unique: bool
    # The block shown around the change: its opening rows (a..b) and its closing row.
    scoped: tuple[int, int, int] | None = None


def _region(
    rng: random.Random,
    f: _File,
    at: int,
    kind: str,
    context: str,
    names: list[str],
    alone: bool = True,
) -> _Region | None:
    edit = _edit(rng, f, at, kind, names)
    if edit is None:
        return None
    start, end, new = edit
    if context == "whole":
        block = f.block(start if start < len(f.lines) and start > at else at)
        if block is None or block[1] - block[0] > MAX_WHOLE or kind in ("member", "replace_end"):
            return None
        o, c = block
        if not (o < start and end <= c):
            return None
        before, after = (f.header(o), start), (end, c + 1)
        unique = f.unique(*before) and f.telling(*before)
    else:
        got = _context(rng, f, start, end, context != "terse")
        if got is None:
            return None
        before, after = got
        unique = f.unique(*before) and (kind == "replace_end" or f.unique(*after))
    if kind == "replace_end":
        after = (end, end)
    region = _Region(kind, start, end, new, before, after, before[0], after[1], unique)
    if context == "scoped":
        # the innermost block or the outermost (a class, say): each region its own block
        block = f.block(at, outermost=alone and rng.random() < 0.4)
        if block is None or kind == "member":
            return None
        o, c = block
        # The block's own lines must stand apart from the change's context: a marker
        # between them stands for something.
        gap_above = any(x.strip() for x in f.lines[o + 1 : before[0]])
        gap_below = any(x.strip() for x in f.lines[after[1] : c])
        if not (o < before[0] and after[1] <= c and gap_above and gap_below):
            return None
        if kind == "replace_end":
            return None
        region.scoped = (f.header(o), o + 1, c)
        region.first, region.last = f.header(o), c + 1
        region.unique = unique and f.unique(f.header(o), o + 1) and f.telling(f.header(o), o + 1)
    if context != "terse" and not region.unique:
        return None  # all but terse context is shown as a model shows it to be placed
    return region


def _pick_spots(
    rng: random.Random, f: _File, k: int, gap: int = MIN_GAP
) -> list[tuple[int, str]] | None:
    """``k`` (row, kind) pairs at least ``gap`` rows apart, the kinds drawn first."""
    kinds = rng.choices(KINDS, weights=KIND_WEIGHTS, k=k)
    if any(not f.spots(kind) for kind in kinds):
        return None
    for _ in range(30):
        spots = sorted((rng.choice(f.spots(kind)), kind) for kind in kinds)
        if all(b[0] - a[0] >= gap for a, b in itertools.pairwise(spots)):
            return spots
    return None


def make_case(
    rng: random.Random,
    f: _File,
    path: str,
    *,
    regions: int,
    context: str,
    lead: bool,
    trail: bool,
) -> LazyCase | None:
    """One case on file ``f``, or None when this draw does not fit it."""
    if context in ("whole", "scoped"):  # a block each: at most two, further apart
        regions = min(regions, 2)
    spots = _pick_spots(
        rng, f, regions, MIN_GAP if regions < 2 or context in ("careful", "terse") else BLOCK_GAP
    )
    if spots is None:
        return None
    names = f.names
    picked: list[_Region] = []
    for at, kind in spots:
        region = _region(rng, f, at, kind, context, names, alone=len(spots) == 1)
        if region is None:
            return None
        if picked and region.first <= picked[-1].last:
            return None  # shown lines would overlap, or no code between them to skip
        if picked and not any(x.strip() for x in f.lines[picked[-1].last : region.first]):
            return None
        picked.append(region)
    style = rng.choice(f.lang.markers[:1] * 3 + f.lang.markers[1:])
    column0 = rng.random() < 0.15
    snippet: list[str] = []
    out = list(f.lines)
    for r, reg in enumerate(picked):
        if r > 0 and picked[r - 1].kind == "replace_end":
            snippet.append(_marker(style, f, f.next_code(picked[r - 1].last), False))
        elif r > 0 or lead:
            snippet.append(_marker(style, f, f.next_code(reg.first - 1, -1), column0))
        if reg.scoped is not None:
            snippet += f.lines[reg.scoped[0] : reg.scoped[1]]
            snippet.append(_marker(style, f, f.next_code(reg.before[0] - 1, -1), False))
        snippet += f.lines[reg.before[0] : reg.before[1]] + reg.replacement
        snippet += f.lines[reg.after[0] : reg.after[1]]
        if reg.scoped is not None:
            snippet.append(_marker(style, f, f.next_code(reg.after[1]), False))
            snippet.append(f.lines[reg.scoped[2]])
    for reg in reversed(picked):
        out[reg.start : reg.end] = reg.replacement
    last = picked[-1]
    trail = trail or last.kind == "replace_end"
    if last.kind == "replace_end":
        snippet.append(_marker(style, f, f.next_code(last.last), False))
    elif trail:
        snippet.append(_marker(style, f, f.next_code(last.last), column0))
    if any(is_marker(x) for x in f.lines[picked[0].first : last.last] if x.strip()):
        return None  # the file has a line that reads as a marker
    kinds = tuple(reg.kind for reg in picked)
    noise = ""
    if f.unit == "\t" and rng.random() < RETYPED and all(_retypable(f, reg) for reg in picked):
        snippet = [_retyped(x) for x in snippet]
        noise = "retyped"
    final = "\n" if f.text.endswith("\n") else ""
    expected = "\n".join(out) + final
    if expected == f.text:
        return None
    return LazyCase(
        path,
        f.text,
        "\n".join(snippet) + "\n",
        expected,
        regions,
        kinds,
        context,
        lead,
        trail,
        all(reg.unique for reg in picked),
        lang=f.lang.name,
        noise=noise,
    )


def _retypable(f: _File, reg: _Region) -> bool:
    """Every new line's indentation is one a shown line of the file has (the merge can tell
    what it stands for there)."""
    shown = f.lines[reg.before[0] : reg.before[1]] + f.lines[reg.after[0] : reg.after[1]]
    if reg.scoped is not None:
        shown += [*f.lines[reg.scoped[0] : reg.scoped[1]], f.lines[reg.scoped[2]]]
    levels = {_indent(x) for x in shown if x.strip()}
    return all(_indent(x) in levels for x in reg.replacement if x.strip())


def _retyped(line: str) -> str:
    lead = _indent(line)
    return lead.expandtabs(4) + line[len(lead) :]


def generate(n: int, seed: int = 0, langs: tuple[str, ...] = LANGS) -> list[LazyCase]:
    """``n`` cases, evenly over ``langs``; in each, 1-3 regions, the context styles and the
    marker variants in turn, on a real file (half the time, when the machine has some) or a
    generated one."""
    rng = random.Random(seed)
    out: list[LazyCase] = []
    seen: dict[str, str] = {}
    for k in range(n):
        lang = langs[k % len(langs)]
        j = k // len(langs)
        paths = real_files(lang)
        for attempt in range(60):
            # a style the files drawn do not fit (a scoped rule needs a long one) gives way
            context = CONTEXTS[(j // 3) % len(CONTEXTS)] if attempt < 40 else "careful"
            if paths and rng.random() < 0.5:
                path = rng.choice(paths)
                f = _real(path, lang)
                if f is None or seen.setdefault(_digest(f.text), path) != path:
                    continue  # unreadable, or a copy of a file already drawn
            else:
                path = f"<generated {lang} {seed}-{k}>"
                f = _File(synth(rng, lang), LANG[lang])
            case = None
            for _ in range(8):
                case = make_case(
                    rng,
                    f,
                    path,
                    regions=1 + j % 3,
                    context=context,
                    lead=(j // 24) % 2 == 0 or rng.random() < 0.4,
                    trail=(j // 48) % 2 == 0 or rng.random() < 0.4,
                )
                if case is not None:
                    break
            if case is not None:
                out.append(case)
                break
    return out


@cache
def _real(path: str, lang: str) -> _File | None:
    text = _read(path)
    return None if text is None else _File(text, LANG[lang])


@cache
def _digest(text: str) -> str:
    return hashlib.sha1(text.encode()).hexdigest()
