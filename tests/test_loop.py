"""The edit loop and the chat client, end to end against a loopback model endpoint."""

from __future__ import annotations

import json
import re
import socket

import pytest

from applydiff import Workspace
from applydiff.cli import main
from applydiff.llm import ChatClient, LLMError, Retry
from applydiff.loop import EditLoop
from applydiff.prompts import TEXT_MODES, text_instructions
from applydiff.tools import tool_names
from fake_model import FakeModel, last_tool_text, text_answer, tool_answer

APP = "def run():\n    return 1\n\n\ndef other():\n    return 2\n"
DONE = APP.replace("return 1", "return 10")

GOOD = {
    "search_replace_multi": (
        "edit_file",
        {
            "edits": [
                {"path": "app.py", "old_string": "    return 1\n", "new_string": "    return 10\n"}
            ]
        },
    ),
    "search_replace": (
        "edit_file",
        {"path": "app.py", "old_string": "return 1", "new_string": "return 10"},
    ),
    "anchored": (
        "edit_file",
        {
            "path": "app.py",
            "changes": [
                {
                    "start": ["def run():"],
                    "end": ["    return 1"],
                    "content": ["def run():", "    return 10"],
                }
            ],
        },
    ),
    "diff_block": (
        "diff_edit",
        {
            "path": "app.py",
            "diff": "<<<<<<< SEARCH\n    return 1\n=======\n    return 10\n>>>>>>> REPLACE\n",
        },
    ),
    "apply_diff": (
        "apply_diff",
        {
            "path": "app.py",
            "diff": "<<<<<<< SEARCH\n:start_line:2\n-------\n    return 1\n=======\n"
            "    return 10\n>>>>>>> REPLACE\n",
        },
    ),
    "patch": (
        "apply_patch",
        {
            "input": "*** Begin Patch\n*** Update File: app.py\n@@ def run():\n-    return 1\n"
            "+    return 10\n*** End Patch\n"
        },
    ),
    "off": ("write_file", {"path": "app.py", "content": DONE}),
}

TEXT = {
    "text:search_replace": "Here:\n\napp.py\n```\n<<<<<<< SEARCH\n    return 1\n=======\n"
    "    return 10\n>>>>>>> REPLACE\n```\n",
    "text:udiff": "```diff\n--- a/app.py\n+++ b/app.py\n@@ def run():\n def run():\n-    return 1\n"
    "+    return 10\n```\n",
    "text:apply_patch": "*** Begin Patch\n*** Update File: app.py\n-    return 1\n+    return 10\n"
    "*** End Patch\n",
    "text:lazy": "Done:\n\napp.py\n```python\ndef run():\n    return 10\n\n\ndef other():\n"
    "# ... existing code ...\n```\n",
}


@pytest.fixture
def model():
    m = FakeModel()
    yield m
    m.close()


@pytest.fixture
def tree(tmp_path):
    (tmp_path / "app.py").write_text(APP)
    (tmp_path / "util.py").write_text("X = 1\n")
    return tmp_path


def client(model: FakeModel, **kw) -> ChatClient:
    slept: list[float] = []
    c = ChatClient(model.url, "fake-7b", api_key="k", sleep=slept.append, **kw)
    c.slept = slept  # type: ignore[attr-defined]
    return c


@pytest.mark.parametrize("mode", list(GOOD))
def test_a_good_tool_call_in_each_mode(model, tree, mode):
    model.script = [tool_answer(GOOD[mode]), text_answer("Changed run to return 10.")]
    with EditLoop(tree, client(model), mode=mode) as loop:
        result = loop.run("Make run return 10")
    assert (tree / "app.py").read_text() == DONE
    assert (result.ok, result.stop, result.requests, result.retries) == (True, "done", 2, 0)
    assert [x.ok for x in result.exchanges] == [True]
    assert result.exchanges[0].files == [{"path": "app.py", "action": "modified"}]
    assert result.usage == {"prompt_tokens": 150, "completion_tokens": 15, "total_tokens": 165}
    assert result.answer == "Changed run to return 10."
    first, second = model.requests
    assert model.paths == ["/v1/chat/completions"] * 2
    assert model.headers[0]["Authorization"] == "Bearer k"
    assert first["model"] == "fake-7b" and first["temperature"] == 0.0
    assert [t["function"]["name"] for t in first["tools"]] == [
        n.split(":")[0] for n in tool_names(mode)
    ]
    system, user = first["messages"]
    assert system["role"] == "system" and "match one place only" in system["content"]
    assert user["content"].startswith("Task: Make run return 10\n\nThe files, as read_file shows")
    assert re.search(
        r"@file app\.py mode=rw status=original file_id=\w{8} lines=6", user["content"]
    )
    assert "@file util.py" in user["content"] and "[SESSION CONTEXT]" in user["content"]
    # The second request carries the model's call and the tool layer's answer to it.
    assistant, tool = second["messages"][2:]
    assert assistant["tool_calls"][0]["function"]["name"] == GOOD[mode][0]
    assert tool["role"] == "tool" and tool["tool_call_id"] == "call_0"
    assert tool["content"].startswith("Applied: 1 file(s), 1 edit(s).")


