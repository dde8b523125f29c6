"""Lazy snippets: changed code with '... existing code ...' lines standing for the rest.

Segment shapes and their exact merges, every refusal (class, code, the facts in its message,
nothing written), the formats that produce a ``Lazy`` op, the engine and workspace end to end,
and a property: a snippet with context on both sides merges exactly or is refused.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from applydiff import (
    Ambiguous,
    EditError,
    FormatInvalid,
    Lazy,
    NoChange,
    NoMatch,
    Replace,
    Workspace,
    Write,
    apply_ops,
    file_id,
    parse,
)
from applydiff.match.lazy import MAX_UNSHOWN_DELETE
from applydiff.match.lazy import merge_snippet as merge

MARK = "# ... existing code ..."

MODULE = """import os
import sys


def load(path):
    print("debug: loading", path)
    with open(path) as f:
        data = f.read()
    return data


def save(path, data):
    with open(path, "w") as f:
        f.write(data)
    return len(data)


def main():
    data = load(sys.argv[1])
    save(sys.argv[2], data)
"""

# load() shown whole but for its debug print: the print goes (issue 26: shown on both sides).
LOAD_WITHOUT_PRINT = "".join(
    f"{x}\n"
    for x in (
        MARK,
        "def load(path):",
        "    with open(path) as f:",
        "        data = f.read()",
        "    return data",
        MARK,
    )
)


def lines(*xs: str) -> str:
    """The text of these lines, each ended by a newline."""
    return "".join(x + "\n" for x in xs)


def refused(text: str, snippet: str, cls: type[EditError]) -> EditError:
    """The error ``merge`` raises (and the text it was given is left as it was)."""
    before = text
    with pytest.raises(cls) as info:
        merge(text, snippet)
    assert text == before
    return info.value


def stats(result) -> tuple[int, int, float, int]:
    return result.start_line, result.end_line, result.confidence, result.segments


# -- segment shapes ----------------------------------------------------------------------------
def test_replacement_inside_a_function_with_head_and_tail():
    snippet = lines(
        MARK,
        "def load(path):",
        '    print("debug: loading", path)',
        "    with open(path) as f:",
        "        data = f.read().strip()",
        "    return data",
        MARK,
    )
    new, result = merge(MODULE, snippet)
    assert new == MODULE.replace("data = f.read()\n", "data = f.read().strip()\n")
    assert stats(result) == (5, 9, 1.0, 1)


def test_insertion_between_head_and_tail():
    snippet = lines(
        MARK,
        "    with open(path) as f:",
        "        data = f.read()",
        '    print("loaded", len(data))',
        "    return data",
        MARK,
    )
    new, result = merge(MODULE, snippet)
    assert new == MODULE.replace(
        "        data = f.read()\n    return data\n",
        '        data = f.read()\n    print("loaded", len(data))\n    return data\n',
    )
    assert stats(result) == (7, 9, 1.0, 1)


def test_insertion_held_by_its_head_only():
    # The new lines sit deeper than the file's next line: an insertion, not a change of it.
    snippet = lines(
        MARK,
        "def save(path, data):",
        "    if not data:",
        '        raise ValueError("nothing to save")',
        MARK,
    )
    new, result = merge(MODULE, snippet)
    assert new == MODULE.replace(
        "def save(path, data):\n",
        'def save(path, data):\n    if not data:\n        raise ValueError("nothing to save")\n',
    )
    assert stats(result) == (12, 12, 1.0, 1)


def test_insertion_held_by_its_tail_only():
    # The file's line above sits left of the new line: it is not what the new line changes.
    snippet = lines(MARK, "    # write it out in one go", '    with open(path, "w") as f:', MARK)
    new, result = merge(MODULE, snippet)
    assert new == MODULE.replace(
        'def save(path, data):\n    with open(path, "w") as f:\n',
        'def save(path, data):\n    # write it out in one go\n    with open(path, "w") as f:\n',
    )
    assert stats(result) == (13, 13, 1.0, 1)


def test_deletion_is_shown_by_the_context_around_it():
    # Issue 26: a definition's header does not bound a deletion (the snippet may show only
    # part of the definition); the line right after it is deleted when the snippet shows
    # the definition's lines on both sides of it.
    snippet = lines(MARK, "def load(path):", "    with open(path) as f:", MARK)
    with pytest.raises(Ambiguous, match="header of its definition"):
        merge(MODULE, snippet)
    shown = MODULE.split('    print("debug: loading", path)\n')[1].split("\n\n")[0]
    snippet = lines(MARK, "def load(path):", *shown.split("\n"), MARK)
    new, _ = merge(MODULE, snippet)
    assert new == MODULE.replace('    print("debug: loading", path)\n', "")


def test_two_segments_keep_the_text_between_them():
    snippet = lines(
        MARK,
        "def load(path):",
        '    print("debug: loading", path)',
        '    with open(path, encoding="utf-8") as f:',
        "        data = f.read()",
        MARK,
        "def save(path, data):",
        '    with open(path, "w", encoding="utf-8") as f:',
        "        f.write(data)",
        MARK,
    )
    new, result = merge(MODULE, snippet)
    assert new == MODULE.replace(
        "    with open(path) as f:", '    with open(path, encoding="utf-8") as f:'
    ).replace('open(path, "w") as f:', 'open(path, "w", encoding="utf-8") as f:')
    assert stats(result) == (5, 14, 1.0, 2)


def test_three_segments_and_the_file_end():
    snippet = lines(
        MARK,
        "import sys",
        "import json",
        MARK,
        "def load(path):",
        '    print("debug: loading", path)',
        '    with open(path, encoding="utf-8") as f:',
        "        data = f.read()",
        MARK,
        "def main():",
        "    data = load(sys.argv[1])",
        "    data = json.loads(data)",
        "    save(sys.argv[2], data)",
    )
    new, result = merge(MODULE, snippet)
    assert new == (
        MODULE.replace("import sys\n", "import sys\nimport json\n")
        .replace("    with open(path) as f:", '    with open(path, encoding="utf-8") as f:')
        .replace("load(sys.argv[1])\n", "load(sys.argv[1])\n    data = json.loads(data)\n")
    )
    assert stats(result) == (2, 20, 1.0, 3)


def test_text_between_segments_is_kept_byte_for_byte():
    text = "top = 0\nalpha = 1\nweird  =\t2   \n\tTAB = 3\r\n   \nomega = 4\nend = 5\nlast = 6\n"
    snippet = lines(
        "top = 0", "alpha = 10", "weird  =\t2", MARK, "omega = 4", "end = 50", "last = 6"
    )
    new, result = merge(text, snippet)
    assert (
        new
        == "top = 0\nalpha = 10\nweird  =\t2   \n\tTAB = 3\r\n   \nomega = 4\nend = 50\nlast = 6\n"
    )
    assert stats(result) == (1, 8, 1.0, 2)


def test_anchor_lines_keep_their_trailing_whitespace():
    text = "a = 1   \nb = 2\t\nc = 3\n"
    new, result = merge(text, lines("a = 1", "b = 2", "b2 = 22", "c = 3"))
    assert new == "a = 1   \nb = 2\t\nb2 = 22\nc = 3\n"
    assert stats(result) == (1, 3, 1.0, 1)


def test_missing_markers_are_read_as_if_present():
    snippet = lines(
        "def save(path, data):", '    with open(path, "wb") as f:', "        f.write(data)"
    )
    new, result = merge(MODULE, snippet)
    assert new == MODULE.replace('open(path, "w")', 'open(path, "wb")')
    assert stats(result) == (12, 14, 1.0, 1)


def test_missing_trailing_marker_leaves_a_one_sided_change_ambiguous():
    snippet = lines(
        MARK, "def main():", "    data = load(sys.argv[1])", "    save(sys.argv[2], data[:10])"
    )
    error = refused(MODULE, snippet, Ambiguous)
    assert error.code == "ambiguous"
    assert "segment 1" in error.message
    assert "looks like a changed copy of file line 20" in error.message
    assert error.lines == [20]


FRONT_MATTER = "---\ntitle: Old\n---\n\n# Heading\n\nBody.\n"


def test_snippet_starting_with_the_first_line_is_anchored_at_the_top():
    # '---' is at lines 1 and 3: without a marker before it, the snippet starts the file.
    new, result = merge(FRONT_MATTER, "---\ntitle: New\n---\n<!-- ... existing content ... -->\n")
    assert new == "---\ntitle: New\n---\n\n# Heading\n\nBody.\n"
    assert stats(result) == (1, 3, 1.0, 1)


def test_head_only_snippet_at_the_top():
    text = "import os\n\nprint(os.sep)\nimport os\n"
    new, result = merge(text, lines("import os", "import re", MARK))
    assert new == "import os\nimport re\n\nprint(os.sep)\nimport os\n"
    assert stats(result) == (1, 1, 1.0, 1)


TWIN_RETURNS = "def a():\n    return compute()\n\n\ndef b():\n    return compute()\n"


def test_snippet_ending_with_the_last_line_is_anchored_at_the_bottom():
    # 'return compute()' is at lines 2 and 6: without a marker after it, the snippet ends the file.
    new, result = merge(TWIN_RETURNS, lines(MARK, '    print("calling b")', "    return compute()"))
    assert new == 'def a():\n    return compute()\n\n\ndef b():\n    print("calling b")\n' + (
        "    return compute()\n"
    )
    assert stats(result) == (6, 6, 1.0, 1)


SHOP = """class Shop:
    def total(self, items):
        result = sum(item.price for item in items)
        return result

    def count(self, items):
        return len(items)
