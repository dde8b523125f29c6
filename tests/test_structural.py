"""Lazy snippets merged by definitions (issue 17): a definition matched by its header's
identity and merged within it, new definitions beside their neighbours, imports with the
file's imports, narration left out, and refusals where structure cannot say for sure."""

from __future__ import annotations

import contextlib

import pytest

from applydiff.errors import Ambiguous, EditError, NoMatch
from applydiff.match.lazy import merge_snippet
from applydiff.match.narration import drop_narration
from applydiff.match.outline import syntax_for
from applydiff.match.structural import merge_by_definitions


def _lines(text: str, snippet: str) -> str:
    return merge_snippet(text, snippet)[0]


def merged(
    path: str, before: str, snippet: str, keep_narration: bool = False
) -> tuple[str, list[str]]:
    """As the engine does it: narration out (unless kept), then the merge by definitions."""
    notes: list[str] = []
    syntax = syntax_for(path)
    if not keep_narration and syntax is not None:
        file_lines = {x.rstrip() for x in before.split("\n")}
        snippet, notes = drop_narration(snippet, file_lines, syntax)
    out, _ = merge_by_definitions(path, before, snippet, _lines)
    return out, notes


CASES: list[tuple[str, str, str, str, str]] = []


def go(name: str, path: str, before: str, snippet: str, after: str) -> None:
    CASES.append((name, path, before, snippet, after))


go(
    "class-method",
    "calc.ts",
    """import { x } from "./x";

export class Calculator {
  add(a: number, b: number): number {
    return a + b;
  }

  sub(a: number, b: number): number {
    return a - b;
  }
}

export function helper() {
  return 1;
}
""",
    """export class Calculator {
  // ... existing code ...

  // Add a new method to Calculator
  mul(a: number, b: number): number {
    return a * b;
  }
}
""",
    """import { x } from "./x";

export class Calculator {
  add(a: number, b: number): number {
    return a + b;
  }

  sub(a: number, b: number): number {
    return a - b;
  }

  mul(a: number, b: number): number {
    return a * b;
  }
}

export function helper() {
  return 1;
}
""",
)

go(
    "markerless-two-defs",
    "util.js",
    """const a = require("a");

function one() {
  return 1;
}

function two() {
  return 2;
}

function three() {
  return 3;
}

module.exports = { one, two, three };
""",
    """function one() {
  return 11;
}

function three() {
  return 33;
}
""",
    """const a = require("a");

function one() {
  return 11;
}

function two() {
  return 2;
}

function three() {
  return 33;
}

module.exports = { one, two, three };
""",
)

go(
    "imports",
    "app.py",
    """import os
import sys
from pathlib import Path


def main():
    return Path(os.getcwd())
""",
    """import json
from typing import Any
# ... existing code ...
""",
    """import os
import sys
import json
from pathlib import Path
from typing import Any


def main():
    return Path(os.getcwd())
""",
)

go(
    "css-rule",
    "site.css",
    """.a {
  color: red;
}

.container {
  display: flex;
  margin: 0;
}

@media (max-width: 600px) {
  .container {
    display: block;
  }
}
""",
    """/* ... existing styles ... */
.container {
  display: grid;
  margin: 0;
}
/* ... */
""",
    """.a {
  color: red;
}

.container {
  display: grid;
  margin: 0;
}

@media (max-width: 600px) {
  .container {
    display: block;
  }
}
""",
)
go(
    "rust-impl",
    "lib.rs",
    """use std::fmt;

struct A;

impl fmt::Display for A {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "A")
    }
}

impl A {
    fn new() -> Self {
        A
    }
}
""",
    """impl A {
    fn new() -> Self {
        A
    }

    fn name(&self) -> &str {
        "a"
    }
}
""",
    """use std::fmt;

struct A;

impl fmt::Display for A {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "A")
    }
}

impl A {
    fn new() -> Self {
        A
    }

    fn name(&self) -> &str {
        "a"
    }
}
""",
)
go(
    "new-def-after",
    "a.go",
    """package main

func a() int {
	return 1
}

func c() int {
	return 3
}
""",
    """func a() int {
	return 1
}

func b() int {
	return 2
}
// ... rest unchanged ...
""",
    """package main

func a() int {
	return 1
}

func b() int {
	return 2
}

func c() int {
	return 3
}
""",
)


@pytest.mark.parametrize("name,path,before,snippet,after", CASES, ids=[c[0] for c in CASES])
def test_merged_by_definitions(name, path, before, snippet, after):
    assert merged(path, before, snippet)[0] == after


