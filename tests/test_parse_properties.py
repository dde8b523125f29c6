"""Properties of ``applydiff.parse`` on responses built from each format's own pieces (issue 13).

Random text rarely gets past a parser's first check, so most responses here come from the
grammar of each format: its marker lines, fences, path lines, hunk headers and tool-call
shapes, well formed or broken, mixed with odd lines (CR, vertical tab, file separator, line
separator, tabs, unicode), then shuffled or cut short. Whatever the input, parse returns a list
of ops or raises an EditError; and what it returns is the same every time, points at lines of
the response, keeps a well-formed SEARCH/REPLACE block's texts exactly, and does not depend on
LF or CRLF line ends.
"""

from __future__ import annotations

import json
import re
import string
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from applydiff import FORMATS, EditError, FormatInvalid, parse
from applydiff.formats.answer import response_lines
from applydiff.ir import Anchored, Delete, Lazy, Move, Op, Replace, Write

FAST = settings(
    max_examples=200,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
OP_TYPES = (Write, Replace, Anchored, Lazy, Delete, Move)
Lines = list[str]

# -- pieces shared by every grammar -------------------------------------------------------

# Characters that trip line handling: str.splitlines splits on most of them (the parsers split
# on "\n" only) and the regex \s matches most of them.
ODD = "\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029\t \u00a0\u200b\ufeff"
CHARS = st.one_of(st.characters(exclude_characters="\n"), st.sampled_from(ODD + "<>=-+*@`~\\:|/#."))
TEXT = st.text(CHARS, max_size=12)
NOISE = st.one_of(
    st.just(""),
    TEXT,
    st.sampled_from(
        [
            "Here is the change:",
            "    indented = 1",
            "\tx = 1",
            "ünïcødé ✓ 日本語",
            "   ",
            "\u2028",
            "a\rb",
            "\x0b",
            "\x1c",
            "EOF",
        ]
    ),
)


@cache
def often(p: float = 0.8) -> st.SearchStrategy[bool]:
    """True with about probability ``p``; True is the simplest value (what shrinking seeks)."""
    return st.integers(0, 99).map(lambda k: k < p * 100)


@cache
def rarely(p: float) -> st.SearchStrategy[bool]:
    """True with about probability ``p``; False is the simplest value."""
    return st.integers(0, 99).map(lambda k: k >= 100 - p * 100)


def mix(good: Any, bad: Any, p_bad: float = 0.1) -> st.SearchStrategy[Any]:
    """Mostly ``good``, at times ``bad`` (strategies, or lists to sample from)."""
    good, bad = (x if isinstance(x, st.SearchStrategy) else st.sampled_from(x) for x in (good, bad))
    return rarely(p_bad).flatmap(lambda b: bad if b else good)


def pick(draw: st.DrawFn, good: list[str], bad: list[str], p_bad: float = 0.1) -> str:
    """Inside a composite: one of ``good``, at times one of ``bad``."""
    return draw(st.sampled_from(tuple(bad if draw(rarely(p_bad)) else good)))


# Paths every path-line decoration keeps as they are (path_of strips '_' and '*' at the ends).
WORD = st.builds(
    str.__add__,
    st.sampled_from(string.ascii_lowercase),
    st.text(string.ascii_lowercase + string.digits + "_", max_size=5),
)
CLEAN_PATH = st.builds(
    lambda dirs, name, ext: "/".join([*dirs, name]) + ext,
    st.lists(WORD, max_size=2),
    WORD,
    st.sampled_from((".py", ".ts", ".md", ".c", ".txt")),
)
ODD_PATH = st.sampled_from(
    [
        "Makefile",
        "src/ü.py",
        "a b.py",
        "../up.py",
        "/abs.py",
        "C:\\w\\a.py",
        "dir/",
        ".",
        "-",
        "",
        "x" * 300,
    ]
)
PATH = mix(CLEAN_PATH, ODD_PATH, 0.25)
PATH_OR_NONE = mix(PATH, ["", " "])
PATH_FORMS = ["{}", "**{}**", "`{}`", "# `{}`:", "File: {}", "path: {}", "{}:", "  {}  ", "### {}"]
PATH_LINE = st.builds(lambda p, form: form.format(p), PATH, st.sampled_from(PATH_FORMS))
# More digits than int() reads (sys.get_int_max_str_digits() is 4,300 by default).
LONG = "9" * 4400
NUMBER = mix(st.integers(0, 10**9).map(str), ["-1", "x", "", "007", "١٢", "1.5", LONG, LONG], 0.3)
INFOS = [
    "",
    "python",
    "python:src/a.py",
    "py:",
    ":",
    " path=src/a.py",
    ' title="a.py"',
    "python src/a.py",
    "src/a.py",
    "diff",
    "markdown",
    "json",
    "JSON",
    "text",
    "ts file=x.ts",
    "{.python}",
    "python\x1c",
]
FENCE_OPEN = st.builds(
    lambda pad, ch, n, info: pad + ch * n + info,
    st.sampled_from(("", "", "  ")),
    st.sampled_from("`~"),
    st.integers(2, 5),
    st.sampled_from(INFOS),
)
FENCE_CLOSE = st.sampled_from(("```", "~~~", "````", "``", "```  ", "```x"))

# -- one grammar per format: each strategy draws the lines of one block ---------------------

HEADS = [
    "<<<<<<< SEARCH",
    "<<<<<<<SEARCH",
    "  <<<<<<< SEARCH  ",
    "<<<<< SEARCH",
    "<<<<<<<<< SEARCH",
    "<<<<<<<<<< SEARCH",
    "<<<< SEARCH",
]
DIVIDERS = ["=======", "  =======\t", "=====", "=========", "==========", "===="]
TAILS = [">>>>>>> REPLACE", ">>>>>>>REPLACE", "\t>>>>>>> REPLACE ", ">>>>>>>>>> REPLACE"]
SR_CONTENT = st.one_of(
    NOISE,
    st.sampled_from(
        [
            *HEADS[:2],
            *DIVIDERS[:2],
            *TAILS[:2],
            ":start_line:3",
            "-------",
            "\\=======",
            "\\<<<<<<< SEARCH",
            "\\>>>>>>> REPLACE",
            "\\-------",
            "\\:start_line:2",
            "\\\\=======",
            "# ... existing code ...",
            "```",
        ]
    ),
)


@st.composite
def search_replace_block(draw: st.DrawFn) -> Lines:
    """A SEARCH/REPLACE block, with apply_diff's line numbers and separator at times."""
    out: Lines = []
    if draw(often()):
        out.append(draw(PATH_LINE))
    fenced = draw(st.booleans())
    if fenced:
        out.append(draw(FENCE_OPEN))
    out.append(draw(st.sampled_from(HEADS)))
    for _ in range(draw(st.sampled_from((0, 0, 1, 2)))):
        key = draw(st.sampled_from((":start_line:", ":end_line:", " :start_line: ")))
        out.append(key + draw(NUMBER))
    if draw(st.booleans()):
        out.append(draw(st.sampled_from(("-------", "-----", "----------"))))
    content = st.lists(SR_CONTENT, max_size=4)
    out += draw(content)
    for _ in range(draw(st.sampled_from((1, 1, 1, 0, 2, 3)))):
        out.append(draw(st.sampled_from(DIVIDERS)))
        out += draw(content)
    if draw(often()):
        out.append(draw(st.sampled_from(TAILS)))
    if fenced and draw(often()):
        out.append(draw(FENCE_CLOSE))
    return out


PB_GOOD_OPTIONS = ["mode=replace", "mode=patch", "fuzz=0.8", "fuzz=1", " MODE = replace "]
PB_BAD_OPTIONS = [
    "mode=diff",
    "fuzz=0",
    "fuzz=nan",
    "fuzz=inf",
    "fuzz=-0.5",
    "fuzz=",
    "fuzz=abc",
    "fuzz=1e-999",
    "fuzz=0_5",
    "x",
    "=",
    "",
]
PB_SECTIONS = [["--- from", "--- to"], ["--- from", "--- to", "--- from", "--- to"]]
PB_BAD_SECTIONS = [["--- to"], ["--- from"], [], ["--- to", "--- from"], [" --- from ", "--- to\t"]]
PB_CONTENT = st.lists(st.one_of(NOISE, st.sampled_from(("<<", "--- a/x", "< ", ">"))), max_size=3)
PB_OPTION = mix(PB_GOOD_OPTIONS, PB_BAD_OPTIONS, 0.2)
PB_SECTION = mix(PB_SECTIONS, PB_BAD_SECTIONS, 0.2)


@st.composite
def patch_block(draw: st.DrawFn) -> Lines:
    """A '>>> file:' block: header options, '--- from'/'--- to' sections, '<'."""
    head = pick(draw, [">>> file:", ">>>file:", "  >>> file:"], [">>> file:\t", ">> file:"])
    head += " " + draw(PATH_OR_NONE)
    options = st.lists(PB_OPTION, max_size=2)
    out = [" | ".join([head, *draw(options)])]
    content = PB_CONTENT
    if draw(rarely(0.2)):
        out += draw(content)
    for marker in draw(PB_SECTION):
        out.append(marker)
        out += draw(content)
    if draw(often(0.9)):
        out.append(pick(draw, ["<", " < "], ["<<", "< x"]))
    return out


HUNK_HEADER = mix(
    st.one_of(
        st.builds(
            lambda a, b, c, d, scope: f"@@ -{a},{b} +{c},{d} @@{scope}",
            NUMBER,
            NUMBER,
            NUMBER,
            NUMBER,
            st.sampled_from(("", " def f():", " class A")),
        ),
        st.builds(lambda a: f"@@ -{a} @@", NUMBER),
        st.just("@@"),
    ),
    ["@@ @@", "@@@ -1,2 +1,2 @@@", "@@ -x +y @@", "@@ -1,2 +1,3", "@@ -"],
)
HUNK_LINE = mix(
    st.one_of(
        st.builds(lambda tag, s: tag + s, st.sampled_from(" -+"), TEXT),
        st.sampled_from(("", "\\ No newline at end of file")),
    ),
    st.one_of(
        NOISE,
        st.sampled_from(
            ["\\", "--- a/x", "+++ b/x", "---", "+++", "```", "-- x", "diff --git a/x b/x"]
        ),
    ),
)


@st.composite
def unified_file(draw: st.DrawFn) -> Lines:
    """One file of a unified diff: git header and extended lines, ---/+++, hunks."""
    a = draw(PATH)
    b = draw(st.one_of(st.just(a), PATH))
    out: Lines = []
    if draw(st.booleans()):
        git = [f"diff --git a/{a} b/{b}", f'diff --git "a/{a}" "b/{b}"']
        out.append(pick(draw, git, [f"diff --git a/{a}", "diff --git "]))
        extended = [
            "index 83db48f..bf269f4 100644",
            "new file mode 100644",
            "deleted file mode 100644",
            f"rename from {a}",
            f"rename to {b}",
            "rename from",
            "similarity index 90%",
            "old mode 100644",
            "new mode 100755",
        ]
        out += draw(st.lists(st.sampled_from(extended), max_size=3))
    if draw(often()):
        old = [f"--- a/{a}", f"--- {a}", f"--- a/{a}\t2024-01-01 10:00:00"]
        out.append(pick(draw, old, ["--- /dev/null", "--- "], 0.2))
        out.append(pick(draw, [f"+++ b/{b}", f"+++ {b}"], ["+++ /dev/null", "+++ "], 0.2))
    for _ in range(draw(st.integers(0, 3))):
        out.append(draw(HUNK_HEADER))
        out += draw(st.lists(HUNK_LINE, max_size=6))
    return out


CHUNK_LINE = mix(
    st.one_of(
        st.builds(lambda tag, s: tag + s, st.sampled_from(" -+"), TEXT),
        st.sampled_from(("@@", "@@ class A", "@@ def f():", "", "*** End of File")),
    ),
    st.one_of(NOISE, st.sampled_from(("   ", "***", "*** Move to: z", "@@@"))),
)

ADDED_LINE = mix(st.one_of(st.builds(lambda s: "+" + s, TEXT), st.just("")), NOISE)


@st.composite
def apply_patch_block(draw: st.DrawFn) -> Lines:
    """A '*** Begin Patch' envelope of Add/Update/Delete sections, in a heredoc at times."""
    heredoc = draw(rarely(0.3))
    out = ["apply_patch <<'EOF'"] if heredoc else []
    out.append(pick(draw, ["*** Begin Patch", "  *** Begin Patch "], ["***Begin Patch"]))
    for _ in range(draw(st.integers(0, 3))):
        kind = pick(draw, ["Add", "Update", "Update", "Delete"], ["Frob", "add"])
        pad = draw(st.sampled_from(("", " ", "\t")))
        out.append(f"{pad}*** {kind} File: {draw(PATH_OR_NONE)}{pad}")
        if kind == "Add":
            out += draw(st.lists(ADDED_LINE, max_size=4))
        elif kind == "Update":
            if draw(rarely(0.3)):
                out.append(f"*** Move to: {draw(PATH_OR_NONE)}")
            out += draw(st.lists(CHUNK_LINE, max_size=8))
    if draw(often(0.9)):
        out.append(pick(draw, ["*** End Patch", " *** End Patch "], ["*** End Patch!", "*** End"]))
    if heredoc:
        out.append("EOF")
    return out


LAZY_MARKERS = [
    "# ... existing code ...",
    "// ... existing code ...",
    "/* ... rest of the file ... */",
    "<!-- ... unchanged ... -->",
    "    # ... existing methods ...",
    "// …existing code…",
    "# ... your code here",
    "...",
    "# ...",
    "-- ... remaining code ...",
    "...args,",
]
FIRST_COMMENTS = ["// src/a.ts", "# a.py", "<!-- a.html -->", "/* b.css */", "-- q.sql", "// x"]
CODE = st.sampled_from(("def run():", "    return 2", "x = 1", "}", "<div>", "import os"))


@st.composite
def lazy_block(draw: st.DrawFn) -> Lines:
    """A fenced snippet with '... existing code ...' lines, its path in any of its places."""
    out: Lines = []
    if draw(often(0.6)):
        out.append(draw(PATH_LINE))
    ch = draw(st.sampled_from("`~"))
    n = draw(st.integers(3, 5))
    out.append(draw(st.sampled_from(("", " "))) + ch * n + draw(st.sampled_from(INFOS)))
    if draw(rarely(0.3)):
        out.append(draw(st.sampled_from(FIRST_COMMENTS)))
    inner = st.one_of(CODE, CODE, st.sampled_from(LAZY_MARKERS), FENCE_OPEN, NOISE)
    lines = draw(st.lists(inner, max_size=6))
    if draw(often(0.7)):  # a marker that says the code is kept, which the snippet needs
        lines.insert(draw(st.integers(0, len(lines))), draw(st.sampled_from(LAZY_MARKERS[:5])))
    out += lines
    if draw(often(0.7)):
        out.append(ch * n)
    elif draw(often(0.7)):
        out.append(draw(st.sampled_from((ch * (n + 1), ch * (n - 1), ch * n + " ", "```", "~~~"))))
    return out


# A well-formed SEARCH/REPLACE block: content lines that would read as markers are escaped.

_MARKER = re.compile(
    r"\s*(<{5,9} ?SEARCH|={5,9}|>{5,9} ?REPLACE|-{5,9}|:(start|end)_line:\s*\d+)\s*"
)
# A line that already reads as an escaped marker has no spelling in the format.
_ESCAPED = re.compile(r"\s*\\(<{5,9} ?SEARCH|={5,9}|>{5,9} ?REPLACE|-{5,9}|:(start|end)_line:)")
CONTENT_LINE = st.one_of(
    st.text(st.characters(exclude_characters="\n"), max_size=20),
    st.sampled_from(
        [
            "<<<<<<< SEARCH",
            " ======= ",
            ">>>>>>> REPLACE",
            "-------",
            ":start_line:5",
            "# ... existing code ...",
            "```",
            "--- a/x",
            "@@ -1 +1 @@",
            "*** Begin Patch",
            ">>> file: x.py",
            "<",
        ]
    ),
).filter(lambda s: not s.endswith("\r") and not _ESCAPED.match(s))
PROSE = st.builds(str.__add__, WORD, st.text(string.ascii_lowercase + " ", max_size=15))


def escape(line: str) -> str:
    if not _MARKER.fullmatch(line):
        return line
    rest = line.lstrip()
    return line[: len(line) - len(rest)] + "\\" + rest


def body(lines: Lines) -> str:
    return "".join(x + "\n" for x in lines)


@st.composite
def well_formed_blocks(draw: st.DrawFn, dialect: bool) -> tuple[Lines, list[Replace]]:
    """One to three SEARCH/REPLACE blocks and the ops they mean."""
    out: Lines = []
    expected: list[Replace] = []
    path = None
    for k in range(draw(st.integers(1, 3))):
        if k:
            out += draw(st.lists(PROSE, max_size=2))
        if k == 0 or draw(st.booleans()):  # later blocks may reuse the path before them
            path = draw(CLEAN_PATH)
            out.append(draw(st.sampled_from(PATH_FORMS)).format(path))
        fence = draw(st.sampled_from((None, "```", "````", "~~~")))
        if fence:
            out.append(fence + draw(st.sampled_from(("", "python", "ts", "diff"))))
        out.append(draw(st.sampled_from(("<<<<<<< SEARCH", "<<<<<<<SEARCH", " <<<<<<< SEARCH "))))
        head = len(out)
        hint = draw(st.one_of(st.none(), st.integers(1, 10**6)))
        if hint is not None:
            out.append(f":start_line:{hint}")
            if draw(st.booleans()):
                out.append(f":end_line:{hint + draw(st.integers(0, 9))}")
        if hint is not None or dialect:
            out.append("-------")
        old = draw(st.lists(CONTENT_LINE, max_size=5))
        new = draw(st.lists(CONTENT_LINE, max_size=5))
        out += [escape(x) for x in old]
        out.append(draw(st.sampled_from(("=======", " ======= "))))
        out += [escape(x) for x in new]
        out.append(draw(st.sampled_from((">>>>>>> REPLACE", ">>>>>>>REPLACE"))))
        if fence:
            out.append(fence)
        assert path is not None
        expected.append(
            Replace(
                path,
                body(old),
                body(new),
                hint_line=hint,
                hint_is_original=hint is not None,
                origin=head,
            )
        )
    return out, expected


WELL_FORMED = {dialect: well_formed_blocks(dialect) for dialect in (False, True)}


# -- tool calls as JSON ------------------------------------------------------------------

WRONG = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-2, 2),
    st.floats(allow_nan=False, allow_infinity=False),
    st.just([]),
    st.just({}),
    st.lists(st.integers(), max_size=2),
    st.just({"a": 1}),
)


