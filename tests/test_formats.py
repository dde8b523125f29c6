"""Every edit dialect parses into the same ops; malformed input is a precise error."""

from __future__ import annotations

import json

import pytest

from applydiff import (
    Delete,
    FormatInvalid,
    Move,
    Replace,
    Write,
    WriteConflict,
    apply_ops,
    parse,
)

# -- SEARCH/REPLACE ------------------------------------------------------------------------
AIDER_RESPONSE = """I'll make `greet` take a name and update the caller.

**src/greet.py**
```python
<<<<<<< SEARCH
def greet():
    print("hello")
=======
def greet(name):
    print(f"hello {name}")
>>>>>>> REPLACE
```

Now the call site:

src/main.py:
```python
<<<<<<< SEARCH
greet()
=======
greet("world")
>>>>>>> REPLACE
```

The same file once more, path omitted:

```python
<<<<<<< SEARCH
import sys
=======
import sys
from greet import greet
>>>>>>> REPLACE
```

Run it:

```sh
python src/main.py
```
"""


def test_aider_blocks_with_prose_paths_and_reuse():
    ops = parse(AIDER_RESPONSE)
    assert ops == [
        Replace(
            "src/greet.py",
            'def greet():\n    print("hello")\n',
            'def greet(name):\n    print(f"hello {name}")\n',
            origin=5,
        ),
        Replace("src/main.py", "greet()\n", 'greet("world")\n', origin=18),
        Replace("src/main.py", "import sys\n", "import sys\nfrom greet import greet\n", origin=28),
    ]


@pytest.mark.parametrize(
    "path_line",
    [
        "src/a.py",
        "`src/a.py`",
        "**src/a.py**",
        "# src/a.py",
        "src/a.py:",
        "### `src/a.py`:",
        "File: src/a.py",
        "*src/a.py*",
    ],
)
def test_path_decorations_are_stripped(path_line):
    text = f"{path_line}\n```\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n```\n"
    assert parse(text)[0].path == "src/a.py"


def test_path_as_first_line_inside_the_fence_and_long_fences():
    text = "````python\nsrc/b.py\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n````\n"
    assert parse(text) == [Replace("src/b.py", "a\n", "b\n", origin=3)]


def test_no_fence_and_marker_lengths_5_to_9():
    text = "Makefile\n<<<<< SEARCH\nall:\n=========\nall: build\n>>>>>>>>> REPLACE\n"
    assert parse(text) == [Replace("Makefile", "all:\n", "all: build\n", origin=2)]


def test_empty_search_creates_a_file():
    text = "docs/new.md\n<<<<<<< SEARCH\n=======\n# New\n>>>>>>> REPLACE\n"
    ops = parse(text)
    assert ops == [Replace("docs/new.md", "", "# New\n", origin=2)]
    assert apply_ops(ops, {}).texts() == {"docs/new.md": "# New\n"}
    cs = apply_ops(ops, {"docs/new.md": "exists\n"})
    assert [e.code for e in cs.errors] == ["format_invalid"]


def test_prose_line_above_a_block_is_not_a_path():
    text = "Change the value in the config file:\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n"
    with pytest.raises(FormatInvalid) as e:
        parse(text)
    assert e.value.line == 2 and "names no file" in e.value.message


def test_default_path_for_blocks_without_one():
    ops = parse("<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n", path="x.py")
    assert ops == [Replace("x.py", "a\n", "b\n", origin=1)]


def test_crlf_response_and_unicode():
    text = "é.py\r\n<<<<<<< SEARCH\r\nnom = “x”\r\n=======\r\nnom = “y” — ok\r\n>>>>>>> REPLACE\r\n"
    assert parse(text) == [Replace("é.py", "nom = “x”\n", "nom = “y” — ok\n", origin=2)]


