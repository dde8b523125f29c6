"""Issue 27: ``verify_merge`` says whether a merged file is one a lazy snippet explains.

Each check has a small realistic case that triggers it (the exact check names, and the first
reason's message and lines, read by hand); right merges of every marker style and snippet shape
verify; every merge the deterministic merge makes of the generated and hand-made corpora
verifies; every fault ``bench.merge_faults`` makes of a right merge (but the one it cannot see)
is rejected. Beside it: the alignment it reads (``match.diff``) and the byte keeper a merge
model's answer goes through (``match.merged_bytes``).
"""

from __future__ import annotations

import functools
import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import applydiff
from applydiff.bench import lazy_brace, lazy_corpus, lazy_shapes, merge_faults
from applydiff.bench.lazy_corpus import LazyCase
from applydiff.errors import EditError
from applydiff.match.diff import align_versions, few_changes
from applydiff.match.merged_bytes import keep_file_bytes
from applydiff.match.verify_merge import CHECKS, MergeVerdict, Reason, verify_merge


def lines(*xs: str) -> str:
    return "".join(x + "\n" for x in xs)


def checks(verdict: MergeVerdict) -> list[str]:
    return [r.check for r in verdict.reasons]


# -- the files -----------------------------------------------------------------------------------
PY = lines(
    "import os",
    "",
    "def load(path):",
    "    with open(path) as f:",
    "        data = f.read()",
    "    return data",
    "",
    "def save(path, data):",
    "    with open(path, 'w') as f:",
    "        f.write(data)",
    "",
    "def main():",
    "    data = load('a')",
    "    save('b', data)",
)
PY_SNIPPET = lines(
    "# ... existing code ...",
    "def load(path):",
    "    with open(path) as f:",
    "        data = f.read()",
    "    print(len(data))",
    "    return data",
    "# ... existing code ...",
)
PY_RIGHT = PY.replace(
    "        data = f.read()\n", "        data = f.read()\n    print(len(data))\n"
)

JS = lines(
    "import { api } from './api';",
    "",
    "export function total(items) {",
    "  const tax = 0.2;",
    "  let sum = 0;",
    "  for (const x of items) {",
    "    sum += x.price;",
    "  }",
    "  return sum * (1 + tax);",
    "}",
    "",
    "export function count(items) {",
    "  return items.length;",
    "}",
)
JS_SNIPPET = lines(
    "// ... existing code ...",
    "export function count(items) {",
    "  if (!items) return 0;",
    "  return items.length;",
    "}",
)
JS_RIGHT = JS.replace(
    "export function count(items) {\n", "export function count(items) {\n  if (!items) return 0;\n"
)

TS = lines(
    "interface User {",
    "  id: number;",
    "  name: string;",
    "}",
    "",
    "export function greet(user: User): string {",
    "  return `Hello, ${user.name}`;",
    "}",
    "",
    "export function byId(users: User[], id: number): User | undefined {",
    "  return users.find((u) => u.id === id);",
    "}",
)
TS_SNIPPET = lines(
    "interface User {",
    "  id: number;",
    "  name: string;",
    "  email?: string;",
    "}",
    "// ... existing code ...",
)
TS_RIGHT = TS.replace("  name: string;\n", "  name: string;\n  email?: string;\n")

RS = lines(
    "use std::fmt;",
    "",
    "pub struct Point {",
    "    pub x: i32,",
    "    pub y: i32,",
    "}",
    "",
    "impl Point {",
    "    pub fn new(x: i32, y: i32) -> Self {",
    "        Point { x, y }",
    "    }",
    "",
    "    pub fn norm(&self) -> i32 {",
    "        self.x.abs() + self.y.abs()",
    "    }",
    "}",
    "",
    "impl fmt::Display for Point {",
    "    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {",
    '        write!(f, "({}, {})", self.x, self.y)',
    "    }",
    "}",
)
RS_SNIPPET = lines(
    "impl Point {",
    "    // ... existing code ...",
    "    pub fn norm(&self) -> i32 {",
    "        self.x.abs() + self.y.abs()",
    "    }",
    "",
    "    pub fn flip(&self) -> Self {",
    "        Point { x: self.y, y: self.x }",
    "    }",
    "}",
    "// ... existing code ...",
)
RS_FLIP = lines(
    "    pub fn flip(&self) -> Self {",
    "        Point { x: self.y, y: self.x }",
    "    }",
)
RS_RIGHT = RS.replace(
    "        self.x.abs() + self.y.abs()\n    }\n",
    "        self.x.abs() + self.y.abs()\n    }\n\n" + RS_FLIP,
)

CSS = lines(
    ".card {",
    "  padding: 8px;",
    "  border: 1px solid #ccc;",
    "}",
    "",
    ".card h2 {",
    "  font-size: 1.2rem;",
    "}",
    "",
    ".button {",
    "  color: white;",
    "  background: blue;",
    "}",
)
CSS_SNIPPET = lines(
    "/* ... existing code ... */",
    ".card h2 {",
    "  font-size: 1.2rem;",
    "  margin: 0;",
    "}",
    "/* ... existing code ... */",
)
CSS_RIGHT = CSS.replace("  font-size: 1.2rem;\n", "  font-size: 1.2rem;\n  margin: 0;\n")

