"""The command line for a person (issue 29): --check as git apply's, advice in the words of
this command's flags (--line N, --replace-all), and those flags doing what the advice says."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

CLI = [sys.executable, "-m", "applydiff"]
TWICE = b"x = 1\ny = 2\nx = 1\n"
AMBIGUOUS = "a.py\n```\n<<<<<<< SEARCH\nx = 1\n=======\nx = 3\n>>>>>>> REPLACE\n```\n"


def run(root: Path, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [*CLI, *args], cwd=root, input=stdin, capture_output=True, text=True, timeout=60
    )


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    (tmp_path / "a.py").write_bytes(TWICE)
    (tmp_path / "amb.md").write_text(AMBIGUOUS)
    (tmp_path / "ok.md").write_text(AMBIGUOUS.replace("x = 1\n=", "y = 2\n="))
    return tmp_path


def test_check_is_silent_when_it_applies(tree):
    done = run(tree, "apply", "ok.md", "--check")
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    assert (tree / "a.py").read_bytes() == TWICE
    assert not (tree / ".applydiff").exists()


def test_check_prints_only_the_problem_when_it_does_not(tree):
    done = run(tree, "apply", "amb.md", "--check")
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr == (
        "ambiguous a.py (edit 0, answer line 3): the search text matches 2 places (tier "
        "exact) at lines 1, 3; add surrounding lines that make it unique, pick the place with "
        "--line N (the line it starts at), or pass --replace-all to change every occurrence\n"
    )
    assert (tree / "a.py").read_bytes() == TWICE


def test_dry_run_still_shows_the_diff(tree):
    done = run(tree, "apply", "ok.md", "--dry-run")
    assert done.returncode == 0
    assert done.stdout == (
        "--- a/a.py\n+++ b/a.py\n@@ -1,3 +1,3 @@\n x = 1\n-y = 2\n+x = 3\n x = 1\n"
    )
    assert done.stderr.endswith("would apply to 1 file(s); nothing was written (dry run)\n")
    assert (tree / "a.py").read_bytes() == TWICE


def test_check_with_json_is_one_object(tree):
    done = run(tree, "--json", "apply", "amb.md", "--check")
    assert done.returncode == 1 and done.stderr == ""
    out = json.loads(done.stdout)
    assert out["ok"] is False and out["dry_run"] is True
    [error] = out["errors"]
    assert error["code"] == "ambiguous" and "--replace-all" in error["message"]
    assert "replace_all" not in error["message"].replace("--replace-all", "")


def test_line_picks_the_place_the_advice_names(tree):
    done = run(tree, "apply", "amb.md", "--line", "3", "--yes")
    assert done.returncode == 0, done.stderr
    assert (tree / "a.py").read_bytes() == b"x = 1\ny = 2\nx = 3\n"
    assert "edit 0: a.py lines 3-3: exact (1.00)" in done.stderr


def test_replace_all_changes_every_occurrence(tree):
    done = run(tree, "apply", "amb.md", "--replace-all", "--yes")
    assert done.returncode == 0, done.stderr
    assert (tree / "a.py").read_bytes() == b"x = 3\ny = 2\nx = 3\n"


def test_a_line_below_one_is_a_usage_error(tree):
    done = run(tree, "apply", "amb.md", "--line", "0", "--yes")
    assert done.returncode == 2 and "--line takes a line number, 1 or more, not 0" in done.stderr
    assert (tree / "a.py").read_bytes() == TWICE


def test_a_missing_file_is_told_as_a_person_can_fix_it(tree):
    (tree / "b.md").write_text(AMBIGUOUS.replace("a.py", "b.py"))
    done = run(tree, "apply", "b.md", "--check")
    assert done.returncode == 1
    assert "; to create it, the answer must hold the whole file" in done.stderr
    assert "write_file" not in done.stderr and not (tree / "b.py").exists()


def test_tool_results_keep_the_models_words(tree):
    from applydiff.tools import ToolLayer

    layer = ToolLayer(tree, require_read=False)
    answer = layer.handle_tool_call(
        "edit_file", {"path": "a.py", "old_string": "x = 1", "new_string": "x = 3"}
    )
    assert answer.is_error and "set replace_all" in answer.text and "--line" not in answer.text