def test_nested_fence_inside_a_block_is_content():
    text = (
        "README.md\n````markdown\n<<<<<<< SEARCH\n```sh\nmake\n```\n=======\n```sh\nmake all\n"
        "```\n>>>>>>> REPLACE\n````\n"
    )
    assert parse(text) == [
        Replace("README.md", "```sh\nmake\n```\n", "```sh\nmake all\n```\n", origin=3)
    ]


@pytest.mark.parametrize(
    ("text", "line", "fragment"),
    [
        ("a.py\n<<<<<<< SEARCH\nx\n=======\ny\n", 2, "never closed"),
        ("a.py\n<<<<<<< SEARCH\nx\n>>>>>>> REPLACE\n", 2, "no '=======' line"),
        (
            "a.py\n<<<<<<< SEARCH\nx\n=======\n<<<<<<< SEARCH\ny\n=======\nz\n>>>>>>> REPLACE\n",
            5,
            "before the block opened at line 2",
        ),
        ("a.py\nx\n=======\ny\n>>>>>>> REPLACE\n", 5, "never opened"),
    ],
)
def test_malformed_search_replace(text, line, fragment):
    with pytest.raises(FormatInvalid) as e:
        parse(text)
    assert e.value.code == "format_invalid"
    assert e.value.line == line
    assert fragment in e.value.message


def test_several_dividers_keep_the_split_that_matches():
    # The replacement adds a reStructuredText heading underlined with "=======".
    text = (
        "doc.rst\n<<<<<<< SEARCH\nIntro text.\n=======\nIntro text.\n\nUsage\n=======\n"
        ">>>>>>> REPLACE\n"
    )
    ops = parse(text)
    assert len(ops) == 1 and len(ops[0].alternatives) == 1
    cs = apply_ops(ops, {"doc.rst": "Title\n\nIntro text.\n"})
    assert cs.ok and cs.texts() == {"doc.rst": "Title\n\nIntro text.\n\nUsage\n=======\n"}


def test_several_dividers_that_all_match_are_refused():
    # A heading in the search text: "Title" alone and "Title\n=======" both match.
    text = "doc.md\n<<<<<<< SEARCH\nTitle\n=======\n=======\nNew title\n=======\n"
    text += ">>>>>>> REPLACE\n"
    cs = apply_ops(parse(text), {"doc.md": "Title\n=======\n\nBody\n"})
    assert [e.code for e in cs.errors] == ["format_invalid"]
    assert "2 of them match" in cs.errors[0].error.message


def test_several_dividers_none_matching_asks_for_escape():
    text = "doc.md\n<<<<<<< SEARCH\na\n=======\nb\n=======\nc\n>>>>>>> REPLACE\n"
    cs = apply_ops(parse(text), {"doc.md": "zzz\n"})
    assert cs.errors[0].code == "format_invalid"
    assert "backslash" in cs.errors[0].error.message


# -- apply_diff dialect ---------------------------------------------------------------------
def test_apply_diff_line_numbers_separator_and_escapes():
    diff = (
        "<<<<<<< SEARCH\n:start_line:12\n:end_line:14\n-------\ndef f():\n\\=======\n"
        "    pass\n=======\ndef f():\n\\>>>>>>> REPLACE\n    return 1\n>>>>>>> REPLACE\n"
    )
    ops = parse(diff, "apply_diff", path="m.py")
    assert ops == [
        Replace(
            "m.py",
            "def f():\n=======\n    pass\n",
            "def f():\n>>>>>>> REPLACE\n    return 1\n",
            hint_line=12,
            hint_is_original=True,
            origin=1,
        )
    ]


def test_apply_diff_through_the_tool_call():
    call = {
        "name": "apply_diff",
        "arguments": {
            "path": "m.py",
            "diff": "<<<<<<< SEARCH\n:start_line:3\n-------\nx = 1\n=======\nx = 2\n"
            ">>>>>>> REPLACE",
        },
    }
    assert parse(json.dumps(call)) == [
        Replace("m.py", "x = 1\n", "x = 2\n", hint_line=3, hint_is_original=True, origin=1)
    ]


