"""Edits that would change nothing answer `no_change`, not "Applied: 0 file(s)" (issue 14, 11)."""

from __future__ import annotations

import applydiff
from applydiff import Lazy, NoChange, Replace, Workspace


def error_of(ops, files):
    cs = applydiff.apply_ops(ops, files)
    assert not cs.ok
    (err,) = cs.errors
    return err.error


def test_search_equal_to_replacement_is_no_change():
    err = error_of([Replace("a.py", "b = 2\n", "b = 2\n")], {"a.py": "a = 1\nb = 2\n"})
    assert isinstance(err, NoChange)
    assert err.code == "no_change"
    assert "search and replacement texts of this edit of a.py are the same" in err.message


def test_replacement_the_file_already_has_is_no_change():
    # only trailing blanks differ, and the splice keeps the file's bytes for them
    err = error_of([Replace("a.py", "b = 2  \n", "b = 2\n")], {"a.py": "a = 1\nb = 2\n"})
    assert isinstance(err, NoChange)
    assert err.message.startswith("a.py already reads as this edit's replacement at lines 2-2")


def test_lazy_snippet_that_changes_nothing_is_no_change():
    text = "def a():\n    return 1\n\n\ndef b():\n    return 2\n"
    snippet = "# ... existing code ...\ndef b():\n    return 2\n"
    err = error_of([Lazy("a.py", snippet)], {"a.py": text})
    assert isinstance(err, NoChange)
    assert "the snippet, placed in the file, changes nothing" in err.message


def test_a_no_op_beside_a_real_edit_fails_the_response_all_or_none():
    files = {"a.py": "a = 1\nb = 2\n"}
    ops = [Replace("a.py", "a = 1\n", "a = 3\n"), Replace("a.py", "b = 2\n", "b = 2\n")]
    cs = applydiff.apply_ops(ops, files)
    assert [e.index for e in cs.errors] == [1]
    assert cs.errors[0].error.code == "no_change"


def test_workspace_reports_no_change_and_writes_nothing(tmp_path):
    (tmp_path / "a.py").write_bytes(b"a = 1\r\nb = 2\r\n")
    ws = Workspace(tmp_path)
    result = ws.apply("a.py\n<<<<<<< SEARCH\nb = 2\n=======\nb = 2\n>>>>>>> REPLACE\n")
    assert not result.ok
    assert [e["code"] for e in result.errors] == ["no_change"]
    assert (tmp_path / "a.py").read_bytes() == b"a = 1\r\nb = 2\r\n"


# -- a replacement that drops the file's final newline keeps it dropped (issue 14, item 6) --------
def test_a_dropped_final_newline_stays_dropped():
    assert applydiff.replace("a = 1\nb = 2\n", "b = 2\n", "b = 2\nextra()") == (
        "a = 1\nb = 2\nextra()"
    )
    assert applydiff.replace("a = 1\r\nb = 2\r\n", "b = 2\n", "b = 2\nextra()") == (
        "a = 1\r\nb = 2\r\nextra()"
    )


def test_a_dropped_final_newline_through_a_tool_call_and_the_workspace(tmp_path):
    (tmp_path / "a.py").write_bytes(b"a = 1\nb = 2\n")
    call = (
        '{"name": "edit_file", "arguments": {"path": "a.py", "old_string": "b = 2\\n", '
        '"new_string": "b = 2\\nextra()"}}'
    )
    result = Workspace(tmp_path).apply(call)
    assert result.ok, result.errors
    assert (tmp_path / "a.py").read_bytes() == b"a = 1\nb = 2\nextra()"
