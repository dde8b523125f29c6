"""A write that fails in the middle of a commit (an OSError, not a crash) is rolled back in
the same process: every file already replaced or deleted gets its old bytes and mode back,
no temp file and no journal is left, and the result says truthfully that nothing was
written, naming the path and the OS's reason. Only a crash leaves a journal to roll forward."""

from __future__ import annotations

import errno
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from applydiff import Delete, Replace, Write, commit
from applydiff.cli import main as cli_main
from applydiff.workspace import Workspace

AZ_DIFF = """\
--- a/a.txt
+++ b/a.txt
@@ -1,2 +1,2 @@
-one
+ONE
 two
--- a/z.txt
+++ b/z.txt
@@ -1 +1 @@
-three
+THREE
"""


def files(root: Path) -> dict[str, object]:
    """Every file and directory under ``root`` but the state directory: bytes and mode."""
    out: dict[str, object] = {}
    for p in sorted(root.rglob("*")):
        rel = p.relative_to(root).as_posix()
        if rel.split("/")[0] == ".applydiff":
            continue
        out[rel + "/" if p.is_dir() else rel] = (
            "dir" if p.is_dir() else (p.read_bytes(), p.stat().st_mode & 0o777)
        )
    return out


def journals(root: Path) -> list[Path]:
    return list((root / ".applydiff").glob("journal-*")) if (root / ".applydiff").is_dir() else []


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    (tmp_path / "a.txt").write_bytes(b"one\ntwo\n")
    (tmp_path / "a.txt").chmod(0o640)
    (tmp_path / "gone.txt").write_bytes(b"delete me\n")
    (tmp_path / "gone.txt").chmod(0o755)
    (tmp_path / "z.txt").write_bytes(b"three\n")
    return tmp_path


def refusing(monkeypatch: pytest.MonkeyPatch, *names: str, times: int | None = None) -> list[str]:
    """Make the rename over a target named one of ``names`` fail with EPERM (at most
    ``times`` times); returns the names of the targets renamed over."""
    real = commit._replace
    seen: list[str] = []
    left = [times]

    def replace(temp_name: str, name: str, fd: int | None) -> None:
        if os.path.basename(name) in names and left[0] != 0:
            if left[0] is not None:
                left[0] -= 1
            raise PermissionError(errno.EPERM, "Operation not permitted", temp_name)
        seen.append(os.path.basename(name))
        real(temp_name, name, fd)

    monkeypatch.setattr(commit, "_replace", replace)
    return seen


OPS = [
    Write("a.txt", "ONE\ntwo\n"),
    Delete("gone.txt"),
    Write("new/deep/n.txt", "brand new\n"),
    Write("z.txt", "THREE\n"),
]


def test_a_failed_rename_puts_back_every_file_already_written(tree, monkeypatch):
    before = files(tree)
    refusing(monkeypatch, "z.txt")
    result = Workspace(tree, session=True, model_view=False).apply(OPS)
    assert not result.ok and not result.committed
    assert files(tree) == before  # bytes and modes; no temp file, no new directory
    assert journals(tree) == []
    [error] = result.errors
    assert error.code == "io_error" and error.path == "z.txt"
    assert error.message.startswith("z.txt: Operation not permitted; nothing was written (")
    for path in ("a.txt", "gone.txt", "new/deep/n.txt"):
        assert path in error.message
    assert "put back" in error.message and "committed" not in error.message
    assert result.to_dict()["dry_run"] is False
    assert result.to_dict()["files"] == []  # no file is said to be modified
    # Nothing was recorded: there is no change to undo, and the next open changes nothing.
    ws = Workspace(tree, session=True, model_view=False)
    assert ws.recovery_problem is None
    assert ws.undo().errors[0].code == "nothing_to_undo"
    assert files(tree) == before


def test_the_first_target_failing_names_nothing_put_back(tree, monkeypatch):
    before = files(tree)
    refusing(monkeypatch, "a.txt")
    result = Workspace(tree).apply(OPS)
    assert files(tree) == before and journals(tree) == []
    assert result.errors[0].message == "a.txt: Operation not permitted; nothing was written"


def test_a_dry_run_committed_later_is_no_dry_run_when_it_fails(tree, monkeypatch):
    ws = Workspace(tree)
    result = ws.apply(OPS, dry_run=True)
    assert result.ok and result.to_dict()["dry_run"] is True
    refusing(monkeypatch, "z.txt")
    ws.commit(result)
    out = result.to_dict()
    assert out["ok"] is False and out["dry_run"] is False
    assert out["errors"][0]["code"] == "io_error"


