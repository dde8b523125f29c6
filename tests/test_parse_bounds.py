"""Parsing is linear in the response (issue 13, items 3, 4, 5 and 8).

Each input below took from seconds to minutes before (unclosed fences: past 60 s at 120 KB;
10,000 '=======' lines: 37 s) or crashed (deeply nested JSON: RecursionError). Each must now
be read within a generous deadline and with the exact outcome. The properties check that the
landmarks the scan jumps between are what a line-by-line reading finds.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import applydiff
from applydiff import FormatInvalid, Replace
from applydiff.cli import main
from applydiff.formats.landmarks import Landmarks
from applydiff.formats.snippet import Nested
from applydiff.ir import Splits
from deadline import deadline

MB = 1_000_000


def repeat(unit: str, size: int, head: str = "", tail: str = "") -> str:
    return head + unit * (size // len(unit)) + tail


def parsed(text: str, format: str = "auto") -> list | FormatInvalid:
    with deadline():
        try:
            return applydiff.parse(text, format)
        except FormatInvalid as e:
            return e


@pytest.mark.slow
@pytest.mark.parametrize(
    "unit",
    [
        "```python\nx\n",  # 48 KB took 13 s
        "```json\nx\n",  # each looked for its closing fence to the end
        "~~~~js\n~~~\n",
        "a.py\n```python\n# ... existing code ...\nx = 1\n",
    ],
)
def test_unclosed_fences_are_read_in_one_pass(unit):
    assert parsed(repeat(unit, MB)) == []


def test_fences_growing_longer_each_line():
    text = "".join("`" * (3 + k % 200) + "py\n" for k in range(20_000))
    assert parsed(text) == []


def test_a_megabyte_of_blank_lines_then_a_block():
    text = "\n" * MB + "a.py\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n"
    (op,) = parsed(text)
    assert (op.path, op.old, op.new, op.origin) == ("a.py", "x\n", "y\n", MB + 2)


def test_ten_thousand_dividers_in_one_block():
    # 37 s before: every split built as text at parse time
    text = repeat("=======\n", 10_000 * 8, "a.py\n<<<<<<< SEARCH\n", ">>>>>>> REPLACE\n")
    (op,) = parsed(text)
    assert (op.old, op.new) == ("", "=======\n" * 9_999)
    assert len(op.alternatives) == 9_999
    assert op.alternatives[-1] == ("=======\n" * 9_999, "")


def test_many_dividers_are_refused_by_the_engine_without_trying_each():
    dividers = "=======\n" * 20_000
    text = f"a.py\n<<<<<<< SEARCH\nx = 1\n{dividers}>>>>>>> REPLACE\n"
    with deadline():
        result = applydiff.apply_ops(applydiff.parse(text), {"a.py": "x = 1\n" * 1000})
    (error,) = result.errors
    assert error.error.code == "format_invalid"
    assert "holds 20000 unescaped '=======' lines" in error.error.message
    assert (
        "splits into search and replace text in 20000 ways, too many to try" in error.error.message
    )


def test_dividers_that_fit_one_way_still_pick_it():
    text = "a.py\n<<<<<<< SEARCH\nA\n=======\nB\n=======\nC\n>>>>>>> REPLACE\n"
    result = applydiff.apply_ops(applydiff.parse(text), {"a.py": "top\nA\nend\n"})
    assert result.texts() == {"a.py": "top\nB\n=======\nC\nend\n"}


@given(st.lists(st.sampled_from(["a", "=======", "", "b c"]), max_size=12))
def test_splits_are_the_cuts_at_each_divider(lines):
    at = [k for k, x in enumerate(lines) if x == "======="]
    body = "".join(x + "\n" for x in lines)
    cuts = [sum(len(x) + 1 for x in lines[:k]) for k in at]
    splits = Splits(body, cuts, "=======\n")
    expected = [
        ("".join(x + "\n" for x in lines[:k]), "".join(x + "\n" for x in lines[k + 1 :]))
        for k in at
    ]
    assert list(splits) == expected
    assert splits == tuple(expected)
    assert list(splits[1:]) == expected[1:]


def test_a_megabyte_of_hunk_headers():
    # 47,619 hunks: past the limit of edits an answer may hold (issue 28), refused once read
    text = repeat("@@ -1 +1 @@\n x\n-y\n+z\n", MB, "--- a/x\n+++ b/x\n")
    with deadline(), pytest.raises(applydiff.EditError) as caught:
        applydiff.parse(text)
    assert caught.value.code == "too_large"
    assert "more than 10,000 edits, the limit (MAX_OPS)" in caught.value.message


def test_empty_hunks_are_refused_at_the_first():
    err = parsed(repeat("@@ -1 +1 @@\n", MB, "--- a/x\n+++ b/x\n"))
    assert isinstance(err, FormatInvalid)
    assert err.line == 3
    assert "quotes no context or removed lines" in err.message


NESTED = [
    '{"name": "edit_file", "arguments": ' + "[" * 100_000,
    '{"name": "edit_file", "arguments": ' + "[" * 5_000 + "]" * 5_000 + "}",
    '{"name": "edit_file", "arguments": "' + "[" * 100_000 + '"}',
    "```json\n" + '{"name": "edit_file", "arguments": ' + "[" * 100_000 + "\n```\n",
]


@pytest.mark.parametrize("text", NESTED, ids=["open", "closed", "in_string", "fenced"])
def test_deeply_nested_json_is_format_invalid(text):
    err = parsed(text)
    assert isinstance(err, FormatInvalid), err
    assert err.code == "format_invalid"
    assert "nested too deeply" in err.message


def test_cli_prints_one_json_object_for_nested_json(tmp_path, capsys):
    answer = tmp_path / "answer.md"
    answer.write_text(NESTED[0])
    assert main(["parse", str(answer), "--json"]) == 1
    out = capsys.readouterr().out
    report = json.loads(out)
    assert report["error"]["code"] == "format_invalid"
    assert out.count("\n") == 1


# The landmarks against a line-by-line reading.

FENCE_LINE = st.builds(
    lambda c, n, info, pad: pad + c * n + info,
    st.sampled_from("`~"),
    st.integers(1, 6),
    st.sampled_from(["", "py", " ", "js x", "`", "~"]),
    st.sampled_from(["", " ", "\t"]),
)
LINE = st.one_of(
    FENCE_LINE,
    st.sampled_from(["", "x", "@@ -1 +1 @@", "--- a/x", "*** Begin Patch", " > q", "diff --git "]),
    st.text(max_size=5),
)


@pytest.mark.slow
@settings(max_examples=300)
@given(st.lists(LINE, max_size=30))
def test_landmarks_are_what_each_line_shows(lines):
    lines = [x.replace("\n", "") for x in lines]
    marks = Landmarks(lines)
    starts = []
    for i, line in enumerate(lines):
        s = line.strip()
        first = line.lstrip()[:1]
        if (first and first in "`~*<>@-") or line.startswith("diff --git "):
            starts.append(i)
        run = len(s) - len(s.lstrip(s[:1])) if s[:1] in ("`", "~") else 0
        expected = None
        if run >= 3:
            for j in range(i + 1, len(lines)):
                t = lines[j].strip()
                if len(t) >= run and t == s[0] * len(t):
                    expected = j
                    break
        assert marks.fence_end(i) == expected
    assert marks.starts == starts
    assert [marks.next_start(i) for i in range(len(lines))] == [
        min([j for j in starts if j >= i], default=len(lines)) for i in range(len(lines))
    ]


@pytest.mark.slow
@settings(max_examples=300)
@given(st.lists(LINE, max_size=30))
def test_nested_lines_are_inside_top_level_fences(lines):
    lines = [x.replace("\n", "") for x in lines]
    marks = Landmarks(lines)
    inside: set[int] = set()
    i = 0
    while i < len(lines):
        end = marks.fence_end(i)
        if end is None:
            i += 1
            continue
        inside.update(range(i + 1, end))
        i = end + 1
    nested = Nested(lines, marks)
    assert {i for i in range(len(lines)) if i in nested} == inside


def test_a_block_after_an_unclosed_fence_is_still_read():
    text = "```python\nnot closed\n\nb.py\n<<<<<<< SEARCH\nold\n=======\nnew\n>>>>>>> REPLACE\n"
    (op,) = parsed(text)
    assert op == Replace("b.py", "old\n", "new\n", origin=5)


def test_a_json_call_shown_inside_a_markdown_example_is_not_applied():
    call = '{"name": "write_file", "arguments": {"path": "a.py", "content": "x"}}'
    assert parsed(f"````markdown\n```json\n{call}\n```\n````\n") == []
    (op,) = parsed(f"```json\n{call}\n```\n")
    assert (op.path, op.content) == ("a.py", "x")
