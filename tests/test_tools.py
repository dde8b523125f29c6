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
            "find_files",
            "write_file",
            "edit_file",
            "diff_edit",
            "apply_diff",
            "apply_patch",
            "status",
            TEXT_EDITOR,
        )


def test_modes_map_to_their_edit_tool():
    assert tool_names("off") == ["read_file", "find_files", "write_file", "status"]
    assert [describe(k)[0] for k in tool_names("patch")] == [
        "read_file",
        "find_files",
        "write_file",
        "apply_patch",
        "status",
    ]
    assert "edits" in describe(tool_names("search_replace_multi")[3])[2]["properties"]
    assert "changes" in describe(tool_names("anchored")[3])[2]["properties"]
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
        ("gpt-4o-mini", None, "full", "search_replace_multi"),
        # Sizes in millions, and the effective sizes gemma3n states.
        ("smollm2:360m", 0.36, "nano", "diff_block"),
        ("HuggingFaceTB/SmolLM2-135M-Instruct", 0.135, "nano", "diff_block"),
        ("gemma3n:e2b", 2.0, "nano", "diff_block"),
        ("google/gemma-3n-E4B-it", 4.0, "nano", "diff_block"),
        # Families named without a size: their default tag's size.
        ("tinyllama", 1.1, "nano", "diff_block"),
        ("smollm2", 1.7, "nano", "diff_block"),
        ("phi-2", 2.7, "nano", "diff_block"),
        ("phi3:mini", 3.8, "nano", "diff_block"),
        ("microsoft/Phi-3-mini-4k-instruct", 3.8, "nano", "diff_block"),
        ("phi4-mini", 3.8, "nano", "diff_block"),
        ("phi4", 14.0, "minimal", "search_replace"),
        ("llama3.2", 3.0, "nano", "diff_block"),
        ("llama3.1:latest", 8.0, "minimal", "search_replace"),
        ("llama3.3", None, "full", "search_replace_multi"),
        ("qwen2.5-coder", 7.0, "minimal", "search_replace"),
        ("qwen2.5-coder:latest", 7.0, "minimal", "search_replace"),
        ("gemma3n", 4.0, "nano", "diff_block"),
        ("phi3:medium", 14.0, "minimal", "search_replace"),
        ("llama3.2-vision", 11.0, "minimal", "search_replace"),
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
    # undo_edit takes back the last change to that file, whatever came after in others.
    r = layer.handle_tool_call(te, {"command": "undo_edit", "path": "app.py"})
    assert not r.is_error and r.text == "Undid the last change to app.py: restored."
    assert (tmp_path / "app.py").read_text() == APP
    assert (tmp_path / "new.txt").read_text() == "hi\nthere\n"
    r = layer.handle_tool_call(te, {"command": "undo_edit", "path": "app.py"})
    assert r.is_error and "no change to app.py to undo" in r.text
    assert not layer.handle_tool_call(te, {"command": "undo_edit", "path": "new.txt"}).is_error
    assert (tmp_path / "new.txt").read_text() == "hi\n"
    r = layer.handle_tool_call(te, {"command": "undo_edit", "path": "new.txt"})
    assert r.text == "Undid the last change to new.txt: deleted."
    assert not (tmp_path / "new.txt").exists()


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


def test_a_new_file_gets_no_advice_to_send_it_whole(tmp_path):
    t = ToolLayer(tmp_path)
    t.handle_tool_call("write_file", {"path": "new.py", "content": "a = 1\n"})
    for i in range(9):
        r = t.handle_tool_call(
            "edit_file",
            {
                "edits": [
                    {"path": "new.py", "old_string": f"a = {i + 1}", "new_string": f"a = {i + 2}"}
                ]
            },
        )
        assert not r.is_error, r.text
    ctx = t.context()
    assert "- new.py: 10 patch(es), new file" in ctx
    assert "Advice:" not in ctx
    t.close()


def test_reading_again_resets_the_failure_run(layer):
    layer.handle_tool_call("read_file", {"path": "app.py"})
    for _ in range(3):
        layer.handle_tool_call(
            "edit_file",
            {"edits": [{"path": "app.py", "old_string": "absent text here", "new_string": "x"}]},
        )
    assert "3 failed edits in a row" in layer.context()
    layer.handle_tool_call("read_file", {"path": "app.py"})
    assert "failed edits in a row" not in layer.context()