"""


def test_dedented_marker_after_a_changed_last_line_replaces_to_the_block_end():
    snippet = lines(
        MARK,
        "    def total(self, items):",
        "        prices = [item.price for item in items]",
        "        return sum(prices)",
        MARK,
    )
    new, result = merge(SHOP, snippet)
    assert new == SHOP.replace(
        "        result = sum(item.price for item in items)\n        return result\n",
        "        prices = [item.price for item in items]\n        return sum(prices)\n",
    )
    assert stats(result) == (2, 4, 1.0, 1)


def test_marker_at_the_last_lines_level_does_not_say_the_block_ends():
    snippet = lines(
        MARK,
        "    def total(self, items):",
        "        prices = [item.price for item in items]",
        "        return sum(prices)",
        "        " + MARK,
    )
    error = refused(SHOP, snippet, Ambiguous)
    assert "looks like a changed copy of file line 3" in error.message
    assert "one more line of context" in error.message


LOOP = """class Cart:
    def total(self, items):
        result = 0
        for item in items:
            result += item.price
        return result
"""


def test_dedented_marker_ends_the_inner_block():
    snippet = lines(
        "    def total(self, items):",
        "        result = 0",
        "        for item in items:",
        "            result += item.price * item.qty",
        "    " + MARK,
    )
    new, result = merge(LOOP, snippet)
    assert new == LOOP.replace("item.price\n", "item.price * item.qty\n")
    assert stats(result) == (2, 5, 1.0, 1)


def test_one_line_changed_before_a_marker_inside_the_inner_block():
    # Issue 26: the new line is the file's next line changed (same subject, much the same
    # text): models' merged files change it in place, they do not write it twice.
    snippet = lines(
        "    def total(self, items):",
        "        result = 0",
        "        for item in items:",
        "            result += item.price * item.qty",
        "            " + MARK,
    )
    new, _ = merge(LOOP, snippet)
    assert new == LOOP.replace("item.price\n", "item.price * item.qty\n")


def test_a_similar_line_of_another_subject_before_a_marker_stays_ambiguous():
    snippet = lines(
        "    def total(self, items):",
        "        result = 0",
        "        for item in items:",
        "            total += item.price",
        "            " + MARK,
    )
    error = refused(LOOP, snippet, Ambiguous)
    assert "looks like a changed copy of file line 5" in error.message


def test_snippet_indented_less_than_the_file_is_reindented():
    text = "class Shop:\n    def count(self, items):\n        n = len(items)\n        return n\n"
    snippet = lines(MARK, "def count(self, items):", "    n = len(list(items))", "    return n")
    new, result = merge(text, snippet)
    assert new == text.replace("len(items)", "len(list(items))")
    assert stats(result) == (2, 4, 0.95, 1)


def test_loose_anchors_keep_the_file_lines_as_they_are():
    text = "class Shop:\n    def count(self,  items):   \n        return len(items)\n"
    snippet = lines("def count(self, items):", "    items = list(items)", "    return len(items)")
    new, result = merge(text, snippet)
    assert new == (
        "class Shop:\n    def count(self,  items):   \n        items = list(items)\n"
        "        return len(items)\n"
    )
    assert result.confidence == 0.95


JS = """import { api } from "./api";