CALC = """export class Calculator {
  add(a, b) {
    return a + b;
  }

  sub(a, b) {
    return a - b;
  }

  mul(a, b) {
    return a * b;
  }
}
"""


def test_a_definition_shown_without_a_member_and_no_marker_is_refused():
    snippet = """export class Calculator {
  add(a, b) {
    return a + b + 0;
  }

  mul(a, b) {
    return a * b;
  }
}
"""
    with pytest.raises(Ambiguous) as e:
        merged("calc.js", CALC, snippet)
    assert "without 'sub('" in e.value.message and "marker" in e.value.message


def test_a_member_twin_in_two_classes_is_ambiguous():
    text = CALC + "\nclass Other {\n  add(a, b) {\n    return 0;\n  }\n}\n"
    snippet = "// ... existing code ...\n  add(a, b) {\n    return b + a;\n  }\n// ...\n"
    with pytest.raises(Ambiguous) as e:
        merged("calc.js", text, snippet)
    assert "in the file 2 times" in e.value.message


def test_a_new_definition_with_nothing_around_it_is_refused():
    with pytest.raises(Ambiguous) as e:
        merged("calc.js", CALC, "function div(a, b) {\n  return a / b;\n}\n")
    assert "nothing right before or after it" in e.value.message


def test_definitions_out_of_the_files_order_are_refused():
    text = "function a() {\n  return 1;\n}\n\nfunction b() {\n  return 2;\n}\n"
    snippet = "function b() {\n  return 22;\n}\n\nfunction a() {\n  return 11;\n}\n// ...\n"
    with pytest.raises(Ambiguous) as e:
        merged("x.js", text, snippet)
    assert "in the file's order" in e.value.message


def test_a_changed_line_outside_every_definition_is_refused():
    text = "const PORT = 3000;\n\nfunction a() {\n  return 1;\n}\n"
    snippet = "const PORT = 8080;\n// ...\nfunction a() {\n  return 2;\n}\n"
    with pytest.raises(NoMatch) as e:
        merged("x.js", text, snippet)
    assert "const PORT = 8080;" in e.value.message


def test_a_markerless_snippet_with_every_definition_is_the_whole_file():
    text = "import os\n\n\ndef a():\n    return 1\n\n\ndef b():\n    return 2\n"
    snippet = "def a():\n    return 10\n\n\ndef b():\n    return 20\n"
    assert merged("m.py", text, snippet)[0] == snippet


def test_documentation_comments_stay_and_narration_goes():
    text = "function a() {\n  return 1;\n}\n"
    snippet = (
        "function a() {\n  return 1;\n}\n\n"
        "// Returns the sum of two numbers.\n"
        "function add(x, y) {\n  return x + y;\n}\n"
        "// ... existing code ...\n"
    )
    out, notes = merged("x.js", text, snippet)
    assert "// Returns the sum of two numbers.\n" in out and notes == []
    snippet = snippet.replace("Returns the sum of two numbers.", "Add a new helper function")
    out, notes = merged("x.js", text, snippet)
    assert "Add a new" not in out
    assert notes == ["left out the narration comment '// Add a new helper function'"]
    kept, notes = merged("x.js", text, snippet, keep_narration=True)
    assert "// Add a new helper function\n" in kept and notes == []


@pytest.mark.parametrize(
    "comment,narration",
    [
        # Above new code a comment documents it (issue 26), unless its words compare the
        # code with the file's previous version ("new", "existing", "now") or label it.
        ("# Update the handler to retry", False),
        ("// Added error handling for the new endpoint", True),
        ("// Add new EcmascriptInputTransform variant", True),
        ("// Create a new user", False),
        ("// Remove the trailing slash", False),
        ("# Returns None when the file is missing", False),
        ("// TODO: handle errors", False),
    ],
)
def test_narration_is_told_from_documentation(comment, narration):
    prefix = "#" if comment.startswith("#") else "//"
    path = "m.py" if prefix == "#" else "x.js"
    if path == "m.py":
        text = "def a():\n    return 1\n"
        snippet = f"def a():\n    return 1\n\n\n{comment}\ndef b():\n    return 2\n# ...\n"
    else:
        text = "function a() {\n  return 1;\n}\n"
        snippet = f"function a() {{\n  return 1;\n}}\n\n{comment}\nfunction b() {{}}\n// ...\n"
    out, _ = merged(path, text, snippet)
    assert (comment not in out) is narration