def typed(good: st.SearchStrategy[Any], wrong: float = 0.05) -> st.SearchStrategy[Any]:
    """Mostly a value of the right type, at times one of the wrong type."""
    return rarely(wrong).flatmap(lambda bad: WRONG if bad else good)


def joined(block: st.SearchStrategy[Lines]) -> st.SearchStrategy[str]:
    return st.lists(block, max_size=2).map(lambda bs: "\n".join(x for b in bs for x in b))


EDIT_SPELLINGS = [("old_string", "new_string"), ("old_str", "new_str"), ("oldText", "newText")]
EXTRA_KEYS = ["path", "file_path", "content", "edits", "old_string", "new_string", "changes"]
T_TEXT, T_PATH, T_BOOL = typed(TEXT), typed(PATH), typed(st.booleans())
T_EDIT_PATH = typed(mix(PATH, [""], 0.3))  # empty: the call's path, if it has one
T_LINES = typed(st.one_of(st.lists(TEXT, max_size=3), TEXT))


@st.composite
def edit_object(draw: st.DrawFn) -> Any:
    old_key, new_key = draw(st.sampled_from(EDIT_SPELLINGS))
    edit = {old_key: draw(T_TEXT), new_key: draw(T_TEXT)}
    if draw(often(0.6)):
        edit[draw(st.sampled_from(("path", "path", "file_path")))] = draw(T_EDIT_PATH)
    edit |= draw(st.fixed_dictionaries({}, optional={"replace_all": T_BOOL, "file_id": T_TEXT}))
    if draw(rarely(0.1)):  # the same text twice, in two spellings
        edit["oldText"] = draw(T_TEXT)
    if draw(rarely(0.1)):
        del edit[draw(st.sampled_from(sorted(edit)))]
    return edit


