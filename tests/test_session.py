"""Session store, base resolution, review statuses and their transitions, undo."""

from __future__ import annotations

import sqlite3

import pytest

from applydiff import Replace, Workspace, Write, file_id
from applydiff.session import SCHEMA_VERSION, SchemaError, Session

APP = "def run():\n    return 1\n\n\ndef other():\n    return 2\n"


@pytest.fixture
def root(tmp_path):
    (tmp_path / "app.py").write_text(APP)
    (tmp_path / "notes.txt").write_text("a\nb\n")
    return tmp_path


def statuses(ws: Workspace) -> dict[str, str]:
    return {r["path"]: r["status"] for r in ws.status()}


def test_store_is_sqlite_wal_with_a_schema_version(root):
    s = Session(root)
    s.remember("app.py", APP)
    s.close()
    db = sqlite3.connect(root / ".applydiff" / "session.db")
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()[0] == str(
        SCHEMA_VERSION
    )
    db.execute("UPDATE meta SET value='99' WHERE key='schema'")
    db.commit()
    db.close()
    with pytest.raises(SchemaError):
        Session(root)


def test_texts_with_invalid_bytes_survive_the_store(root):
    s = Session(root)
    s.remember("x", "bad \udcff byte")
    assert s.snapshot("x") == "bad \udcff byte"


# -- base resolution ------------------------------------------------------------------------
def test_base_is_the_snapshot_the_model_was_shown(root):
    ws = Workspace(root, session=True)
    ws.read("app.py", remember=True)
    # The file changes on disk after the model read it.
    (root / "app.py").write_text(APP.replace("return 2", "return 22"))
    # The model's edit quotes what it was shown; it applies to that base and is merged with
    # the local change.
    result = ws.apply([Replace("app.py", "return 1", "return 10")])
    assert result.ok, result.errors
    assert (root / "app.py").read_text() == APP.replace("return 1", "return 10").replace(
        "return 2", "return 22"
    )


def test_overlapping_local_change_is_a_conflict_and_nothing_is_written(root):
    ws = Workspace(root, session=True)
    ws.read("app.py", remember=True)
    (root / "app.py").write_text(APP.replace("return 1", "return 11"))
    result = ws.apply([Replace("app.py", "return 1\n", "return 10\n")])
    assert [e["code"] for e in result.errors] == ["conflict"]
    assert "touch the same lines" in result.errors[0]["message"]
    assert "merged lines" not in result.errors[0]["message"]  # numbers of no file the model saw
    assert (root / "app.py").read_text() == APP.replace("return 1", "return 11")
    # The model is shown the file as it is now (the feedback's writable base), so its next
    # edit is matched against that and applies.
    assert ws.session.snapshot("app.py") == APP.replace("return 1", "return 11")
    again = ws.apply([Replace("app.py", "return 11\n", "return 10\n")])
    assert again.ok, again.errors
    assert (root / "app.py").read_text() == APP.replace("return 1", "return 10")


def test_base_order_pending_then_snapshot_then_disk(root):
    ws = Workspace(root, session=True)
    # disk: no snapshot, no pending
    assert ws.read_base("app.py").kind == "disk"
    ws.read("app.py", remember=True)
    assert ws.read_base("app.py").kind == "snapshot"
    ws.apply([Replace("app.py", "return 1", "return 10")], review=True)
    base = ws.read_base("app.py")
    assert (base.kind, base.base, base.merge_base) == (
        "pending",
        APP.replace("return 1", "return 10"),
        APP,
    )
    # Edits stack on the pending output and keep its first base.
    ws.apply([Replace("app.py", "return 10", "return 100")], review=True)
    p = ws.session.pending("app.py")
    assert (p.base, p.output) == (APP, APP.replace("return 1", "return 100"))
    assert (root / "app.py").read_text() == APP


def test_file_id_is_checked_against_the_resolved_base(root):
    ws = Workspace(root, session=True)
    ws.read("app.py", remember=True)
    ws.apply([Replace("app.py", "return 1", "return 10")], review=True)
    pending_id = file_id(APP.replace("return 1", "return 10"))
    ok = ws.apply([Replace("app.py", "return 2", "return 20", file_id=pending_id)], review=True)
    assert ok.ok
    stale = ws.apply([Replace("app.py", "return 20", "return 3", file_id="00000000")], review=True)
    err = stale.errors[0]
    assert err["code"] == "file_id_mismatch"
    assert err["expected"] == "00000000"
    assert err["actual"] == file_id(APP.replace("return 1", "return 10").replace("2", "20"))


def test_read_gate(root):
    ws = Workspace(root, session=True, require_read=True)
    result = ws.apply([Replace("app.py", "return 1", "return 10")])
    assert [e["code"] for e in result.errors] == ["not_read"]
    assert "read_file" in result.errors[0]["message"]
    assert ws.apply([Write("new.py", "x = 1\n")]).ok  # new files need no read
    ws.read("app.py", remember=True)
    assert ws.apply([Replace("app.py", "return 1", "return 10")]).ok
    # Off without require_read (applydiff apply / call).
    assert Workspace(root, session=True).apply([Replace("notes.txt", "a", "A")]).ok