def test_dashes_without_line_numbers_are_content_in_plain_blocks():
    text = "n.md\n<<<<<<< SEARCH\n-------\ntext\n=======\n---\ntext\n>>>>>>> REPLACE\n"
    assert parse(text)[0].old == "-------\ntext\n"


# -- patch blocks ---------------------------------------------------------------------------
def test_patch_blocks():
    text = (
        "Updating two files.\n\n>>> file: src/a.py | mode=patch | fuzz=0.9\n--- from\n"
        "x = 1\n--- to\nx = 2\n<\n\n>>> file: src/b.txt | mode=replace\n--- to\nall new\n<\n"
    )
    assert parse(text) == [
        Replace("src/a.py", "x = 1\n", "x = 2\n", threshold=0.9, origin=4),
        Write("src/b.txt", "all new\n", origin=10),
    ]


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        (">>> file: a.py\n--- from\nx\n<\n", "not followed by '--- to'"),
        (">>> file: a.py\n--- from\nx\n--- to\ny\n", "never closed"),
        (">>> file: a.py | fuzz=2\n--- from\nx\n--- to\ny\n<\n", "fuzz="),
        (">>> file: a.py | colour=red\n--- from\nx\n--- to\ny\n<\n", "unknown option"),
        (">>> file: \n--- from\nx\n--- to\ny\n<\n", "names no path"),
    ],
)
def test_malformed_patch_blocks(text, fragment):
    with pytest.raises(FormatInvalid) as e:
        parse(text)
    assert fragment in e.value.message and e.value.line is not None


def test_patch_block_fuzz_reaches_the_engine():
    text = ">>> file: a.py | fuzz=0.99\n--- from\ndef compute_total(items):\n    retrun 0\n--- to\n"
    text += "def compute_total(items):\n    return 1\n<\n"
    src = {"a.py": "def compute_total(items):\n    return 0\n"}
    assert [e.code for e in apply_ops(parse(text), src).errors] == ["no_match"]
    assert apply_ops(parse(text.replace("0.99", "0.8")), src).ok


# -- unified diffs --------------------------------------------------------------------------
UDIFF = """Here is the patch:

```diff
diff --git a/src/calc.py b/src/calc.py
index 3b18e51..a9c2f2d 100644
--- a/src/calc.py
+++ b/src/calc.py
@@ -1,5 +1,5 @@
 def add(a, b):
-    return a - b
+    return a + b

 def mul(a, b):
     return a * b
@@ -20,3 +20,4 @@ def div(a, b):
     if b == 0:
         raise ZeroDivisionError
+    # checked above
     return a / b
--- /dev/null
+++ b/src/new.py
@@ -0,0 +1,2 @@
+x = 1
+y = 2
--- a/old.txt
+++ /dev/null
@@ -1 +0,0 @@
-bye
```
"""


def test_unified_diff_several_files_creation_deletion():
    ops = parse(UDIFF)
    assert ops == [
        Replace(
            "src/calc.py",
            "def add(a, b):\n    return a - b\n\ndef mul(a, b):\n    return a * b\n",
            "def add(a, b):\n    return a + b\n\ndef mul(a, b):\n    return a * b\n",
            hint_line=1,
            origin=8,
        ),
        Replace(
            "src/calc.py",
            "    if b == 0:\n        raise ZeroDivisionError\n    return a / b\n",
            "    if b == 0:\n        raise ZeroDivisionError\n    # checked above\n"
            "    return a / b\n",
            hint_line=20,
            origin=15,
        ),
        Write("src/new.py", "x = 1\ny = 2\n", create=True, origin=20),
        Delete("old.txt", origin=25, shown="bye\n"),
    ]


def test_unified_hunks_without_numbers_and_without_prefixes():
    text = "--- calc.py\n+++ calc.py\n@@ @@\n def f():\n-    return 1\n+    return 2\n"
    assert parse(text) == [
        Replace("calc.py", "def f():\n    return 1\n", "def f():\n    return 2\n", origin=3)
    ]
    text = "--- a/c.py\n+++ b/c.py\n@@ ... @@\n x\n-y\n+z\n"
    assert parse(text)[0].hint_line is None