def test_python_method_with_a_decorator_changed_in_place():
    text = (
        "class A:\n"
        "    def keep(self):\n        return 0\n\n"
        "    @property\n    def size(self):\n        return 1\n\n"
        "    def other(self):\n        return 2\n"
    )
    snippet = (
        "class A:\n    # ... existing methods ...\n\n"
        "    @cached_property\n    def size(self):\n        return 10\n\n"
        "    # ... existing methods ...\n"
    )
    out, _ = merged("a.py", text, snippet)
    assert out == text.replace("@property", "@cached_property").replace("return 1\n", "return 10\n")


def test_vue_element_told_by_its_key_attributes():
    text = (
        '<template>\n  <div class="header">\n    <h1>Title</h1>\n  </div>\n'
        '  <div class="body">\n    <p>Text</p>\n  </div>\n</template>\n'
    )
    snippet = (
        "<!-- ... existing template ... -->\n"
        '  <div class="body">\n    <p>Text</p>\n    <p>More</p>\n  </div>\n'
        "<!-- ... -->\n"
    )
    out, _ = merged("App.vue", text, snippet)
    assert out == text.replace("<p>Text</p>\n", "<p>Text</p>\n    <p>More</p>\n")


def test_sql_statement_told_by_its_name():
    text = (
        "CREATE TABLE users (\n  id serial PRIMARY KEY,\n  name text\n);\n\n"
        "CREATE TABLE posts (\n  id serial PRIMARY KEY,\n  body text\n);\n"
    )
    snippet = (
        "-- ... existing tables ...\n"
        "CREATE TABLE posts (\n  id serial PRIMARY KEY,\n  user_id int REFERENCES users(id),\n"
        "  body text\n);\n"
    )
    out, _ = merged("schema.sql", text, snippet)
    assert out == text.replace("  body text", "  user_id int REFERENCES users(id),\n  body text")


def test_crlf_files_stay_crlf():
    text = "function a() {\r\n  return 1;\r\n}\r\n\r\nfunction b() {\r\n  return 2;\r\n}\r\n"
    snippet = "// ...\nfunction b() {\n  return 3;\n}\n"
    out, _ = merged("x.js", text, snippet)
    assert out == text.replace("return 2", "return 3")


def test_an_unknown_language_is_not_merged_by_structure():
    with pytest.raises(EditError):
        merged("notes.txt", "a\n", "a\n")


def test_narration_only_beside_new_code_and_in_the_files_comment_syntax():
    js = syntax_for("x.jsx")
    assert js is not None
    file_lines = {"function a() {", "  return 1;", "}"}
    # Above code the file has unchanged, words of a change narrate it (issue 26: models'
    # comments there are left out of the merged file); words of documentation stay.
    kept, notes = drop_narration(
        "// Add a new helper function here\nfunction a() {\n  return 1;\n}\n", file_lines, js
    )
    assert len(notes) == 1 and kept.startswith("function a() {")
    kept, notes = drop_narration(
        "// Returns one, always\nfunction a() {\n  return 1;\n}\n", file_lines, js
    )
    assert notes == [] and kept.startswith("// Returns one")
    # JSX's comment form, before new markup.
    out, notes = drop_narration(
        "{/* Add a new button component here */}\n<Button />\n", file_lines, js
    )
    assert out == "<Button />\n" and len(notes) == 1
    # '#' is not a comment in JavaScript.
    out, notes = drop_narration("# Added a new route handler\nx();\n", file_lines, js)
    assert notes == []


# -- as the engine applies a Lazy op ------------------------------------------------------------


def test_the_engine_falls_back_to_structure_and_says_so():
    from applydiff import Lazy, apply_ops

    snippet = (
        "export class Calculator {\n  // ... existing code ...\n\n"
        "  // Add a new method to Calculator\n"
        "  div(a, b) {\n    return a / b;\n  }\n}\n"
    )
    cs = apply_ops([Lazy("src/calc.js", snippet)], {"src/calc.js": CALC})
    assert cs.ok, cs.errors
    want = CALC.replace(
        "    return a * b;\n  }\n}\n",
        "    return a * b;\n  }\n\n  div(a, b) {\n    return a / b;\n  }\n}\n",
    )
    assert cs.texts() == {"src/calc.js": want}
    report = cs.reports[0]
    assert (report.kind, report.tier, report.confidence) == ("lazy", "structure", 0.9)
    assert report.notes == ("left out the narration comment '// Add a new method to Calculator'",)
    kept = apply_ops([Lazy("src/calc.js", snippet)], {"src/calc.js": CALC}, keep_narration=True)
    assert "  // Add a new method to Calculator\n  div(a, b) {" in kept.texts()["src/calc.js"]