def test_a_new_layer_is_a_new_conversation(tmp_path):
    (tmp_path / "app.py").write_text(APP)
    first = ToolLayer(tmp_path, review=True)
    first.handle_tool_call("read_file", {"path": "app.py"})
    first.handle_tool_call(
        "edit_file",
        {"edits": [{"path": "app.py", "old_string": "return 1", "new_string": "return 10"}]},
    )
    first.handle_tool_call("read_file", {"path": "other.py"})  # an error, counted
    first.close()
    second = ToolLayer(tmp_path, review=True)
    assert second.session.snapshot("app.py") is None  # it was shown nothing yet
    assert second.session.count("exchanges") == 0
    assert "Modified: none" in second.context()
    assert second.session.pending("app.py") is not None  # the review output stays
    r = second.handle_tool_call(
        "edit_file",
        {"edits": [{"path": "app.py", "old_string": "return 2", "new_string": "return 20"}]},
    )
    assert r.is_error and "not_read" in r.text
    seen = second.handle_tool_call("read_file", {"path": "app.py"})
    assert "status=pending_output" in seen.text and "return 10" in seen.text
    r = second.handle_tool_call(
        "edit_file",
        {"edits": [{"path": "app.py", "old_string": "return 2", "new_string": "return 20"}]},
    )
    assert not r.is_error, r.text
    expected = APP.replace("return 1", "return 10").replace("return 2", "return 20")
    assert second.session.pending("app.py").output == expected
    second.close()


# -- read_file and the text editor's edge cases --------------------------------------------------
def test_read_file_shows_the_whole_requested_range(tmp_path):
    (tmp_path / "long.py").write_text("".join(f"x{i} = {i}\n" for i in range(1, 2501)))
    t = ToolLayer(tmp_path)
    r = t.handle_tool_call("read_file", {"path": "long.py", "start_line": 100, "end_line": 1100})
    lines = r.text.split("\n")
    assert lines[1] == " 100| x100 = 100" and lines[-1] == "1100| x1100 = 1100"
    assert len(lines) == 1 + 1001 and "not shown" not in r.text
    r = t.handle_tool_call("read_file", {"path": "long.py"})
    lines = r.text.split("\n")
    assert lines[2000] == "2000| x2000 = 2000"
    assert lines[-1] == (
        "... (lines 2001-2500 not shown: at most 2000 lines per call; read_file with "
        "start_line=2001 for the next)"
    )
    r = t.handle_tool_call("read_file", {"path": "long.py", "start_line": 2001})
    assert r.text.split("\n")[1] == "2001| x2001 = 2001" and r.text.endswith("2500| x2500 = 2500")
    r = t.handle_tool_call("read_file", {"path": "long.py", "start_line": 3000})
    assert r.is_error and "past the end of long.py (2500 lines)" in r.text
    r = t.handle_tool_call("read_file", {"path": "long.py", "start_line": 9, "end_line": 3})
    assert r.is_error and "the range 9-3 is empty" in r.text
    t.close()


def test_read_file_of_a_file_deleted_in_review(tmp_path):
    (tmp_path / "app.py").write_text(APP)
    t = ToolLayer(tmp_path, review=True)
    t.handle_tool_call("read_file", {"path": "app.py"})
    patch = "*** Begin Patch\n*** Delete File: app.py\n*** End Patch\n"
    assert not t.handle_tool_call("apply_patch", {"input": patch}).is_error
    assert (tmp_path / "app.py").read_text() == APP
    r = t.handle_tool_call("read_file", {"path": "app.py"})
    assert r.is_error and "deleted in the changes pending review" in r.text
    t.close()