CHANGE = st.fixed_dictionaries({}, optional={"start": T_LINES, "end": T_LINES, "content": T_LINES})
T_EDITS = typed(st.lists(edit_object(), max_size=3))
T_CHANGES = typed(st.lists(CHANGE, max_size=2))
T_SNIPPET = typed(joined(lazy_block()))
T_DIFF = typed(
    mix(WELL_FORMED[False].map(lambda x: "\n".join(x[0])), joined(search_replace_block()), 0.5)
)
T_PATCH = typed(joined(apply_patch_block()))


@st.composite
def tool_arguments(draw: st.DrawFn, name: str) -> dict[str, Any]:
    """The arguments of one call: a real schema of the tool, then perhaps broken."""
    path = draw(T_PATH)
    args: dict[str, Any]
    if name == "write_file":
        args = {draw(st.sampled_from(("path", "file_path"))): path, "content": draw(T_TEXT)}
    elif name == "edit_file":
        shape = draw(st.sampled_from(("single", "edits", "changes", "fast")))
        if shape == "single":
            old_key, new_key = draw(st.sampled_from(EDIT_SPELLINGS[:2]))
            args = {"path": path, old_key: draw(T_TEXT), new_key: draw(T_TEXT)}
            if draw(st.booleans()):
                args["replace_all"] = draw(T_BOOL)
        elif shape == "edits":
            args = {"edits": draw(T_EDITS)}
            if draw(st.booleans()):
                args["path"] = path
        elif shape == "changes":
            args = {"path": path, "changes": draw(T_CHANGES)}
        else:
            args = {"target_file": path, "instructions": draw(T_TEXT), "code_edit": draw(T_SNIPPET)}
    elif name in ("diff_edit", "apply_diff"):
        args = {"path": path, "diff": draw(T_DIFF)}
    elif name == "apply_patch":
        args = {draw(st.sampled_from(("input", "patch"))): draw(T_PATCH)}
    else:
        args = {"path": path}
    if draw(st.booleans()):
        args["file_id"] = draw(T_TEXT)
    if args and draw(rarely(0.1)):  # a field missing
        del args[draw(st.sampled_from(sorted(args)))]
    if draw(rarely(0.1)):  # a field of another shape
        args[draw(st.sampled_from(EXTRA_KEYS))] = draw(T_TEXT)
    return args


