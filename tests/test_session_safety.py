"""The session under stress: a locked or failing store, other processes, undo per file and of
review steps, file modes in the history, stored paths the policy now refuses."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import textwrap
import threading
import time

import pytest

from applydiff import Delete, Move, Replace, Workspace, Write
from applydiff.session import CommitFile as FileChange
from applydiff.session import Session

APP = "def run():\n    return 1\n\n\ndef other():\n    return 2\n"


@pytest.fixture
def root(tmp_path):
    (tmp_path / "app.py").write_text(APP)
    (tmp_path / "notes.txt").write_text("a\nb\n")
    return tmp_path


def statuses(ws: Workspace) -> dict[str, str]:
    return {r["path"]: r["status"] for r in ws.status()}


# -- the store -----------------------------------------------------------------------------------
def test_a_failed_history_insert_rolls_back_and_leaves_the_store_usable(root):
    s = Session(root)
    twice = [FileChange("a", b"1", b"2"), FileChange("a", b"1", b"3")]  # one path twice
    with pytest.raises(sqlite3.IntegrityError):
        s.add_commit("apply", twice)
    assert s.last_commit() is None  # the commit row went with the failed files
    s.remember("app.py", APP)  # not stuck inside an open transaction
    assert s.snapshot("app.py") == APP
    s.close()


def test_opening_waits_for_another_writer_instead_of_failing(root):
    first = Session(root)
    first.bump("exchanges")  # the store is made when something is recorded
    first.close()
    other = sqlite3.connect(
        root / ".applydiff" / "session.db", isolation_level=None, check_same_thread=False
    )
    other.execute("BEGIN IMMEDIATE")  # another process is writing
    done = threading.Event()

    def release() -> None:
        time.sleep(0.3)
        other.execute("COMMIT")
        done.set()

    threading.Thread(target=release).start()
    s = Session(root)
    s.remember("app.py", APP)  # waited for the lock, then wrote
    assert done.is_set() and s.snapshot("app.py") == APP
    s.close()
    other.close()


def test_a_store_failure_after_the_commit_is_a_warning_not_an_error(root, monkeypatch):
    ws = Workspace(root, session=True)

    def locked(*args, **kwargs):
        raise sqlite3.OperationalError("database is locked")

    monkeypatch.setattr(ws.session, "add_commit", locked)
    monkeypatch.setattr(ws.session, "remember", locked)
    result = ws.apply([Replace("app.py", "return 1", "return 10")])
    assert result.ok and result.committed and result.errors == []
    assert (root / "app.py").read_text() == APP.replace("return 1", "return 10")
    assert len(result.warnings) == 2
    assert result.warnings[0].startswith("the files were written, but the session store could")
    assert "database is locked" in result.warnings[0]
    assert result.to_dict()["warnings"] == result.warnings


# -- undo ----------------------------------------------------------------------------------------
def test_undo_of_one_file_takes_back_only_its_last_change(root):
    ws = Workspace(root, session=True)
    ws.apply([Replace("app.py", "return 1", "return 10")])
    ws.apply([Replace("notes.txt", "a", "A"), Replace("app.py", "return 2", "return 20")])
    ws.apply([Replace("app.py", "return 10", "return 100")])
    result = ws.undo("notes.txt")
    assert result.ok and result.files == [{"path": "notes.txt", "action": "restored"}]
    assert (root / "notes.txt").read_text() == "a\nb\n"
    assert (root / "app.py").read_text() == APP.replace("return 1", "return 100").replace(
        "return 2", "return 20"
    )
    ws.undo()  # the last commit: return 100 -> return 10
    ws.undo()  # then the rest of the second commit (app.py only now): return 20 -> return 2
    assert (root / "app.py").read_text() == APP.replace("return 1", "return 10")
    assert ws.undo("app.py").ok and (root / "app.py").read_text() == APP
    assert ws.undo().errors[0]["message"] == "nothing to undo"
    assert ws.undo("app.py").errors[0]["message"] == "no change to app.py to undo"
    assert [ws.undo().errors[0].code, ws.undo("app.py").errors[0].code] == [
        "nothing_to_undo",
        "nothing_to_undo",
    ]


def test_undo_of_an_accept_puts_the_output_back_pending(root):
    ws = Workspace(root, session=True)
    ws.apply([Replace("app.py", "return 1", "return 10")], review=True)
    assert ws.accept().ok and statuses(ws) == {"app.py": ""}
    assert ws.undo().ok
    assert (root / "app.py").read_text() == APP
    assert statuses(ws) == {"app.py": "M"}
    assert ws.session.pending("app.py").output == APP.replace("return 1", "return 10")
    assert ws.accept().ok
    assert (root / "app.py").read_text() == APP.replace("return 1", "return 10")


def test_review_steps_undo_one_edit_at_a_time(root):
    ws = Workspace(root, session=True)
    ws.apply([Replace("app.py", "return 1", "return 10")], review=True)
    ws.apply([Replace("app.py", "return 2", "return 20")], review=True)
    s = ws.session
    assert s.undo_pending("app.py").output == APP.replace("return 1", "return 10")
    assert s.undo_pending("app.py") is None
    assert statuses(ws) == {} and (root / "app.py").read_text() == APP
    # A pending output started afresh has no steps left from the one before.
    ws.apply([Replace("app.py", "return 2", "return 3")], review=True)
    assert s.undo_pending("app.py") is None


def test_history_keeps_file_modes(root):
    script = root / "run.sh"
    script.write_text("#!/bin/sh\necho hi\n")
    script.chmod(0o755)
    ws = Workspace(root, session=True)
    assert ws.apply([Delete("run.sh")]).ok and not script.exists()
    assert ws.undo().ok
    assert script.read_text() == "#!/bin/sh\necho hi\n"
    assert script.stat().st_mode & 0o777 == 0o755


def test_a_moved_file_keeps_its_mode_and_encoding(root):
    src = root / "tool.sh"
    src.write_bytes("#!/bin/sh\necho caf\xe9\n".encode("latin-1"))
    src.chmod(0o750)
    ws = Workspace(root, session=True)
    result = ws.apply([Move("tool.sh", "bin/tool.sh"), Replace("bin/tool.sh", "echo", "printf")])
    assert result.ok, result.errors
    moved = root / "bin" / "tool.sh"
    assert moved.read_bytes() == "#!/bin/sh\nprintf caf\xe9\n".encode("latin-1")
    assert moved.stat().st_mode & 0o777 == 0o750


# -- pending outputs and the disk ------------------------------------------------------------------
def test_a_plain_apply_over_a_pending_output_is_refused(root):
    ws = Workspace(root, session=True)
    ws.apply([Replace("app.py", "return 1", "return 10")], review=True)
    result = ws.apply([Replace("app.py", "return 2", "return 20")])
    assert [e["code"] for e in result.errors] == ["conflict"]
    assert "pending review" in result.errors[0]["message"]
    assert (root / "app.py").read_text() == APP
    assert ws.session.pending("app.py").output == APP.replace("return 1", "return 10")
    # In review mode the edit goes on top of the pending output.
    assert ws.apply([Replace("app.py", "return 2", "return 20")], review=True).ok


def test_a_review_output_merged_with_a_local_change_is_based_on_the_disk(root):
    ws = Workspace(root, session=True)
    ws.read("app.py", remember=True)
    local = APP.replace("return 2", "return 22")
    (root / "app.py").write_text(local)  # a person edits another function meanwhile
    assert ws.apply([Replace("app.py", "return 1", "return 10")], review=True).ok
    merged = local.replace("return 1", "return 10")
    assert ws.session.pending("app.py").output == merged
    assert statuses(ws) == {"app.py": "M"}  # made from what the disk holds: no conflict
    assert ws.accept().ok and (root / "app.py").read_text() == merged


def test_without_the_model_view_edits_go_against_the_disk(root):
    with_view = Workspace(root, session=True)
    with_view.read("app.py", remember=True)
    (root / "app.py").write_text(APP.replace("return 1", "return 5"))
    ws = Workspace(root, session=True, model_view=False)
    # The snapshot (return 1) is not the base; the disk (return 5) is.
    result = ws.apply([Replace("app.py", "return 5", "return 6")])
    assert result.ok, result.errors
    assert ws.session.count("exchanges") == 0  # the model's counters are not touched
    assert ws.session.snapshot("app.py") == APP  # nor what it was shown
    assert ws.undo().ok and (root / "app.py").read_text() == APP.replace("return 1", "return 5")


# -- other processes -------------------------------------------------------------------------------
def test_a_commit_waits_for_another_process_holding_the_root(root):
    holder = textwrap.dedent(
        f"""
        import sys, time
        from pathlib import Path
        from applydiff.commit import root_lock
        with root_lock(Path({str(root)!r})):
            print("locked", flush=True)
            time.sleep(0.5)
            print(time.time(), flush=True)
        """
    )
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    proc = subprocess.Popen(
        [sys.executable, "-c", holder], stdout=subprocess.PIPE, text=True, env=env
    )
    assert proc.stdout.readline().strip() == "locked"
    ws = Workspace(root, session=True)
    assert ws.apply([Replace("app.py", "return 1", "return 10")]).ok
    done = time.time()
    released = float(proc.stdout.readline())
    proc.wait(timeout=10)
    assert done >= released  # the write happened after the other process let go


# -- stored paths the policy now refuses -----------------------------------------------------------
def test_pending_paths_that_became_ignored_are_errors_not_crashes(root):
    ws = Workspace(root, session=True)
    ws.apply([Write("gen/out.txt", "x\n")], review=True)
    (root / ".applydiffignore").write_text("gen/\n")
    ws = Workspace(root, session=True)
    result = ws.accept()
    assert not result.ok and [e["code"] for e in result.errors] == ["path_denied"]
    assert not (root / "gen").exists()
    assert ws.discard().ok and statuses(ws) == {}


# -- second review: undo, pending outputs and conversations ---------------------------------------
def test_undoing_a_review_step_restores_its_base_too(root):
    ws = Workspace(root, session=True)
    ws.apply([Replace("app.py", "return 1", "return 10")], review=True)  # made from APP
    local = APP.replace("return 2", "return 22")
    (root / "app.py").write_text(local)  # a person edits meanwhile
    assert ws.apply([Replace("app.py", "def run():", "def start():")], review=True).ok
    assert ws.session.pending("app.py").output == local.replace("return 1", "return 10").replace(
        "def run", "def start"
    )
    assert statuses(ws) == {"app.py": "M"}  # merged with the local edit: made from the disk
    assert ws.session.undo_pending("app.py").output == APP.replace("return 1", "return 10")
    # The output before is made from the old disk: accepting it would erase the local edit.
    assert statuses(ws) == {"app.py": "~M"}
    assert [e["code"] for e in ws.accept().errors] == ["conflict"]
    assert (root / "app.py").read_text() == local


def test_a_commit_refuses_a_file_that_went_pending_after_the_preview(root):
    person = Workspace(root, session=True, model_view=False)
    preview = person.apply([Replace("notes.txt", "a", "A")], dry_run=True)
    model = Workspace(root, session=True)
    assert model.apply([Replace("notes.txt", "b", "B")], review=True).ok
    result = person.commit(preview)
    assert not result.ok and result.errors[0]["code"] == "conflict"
    assert result.errors[0]["pending_review"] is True
    assert (root / "notes.txt").read_text() == "a\nb\n"
    assert model.session.pending("notes.txt").output == "a\nB\n"


def test_undo_of_an_accept_is_refused_over_a_newer_pending_output(root):
    ws = Workspace(root, session=True)
    ws.apply([Replace("notes.txt", "a", "A")], review=True)
    assert ws.accept().ok
    ws.apply([Replace("notes.txt", "b", "B")], review=True)
    result = ws.undo()
    assert [e["code"] for e in result.errors] == ["conflict"]
    assert "newer output pending review" in result.errors[0]["message"]
    assert ws.session.pending("notes.txt").output == "A\nB\n"
    assert (root / "notes.txt").read_text() == "A\nb\n"


def test_undo_of_one_side_of_a_move_restores_both(root):
    ws = Workspace(root, session=True)
    assert ws.apply([Move("notes.txt", "docs/notes.txt")]).ok
    result = ws.undo("docs/notes.txt")
    assert sorted(f["path"] for f in result.files) == ["docs/notes.txt", "notes.txt"]
    assert (root / "notes.txt").read_text() == "a\nb\n"
    assert not (root / "docs" / "notes.txt").exists()


def test_a_locked_store_keeps_nothing_of_a_review_response(root):
    ws = Workspace(root, session=True)
    ws.session.bump("exchanges")  # the store is made when something is recorded
    ws.session.busy_timeout_ms = 50
    ws.session._db.execute("PRAGMA busy_timeout=50")
    other = sqlite3.connect(root / ".applydiff" / "session.db", isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another process holds the store
    try:
        result = ws.apply(
            [Replace("app.py", "return 1", "return 10"), Replace("notes.txt", "a", "A")],
            review=True,
        )
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert not result.ok and result.errors[0]["code"] == "io_error"
    assert "nothing was kept" in result.errors[0]["message"]
    assert ws.session.pendings() == []


def test_a_lock_that_cannot_be_taken_is_an_io_error(root):
    ws = Workspace(root, session=True)
    preview = ws.apply([Replace("app.py", "return 1", "return 10")], dry_run=True)
    ws.session.close()
    state = root / ".applydiff"
    for p in state.iterdir():
        p.unlink()
    state.rmdir()
    state.write_text("in the way")
    result = ws.commit(preview)
    assert not result.ok and result.errors[0]["code"] == "io_error"
    assert "cannot lock the root" in result.errors[0]["message"]
    assert (root / "app.py").read_text() == APP


def test_conversations_on_one_root_keep_apart(root):
    from applydiff.tools import ToolLayer

    a = ToolLayer(root)
    a.handle_tool_call("read_file", {"path": "app.py"})
    b = ToolLayer(root)  # a second client on the same root
    b.handle_tool_call("read_file", {"path": "notes.txt"})
    edit = {"path": "app.py", "old_string": "return 1", "new_string": "return 10"}
    assert not a.handle_tool_call("edit_file", {"edits": [edit]}).is_error
    r = b.handle_tool_call("edit_file", {"edits": [{**edit, "old_string": "return 2"}]})
    assert r.is_error and "not_read" in r.text  # b never read app.py
    assert a.session.count("exchanges") == 1 and b.session.count("exchanges") == 1
    # The model's undo_edit takes back only its own conversation's changes.
    te = "str_replace_based_edit_tool"
    r = b.handle_tool_call(te, {"command": "undo_edit", "path": "app.py"})
    assert r.is_error and "made by another conversation" in r.text
    assert not a.handle_tool_call(te, {"command": "undo_edit", "path": "app.py"}).is_error
    assert (root / "app.py").read_text() == APP
    a.close()
    b.close()


def test_a_merge_keeps_a_deletion_pending_when_the_file_changed(root):
    ws = Workspace(root, session=True)
    assert ws.apply([Delete("notes.txt")], review=True).ok
    (root / "notes.txt").write_text("a\nb\nlocal\n")
    result = ws.merge()
    assert result.files == [{"path": "notes.txt", "action": "kept", "conflicts": []}]
    assert "stays pending" in result.errors[0]["message"]
    assert ws.session.pending("notes.txt") is not None
    assert (root / "notes.txt").read_text() == "a\nb\nlocal\n"


def test_a_store_from_schema_1_is_migrated(root):
    state = root / ".applydiff"
    state.mkdir()
    db = sqlite3.connect(state / "session.db")
    db.executescript(
        """
        CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        INSERT INTO meta VALUES ('schema', '1');
        CREATE TABLE snapshots (path TEXT PRIMARY KEY, text BLOB NOT NULL,
            shown_at REAL NOT NULL);
        CREATE TABLE pending (path TEXT PRIMARY KEY, base BLOB, output BLOB,
            created_at REAL NOT NULL);
        CREATE TABLE commits (id INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL,
            at REAL NOT NULL);
        CREATE TABLE commit_files (
            commit_id INTEGER NOT NULL REFERENCES commits(id) ON DELETE CASCADE,
            path TEXT NOT NULL, before BLOB, after BLOB, PRIMARY KEY (commit_id, path));
        CREATE TABLE counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
        CREATE TABLE files (path TEXT PRIMARY KEY, original BLOB,
            patches INTEGER NOT NULL DEFAULT 0,
            failures INTEGER NOT NULL DEFAULT 0, keystone INTEGER NOT NULL DEFAULT 0);
        INSERT INTO snapshots VALUES ('app.py', CAST('def run():' AS BLOB), 1.0);
        INSERT INTO pending VALUES ('notes.txt', CAST('a\nb\n' AS BLOB),
            CAST('A\nb\n' AS BLOB), 1.0);
        INSERT INTO commits VALUES (1, 'apply', 1.0);
        INSERT INTO commit_files VALUES (1, 'app.py', CAST('old\n' AS BLOB), CAST('new\n' AS BLOB));
        INSERT INTO counters VALUES ('exchanges', 4);
        INSERT INTO files VALUES ('app.py', NULL, 2, 1, 0);
        """
    )
    db.commit()
    db.close()
    s = Session(root)
    assert s.conversation == "default"
    assert s.snapshot("app.py") == "def run():"
    assert s.pending("notes.txt").output == "A\nb\n"
    assert s.count("exchanges") == 4 and s.stats("app.py").patches == 2
    last = s.last_commit()
    assert (last.kind, last.origin, last.files[0].before, last.files[0].mode_before) == (
        "apply",
        None,
        b"old\n",
        None,
    )
    s.set_pending("notes.txt", "a\nb\n", "A\nB\n")  # the new tables work
    assert s.undo_pending("notes.txt").output == "A\nb\n"
    s.close()