HTML = lines(
    "<!DOCTYPE html>",
    "<html>",
    "<body>",
    "  <header>",
    "    <h1>Shop</h1>",
    "  </header>",
    "  <main>",
    '    <ul class="items">',
    "      <li>Tea</li>",
    "      <li>Coffee</li>",
    "    </ul>",
    "  </main>",
    "  <footer>",
    "    <p>&copy; 2024</p>",
    "  </footer>",
    "</body>",
    "</html>",
)
HTML_SNIPPET = lines(
    "<!-- ... existing code ... -->",
    '    <ul class="items">',
    "      <li>Tea</li>",
    "      <li>Coffee</li>",
    "      <li>Cocoa</li>",
    "    </ul>",
    "<!-- ... existing code ... -->",
)
HTML_RIGHT = HTML.replace(
    "      <li>Coffee</li>\n", "      <li>Coffee</li>\n      <li>Cocoa</li>\n"
)
HTML_OPEN_SNIPPET = lines(
    "<!-- ... existing code ... -->",
    '    <ul class="items">',
    "      <li>Tea</li>",
    "      <li>Coffee</li>",
    '      <div class="more">',
    "<!-- ... existing code ... -->",
)

NOT_AFTER = "is in the merged file, but not after the lines the snippet puts before it"
NO_RUN = "is gone, and no run of the snippet's lines shows lines on both sides of it"


# -- each check, triggered -----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("original", "snippet", "merged", "path", "names", "first"),
    [
        pytest.param(
            PY,
            PY_SNIPPET,
            PY,
            "io.py",
            ["missing"],
            Reason(
                "missing",
                "the snippet's line 'print(len(data))' is not in the merged file",
                None,
                5,
            ),
            id="missing-python",
        ),
        pytest.param(
            JS,
            JS_SNIPPET,
            JS.replace(
                "  return items.length;\n", "  return items.length;\n  if (!items) return 0;\n"
            ),
            "cart.js",
            ["order"],
            Reason("order", f"the snippet's line 'return items.length;' {NOT_AFTER}", 13, 4),
            id="order-js",
        ),
        pytest.param(
            TS,
            TS_SNIPPET,
            TS_RIGHT.replace("  email?: string;\n", "  email?: string;\n  phone?: string;\n"),
            "src/user.ts",
            ["invented"],
            Reason(
                "invented", "'phone?: string;' is neither in the original nor in the snippet", 5
            ),
            id="invented-ts",
        ),
        pytest.param(
            CSS,
            CSS_SNIPPET,
            CSS_RIGHT.replace("  margin: 0;\n", "  margin: 0;\n  margin: 0;\n"),
            "styles/site.css",
            ["duplicated"],
            Reason(
                "duplicated",
                "'margin: 0;' is in the merged file 2 times: the original has it 0 and the "
                "snippet 1",
                8,
            ),
            id="duplicated-css",
        ),
        pytest.param(
            # The new method written twice: its lines, and the definition, once too often.
            RS,
            RS_SNIPPET,
            RS_RIGHT.replace("    pub fn new(", RS_FLIP + "\n    pub fn new("),
            "src/point.rs",
            ["duplicated", "duplicated", "duplicated"],
            Reason(
                "duplicated",
                "'pub fn flip(&self) -> Self {' is in the merged file 2 times: the original has "
                "it 0 and the snippet 1",
                9,
            ),
            id="duplicated-definition-rust",
        ),
        pytest.param(
            HTML,
            HTML_SNIPPET,
            HTML_RIGHT.replace("  <header>\n    <h1>Shop</h1>\n  </header>\n", ""),
            "index.html",
            ["dropped", "dropped", "dropped"],
            Reason("dropped", f"original line 4 ('<header>') {NO_RUN}", 4),
            id="dropped-html",
        ),
        pytest.param(
            JS,
            JS_SNIPPET,
            JS_RIGHT.replace("  const tax = 0.2;\n", ""),
            "cart.js",
            ["declaration", "dropped"],
            Reason(
                "declaration",
                "original line 4 ('const tax = 0.2;') declared 'tax', and it is gone while "
                "merged line 8 still uses the name",
                8,
            ),
            id="declaration-js",
        ),
        pytest.param(
            PY,
            PY_SNIPPET,
            PY_RIGHT[: PY_RIGHT.index("def save")],
            "io.py",
            ["cut_short"],
            Reason(
                "cut_short",
                "the merged file is cut short: original lines 8-14 (from 'def save(path, data):' "
                "to the end) are gone, and the snippet does not reach them",
                8,
            ),
            id="cut_short-python",
        ),
        pytest.param(
            # Cut inside the last function: its brackets are left open too.
            RS,
            RS_SNIPPET,
            RS_RIGHT[: RS_RIGHT.index("        write!")],
            "src/point.rs",
            ["cut_short", "unbalanced"],
            Reason(
                "cut_short",
                "the merged file is cut short: original lines 20-22 (from "
                "'write!(f, \"({}, {})\", self.x, self.y)' to the end) are gone, and the "
                "snippet does not reach them",
                23,
            ),
            id="cut_short-rust",
        ),
        pytest.param(
            # A marker is no snippet line: left in, it is an invented line too.
            CSS,
            CSS_SNIPPET,
            CSS_RIGHT.replace(".button {", "/* ... existing code ... */\n.button {"),
            "styles/site.css",
            ["invented", "marker"],
            Reason(
                "invented",
                "'/* ... existing code ... */' is neither in the original nor in the snippet",
                11,
            ),
            id="marker-css",
        ),
        pytest.param(
            HTML,
            HTML_SNIPPET,
            HTML_RIGHT.replace("  <footer>\n", "<!-- ... existing code ... -->\n  <footer>\n"),
            "index.html",
            ["invented", "marker"],
            Reason(
                "invented",
                "'<!-- ... existing code ... -->' is neither in the original nor in the snippet",
                14,
            ),
            id="marker-html",
        ),
        pytest.param(
            # The snippet's new method without its closing brace.
            RS,
            RS_SNIPPET,
            RS_RIGHT.replace(
                "        Point { x: self.y, y: self.x }\n    }\n",
                "        Point { x: self.y, y: self.x }\n",
            ),
            "src/point.rs",
            ["unbalanced"],
            Reason("unbalanced", "the merged file's brackets are off by +1 (the original's by +0)"),
            id="unbalanced-rust",
        ),
        pytest.param(
            HTML,
            HTML_OPEN_SNIPPET,
            HTML.replace(
                "      <li>Coffee</li>\n", '      <li>Coffee</li>\n      <div class="more">\n'
            ),
            "index.html",
            ["unbalanced"],
            Reason("unbalanced", "elements left open or closed twice in the merged file: <div> +1"),
            id="unbalanced-html",
        ),
    ],
)
def test_each_check_rejects_its_fault(original, snippet, merged, path, names, first):
    verdict = verify_merge(original, snippet, merged, path)
    assert checks(verdict) == names
    assert verdict.reasons[0] == first
    assert verdict.verified is False
    assert verdict.notes == ()
    assert set(names) <= set(CHECKS)