def test_when_putting_back_fails_the_result_says_what_each_file_holds(tree, monkeypatch, capsys):
    before = files(tree)
    # z.txt fails, then a.txt cannot be put back either (the rename of its old bytes).
    seen = refusing(monkeypatch, "z.txt")
    real = commit._replace

    def replace(temp_name: str, name: str, fd: int | None) -> None:
        if os.path.basename(name) == "a.txt" and "a.txt" in seen:
            raise PermissionError(errno.EPERM, "Operation not permitted", temp_name)
        real(temp_name, name, fd)

    monkeypatch.setattr(commit, "_replace", replace)
    result = Workspace(tree).apply(OPS)
    [error] = result.errors
    assert error.code == "io_error" and error.path == "z.txt"
    assert "a.txt holds the new contents" in error.message
    assert "z.txt is as it was" in error.message
    assert "gone.txt was put back" in error.message
    assert "new/deep/n.txt was removed" in error.message
    assert "next opened" in error.message
    assert (tree / "a.txt").read_bytes() == b"ONE\ntwo\n"
    assert len(journals(tree)) == 1  # kept: it puts the old contents back
    # While a.txt stays unwritable the root refuses every command, without a traceback.
    monkeypatch.setattr(
        commit,
        "_replace",
        lambda *a: (_ for _ in ()).throw(
            PermissionError(errno.EPERM, "Operation not permitted", "x")
        ),
    )
    ws = Workspace(tree, session=True, model_view=False)
    assert ws.recovery_problem is not None and ws.recovery_problem.code == "io_error"
    assert "Operation not permitted" in ws.recovery_problem.message
    got = ws.apply(OPS)
    assert not got.ok and got.errors[0].code == "io_error"
    assert ws.undo().errors[0].code == "io_error"
    # status says so too, and lists nothing (exit 1; one JSON object under --json).
    assert cli_main(["status", "--root", str(tree), "--json"]) == 1
    status = json.loads(capsys.readouterr().out)
    assert status["ok"] is False and status["files"] == []
    assert status["errors"][0]["code"] == "io_error"
    # Once it can be written, the next open finishes putting back: all old.
    monkeypatch.setattr(commit, "_replace", real)
    Workspace(tree)
    assert files(tree) == before and journals(tree) == []


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
@pytest.mark.parametrize("step", ["rollback-journal", "rename", "delete"])
def test_a_crash_while_putting_back_recovers_to_all_old(tree, monkeypatch, step):
    before = files(tree)
    pid = os.fork()
    if pid == 0:  # child: z.txt fails, then the process dies while putting back
        try:
            refusing(monkeypatch, "z.txt")
            failed = [False]
            real = commit._undo_finish

            def undo_finish(*args: object) -> None:
                failed[0] = True
                real(*args)  # type: ignore[arg-type]

            def hook(name: str) -> None:
                if failed[0] and name == step:
                    os._exit(17)

            monkeypatch.setattr(commit, "_undo_finish", undo_finish)
            commit.crash_hook = hook
            Workspace(tree).apply(OPS)
        finally:
            os._exit(0)
    _, status = os.waitpid(pid, 0)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 17  # it died at the step
    assert journals(tree)  # left for the next open
    Workspace(tree)  # recovery
    assert files(tree) == before and journals(tree) == []


def test_a_journal_that_puts_back_is_trusted_only_inside_the_root(tmp_path):
    root = tmp_path / "root"
    root.mkdir()
    outside = tmp_path / "precious.txt"
    outside.write_text("keep\n")
    state = root / ".applydiff"
    state.mkdir()
    txid = "abc123abc123"
    record = {
        "state": "committed",
        "entries": [],
        "dirs": [],
        "drop": [str(tmp_path / f".precious.txt.applydiff-{txid}.tmp"), str(outside)],
        "rmdirs": [str(tmp_path)],
    }
    (state / f"journal-{txid}.json").write_text(json.dumps(record))
    Workspace(root)
    assert outside.read_text() == "keep\n"


def _chattr_works(where: Path) -> bool:
    if shutil.which("chattr") is None or not hasattr(os, "geteuid") or os.geteuid() != 0:
        return False
    probe = where / "probe"
    probe.write_text("x")
    ok = subprocess.run(["chattr", "+i", str(probe)], capture_output=True).returncode == 0
    if ok:
        subprocess.run(["chattr", "-i", str(probe)], capture_output=True)
    probe.unlink()
    return ok