def test_when_both_merges_refuse_the_line_merges_advice_stands():
    from applydiff import Lazy, apply_ops

    text = CALC + "\nclass Other {\n  add(a, b) {\n    return 0;\n  }\n}\n"
    snippet = "// ... existing code ...\n  add(a, b) {\n    return b + a;\n  }\n// ...\n"
    cs = apply_ops([Lazy("calc.js", snippet)], {"calc.js": text})
    assert not cs.ok
    assert cs.errors[0].error.message.startswith("segment 1 (snippet lines 2-4")


def test_cli_keep_narration(tmp_path):
    import json
    import subprocess
    import sys

    (tmp_path / "calc.js").write_text(CALC, encoding="utf-8")
    answer = (
        "```js calc.js\nexport class Calculator {\n  // ... existing code ...\n\n"
        "  // Add a new method to Calculator\n  div(a, b) {\n    return a / b;\n  }\n}\n```\n"
    )
    (tmp_path / "answer.md").write_text(answer, encoding="utf-8")
    for keep in (False, True):
        (tmp_path / "calc.js").write_text(CALC, encoding="utf-8")
        cmd = [sys.executable, "-m", "applydiff", "apply", str(tmp_path / "answer.md")]
        cmd += ["--root", str(tmp_path), "--yes", "--json"] + (["--keep-narration"] if keep else [])
        out = subprocess.run(cmd, capture_output=True, text=True, stdin=subprocess.DEVNULL)
        assert out.returncode == 0, out.stdout + out.stderr
        got = json.loads(out.stdout)
        assert got["edits"][0]["tier"] == "structure"
        text = (tmp_path / "calc.js").read_text(encoding="utf-8")
        assert ("// Add a new method" in text) is keep


def test_lines_left_out_are_counted_with_their_repeats():
    text = "def top():\n" + "    x = 1\n" * 60 + "\n\ndef bottom():\n    pass\n"
    snippet = "# ...\ndef top():\n" + "    x = 1\n" * 5 + "    x = 2\n# ...\n"
    with pytest.raises(Ambiguous) as e:
        merged("m.py", text, snippet)
    assert "it would delete 55 lines" in e.value.message


# -- shapes the line-merge corpora showed the merge by definitions must refuse ------------------


TIX = (
    "class ComboBox:\n"
    "    def popdown(self):\n        self.tk.call(self._w, 'popdown')\n\n"
    "    def popup(self):\n        self.tk.call(self._w, 'popup')\n\n"
    "    def center(self):\n        pass\n"
)


def test_a_new_definition_where_the_file_has_other_lines_is_refused():
    # It may replace 'popup' (as meant here) or be added beside it: two readings.
    snippet = (
        "        self.tk.call(self._w, 'popdown')\n\n"
        "    def ACROSSTOP(self):\n        self.tk.call(self._w, 'popups')\n\n"
        "    def center(self):\n"
    )
    with pytest.raises(Ambiguous) as e:
        merged("tix.py", TIX, snippet)
    assert "the file has 'def popup(self):' there" in e.value.message


def test_context_with_a_hidden_edit_is_refused():
    text = "def a():\n    return 1\n\n\nx = 1\ny = 2\nz = 3\n\n\ndef b():\n    return 2\n"
    # 'y = 2' deleted between two context lines the file has: not a definition's edit.
    snippet = "x = 1\nz = 3\n\n\ndef b():\n    return 20\n"
    with pytest.raises(NoMatch) as e:
        merged("m.py", text, snippet)
    assert "not in the file as shown" in e.value.message


def test_a_call_spread_over_lines_is_not_a_definition():
    text = "def f():\n    warn('old',\n         2)\n    return 1\n"
    snippet = "    warn('new',\n         2)\n    # ...\n"
    with pytest.raises(EditError):
        merged("m.py", text, snippet)


def test_a_marker_indented_under_a_python_block_belongs_to_it():
    from applydiff.match.structural.merge import Merge

    text = "class A:\n    def f(self):\n        a = 1\n        return a\n"
    snippet = "class A:\n    def f(self):\n        a = 10\n        # ... rest of f ...\n# ...\n"
    syntax = syntax_for("a.py")
    assert syntax is not None
    items = Merge(syntax, text, snippet, _lines).items()
    assert [(x.kind, x.first, x.last) for x in items] == [
        ("definition", 0, 3),  # the class, to the marker indented into it
        ("marker", 4, 4),
    ]


def test_a_new_definition_cannot_leave_code_out():
    text = "function a() {\n  return 1;\n}\n"
    snippet = "function a() {\n  return 1;\n}\n\nfunction b() {\n  // ... existing code ...\n}\n"
    with pytest.raises(NoMatch) as e:
        merged("x.js", text, snippet)
    assert "is not in the file, yet it leaves code out" in e.value.message


