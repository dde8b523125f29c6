"""The tool layer: schemas, profiles, dispatch, feedback, and a recorded retry loop."""

from __future__ import annotations

import json
import re

import pytest
from jsonschema import Draft202012Validator

from applydiff import feedback
from applydiff.tools import (
    DIALECTS,
    MODES,
    TEXT_EDITOR,
    ToolLayer,
    describe,
    mode_for,
    parameters_b,
    profile_for,
    tool_definitions,
    tool_names,
)

APP = "def run():\n    return 1\n\n\ndef other():\n    return 2\n"


@pytest.fixture
def layer(tmp_path):
    (tmp_path / "app.py").write_text(APP)
    t = ToolLayer(tmp_path)
    yield t
    t.close()


# -- schemas -----------------------------------------------------------------------------------
def _schema_of(tool: dict, dialect: str) -> tuple[str, str, dict]:
    if dialect == "openai":
        fn = tool["function"]
        return fn["name"], fn["description"], fn["parameters"]
    key = "input_schema" if dialect == "anthropic" else "inputSchema"
    return tool["name"], tool["description"], tool[key]


@pytest.mark.parametrize("dialect", DIALECTS)
@pytest.mark.parametrize("mode", MODES)
def test_every_schema_is_valid_and_every_example_validates(mode, dialect):
    tools = tool_definitions(mode, dialect, text_editor=True)
    assert len(tools) == len(tool_names(mode)) + 1
    for tool in tools:
        name, description, schema = _schema_of(tool, dialect)
        Draft202012Validator.check_schema(schema)
        example = json.loads(description.rsplit("Example: ", 1)[1])
        Draft202012Validator(schema).validate(example)
        assert name in (
            "read_file",
            "write_file",
            "edit_file",
            "diff_edit",
            "apply_diff",
            "apply_patch",
            "status",
            TEXT_EDITOR,
        )


def test_modes_map_to_their_edit_tool():
    assert tool_names("off") == ["read_file", "write_file", "status"]
    assert [describe(k)[0] for k in tool_names("patch")] == [
        "read_file",
        "write_file",
        "apply_patch",
        "status",
    ]
    assert "edits" in describe(tool_names("search_replace_multi")[2])[2]["properties"]
    assert "changes" in describe(tool_names("anchored")[2])[2]["properties"]
    with pytest.raises(ValueError):
        tool_names("klingon")


def test_descriptions_teach_the_rules():
    _, text, _, _ = describe("edit_file:search_replace_multi")
    for fact in ("exactly once", "replace_all", "file_id", "in order", "all or nothing"):
        assert fact in text


def test_examples_from_the_descriptions_run(tmp_path):
    (tmp_path / "src").mkdir()
    for key in (
        "edit_file:search_replace_multi",
        "edit_file:search_replace",
        "edit_file:anchored",
        "diff_edit",
        "apply_diff",
        "apply_patch",
    ):
        (tmp_path / "src" / "app.py").write_text("def run():\n    return 1\n")
        t = ToolLayer(tmp_path)
        t.handle_tool_call("read_file", {"path": "src/app.py"})
        name, _, _, example = describe(key)
        result = t.handle_tool_call(name, example)
        assert not result.is_error, (key, result.text)
        assert "return 2" in (tmp_path / "src" / "app.py").read_text(), key
        t.close()


# -- profiles ------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("model", "size", "profile", "mode"),
    [
        ("qwen2.5-coder:1.5b", 1.5, "nano", "diff_block"),
        ("llama3.2:3b", 3.0, "nano", "diff_block"),
        ("phi-4-mini:3.8b", 3.8, "nano", "diff_block"),
        ("qwen2.5-coder:7b", 7.0, "minimal", "search_replace"),
        ("Qwen/Qwen2.5-Coder-14B-Instruct", 14.0, "minimal", "search_replace"),
        ("deepseek-coder-v2:16b", 16.0, "full", "search_replace_multi"),
        ("Qwen/Qwen2.5-Coder-32B-Instruct", 32.0, "full", "search_replace_multi"),
        ("mixtral:8x7b", 56.0, "full", "search_replace_multi"),
        ("gpt-4o", None, "full", "search_replace_multi"),
        ("claude-sonnet-4", None, "full", "search_replace_multi"),
    ],
)
def test_profiles_from_model_names(model, size, profile, mode):
    assert parameters_b(model) == size
    assert profile_for(model) == profile
    assert mode_for(model=model) == mode


def test_explicit_mode_overrides_the_profile():
    assert mode_for(profile="nano", mode="patch") == "patch"
    assert mode_for(model="qwen2.5-coder:1.5b", mode="anchored") == "anchored"
    with pytest.raises(ValueError):
        mode_for(profile="huge")


