"""The command line as git apply, patch and codex users expect it (issue 18): results on
stdout and diagnostics on stderr, one JSON object under --json whatever happens, colour and
wrapping, the confirmation on the terminal, errors naming the answer's line, call, schema,
help, edit and undo. Each behaviour is checked once through the real command (a subprocess:
stdout, stderr, exit code, bytes on disk), the variations in process."""

from __future__ import annotations

import json
import os
import pty
import select
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from applydiff.cli import main
from applydiff.formats import FORMATS
from applydiff.prompts import TEXT_MODES, text_instructions
from applydiff.tools import DIALECTS, MODES
from fake_model import FakeModel, text_answer, tool_answer

RESPONSE = "a.py\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE\n"
BEFORE = b"x = 1\ny = 1\n"
AFTER = b"x = 2\ny = 1\n"
DIFF = "--- a/a.py\n+++ b/a.py\n@@ -1,2 +1,2 @@\n-x = 1\n+x = 2\n y = 1\n"


def env(**extra: str) -> dict[str, str]:
    base = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR", "TERM")}
    return {**base, "APPLYDIFF_TTY": "", **extra}


def cli(*args: str, cwd: Path, stdin: str = "", **extra: str) -> subprocess.CompletedProcess[str]:
    """The real command, in a session of its own (no controlling terminal)."""
    return subprocess.run(
        [sys.executable, "-m", "applydiff", *args],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        text=True,
        env=env(**extra),
        start_new_session=True,
        timeout=60,
    )


@pytest.fixture(autouse=True)
def no_terminal(monkeypatch):
    monkeypatch.setenv("APPLYDIFF_TTY", "")
    for name in ("NO_COLOR", "FORCE_COLOR"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def project(tmp_path):
    (tmp_path / "a.py").write_bytes(BEFORE)
    (tmp_path / "answer.md").write_text(RESPONSE)
    return tmp_path


# -- 1. results on stdout, diagnostics on stderr ------------------------------------------------
def test_a_dry_run_redirected_is_a_patch_file(project):
    proc = cli("apply", "answer.md", "--dry-run", cwd=project)
    assert proc.returncode == 0
    assert proc.stdout == DIFF
    assert proc.stderr == (
        "edit 0: a.py lines 1-1: exact (1.00)\n"
        "would apply to 1 file(s); nothing was written (dry run)\n"
    )
    (project / "preview.diff").write_text(proc.stdout)
    check = subprocess.run(
        ["git", "apply", "--check", "preview.diff"], cwd=project, capture_output=True
    )
    assert check.returncode == 0, check.stderr
    assert (project / "a.py").read_bytes() == BEFORE


def test_status_listing_and_parse_listing_go_to_stdout(project):
    proc = cli("apply", "answer.md", "--review", cwd=project)
    assert proc.returncode == 0 and proc.stdout == DIFF
    proc = cli("status", cwd=project)
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "M  a.py\n", "")
    proc = cli("parse", "answer.md", cwd=project)
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "0: replace a.py (line 2)\n", "")
    assert (project / "a.py").read_bytes() == BEFORE


def test_profile_prints_on_stdout(capsys):
    assert main(["profile", "qwen2.5-coder:7b"]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("qwen2.5-coder:7b: 7B -> profile minimal, mode search_replace ")
    assert err == ""


# -- --json: one object, whatever happens -------------------------------------------------------
def test_a_wrong_command_under_json_is_one_json_object(project):
    proc = cli("--json", "frobnicate", cwd=project)
    assert proc.returncode == 2 and proc.stderr == ""
    answer = json.loads(proc.stdout)
    assert proc.stdout.count("\n") == 1
    assert answer["ok"] is False and [e["code"] for e in answer["errors"]] == ["usage"]
    assert answer["errors"][0]["message"].startswith(
        "argument COMMAND: invalid choice: 'frobnicate'"
    )


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["apply", "--bogus", "--json"], "unrecognized arguments: --bogus (see applydiff --help)"),
        (["apply", "missing.md", "--json"], "cannot read missing.md: No such file or directory"),
        (["--json", "apply", "--format", "klingon"], None),
        (["--json"], "no command given"),
        (["status", "--json", "--root", "/nonexistent/root"], None),
        (["call", "frob", "--args", "{}", "--json"], None),
        (["serve", "--json"], None),
    ],
)
def test_usage_errors_under_json(argv, message, project, capsys, monkeypatch):
    monkeypatch.chdir(project)
    assert main(argv) == 2
    out, err = capsys.readouterr()
    answer = json.loads(out)
    assert out.count("\n") == 1 and err == ""
    assert answer["ok"] is False and answer["errors"][0]["code"] == "usage"
    assert answer["errors"][0]["index"] is None and answer["errors"][0]["path"] is None
    if message is not None:
        assert answer["errors"][0]["message"] == message