def test_unified_wrong_numbers_are_only_hints():
    src = {"c.py": "a\nb\nc\nd\n"}
    text = "--- a/c.py\n+++ b/c.py\n@@ -40,2 +40,2 @@\n c\n-d\n+D\n"
    cs = apply_ops(parse(text), src)
    assert cs.ok and cs.texts() == {"c.py": "a\nb\nc\nD\n"}


def test_unified_no_newline_marker():
    text = "--- /dev/null\n+++ b/x.txt\n@@ -0,0 +1 @@\n+last\n\\ No newline at end of file\n"
    assert parse(text) == [Write("x.txt", "last", create=True, origin=1)]


def test_unified_rename():
    text = (
        "diff --git a/old.py b/new.py\nsimilarity index 90%\nrename from old.py\n"
        "rename to new.py\n--- a/old.py\n+++ b/new.py\n@@ -1 +1 @@\n-a\n+b\n"
    )
    assert parse(text) == [
        Replace("old.py", "a\n", "b\n", hint_line=1, origin=7),
        Move("old.py", "new.py", origin=1),
    ]


def test_unified_pure_addition_hunk_is_refused():
    with pytest.raises(FormatInvalid) as e:
        parse("--- a/x.py\n+++ b/x.py\n@@ -3,0 +4,1 @@\n+new line\n")
    assert e.value.line == 3 and "context" in e.value.message


def test_bare_hunk_under_a_path_line():
    text = "src/x.py\n```diff\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n```\n"
    assert parse(text) == [Replace("src/x.py", "a\nb\n", "a\nc\n", hint_line=1, origin=3)]


# -- apply_patch ----------------------------------------------------------------------------
CODEX = """I'll apply the patch.

apply_patch <<'EOF'
*** Begin Patch
*** Add File: docs/notes.md
+# Notes
+
+first
*** Update File: src/app.py
*** Move to: src/main.py
@@ class App:
@@     def run(self):
         self.ready()
-        return 0
+        return self.loop()
*** Update File: src/util.py
@@
 def helper():
-    pass
+    return 42
*** End of File
   *** Delete File: legacy.py
*** End Patch
EOF
"""


def test_apply_patch_sections_scopes_moves():
    ops = parse(CODEX)
    assert ops == [
        Write("docs/notes.md", "# Notes\n\nfirst\n", origin=5, added=True),
        Replace(
            "src/app.py",
            "        self.ready()\n        return 0\n",
            "        self.ready()\n        return self.loop()\n",
            scope=("class App:", "def run(self):"),
            final_newline=True,
            origin=11,
        ),
        Move("src/app.py", "src/main.py", origin=10),
        Replace(
            "src/util.py",
            "def helper():\n    pass\n",
            "def helper():\n    return 42\n",
            at_end=True,
            final_newline=True,
            origin=17,
        ),
        Delete("legacy.py", origin=22),
    ]


def test_apply_patch_crlf():
    text = CODEX.replace("\n", "\r\n")
    assert parse(text) == parse(CODEX)


@pytest.mark.parametrize(
    ("patch", "fragment"),
    [
        ("*** Begin Patch\n*** End Patch\n", "empty"),
        ("*** Begin Patch\n*** Frobnicate File: a\n*** End Patch\n", "unknown header"),
        ("*** Begin Patch\n*** Add File: a\n+x\n", "never closed"),
        ("*** Begin Patch\n*** Update File: a\nno prefix\n*** End Patch\n", "unexpected line"),
        ("*** Begin Patch\n*** Add File: a\nx\n*** End Patch\n", "does not start with '+'"),
        ("*** Begin Patch\n*** Update File: a\n*** End Patch\n", "changes nothing"),
        ("*** Begin Patch\n*** Delete File:\n*** End Patch\n", "names no path"),
    ],
)
def test_malformed_apply_patch(patch, fragment):
    with pytest.raises(FormatInvalid) as e:
        parse(patch)
    assert fragment in e.value.message and e.value.line is not None