# -- dispatch ------------------------------------------------------------------------------------
def test_read_file_numbers_lines_and_gives_the_file_id(layer):
    r = layer.handle_tool_call("read_file", {"path": "app.py"})
    assert not r.is_error
    from applydiff import file_id

    assert (
        r.text.split("\n")[0]
        == f"@file app.py mode=rw status=original file_id={file_id(APP)} lines=6"
    )
    assert r.text.split("\n")[1:3] == ["1| def run():", "2|     return 1"]
    r = layer.handle_tool_call("read_file", '{"path": "app.py", "start_line": 5, "end_line": 6}')
    assert r.text.split("\n")[1:] == ["5| def other():", "6|     return 2"]


def test_edit_before_read_is_refused_with_next_step(layer):
    r = layer.handle_tool_call(
        "edit_file",
        {"edits": [{"path": "app.py", "old_string": "return 1", "new_string": "return 10"}]},
    )
    assert r.is_error and r.result["errors"][0]["code"] == "not_read"
    assert "read_file" in r.text and "[SESSION CONTEXT]" in r.text


def test_successful_edit_reports_tier_and_new_file_id(layer, tmp_path):
    layer.handle_tool_call("read_file", {"path": "app.py"})
    r = layer.handle_tool_call(
        "edit_file",
        {
            "edits": [
                {
                    "path": "app.py",
                    "old_string": "def run():\n  return 1\n",
                    "new_string": "def run():\n  return 10\n",
                }
            ]
        },
    )
    assert not r.is_error, r.text
    from applydiff import file_id

    new = APP.replace("return 1", "return 10")
    assert (tmp_path / "app.py").read_text() == new
    assert "edit 1 on app.py lines 1-2: indentation (confidence 0.97)" in r.text
    assert f"file_id={file_id(new)}" in r.text
    assert r.result["ok"] is True and r.result["files"] == [
        {"path": "app.py", "action": "modified"}
    ]


def test_unknown_tool_and_bad_arguments(layer):
    assert layer.handle_tool_call("rm_rf", {}).is_error
    r = layer.handle_tool_call("read_file", "{not json")
    assert r.is_error and "not valid JSON" in r.text
    assert layer.handle_tool_call("read_file", {}).is_error


def test_text_editor_commands(layer, tmp_path):
    te = TEXT_EDITOR
    r = layer.handle_tool_call(te, {"command": "view", "path": "app.py", "view_range": [2, 2]})
    assert r.text.split("\n")[1:] == ["2|     return 1"]
    assert not layer.handle_tool_call(
        te,
        {"command": "str_replace", "path": "app.py", "old_str": "return 2", "new_str": "return 20"},
    ).is_error
    r = layer.handle_tool_call(
        te, {"command": "insert", "path": "app.py", "insert_line": 0, "insert_text": "import os"}
    )
    assert not r.is_error, r.text
    assert (tmp_path / "app.py").read_text() == "import os\n" + APP.replace("return 2", "return 20")
    assert not layer.handle_tool_call(te, {"command": "undo_edit", "path": "app.py"}).is_error
    assert (tmp_path / "app.py").read_text() == APP.replace("return 2", "return 20")
    assert not layer.handle_tool_call(
        te, {"command": "create", "path": "new.txt", "file_text": "hi\n"}
    ).is_error
    assert (tmp_path / "new.txt").read_text() == "hi\n"
    r = layer.handle_tool_call(
        te, {"command": "insert", "path": "new.txt", "insert_line": 1, "new_str": "there"}
    )
    assert not r.is_error and (tmp_path / "new.txt").read_text() == "hi\nthere\n"
    r = layer.handle_tool_call(
        te, {"command": "insert", "path": "new.txt", "insert_line": 9, "new_str": "x"}
    )
    assert r.is_error and "outside the file" in r.text
    assert layer.handle_tool_call(te, {"command": "undo_edit", "path": "app.py"}).is_error


def test_review_mode_keeps_outputs_pending(tmp_path):
    (tmp_path / "app.py").write_text(APP)
    t = ToolLayer(tmp_path, review=True)
    t.handle_tool_call("read_file", {"path": "app.py"})
    r = t.handle_tool_call(
        "edit_file",
        {"edits": [{"path": "app.py", "old_string": "return 1", "new_string": "return 10"}]},
    )
    assert not r.is_error and r.text.startswith("Kept for review")
    assert (tmp_path / "app.py").read_text() == APP
    seen = t.handle_tool_call("read_file", {"path": "app.py"})
    assert "status=pending_output" in seen.text and "return 10" in seen.text
    assert t.handle_tool_call("status", {}).text == "M  app.py"
    t.close()


# -- session context --------------------------------------------------------------------------
def test_session_context_advice(tmp_path):
    (tmp_path / "big.py").write_text("".join(f"line {i}\n" for i in range(10)))
    (tmp_path / "key.py").write_text("k = 1\n")
    t = ToolLayer(tmp_path, guidance="Keep the public API stable.", max_exchanges=10)
    t.handle_tool_call("read_file", {"path": "big.py"})
    t.handle_tool_call("write_file", {"path": "big.py", "content": "all new\n"})
    for _ in range(3):
        t.handle_tool_call(
            "edit_file",
            {"edits": [{"path": "big.py", "old_string": "absent text here", "new_string": "x"}]},
        )
    t.session.set_keystone("key.py")
    ctx = t.context()
    assert ctx.startswith("[SESSION CONTEXT]") and ctx.endswith("[/SESSION CONTEXT]")
    assert "- big.py: 1 patch(es), 100% changed" in ctx
    assert "Guidance: Keep the public API stable." in ctx
    assert "Health: errors 3, ambiguous matches 0, exchange 4/10" in ctx
    assert "- big.py (100% changed): send the whole file with write_file" in ctx
    assert "- big.py: 3 failed edits in a row: read it again with read_file" in ctx
    assert "- key.py (a keystone file): send the whole file" in ctx
    t.close()