export function load(id) {
  const url = `/items/${id}`;
  return api.get(url);
}

export function save(item) {
  return api.post("/items", item);
}
"""
CSS = lines(
    "body {",
    "  margin: 0;",
    "}",
    "",
    ".card {",
    "  padding: 4px;",
    "  border: 1px solid gray;",
    "}",
)
HTML = """<html>
  <body>
    <h1>Title</h1>
    <p>Old text</p>
    <footer>f</footer>
  </body>
</html>
"""


@pytest.mark.parametrize(
    ("text", "marker", "body", "old", "new"),
    [
        (
            JS,
            "// ... existing code ...",
            [
                "export function load(id) {",
                "  const url = `/items/${encodeURIComponent(id)}`;",
                "  return api.get(url);",
            ],
            "`/items/${id}`",
            "`/items/${encodeURIComponent(id)}`",
        ),
        (
            MODULE,
            "# ... existing code ...",
            ["def save(path, data):", '    with open(path, "x") as f:', "        f.write(data)"],
            'open(path, "w")',
            'open(path, "x")',
        ),
        (
            HTML,
            "<!-- ... existing code ... -->",
            ["    <h1>Title</h1>", "    <p>New text</p>", "    <footer>f</footer>"],
            "Old text",
            "New text",
        ),
        (
            CSS,
            "/* ... */",
            [".card {", "  padding: 8px;", "  border: 1px solid gray;"],
            "padding: 4px",
            "padding: 8px",
        ),
        (
            JS,
            "...",
            ["export function save(item) {", '  return api.put("/items", item);', "}"],
            "api.post",
            "api.put",
        ),
    ],
    ids=["slash-slash", "hash", "html-comment", "c-comment", "bare-dots"],
)
def test_marker_styles(text, marker, body, old, new):
    snippet = lines(marker, *body, marker)
    merged, result = merge(text, snippet)
    assert merged == text.replace(old, new)
    assert result.segments == 1 and result.confidence == 1.0


STUBS = """class Reader(Protocol):
    def read(self) -> bytes:
        ...

    def close(self) -> None:
        ...
"""


def test_bare_dots_that_are_lines_of_the_file_are_content():
    snippet = lines(
        MARK,
        "    def close(self) -> None:",
        "        ...",
        "",
        "    def flush(self) -> None:",
        "        ...",
    )
    new, result = merge(STUBS, snippet)
    assert new == STUBS + "\n    def flush(self) -> None:\n        ...\n"
    assert stats(result) == (5, 6, 1.0, 1)


def test_doctest_continuation_dots_are_content():
    text = '''def count(xs):
    """Count.

    >>> for x in [1, 2]:
    ...     print(x)
    ...
    1
    2
    """
    return len(xs)
'''
    snippet = lines(
        "def count(xs):",
        '    """Count the items.',
        "",
        "    >>> for x in [1, 2]:",
        "    ...     print(x)",
        "    ...",
        MARK,
    )
    new, result = merge(text, snippet)
    assert new == text.replace('"""Count.', '"""Count the items.')
    assert stats(result) == (1, 6, 1.0, 1)


CRLF = "def f():\r\n    a = 1\r\n    b = 2\r\n    return a + b\r\n"


@pytest.mark.parametrize("eol", ["\n", "\r\n"])
def test_crlf_file_keeps_crlf_on_new_lines(eol):
    snippet = eol.join([MARK, "    a = 1", "    b = 20", "    c = 3", "    return a + b", MARK, ""])
    new, result = merge(CRLF, snippet)
    assert new == "def f():\r\n    a = 1\r\n    b = 20\r\n    c = 3\r\n    return a + b\r\n"
    assert stats(result) == (2, 4, 1.0, 1)


def test_file_without_final_newline_keeps_none():
    text = "def f():\n    a = 1\n    return a"
    new, result = merge(text, lines(MARK, "    a = 1", "    a += 1", "    return a"))
    assert new == "def f():\n    a = 1\n    a += 1\n    return a"
    assert stats(result) == (2, 3, 1.0, 1)


def test_lines_added_after_a_last_line_without_newline():
    text = "def f():\r\n    a = 1\r\n    return a"
    new, _ = merge(text, "def f():\n    a = 1\n    return a\n\n\ndef g():\n    pass\n")
    assert new == "def f():\r\n    a = 1\r\n    return a\r\n\r\n\r\ndef g():\r\n    pass"


def test_changed_line_in_a_file_without_final_newline():
    text = "x = 1\ny = 2\nz = 3"
    new, result = merge(text, "x = 1\ny = 20\nz = 3\n")
    assert new == "x = 1\ny = 20\nz = 3"
    assert stats(result) == (1, 3, 1.0, 1)