def test_a_usage_error_without_json_is_one_line_on_stderr(project, capsys, monkeypatch):
    monkeypatch.chdir(project)
    assert main(["apply", "missing.md"]) == 2
    assert capsys.readouterr() == (
        "",
        "applydiff: cannot read missing.md: No such file or directory\n",
    )


# -- 2. colour and wrapping ---------------------------------------------------------------------
def test_no_wrapping_and_no_colour_when_not_a_terminal(tmp_path):
    long = "d" * 150 + ".py"
    (tmp_path / long).write_text("x = 1\n")
    (tmp_path / "answer.md").write_text(RESPONSE.replace("a.py", long))
    proc = cli("apply", "answer.md", "--dry-run", cwd=tmp_path, COLUMNS="40")
    assert proc.returncode == 0 and "\x1b[" not in proc.stdout + proc.stderr
    assert proc.stderr.splitlines()[0] == f"edit 0: {long} lines 1-1: exact (1.00)"
    assert proc.stdout.splitlines()[0] == f"--- a/{long}"


@pytest.mark.parametrize(
    ("argv", "environ", "coloured"),
    [
        ([], {}, False),
        (["--color=always"], {}, True),
        (["--color", "never"], {"FORCE_COLOR": "1"}, False),
        ([], {"FORCE_COLOR": "1"}, True),
        ([], {"FORCE_COLOR": "1", "NO_COLOR": "1"}, False),
        (["--color=always"], {"NO_COLOR": "1"}, True),
    ],
)
def test_colour_flag_beats_the_environment(argv, environ, coloured, project, capsys, monkeypatch):
    for k, v in environ.items():
        monkeypatch.setenv(k, v)
    assert (
        main(["apply", str(project / "answer.md"), "--root", str(project), "--dry-run", *argv]) == 0
    )
    out = capsys.readouterr().out
    assert ("\x1b[32m+x = 2\x1b[0m\n" in out) is coloured
    assert ("\x1b[" in out) is coloured
    if not coloured:
        assert out == DIFF


def test_colour_on_the_command_line(project):
    proc = cli("apply", "answer.md", "--dry-run", "--color=always", cwd=project)
    assert proc.returncode == 0
    assert proc.stdout.splitlines()[3:5] == ["\x1b[31m-x = 1\x1b[0m", "\x1b[32m+x = 2\x1b[0m"]


# -- 3. the confirmation ------------------------------------------------------------------------
def test_without_a_terminal_nothing_is_written_without_yes(project):
    proc = cli("apply", cwd=project, stdin=RESPONSE)
    assert proc.returncode == 1 and proc.stdout == DIFF
    assert proc.stderr.endswith(
        "no terminal to confirm on; nothing was written; pass --yes to apply\n"
    )
    assert (project / "a.py").read_bytes() == BEFORE
    assert not (project / ".applydiff").exists()
    proc = cli("apply", "--yes", cwd=project, stdin=RESPONSE)
    assert proc.returncode == 0 and proc.stderr.endswith("applied to 1 file(s)\n")
    assert (project / "a.py").read_bytes() == AFTER


def test_no_terminal_under_json_is_not_confirmed(project, capsys):
    assert main(["apply", str(project / "answer.md"), "--root", str(project), "--json"]) == 1
    out, err = capsys.readouterr()
    answer = json.loads(out)
    assert (
        err == ""
        and answer["ok"] is False
        and answer["files"] == [{"path": "a.py", "action": "modified"}]
    )
    assert answer["errors"] == [
        {
            "code": "not_confirmed",
            "index": None,
            "path": None,
            "message": "no terminal to confirm on; nothing was written; pass --yes to apply",
        }
    ]
    assert (project / "a.py").read_bytes() == BEFORE


def _on_a_terminal(argv: list[str], cwd: Path, stdin_file: Path, answer: bytes) -> tuple[int, str]:
    """Run the command with a terminal of its own (a pty) and stdin from ``stdin_file``;
    answer the prompt with ``answer`` once it shows. The terminal's text and the exit code."""
    pid, fd = pty.fork()
    if pid == 0:  # the child: stdin is the piped response, the terminal is /dev/tty
        os.dup2(os.open(stdin_file, os.O_RDONLY), 0)
        os.chdir(cwd)
        argv = [sys.executable, "-m", "applydiff", *argv]
        os.execve(sys.executable, argv, env(APPLYDIFF_TTY="/dev/tty"))
    seen = b""
    answered = False
    while True:
        ready, _, _ = select.select([fd], [], [], 30)
        if not ready:
            break
        try:
            chunk = os.read(fd, 4096)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        seen += chunk
        if not answered and b"[y/N] " in seen:
            os.write(fd, answer)
            answered = True
    _, status = os.waitpid(pid, 0)
    os.close(fd)
    return os.waitstatus_to_exitcode(status), seen.decode().replace("\r\n", "\n")


