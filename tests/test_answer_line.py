"""Errors point at the answer (issue 18, item 4): each op error carries ``answer_line``, the
1-based line of the model's answer where the failed op's block starts, in the JSON and in
the feedback the model reads."""

from __future__ import annotations

from pathlib import Path

from applydiff import Replace, Workspace
from applydiff.feedback import report

ANSWER = """\
Here is the change.

app.py
<<<<<<< SEARCH
x = 1
=======
x = 2
>>>>>>> REPLACE

And a second one:

```diff
--- a/app.py
+++ b/app.py
@@ -2 +2 @@
-y = 9
+y = 3
```
"""


def make(root: Path) -> Workspace:
    (root / "app.py").write_bytes(b"x = 1\ny = 1\n")
    return Workspace(root)


def test_op_errors_carry_the_line_their_block_starts_at(tmp_path):
    ws = make(tmp_path)
    result = ws.apply(ANSWER)
    assert not result.ok
    [e] = result.errors
    assert (e.code, e.index, e.answer_line) == ("no_match", 1, 15)
    d = e.to_dict()
    assert list(d)[:5] == ["code", "index", "answer_line", "path", "message"]
    assert d["answer_line"] == 15
    assert (tmp_path / "app.py").read_bytes() == b"x = 1\ny = 1\n"


def test_first_block_line(tmp_path):
    ws = make(tmp_path)
    result = ws.apply(ANSWER.replace("x = 1\n===", "x = 7\n==="))
    assert [(e.index, e.answer_line) for e in result.errors] == [(0, 4), (1, 15)]


def test_ops_built_in_code_have_no_answer_line(tmp_path):
    ws = make(tmp_path)
    result = ws.apply([Replace("app.py", "nope", "x")])
    [e] = result.errors
    assert e.answer_line is None
    assert "answer_line" not in e.to_dict()
    assert e.to_dict() == {
        "code": "no_match",
        "index": 0,
        "path": "app.py",
        "message": e.message,
        "closest": e.facts["closest"],
    }


def test_feedback_names_the_line(tmp_path):
    ws = make(tmp_path)
    result = ws.apply(ANSWER)
    text = report(result, ws)
    assert "- edit 2 (replace on app.py, line 15 of your response): no_match:" in text
    plain = report(ws.apply([Replace("app.py", "nope", "x")]), ws)
    assert "- edit 1 (replace on app.py): no_match:" in plain


def test_a_file_level_error_names_the_line_of_its_last_edit(tmp_path):
    (tmp_path / "legacy.txt").write_bytes("caf\xe9\n".encode("latin-1"))
    ws = Workspace(tmp_path)
    result = ws.apply(
        "Change:\n\nlegacy.txt\n<<<<<<< SEARCH\ncaf\xe9\n=======\ncaf\u2603\n>>>>>>> REPLACE\n"
    )
    [e] = result.errors
    assert (e.code, e.index, e.answer_line) == ("encoding", 0, 4)
    assert e.to_dict()["answer_line"] == 4
    assert (tmp_path / "legacy.txt").read_bytes() == "caf\xe9\n".encode("latin-1")
