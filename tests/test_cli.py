"""The command line: exit codes, one JSON object on stdout, previews, confirmation."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from applydiff.cli import main
from applydiff.tools import tool_names

ROOT = Path(__file__).resolve().parent.parent
RESPONSE = "a.py\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE\n"


class FakeStdin:
    def __init__(self, data: str, tty: bool = False) -> None:
        self.buffer = io.BytesIO(data.encode())
        self._tty = tty

    def isatty(self) -> bool:
        return self._tty


@pytest.fixture(autouse=True)
def no_terminal(monkeypatch):
    """No test reads an answer from the real terminal: there is none unless a test says so."""
    monkeypatch.setenv("APPLYDIFF_TTY", "")


@pytest.fixture
def project(tmp_path):
    (tmp_path / "a.py").write_bytes(b"x = 1\ny = 1\n")
    return tmp_path


def run(argv, capsys, stdin=None, monkeypatch=None):
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", stdin)
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_apply_from_stdin_writes_and_prints_one_json_object(project, capsys, monkeypatch):
    code, out, err = run(
        ["apply", "--root", str(project), "--json", "--yes"],
        capsys,
        FakeStdin(RESPONSE),
        monkeypatch,
    )
    assert code == 0 and err == ""
    assert json.loads(out) == {
        "ok": True,
        "dry_run": False,
        "files": [{"path": "a.py", "action": "modified"}],
        "edits": [
            {
                "index": 0,
                "path": "a.py",
                "tier": "exact",
                "confidence": 1.0,
                "start_line": 1,
                "end_line": 1,
            }
        ],
        "errors": [],
    }
    assert out.count("\n") == 1
    assert (project / "a.py").read_bytes() == b"x = 2\ny = 1\n"


def test_dry_run_previews_and_writes_nothing(project, capsys, monkeypatch):
    resp = project / "answer.md"
    resp.write_text(RESPONSE)
    code, out, err = run(["apply", str(resp), "--root", str(project), "--dry-run"], capsys)
    assert code == 0
    assert out == "--- a/a.py\n+++ b/a.py\n@@ -1,2 +1,2 @@\n-x = 1\n+x = 2\n y = 1\n"
    assert err == (
        "edit 0: a.py lines 1-1: exact (1.00)\n"
        "would apply to 1 file(s); nothing was written (dry run)\n"
    )
    assert (project / "a.py").read_bytes() == b"x = 1\ny = 1\n"


def test_rejected_edit_exits_1_with_the_error(project, capsys, monkeypatch):
    bad = RESPONSE.replace("x = 1\n=", "zzz\n=")
    code, out, _ = run(
        ["apply", "--root", str(project), "--json"], capsys, FakeStdin(bad), monkeypatch
    )
    assert code == 1
    result = json.loads(out)
    assert result["ok"] is False and result["errors"][0]["code"] == "no_match"
    assert result["errors"][0]["index"] == 0 and result["errors"][0]["path"] == "a.py"
    assert (project / "a.py").read_bytes() == b"x = 1\ny = 1\n"


def test_malformed_response_exits_1(project, capsys, monkeypatch):
    code, out, _ = run(
        ["apply", "--root", str(project), "--json"],
        capsys,
        FakeStdin("a.py\n<<<<<<< SEARCH\nx\n"),
        monkeypatch,
    )
    assert code == 1 and json.loads(out)["errors"][0]["code"] == "format_invalid"


@pytest.mark.parametrize(
    "argv",
    [
        ["apply", "--bogus-flag"],
        ["apply", "/nonexistent/answer.md"],
        ["apply", "--root", "/nonexistent/root"],
        ["apply", "--threshold", "1.5"],
        ["apply", "--format", "klingon"],
        ["call", "write_file", "--args", "{not json"],
        ["parse", "/nonexistent"],
        [],
    ],
)
def test_usage_errors_exit_2(argv, project, capsys, monkeypatch):
    monkeypatch.chdir(project)
    monkeypatch.setattr(sys, "stdin", FakeStdin(RESPONSE))
    assert main(argv) == 2


def test_confirmation_on_a_terminal(project, capsys, monkeypatch):
    resp = project / "answer.md"
    resp.write_text(RESPONSE)
    tty = project / "tty"
    monkeypatch.setenv("APPLYDIFF_TTY", str(tty))
    tty.write_text("n\n")
    assert main(["apply", str(resp), "--root", str(project)]) == 1
    assert capsys.readouterr().err.endswith(
        "Apply to 1 file(s)? [y/N] not applied; nothing was written\n"
    )
    assert (project / "a.py").read_bytes() == b"x = 1\ny = 1\n"
    tty.write_text("y\n")
    assert main(["apply", str(resp), "--root", str(project)]) == 0
    assert (project / "a.py").read_bytes() == b"x = 2\ny = 1\n"


def test_yes_skips_the_question(project, capsys, monkeypatch):
    resp = project / "answer.md"
    resp.write_text(RESPONSE)
    monkeypatch.setattr(sys, "stdin", FakeStdin("", tty=True))

    def refuse(*a, **k):
        raise AssertionError("asked")

    monkeypatch.setattr("applydiff.cli.edits.ask", refuse)
    assert main(["apply", str(resp), "--root", str(project), "--yes"]) == 0


def test_call_runs_one_tool_call(project, capsys, monkeypatch):
    args = json.dumps({"path": "a.py", "old_string": "y = 1", "new_string": "y = 3"})
    code, out, _ = run(
        ["call", "edit_file", "--args", args, "--root", str(project), "--json", "--yes"],
        capsys,
        FakeStdin(""),
        monkeypatch,
    )
    assert code == 0 and json.loads(out)["files"] == [{"path": "a.py", "action": "modified"}]
    assert (project / "a.py").read_bytes() == b"x = 1\ny = 3\n"
    args = json.dumps({"path": "a.py"})
    code, out, _ = run(
        ["call", "edit_file", "--args", args, "--root", str(project), "--json"],
        capsys,
        FakeStdin(""),
        monkeypatch,
    )
    assert code == 1 and "expected 'edits'" in json.loads(out)["errors"][0]["message"]


def test_parse_prints_ops(project, capsys, monkeypatch):
    code, out, _ = run(["parse", "-", "--json"], capsys, FakeStdin(RESPONSE), monkeypatch)
    assert code == 0
    assert json.loads(out) == {
        "ok": True,
        "ops": [{"op": "replace", "path": "a.py", "old": "x = 1\n", "new": "x = 2\n", "origin": 2}],
    }


def test_plain_output_without_a_terminal_or_with_no_color(project):
    resp = project / "answer.md"
    resp.write_text(RESPONSE)
    for env in ({}, {"NO_COLOR": "1", "FORCE_COLOR": "1"}):
        proc = subprocess.run(
            [
                sys.executable,
                "-m",
                "applydiff",
                "apply",
                str(resp),
                "--root",
                str(project),
                "--dry-run",
            ],
            capture_output=True,
            text=True,
            env={"PATH": "/usr/bin:/bin", **env},
        )
        assert proc.returncode == 0, proc.stderr
        assert "\x1b[" not in proc.stdout + proc.stderr and "+x = 2" in proc.stdout


def test_readme_example_output_matches(tmp_path):
    """The README shows `applydiff apply` on the shipped example; keep it true."""
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "applydiff",
            "apply",
            "examples/answer.md",
            "--root",
            "examples/project",
            "--dry-run",
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
    )
    assert proc.returncode == 0, proc.stderr
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    shown = readme.split("<!-- apply-output -->")[1].split("```text\n")[1].split("```")[0]
    assert shown == proc.stdout + proc.stderr


# -- review, undo, schema, profile ---------------------------------------------------------------
def test_review_workflow_from_the_command_line(project, capsys, monkeypatch):
    code, out, _ = run(
        ["apply", "--root", str(project), "--review", "--json"],
        capsys,
        FakeStdin(RESPONSE),
        monkeypatch,
    )
    assert code == 0 and json.loads(out)["review"] is True
    assert (project / "a.py").read_bytes() == b"x = 1\ny = 1\n"
    code, out, _ = run(["status", "--root", str(project), "--json"], capsys)
    assert json.loads(out)["files"][0]["status"] == "M"
    code, out, err = run(["status", "--root", str(project)], capsys)
    assert out == "M  a.py\n" and err == ""
    code, out, _ = run(["accept", "--root", str(project), "--json"], capsys)
    assert code == 0 and json.loads(out)["files"] == [{"path": "a.py", "action": "modified"}]
    assert (project / "a.py").read_bytes() == b"x = 2\ny = 1\n"
    code, out, _ = run(["undo", "--root", str(project), "--json"], capsys)
    assert code == 0 and (project / "a.py").read_bytes() == b"x = 1\ny = 1\n"
    code, out, _ = run(["undo", "--root", str(project), "--json"], capsys)
    assert code == 1 and json.loads(out)["errors"][0]["message"] == "nothing to undo"


def test_merge_and_discard_from_the_command_line(project, capsys, monkeypatch):
    (project / "a.py").write_bytes(b"x = 1\nmiddle = 0\ny = 1\n")
    run(["apply", "--root", str(project), "--review"], capsys, FakeStdin(RESPONSE), monkeypatch)
    (project / "a.py").write_bytes(b"x = 1\nmiddle = 0\ny = 2\n")  # a local change elsewhere
    code, out, _ = run(["status", "--root", str(project), "--json"], capsys)
    assert json.loads(out)["files"][0]["status"] == "~M"
    code, out, _ = run(["accept", "--root", str(project), "--json"], capsys)
    assert code == 1 and json.loads(out)["errors"][0]["code"] == "conflict"
    code, out, _ = run(["merge", "a.py", "--root", str(project), "--json"], capsys)
    assert code == 0 and (project / "a.py").read_bytes() == b"x = 2\nmiddle = 0\ny = 2\n"
    run(
        ["apply", "--root", str(project), "--review"],
        capsys,
        FakeStdin(RESPONSE.replace("x = 1", "y = 2").replace("x = 2", "y = 3")),
        monkeypatch,
    )
    code, out, _ = run(["discard", "--root", str(project), "--json"], capsys)
    assert code == 0 and json.loads(out)["files"] == [{"path": "a.py", "action": "discarded"}]
    assert (project / "a.py").read_bytes() == b"x = 2\nmiddle = 0\ny = 2\n"
    # Overlapping changes: the merge writes conflict markers and exits 1.
    run(
        ["apply", "--root", str(project), "--review"],
        capsys,
        FakeStdin(RESPONSE.replace("x = 1", "x = 2").replace("x = 2\n>", "x = 3\n>")),
        monkeypatch,
    )
    (project / "a.py").write_bytes(b"x = 9\nmiddle = 0\ny = 2\n")
    code, out, _ = run(["merge", "--root", str(project), "--json"], capsys)
    assert code == 1 and json.loads(out)["files"][0]["conflicts"] == [[1, 7]]
    assert (project / "a.py").read_bytes().startswith(b"<<<<<<< local\nx = 9\n")


def test_schema_and_profile(capsys):
    code, out, _ = run(["schema", "--mode", "patch", "--dialect", "mcp"], capsys)
    tools = json.loads(out)
    assert code == 0 and [t["name"] for t in tools] == [
        n.split(":")[0] for n in tool_names("patch")
    ]
    assert "apply_patch" in [t["name"] for t in tools]
    assert "inputSchema" in tools[0]
    assert main(["schema", "--dialect", "klingon"]) == 2
    code, out, _ = run(["profile", "llama3.2:3b", "--json"], capsys)
    assert json.loads(out) == {
        "model": "llama3.2:3b",
        "parameters_b": 3.0,
        "profile": "nano",
        "mode": "diff_block",
        "tools": [n.split(":")[0] for n in tool_names("diff_block")],
    }


def test_apply_from_the_command_line_can_be_undone(project, capsys, monkeypatch):
    code, _, _ = run(
        ["apply", "--root", str(project), "--yes"], capsys, FakeStdin(RESPONSE), monkeypatch
    )
    assert code == 0 and (project / "a.py").read_bytes() == b"x = 2\ny = 1\n"
    call = '{"path": "b.txt", "content": "new\\n"}'
    code, _, _ = run(
        ["call", "write_file", "--args", call, "--root", str(project), "--yes"], capsys
    )
    assert code == 0 and (project / "b.txt").read_bytes() == b"new\n"
    code, out, _ = run(["undo", "a.py", "--root", str(project), "--json"], capsys)
    assert code == 0 and json.loads(out)["files"] == [{"path": "a.py", "action": "restored"}]
    assert (project / "a.py").read_bytes() == b"x = 1\ny = 1\n"
    assert (project / "b.txt").exists()
    code, out, _ = run(["undo", "--root", str(project), "--json"], capsys)
    assert code == 0 and not (project / "b.txt").exists()


def test_a_preview_leaves_no_state_behind(project, capsys, monkeypatch):
    code, _, _ = run(
        ["apply", "--root", str(project), "--dry-run"], capsys, FakeStdin(RESPONSE), monkeypatch
    )
    assert code == 0 and not (project / ".applydiff").exists()


def test_apply_over_a_pending_output_is_refused(project, capsys, monkeypatch):
    run(["apply", "--root", str(project), "--review"], capsys, FakeStdin(RESPONSE), monkeypatch)
    other = RESPONSE.replace("x = 1", "y = 1").replace("x = 2", "y = 2")
    code, out, _ = run(
        ["apply", "--root", str(project), "--json"], capsys, FakeStdin(other), monkeypatch
    )
    assert code == 1 and json.loads(out)["errors"][0]["code"] == "conflict"
    assert (project / "a.py").read_bytes() == b"x = 1\ny = 1\n"


@pytest.mark.parametrize("damage", ["state_is_a_file", "not_a_database", "newer_schema"])
def test_a_broken_session_store_is_a_usage_error(project, capsys, damage):
    state = project / ".applydiff"
    if damage == "state_is_a_file":
        state.write_text("oops")
    else:
        state.mkdir()
        db = state / "session.db"
        if damage == "not_a_database":
            db.write_bytes(b"this is not sqlite" * 100)
        else:
            import sqlite3

            con = sqlite3.connect(db)
            con.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
            con.execute("INSERT INTO meta VALUES ('schema', '99')")
            con.commit()
            con.close()
    for command in ("status", "undo", "serve"):
        code, out, err = run([command, "--root", str(project)], capsys)
        assert code == 2 and out == ""
        assert err.startswith("applydiff: ") and ".applydiff" in err, err
    assert (project / "a.py").read_bytes() == b"x = 1\ny = 1\n"