def test_undo_edit_in_review_mode_takes_back_the_last_pending_edit(tmp_path):
    (tmp_path / "app.py").write_text(APP)
    t = ToolLayer(tmp_path, review=True)
    te = TEXT_EDITOR
    t.handle_tool_call(te, {"command": "view", "path": "app.py"})
    for old, new in (("return 1", "return 10"), ("return 2", "return 20")):
        args = {"command": "str_replace", "path": "app.py", "old_str": old, "new_str": new}
        assert not t.handle_tool_call(te, args).is_error
    r = t.handle_tool_call(te, {"command": "undo_edit", "path": "app.py"})
    assert r.text == "Undid the last edit of app.py: the output before it is pending review again."
    assert t.session.pending("app.py").output == APP.replace("return 1", "return 10")
    r = t.handle_tool_call(te, {"command": "undo_edit", "path": "app.py"})
    assert (
        r.text == "Undid the last edit of app.py: nothing is pending for it now; it is as on disk."
    )
    assert t.session.pending("app.py") is None and (tmp_path / "app.py").read_text() == APP
    t.close()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ({"command": "undo_edit", "path": "../outside.py"}, "outside the project root"),
        ({"command": "view", "path": "app.py", "view_range": ["1"]}, "view_range must be"),
        ({"command": "view", "path": "app.py", "view_range": [True, 2]}, "view_range must be"),
        ({"command": "view", "path": "app.py", "view_range": [1, 2, 3]}, "view_range must be"),
        ({"command": "view", "path": "app.py", "view_range": [0, 2]}, "lines count from 1"),
        ({"command": "view", "path": "app.py", "view_range": [5, 2]}, "the range 5-2 is empty"),
        ({"command": "view", "path": "app.py", "view_range": [40, -1]}, "past the end"),
        (
            {"command": "insert", "path": "app.py", "insert_line": True, "new_str": "x"},
            "'insert_line' (an integer)",
        ),
        ({"command": "insert", "path": "app.py", "insert_line": 1, "new_str": ""}, "is empty"),
    ],
)
def test_text_editor_refuses_bad_arguments_with_a_reason(layer, tmp_path, args, message):
    layer.handle_tool_call("read_file", {"path": "app.py"})
    r = layer.handle_tool_call(TEXT_EDITOR, args)
    assert r.is_error and message in r.text, r.text
    assert (tmp_path / "app.py").read_text() == APP


def test_text_editor_insert_keeps_blank_lines(layer, tmp_path):
    layer.handle_tool_call("read_file", {"path": "app.py"})
    args = {
        "command": "insert",
        "path": "app.py",
        "insert_line": 2,
        "new_str": "\n\ndef mid():\n    pass\n",
    }
    r = layer.handle_tool_call(TEXT_EDITOR, args)
    assert not r.is_error, r.text
    assert (tmp_path / "app.py").read_text() == (
        "def run():\n    return 1\n\n\ndef mid():\n    pass\n\n\ndef other():\n    return 2\n"
    )


def test_a_conflict_shows_the_file_as_it_is_now_and_the_retry_applies(layer, tmp_path):
    layer.handle_tool_call("read_file", {"path": "app.py"})
    (tmp_path / "app.py").write_text(APP.replace("return 1", "return 11"))  # a person's edit
    edit = {"path": "app.py", "old_string": "return 1\n", "new_string": "return 10\n"}
    r = layer.handle_tool_call("edit_file", {"edits": [edit]})
    assert r.is_error and "conflict: the file changed on disk" in r.text
    assert "merged lines" not in r.text
    assert "2|     return 11" in r.text  # the writable base is the disk now
    edit["old_string"] = "return 11\n"
    r = layer.handle_tool_call("edit_file", {"edits": [edit]})
    assert not r.is_error, r.text
    assert (tmp_path / "app.py").read_text() == APP.replace("return 1", "return 10")


def test_outside_review_a_pending_output_is_named_and_not_offered_as_the_base(tmp_path):
    (tmp_path / "app.py").write_text(APP)
    reviewer = ToolLayer(tmp_path, review=True)
    reviewer.handle_tool_call("read_file", {"path": "app.py"})
    edit = {"path": "app.py", "old_string": "return 1", "new_string": "return 10"}
    assert not reviewer.handle_tool_call("edit_file", {"edits": [edit]}).is_error
    reviewer.close()
    plain = ToolLayer(tmp_path)
    seen = plain.handle_tool_call("read_file", {"path": "app.py"})
    assert "status=original" in seen.text and "pending review" in seen.text
    r = plain.handle_tool_call("edit_file", {"edits": [{**edit, "old_string": "return 2"}]})
    assert r.is_error and "has an output pending review" in r.text
    assert "leave this file until a person accepts, merges or discards" in r.text
    assert "Writable base" not in r.text and "status=pending_output" not in r.text
    plain.close()