def test_checks_names_the_ten_checks_in_order():
    assert CHECKS == (
        "missing",
        "order",
        "invented",
        "duplicated",
        "dropped",
        "declaration",
        "cut_short",
        "marker",
        "unbalanced",
        "rewritten",
    )


def test_the_marker_reason_and_each_dropped_line_reason():
    verdict = verify_merge(
        CSS, CSS_SNIPPET, CSS_RIGHT.replace(".button {", "/* ... existing code ... */\n.button {")
    )
    assert verdict.reasons[1] == Reason(
        "marker", "the marker '/* ... existing code ... */' is left in the merged file", 11
    )
    dropped = verify_merge(
        HTML, HTML_SNIPPET, HTML_RIGHT.replace("  <header>\n    <h1>Shop</h1>\n  </header>\n", "")
    )
    assert [(r.message, r.merged_line, r.snippet_line) for r in dropped.reasons] == [
        (f"original line 4 ('<header>') {NO_RUN}", 4, None),
        (f"original line 5 ('<h1>Shop</h1>') {NO_RUN}", 4, None),
        (f"original line 6 ('</header>') {NO_RUN}", 4, None),
    ]


def test_a_check_failing_on_many_lines_is_told_five_times_and_counted():
    body = [f"    step_{k}()" for k in range(9)]
    original = lines("def run():", *body, "", "def stop():", "    pass")
    snippet = lines("# ... existing code ...", "def stop():", "    log()", "    pass")
    merged = lines("def run():", "", "def stop():", "    log()", "    pass")
    verdict = verify_merge(original, snippet, merged, "jobs.py")
    assert checks(verdict) == ["dropped"] * 6
    assert verdict.reasons[0].message == f"original line 2 ('step_0()') {NO_RUN}"
    assert verdict.reasons[4].message == f"original line 6 ('step_4()') {NO_RUN}"
    assert verdict.reasons[5] == Reason("dropped", "4 more lines fail the same check")
    assert verdict.summary(2) == (
        f"dropped: merged line 2: original line 2 ('step_0()') {NO_RUN}; "
        f"dropped: merged line 2: original line 3 ('step_1()') {NO_RUN}; and 4 more"
    )


# -- right merges verify -------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("original", "snippet", "merged", "path"),
    [
        pytest.param(PY, PY_SNIPPET, PY_RIGHT, "io.py", id="hash-python"),
        pytest.param(JS, JS_SNIPPET, JS_RIGHT, "cart.js", id="slashes-js"),
        pytest.param(TS, TS_SNIPPET, TS_RIGHT, "src/user.ts", id="slashes-ts"),
        pytest.param(RS, RS_SNIPPET, RS_RIGHT, "src/point.rs", id="slashes-rust"),
        pytest.param(CSS, CSS_SNIPPET, CSS_RIGHT, "styles/site.css", id="block-comment-css"),
        pytest.param(HTML, HTML_SNIPPET, HTML_RIGHT, "index.html", id="markup-comment-html"),
        pytest.param(PY, PY_SNIPPET, PY_RIGHT, None, id="no-path"),
    ],
)
def test_a_right_merge_verifies_in_each_marker_style(original, snippet, merged, path):
    verdict = verify_merge(original, snippet, merged, path)
    assert verdict == MergeVerdict(True, (), ())
    # and it is the deterministic merge's own answer
    if path is not None:
        assert lazy_shapes.engine_merge(path, original, snippet) == merged


STORE = lines(
    "import logging",
    "",
    "",
    "class Store:",
    "    def __init__(self):",
    "        self.items = {}",
    "",
    "    def get(self, key):",
    "        return self.items.get(key)",
    "",
    "    def put(self, key, value):",
    "        self.items[key] = value",
    "",
    "",
    "def main():",
    "    s = Store()",
    "    s.put('a', 1)",
    "    print(s.get('a'))",
)
DIFF_NOTE = "read the snippet's '+' and '-' lines as a diff's added and removed lines"