TOOL_NAMES = ["edit_file", "write_file", "apply_patch", "diff_edit", "apply_diff", "edit_file", "x"]
T_NAME = typed(st.sampled_from(TOOL_NAMES))


@st.composite
def tool_call(draw: st.DrawFn) -> Any:
    """One call in the plain, OpenAI or Anthropic shape; arguments as an object or a string."""
    name = draw(T_NAME)
    args = draw(tool_arguments(name if isinstance(name, str) else ""))
    how = draw(st.sampled_from(["object", "string"] * 4 + ["broken"]))
    encoded = json.dumps(args)
    raw = {"object": args, "string": encoded, "broken": encoded[: len(encoded) // 2]}[how]
    shape = draw(st.sampled_from(("plain", "openai", "anthropic", "other")))
    if shape == "plain":
        return {"name": name, "arguments": raw}
    if shape == "openai":
        return {"type": "function", "id": "call_1", "function": {"name": name, "arguments": raw}}
    if shape == "anthropic":
        return {"type": "tool_use", "id": "toolu_1", "name": name, "input": raw}
    return {"tool": name, draw(st.sampled_from(("parameters", "args", "input"))): raw}


# JSON that no encoder writes but a model or a hostile caller can.
RAW_JSON = [
    "[" + "9" * 4400 + "]",
    '{"name": "write_file", "arguments": {"path": "a", "content": ' + "1" * 4400 + "}}",
    '{"name": "write_file", "arguments": "[' + "2" * 4400 + ']"}',
    "[" * 3000 + "]" * 3000,
    '{"name": "apply_diff", "arguments": "' + "[" * 3000 + '"}',
    '{"name": "write_file", "arguments": {"path": "a", "content": NaN}}',
    '{"name": "write_file", "arguments": {"path": "a", "content": 1e999}}',
    '{"tool_calls": "x"}',
    '{"role": "assistant", "content": [1, {"input": {}}]}',
    "{",
    "[]",
    "{}",
    "null",
]


@st.composite
def tool_calls_json(draw: st.DrawFn) -> str:
    """A JSON response: one call, a list, OpenAI's tool_calls or an Anthropic message."""
    if draw(rarely(0.2)):
        return draw(st.sampled_from(RAW_JSON))
    calls = draw(st.lists(tool_call(), min_size=1, max_size=3))
    value = draw(
        st.sampled_from(
            [
                calls[0],
                calls,
                {"tool_calls": calls},
                {"role": "assistant", "content": [{"type": "text", "text": "ok"}, *calls]},
            ]
        )
    )
    indent = draw(st.sampled_from((None, 2)))
    return json.dumps(value, indent=indent, ensure_ascii=draw(st.booleans()))


@st.composite
def fenced_json(draw: st.DrawFn) -> Lines:
    """Tool calls in a ```json fence of a chat answer."""
    opener = draw(st.sampled_from(("```json", "```", "~~~json", "```JSON", "````json")))
    closer = draw(st.sampled_from(("```", "~~~", "````")))
    return [opener, *draw(tool_calls_json()).split("\n"), closer]


# -- whole responses ---------------------------------------------------------------------

BLOCKS: dict[str, st.SearchStrategy[Lines]] = {
    "search_replace": search_replace_block(),
    "patch_block": patch_block(),
    "unified": unified_file(),
    "apply_patch": apply_patch_block(),
    "lazy": lazy_block(),
}
TEXT_BLOCKS = st.one_of(*BLOCKS.values())
ANY_BLOCK = st.one_of(TEXT_BLOCKS, fenced_json())


NOISE_LINE = NOISE.map(lambda s: [s])


@st.composite
def responses(draw: st.DrawFn, blocks: st.SearchStrategy[Lines]) -> str:
    """Blocks and odd lines, then at times shuffled, cut short, or with a line lost."""
    parts = draw(st.lists(mix(blocks, NOISE_LINE, 0.3), max_size=4))
    lines = [x for part in parts for x in part]
    how = draw(st.sampled_from(("as is", "as is", "as is", "shuffle", "cut", "drop", "insert")))
    if how == "shuffle":
        lines = draw(st.permutations(lines))
    elif how == "cut":
        lines = lines[: draw(st.integers(0, len(lines)))]
    elif how == "drop" and lines:
        del lines[draw(st.integers(0, len(lines) - 1))]
    elif how == "insert":
        lines.insert(draw(st.integers(0, len(lines))), draw(NOISE))
    text = "\n".join(lines) + draw(st.sampled_from(("\n", "", "\n\n", "\r\n")))
    if draw(rarely(0.1)):  # cut in the middle of a line
        text = text[: draw(st.integers(0, len(text)))]
    return text


# For each format, responses mostly of its own blocks and some of others'.


def mostly(own: st.SearchStrategy[Lines]) -> st.SearchStrategy[str]:
    """Responses mostly of the blocks of ``own`` and some of every format's."""
    return responses(mix(own, ANY_BLOCK, 0.25))


RESPONSES: dict[str, st.SearchStrategy[str]] = {
    "search_replace": mostly(BLOCKS["search_replace"]),
    "apply_diff": mostly(BLOCKS["search_replace"]),
    "patch_block": mostly(BLOCKS["patch_block"]),
    "unified": mostly(BLOCKS["unified"]),
    "apply_patch": mostly(BLOCKS["apply_patch"]),
    "lazy": mostly(BLOCKS["lazy"]),
    "tool_calls": mix(tool_calls_json(), responses(fenced_json()), 0.15),
    "auto": mix(responses(ANY_BLOCK), tool_calls_json(), 0.2),
}
assert set(RESPONSES) == {"auto", *FORMATS}
TEXT_RESPONSES = responses(TEXT_BLOCKS)  # no JSON

Outcome = list[Op] | EditError


def outcome(text: str, format: str = "auto", path: str | None = None) -> Outcome:
    """What parse makes of ``text``: its ops, or the EditError it raised (anything else
    raised fails the test)."""
    try:
        ops = parse(text, format, path=path)
    except EditError as e:
        assert e.code in ("format_invalid", "write_conflict"), e
        assert e.message
        return e
    assert isinstance(ops, list)
    for op in ops:
        assert isinstance(op, OP_TYPES), op
        assert isinstance(op.path, str), op
    return ops


# -- properties ----------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("format", ["auto", *FORMATS])
@settings(FAST, max_examples=150)  # 150 for each of the eight
@given(data=st.data())
def test_any_response_gives_ops_or_an_edit_error(format: str, data: st.DataObject) -> None:
    text = data.draw(RESPONSES[format], label="text")
    outcome(text, format, data.draw(st.sampled_from((None, "p.py")), label="path"))


@FAST
@given(st.text(), st.sampled_from(("auto", *FORMATS)), st.sampled_from((None, "p.py")))
def test_any_text_gives_ops_or_an_edit_error(text: str, format: str, path: str | None) -> None:
    outcome(text, format, path)


@FAST
@given(st.text(max_size=12).filter(lambda f: f not in ("auto", *FORMATS)), st.text(max_size=40))
def test_an_unknown_format_is_the_only_value_error(format: str, text: str) -> None:
    with pytest.raises(ValueError, match="unknown format"):
        parse(text, format)


def _same(a: Outcome, b: Outcome) -> bool:
    """The same ops, or errors of one type, message and line."""
    if isinstance(a, EditError) and isinstance(b, EditError):
        return (type(a), a.message, getattr(a, "line", None)) == (
            type(b),
            b.message,
            getattr(b, "line", None),
        )
    return a == b


@pytest.mark.slow
@FAST
@given(st.data())
def test_parse_is_deterministic(data: st.DataObject) -> None:
    format = data.draw(st.sampled_from(("auto", *FORMATS)), label="format")
    text = data.draw(RESPONSES[format], label="text")
    assert _same(outcome(text, format), outcome(text, format))


@pytest.mark.slow
@FAST
@given(st.data())
def test_origins_and_error_lines_are_lines_of_the_response(data: st.DataObject) -> None:
    # Text formats only: ops read from a tool call's embedded text count that text's lines.
    format = data.draw(st.sampled_from(("auto", *BLOCKS, "apply_diff")), label="format")
    text = data.draw(TEXT_RESPONSES, label="text")
    lines = response_lines(text)
    got = outcome(text, format, "p.py")
    if isinstance(got, FormatInvalid):
        assert got.line is None or 1 <= got.line <= max(1, len(lines)), got
    elif isinstance(got, list):
        for op in got:
            if op.origin is not None:
                assert 1 <= op.origin <= len(lines), op
                assert lines[op.origin - 1] != "", op  # a marker, header or chunk line


@pytest.mark.slow
@FAST
@given(st.data())
def test_crlf_gives_what_lf_gives(data: st.DataObject) -> None:
    format = data.draw(st.sampled_from(("auto", *FORMATS)), label="format")
    text = data.draw(RESPONSES[format], label="text").replace("\r", "")
    lf, crlf = outcome(text, format), outcome(text.replace("\n", "\r\n"), format)
    assert _same(lf, crlf), (lf, crlf)


@pytest.mark.slow
@FAST
@given(st.data())
def test_well_formed_search_replace_blocks_keep_their_texts(data: st.DataObject) -> None:
    format = data.draw(st.sampled_from(("search_replace", "apply_diff", "auto")), label="format")
    lines, expected = data.draw(WELL_FORMED[format == "apply_diff"], label="blocks")
    text = "\n".join(lines) + "\n"
    assert parse(text, format) == expected
    assert parse(text.replace("\n", "\r\n"), format) == expected


EDIT_PATH = mix(CLEAN_PATH, [""], 0.3)


@st.composite
def edit_calls(draw: st.DrawFn) -> tuple[str, list[Replace]]:
    """edit_file calls with well-typed edits[], each shape of call, and the ops they mean."""
    calls, expected = [], []
    for _ in range(draw(st.integers(1, 3))):
        top = draw(st.one_of(st.none(), CLEAN_PATH))
        edits = []
        for _ in range(draw(st.integers(1, 3))):
            old_key, new_key = draw(st.sampled_from(EDIT_SPELLINGS))
            old, new = draw(TEXT), draw(TEXT)
            edit: dict[str, Any] = {old_key: old, new_key: new}
            own = None
            if top is None or draw(st.booleans()):
                own = edit["path"] = draw(EDIT_PATH)
            replace_all = draw(st.booleans())
            if replace_all or draw(st.booleans()):
                edit["replace_all"] = replace_all
            edits.append(edit)
            # An empty path of its own is the call's path, or stays empty (refused later).
            expected.append(Replace(own or top or "", old, new, replace_all=replace_all))
        args = {"edits": edits} if top is None else {"path": top, "edits": edits}
        shape = draw(st.sampled_from(("plain", "openai", "anthropic")))
        if shape == "plain":
            calls.append({"name": "edit_file", "arguments": args})
        elif shape == "openai":
            function = {"name": "edit_file", "arguments": json.dumps(args)}
            calls.append({"type": "function", "id": "c", "function": function})
        else:
            calls.append({"type": "tool_use", "id": "t", "name": "edit_file", "input": args})
    value = calls[0] if len(calls) == 1 else draw(st.sampled_from((calls, {"tool_calls": calls})))
    return json.dumps(value, indent=draw(st.sampled_from((None, 2)))), expected


@pytest.mark.slow
@FAST
@given(edit_calls(), st.sampled_from(("tool_calls", "auto")))
def test_well_formed_edit_calls_keep_their_fields(
    call: tuple[str, list[Replace]], format: str
) -> None:
    text, expected = call
    assert parse(text, format) == expected
    assert parse(f"```json\n{text}\n```\n") == expected  # in a chat answer


# -- regressions: inputs the properties found ----------------------------------------------


def refused(text: str, format: str = "auto") -> FormatInvalid:
    with pytest.raises(FormatInvalid) as caught:
        parse(text, format)
    return caught.value


@pytest.mark.parametrize("format", ["auto", "search_replace", "apply_diff"])
@pytest.mark.parametrize("key", ["start_line", "end_line"])
def test_a_line_number_too_long_to_read_is_format_invalid(format: str, key: str) -> None:
    # Was a ValueError out of int() in search_replace.parse_block.
    text = f"a.py\n<<<<<<< SEARCH\n:{key}:{LONG}\n-------\nx\n=======\ny\n>>>>>>> REPLACE\n"
    err = refused(text, format)
    assert err.line == 3
    assert err.message == "line 3: a line number of 4400 digits is too long to read"


@pytest.mark.parametrize("format", ["auto", "unified"])
def test_a_hunk_header_number_too_long_to_read_is_format_invalid(format: str) -> None:
    # Was a ValueError out of int() in unified._hunk.
    err = refused(f"--- a/x.py\n+++ b/x.py\n@@ -{LONG} @@\n x\n-y\n+z\n", format)
    assert err.line == 3
    assert "a line number of 4400 digits is too long to read" in err.message


@pytest.mark.parametrize(
    ("text", "format"),
    [
        (f"[{LONG}]", "auto"),
        (f"[{LONG}]", "tool_calls"),
        ('{"name": "write_file", "arguments": {"path": "a", "content": ' + LONG + "}}", "auto"),
        ('{"name": "write_file", "arguments": "[' + LONG + ']"}', "tool_calls"),
        (f'```json\n{{"name": "write_file", "arguments": {LONG}}}\n```\n', "auto"),
    ],
    ids=["top", "top_tool_calls", "in_arguments", "in_string_arguments", "fenced"],
)
def test_json_with_an_integer_too_long_to_read_is_format_invalid(text: str, format: str) -> None:
    # Was a ValueError out of json.loads (not a JSONDecodeError, so nothing caught it).
    err = refused(text, format)
    assert err.message == "the JSON holds an integer of more than 4300 digits, too long to read"


def test_an_edit_with_an_empty_path_and_no_call_path_keeps_a_string_path() -> None:
    # Was Replace(path=None), which apply_ops failed on with an AttributeError.
    edit = {"path": "", "old_string": "a", "new_string": "b"}
    (op,) = parse(json.dumps({"name": "edit_file", "arguments": {"edits": [edit]}}))
    assert op == Replace("", "a", "b")
    (op,) = parse(json.dumps({"name": "edit_file", "arguments": {"path": "p.py", "edits": [edit]}}))
    assert op == Replace("p.py", "a", "b")


def test_a_fenced_search_block_without_a_space_is_not_a_lazy_snippet() -> None:
    # The lazy reader took the fence up to the inner '```' for a snippet ('<<<<<<<SEARCH' did
    # not count as another format's marker), leaving an unopened '>>>>>>> REPLACE'.
    text = "a.py\n```\n<<<<<<<SEARCH\n# ... existing code ...\n```\n=======\n>>>>>>> REPLACE\n```\n"
    assert parse(text) == [Replace("a.py", "# ... existing code ...\n```\n", "", origin=3)]


_MARKER_WORDS = ["existing", "code", "Rest", "of", "the", "file", "...", "# ", "// ", "SAME"]
_MARKER_WORDS += ["kept", "\u017fame", "KEEP", "remaining", "x", "as", "before", "<!--", "-->"]


@pytest.mark.slow
@settings(max_examples=500)
@given(st.lists(st.lists(st.sampled_from(_MARKER_WORDS), max_size=8).map(" ".join), max_size=5))
def test_the_lazy_snippet_prefilter_passes_every_fence_with_a_kept_marker(inner):
    """The one-pass check a fence must pass before its lines are read as markers lets through
    every fence that holds one ('ſame' included, which the regex's ignore-case reads as
    'same')."""
    from applydiff.formats import snippet
    from applydiff.match.elision import is_strict_marker

    if any(is_strict_marker(x) and snippet._KEPT_WORDS.search(x) for x in inner):
        assert snippet._may_keep(inner)
