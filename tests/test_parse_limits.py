"""The limits of an answer (issue 28): more characters than MAX_ANSWER_CHARS, or more edits
than MAX_OPS, is ``too_large`` naming the limit, refused before any file is matched or
written; an answer at the limit is read whole. Exact outcomes only: speed is
``benchmarks/adversarial.py``'s to check."""

from __future__ import annotations

import json

import pytest

import applydiff
from applydiff import EditError, Workspace
from applydiff.formats.limits import MAX_ANSWER_CHARS, MAX_OPS


def refusal(text: str) -> EditError:
    with pytest.raises(EditError) as caught:
        applydiff.parse(text)
    return caught.value


def assert_too_many(error: EditError) -> None:
    assert error.code == "too_large"
    assert "more than 10,000 edits, the limit (MAX_OPS)" in error.message


def test_the_limits_are_the_stated_ones():
    assert (MAX_OPS, MAX_ANSWER_CHARS) == (10_000, 32 * 1024 * 1024)


def test_an_answer_past_the_size_limit_is_refused_unread():
    error = refusal("x" * (MAX_ANSWER_CHARS + 1))
    assert error.code == "too_large"
    assert error.message == (
        "the answer holds 33,554,433 characters, over the limit of 33,554,432 "
        "(MAX_ANSWER_CHARS), so it was not read and nothing was applied; send the edits in "
        "smaller answers"
    )


@pytest.mark.slow
def test_an_answer_of_exactly_the_size_limit_is_read():
    block = "a.py\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n"
    prose = "x" * (MAX_ANSWER_CHARS - len(block) - 1) + "\n"
    (op,) = applydiff.parse(prose + block)
    assert (op.path, op.old, op.new, op.origin) == ("a.py", "x\n", "y\n", 3)


SEARCH_BLOCK = "a.py\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n"
HUNK = "@@ -1 +1 @@\n x\n-y\n+z\n"
CHUNK = "@@\n-x\n+y\n"


def search_blocks(n: int) -> str:
    return SEARCH_BLOCK * n


def hunks(n: int) -> str:
    return "--- a/x\n+++ b/x\n" + HUNK * n


def chunks(n: int) -> str:
    return "*** Begin Patch\n*** Update File: a.py\n" + CHUNK * n + "*** End Patch\n"


def patch_files(n: int) -> str:
    return "*** Begin Patch\n" + "*** Delete File: a.py\n" * n + "*** End Patch\n"


def patch_pairs(n: int) -> str:
    return ">>> file: a.py\n" + "--- from\nx\n--- to\ny\n" * n + "<\n"


def tool_edits(n: int) -> str:
    edits = [{"old_string": "x", "new_string": "y"}] * n
    return json.dumps({"name": "edit_file", "arguments": {"path": "a.py", "edits": edits}})


def tool_calls(n: int) -> str:
    arguments = {"path": "a.py", "old_string": "x", "new_string": "y"}
    call = {"name": "edit_file", "arguments": arguments}
    return json.dumps([call] * n)


SHAPES = [search_blocks, hunks, chunks, patch_files, patch_pairs, tool_edits, tool_calls]


@pytest.mark.parametrize("shape", SHAPES)
def test_an_answer_of_the_limit_of_edits_is_read_whole(shape):
    ops = applydiff.parse(shape(MAX_OPS))
    assert len(ops) == MAX_OPS
    assert {op.path for op in ops} in ({"a.py"}, {"x"})


@pytest.mark.parametrize("shape", SHAPES)
def test_one_edit_past_the_limit_is_too_large(shape):
    assert_too_many(refusal(shape(MAX_OPS + 1)))


def test_the_refusal_names_the_block_that_passed_the_limit():
    error = refusal(search_blocks(MAX_OPS + 1))
    # each block is six lines; the 10,001st opens on its second line
    assert "reading stopped at the block at line 60,002" in error.message


def test_many_edits_in_many_blocks_count_together():
    # 6,000 SEARCH/REPLACE blocks and a diff of 4,001 hunks: 10,001 edits in all
    text = search_blocks(6_000) + hunks(4_001)
    assert_too_many(refusal(text))
    assert len(applydiff.parse(search_blocks(6_000) + hunks(4_000))) == MAX_OPS


def test_empty_hunks_are_refused_at_the_first_not_counted():
    error = refusal("--- a/x\n+++ b/x\n" + "@@ -1 +1 @@\n" * (MAX_OPS + 5))
    assert error.code == "format_invalid"
    assert "the hunk at line 3 adds lines but quotes no context" in error.message


def test_a_workspace_writes_nothing_for_an_answer_past_the_limit(tmp_path):
    (tmp_path / "a.py").write_text("x\n")
    result = Workspace(tmp_path).apply(search_blocks(MAX_OPS + 1))
    (error,) = result.errors
    assert (result.ok, error.code) == (False, "too_large")
    assert "the limit (MAX_OPS)" in error.message
    assert (tmp_path / "a.py").read_text() == "x\n"


def test_ops_given_directly_are_bounded_as_an_answers_are(tmp_path):
    from applydiff import Replace, Workspace, apply_ops

    ops = [Replace("a.txt", "x", "y")] * (MAX_OPS + 1)
    cs = apply_ops(ops, {"a.txt": "x\n"})
    assert not cs.ok and cs.changes == []
    [error] = cs.errors
    assert (error.code, error.index) == ("too_large", MAX_OPS)
    assert "more than 10,000 edits, the limit (MAX_OPS)" in error.error.message
    (tmp_path / "a.txt").write_text("x\n")
    result = Workspace(tmp_path).apply(ops)
    assert [e.code for e in result.errors] == ["too_large"]
    assert (tmp_path / "a.txt").read_text() == "x\n"