def big(steps: int) -> str:
    """A function of ``steps`` call lines."""
    return lines("def big():", *(f"    step_{i}()" for i in range(steps)), "    return done")


def test_deleting_up_to_the_limit_of_unshown_lines():
    text = big(MAX_UNSHOWN_DELETE)
    snippet = lines(MARK, "def big():", "    step_extra()", "    return done", MARK)
    new, result = merge(text, snippet)
    assert new == "def big():\n    step_extra()\n    return done\n"
    assert stats(result) == (1, MAX_UNSHOWN_DELETE + 2, 1.0, 1)


def test_later_segments_are_anchored_below_earlier_ones():
    snippet = lines(
        MARK,
        "def save(path, data):",
        '    with open(path, "a") as f:',
        "        f.write(data)",
        MARK,
        "def load(path):",
        '    print("loading", path)',
        "    with open(path) as f:",
        MARK,
    )
    error = refused(MODULE, snippet, NoMatch)
    assert error.code == "no_match"
    assert "segment 2 (snippet lines 6-8" in error.message
    assert "below line 14" in error.message


# -- refusals ----------------------------------------------------------------------------------
REFUSALS = [
    pytest.param(
        "def a():\n    pass\n\n\ndef b():\n    return 2\n",
        lines(MARK, "def c():", "    return 3", MARK),
        NoMatch,
        ["segment 1 (snippet lines 2-3", "nothing to anchor it on", "one more line of context"],
        None,
        id="no-anchor",
    ),
    pytest.param(
        FRONT_MATTER,
        lines("<!-- ... existing content ... -->", "---", "title: New", "---", MARK),
        Ambiguous,
        [
            "segment 1",
            "first lines are in the file at 2 places",
            "(lines 1, 3)",
            "one more line of context",
        ],
        [1, 3],
        id="ambiguous-head",
    ),
    pytest.param(
        TWIN_RETURNS,
        lines(MARK, '    print("calling b")', "    return compute()", MARK),
        Ambiguous,
        [
            "segment 1",
            "last lines are in the file at 2 places (lines 2, 6)",
            "one more line of context",
        ],
        [2, 6],
        id="ambiguous-tail",
    ),
    pytest.param(
        "function a() {\n  return 1;\n}\n",
        lines("// ... existing code ...", "  console.log('x');", "}", "// ... existing code ..."),
        NoMatch,
        [
            "segment 1",
            "its last lines ('}') are too common to place it by",
            "one more line of context",
        ],
        None,
        id="weak-tail-brace",
    ),
    pytest.param(
        "def a():\n    pass\n\n\ndef b():\n    return 2\n",
        lines(MARK, "    pass", "        extra_call()", MARK),
        NoMatch,
        ["segment 1", "its first lines ('pass') are too common", "one more line of context"],
        None,
        id="weak-head-pass",
    ),
    pytest.param(
        "function a() {\n  if (x) {\n    go();\n  }\n  return 1;\n}\n",
        lines(
            "// ... existing code ...",
            "function a() {",
            "  stop();",
            "}",
            "// ... existing code ...",
        ),
        Ambiguous,
        [
            "segment 1",
            "it would delete lines it does not show",
            "too common",
            "one more line of context",
        ],
        [1],
        id="weak-tail-would-delete",
    ),
    pytest.param(
        "def a():\n    x = 1\n    y = 2\n    return x\n",
        lines(MARK, "    y += 1", "    return x", MARK),
        Ambiguous,
        [
            "segment 1",
            "its new line 'y += 1' looks like a changed copy of file line 3 ('y = 2')",
            "one more line of context",
        ],
        [3],
        id="changed-copy-tail-only",
    ),
    pytest.param(
        "def a():\n    x = 1\n    y = 2\n    return x\n",
        lines("    " + MARK, "    x = 1", "    print(x)", "    " + MARK),
        Ambiguous,
        [
            "segment 1",
            "its new line 'print(x)' stands where file line 3 ('y = 2') is",
            "one more line of context",
        ],
        [3],
        id="same-level-head-only",
    ),
    pytest.param(
        big(MAX_UNSHOWN_DELETE + 1),
        lines(MARK, "def big():", "    step_extra()", "    return done", MARK),
        Ambiguous,
        ["segment 1", "placed at file lines 1-23", "delete 21 lines it does not show"],
        [1],
        id="too-many-unshown-deletions",
    ),
    pytest.param(
        "def a():\n    x = 1\ndef b():\n    y = 2\n",
        lines("    " + MARK, "    x = 1", "    z = 0", "    y = 2", "    " + MARK),
        Ambiguous,
        ["segment 1", "it would delete line 3 ('def b():')", "one more line of context"],
        [2, 3],
        id="deletes-an-outer-line",
    ),
    pytest.param(
        "def a():\n    pass\n",
        lines(MARK, "", "// ... existing code ..."),
        NoMatch,
        ["holds only '... existing code ...' lines"],
        None,
        id="only-markers",
    ),
    pytest.param(
        MODULE,
        lines(MARK, "def save(path, data):", '    with open(path, "w") as f:', MARK),
        NoChange,
        ["changes nothing"],
        None,
        id="no-change",
    ),
    pytest.param(
        "def setup():\n    config = load_configuration(path)\n    return config\n\n\n"
        "def teardown():\n    close()\n    return None\n",
        lines(MARK, "def teardown():", "    config = load_configuration(path)", "    close()")
        + lines("    return None", MARK),
        Ambiguous,
        [
            "segment 1",
            "'config = load_configuration(path)', which the file has at line 2",
            "one more line of context",
        ],
        [6, 2],
        id="distinctive-line-elsewhere",
    ),
    pytest.param(
        "    def total(self, items):\n        for item in items:\n            check(item)\n"
        "            result += item.price\n        for item in items:\n            log(item)\n"
        "        return result\n",
        lines(
            "    def total(self, items):", "        for item in items:", "            check(item)"
        )
        + lines("            result += item.price * 2", "            log(item)", "    " + MARK),
        Ambiguous,
        [
            "segment 1",
            "'log(item)' is in the file at line 6",
            "the marker after it says the segment ends its block at line 4",
            "one more line of context",
        ],
        [6, 4],
        id="dedent-disagrees-with-tail",
    ),
    pytest.param(
        "BEGIN;\nALTER TABLE users ADD COLUMN age INT;\nCOMMIT;\nBEGIN;\nCOMMIT;\n",
        "-- ... existing code ...\nBEGIN;\nCOMMIT;\n-- ... existing code ...\n",
        Ambiguous,
        ["segment 1", "at lines 4-5, so it changes nothing there", "delete lines 2-2"],
        [4, 1],
        id="may-mean-a-deletion-elsewhere",
    ),
]