@pytest.mark.parametrize("mode", list(TEXT))
def test_text_modes_read_edits_from_the_answer(model, tree, mode):
    model.script = [text_answer(TEXT[mode]), text_answer("All done.")]
    with EditLoop(tree, client(model), mode=mode) as loop:
        result = loop.run("Make run return 10")
    assert (tree / "app.py").read_text() == DONE
    assert (result.ok, result.stop, [x.channel for x in result.exchanges]) == (
        True,
        "done",
        ["text"],
    )
    first, second = model.requests
    assert "tools" not in first
    assert "Format:" in first["messages"][0]["content"]
    feedback = second["messages"][-1]
    assert feedback["role"] == "user" and feedback["content"].startswith("Applied: 1 file(s)")
    assert feedback["content"].endswith("answer without edits when it is done.")


def test_a_malformed_answer_gets_feedback_and_the_retry_applies(model, tree):
    broken = "app.py\n```\n<<<<<<< SEARCH\n    return 1\n=======\n    return 10\n```\n"
    model.script = [
        text_answer(broken),
        text_answer(TEXT["text:search_replace"]),
        text_answer("ok"),
    ]
    with EditLoop(tree, client(model), mode="text:search_replace") as loop:
        result = loop.run("Make run return 10")
    assert [x.ok for x in result.exchanges] == [False, True] and result.ok
    assert result.exchanges[0].errors[0]["code"] == "format_invalid"
    feedback = last_tool_text(model.requests[1])
    assert feedback.startswith("Nothing was written")
    assert "format_invalid" in feedback and "REPLACE" in feedback
    assert (tree / "app.py").read_text() == DONE


def test_malformed_tool_arguments_are_an_exchange_with_feedback(model, tree):
    bad = tool_answer(("edit_file", {"edits": [{"path": "app.py", "old_string": "return 1"}]}))
    model.script = [bad, tool_answer(GOOD["search_replace_multi"]), text_answer("done")]
    with EditLoop(tree, client(model)) as loop:
        result = loop.run("Make run return 10")
    assert [x.ok for x in result.exchanges] == [False, True]
    assert result.exchanges[0].errors[0]["code"] == "format_invalid"
    assert "new_string" in last_tool_text(model.requests[1])
    assert (tree / "app.py").read_text() == DONE


def test_no_match_then_a_correction_written_from_the_retry_context(model, tree):
    wrong = {"path": "app.py", "old_string": "def run():\n    return one\n", "new_string": "x"}

    def corrected(body):
        # A model that reads the feedback: the writable base's lines and its file_id.
        feedback = last_tool_text(body)
        assert "no_match" in feedback and "closest: lines 1-2" in feedback
        file_id = re.search(r"@file app\.py mode=rw status=original file_id=(\w+)", feedback)[1]
        lines = [m[1] for m in re.finditer(r"^\s*\d+\| (.*)$", feedback, re.M)]
        assert lines[:2] == ["def run():", "    return 1"]
        old = "\n".join(lines[:2]) + "\n"
        edit = {"path": "app.py", "old_string": old, "new_string": old.replace("1", "10")}
        return tool_answer(("edit_file", {"edits": [{**edit, "file_id": file_id}]}))

    model.script = [tool_answer(("edit_file", {"edits": [wrong]})), corrected, text_answer("ok")]
    with EditLoop(tree, client(model)) as loop:
        result = loop.run("Make run return 10")
    assert [x.ok for x in result.exchanges] == [False, True] and result.ok
    assert result.exchanges[0].errors[0]["code"] == "no_match"
    assert result.retries == 1 and result.edit_errors == 1
    assert (tree / "app.py").read_text() == DONE