def test_many_patches_advise_a_whole_file(tmp_path):
    (tmp_path / "m.py").write_text("".join(f"v{i} = {i}\n" for i in range(100)))
    t = ToolLayer(tmp_path)
    t.handle_tool_call("read_file", {"path": "m.py"})
    for i in range(8):
        t.handle_tool_call(
            "edit_file",
            {
                "edits": [
                    {"path": "m.py", "old_string": f"v{i} = {i}\n", "new_string": f"v{i} = -{i}\n"}
                ]
            },
        )
    assert "- m.py (8 patches): send the whole file" in t.context()
    t.close()


# -- feedback per error code ---------------------------------------------------------------------
def test_feedback_names_the_next_action_for_every_code():
    from applydiff.errors import CODES

    assert set(feedback.NEXT) == set(CODES)


def test_no_match_feedback_shows_the_closest_region_a_diff_and_the_base(layer):
    layer.handle_tool_call("read_file", {"path": "app.py"})
    r = layer.handle_tool_call(
        "edit_file",
        {
            "edits": [
                {
                    "path": "app.py",
                    "old_string": "def other():\n    retrun 3\n",
                    "new_string": "def other():\n    return 4\n",
                }
            ]
        },
    )
    assert r.is_error
    text = r.text
    assert "no_match" in text and "closest: lines 5-6" in text
    assert "-    retrun 3" in text and "+    return 2" in text
    assert re.search(
        r"@file app\.py mode=rw status=original file_id=[0-9a-f]{8}\n1\| def run", text
    )
    assert "Next:" in text


def test_ambiguous_feedback_lists_lines(tmp_path):
    (tmp_path / "d.py").write_text("x = 1\ny = 2\nx = 1\n")
    t = ToolLayer(tmp_path)
    t.handle_tool_call("read_file", {"path": "d.py"})
    r = t.handle_tool_call(
        "edit_file", {"edits": [{"path": "d.py", "old_string": "x = 1\n", "new_string": "x = 3\n"}]}
    )
    assert "matches at lines 1, 3" in r.text and "replace_all" in r.text
    t.close()


def test_big_files_are_shown_as_excerpts(tmp_path):
    text = "".join(f"value_{i} = compute({i})\n" for i in range(1000))
    (tmp_path / "big.py").write_text(text)
    t = ToolLayer(tmp_path)
    t.handle_tool_call("read_file", {"path": "big.py"})
    r = t.handle_tool_call(
        "edit_file",
        {
            "edits": [
                {
                    "path": "big.py",
                    "old_string": "value_500 = compute(5000)\nvalue_501 = compute(5010)\n",
                    "new_string": "value_500 = 0\n",
                }
            ]
        },
    )
    assert r.is_error
    assert "501| value_500 = compute(500)" in r.text
    assert "(lines 1-" in r.text and "not shown)" in r.text
    assert "10| value_9" not in r.text
    t.close()


# -- a recorded retry loop -----------------------------------------------------------------------
FIRST_RESPONSE = """I'll make run() return a constant from the config.

app.py
```python
<<<<<<< SEARCH
def run():
    return one
=======
def run():
    return CONFIG.answer
>>>>>>> REPLACE
```
"""

# Written from the retry context: the search text copied from the @file block it showed.
SECOND_RESPONSE = """Sorry, the file says `return 1`. Again:

app.py
```python
<<<<<<< SEARCH
def run():
    return 1
=======
def run():
    return CONFIG.answer
>>>>>>> REPLACE
```
"""


def test_recorded_loop_fails_then_applies_from_the_retry_context(tmp_path):
    (tmp_path / "app.py").write_text(APP)
    t = ToolLayer(tmp_path)
    t.handle_tool_call("read_file", {"path": "app.py"})
    first = t.ws.apply(FIRST_RESPONSE)
    assert not first.ok and first.errors[0]["code"] == "no_match"
    context = feedback.report(first, t.ws)
    # The context carries what the second response needed: the real line and where it is.
    assert "closest: lines 1-2" in context
    assert "+    return 1" in context
    assert "1| def run():\n2|     return 1" in context
    assert (tmp_path / "app.py").read_text() == APP
    second = t.ws.apply(SECOND_RESPONSE)
    assert second.ok
    assert (tmp_path / "app.py").read_text() == APP.replace("return 1", "return CONFIG.answer")
    assert t.session.count("exchanges") == 2 and t.session.count("errors") == 1
    t.close()
