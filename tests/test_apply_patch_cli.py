"""``apply_patch``, the drop-in for codex's command: the patch as the argument or on stdin,
codex's report on stdout, all files or none, exit 1 with the reason on stderr."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from applydiff.apply_patch_cli import main

ROOT = Path(__file__).resolve().parent.parent

PATCH = """*** Begin Patch
*** Add File: docs/new.md
+# New
+hello
*** Update File: app.py
@@ def run():
-    return 1
+    return 2
*** Update File: old.py
*** Move to: pkg/moved.py
@@
-OLD = 1
+OLD = 2
*** Delete File: gone.txt
*** End Patch
"""


def command() -> list[str]:
    """The installed console script when there is one, else the module."""
    script = Path(sys.executable).parent / "apply_patch"
    return [str(script)] if script.exists() else [sys.executable, "-m", "applydiff.apply_patch_cli"]


def run(args: list[str], cwd: Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*command(), *args],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        text=True,
        env={**os.environ, "APPLYDIFF_TTY": ""},
        timeout=60,
    )


@pytest.fixture
def tree(tmp_path):
    (tmp_path / "app.py").write_bytes(b"def run():\n    return 1\n")
    (tmp_path / "old.py").write_bytes(b"OLD = 1\n")
    (tmp_path / "gone.txt").write_bytes(b"bye\n")
    return tmp_path


def test_the_console_script_is_declared():
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]
    assert scripts["apply_patch"] == "applydiff.apply_patch_cli:main"


def test_a_patch_as_the_argument_adds_modifies_moves_and_deletes(tree):
    proc = run([PATCH], tree)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == (
        "Success. Updated the following files:\n"
        "A docs/new.md\n"
        "M app.py\n"
        "M pkg/moved.py\n"
        "D gone.txt\n"
    )
    assert proc.stderr == ""
    assert (tree / "docs/new.md").read_bytes() == b"# New\nhello\n"
    assert (tree / "app.py").read_bytes() == b"def run():\n    return 2\n"
    assert (tree / "pkg/moved.py").read_bytes() == b"OLD = 2\n"
    assert not (tree / "old.py").exists() and not (tree / "gone.txt").exists()
    # Recorded: applydiff undo takes the whole patch back.
    undo = subprocess.run(
        [sys.executable, "-m", "applydiff", "undo"], cwd=tree, capture_output=True, text=True
    )
    assert undo.returncode == 0, undo.stderr
    assert (tree / "app.py").read_bytes() == b"def run():\n    return 1\n"
    assert (tree / "old.py").exists() and (tree / "gone.txt").exists()
    assert not (tree / "docs").exists() and not (tree / "pkg/moved.py").exists()
    assert (tree / ".applydiff" / ".gitignore").read_text() == "*\n"


def test_a_patch_on_stdin_through_the_ladder(tree):
    # The context line has other indentation than the file: the ladder still places it.
    patch = (
        "*** Begin Patch\n*** Update File: app.py\n@@\n def run():\n"
        "-  return 1\n+  return 3\n*** End Patch\n"
    )
    proc = run([], tree, stdin=patch)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "Success. Updated the following files:\nM app.py\n"
    assert (tree / "app.py").read_bytes() == b"def run():\n    return 3\n"


def test_a_failure_writes_nothing_and_exits_1(tree):
    bad = PATCH.replace("-OLD = 1", "-NOT THERE = 1")
    proc = run([bad], tree)
    assert proc.returncode == 1 and proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert lines[0].startswith("no_match old.py (edit 2, answer line 11): ")
    assert lines[-1] == "Nothing was written."
    assert (tree / "app.py").read_bytes() == b"def run():\n    return 1\n"
    assert (tree / "gone.txt").exists() and not (tree / "docs").exists()


def test_wrong_invocations_exit_2(monkeypatch, capsys):
    assert main(["one", "two"]) == 2
    assert capsys.readouterr() == ("", "Error: apply_patch accepts exactly one PATCH argument.\n")

    class Empty:
        buffer = io.BytesIO(b"")

    monkeypatch.setattr(sys, "stdin", Empty)
    assert main([]) == 2
    assert capsys.readouterr() == (
        "",
        "Usage: apply_patch 'PATCH'\n       echo 'PATCH' | apply_patch\n",
    )


def test_a_malformed_patch_is_refused(tree, monkeypatch, capsys):
    monkeypatch.chdir(tree)
    assert main(["*** Begin Patch\n*** Frobnicate File: app.py\n*** End Patch\n"]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err.endswith("Nothing was written.\n")
    assert err.startswith("format_invalid")


def test_advice_speaks_of_the_patch_not_of_fields_it_has_not(tmp_path):
    (tmp_path / "a.py").write_bytes(b"x = 1\ny = 2\nx = 1\ny = 2\n")
    patch = "*** Begin Patch\n*** Update File: a.py\n@@\n x = 1\n-y = 2\n+y = 3\n*** End Patch\n"
    proc = run([patch], tmp_path)
    assert proc.returncode == 1 and proc.stdout == ""
    assert proc.stderr == (
        "ambiguous a.py (edit 0, answer line 3): the search text matches 2 places (tier exact) "
        "at lines 1, 3; add surrounding lines that make it unique\nNothing was written.\n"
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.py"]
    assert (tmp_path / "a.py").read_bytes() == b"x = 1\ny = 2\nx = 1\ny = 2\n"


# -- flags, as any command takes them (issue 29) ---------------------------------------------
@pytest.mark.parametrize("flag", ["--help", "-h"])
def test_help_prints_usage_and_exits_0(tmp_path, flag):
    run = subprocess.run([*command(), flag], cwd=tmp_path, capture_output=True, text=True)
    assert run.returncode == 0 and run.stderr == ""
    assert run.stdout.startswith("Usage: apply_patch 'PATCH'\n       echo 'PATCH' | apply_patch\n")
    assert "--version" in run.stdout and "Example:" in run.stdout
    assert list(tmp_path.iterdir()) == []


def test_version_prints_the_version_and_exits_0(tmp_path):
    from applydiff.version import __version__

    run = subprocess.run([*command(), "--version"], cwd=tmp_path, capture_output=True, text=True)
    assert (run.returncode, run.stdout, run.stderr) == (
        0,
        f"apply_patch (applydiff {__version__})\n",
        "",
    )


def test_an_unknown_flag_is_a_usage_error(tmp_path):
    run = subprocess.run([*command(), "--frob"], cwd=tmp_path, capture_output=True, text=True)
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.startswith("Error: unknown option '--frob'.\nUsage: apply_patch")
    assert list(tmp_path.iterdir()) == []


def test_double_dash_and_a_lone_dash(tmp_path):
    patch = "*** Begin Patch\n*** Add File: a.txt\n+hi\n*** End Patch\n"
    run = subprocess.run([*command(), "--", patch], cwd=tmp_path, capture_output=True, text=True)
    assert run.returncode == 0 and (tmp_path / "a.txt").read_bytes() == b"hi\n"
    patch = patch.replace("a.txt", "b.txt")
    run = subprocess.run(
        [*command(), "-"], cwd=tmp_path, input=patch, capture_output=True, text=True
    )
    assert run.returncode == 0 and (tmp_path / "b.txt").read_bytes() == b"hi\n"
