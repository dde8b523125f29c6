"""The state directory (issue 18, item 6): ``.applydiff/`` is made only by what records
something, and then holds a ``.gitignore`` of ``*`` so that git never sees it."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from applydiff import Replace, Workspace
from applydiff.session import Session
from git_repo import git

BLOCK = "app.py\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE\n"


def everything(root: Path) -> dict[str, bytes | None]:
    """Every entry under ``root``: a file's bytes, None for a directory."""
    return {
        p.relative_to(root).as_posix(): (None if p.is_dir() else p.read_bytes())
        for p in sorted(root.rglob("*"))
    }


@pytest.fixture
def root(tmp_path: Path) -> Path:
    (tmp_path / "app.py").write_bytes(b"x = 1\n")
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "b.txt").write_bytes(b"b\n")
    return tmp_path


def cli_workspace(root: Path) -> Workspace:
    """As the command line opens a root: a session store, edits against the disk."""
    return Workspace(root, session=True, store_optional=True, model_view=False)


def test_reading_commands_leave_the_tree_untouched(root):
    before = everything(root)
    ws = cli_workspace(root)
    assert ws.apply(BLOCK, dry_run=True).ok  # a dry run
    rejected = ws.apply(BLOCK.replace("x = 1", "x = 9"))  # a rejected apply
    assert [e.code for e in rejected.errors] == ["no_match"]
    assert ws.status() == []
    undone = ws.undo()
    assert [e.code for e in undone.errors] == ["nothing_to_undo"]
    assert [e.code for e in ws.undo("app.py").errors] == ["nothing_to_undo"]
    for verb in (ws.accept, ws.discard, ws.merge):
        assert verb().ok is not None
    ws.session.close()
    Workspace(root).apply(BLOCK, dry_run=True)  # no session at all
    assert everything(root) == before
    assert not (root / ".applydiff").exists()


def test_a_model_session_that_only_reads_makes_no_store(root):
    s = Session(root)
    s.new_conversation()
    assert s.snapshot("app.py") is None and s.pendings() == [] and s.last_commit() is None
    assert not s.exists
    s.close()
    assert not (root / ".applydiff").exists()


def test_a_store_made_later_by_another_process_is_read(root):
    reader = Session(root)
    writer = Session(root)
    writer.remember("app.py", "x = 1\n")
    assert reader.exists
    assert [p for p in (root / ".applydiff").iterdir() if p.name == "session.db"]
    writer.close()
    reader.close()


def test_a_commit_makes_the_directory_with_its_gitignore(root):
    ws = cli_workspace(root)
    assert ws.apply(BLOCK).ok
    state = root / ".applydiff"
    assert (state / ".gitignore").read_bytes() == b"*\n"
    assert (root / "app.py").read_bytes() == b"x = 2\n"
    assert not (root / ".gitignore").exists()


def test_an_older_state_directory_gets_its_gitignore_at_the_next_record(root):
    (root / ".applydiff").mkdir()
    ws = Workspace(root)
    assert ws.apply(BLOCK, dry_run=True).ok
    assert not (root / ".applydiff" / ".gitignore").exists()  # a dry run records nothing
    assert ws.apply(BLOCK).ok
    assert (root / ".applydiff" / ".gitignore").read_bytes() == b"*\n"


def test_a_gitignore_that_is_a_link_is_refused_not_written_through(root, tmp_path_factory):
    outside = tmp_path_factory.mktemp("out") / "victim"
    outside.write_bytes(b"keep\n")
    (root / ".applydiff").mkdir()
    os.symlink(outside, root / ".applydiff" / ".gitignore")
    result = Workspace(root).apply(BLOCK)
    assert [e.code for e in result.errors] == ["path_denied"]
    assert outside.read_bytes() == b"keep\n"
    assert (root / "app.py").read_bytes() == b"x = 1\n"


@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_git_sees_only_the_edited_file(root):
    git(root, "init", "-q")
    git(root, "add", ".")
    git(root, "commit", "-q", "-m", "start")
    ws = cli_workspace(root)
    assert ws.apply([Replace("app.py", "x = 1", "x = 3")]).ok
    assert (root / ".applydiff" / "session.db").exists()  # the history, for undo
    assert git(root, "status", "--porcelain") == " M app.py\n"
    git(root, "add", ".")
    assert git(root, "diff", "--cached", "--name-only") == "app.py\n"
    git(root, "reset", "-q")
    assert ws.undo().ok
    assert git(root, "status", "--porcelain") == ""


# -- undo of an added file removes the directories it leaves empty (issue 18, item 7) ----------
def test_undo_of_an_added_file_removes_the_directories_it_leaves_empty(root):
    ws = cli_workspace(root)
    before = everything(root)
    assert ws.apply("*** Begin Patch\n*** Add File: a/b/c/new.txt\n+n\n*** End Patch\n").ok
    assert (root / "a/b/c/new.txt").read_bytes() == b"n\n"
    assert ws.undo().ok
    after = {k: v for k, v in everything(root).items() if not k.startswith(".applydiff")}
    assert after == before
    assert not (root / "a").exists()