def test_an_element_whose_key_attribute_changed_is_not_added_twice():
    text = (
        '<div id="results">\n  <div class="header"></div>\n'
        '  <ul id="search-results">\n  </ul>\n</div>\n'
    )
    snippet = (
        '<!-- ... -->\n  <div class="header"></div>\n'
        '  <ul id="search-results-v2">\n  </ul>\n<!-- ... -->\n'
    )
    with pytest.raises(Ambiguous) as e:
        merged("index.html", text, snippet)
    assert "looks like a changed copy" in e.value.message


def test_with_markers_two_places_shown_in_a_row_must_be_in_a_row():
    text = ".nav {\n  #a { display: none; }\n  #b { display: none; }\n  #c { display: none; }\n}\n"
    # '#b' left out between '#a' and '#c' with no marker: deleted, or forgotten?
    snippet = ".nav {\n  /* ... */\n  #a { display: none; }\n  #c { display: block; }\n}\n"
    with pytest.raises(Ambiguous):
        merged("site.css", text, snippet)
    # One level down, the merge by definitions says why.
    body = "".join(text.splitlines(keepends=True)[1:-1])
    inner = "".join(snippet.splitlines(keepends=True)[1:-1])
    with pytest.raises(Ambiguous) as e:
        merged("site.css", body, inner)
    assert "deleted, or left out" in e.value.message


def test_a_closer_after_a_marker_does_not_place_what_follows():
    text = "struct a {\n\tint x;\n\tint y;\n};\n\nstruct b {\n\tint z;\n};\n\n/* end */\n"
    # The '};' after the marker may close 'struct a' or 'struct b': where 'f' goes is not said.
    snippet = (
        "/* ... */\nstruct a {\n\tint w;\n\t/* ... existing code ... */\n};\n\n"
        "static int f(void) {\n\treturn 1;\n}\n\n/* end */\n"
    )
    with pytest.raises(EditError):
        merged("x.h", text, snippet)


def test_a_definition_retyped_with_spaces_keeps_the_files_tabs():
    text = "struct s {\n\tint a;\t/* first */\n\tint b;\n};\n\nstruct t {\n\tint c;\n};\n"
    snippet = "struct s {\n    int a;\t/* first */\n    int b;\n    int n;\n};\n"
    out, _ = merged("x.h", text, snippet)
    assert out == text.replace("\tint b;\n", "\tint b;\n\tint n;\n")


# -- item 1: a segment that opens a block and closes it ends where the file's block closes ------

MISINDENTED = (
    ".a {\n  color: red;\n    }\n.b {\n  color: blue;\n    }\n.c {\n  color: gray;\n    }\n"
)


def test_a_common_last_line_is_placed_by_the_close_of_the_heads_block():
    snippet = "/* ... */\n.b {\n  color: green;\n    }\n/* ... */\n"
    with pytest.raises(Ambiguous) as e:
        merge_snippet(MISINDENTED, snippet)  # by lines alone: '}' is everywhere
    assert "too common to tell where it ends" in e.value.message
    out, _ = merge_snippet(MISINDENTED, snippet, path="site.css")
    assert out == MISINDENTED.replace("color: blue", "color: green")


def test_the_close_is_found_by_brackets_past_strings_and_comments():
    text = (
        "function a() {\nif (x) {\nrun('}');\n}\nreturn 1;\n}\n"
        'function b() {\nif (y) {\ngo("}"); // }\n}\nreturn 2;\n}\n'
    )
    snippet = '// ...\nfunction b() {\nif (y) {\ngo("}"); // }\nlog();\n}\nreturn 2;\n}\n'
    out, _ = merge_snippet(text, snippet, path="x.js")
    assert out == text.replace('go("}"); // }\n', 'go("}"); // }\nlog();\n')


def test_a_segment_whose_last_line_closes_an_inner_block_is_not_placed_by_it():
    # The segment's '}' closes 'if', not the '.b'-like head: structure says nothing here.
    text = "function a() {\nif (x) {\nrun();\n}\n}\nfunction b() {\nif (y) {\ngo();\n}\n}\n"
    snippet = "// ...\nfunction b() {\nif (y) {\ngo();\nlog();\n}\n// ...\n"
    got = None
    with contextlib.suppress(EditError):
        got = merge_snippet(text, snippet, path="x.js")[0]
    assert got in (None, text.replace("go();\n", "go();\nlog();\n"))