def test_the_answer_is_read_from_the_terminal_when_stdin_is_the_response(project):
    root = str(project)
    code, text = _on_a_terminal(["apply", "--root", root], project, project / "answer.md", b"n\n")
    assert code == 1 and "Apply to 1 file(s)? [y/N] " in text
    assert text.endswith("not applied; nothing was written\n")
    assert (project / "a.py").read_bytes() == BEFORE
    code, text = _on_a_terminal(["apply", "--root", root], project, project / "answer.md", b"y\n")
    assert code == 0 and "Apply to 1 file(s)? [y/N] y\n" in text
    assert text.endswith("\x1b[32mapplied to 1 file(s)\x1b[0m\n")  # a terminal: colour
    assert (project / "a.py").read_bytes() == AFTER


# -- 4. errors name the answer's line ----------------------------------------------------------
def test_an_error_names_the_line_of_the_answer(project):
    answer = "Here is the fix.\n\n" + RESPONSE.replace("x = 1\n=", "zzz\n=")
    proc = cli("apply", "--yes", cwd=project, stdin=answer)
    assert proc.returncode == 1 and proc.stdout == ""
    assert proc.stderr.startswith(
        "no_match a.py (edit 0, answer line 4): the search text was not found"
    )
    proc = cli("apply", "--yes", "--json", cwd=project, stdin=answer)
    assert json.loads(proc.stdout)["errors"][0]["answer_line"] == 4
    assert (project / "a.py").read_bytes() == BEFORE


# -- 8. edit ------------------------------------------------------------------------------------
APP = "def run():\n    return 1\n"
EDIT = {"path": "app.py", "old_string": "    return 1", "new_string": "    return 10"}


@pytest.fixture
def model():
    m = FakeModel()
    yield m
    m.close()


def test_edit_dry_run_writes_nothing_and_says_so(model, tmp_path):
    (tmp_path / "app.py").write_text(APP)
    model.script = [tool_answer(("edit_file", EDIT)), text_answer("Done.")]
    proc = cli(
        "edit",
        "Make run return 10",
        "--endpoint",
        model.url,
        "--model",
        "m-70b",
        "--mode",
        "search_replace",
        "--dry-run",
        cwd=tmp_path,
    )
    assert proc.returncode == 0
    assert proc.stdout == (
        "--- a/app.py\n+++ b/app.py\n@@ -1,2 +1,2 @@\n def run():\n-    return 1\n+    return 10\n"
    )
    assert proc.stderr == (
        "exchange 1: changed: app.py (modified)\n"
        "Done.\n"
        "nothing was written (dry run): 1 file(s) would change; the model is done "
        "(mode search_replace, 2 request(s))\n"
    )
    assert (tmp_path / "app.py").read_text() == APP
    # The pending outputs were kept in memory: no state directory, nothing else on disk.
    assert sorted(p.name for p in tmp_path.iterdir()) == ["app.py"]
    proc = cli("status", "--json", cwd=tmp_path)
    assert json.loads(proc.stdout)["files"] == []


def test_edit_asks_and_a_refusal_writes_nothing(model, tmp_path, capsys, monkeypatch):
    (tmp_path / "app.py").write_text(APP)
    model.script = [tool_answer(("edit_file", EDIT)), text_answer("Done.")]
    argv = ["edit", "t", "--endpoint", model.url, "--model", "m-70b", "--root", str(tmp_path)]
    assert main([*argv, "--mode", "search_replace"]) == 1
    assert capsys.readouterr().err.endswith(
        "no terminal to confirm on; nothing was written; pass --yes to apply\n"
    )
    assert (tmp_path / "app.py").read_text() == APP
    tty = tmp_path / "tty"
    tty.write_text("y\n")
    monkeypatch.setenv("APPLYDIFF_TTY", str(tty))
    model.script = [tool_answer(("edit_file", EDIT)), text_answer("Done.")]
    assert main([*argv, "--mode", "search_replace"]) == 0
    err = capsys.readouterr().err
    assert "Write 1 file(s)? [y/N] " in err
    assert err.endswith(
        "wrote 1 file(s): app.py; the model is done (mode search_replace, 2 request(s))\n"
    )
    assert (tmp_path / "app.py").read_text() == APP.replace("1", "10")