# -- tool calls -----------------------------------------------------------------------------
def test_tool_calls_all_schemas():
    calls = [
        {"name": "write_file", "arguments": {"path": "a.txt", "content": "x\n"}},
        {
            "name": "edit_file",
            "arguments": {
                "edits": [
                    {"path": "b.py", "old_string": "1", "new_string": "2", "file_id": "abcd1234"},
                    {"path": "c.py", "old_string": "x", "new_string": "y", "replace_all": True},
                ]
            },
        },
        {
            "type": "function",
            "function": {
                "name": "edit_file",
                "arguments": json.dumps(
                    {"path": "d.py", "old_string": "p", "new_string": "q", "file_id": "00ff00ff"}
                ),
            },
        },
        {
            "type": "tool_use",
            "name": "edit_file",
            "input": {
                "path": "e.py",
                "changes": [
                    {
                        "start": ["def f():"],
                        "end": ["    return 1"],
                        "content": ["def f():", "    return 2"],
                    }
                ],
            },
        },
        {
            "name": "diff_edit",
            "arguments": {
                "path": "f.py",
                "diff": "<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n",
            },
        },
        {
            "name": "apply_patch",
            "arguments": {"input": "*** Begin Patch\n*** Delete File: g.py\n*** End Patch"},
        },
    ]
    from applydiff import Anchored

    assert parse(json.dumps(calls)) == [
        Write("a.txt", "x\n"),
        Replace("b.py", "1", "2", file_id="abcd1234"),
        Replace("c.py", "x", "y", replace_all=True),
        Replace("d.py", "p", "q", file_id="00ff00ff"),
        Anchored("e.py", ("def f():",), ("def f():", "    return 2"), end=("    return 1",)),
        Replace("f.py", "a\n", "b\n", origin=1),
        Delete("g.py", origin=2),
    ]


def test_tool_calls_in_a_json_fence_among_prose():
    call = {"name": "write_file", "arguments": {"path": "a.txt", "content": "x"}}
    text = f"Writing it now.\n```json\n{json.dumps(call, indent=2)}\n```\nDone.\n"
    assert parse(text) == [Write("a.txt", "x")]


def test_openai_message_with_tool_calls():
    msg = {
        "role": "assistant",
        "tool_calls": [
            {
                "id": "1",
                "type": "function",
                "function": {"name": "write_file", "arguments": '{"path": "a", "content": "b"}'},
            }
        ],
    }
    assert parse(json.dumps(msg), "tool_calls") == [Write("a", "b")]


@pytest.mark.parametrize(
    ("call", "fragment"),
    [
        ({"name": "write_file", "arguments": {"path": "a"}}, "missing field 'content'"),
        ({"name": "write_file", "arguments": {"path": 3, "content": ""}}, "'path'"),
        (
            {"name": "edit_file", "arguments": {"path": "a", "edits": [{"old_string": "x"}]}},
            "'edits[0].new_string'",
        ),
        (
            {"name": "edit_file", "arguments": {"edits": [{"old_string": "x", "new_string": "y"}]}},
            "'edits[0].path'",
        ),
        (
            {
                "name": "edit_file",
                "arguments": {
                    "path": "a",
                    "old_string": "x",
                    "new_string": "y",
                    "replace_all": "yes",
                },
            },
            "'replace_all'",
        ),
        (
            {"name": "edit_file", "arguments": {"path": "a", "changes": [{"content": ["x"]}]}},
            "'changes[0].start'",
        ),
        ({"name": "edit_file", "arguments": {"path": "a"}}, "expected 'edits'"),
        ({"name": "edit_file", "arguments": "{not json"}, "not valid JSON"),
        ({"name": "rm_rf", "arguments": {}}, "unknown tool"),
        ({"name": "apply_patch", "arguments": {"input": "hello"}}, "no '*** Begin Patch'"),
    ],
)
def test_tool_call_validation_names_the_field(call, fragment):
    with pytest.raises(FormatInvalid) as e:
        parse(json.dumps(call), "tool_calls")
    assert fragment in e.value.message