# -- review statuses and transitions ------------------------------------------------------------
def test_statuses_and_accept(root):
    ws = Workspace(root, session=True)
    ws.read("app.py", remember=True)
    ws.read("notes.txt", remember=True)
    assert statuses(ws) == {"app.py": "", "notes.txt": ""}
    result = ws.apply(
        [Replace("app.py", "return 1", "return 10"), Write("new.md", "# new\n")], review=True
    )
    assert result.ok and result.review and result.to_dict()["review"] is True
    assert statuses(ws) == {"app.py": "M", "new.md": "A", "notes.txt": ""}
    (root / "notes.txt").write_text("a\nb\nlocal\n")
    assert statuses(ws)["notes.txt"] == "~"
    accepted = ws.accept()
    assert accepted.ok and {f["path"]: f["action"] for f in accepted.files} == {
        "app.py": "modified",
        "new.md": "added",
    }
    assert (root / "app.py").read_text() == APP.replace("return 1", "return 10")
    assert (root / "new.md").read_text() == "# new\n"
    assert statuses(ws) == {"app.py": "", "new.md": "", "notes.txt": "~"}


def test_conflict_status_refuses_accept_and_merges(root):
    ws = Workspace(root, session=True)
    ws.read("app.py", remember=True)
    ws.apply([Replace("app.py", "return 1", "return 10")], review=True)
    (root / "app.py").write_text(APP.replace("return 2", "return 22"))
    assert statuses(ws) == {"app.py": "~M"}
    refused = ws.accept(["app.py"])
    assert not refused.ok and refused.errors[0]["code"] == "conflict"
    merged = ws.merge(["app.py"])
    assert merged.ok and merged.errors == []
    assert merged.files == [{"path": "app.py", "action": "merged", "conflicts": []}]
    assert (root / "app.py").read_text() == APP.replace("return 1", "return 10").replace(
        "return 2", "return 22"
    )
    assert statuses(ws) == {"app.py": ""}


def test_merge_with_conflict_writes_markers_and_reports(root):
    ws = Workspace(root, session=True)
    ws.read("app.py", remember=True)
    ws.apply([Replace("app.py", "return 1", "return 10")], review=True)
    (root / "app.py").write_text(APP.replace("return 1", "return 11"))
    merged = ws.merge()
    assert merged.files[0]["conflicts"] == [[2, 8]]
    assert [e["code"] for e in merged.errors] == ["conflict"]
    assert (root / "app.py").read_text() == (
        "def run():\n<<<<<<< local\n    return 11\n||||||| snapshot\n    return 1\n=======\n"
        "    return 10\n>>>>>>> model\n\n\ndef other():\n    return 2\n"
    )


def test_discard_and_deletion_status(root):
    ws = Workspace(root, session=True)
    ws.read("notes.txt", remember=True)
    from applydiff import Delete

    ws.apply([Delete("notes.txt")], review=True)
    assert statuses(ws) == {"notes.txt": "D"}
    assert ws.discard(["notes.txt"]).files == [{"path": "notes.txt", "action": "discarded"}]
    assert statuses(ws) == {"notes.txt": ""}
    assert (root / "notes.txt").exists()


def test_added_file_that_appears_on_disk_is_a_conflict(root):
    ws = Workspace(root, session=True)
    ws.apply([Write("x.txt", "model\n")], review=True)
    assert statuses(ws) == {"x.txt": "A"}
    (root / "x.txt").write_text("local\n")
    assert statuses(ws) == {"x.txt": "~M"}


def test_undo_restores_the_last_commit(root):
    ws = Workspace(root, session=True)
    ws.apply([Replace("app.py", "return 1", "return 10"), Write("n.txt", "n\n")])
    assert ws.undo().ok
    assert (root / "app.py").read_text() == APP and not (root / "n.txt").exists()
    nothing = ws.undo()
    assert not nothing.ok and nothing.errors[0]["message"] == "nothing to undo"
    assert nothing.errors[0]["code"] == "nothing_to_undo"


def test_undo_refuses_when_the_file_changed_since(root):
    ws = Workspace(root, session=True)
    ws.apply([Replace("notes.txt", "a", "A")])
    (root / "notes.txt").write_text("A\nb\nlater\n")
    result = ws.undo()
    assert [e["code"] for e in result.errors] == ["conflict"]
    assert (root / "notes.txt").read_text() == "A\nb\nlater\n"


def test_undo_of_accept_and_merge(root):
    ws = Workspace(root, session=True)
    ws.read("app.py", remember=True)
    ws.apply([Replace("app.py", "return 1", "return 10")], review=True)
    ws.accept()
    assert ws.undo().ok and (root / "app.py").read_text() == APP


def test_counters_and_file_stats(root):
    ws = Workspace(root, session=True)
    ws.apply([Replace("app.py", "return 1", "return 10"), Replace("app.py", "return 2", "x")])
    ws.apply([Replace("app.py", "nope", "y")])
    ws.apply([Replace("app.py", "nope", "y")])
    s = ws.session
    assert (s.count("exchanges"), s.count("errors")) == (3, 2)
    stats = s.stats("app.py")
    assert (stats.patches, stats.failures, stats.original) == (2, 2, APP)
    ws.apply([Replace("app.py", "return 10", "return 1")])
    assert s.stats("app.py").failures == 0