@pytest.mark.parametrize(("text", "snippet", "cls", "facts", "where"), REFUSALS)
def test_refusals(text, snippet, cls, facts, where):
    error = refused(text, snippet, cls)
    assert error.code == cls.code
    for fact in facts:
        assert fact in error.message
    if cls is Ambiguous:
        assert (error.lines, error.tier) == (where, "lazy")


@pytest.mark.parametrize(("text", "snippet", "cls", "facts", "where"), REFUSALS)
def test_refusals_write_nothing(tmp_path, text, snippet, cls, facts, where):
    data = text.encode()
    (tmp_path / "f.txt").write_bytes(data)
    before = sorted(p.as_posix() for p in tmp_path.rglob("*"))
    result = Workspace(tmp_path).apply([Lazy("f.txt", snippet)])
    assert not result.ok and not result.files
    assert [(e["code"], e["index"], e["path"]) for e in result.errors] == [(cls.code, 0, "f.txt")]
    assert facts[0] in result.errors[0]["message"]
    assert (tmp_path / "f.txt").read_bytes() == data
    assert sorted(p.as_posix() for p in tmp_path.rglob("*")) == before


# -- formats -----------------------------------------------------------------------------------
SNIPPET = lines(MARK, "def run():", "    return 2", MARK)
CALL = {
    "name": "edit_file",
    "arguments": {
        "target_file": "a.py",
        "instructions": "I make run return 2",
        "code_edit": SNIPPET,
    },
}


@pytest.mark.parametrize(
    "text",
    [json.dumps(CALL), json.dumps([CALL]), "```json\n" + json.dumps(CALL) + "\n```\n"],
    ids=["call", "list", "fenced-json"],
)
def test_fast_apply_tool_call_is_a_lazy_op(text):
    assert parse(text) == [Lazy("a.py", SNIPPET, instructions="I make run return 2")]


def test_fast_apply_tool_call_reads_as_tool_calls_but_not_as_lazy_text():
    op = Lazy("a.py", SNIPPET, instructions="I make run return 2")
    assert parse(json.dumps(CALL), format="tool_calls") == [op]
    with pytest.raises(FormatInvalid) as info:
        parse(json.dumps(CALL), format="lazy")
    assert info.value.code == "format_invalid"
    assert "no lazy block found" in info.value.message


def test_fast_apply_tool_call_fields():
    args = {"path": "b.py", "code_edit": "x = 2\n", "file_id": "abc123"}
    assert parse(json.dumps({"name": "edit_file", "arguments": args})) == [
        Lazy("b.py", "x = 2\n", file_id="abc123")
    ]
    with pytest.raises(FormatInvalid) as info:
        parse(json.dumps({"name": "edit_file", "arguments": {"code_edit": "x\n"}}))
    assert "missing field 'target_file'" in info.value.message
    with pytest.raises(FormatInvalid) as info:
        parse(
            json.dumps({"name": "edit_file", "arguments": {"target_file": "b.py", "code_edit": 5}})
        )
    assert "'code_edit'" in info.value.message


def test_chat_snippet_with_the_path_on_the_line_before():
    text = f"Here is the change.\n\nsrc/app.py\n```python\n{SNIPPET}```\n\nDone.\n"
    expected = [Lazy("src/app.py", SNIPPET, origin=4)]
    assert parse(text) == expected
    assert parse(text, format="lazy") == expected


@pytest.mark.parametrize(
    ("info", "path"),
    [
        ("python:src/a.py", "src/a.py"),
        ("python path=src/b.py", "src/b.py"),
        ("src/c.py", "src/c.py"),
    ],
)
def test_chat_snippet_with_the_path_in_the_info_string(info, path):
    assert parse(f"Change:\n\n```{info}\n{SNIPPET}```\n") == [Lazy(path, SNIPPET, origin=3)]


def test_chat_snippet_with_the_path_as_its_first_comment_line():
    body = "// ... existing code ...\nexport const x = 2;\n// ... existing code ...\n"
    assert parse(f"```typescript\n// src/a.ts\n{body}```\n") == [Lazy("src/a.ts", body, origin=1)]


def test_fence_with_markers_but_no_path_is_not_an_edit():
    text = f"For example:\n\n```python\n{SNIPPET}```\n"
    assert parse(text) == []
    with pytest.raises(FormatInvalid):
        parse(text, format="lazy")


def test_fence_with_only_bare_dots_or_no_markers_is_not_lazy():
    assert parse("src/app.py\n```python\n...\ndef run():\n    return 2\n...\n```\n") == []
    assert parse("src/app.py\n```python\ndef run():\n    return 2\n```\n") == []


def test_fence_holding_search_replace_markers_is_not_read_as_lazy():
    text = (
        "src/a.py\n```python\n<<<<<<< SEARCH\n# ... existing code ...\nx = 1\n=======\n"
        "# ... existing code ...\nx = 2\n>>>>>>> REPLACE\n```\n"
    )
    [op] = parse(text)
    assert isinstance(op, Replace)
    assert (op.path, op.old, op.new) == (
        "src/a.py",
        "# ... existing code ...\nx = 1\n",
        "# ... existing code ...\nx = 2\n",
    )
    with pytest.raises(FormatInvalid):
        parse(text, format="lazy")