def test_rate_limit_then_success(model, tree):
    model.script = [
        (429, {"error": {"message": "slow down"}}, {"Retry-After": "0"}),
        (503, {"error": "busy"}, {}),
        tool_answer(GOOD["search_replace"]),
        text_answer("done"),
    ]
    c = client(model, backoff=0.5)
    with EditLoop(tree, c, mode="search_replace") as loop:
        result = loop.run("Make run return 10")
    assert result.ok and result.requests == 2 and len(model.requests) == 4
    assert c.slept == [0.0, 1.0]  # Retry-After, then the backoff of the second attempt
    assert (tree / "app.py").read_text() == DONE


def test_each_retry_is_told_as_it_starts(model):
    model.script = [
        (429, {"error": {"message": "slow down"}}, {"Retry-After": "2"}),
        (503, {"error": "busy"}, {}),
        text_answer("hi"),
    ]
    told: list[Retry] = []
    c = client(model, backoff=0.5, on_retry=told.append)
    assert c.chat([{"role": "user", "content": "hi"}]).content == "hi"
    assert told == [
        Retry(1, 4, 2.0, "HTTP 429: slow down"),
        Retry(2, 4, 1.0, "HTTP 503: busy"),
    ]
    assert c.slept == [2.0, 1.0]


def test_a_refused_connection_is_not_retried():
    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    slept: list[float] = []
    told: list[Retry] = []
    gone = ChatClient(f"http://127.0.0.1:{port}/v1", "m", sleep=slept.append, on_retry=told.append)
    with pytest.raises(LLMError) as e:
        gone.chat([{"role": "user", "content": "hi"}])
    assert str(e.value) == (
        f"cannot reach http://127.0.0.1:{port}/v1/chat/completions: connection refused"
    )
    assert e.value.status is None and slept == [] and told == []


def test_endpoint_failures_are_llm_errors(model, tree):
    model.script = [(500, {"error": "down"}, {})] * 3
    with pytest.raises(LLMError) as e:
        client(model, retries=2).chat([{"role": "user", "content": "hi"}])
    assert e.value.status == 500 and "HTTP 500: down" in str(e.value)
    model.script = [(401, {"error": {"message": "bad key"}}, {})]
    with pytest.raises(LLMError) as e:
        client(model).chat([{"role": "user", "content": "hi"}])
    assert e.value.status == 401 and "bad key" in str(e.value)
    model.script = [{"choices": []}]
    with pytest.raises(LLMError, match="no choices"):
        client(model).chat([{"role": "user", "content": "hi"}])
    gone = ChatClient("http://127.0.0.1:9/v1", "m", retries=1, sleep=lambda s: None, timeout=2)
    with pytest.raises(LLMError) as e:
        gone.chat([{"role": "user", "content": "hi"}])
    assert e.value.status is None and "cannot reach" in str(e.value)


def test_the_loop_stops_after_max_exchanges_with_nothing_written(model, tree):
    wrong = ("edit_file", {"edits": [{"path": "app.py", "old_string": "nope", "new_string": "x"}]})
    model.script = [tool_answer(wrong)] * 5
    with EditLoop(tree, client(model), max_exchanges=2) as loop:
        result = loop.run("Make run return 10")
    assert (result.ok, result.stop, len(result.exchanges)) == (False, "max_exchanges", 2)
    assert (tree / "app.py").read_text() == APP
    assert "exchange 2/2" in last_tool_text(model.requests[-1]) or len(model.requests) == 2


def test_reads_do_not_count_as_exchanges(model, tree):
    model.script = [
        tool_answer(("read_file", {"path": "util.py"})),
        tool_answer(("read_file", {"path": "app.py"}), GOOD["search_replace_multi"]),
        text_answer("done"),
    ]
    with EditLoop(tree, client(model), files=["app.py"]) as loop:
        result = loop.run("Make run return 10")
    assert result.ok and len(result.exchanges) == 1 and result.requests == 3
    first = model.requests[0]["messages"][1]["content"]
    assert "@file util.py" not in first and "Other files in the project" in first
    assert "util.py" in first
    assert "X = 1" in last_tool_text(model.requests[1])