# -- auto-detection, order, conflicts -------------------------------------------------------
def test_mixed_response_keeps_block_order():
    text = (
        "First a unified diff:\n--- a/one.py\n+++ b/one.py\n@@ -1 +1 @@\n-1\n+2\n\n"
        "Then a block:\ntwo.py\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n\n"
        "*** Begin Patch\n*** Delete File: three.py\n*** End Patch\n"
        ">>> file: four.py\n--- from\nx\n--- to\ny\n<\n"
    )
    assert [(type(op).__name__, op.path) for op in parse(text)] == [
        ("Replace", "one.py"),
        ("Replace", "two.py"),
        ("Delete", "three.py"),
        ("Replace", "four.py"),
    ]


def test_write_twice_or_write_and_edit_is_write_conflict():
    text = (
        "*** Begin Patch\n*** Add File: a.txt\n+x\n*** Update File: a.txt\n@@\n-x\n+y\n"
        "*** End Patch\n"
    )
    with pytest.raises(WriteConflict) as e:
        parse(text)
    assert e.value.code == "write_conflict" and "line 2" in e.value.message


def test_explicit_format_with_nothing_found():
    with pytest.raises(FormatInvalid) as e:
        parse("just prose", "unified")
    assert "no unified block" in e.value.message


def test_unknown_format_is_a_usage_error():
    with pytest.raises(ValueError):
        parse("x", "klingon")


def test_no_edits_in_prose():
    assert parse("Nothing to change here.\n\n```sh\nls\n```\n") == []


# -- a line number in the wrong section (issue 14, item 4) ---------------------------------------
@pytest.mark.parametrize(
    ("block", "line", "section", "marker"),
    [
        ("b = 2\n=======\n:start_line:2\nb = 3\n", 5, "replacement", ":start_line:2"),
        ("b = 2\n=======\n:start_line: 2\n-------\nb = 3\n", 5, "replacement", ":start_line: 2"),
        ("b = 2\n:end_line:2\n=======\nb = 3\n", 4, "search text", ":end_line:2"),
    ],
)
def test_a_line_number_inside_the_block_is_format_invalid(block, line, section, marker):
    text = f"a.py\n<<<<<<< SEARCH\n{block}>>>>>>> REPLACE\n"
    with pytest.raises(FormatInvalid) as e:
        parse(text)
    assert e.value.line == line
    assert e.value.message == (
        f"line {line} ({marker!r}) stands in the {section} of the block opened at line 2: a "
        "line number belongs on the line right after '<<<<<<< SEARCH' (then a '-------' "
        f"line); if the file really holds this line, escape it with a backslash ('\\{marker}')"
    )


def test_an_escaped_line_number_in_the_replacement_is_content():
    (op,) = parse("a.py\n<<<<<<< SEARCH\nb = 2\n=======\n\\:start_line:2\nb = 3\n>>>>>>> REPLACE\n")
    assert (op.old, op.new, op.hint_line) == ("b = 2\n", ":start_line:2\nb = 3\n", None)


def test_a_line_number_in_the_head_is_still_the_hint():
    (op,) = parse(
        "a.py\n<<<<<<< SEARCH\n:start_line:2\n-------\nb = 2\n=======\nb = 3\n>>>>>>> REPLACE\n"
    )
    assert (op.old, op.new, op.hint_line) == ("b = 2\n", "b = 3\n", 2)


def test_a_start_line_of_zero_is_a_hint_at_the_top():
    (op,) = parse(
        "a.py\n<<<<<<< SEARCH\n:start_line:0\n-------\nb = 2\n=======\nb = 3\n>>>>>>> REPLACE\n"
    )
    assert op.hint_line == 1