# -- engine and workspace end to end ----------------------------------------------------------
def put(root: Path, files: dict[str, bytes]) -> None:
    for rel, data in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(data)


def test_workspace_applies_a_lazy_op_byte_for_byte(tmp_path):
    put(tmp_path, {"src/f.py": CRLF.encode()})
    snippet = lines(MARK, "    a = 1", "    b = 20", "    return a + b", MARK)
    result = Workspace(tmp_path).apply([Lazy("src/f.py", snippet, instructions="b is 20")])
    assert result.ok and result.errors == []
    assert result.files == [{"path": "src/f.py", "action": "modified"}]
    assert [(e["tier"], e["confidence"], e["start_line"], e["end_line"]) for e in result.edits] == [
        ("lazy", 1.0, 2, 4)
    ]
    assert (tmp_path / "src/f.py").read_bytes() == (
        b"def f():\r\n    a = 1\r\n    b = 20\r\n    return a + b\r\n"
    )


def test_workspace_applies_a_fast_apply_tool_call(tmp_path):
    put(tmp_path, {"a.py": MODULE.encode()})
    call = {
        "name": "edit_file",
        "arguments": {
            "target_file": "a.py",
            "instructions": "drop the debug print",
            "code_edit": LOAD_WITHOUT_PRINT,
        },
    }
    result = Workspace(tmp_path).apply(json.dumps(call))
    assert result.ok
    assert (tmp_path / "a.py").read_text() == MODULE.replace(
        '    print("debug: loading", path)\n', ""
    )


def test_workspace_applies_a_chat_snippet(tmp_path):
    put(tmp_path, {"src/app.py": b"def run():\n    return 1\n\n\ndef stop():\n    return 0\n"})
    answer = f"I change run.\n\nsrc/app.py\n```python\n{SNIPPET}```\n"
    result = Workspace(tmp_path).apply(answer)
    assert result.ok
    assert (tmp_path / "src/app.py").read_bytes() == (
        b"def run():\n    return 2\n\n\ndef stop():\n    return 0\n"
    )


def test_marker_free_snippet_creates_a_missing_file(tmp_path):
    result = Workspace(tmp_path).apply([Lazy("pkg/new.py", "def g():\n    return 1\n")])
    assert result.ok
    assert result.files == [{"path": "pkg/new.py", "action": "added"}]
    assert [(e["tier"], e["start_line"], e["end_line"]) for e in result.edits] == [("create", 1, 2)]
    assert (tmp_path / "pkg/new.py").read_bytes() == b"def g():\n    return 1\n"


def test_snippet_with_markers_for_a_missing_file_is_refused(tmp_path):
    result = Workspace(tmp_path).apply([Lazy("new.py", lines(MARK, "def g():", "    return 1"))])
    assert not result.ok
    [error] = result.errors
    assert (error["code"], error["path"]) == ("no_match", "new.py")
    assert "does not exist" in error["message"]
    assert "send the whole file to create it" in error["message"]
    assert list(tmp_path.iterdir()) == []


def test_refused_lazy_edit_in_a_multi_file_response_writes_nothing(tmp_path):
    files = {"a.py": MODULE.encode(), "b.py": b"x = 1\ny = 2\n", "c.txt": b"keep\r\n"}
    put(tmp_path, files)
    ops = [
        Replace("b.py", "y = 2", "y = 3"),
        Lazy(
            "a.py",
            LOAD_WITHOUT_PRINT,
        ),
        Write("d.txt", "new\n"),
        Lazy("a.py", lines(MARK, "def nothing():", "    pass", MARK)),
        Lazy("c.txt", "keep\nmore\n"),
    ]
    result = Workspace(tmp_path).apply(ops)
    assert not result.ok and result.files == []
    assert [(e["index"], e["path"], e["code"]) for e in result.errors] == [(3, "a.py", "no_match")]
    assert "segment 1" in result.errors[0]["message"]
    for rel, data in files.items():
        assert (tmp_path / rel).read_bytes() == data
    assert not (tmp_path / "d.txt").exists()


def test_lazy_edits_apply_in_order_within_one_response():
    ops = [
        Lazy("n.py", "a = 1\nb = 2\n"),
        Lazy("n.py", lines("a = 1", "a2 = 15", "b = 2")),
        Lazy("n.py", lines(MARK, "b = 2", "c = 3")),
    ]
    cs = apply_ops(ops, {})
    assert cs.ok
    assert cs.texts() == {"n.py": "a = 1\na2 = 15\nb = 2\nc = 3\n"}
    assert [(r.kind, r.tier, r.start_line, r.end_line) for r in cs.reports] == [
        ("create", None, 1, 2),
        ("lazy", "lazy", 1, 2),
        ("lazy", "lazy", 3, 3),
    ]


def test_lazy_edit_checks_file_id():
    text = "x = 1\ny = 2\n"
    snippet = lines(MARK, "x = 1", "x2 = 0", "y = 2", MARK)
    cs = apply_ops([Lazy("a.py", snippet, file_id=file_id(text))], {"a.py": text})
    assert cs.ok and cs.texts() == {"a.py": "x = 1\nx2 = 0\ny = 2\n"}
    cs = apply_ops([Lazy("a.py", snippet, file_id="deadbeef")], {"a.py": text})
    assert [(e.index, e.code) for e in cs.errors] == [(0, "file_id_mismatch")]
    assert cs.changes == []


# -- property ----------------------------------------------------------------------------------
WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyz_", min_size=1, max_size=8)
CODE_LINE = st.builds(
    lambda indent, word, tail: indent + word + tail,
    st.sampled_from(["", "    ", "        "]),
    WORD,
    st.sampled_from(["", "()", " = 1", ":", "(x)", " {", "}"]),
)