def test_a_return_type_on_the_line_above_stays():
    text = "\tchar*\n\tgrab(int a)\n\t{\n\t  return a;\n\t}\n\n\tint other;\n"
    snippet = "\t// ... existing code ...\n\tgrab(int a)\n\t{\n\t  return a + 1;\n\t}\n"
    out, _ = merged("x.h", text, snippet)
    assert out == text.replace("return a;", "return a + 1;")


def test_a_block_closed_deeper_than_its_header_is_not_a_definition():
    # The '}' of the snippet's 'Run' closes an inner block whose opener a marker left out.
    text = (
        "func Run() error {\n\tfor {\n\t\tif x {\n\t\t\tgo()\n\t\t}\n"
        '\t\treturn fmt.Errorf("e")\n\t}\n\treturn nil\n}\n'
    )
    snippet = "func Run() error {\n\t\t\t// ... existing code ...\n\t\t}\n\t}\n\treturn nil\n}\n"
    got = None
    with contextlib.suppress(EditError):
        got = merged("x.go", text, snippet)[0]
    assert got is None


def test_a_new_definition_after_other_shown_items_does_not_go_to_the_end():
    text = ".a {\n  x: 1;\n}\n\n.b {\n  y: 2;\n}\n\n.c {\n  z: 3;\n}\n"
    snippet = "/* ... */\n.b {\n/* ... */\n}\n\n.d {\n  w: 4;\n}\n"
    with pytest.raises(EditError):
        merged("x.css", text, snippet)


def test_a_python_definition_the_snippet_ends_with_deletes_nothing_unshown():
    text = (
        "class A:\n    def f(self):\n        a = 1\n        b = 2\n        return a + b\n\n"
        "    def g(self):\n        return 0\n"
    )
    snippet = "    # ... existing code ...\n    def f(self):\n        log()\n        a = 1\n"
    got = None
    with contextlib.suppress(EditError):
        got = merged("a.py", text, snippet)[0]
    assert got in (None, text.replace("        a = 1\n", "        log()\n        a = 1\n"))


def test_a_renamed_definition_is_not_added_beside_the_old_one():
    text = (
        "class A:\n    def setup(self):\n        self.state = None\n\n"
        '    def expand(self, event):\n        "Expand the word."\n'
        "        cur = self.text.index('insert')\n        line = self.text.get(cur)\n"
        "        return line\n"
    )
    snippet = (
        "...\n        self.state = None\n\n    def expand_new(self, event):\n"
        "        \"Expand the word again.\"\n        cur = self.text.index('insert')\n...\n"
    )
    with pytest.raises(EditError):
        merged("a.py", text, snippet)


def test_lines_in_a_row_at_several_places_cannot_hide_an_edit():
    text = (
        "function a() {\n  if (x) {\n    run();\n  }\n}\n\n"
        "function b() {\n  if (y) {\n    go();\n  }\n}\n"
    )
    snippet = "// ...\n  }\n}\n// ...\nfunction b() {\n  if (y) {\n    go(1);\n  }\n}\n"
    with pytest.raises(Ambiguous) as e:
        merged("x.js", text, snippet)
    assert "stand in the file at 2 places" in e.value.message


def test_more_names_from_an_imported_module_change_that_import():
    text = (
        'import { useState } from "react";\nimport x from "./x";\n\n'
        "function A() {\n  return 1;\n}\n"
    )
    snippet = 'import { useEffect, useState } from "react";\n// ... existing code ...\n'
    out, _ = merged("a.jsx", text, snippet)
    assert out == text.replace("{ useState }", "{ useEffect, useState }")
    py = "from typing import Any\nimport os\n\n\ndef f():\n    return 1\n"
    out, _ = merged("m.py", py, "from typing import Any, Dict\n# ... existing code ...\n")
    assert out == py.replace("import Any\n", "import Any, Dict\n")


# -- item 8: a blank line before a marker stands for itself --------------------------------------


def test_a_blank_line_before_a_marker_stands_for_itself_in_the_line_merge():
    text = (
        "jobs:\n  test:\n    steps:\n      - run: make test\n"
        "  build:\n    steps:\n      - run: make\n"
    )
    snippet = (
        "# ... existing jobs ...\n      - run: make test\n\n  e2e:\n    steps:\n"
        "      - run: make e2e\n\n  # ... existing jobs ...\n"
    )
    out, _ = merge_snippet(text, snippet)
    assert out == text.replace(
        "      - run: make test\n",
        "      - run: make test\n\n  e2e:\n    steps:\n      - run: make e2e\n\n",
    )


