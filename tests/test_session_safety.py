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
from applydiff.session import FileChange, Session

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
    Session(root).close()
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