@pytest.mark.slow
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(st.lists(CODE_LINE, min_size=3, max_size=12, unique_by=str.strip), st.data())
def test_one_line_replaced_with_context_on_both_sides_merges_exactly_or_is_refused(rows, data):
    i = data.draw(st.integers(1, len(rows) - 2), label="replaced row")
    keys = {x.strip() for x in rows}
    new = data.draw(CODE_LINE.filter(lambda x: x.strip() not in keys), label="new line")
    marker = data.draw(st.sampled_from([MARK, "    // ... existing code ...", "..."]))
    text = lines(*rows)
    snippet = lines(marker, *rows[max(0, i - 2) : i], new, *rows[i + 1 : i + 3], marker)
    try:
        merged, result = merge(text, snippet)
    except (NoMatch, Ambiguous) as e:
        assert e.code in ("no_match", "ambiguous")
        return
    assert merged == lines(*rows[:i], new, *rows[i + 1 :])
    assert result.segments == 1 and result.start_line <= i + 1 <= result.end_line


# -- found by review: indentation, creation, the top, two readings --------------------------
METHODS = """class A:
    def f(self):
        a = 1
        return a

    def g(self):
        return 2
"""


@pytest.mark.parametrize("shift", [-4, 4], ids=["shallower", "deeper"])
def test_reindent_keeps_relative_indentation(shift):
    def at(level: int, code: str) -> str:
        return " " * (level + shift) + code

    snippet = lines(
        MARK,
        at(8, "return a"),
        "",
        at(4, "def h(self):"),
        at(8, "return 3"),
        "",
        at(4, "def g(self):"),
        MARK,
    )
    new, _ = merge(METHODS, snippet)
    assert new == METHODS.replace(
        "    def g(self):", "    def h(self):\n        return 3\n\n    def g(self):"
    )


def test_tab_indented_snippet_takes_the_files_spaces():
    snippet = lines(MARK, "\tdef f(self):", "\t\ta = 10", "\t\treturn a", MARK)
    new, _ = merge(METHODS, snippet)
    assert new == METHODS.replace("a = 1", "a = 10")


def test_snippet_indented_more_than_the_file_is_reindented():
    text = "class Shop:\n    def count(self, items):\n        n = len(items)\n        return n\n"
    snippet = lines(
        MARK,
        "            def count(self, items):",
        "                n = len(list(items))",
        "                return n",
    )
    new, _ = merge(text, snippet)
    assert new == text.replace("len(items)", "len(list(items))")


def test_new_file_whose_content_has_a_bare_ellipsis_line_is_created():
    content = "from typing import Protocol\n\n\nclass P(Protocol):\n    def read(self) -> bytes:\n"
    content += "        ...\n"
    cs = apply_ops([Lazy("proto.py", content)], {})
    assert cs.errors == []
    assert cs.texts() == {"proto.py": content}


def test_marker_free_snippet_is_anchored_at_the_top_even_if_its_head_runs_longer_below():
    text = "BEGIN;\nALTER TABLE users ADD COLUMN age INT;\nCOMMIT;\nBEGIN;\nCOMMIT;\n"
    try:
        new, _ = merge(text, "BEGIN;\nCOMMIT;\nBEGIN;\nCOMMIT;\n")
    except Ambiguous:
        return  # refusing is safe too; appending is not
    assert new == "BEGIN;\nCOMMIT;\nBEGIN;\nCOMMIT;\n"


def test_longest_head_elsewhere_does_not_override_a_head_and_tail_reading():
    text = """def export(items):
    for item in items:
        log(item)
        check(item)
        save(item)


def audit(items):
    for item in items:
        check(item)
"""
    snippet = lines(
        MARK, "    for item in items:", "        check(item)", "        save(item)", MARK
    )
    try:
        new, _ = merge(text, snippet)
    except Ambiguous:
        return  # refusing the two readings is fine too
    assert new == text.replace("        log(item)\n", "")


# -- second round: readings a dedented marker or a thin anchor must not settle ----------------
def test_column_0_marker_after_a_new_first_line_does_not_replace_the_body():
    # Cursor-style markers sit at column 0: "def f(): <new line> // ..." may mean an added
    # first line, so a body line that does not come back changed is not dropped.
    text = "def f():\n    run()\n\n\ndef g():\n    pass\n"
    error = refused(text, lines(MARK, "def f():", "    log('start')", MARK), Ambiguous)
    assert "stands where file line 2 ('run()') is" in error.message


def test_column_0_marker_after_a_changed_last_line_replaces_it():
    text = "def f():\n    a = 1\n    return a + 1\n\n\ndef g():\n    pass\n"
    snippet = lines(MARK, "def f():", "    a = 1", "    return a + 2", MARK)
    assert merge(text, snippet)[0] == text.replace("a + 1", "a + 2")


def test_a_changed_number_is_a_change_for_the_block_end_reading():
    # The tail "  4" is also in the file 11 lines below: the marker says the block ended.
    text = (
        "Default:\n\n  >>> d.number\n  2\n\nColor:\n\n  >>> d.color\n  'red'\n\n"
        "Square:\n\n  >>> d.squared()\n  4\n\nEnd.\n"
    )
    snippet = lines(MARK, "Default:", "", "  >>> d.number", "  4", MARK)
    error = refused(text, snippet, Ambiguous)
    assert "the marker after it says the segment ends its block" in error.message


def test_a_thin_anchor_does_not_hold_a_deletion_or_a_one_sided_segment():
    text = "x = compute()\nlog(x)\ny\nsave(x)\nz\n"
    error = refused(text, lines(MARK, "x = compute()", "y", MARK), Ambiguous)
    assert "too common to tell" in error.message
    error = refused(text, lines(MARK, "y", "audit(x)", MARK), NoMatch)
    assert "('y')" in error.message and "too common to place it by" in error.message


