"""``applydiff show PATH``: the output pending review for one file, as accept would write it
(what an editor shows next to the file on disk; issue 30)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

CLI = [sys.executable, "-m", "applydiff"]
ANSWER = (
    "a.py\n```\n<<<<<<< SEARCH\nx = 1\n=======\nx = 3\n>>>>>>> REPLACE\n```\n\n"
    "crlf.txt\n```\n<<<<<<< SEARCH\none\n=======\nuno\n>>>>>>> REPLACE\n```\n"
)


def run(root: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([*CLI, *args], cwd=root, capture_output=True, text=True, timeout=60)


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    (tmp_path / "a.py").write_bytes(b"x = 1\ny = 2\n")
    (tmp_path / "crlf.txt").write_bytes(b"one\r\ntwo\r\n")
    (tmp_path / "ans.md").write_text(ANSWER)
    done = run(tmp_path, "apply", "ans.md", "--review", "--yes")
    assert done.returncode == 0, done.stderr
    return tmp_path


def test_show_prints_the_pending_output_and_leaves_the_disk(tree):
    done = run(tree, "show", "a.py")
    assert (done.returncode, done.stdout, done.stderr) == (0, "x = 3\ny = 2\n", "")
    assert (tree / "a.py").read_bytes() == b"x = 1\ny = 2\n"
    crlf = subprocess.run([*CLI, "show", "crlf.txt"], cwd=tree, capture_output=True, timeout=60)
    assert crlf.stdout == b"uno\r\ntwo\r\n"  # the bytes accept would write


def test_show_json_has_the_base_the_status_and_the_file_ids(tree):
    first = json.loads(run(tree, "status", "--json").stdout)["files"]
    row = next(r for r in first if r["path"] == "a.py")
    done = run(tree, "show", "./a.py", "-C", str(tree), "--json")
    assert done.returncode == 0
    assert json.loads(done.stdout) == {
        "ok": True,
        "path": "a.py",
        "status": "M",
        "base": "x = 1\ny = 2\n",
        "output": "x = 3\ny = 2\n",
        "file_id": row["file_id"],
        "pending_file_id": row["pending_file_id"],
    }
    (tree / "a.py").write_text("x = 1\ny = 5\n")  # changed on disk meanwhile: ~M
    assert json.loads(run(tree, "show", "a.py", "--json").stdout)["status"] == "~M"


def test_show_with_nothing_pending_exits_1(tree, tmp_path_factory):
    done = run(tree, "show", "ans.md")
    assert (done.returncode, done.stdout, done.stderr) == (1, "", "nothing pending for ans.md\n")
    done = run(tree, "show", "ans.md", "--json")
    assert done.returncode == 1
    error = json.loads(done.stdout)["errors"][0]
    assert (error["code"], error["path"]) == ("not_pending", "ans.md")
    bare = tmp_path_factory.mktemp("bare")  # no session store: nothing pending, none made
    assert run(bare, "show", "a.py").returncode == 1
    assert not (bare / ".applydiff").exists()


def test_show_of_a_deletion_prints_nothing(tree):
    (tree / "del.md").write_text("*** Begin Patch\n*** Delete File: a.py\n*** End Patch\n")
    run(tree, "discard")
    assert run(tree, "apply", "del.md", "--review", "--yes").returncode == 0
    done = run(tree, "show", "a.py")
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "the model deletes a.py\n")
    assert json.loads(run(tree, "show", "a.py", "--json").stdout)["output"] is None


def test_show_refuses_a_path_outside_the_root(tree):
    done = run(tree, "show", "../x")
    assert done.returncode == 2 and "outside the project root" in done.stderr