def test_a_narration_comment_above_unchanged_code_may_be_left_out():
    snippet = lines(
        "# ... existing code ...",
        "def main():",
        "    # Add logging here",
        "    s = Store()",
        "    logging.basicConfig()",
        "    s.put('a', 1)",
        "# ... existing code ...",
    )
    merged = STORE.replace("    s.put('a', 1)\n", "    logging.basicConfig()\n    s.put('a', 1)\n")
    verdict = verify_merge(STORE, snippet, merged, "store.py")
    assert verdict == MergeVerdict(
        True, (), ("1 narration comment(s) of the snippet may be left out",)
    )
    assert lazy_shapes.engine_merge("store.py", STORE, snippet) == merged


def test_narration_only_snippet_with_the_file_unchanged_verifies():
    snippet = lines(
        "# ... existing code ...",
        "    def put(self, key, value):",
        "        self.items[key] = value",
        "        # Add logging here",
        "# ... existing code ...",
        "def main():",
        "    # Add logging here",
        "    s = Store()",
        "# ... existing code ...",
    )
    verdict = verify_merge(STORE, snippet, STORE, "store.py")
    assert verdict == MergeVerdict(
        True, (), ("2 narration comment(s) of the snippet may be left out",)
    )


def test_a_snippet_at_column_zero_for_a_method_verifies_the_indented_merge():
    snippet = lines(
        "def get(self, key):",
        "    if key not in self.items:",
        "        raise KeyError(key)",
        "    return self.items.get(key)",
    )
    merged = STORE.replace(
        "        return self.items.get(key)\n",
        "        if key not in self.items:\n"
        "            raise KeyError(key)\n"
        "        return self.items.get(key)\n",
    )
    assert verify_merge(STORE, snippet, merged, "store.py") == MergeVerdict(True, (), ())
    assert lazy_shapes.engine_merge("store.py", STORE, snippet) == merged


def test_a_diff_marked_snippet_verifies_its_added_and_removed_lines():
    snippet = lines(
        "    def put(self, key, value):",
        "-        self.items[key] = value",
        "+        self.items[key] = int(value)",
        "+        return value",
    )
    merged = STORE.replace(
        "        self.items[key] = value\n",
        "        self.items[key] = int(value)\n        return value\n",
    )
    assert verify_merge(STORE, snippet, merged, "store.py") == MergeVerdict(True, (), (DIFF_NOTE,))
    assert lazy_shapes.engine_merge("store.py", STORE, snippet) == merged


def test_a_diff_marked_snippets_minus_line_explains_a_line_gone():
    snippet = lines(
        " def main():",
        "-    s = Store()",
        "-    s.put('a', 1)",
        "+    s = Store()",
        "     print(s.get('a'))",
    )
    merged = STORE.replace("    s.put('a', 1)\n", "")
    assert verify_merge(STORE, snippet, merged, "store.py") == MergeVerdict(True, (), (DIFF_NOTE,))
    # without the diff, nothing says the line goes
    plain = lines("# ... existing code ...", "def main():", "    s = Store()", "# ...")
    assert checks(verify_merge(STORE, plain, merged, "store.py")) == ["dropped"]


def test_a_crlf_original_with_an_lf_merge_verifies():
    snippet = lines(
        "# ... existing code ...",
        "    def put(self, key, value):",
        "        logging.info('put %s', key)",
        "        self.items[key] = value",
        "# ... existing code ...",
    )
    merged = STORE.replace(
        "        self.items[key] = value\n",
        "        logging.info('put %s', key)\n        self.items[key] = value\n",
    )
    crlf = STORE.replace("\n", "\r\n")
    assert verify_merge(crlf, snippet, merged, "store.py") == MergeVerdict(True, (), ())
    assert verify_merge(crlf, snippet.replace("\n", "\r\n"), merged, "store.py").verified
    assert verify_merge(crlf, snippet, merged.replace("\n", "\r\n"), "store.py").verified


def test_a_markerless_snippet_rewriting_one_function_verifies():
    snippet = lines(
        "def main():",
        "    s = Store()",
        "    s.put('a', 2)",
        "    s.put('b', 3)",
        "    print(s.get('a'), s.get('b'))",
    )
    merged = STORE[: STORE.index("def main")] + snippet
    assert verify_merge(STORE, snippet, merged, "store.py") == MergeVerdict(True, (), ())
    # the file's other functions are kept: dropping one is not explained
    no_get = merged.replace("    def get(self, key):\n        return self.items.get(key)\n\n", "")
    assert checks(verify_merge(STORE, snippet, no_get, "store.py")) == ["dropped", "dropped"]


def test_hunks_written_out_of_file_order_verify():
    snippet = lines(
        "# ... existing code ...",
        "def main():",
        "    s = Store()",
        "    s.put('a', 1)",
        "    s.put('b', 2)",
        "# ... existing code ...",
        "import logging",
        "import json",
        "# ... existing code ...",
    )
    merged = STORE.replace("import logging\n", "import logging\nimport json\n").replace(
        "    s.put('a', 1)\n", "    s.put('a', 1)\n    s.put('b', 2)\n"
    )
    assert verify_merge(STORE, snippet, merged, "store.py") == MergeVerdict(True, (), ())


JS_CONFIG = lines(
    "export const config = {",
    "  retries: 3,",
    "  timeout: 1000,",
    "  verbose: false,",
    "  baseUrl: '/api',",
    "};",
    "",
    "export function client(opts) {",
    "  return { ...config, ...opts };",
    "}",
)


