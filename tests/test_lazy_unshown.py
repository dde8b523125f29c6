"""Issue 26: lazy snippets as real models write them. Never delete what the snippet does not
show; imports are whole statements; diff marks are refused; narration is told by position."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from applydiff.engine import apply_ops
from applydiff.errors import Ambiguous, EditError
from applydiff.ir import Lazy
from applydiff.match.lazy.unshown import declared, defines
from applydiff.match.snippet_merge import merge_lazy


def merged(path: str, text: str, snippet: str) -> str:
    return merge_lazy(path, text, snippet)[0]


def refused(path: str, text: str, snippet: str) -> EditError:
    with pytest.raises(EditError) as e:
        merge_lazy(path, text, snippet)
    # Through the engine too: nothing changes, the error is the op's.
    result = apply_ops([Lazy(path, snippet)], {path: text})
    assert result.errors and not result.changes
    return e.value


CSS = (
    ".header {\n"
    "  margin: 0;\n"
    "}\n"
    "\n"
    ".title {\n"
    "  font-size: 2rem;\n"
    "  font-weight: bold;\n"
    "  margin-bottom: 1rem;\n"
    "}\n"
    "\n"
    ".footer {\n"
    "  padding: 1rem;\n"
    "}\n"
)


def test_css_rule_shown_with_one_new_declaration_does_not_empty_the_rule() -> None:
    # Rule 2: declarations are keyed by property; a new one goes at the rule's end, the
    # ones the snippet does not show stay.
    out = merged("a.css", CSS, ".title {\n  color: #333;\n}\n")
    assert out == CSS.replace(
        "  margin-bottom: 1rem;\n", "  margin-bottom: 1rem;\n  color: #333;\n"
    )
    # A shown property sets the file's declaration of it, in its place.
    out = merged("a.css", CSS, "/* ... */\n.title {\n  font-weight: 600;\n}\n/* ... */\n")
    assert out == CSS.replace("font-weight: bold;", "font-weight: 600;")


def test_scss_rule_declarations_by_property() -> None:
    scss = "$gap: 4px;\n\n.card {\n  padding: $gap;\n  border: 0;\n  color: red;\n}\n"
    out = merged("a.scss", scss, ".card {\n  color: blue;\n  margin: 0;\n}\n")
    assert out == scss.replace("  color: red;\n", "  color: blue;\n  margin: 0;\n")
    # Between two shown declarations, one left out goes (shown on both sides).
    out = merged("a.scss", scss, ".card {\n  padding: $gap;\n  color: red;\n}\n")
    assert out == scss.replace("  border: 0;\n", "")


def test_code_definition_shown_partially_is_refused_not_emptied() -> None:
    e = refused(
        "a.ts",
        JS.replace("function load", "export function load"),
        ("export function load(items) {\n  console.log(items);\n}\n"),
    )
    assert isinstance(e, Ambiguous)


JS = (
    "function load(items) {\n"
    "  const seen = new Set();\n"
    "  const out = [];\n"
    "  for (const x of items) {\n"
    "    if (!seen.has(x)) { seen.add(x); out.push(x); }\n"
    "  }\n"
    "  return out;\n"
    "}\n"
)


PY = (
    "def load(items):\n"
    "    seen = set()\n"
    "    out = []\n"
    "    for x in items:\n"
    "        if x not in seen:\n"
    "            seen.add(x)\n"
    "            out.append(x)\n"
    "    return out\n"
    "\n"
    "\n"
    "def other():\n"
    "    return 1\n"
)


@pytest.mark.parametrize(
    "path,text,snippet,kept",
    [
        (
            "a.js",
            JS,
            "function load(items) {\n  console.log('loading', items.length);\n  return out;\n}\n",
            "const seen = new Set();",
        ),
        (
            "a.py",
            PY,
            "def load(items):\n    print('loading', len(items))\n    return out\n",
            "seen = set()",
        ),
    ],
)
def test_function_shown_from_its_header_to_a_later_statement_deletes_nothing(
    path: str, text: str, snippet: str, kept: str
) -> None:
    e = refused(path, text, snippet)
    assert repr(kept) in str(e) and "header of its definition" in str(e)


def test_lines_shown_on_both_sides_in_one_block_are_deleted() -> None:
    # JS: a statement between two shown statements goes.
    snippet = (
        "function load(items) {\n  const seen = new Set();\n  const out = [];\n  return out;\n}\n"
    )
    text = JS.replace(
        "  for (const x of items) {\n    if (!seen.has(x)) { seen.add(x); out.push(x); }\n  }\n",
        "  out.push(1);\n",
    )
    assert merged("a.js", text, snippet) == text.replace("  out.push(1);\n", "")
    # Python: the same.
    text = "def f():\n    a = 1\n    print(a)\n    b = 2\n    return b\n"
    snippet = "def f():\n    a = 1\n    b = 2\n    return b\n"
    assert merged("a.py", text, snippet) == "def f():\n    a = 1\n    b = 2\n    return b\n"


def test_a_deleted_declaration_whose_name_kept_lines_use_is_refused() -> None:
    text = (
        "function f() {\n"
        "  log('start');\n"
        "  const total = sum(xs);\n"
        "  log('mid');\n"
        "  return total * 2;\n"
        "}\n"
    )
    snippet = "function f() {\n  log('start');\n  log('mid');\n  return total * 2;\n}\n"
    e = refused("a.js", text, snippet)
    assert "declares 'total'" in str(e) and "line 5" in str(e)
    text = "def f():\n    log('start')\n    total = sum(xs)\n    log('mid')\n    return total * 2\n"
    snippet = "def f():\n    log('start')\n    log('mid')\n    return total * 2\n"
    assert "declares 'total'" in str(refused("a.py", text, snippet))


def test_a_deleted_declaration_the_snippet_declares_again_goes() -> None:
    text = "def f():\n    log('start')\n    total = sum(xs)\n    log('mid')\n    return total * 2\n"
    snippet = "def f():\n    log('start')\n    log('mid')\n    total = 3\n    return total * 2\n"
    assert merged("a.py", text, snippet) == snippet


def test_declared_and_defines() -> None:
    assert declared("  const total = sum(xs);") == "total"
    assert declared("    total: int = 0") == "total"
    assert declared("    let mut n = 0;") == "n"
    assert declared("def helper(x):") == "helper"
    assert declared("    verbose = true,") is None  # a named argument
    assert declared("    self.x = 1") is None
    assert declared("    x == 1") is None
    assert defines("function load(items) {") and defines(".title {") and defines("def f():")
    assert defines('<div class="card">')
    assert not defines("if (x) {") and not defines("} else {") and not defines("for x in y:")
    assert not defines("return clsx(") and not defines("{") and not defines('"key":')


# --- imports are whole statements ---------------------------------------------------------

TS = (
    "import c from './c';\n"
    "import {\n"
    "  a,\n"
    "  b,\n"
    "} from './x';\n"
    "\n"
    "export function f() { return a + b + c; }\n"
)


def test_new_import_goes_after_the_last_statement_not_inside_its_braces() -> None:
    out = merged("a.ts", TS, "import { d } from './d';\n// ... existing code ...\n")
    assert out == TS.replace("} from './x';\n", "} from './x';\nimport { d } from './d';\n")


def test_import_from_a_source_the_file_imports_extends_the_statement() -> None:
    out = merged("a.ts", TS, "import { e } from './x';\n// ... existing code ...\n")
    assert out == TS.replace("  b,\n", "  b,\n  e,\n")
    assert out.count("from './x'") == 1
    # Names already imported are not imported again; the new one is added.
    assert merged("a.ts", TS, "import { a, e } from './x';\n// ... existing code ...\n") == out


def test_import_naming_all_the_file_imports_and_more_replaces_it() -> None:
    out = merged("a.ts", TS, "import { a, b, e } from './x';\n// ... existing code ...\n")
    assert out == (
        "import c from './c';\n"
        "import { a, b, e } from './x';\n"
        "\n"
        "export function f() { return a + b + c; }\n"
    )


def test_python_parenthesised_import_is_one_statement() -> None:
    py = "import os\nfrom x import (\n    a,\n    b,\n)\n\n\ndef f():\n    return a\n"
    out = merged("a.py", py, "from y import z\n# ... existing code ...\n")
    assert out == py.replace(")\n\n", ")\nfrom y import z\n\n", 1)
    out = merged("a.py", py, "from x import c\n# ... existing code ...\n")
    assert out == py.replace("    b,\n", "    b,\n    c,\n")
    one_line = "from x import a, b\n\n\ndef f():\n    return a\n"
    out = merged("a.py", one_line, "from x import c\n# ... existing code ...\n")
    assert out == one_line.replace("from x import a, b", "from x import a, b, c")


# --- diff marks -----------------------------------------------------------------------------


def test_snippet_with_diff_marks_is_read_as_hunks() -> None:
    # JavaScript: "+"/"-" in front of the indentation, plain context.
    text = "function f() {\n  a();\n  b();\n}\n\nfunction g() {\n  b();\n}\n"
    snippet = "// ... existing code ...\nfunction f() {\n  a();\n-  b();\n+  c();\n}\n// ...\n"
    out, how = merge_lazy("a.js", text, snippet)
    assert out == text.replace("  a();\n  b();", "  a();\n  c();")
    assert how.how == "diff" and how.notes[0].startswith("read the snippet's '+' and '-'")
    # Python: the mark in place of the indentation's first column.
    py = "def f():\n    a()\n    b()\n"
    out = merged("a.py", py, "# ... existing code ...\n    a()\n+   c()\n    b()\n")
    assert out == "def f():\n    a()\n    c()\n    b()\n"
    # "+ " with a space, and context written as a unified diff writes it (a space first).
    out = merged("a.py", py, "# ...\n     a()\n+     c()\n-     b()\n")
    assert out == "def f():\n    a()\n    c()\n"


def test_diff_marked_snippet_that_only_adds_is_refused() -> None:
    text = "function f() {\n  a();\n}\n"
    e = refused("a.js", text, "// ... existing code ...\n+  c();\n// ... existing code ...\n")
    assert "only add lines" in str(e)


def test_diff_marked_snippet_never_writes_its_marks() -> None:
    text = "def f():\n    a()\n    b()\n"
    result = apply_ops([Lazy("a.py", "    a()\n-    b()\n+    c()\n")], {"a.py": text})
    assert result.ok and result.texts() == {"a.py": "def f():\n    a()\n    c()\n"}
    assert result.reports[0].tier == "diff"


def test_a_markdown_list_is_not_a_diff() -> None:
    md = "# Notes\n\n- one\n- two\n\n## End\n"
    out = merged("a.md", md, "- one\n- two\n- three\n\n## End\n")
    assert out == "# Notes\n\n- one\n- two\n- three\n\n## End\n"


# --- narration by position --------------------------------------------------------------


def test_comment_above_new_code_documents_it() -> None:
    text = "function f() {\n  a();\n  b();\n}\n"
    snippet = (
        "// ... existing code ...\n"
        "  a();\n"
        "  // Retry once when the call fails\n"
        "  retry();\n"
        "  b();\n"
        "// ... existing code ...\n"
    )
    assert merged("a.js", text, snippet) == (
        "function f() {\n  a();\n  // Retry once when the call fails\n  retry();\n  b();\n}\n"
    )
    py = "def f():\n    a()\n    b()\n"
    snippet = (
        "# ... existing code ...\n"
        "    a()\n"
        "    # Add logging before each retry\n"
        "    log()\n"
        "    b()\n"
    )
    assert merged("a.py", py, snippet) == (
        "def f():\n    a()\n    # Add logging before each retry\n    log()\n    b()\n"
    )


def test_comment_above_unchanged_code_narrates_the_edit() -> None:
    text = "function f() {\n  a();\n  b();\n}\n"
    snippet = (
        "// ... existing code ...\n"
        "  a();\n"
        "  c();\n"
        "  // Update the call below\n"
        "  b();\n"
        "// ... existing code ...\n"
    )
    out, how = merge_lazy("a.js", text, snippet)
    assert out == "function f() {\n  a();\n  c();\n  b();\n}\n"
    assert how.notes == ("left out the narration comment '// Update the call below'",)


def test_label_comment_is_narration_and_changed_comment_is_not() -> None:
    text = "class A {\n  a() {\n    return 1;\n  }\n}\n"
    snippet = (
        "class A {\n"
        "  a() {\n"
        "    return 1;\n"
        "  }\n"
        "\n"
        "  // New method: b\n"
        "  b() {\n"
        "    return 2;\n"
        "  }\n"
        "}\n"
    )
    assert merged("a.ts", text, snippet) == (
        "class A {\n  a() {\n    return 1;\n  }\n\n  b() {\n    return 2;\n  }\n}\n"
    )
    py = "def f():\n    # Use the fast path when it can\n    x = 1\n    return x\n"
    snippet = (
        "def f():\n"
        "    # Use the fast path when it can, else the slow one\n"
        "    x = 1\n"
        "    return x\n"
    )
    assert merged("a.py", py, snippet) == snippet


# --- the rule as a property ------------------------------------------------------------------

NAMES = st.lists(st.from_regex(r"[a-z]{3,8}", fullmatch=True), min_size=3, max_size=8, unique=True)


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(NAMES, st.integers(min_value=1, max_value=3), st.sampled_from(["js", "py"]))
def test_header_and_a_late_line_never_delete_the_lines_between(
    names: list[str], new: int, lang: str
) -> None:
    """A definition shown from its header, with new lines, straight to its last statement
    (no marker) either keeps every line it does not show or is refused."""
    # (indent, statement end, header, closer, path) of each language
    indent, end, header, closer, path = {
        "js": ("  ", ";", "function main() {", "}\n", "a.js"),
        "py": ("    ", "", "def main():", "", "a.py"),
    }[lang]
    body = [f"{indent}call_{n}(){end}" for n in names]
    added = [f"{indent}fresh_{k}(){end}" for k in range(new)]
    text = "\n".join([header, *body]) + "\n" + closer
    snippet = "\n".join([header, *added, body[-1]]) + "\n" + closer
    try:
        out = merged(path, text, snippet)
    except EditError:
        return
    for line in body:
        assert line in out.split("\n")


# --- the language from content (rule 10) -----------------------------------------------------


def test_language_read_from_content_when_the_path_has_no_extension() -> None:
    from applydiff.match.sniff import extension_from_content

    py = (
        "import os\n\n\ndef a():\n    return 1\n\n\ndef b():\n    return 2\n\n\n"
        "class C:\n    pass\n"
    )
    js = (
        "import { x } from './x';\n\nexport function a() {\n  return x;\n}\n\n"
        "export const b = () => {\n  return 2;\n};\n"
    )
    assert extension_from_content(py) == "py"
    assert extension_from_content(js) == "ts"
    assert extension_from_content("just some words\nand more\n") is None
    # Merged as a Python file: by definitions, with a note that says how it was read.
    snippet = "# ... existing code ...\ndef b():\n    return 20\n# ... existing code ...\n"
    assert merge_lazy("a.py", py, snippet)[0] == py.replace("return 2\n", "return 20\n")
    out, how = merge_lazy("Snippetfile", py, snippet)
    assert out == py.replace("return 2\n", "return 20\n")
    assert "read the file as .py from its content" in how.notes
    # And as a JavaScript one: an import from a source the file has extends it.
    out, how = merge_lazy("", js, "import { x, y } from './x';\n// ... existing code ...\n")
    assert out == js.replace("import { x }", "import { x, y }")


def test_a_new_declaration_before_a_definition_is_added_not_a_replacement() -> None:
    ts = "import { a } from './a';\n\n/**\n * Props.\n */\ninterface Props {\n  x: number;\n}\n"
    snippet = "import { a } from './a';\n\nconst LIMIT = 10;\n\n// ... existing code ...\n"
    assert merged("a.ts", ts, snippet) == ts.replace(
        "from './a';\n\n", "from './a';\n\nconst LIMIT = 10;\n\n"
    )
    py = "import os\n\n\n@dataclass\nclass A:\n    x: int = 0\n"
    snippet = "import os\n\nLIMIT = 10\n\n# ... existing code ...\n"
    assert merged("a.py", py, snippet) == py.replace(
        "import os\n\n", "import os\n\nLIMIT = 10\n", 1
    )
    # A statement where the file has another statement stays refused: replaced, or added?
    text = "def f():\n    a()\n    return 1\n"
    e = refused("a.py", text, "def f():\n    a()\n    raise ValueError('no')\n# ...\n")
    assert "stands where file line 3" in str(e)


def test_diff_marked_hunk_with_a_changed_context_line_is_refused() -> None:
    # The model changed a context line without marking it: keep the file's line or write
    # the model's? Two readings, so neither.
    text = 'fn main() {\n    eprintln!(\n        "w={} h={}",\n        w, h\n    );\n}\n'
    snippet = (
        "fn main() {\n    eprintln!(\n"
        '        "w={} h={}{}",\n        w, h,\n+        extra()\n    );\n}\n'
    )
    e = refused("main.rs", text, snippet)
    assert "not the file's as written" in str(e) and "mark every changed line" in str(e)


def test_diff_marked_hunk_with_unevenly_indented_context_is_refused() -> None:
    # One context line at column 0, another two columns right of the file's: how far in
    # the added lines go cannot be read from them (a real one came back 12 columns deep).
    text = (
        "void keys(int k) {\n    switch (k) {\n"
        "        case 1: a(); break;\n        default: break;\n    }\n}\n"
    )
    snippet = (
        "// ...\ncase 1: a(); break;\n+        case 2: b(); break;\n          default: break;\n"
    )
    e = refused("keys.c", text, snippet)
    assert "indented unlike the file's" in str(e)


@pytest.mark.parametrize(
    "path,text,snippet",
    [
        (
            "A.java",
            "class A {\n    int f() {\n        count++;\n        this.count = total;\n"
            "        count++;\n        count++;\n        return count;\n    }\n\n"
            "    int g() {\n        return 1;\n    }\n}\n",
            "        count++;\n        count++;\n        // ...\n    }\n\n"
            "    int add(int v) {\n        return v + 1;\n    }\n\n    int g() {\n        // ...\n",
        ),
        (
            "a.css",
            ".a {\n  color: red;\n}\n\n@media print {\n  .b {\n    display: flex;\n"
            "    margin: 0;\n    display: flex;\n  }\n}\n",
            ".a {\n  color: blue;\n}\n/* ... */\n    display: flex;\n  }\n",
        ),
    ],
)
def test_context_that_may_be_a_deletion_is_refused_by_both_merges(
    path: str, text: str, snippet: str
) -> None:
    # Lines in the file as they are at one place (changing nothing) and around a line at
    # another (deleting it): the merge by definitions must not take them as context.
    e = refused(path, text, snippet)
    assert "may be meant to delete" in str(e)