def test_undo_keeps_directories_that_hold_other_files(root):
    ws = cli_workspace(root)
    assert ws.apply("*** Begin Patch\n*** Add File: lib/deep/new.txt\n+n\n*** End Patch\n").ok
    (root / "lib" / "deep" / "mine.txt").write_bytes(b"m\n")  # made meanwhile, by a person
    assert ws.undo().ok
    assert not (root / "lib/deep/new.txt").exists()
    assert (root / "lib/deep/mine.txt").read_bytes() == b"m\n"
    assert (root / "lib/b.txt").read_bytes() == b"b\n"


def test_undo_of_a_move_into_a_new_directory(root):
    ws = cli_workspace(root)
    assert ws.apply(
        "*** Begin Patch\n*** Update File: lib/b.txt\n*** Move to: x/y/b.txt\n*** End Patch\n"
    ).ok
    assert not (root / "lib/b.txt").exists() and (root / "lib").is_dir()
    assert ws.undo().ok
    assert (root / "lib/b.txt").read_bytes() == b"b\n"
    assert not (root / "x").exists()


ADD_TWO = """\
--- /dev/null
+++ b/keepdir/sub/m.txt
@@ -0,0 +1 @@
+m
--- /dev/null
+++ b/d1/d2/d3/n.txt
@@ -0,0 +1 @@
+n
"""


def test_undo_removes_only_the_directories_the_commit_created(root):
    (root / "keepdir").mkdir()  # there, and empty, before the apply
    ws = cli_workspace(root)
    before = everything(root)
    assert ws.apply(ADD_TWO).ok
    assert (root / "keepdir/sub/m.txt").read_bytes() == b"m\n"
    assert (root / "d1/d2/d3/n.txt").read_bytes() == b"n\n"
    assert ws.undo().ok
    after = {k: v for k, v in everything(root).items() if not k.startswith(".applydiff")}
    assert after == before
    assert (root / "keepdir").is_dir() and not (root / "d1").exists()


def test_undo_from_the_command_line_keeps_a_directory_that_was_there(root):
    (root / "keepdir").mkdir()
    (root / "add.diff").write_text(ADD_TWO)
    before = everything(root)
    cli = [sys.executable, "-m", "applydiff"]
    run = subprocess.run([*cli, "apply", "add.diff", "--yes"], cwd=root, capture_output=True)
    assert run.returncode == 0, run.stderr
    run = subprocess.run([*cli, "undo"], cwd=root, capture_output=True)
    assert run.returncode == 0, run.stderr
    after = {k: v for k, v in everything(root).items() if not k.startswith(".applydiff")}
    assert after == before


def test_an_undo_by_path_removes_the_directories_made_for_that_file(root):
    ws = cli_workspace(root)
    assert ws.apply(ADD_TWO).ok
    assert ws.undo("d1/d2/d3/n.txt").ok
    assert not (root / "d1").exists()
    assert (root / "keepdir/sub/m.txt").read_bytes() == b"m\n"
    assert ws.undo().ok
    assert not (root / "keepdir").exists()  # made by that commit: it goes


def test_a_commit_recorded_before_schema_4_removes_no_directory_on_undo(root):
    ws = cli_workspace(root)
    assert ws.apply(ADD_TWO).ok
    ws.session.close()
    db = sqlite3.connect(root / ".applydiff" / "session.db")
    with db:  # as schema 3 wrote it: no dirs_made column
        db.execute("ALTER TABLE commit_files DROP COLUMN dirs_made")
        db.execute("UPDATE meta SET value='3' WHERE key='schema'")
    db.close()
    ws = cli_workspace(root)
    assert ws.undo().ok  # the migration adds the column: NULL, not known
    assert not (root / "d1/d2/d3/n.txt").exists() and not (root / "keepdir/sub/m.txt").exists()
    assert (root / "d1/d2/d3").is_dir() and (root / "keepdir/sub").is_dir()
    ws.session.close()
    db = sqlite3.connect(root / ".applydiff" / "session.db")
    assert db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()[0] == "4"
    db.close()


def test_a_plain_delete_keeps_its_directory(root):
    ws = cli_workspace(root)
    assert ws.apply("*** Begin Patch\n*** Delete File: lib/b.txt\n*** End Patch\n").ok
    assert (root / "lib").is_dir() and list((root / "lib").iterdir()) == []


def test_a_session_in_memory_keeps_pending_outputs_and_leaves_no_state_directory(tmp_path):
    (tmp_path / "app.py").write_bytes(b"x = 1\n")
    scratch = Session(tmp_path, in_memory=True)
    ws = Workspace(tmp_path, session=scratch, model_view=False)
    answer = "app.py\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE\n"
    assert ws.apply(answer, review=True).ok
    assert [r["path"] for r in ws.status() if "pending_file_id" in r] == ["app.py"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["app.py"]
    assert (tmp_path / "app.py").read_bytes() == b"x = 1\n"