def test_a_js_spread_line_standing_for_items_verifies():
    snippet = lines(
        "export const config = {",
        "  ...rest,",
        "  timeout: 5000,",
        "  verbose: false,",
        "  baseUrl: '/api',",
        "};",
    )
    merged = JS_CONFIG.replace("timeout: 1000", "timeout: 5000")
    assert verify_merge(JS_CONFIG, snippet, merged, "config.js") == MergeVerdict(True, (), ())
    tail = lines("export const config = {", "  ...rest,", "  headers: { accept: 'json' },", "};")
    merged = JS_CONFIG.replace(
        "  baseUrl: '/api',\n", "  baseUrl: '/api',\n  headers: { accept: 'json' },\n"
    )
    assert verify_merge(JS_CONFIG, tail, merged, "config.js") == MergeVerdict(True, (), ())


def test_the_merge_identical_to_the_original_verifies_when_the_snippet_only_repeats_it():
    snippet = lines(
        "# ... existing code ...",
        "    def get(self, key):",
        "        return self.items.get(key)",
        "# ... existing code ...",
    )
    assert verify_merge(STORE, snippet, STORE, "store.py") == MergeVerdict(True, (), ())
    assert verify_merge(RS, lines("impl Point {", "    // ...", "}"), RS, "src/point.rs").verified


# -- bugs found: wrong merges that verify --------------------------------------------------------
@pytest.mark.xfail(
    strict=True,
    reason="the alignment pairs the snippet's closing '    }' and '}' with the deleted tail's, "
    "so a run of the snippet seems to show lines on both sides of the deleted Display impl",
)
def test_bug_a_tail_deleted_behind_the_snippets_closing_braces_verifies():
    merged = RS_RIGHT[: RS_RIGHT.index("impl fmt::Display")]
    verdict = verify_merge(RS, RS_SNIPPET, merged, "src/point.rs")
    assert checks(verdict) == ["cut_short"]
    assert verdict.reasons[0].message == (
        "the merged file is cut short: original lines 18-22 (from 'impl fmt::Display for "
        "Point {' to the end) are gone, and the snippet does not reach them"
    )


def _registry(n: int) -> str:
    out = ["export class Registry {"]
    for k in range(n):
        out += [f"  get{k}(): number {{", f"    return {k};", "  }", ""]
    return lines(*out, "  last(): number {", "    return -1;", "  }", "}")


REGISTRY_SNIPPET = lines(
    "  // ... existing code ...",
    "  }",
    "",
    "  last(): number {",
    "    console.log('last');",
    "    return -1;",
    "  }",
    "}",
)


def test_a_line_deleted_between_a_weak_first_line_and_its_run_is_found_in_a_short_file():
    original = _registry(60)
    right = original.replace("    return -1;\n", "    console.log('last');\n    return -1;\n")
    assert lazy_shapes.engine_merge("registry.ts", original, REGISTRY_SNIPPET) == right
    assert verify_merge(original, REGISTRY_SNIPPET, right, "registry.ts").verified
    verdict = verify_merge(
        original, REGISTRY_SNIPPET, right.replace("    return 57;\n", ""), "registry.ts"
    )
    assert verdict.reasons == (
        Reason("dropped", f"original line 231 ('return 57;') {NO_RUN}", 231),
    )


def test_a_line_deleted_past_64_places_of_a_runs_weak_first_line_is_found():
    original = _registry(70)
    right = original.replace("    return -1;\n", "    console.log('last');\n    return -1;\n")
    assert verify_merge(original, REGISTRY_SNIPPET, right, "registry.ts").verified
    verdict = verify_merge(
        original, REGISTRY_SNIPPET, right.replace("    return 67;\n", ""), "registry.ts"
    )
    assert verdict.reasons == (
        Reason("dropped", f"original line 271 ('return 67;') {NO_RUN}", 271),
    )


MAIL = lines(
    "import base64",
    "",
    "",
    "def encode(msg):",
    "    data = msg.get_payload()",
    "    if data is None:",
    "        # No payload: nothing to encode.",
    "        return",
    "    try:",
    "        data.decode('ascii')",
    "    except UnicodeError:",
    "        msg['encoding'] = '8bit'",
    "    else:",
    "        msg['encoding'] = '7bit'",
    "",
    "",
    "def decode(msg):",
    "    return base64.b64decode(msg.get_payload())",
)
MAIL_SNIPPET = lines(
    "# ... existing code ...",
    "def encode(msg):",
    "    data = msg.get_payload()",
    "    print('encoding', msg)",
    "    if data is None:",
    "        # No payload: nothing to encode.",
)
MAIL_RIGHT = MAIL.replace(
    "    data = msg.get_payload()\n    if",
    "    data = msg.get_payload()\n    print('encoding', msg)\n    if",
)
MAIL_FAULT = MAIL_RIGHT.replace("    try:\n        data.decode('ascii')\n", "")


def test_lines_deleted_after_a_snippets_end_are_found_with_a_trailing_marker():
    assert lazy_shapes.engine_merge("mail.py", MAIL, MAIL_SNIPPET) == MAIL_RIGHT
    assert verify_merge(MAIL, MAIL_SNIPPET, MAIL_RIGHT, "mail.py").verified
    marked = MAIL_SNIPPET + "# ... existing code ...\n"
    verdict = verify_merge(MAIL, marked, MAIL_FAULT, "mail.py")
    assert checks(verdict) == ["dropped", "dropped"]
    assert verdict.reasons[0] == Reason("dropped", f"original line 9 ('try:') {NO_RUN}", 10)