def test_several_edit_calls_of_one_message_apply_all_or_none(model, tree):
    good = (
        "edit_file",
        {"edits": [{"path": "util.py", "old_string": "X = 1", "new_string": "X = 2"}]},
    )
    bad = ("edit_file", {"edits": [{"path": "app.py", "old_string": "nope", "new_string": "x"}]})
    model.script = [
        tool_answer(good, bad),
        tool_answer(good, GOOD["search_replace_multi"]),
        text_answer("ok"),
    ]
    with EditLoop(tree, client(model)) as loop:
        result = loop.run("Change both")
    assert [x.ok for x in result.exchanges] == [False, True]
    tool_messages = [m for m in model.requests[1]["messages"] if m["role"] == "tool"]
    assert tool_messages[0]["content"].startswith("Nothing was written")
    assert "applied together with the other edit calls" in tool_messages[1]["content"]
    assert (tree / "util.py").read_text() == "X = 2\n" and (tree / "app.py").read_text() == DONE


def test_the_edit_command(model, tree, capsys):
    model.script = [tool_answer(GOOD["search_replace_multi"]), text_answer("Done: run returns 10.")]
    code = main(
        [
            "edit",
            "Make run return 10",
            "--endpoint",
            model.url,
            "--model",
            "big-model",
            "--root",
            str(tree),
            "--json",
            "--yes",
        ]
    )
    out, err = capsys.readouterr()
    assert code == 0 and (tree / "app.py").read_text() == DONE
    result = json.loads(out)
    assert result["mode"] == "search_replace_multi" and result["ok"] and result["stop"] == "done"
    assert result["exchanges"][0]["files"] == [{"path": "app.py", "action": "modified"}]
    assert result["written"] == ["app.py"] and result["summary"] == "wrote 1 file(s): app.py"
    # Human output; a small model gets its profile's mode (diff_block).
    model.script = [tool_answer(GOOD["diff_block"]), text_answer("ok")]
    (tree / "app.py").write_text(APP)
    code = main(
        [
            "edit",
            "Make run return 10",
            "--endpoint",
            model.url,
            "--model",
            "qwen2.5-coder:1.5b",
            "--root",
            str(tree),
            "--yes",
        ]
    )
    out, err = capsys.readouterr()
    assert code == 0 and out.startswith("--- a/app.py\n+++ b/app.py\n")
    assert "exchange 1: changed: app.py (modified)" in err
    assert err.endswith(
        "wrote 1 file(s): app.py; the model is done (mode diff_block, 2 request(s))\n"
    )
    assert [t["function"]["name"] for t in model.requests[-2]["tools"]] == [
        n.split(":")[0] for n in tool_names("diff_block")
    ]


def test_the_edit_command_reports_endpoint_and_usage_errors(tree, capsys, monkeypatch):
    monkeypatch.setattr("applydiff.llm.time.sleep", lambda s: None)  # retries without waiting
    code = main(
        [
            "edit",
            "x",
            "--endpoint",
            "http://127.0.0.1:9/v1",
            "--model",
            "m",
            "--root",
            str(tree),
            "--timeout",
            "2",
        ]
    )
    assert code == 1
    assert capsys.readouterr().err == (
        "applydiff: cannot reach http://127.0.0.1:9/v1/chat/completions: connection refused; "
        "nothing was written\n"
    )
    assert main(["edit", "x", "--endpoint", "ftp://h", "--model", "m", "--root", str(tree)]) == 2
    assert main(["edit", "x", "--endpoint", "http://h", "--model", "m", "--mode", "klingon"]) == 2


@pytest.mark.parametrize("mode", sorted(TEXT_MODES))
def test_each_text_modes_example_applies(tmp_path, mode):
    """The example a text mode teaches is an answer applydiff applies as meant."""
    (tmp_path / "src").mkdir()
    app = "def run():\n    return 1\n\n\ndef stop():\n    pass\n"
    (tmp_path / "src/app.py").write_text(app)
    example = text_instructions(mode).split("Example:\n", 1)[1]
    result = Workspace(tmp_path).apply(example)
    assert result.ok, result.errors
    assert (tmp_path / "src/app.py").read_text() == app.replace("return 1", "return 2")