def test_new_imports_at_the_top_keep_the_blank_line_shown_after_them():
    css = ":root {\n  --x: 1;\n}\n"
    snippet = '@import url("a.css");\n\n/* ... existing styles ... */\n'
    out, _ = merged("site.css", css, snippet)
    assert out == '@import url("a.css");\n\n' + css


def test_system_and_project_includes_are_two_kinds():
    text = (
        '#include <stdio.h>\n#include <string.h>\n\n#include "buffer.h"\n\n'
        "int f(void)\n{\n\treturn 0;\n}\n"
    )
    out, _ = merged("b.c", text, "#include <unistd.h>\n/* ... existing code ... */\n")
    assert out == text.replace(
        "#include <string.h>\n", "#include <string.h>\n#include <unistd.h>\n"
    )


def test_two_new_definitions_in_a_row_keep_the_blank_lines_shown():
    text = ".a {\n  x: 1;\n}\n"
    snippet = "/* ... */\n.a {\n  x: 1;\n}\n\n.b {\n  y: 2;\n}\n\n.c {\n  z: 3;\n}\n"
    out, _ = merged("s.css", text, snippet)
    assert out == text + "\n.b {\n  y: 2;\n}\n\n.c {\n  z: 3;\n}\n"


def test_a_shown_method_keeps_its_own_closers_depth():
    text = "impl A {\n    fn f(&self) -> u8 {\n        self.x\n    }\n}\n"
    snippet = (
        "// ... existing code ...\n    fn f(&self) -> u8 {\n        let y = self.x;\n"
        "        if y > 1 {\n            warn();\n        }\n        y\n    }\n}\n"
    )
    out, _ = merged("a.rs", text, snippet)
    assert out == text.replace(
        "        self.x\n",
        "        let y = self.x;\n        if y > 1 {\n            warn();\n        }\n        y\n",
    )


def test_new_imports_then_a_marker_then_other_changes():
    from applydiff import Lazy, apply_ops

    text = (
        "import os\n\n\ndef run(path):\n    data = open(path).read()\n"
        "    return data.strip()\n\n\ndef other():\n    return 0\n"
    )
    snippet = (
        "import json\n# ... existing code ...\n    data = open(path).read()\n"
        "    return json.loads(data)\n\n\ndef other():\n"
    )
    cs = apply_ops([Lazy("m.py", snippet)], {"m.py": text})
    assert cs.ok, cs.errors
    assert cs.texts()["m.py"] == text.replace("import os\n", "import os\nimport json\n").replace(
        "return data.strip()", "return json.loads(data)"
    )


def test_a_renamed_definition_the_snippet_stops_showing_is_a_changed_copy():
    text = (
        "def start():\n    log('start')\n\n\n"
        "def install_handler():\n    global handler\n    if handler is None:\n"
        "        handler = make()\n"
    )
    snippet = "# ...\n    log('start')\n\n\ndef install():\n    global handler\n"
    with pytest.raises(Ambiguous) as e:
        merged("m.py", text, snippet)
    assert "looks like a changed copy" in e.value.message


def test_a_renamed_definition_with_the_files_comment_above_it_is_not_new():
    text = (
        'package p\n\nimport (\n\t"fmt"\n)\n\n'
        "// Path returns the socket's file name.\nfunc (s Socket) Path() string {\n"
        "\treturn fmt.Sprint(s.Dir)\n}\n"
    )
    snippet = (
        "// Path returns the socket's file name.\nfunc (s Socket) PathNew() string {\n"
        "\treturn fmt.Sprint(s.Dir, 1)\n}\n// ... existing code ...\n"
    )
    with pytest.raises(Ambiguous) as e:
        merged("s.go", text, snippet)
    assert "looks like file line 8" in e.value.message


def test_a_new_function_at_the_top_goes_after_a_go_import_block():
    text = 'package p\n\nimport (\n\t"fmt"\n)\n\nfunc A() {\n\tfmt.Println(1)\n}\n'
    snippet = "func helper() int {\n\treturn 1\n}\n// ... existing code ...\n"
    out, _ = merged("a.go", text, snippet)
    assert out == text.replace(")\n\nfunc A", ")\n\nfunc helper() int {\n\treturn 1\n}\n\nfunc A")


def test_comment_lines_shown_after_a_marker_are_only_the_last_ones():
    text = (
        "class B {\n  /// Set the creator.\n  ///\n  /// Without it, a default is used\n"
        "  /// that will build a layer.\n  B &setCreator(int c) {\n    x = c;\n    return *this;\n"
        "  }\n};\n"
    )
    snippet = (
        "  /* ... existing code ... */\n  /// that will build a layer.\n"
        "  B &setCreator(int c) {\n    return *this;\n  }\n"
    )
    out, _ = merged("b.h", text, snippet)
    assert out == text.replace("    x = c;\n", "")