def test_ambiguous_head_message_names_no_line_0():
    text = "a = 1\nb = 2\na = 1\nb = 3\n"
    error = refused(text, lines(MARK, "a = 1", "c = 0", MARK), Ambiguous)
    assert "at 2 places (lines 1, 3)" in error.message and "below line" not in error.message


def test_an_empty_file_takes_a_marker_free_snippet(tmp_path):
    (tmp_path / "empty.py").write_text("")
    ws = Workspace(tmp_path)
    result = ws.apply([Lazy("empty.py", "x = 1\n")])
    assert result.ok, result.errors
    assert (tmp_path / "empty.py").read_bytes() == b"x = 1\n"
    (tmp_path / "empty2.py").write_text("")
    result = ws.apply([Lazy("empty2.py", "# ... existing code ...\ny = 2\n")])
    assert not result.ok and result.errors[0]["code"] == "no_match"
    assert "the file is empty" in result.errors[0]["message"]
    assert (tmp_path / "empty2.py").read_bytes() == b""


# -- chat text: what is and is not a lazy edit (review findings) --------------------------------
SR_EDIT = "a.py\n```\n<<<<<<< SEARCH\n    return 1\n=======\n    return 2\n>>>>>>> REPLACE\n```\n"


def test_an_example_inside_an_outer_fence_is_not_an_edit():
    answer = (
        SR_EDIT + "\nA README section you can paste:\n\n````markdown\n### settings.py\n\n"
        "```python\nINSTALLED_APPS = [\n    # ... existing code ...\n    'myplugin',\n]\n```\n"
        "````\n"
    )
    assert [(type(op).__name__, op.path) for op in parse(answer)] == [("Replace", "a.py")]


def test_a_placeholder_comment_is_not_a_marker():
    answer = (
        SR_EDIT + "\nUse it like this:\n\n```python\n# example.py\nfrom a import run\n"
        "# ... your code here\nrun()\n```\n"
    )
    assert [type(op).__name__ for op in parse(answer)] == ["Replace"]


def test_a_diff_whose_context_holds_a_marker_stays_a_diff():
    answer = "```diff\n--- a.py\n+++ a.py\n@@\n # ... rest of code\n-x = 1\n+x = 2\n```\n"
    ops = parse(answer)
    assert [type(op).__name__ for op in ops] == ["Replace"]


def test_a_path_after_the_language_in_the_info_string():
    answer = "```python a.py\n# ... existing code ...\ndef run():\n    return 2\n```\n"
    ops = parse(answer)
    assert [(type(op).__name__, op.path) for op in ops] == [("Lazy", "a.py")]


# -- brace languages (a fuzz of JS/Java/C/CSS/HTML snippets): never the wrong place -----------
def merged_or_refused(text: str, snippet: str, expected: str) -> str:
    """'merged' when the merge is exactly ``expected``, 'refused' on an EditError; anything
    else fails the test."""
    try:
        new, _ = merge(text, snippet)
    except EditError:
        return "refused"
    assert new == expected
    return "merged"


JAVA = (
    "class Svc {\n    void a() {\n        log(x);\n    }\n\n    void b() {\n        log(y);\n"
    "    }\n}\n"
)


@pytest.mark.parametrize("marker", ["// ... existing code ...", "    // ... existing code ..."])
def test_a_changed_line_equal_to_a_later_one_never_deletes_the_next_function(marker):
    snippet = lines(marker, "    void a() {", "        log(y);", "    }", marker)
    assert merged_or_refused(JAVA, snippet, JAVA.replace("log(x)", "log(y)")) == "refused"


def test_a_new_blocks_closing_lines_found_lower_are_not_its_tail():
    text = (
        "function f(items) {\n  items.forEach((x) => {\n    try {\n      a(x);\n    } catch (e) {\n"
        "      b(e);\n    }\n    if (y) {\n      c();\n    }\n    try {\n      d();\n"
        "    } catch (e) {}\n  });\n}\n"
    )
    snippet = lines(
        "// ... existing code ...",
        "  items.forEach((x) => {",
        "    if (!x) {",
        "      return;",
        "    }",
        "    try {",
        "// ... existing code ...",
    )
    head = "  items.forEach((x) => {\n"
    expected = text.replace(head, head + "    if (!x) {\n      return;\n    }\n")
    assert merged_or_refused(text, snippet, expected) in ("merged", "refused")


def test_a_one_sided_segment_whose_other_end_is_elsewhere_is_refused():
    css = ".btn {\n  margin: 0;\n  width: 28px;\n}\n\n.card {\n  padding: 8px;\n"
    css += "  font-size: 14px;\n}\n"
    snippet = lines("/* ... */", "  font-size: 14px;", "  width: 28px;", "/* ... */")
    error = refused(css, snippet, Ambiguous)
    assert "'width: 28px;' is in the file at line 3" in error.message


def test_a_new_method_before_the_next_one_takes_its_own_closing_brace():
    cpp = (
        "class Widget {\n public:\n  void foo() {\n#ifdef DEBUG\n    log_foo();\n#endif\n  }\n\n"
        "  void bar() {\n    do_bar();\n  }\n};\n"
    )
    snippet = lines(
        "// ... existing code ...", "  void baz() {", "    do_baz();", "  }", "", "  void bar() {"
    )
    new, _ = merge(cpp, snippet + "// ... existing code ...\n")
    baz = "  void baz() {\n    do_baz();\n  }\n\n"
    assert new == cpp.replace("  void bar() {", baz + "  void bar() {")


def test_inserted_lines_that_leave_a_bracket_open_are_refused():
    js = "function main() {\n  init();\n}\n\nstart();\nmain();\n"
    snippet = lines("// ... existing code ...", "  setup();", "}", "", "main();")
    error = refused(js, snippet, Ambiguous)
    assert "open and close a different number of brackets" in error.message