def test_an_immutable_file_from_the_command_line(tmp_path):
    if not _chattr_works(tmp_path):
        pytest.skip("chattr +i does not work here (needs root and a file system with it)")
    (tmp_path / "a.txt").write_bytes(b"one\ntwo\n")
    (tmp_path / "z.txt").write_bytes(b"three\n")
    (tmp_path / "az.diff").write_text(AZ_DIFF)
    before = files(tmp_path)
    subprocess.run(["chattr", "+i", str(tmp_path / "z.txt")], check=True)
    cli = [sys.executable, "-m", "applydiff"]
    try:
        run = subprocess.run(
            [*cli, "--json", "apply", "az.diff", "--yes"],
            cwd=tmp_path,
            capture_output=True,
            text=True,
        )
        assert run.returncode == 1, run.stderr
        out = json.loads(run.stdout)
        assert out["ok"] is False and out["dry_run"] is False and out["files"] == []
        [error] = out["errors"]
        assert error["code"] == "io_error" and error["path"] == "z.txt"
        assert error["message"] == (
            "z.txt: Operation not permitted; nothing was written (a.txt was put back)"
        )
        assert files(tmp_path) == before and journals(tmp_path) == []
        status = subprocess.run([*cli, "status"], cwd=tmp_path, capture_output=True, text=True)
        assert status.returncode == 0 and "Traceback" not in status.stderr
    finally:
        subprocess.run(["chattr", "-i", str(tmp_path / "z.txt")], check=True)
    status = subprocess.run([*cli, "status"], cwd=tmp_path, capture_output=True, text=True)
    assert status.returncode == 0
    assert files(tmp_path) == before  # z.txt stays three: nothing completes the failed change


# -- what a failed write says (issue 28, item 5) ------------------------------------------------
def test_a_file_replaced_by_a_directory_before_the_commit_is_a_conflict(tmp_path):
    (tmp_path / "a.txt").write_bytes(b"one\n")
    ws = Workspace(tmp_path)
    preview = ws.apply([Replace("a.txt", "one", "two")], dry_run=True)
    (tmp_path / "a.txt").unlink()
    (tmp_path / "a.txt").mkdir()
    result = ws.commit(preview)
    assert not result.ok
    [error] = result.errors
    assert error.code == "conflict" and error.path == "a.txt"
    assert error.message.startswith(
        "a.txt changed on disk after it was read: it is now a directory"
    )
    assert (tmp_path / "a.txt").is_dir() and list((tmp_path / "a.txt").iterdir()) == []


def _failing_open_of_temp_files(monkeypatch, err: int) -> None:
    """``os.open`` of a temp file applydiff makes fails with ``err`` (as in a read-only
    directory when not root); every other open goes through."""
    real_open = os.open

    def fake(name, flags, mode=0o777, *, dir_fd=None):
        if ".applydiff-" in os.fspath(name) and os.fspath(name).endswith(".tmp"):
            raise OSError(err, os.strerror(err), os.fspath(name))
        return real_open(name, flags, mode, dir_fd=dir_fd)

    monkeypatch.setattr(commit.os, "open", fake)


def test_a_write_refused_in_a_read_only_directory_names_the_file_not_the_temp(
    tmp_path, monkeypatch
):
    (tmp_path / "a.txt").write_bytes(b"one\n")
    _failing_open_of_temp_files(monkeypatch, errno.EACCES)
    result = Workspace(tmp_path).apply([Replace("a.txt", "one", "two")])
    [error] = result.errors
    assert (error.code, error.path) == ("io_error", "a.txt")
    assert error.message == "a.txt: Permission denied; nothing was written"
    assert (tmp_path / "a.txt").read_bytes() == b"one\n"
    assert sorted(p.name for p in tmp_path.iterdir() if p.name != ".applydiff") == ["a.txt"]


def test_a_full_disk_names_the_file(tmp_path, monkeypatch):
    (tmp_path / "a.txt").write_bytes(b"one\n")
    real_write = os.write

    def full(fd, data):
        if ".applydiff-" in os.readlink(f"/proc/self/fd/{fd}"):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real_write(fd, data)

    if not os.path.isdir("/proc/self/fd"):
        pytest.skip("needs /proc to tell a temp file's descriptor")
    monkeypatch.setattr(commit.os, "write", full)
    result = Workspace(tmp_path).apply([Replace("a.txt", "one", "two")])
    [error] = result.errors
    assert (error.code, error.path) == ("io_error", "a.txt")
    assert error.message == "a.txt: No space left on device; nothing was written"
    assert (tmp_path / "a.txt").read_bytes() == b"one\n"
    assert sorted(p.name for p in tmp_path.iterdir() if p.name != ".applydiff") == ["a.txt"]