def test_lines_deleted_after_a_snippet_ending_inside_a_nested_block_are_found():
    verdict = verify_merge(MAIL, MAIL_SNIPPET, MAIL_FAULT, "mail.py")
    assert checks(verdict) == ["dropped", "dropped"]


def test_items_a_spread_stands_for_deleted_with_it_are_found():
    snippet = lines("export const config = {", "  ...rest,", "  headers: { accept: 'json' },", "};")
    merged = lines(
        "export const config = {",
        "  headers: { accept: 'json' },",
        "};",
        "",
        "export function client(opts) {",
        "  return { ...config, ...opts };",
        "}",
    )
    # with a marker comment in its place the four items are dropped lines
    marker = snippet.replace("  ...rest,\n", "  // ...\n")
    assert checks(verify_merge(JS_CONFIG, marker, merged, "config.js")) == ["dropped"] * 4
    assert checks(verify_merge(JS_CONFIG, snippet, merged, "config.js")) == ["dropped"] * 4


# -- the package's API ---------------------------------------------------------------------------
def test_verify_merge_and_merge_verdict_are_exported():
    assert applydiff.verify_merge is verify_merge
    assert applydiff.MergeVerdict is MergeVerdict
    assert {"verify_merge", "MergeVerdict"} <= set(applydiff.__all__)


def test_to_dict_has_exactly_the_verdicts_and_reasons_keys():
    verdict = applydiff.verify_merge(
        PY, PY_SNIPPET, PY.replace("import os\n", "import os\nimport sys\n"), "io.py"
    )
    d = verdict.to_dict()
    assert list(d) == ["verified", "reasons", "notes"]
    assert d == {
        "verified": False,
        "reasons": [
            {
                "check": "missing",
                "message": "the snippet's line 'print(len(data))' is not in the merged file",
                "merged_line": None,
                "snippet_line": 5,
            },
            {
                "check": "invented",
                "message": "'import sys' is neither in the original nor in the snippet",
                "merged_line": 2,
                "snippet_line": None,
            },
        ],
        "notes": [],
    }
    assert all(list(r) == ["check", "message", "merged_line", "snippet_line"] for r in d["reasons"])
    right = applydiff.verify_merge(PY, PY_SNIPPET, PY_RIGHT, "io.py").to_dict()
    assert right == {"verified": True, "reasons": [], "notes": []}


# -- match.diff ----------------------------------------------------------------------------------
def lcs(a, b) -> int:
    row = [0] * (len(b) + 1)
    for x in a:
        prev = 0
        for j, y in enumerate(b):
            prev, row[j + 1] = row[j + 1], prev + 1 if x == y else max(row[j + 1], row[j])
    return row[-1]


def assert_covers(ops, a, b, same=lambda x, y: x == y) -> int:
    """The opcodes cover a and b contiguously, each equal block pairs equal elements; the
    number of elements paired."""
    i = j = paired = 0
    for tag, i1, i2, j1, j2 in ops:
        assert (i1, j1) == (i, j)
        if tag == "equal":
            assert i2 - i1 == j2 - j1 > 0
            assert all(same(a[i1 + d], b[j1 + d]) for d in range(i2 - i1))
            paired += i2 - i1
        elif tag == "insert":
            assert i1 == i2 and j2 > j1
        elif tag == "delete":
            assert j1 == j2 and i2 > i1
        else:
            assert tag == "replace" and i2 > i1 and j2 > j1
        i, j = i2, j2
    assert (i, j) == (len(a), len(b))
    return paired


def test_lcs_helper():
    assert lcs("abcabba", "cbabac") == 4
    assert lcs("", "abc") == 0
    assert lcs("abc", "abc") == 3


def test_few_changes_exact():
    assert few_changes("abc", "abc", 0) == [("equal", 0, 3, 0, 3)]
    assert few_changes("abc", "abd", 1) is None
    assert few_changes("abc", "abd", 2) == [("equal", 0, 2, 0, 2), ("replace", 2, 3, 2, 3)]
    assert few_changes("", "", 0) == []
    assert few_changes("", "ab", 2) == [("insert", 0, 0, 0, 2)]
    assert few_changes("ab", "", 1) is None
    assert few_changes("abcabba", "cbabac", 4) is None
    ops = few_changes("abcabba", "cbabac", 5)
    assert ops is not None and assert_covers(ops, "abcabba", "cbabac") == 4


sequences = st.lists(st.integers(0, 3), max_size=12)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(sequences, sequences, st.integers(0, 26))
def test_few_changes_is_a_shortest_alignment_or_none(a, b, most):
    distance = len(a) + len(b) - 2 * lcs(a, b)
    ops = few_changes(a, b, most)
    if distance > most:
        assert ops is None
        return
    assert ops is not None
    assert assert_covers(ops, a, b) == lcs(a, b)
    # a run of equal elements is one block: two equal blocks are never adjacent
    assert all(x[0] != "equal" or y[0] != "equal" for x, y in itertools.pairwise(ops))