def test_edit_reports_retries_as_they_happen(model, tmp_path, capsys, monkeypatch):
    monkeypatch.setattr("applydiff.llm.time.sleep", lambda s: None)
    (tmp_path / "app.py").write_text(APP)
    model.script = [(503, {"error": {"message": "busy"}}, {}), text_answer("Nothing to do.")]
    argv = ["edit", "t", "--endpoint", model.url, "--model", "m-70b", "--root", str(tmp_path)]
    assert main(argv) == 1  # no edits: not ok
    err = capsys.readouterr().err
    assert err.startswith("m-70b: HTTP 503: busy; retrying in 1s (1 of 4)\n")
    assert err.endswith(
        "nothing was written: no edits; the model is done "
        "(mode search_replace_multi, 1 request(s))\n"
    )


def test_edit_does_not_retry_a_refused_connection(tmp_path):
    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url = f"http://127.0.0.1:{port}/v1"
    proc = cli("edit", "t", "--endpoint", url, "--model", "m", cwd=tmp_path)
    assert proc.returncode == 1 and proc.stdout == ""
    assert proc.stderr == (
        f"applydiff: cannot reach {url}/chat/completions: connection refused; nothing was written\n"
    )


# -- 9. call ------------------------------------------------------------------------------------
def test_call_refuses_an_unknown_tool_and_reads_args_from_a_file_or_stdin(project):
    proc = cli("call", "frobnicate", "--args", "{}", cwd=project)
    assert (proc.returncode, proc.stdout) == (2, "")
    assert proc.stderr == (
        "applydiff: unknown tool 'frobnicate'; the tools are apply_diff, apply_patch, diff_edit, "
        "edit_file, write_file\n"
    )
    args = {"path": "a.py", "old_string": "y = 1", "new_string": "y = 3"}
    (project / "args.json").write_text(json.dumps(args))
    proc = cli("call", "edit_file", "--args", "@args.json", "--yes", cwd=project)
    assert proc.returncode == 0 and (project / "a.py").read_bytes() == b"x = 1\ny = 3\n"
    args = {"path": "a.py", "old_string": "y = 3", "new_string": "y = 4"}
    proc = cli(
        "call", "edit_file", "--args", "-", "--yes", "--json", cwd=project, stdin=json.dumps(args)
    )
    assert proc.returncode == 0 and json.loads(proc.stdout)["ok"] is True
    assert (project / "a.py").read_bytes() == b"x = 1\ny = 4\n"


def test_call_args_must_be_an_object(project, capsys):
    assert main(["call", "write_file", "--args", "[1]", "--root", str(project)]) == 2
    assert capsys.readouterr().err == "applydiff: --args must be a JSON object\n"
    assert main(["call", "write_file", "--args", "@missing.json", "--root", str(project)]) == 2