def test_an_import_shown_between_two_of_the_files_takes_the_place_between_them():
    text = (
        '#include "a/None.h"\n#include "a/SmallVector.h"\n#include "a/Block.h"\n\n'
        "int f(void)\n{\n\treturn 0;\n}\n"
    )
    snippet = (
        '/* ... existing code ... */\n#include "a/None.h"\n#include "b/SmallVector.h"\n'
        '#include "a/Block.h"\n/* ... existing code ... */\n'
    )
    out, _ = merged("m.h", text, snippet)
    assert out == text.replace('"a/SmallVector.h"', '"b/SmallVector.h"')
    added = snippet.replace(
        '#include "b/SmallVector.h"\n', '#include "a/SmallVector.h"\n#include "c/New.h"\n'
    )
    out, _ = merged("m.h", text, added)
    assert out == text.replace('#include "a/Block.h"', '#include "c/New.h"\n#include "a/Block.h"')


def test_new_lines_after_a_marker_that_may_end_the_next_rule_are_refused():
    text = (
        "a.x input[type=text] {\n    float: left;\n    box-sizing: border-box;\n}\n\n"
        "a.x input[type=submit] {\n    float: left;\n    box-sizing: border-box;\n}\n"
    )
    snippet = (
        "a.x input[type=text] {\n    float: left;\n    /* ... existing code ... */\n"
        "    box-sizing: border-box;\n    display: flex;\n}\n/* ... existing code ... */\n"
    )
    with pytest.raises(Ambiguous, match="also the one at line 6"):
        merged("s.css", text, snippet)
    # A closer alone after the marker says nothing of which definition: new lines there end
    # the one the snippet names.
    text = (
        "class A {\n  int f() {\n    return 1;\n  }\n}\n\n"
        "class B {\n  int g() {\n    return 1;\n  }\n}\n"
    )
    snippet = (
        "class A {\n  // ... existing code ...\n  int h() {\n    return 2;\n  }\n}\n"
        "// ... existing code ...\n"
    )
    out, _ = merged("a.java", text, snippet)
    assert out == text.replace(
        "  }\n}\n\nclass B", "  }\n\n  int h() {\n    return 2;\n  }\n}\n\nclass B"
    )


def test_new_lines_before_a_definitions_closer_after_a_marker_go_at_its_end():
    css = ".a {\n  color: red;\n  margin: 0;\n}\n\n.b {\n  color: blue;\n}\n"
    snippet = (
        "/* ... existing code ... */\n.a {\n  /* ... existing code ... */\n  display: flex;\n}\n"
        "/* ... existing code ... */\n"
    )
    out, _ = merged("a.css", css, snippet)
    assert out == css.replace("margin: 0;\n}", "margin: 0;\n  display: flex;\n}")
    js = "function f() {\n  const x = 1;\n  log(x);\n}\n\nfunction g() {\n  return 2;\n}\n"
    out, _ = merged("a.js", js, "function f() {\n  // ... existing code ...\n  return x;\n}\n")
    assert out == js.replace("  log(x);\n}", "  log(x);\n  return x;\n}")


@pytest.mark.parametrize(
    ("text", "snippet"),
    [
        # After a return, a new line is not meant at the end: where, then?
        (
            "function f() {\n  const x = 1;\n  return x;\n}\n",
            "function f() {\n  // ... existing code ...\n  log(x);\n}\n",
        ),
        # Much like the file's last line: that line changed, or one added after it?
        (
            "function f() {\n  const x = 1;\n  log(x);\n}\n",
            "function f() {\n  // ... existing code ...\n  log(x + 1);\n}\n",
        ),
        # A line a later definition ends with: the marker may run on to that one's end.
        (
            "struct a {\n\tint x;\n};\n\nstruct b {\n\tint y;\n\tint id;\n\tint n;\n};\n",
            "struct a {\n\t/* ... existing code ... */\n\tint id;\n};\n",
        ),
        # Spaces where the file indents with tabs: the file would come back mixed.
        (
            "int f(void)\n{\n\tint x = 1;\n\tuse(x);\n}\n",
            "int f(void)\n{\n    // ... existing code ...\n    log(x);\n}\n",
        ),
    ],
)
def test_new_lines_before_a_closer_are_refused_where_the_end_is_not_sure(text, snippet):
    path = "a.c" if text.startswith(("int", "struct")) else "a.js"
    with pytest.raises(EditError):
        merged(path, text, snippet)