def test_undo_edit_refuses_a_change_a_person_made(layer, tmp_path):
    from applydiff.cli import main

    layer.handle_tool_call("read_file", {"path": "app.py"})
    edit = {"path": "app.py", "old_string": "return 1", "new_string": "return 10"}
    assert not layer.handle_tool_call("edit_file", {"edits": [edit]}).is_error
    call = json.dumps({"path": "app.py", "old_string": "return 2", "new_string": "return 20"})
    assert main(["call", "edit_file", "--args", call, "--root", str(tmp_path), "--yes"]) == 0
    r = layer.handle_tool_call(TEXT_EDITOR, {"command": "undo_edit", "path": "app.py"})
    assert r.is_error and r.text == (
        "undo_edit: the last change to app.py was made by a person (applydiff on the command "
        "line), not in this conversation; undo_edit takes back only your own changes"
    )
    assert (tmp_path / "app.py").read_text() == APP.replace("1", "10").replace("2", "20")


@pytest.mark.parametrize("batch", [False, True])
def test_a_number_too_long_to_read_is_format_invalid_not_a_crash(tmp_path, batch):
    layer = ToolLayer(tmp_path)
    arguments = '{"path": "a.txt", "offset": ' + "9" * 5000 + "}"
    got = (
        layer.handle_tool_calls([("read_file", arguments)])[0]
        if batch
        else layer.handle_tool_call("read_file", arguments)
    )
    assert got.is_error
    assert got.text == "read_file: the arguments hold a number too long to read"
    assert got.result["errors"][0]["code"] == "format_invalid"


def test_the_readme_annotations_table_is_the_catalogues():
    from pathlib import Path

    from applydiff.tools.catalogue import ANNOTATIONS

    readme = (Path(__file__).parent.parent / "docs" / "mcp.md").read_text()
    table = readme[readme.index("| tools | readOnlyHint |") :].split("\n\n")[0].split("\n")[2:]
    shown: dict[str, tuple[object, ...]] = {}
    for row in table:
        tools, read_only, destructive, idempotent, _ = row.strip("|").split(" | ")
        hints = tuple(
            {"true": True, "false": False, "–": None}[x]
            for x in (read_only, destructive, idempotent)
        )
        for name in re.findall(r"`(\w+)`", tools):
            shown[name] = hints
    for key, a in ANNOTATIONS.items():
        name = describe(key)[0]
        assert shown[name] == (
            a["readOnlyHint"],
            a.get("destructiveHint"),
            a.get("idempotentHint"),
        ), name
    assert set(shown) == {describe(k)[0] for k in ANNOTATIONS}


@pytest.mark.parametrize("mode", MODES)
def test_the_servers_instructions_name_only_fields_the_modes_tools_have(mode):
    from applydiff.prompts import tool_rules
    from applydiff.tools import SPECS
    from applydiff.tools.advice import properties
    from field_names import field_like

    every = set().union(*(properties(s["schema"]) for s in SPECS.values()))
    offered = set().union(*(properties(t["inputSchema"]) for t in tool_definitions(mode, "mcp")))
    named = field_like(tool_rules("/p", mode=mode), every)
    assert set(named) <= offered, (mode, named)
    assert ("replace_all" in named) == (mode in ("search_replace_multi", "search_replace"))


def test_glob_patterns_as_models_write_them():
    from applydiff.tools.listing import glob_match, human_size

    cases = {
        ("src/app.py", "*.py"): True,
        ("src/app.py", "src/*.py"): True,
        ("src/app.py", "*/app.py"): True,
        ("src/deep/app.py", "src/*.py"): False,
        ("src/deep/app.py", "src/**/*.py"): True,
        ("src/app.py", "src/**/*.py"): True,
        ("src/app.py", "**/*.py"): True,
        ("src/app.ts", "*.{ts,tsx}"): True,
        ("src/app.js", "*.{ts,tsx}"): False,
        ("src/a1.py", "a[0-9].py"): True,
        ("src/ab.py", "a[!0-9].py"): True,
        ("src/deep/x.md", "src/"): True,
        ("docs/x.md", "src/"): False,
        ("app.py", ""): True,
        ("app.py", "./app.py"): True,
        ("app.pyc", "*.py"): False,
    }
    assert {k: glob_match(*k) for k in cases} == cases
    assert [human_size(n) for n in (0, 1023, 1024, 1536, 5 * 1024**3)] == [
        "0 B",
        "1023 B",
        "1.00 KB",
        "1.50 KB",
        "5.00 GB",
    ]