# -- 10. schema takes the text modes ------------------------------------------------------------
@pytest.mark.parametrize("mode", sorted(TEXT_MODES))
def test_schema_prints_a_text_modes_instructions(mode, capsys):
    assert main(["schema", "--mode", mode]) == 0
    assert capsys.readouterr() == (text_instructions(mode) + "\n", "")
    assert main(["schema", "--mode", mode, "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {
        "mode": mode,
        "instructions": text_instructions(mode),
    }


# -- 11. help -----------------------------------------------------------------------------------
def test_help_lists_the_allowed_values_and_ends_with_examples(tmp_path):
    proc = cli("apply", "--help", cwd=tmp_path)
    assert proc.returncode == 0
    for name in FORMATS:
        assert name in proc.stdout
    tail = proc.stdout.rstrip("\n").split("\n")[-4:]
    assert tail[0] == "examples:" and all(
        x.startswith("  applydiff apply ") or x.startswith("  git diff") for x in tail[1:]
    )
    assert main(["schema", "--help"]) == 0


@pytest.mark.parametrize("command", ["schema", "edit", "serve"])
def test_each_commands_help_lists_its_choices(command, capsys):
    with pytest.raises(SystemExit):
        from applydiff.cli.parser import build_parser

        build_parser().parse_args([command, "--help"])
    out = capsys.readouterr().out
    for mode in MODES:
        assert mode in out
    if command == "schema":
        for name in (*DIALECTS, *TEXT_MODES, "filesystem", "fast-apply"):
            assert name in out
    if command == "edit":
        for name in TEXT_MODES:
            assert name in out


def test_top_level_help_ends_with_examples(capsys):
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    assert out.rstrip("\n").split("\n")[-4] == "examples:"


# -- 12. undo with nothing to undo --------------------------------------------------------------
@pytest.mark.slow
def test_undo_with_nothing_to_undo_exits_1_and_leaves_the_tree_alone(project):
    proc = cli("undo", cwd=project)
    assert (proc.returncode, proc.stdout) == (1, "")
    assert proc.stderr == "nothing_to_undo: nothing to undo\n"
    assert not (project / ".applydiff").exists()
    proc = cli("undo", "--json", cwd=project)
    assert json.loads(proc.stdout)["errors"][0]["code"] == "nothing_to_undo"
    cli("apply", "answer.md", "--yes", cwd=project)
    assert cli("undo", cwd=project).returncode == 0
    proc = cli("undo", cwd=project)
    assert proc.returncode == 1 and proc.stderr == "nothing_to_undo: nothing to undo\n"


def test_help_version_and_a_crash_under_json_are_one_json_object(capsys, monkeypatch):
    assert main(["--version", "--json"]) == 0
    out = capsys.readouterr().out
    assert json.loads(out)["version"].startswith("applydiff ") and out.count("\n") == 1
    assert main(["status", "--help", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["help"].startswith("usage: applydiff status")

    def broken(args, io):
        raise RuntimeError("boom")

    monkeypatch.setattr("applydiff.cli.edits.cmd_status", broken)
    with pytest.raises(RuntimeError):
        main(["status", "--json"])
    assert json.loads(capsys.readouterr().out)["errors"] == [
        {"code": "internal", "index": None, "path": None, "message": "RuntimeError: boom"}
    ]


def test_help_piped_is_not_wrapped(tmp_path):
    proc = cli("apply", "--help", cwd=tmp_path)
    lines = proc.stdout.split("\n")
    # Each option's help on one line, however long: the --format line names every format.
    fmt = next(x for x in lines if x.lstrip().startswith("--format"))
    assert all(name in fmt for name in FORMATS)
    keep = next(x for x in lines if x.lstrip().startswith("--keep-narration"))
    assert keep.endswith("which are otherwise left out")


@pytest.mark.slow
def test_bench_emits_batch_records_that_batch_applies(tmp_path):
    made = cli("bench", "--emit-batch", "4", "--seed", "3", cwd=tmp_path)
    assert made.returncode == 0 and made.stderr == ""
    records = [json.loads(x) for x in made.stdout.splitlines()]
    assert len(records) == 4 and all({"id", "files", "answer"} <= r.keys() for r in records)
    (tmp_path / "in.jsonl").write_text(made.stdout)
    ran = cli("batch", "in.jsonl", "--out", "out.jsonl", "--workers", "0", "--json", cwd=tmp_path)
    assert ran.returncode == 0
    summary = json.loads(ran.stdout)
    assert summary["records"] == 4 and summary["crashes"] == 0
    out = [json.loads(x) for x in (tmp_path / "out.jsonl").read_text().splitlines()]
    assert [r["id"] for r in out] == [r["id"] for r in records]
    assert sorted(tmp_path.iterdir()) == [tmp_path / "in.jsonl", tmp_path / "out.jsonl"]


@pytest.mark.slow
def test_batch_under_json_before_or_after_the_command(tmp_path):
    made = cli("bench", "--emit-batch", "2", cwd=tmp_path)
    (tmp_path / "in.jsonl").write_text(made.stdout)
    for argv in (
        ("--json", "batch", "in.jsonl", "--out", "o1.jsonl", "--workers", "0"),
        ("batch", "in.jsonl", "--out", "o2.jsonl", "--workers", "0", "--json"),
    ):
        proc = cli(*argv, cwd=tmp_path)
        summary = json.loads(proc.stdout)
        assert proc.returncode == 0 and summary["ok"] is True and summary["records"] == 2
    for argv, message in (
        (("--json", "batch", "in.jsonl"), "--json prints a summary on stdout, so it needs --out"),
        (("--json", "batch", "nope.jsonl", "--out", "o.jsonl"), "cannot read nope.jsonl"),
        (("--json", "batch", "in.jsonl", "--out", "o.jsonl", "--workers", "-1"), "--workers"),
    ):
        proc = cli(*argv, cwd=tmp_path)
        (error,) = json.loads(proc.stdout)["errors"]
        assert proc.returncode == 2 and error["code"] == "usage"
        assert error["message"].startswith(message) and proc.stderr == ""