def test_align_versions_exact():
    # trailing whitespace: equal
    assert align_versions(["a  ", "b", "c\t"], ["a", "b", "c"]) == [("equal", 0, 3, 0, 3)]
    # a replace stretch re-aligned on the whitespace-insensitive keys
    assert align_versions(["def f():", "    return 1"], ["def f():", "  return 1"]) == [
        ("equal", 0, 1, 0, 1),
        ("equal", 1, 2, 1, 2),
    ]
    assert align_versions(["x = 1", "y = 2", "z = 3"], ["x = 1", "w = 0", "y  =  2", "z = 3"]) == [
        ("equal", 0, 1, 0, 1),
        ("insert", 1, 1, 1, 2),
        ("equal", 1, 2, 2, 3),
        ("equal", 2, 3, 3, 4),
    ]
    assert align_versions([], []) == []
    assert align_versions(["a"], []) == [("delete", 0, 1, 0, 0)]
    assert align_versions([], ["a"]) == [("insert", 0, 0, 0, 1)]


def ws_key(x: str) -> str:
    return " ".join(x.split())


text_lines = st.lists(st.text(alphabet="ab \t", max_size=5), max_size=10)
trailing = st.sampled_from(["", " ", "  ", "\t", " \t"])


@settings(max_examples=200, deadline=None)
@given(text_lines, text_lines)
def test_align_versions_covers_and_pairs_lines_equal_but_for_whitespace(old, new):
    assert_covers(align_versions(old, new), old, new, lambda x, y: ws_key(x) == ws_key(y))


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(text_lines, st.data())
def test_lines_equal_but_for_trailing_whitespace_are_paired_equal(old, data):
    new = [x.rstrip() + data.draw(trailing) for x in old]
    assert align_versions(old, new) == ([("equal", 0, len(old), 0, len(old))] if old else [])


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.text(alphabet="abc =", min_size=1, max_size=6), max_size=10, unique_by=ws_key),
    st.data(),
)
def test_re_indented_lines_are_paired_on_whitespace_insensitive_keys(body, data):
    """Lines distinct but for whitespace, some re-indented (and spaced out inside): each is
    paired with itself, rstrip-equal first, the rest in the replace stretches between."""
    body = [x for x in body if x.strip()]
    indents = st.sampled_from(["", "  ", "    ", "\t"])
    old = [data.draw(indents) + x.strip() for x in body]
    new = [
        data.draw(indents) + x.strip().replace(" ", data.draw(st.sampled_from([" ", "  "])))
        for x in body
    ]
    ops = align_versions(old, new)
    assert all(tag == "equal" and i1 == j1 for tag, i1, _, j1, _ in ops)
    assert assert_covers(ops, old, new, lambda x, y: ws_key(x) == ws_key(y)) == len(old)


# -- match.merged_bytes --------------------------------------------------------------------------
def test_keep_file_bytes_keeps_crlf_and_ends_added_lines_with_it():
    original = "a = 1\r\nb = 2\r\nc = 3\r\n"
    merged = "a = 1\nb = 2\nx = 9\nc = 3\n"
    assert (
        keep_file_bytes(original, merged, "b = 2\nx = 9\n")
        == "a = 1\r\nb = 2\r\nx = 9\r\nc = 3\r\n"
    )
    assert keep_file_bytes(original, "a = 1\nb = 2\nc = 3\nz = 0", "z = 0\n") == (
        "a = 1\r\nb = 2\r\nc = 3\r\nz = 0\r\n"
    )


def test_keep_file_bytes_restores_trailing_whitespace_the_merge_dropped():
    assert keep_file_bytes("a = 1  \nb = 2\t\n", "a = 1\nb = 2\nc = 3\n", "b = 2\nc = 3\n") == (
        "a = 1  \nb = 2\t\nc = 3\n"
    )


def test_keep_file_bytes_restores_tabs_on_untouched_lines_but_not_on_shown_ones():
    original = "def f():\n\tx = 1\n\treturn x\n"
    merged = "def f():\n    x = 1\n    y = 2\n    return x\n"
    # the snippet shows 'x = 1' re-indented: the merge's spaces stand; 'return x' is untouched
    assert keep_file_bytes(original, merged, "    x = 1\n    y = 2\n") == (
        "def f():\n    x = 1\n    y = 2\n\treturn x\n"
    )
    assert keep_file_bytes(original, merged, "# ...\n    y = 2\n    return x\n") == (
        "def f():\n\tx = 1\n    y = 2\n    return x\n"
    )
    assert (
        keep_file_bytes(original, merged, "    y = 2\n")
        == "def f():\n\tx = 1\n    y = 2\n\treturn x\n"
    )


@pytest.mark.parametrize(
    ("original", "merged", "snippet", "result"),
    [
        pytest.param("a\nb", "a\nb\nc", "b\nc\n", "a\nb\nc", id="no-final-newline-added-last"),
        pytest.param("a\nb", "a\nc\nb", "a\nc\n", "a\nc\nb", id="no-final-newline-kept-last"),
        pytest.param("a\nb", "a\nc\nb\n", "a\nc\n", "a\nc\nb", id="no-final-newline-merge-has"),
        pytest.param("a\nb\n", "a\nb\nc", "b\nc\n", "a\nb\nc\n", id="merge-lost-final-newline"),
        pytest.param("a\nb\n", "a\nc\nb", "a\nc\n", "a\nc\nb\n", id="merge-lost-it-kept-last"),
        pytest.param("a\r\nb", "a\nb\nc", "b\nc\n", "a\r\nb\r\nc", id="crlf-no-final-newline"),
        pytest.param("", "a\n", "a\n", "a\n", id="empty-original"),
        pytest.param("", "a", "a", "a", id="empty-original-no-newline"),
        pytest.param("a\n", "", "", "", id="empty-merge"),
    ],
)
def test_keep_file_bytes_final_newline(original, merged, snippet, result):
    assert keep_file_bytes(original, merged, snippet) == result


