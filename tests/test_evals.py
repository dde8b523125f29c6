"""eval-models end to end: a scripted model that knows each task's answer, the table, the
report, and the offline replay of its transcripts."""

from __future__ import annotations

import json

import pytest

from applydiff import Replace, Write, parse
from applydiff.cli import main
from applydiff.evals import run as eval_run
from applydiff.evals.tasks import default_suite, load_suite
from applydiff.llm import ChatClient
from fake_model import FakeModel, text_answer, tool_answer

SUITE = default_suite()
TASKS = load_suite(SUITE)
ANSWERS = {t.name: (SUITE / t.name / "answer.md").read_text(encoding="utf-8") for t in TASKS}


def _calls(answer: str, mode: str) -> list[tuple[str, dict]]:
    """The reference answer as the tool calls a model would send in ``mode``."""
    calls, edits = [], []
    for op in parse(answer):
        if isinstance(op, Write) or (isinstance(op, Replace) and not op.old):
            content = op.content if isinstance(op, Write) else op.new
            calls.append(("write_file", {"path": op.path, "content": content}))
        else:
            edits.append({"path": op.path, "old_string": op.old, "new_string": op.new})
    if mode == "search_replace_multi" and edits:
        calls.append(("edit_file", {"edits": edits}))
    else:  # one call per edit, all in one message
        calls += [("edit_file", e) for e in edits]
    return calls


def oracle(body: dict) -> dict:
    """Answers a task with its reference answer, then says it is done; a model that gets
    anything but success gives up with words."""
    messages = body["messages"]
    task = next(t for t in TASKS if t.prompt in messages[1]["content"])
    if len(messages) > 2:
        last = messages[-1]["content"] or ""
        return text_answer("Done." if last.startswith("Applied") else "I give up.")
    if "tools" not in body:
        return text_answer("Here is the change.\n\n" + ANSWERS[task.name])
    edit_tool = next(t for t in body["tools"] if t["function"]["name"] == "edit_file")
    multi = "edits" in edit_tool["function"]["parameters"]["properties"]
    mode = "search_replace_multi" if multi else "search_replace"
    return tool_answer(*_calls(ANSWERS[task.name], mode))


@pytest.fixture
def model():
    m = FakeModel()
    m.responder = oracle
    yield m
    m.close()


def test_the_suite_has_the_tasks_the_harness_needs():
    names = {t.name for t in TASKS}
    assert {
        "rename_in_file",
        "add_parameter",
        "insert_function",
        "delete_block",
        "reorder_functions",
        "crlf_edit",
        "deep_edit",
    } <= names


@pytest.mark.slow
def test_eval_models_scores_replays_and_reports(model, tmp_path, capsys):
    out = tmp_path / "eval"
    modes = "search_replace_multi,search_replace,text:search_replace"
    code = main(
        [
            "eval-models",
            "--endpoint",
            model.url,
            "--model",
            "oracle-7b",
            "--modes",
            modes,
            "--suite",
            str(SUITE),
            "--out",
            str(out),
        ]
    )
    out_text, err = capsys.readouterr()
    n = len(TASKS)
    assert code == 0, err
    line = f"oracle-7b: search_replace_multi {n}/{n}, search_replace {n}/{n}, text:search_replace"
    assert f"{line} {n}/{n}\n" in out_text  # the scores are the result: stdout
    report = (out / "report.md").read_text()
    assert f"| oracle-7b | {n}/{n} | {n}/{n} | {n}/{n} |" in report
    assert "| oracle-7b | search_replace | crlf_edit | 1/1 | 0 | 0 | " in report
    results = json.loads((out / "results.json").read_text())
    assert results["scores"]["oracle-7b"]["text:search_replace"] == {"passed": n, "runs": n}
    run = next(
        r for r in results["runs"] if r["task"] == "deep_edit" and r["mode"] == "search_replace"
    )
    assert run["passed"] and run["loop"]["stop"] == "done" and run["loop"]["requests"] == 2
    assert run["tokens"] == 110 + 55  # as the endpoint reported them
    transcripts = sorted((out / "transcripts").rglob("*.json"))
    assert len(transcripts) == 3 * n
    # Offline: the same table from the transcripts, without the endpoint.
    asked = len(model.requests)
    replayed = tmp_path / "replayed"
    code = main(
        ["eval-models", "--replay", str(out), "--suite", str(SUITE), "--out", str(replayed)]
    )
    assert code == 0 and len(model.requests) == asked
    again = json.loads((replayed / "results.json").read_text())
    assert again["scores"] == results["scores"]
    assert not any(r["drifted"] for r in again["runs"])
    assert "replayed from transcripts" in (replayed / "report.md").read_text()


def test_a_failing_model_scores_zero_and_the_notes_say_why(model, tmp_path, capsys):
    model.responder = lambda body: text_answer("I cannot do that.")
    code = main(
        [
            "eval-models",
            "--endpoint",
            model.url,
            "--model",
            "lazy-1b",
            "--modes",
            "search_replace_multi",
            "--tasks",
            "rename_in_file,crlf_edit",
            "--suite",
            str(SUITE),
            "--out",
            str(tmp_path / "e"),
        ]
    )
    assert code == 0
    report = (tmp_path / "e" / "report.md").read_text()
    assert "| lazy-1b | 0/2 |" in report
    assert "| lazy-1b | search_replace_multi | rename_in_file | 0/1 | 0 | 0 |" in report


def test_a_replay_that_drifts_is_marked(model, tmp_path):
    ev = eval_run.evaluate(
        [t for t in TASKS if t.name == "rename_in_file"],
        models=["oracle-7b"],
        modes=["search_replace_multi"],
        runs=1,
        client_for=lambda m: ChatClient(model.url, m),
    )
    transcript = ev.transcripts[0]
    transcript.request_digests[1] = "0" * 16  # as if the engine had answered differently
    again = eval_run.replay(TASKS, [transcript])
    assert again.runs[0].passed and again.runs[0].drifted


def test_eval_models_usage_errors(tmp_path, capsys):
    assert main(["eval-models", "--suite", str(SUITE)]) == 2
    assert "needs --endpoint and --model" in capsys.readouterr().err
    assert main(["eval-models", "--suite", str(SUITE), "--tasks", "nope", "--replay", "x"]) == 2
    assert "unknown task(s) nope" in capsys.readouterr().err
    assert main(["eval-models", "--suite", str(tmp_path), "--replay", "x"]) == 2
    assert main(["eval-models", "--suite", str(SUITE), "--replay", str(tmp_path)]) == 2
    assert "no transcripts" in capsys.readouterr().err