content = st.text(alphabet="abcxyz=()", max_size=8)


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(["", "    ", "\t"]), content, trailing), min_size=2, max_size=12
    ),
    st.sampled_from(["\n", "\r\n"]),
    st.booleans(),
    st.booleans(),
    st.lists(st.integers(0, 12), max_size=5),
)
def test_keep_file_bytes_undoes_a_mangled_merge(rows, eol, final, merge_final, spots):
    """The original (LF or CRLF, trailing whitespace) written back with its whitespace lost
    (trailing spaces stripped, CRLF turned LF) and snippet lines inserted: the result is the
    original with the inserted lines, ending as the file's lines end."""
    if not rows[-1][1]:
        rows[-1] = (rows[-1][0], "z", rows[-1][2])  # a last line that is no blank line
    original_lines = [lead + body + tail for lead, body, tail in rows]
    original = eol.join(original_lines) + (eol if final else "")
    added = {min(spot, len(rows)): f"new_{k} = {k}" for k, spot in enumerate(spots)}
    expected_lines: list[str] = []
    mangled: list[str] = []
    for r in range(len(rows) + 1):
        if r in added:
            expected_lines.append(added[r])
            mangled.append(added[r])
        if r < len(rows):
            expected_lines.append(original_lines[r])
            mangled.append(original_lines[r].rstrip())
    merged = "\n".join(mangled) + ("\n" if merge_final else "")
    snippet = lines("# ...", *added.values())
    expected = eol.join(expected_lines) + (eol if final else "")
    assert keep_file_bytes(original, merged, snippet) == expected


# -- every merge the deterministic merge makes verifies -------------------------------------------
@functools.cache
def corpus(name: str) -> tuple[tuple[LazyCase, str], ...]:
    """The cases of a generated corpus the deterministic merge merges, with its merge."""
    cases = (
        lazy_corpus.generate(60, seed=0) if name == "python" else lazy_brace.generate(80, seed=0)
    )
    out = []
    for case in cases:
        try:
            merged = lazy_shapes.engine_merge(case.path, case.text, case.snippet)
        except EditError:
            continue
        out.append((case, merged))
    return tuple(out)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["python", "brace"])
def test_every_deterministic_merge_of_a_generated_corpus_verifies(name):
    merges = corpus(name)
    assert len(merges) >= 30
    for case, merged in merges:
        verdict = verify_merge(case.text, case.snippet, merged, case.path)
        assert verdict.verified, f"{case.path}: {verdict.summary()}"


def test_every_deterministic_merge_of_the_shapes_corpus_verifies():
    cases = lazy_shapes.load()
    merged_count = 0
    for case in cases:
        try:
            merged = lazy_shapes.engine_merge(case.path, case.before, case.snippet)
        except EditError:
            continue
        merged_count += 1
        verdict = verify_merge(case.before, case.snippet, merged, case.path)
        assert verdict.verified, f"{case.id} ({case.path}): {verdict.summary()}"
    assert merged_count >= 50


# -- the faults of a fast-apply model are rejected -----------------------------------------------
@pytest.mark.slow
def test_every_fault_of_a_right_merge_but_a_moved_line_is_rejected():
    right = [
        *[(c, m) for c, m in corpus("python") if m == c.expected][:20],
        *[(c, m) for c, m in corpus("brace") if m == c.expected][:20],
    ]
    assert len(right) == 40
    made: dict[str, int] = dict.fromkeys(merge_faults.KINDS, 0)
    for k, (case, merged) in enumerate(right):
        for kind, faulty in merge_faults.faults(
            random.Random(k), case.text, case.snippet, merged
        ).items():
            made[kind] += 1
            if kind == merge_faults.UNSEEN:
                continue
            verdict = verify_merge(case.text, case.snippet, faulty, case.path)
            assert not verdict.verified, f"{kind} passes on {case.path}"
    assert merge_faults.UNSEEN == "moved_line"
    assert all(made[kind] >= 20 for kind in merge_faults.KINDS if kind != merge_faults.UNSEEN)


def test_a_line_with_markers_inside_it_stands_for_the_file_line_with_something_there():
    """pi-fast-apply's kind of snippet: markers inside a line ("path: // ... existing ...,")
    stand for what the file has there; the merged line is found by the parts around them
    (whitespace ignored), and is no invented line."""
    original = lines(
        "const routes = {",
        "  login: { path: '/auth/login', method: 'POST', auth: false },",
        "  logout: { path: '/auth/logout', method: 'POST', auth: true },",
        "};",
    )
    snippet = lines(
        "const routes = {",
        "  login: { path: // ... existing ..., method: // ... existing ..., auth: true },",
        "  logout: { path: // ... existing ..., method: // ... existing ..., auth: true },",
        "};",
    )
    right = original.replace("'POST', auth: false", "'POST', auth: true")
    assert verify_merge(original, snippet, right, "routes.js") == MergeVerdict(True)
    wrong = right.replace("  logout: { path: '/auth/logout', method: 'POST', auth: true },\n", "")
    verdict = verify_merge(original, snippet, wrong, "routes.js")
    # (The line itself is bounded by the snippet's lines around it: only its absence tells.)
    assert [r.check for r in verdict.reasons] == ["missing"]
    assert verdict.reasons[0].snippet_line == 3
