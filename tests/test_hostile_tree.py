"""A hostile tree: directories swapped for links between the preview and the commit, a
shipped ``.applydiff`` link, FIFOs and sockets where files should be, names the OS refuses, a
chmod while a person reads the preview. Each was an escape, a hang or a crash before."""

from __future__ import annotations

import json
import os
import shutil
import socket
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from applydiff import Workspace, commit, fsio
from applydiff.errors import EditError
from applydiff.session import Session, SessionError
from applydiff.tools import ToolLayer
from deadline import deadline

EDIT_B = "sub/b.txt\n<<<<<<< SEARCH\nhello\n=======\nPWNED\n>>>>>>> REPLACE\n"
NEW_C = "new/c.txt\n```\n<<<<<<< SEARCH\n=======\nPWNED\n>>>>>>> REPLACE\n```\n"


@pytest.fixture
def tree(tmp_path: Path) -> tuple[Path, Path]:
    root, victim = tmp_path / "root", tmp_path / "victim"
    (root / "sub").mkdir(parents=True)
    victim.mkdir()
    (root / "sub" / "b.txt").write_text("hello\n")
    (victim / "b.txt").write_text("hello\n")
    return root, victim


def listing(path: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(path.iterdir())}


# -- 1. a directory swapped for a link between the preview and the commit ----------------------
def test_a_directory_swapped_for_a_link_out_of_the_root_is_refused_at_commit(tree):
    root, victim = tree
    ws = Workspace(root)
    preview = ws.apply(EDIT_B, dry_run=True)
    assert preview.ok
    shutil.rmtree(root / "sub")
    os.symlink("../victim", root / "sub")
    result = ws.commit(preview)
    assert not result.ok and not result.committed
    [error] = result.errors
    assert error["code"] == "path_denied" and error["path"] == "sub/b.txt"
    assert "resolves outside the project root" in error["message"]
    assert "changed since it was read" in error["message"]
    assert listing(victim) == {"b.txt": b"hello\n"}


def test_a_new_file_under_a_directory_made_a_link_after_the_preview_is_refused(tree):
    root, victim = tree
    ws = Workspace(root)
    preview = ws.apply(NEW_C, dry_run=True)
    assert preview.ok and preview.files == [{"path": "new/c.txt", "action": "added"}]
    os.symlink("../victim", root / "new")
    result = ws.commit(preview)
    assert [e["code"] for e in result.errors] == ["path_denied"]
    assert listing(victim) == {"b.txt": b"hello\n"}


def test_a_directory_swapped_for_a_link_inside_the_root_is_a_conflict(tree):
    root, _ = tree
    (root / "other").mkdir()
    (root / "other" / "b.txt").write_text("hello\n")
    ws = Workspace(root)
    preview = ws.apply(EDIT_B, dry_run=True)
    shutil.rmtree(root / "sub")
    os.symlink("other", root / "sub")
    result = ws.commit(preview)
    [error] = result.errors
    assert error["code"] == "conflict" and error["path"] == "sub/b.txt"
    assert "now leads to other/b.txt" in error["message"]
    assert (root / "other" / "b.txt").read_text() == "hello\n"


@pytest.mark.skipif(not fsio.DIR_FD, reason="no dir_fd on this OS: the recheck is the guard")
def test_the_commit_itself_never_writes_through_a_link_on_the_path(tree):
    """The last line of defence, for a swap after the recheck: the commit walks from the root
    without following links, so even a target it is handed under a link is refused."""
    root, victim = tree
    real = Path(os.path.realpath(root))
    shutil.rmtree(root / "sub")
    os.symlink("../victim", root / "sub")
    targets = [
        commit.Target(real / "sub" / "b.txt", b"PWNED\n", 0o644),
        commit.Target(real / "sub" / "deeper" / "n.txt", b"PWNED\n", None),
    ]
    with pytest.raises(commit.CommitError) as raised:
        commit.commit(real, targets)
    assert raised.value.denied and not raised.value.committed
    assert listing(victim) == {"b.txt": b"hello\n"}
    assert not list((root / ".applydiff").glob("journal-*"))


@pytest.mark.skipif(not fsio.DIR_FD, reason="no dir_fd on this OS")
def test_a_link_met_while_reading_is_refused_not_followed(tree):
    root, _ = tree
    real = Path(os.path.realpath(root))
    shutil.rmtree(root / "sub")
    os.symlink("../victim", root / "sub")
    with pytest.raises(fsio.LinkedPath):
        fsio.read_regular(real, real / "sub" / "b.txt", 1 << 20)
    os.symlink("../victim/b.txt", root / "leak.txt")
    with pytest.raises(fsio.LinkedPath):  # the file itself, swapped for a link
        fsio.read_regular(real, real / "leak.txt", 1 << 20)


def test_recovery_does_not_follow_a_link_on_a_journal_entry_path(tree):
    root, victim = tree
    real = Path(os.path.realpath(root))
    (root / ".applydiff").mkdir()
    txid = "0123456789ab"
    temp = real / "sub" / f".b.txt.applydiff-{txid}.tmp"
    temp.write_text("PWNED\n")
    record = {
        "state": "committed",
        "entries": [{"target": str(real / "sub" / "b.txt"), "temp": str(temp)}],
        "dirs": [],
    }
    (root / ".applydiff" / f"journal-{txid}.json").write_text(json.dumps(record))
    # The directory the journal names is moved away and replaced by a link out of the root.
    os.rename(root / "sub", root / "moved")
    os.symlink("../victim", root / "sub")
    Workspace(root)  # recovers
    assert listing(victim) == {"b.txt": b"hello\n"}
    assert not list((root / ".applydiff").glob("journal-*"))


# -- 2. a shipped .applydiff link --------------------------------------------------------------
def test_a_state_directory_that_is_a_link_is_refused_and_nothing_lands_behind_it(tree):
    root, victim = tree
    outside = victim / "state"
    outside.mkdir()
    os.symlink(outside, root / ".applydiff")
    ws = Workspace(root)
    preview = ws.apply(EDIT_B, dry_run=True)
    assert preview.ok  # a preview needs no state
    result = ws.commit(preview)
    [error] = result.errors
    assert error["code"] == "path_denied"
    assert ".applydiff" in error["message"] and "symbolic link" in error["message"]
    assert (root / "sub" / "b.txt").read_text() == "hello\n"
    with pytest.raises(SessionError, match="symbolic link"):
        Session(root)
    assert list(outside.iterdir()) == []


def test_a_shipped_link_inside_the_state_directory_is_refused(tree):
    root, victim = tree
    (root / ".applydiff").mkdir()
    os.symlink(victim / "session.db", root / ".applydiff" / "session.db")
    with pytest.raises(SessionError, match=r"session\.db"):
        Session(root)
    os.symlink(victim / "lock", root / ".applydiff" / "lock")
    result = Workspace(root).apply(EDIT_B)
    assert [e["code"] for e in result.errors] == ["path_denied"]
    assert listing(victim) == {"b.txt": b"hello\n"}


def test_recovery_does_not_look_into_a_linked_state_directory(tree):
    root, victim = tree
    outside = victim / "state"
    outside.mkdir()
    (outside / "journal-0123456789ab.json").write_text('{"state": "prepared"}')
    os.symlink(outside, root / ".applydiff")
    assert commit.recover(Path(os.path.realpath(root))) == []
    assert [p.name for p in outside.iterdir()] == ["journal-0123456789ab.json"]


# -- 7. special files are refused before they are opened ----------------------------------------
@pytest.fixture
def specials(tmp_path: Path) -> Iterator[Path]:
    root = tmp_path / "root"
    root.mkdir()
    (root / "a.py").write_text("x = 1\n")
    os.mkfifo(root / "pipe.txt")
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(root / "sock.txt"))
    try:
        yield root
    finally:
        sock.close()


@pytest.mark.parametrize(("name", "kind"), [("pipe.txt", "FIFO"), ("sock.txt", "socket")])
def test_reads_and_edits_of_a_special_file_are_refused_without_blocking(specials, name, kind):
    ws = Workspace(specials)
    with deadline(10):
        with pytest.raises(EditError) as raised:
            ws.read(name)
        assert raised.value.code == "path_denied" and kind in raised.value.message
        edit = f"{name}\n```\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n```\n"
        result = ws.apply(edit)
        assert [e["code"] for e in result.errors] == ["path_denied"]
        write = json.dumps({"name": "write_file", "arguments": {"path": name, "content": "y"}})
        assert [e["code"] for e in ws.apply(write).errors] == ["path_denied"]
        layer = ToolLayer(specials)
        answer = layer.handle_tool_call("read_file", {"path": name})
        assert answer.is_error and answer.result["errors"][0]["code"] == "path_denied"
    assert stat.S_ISFIFO(os.lstat(specials / "pipe.txt").st_mode)


def test_an_ignore_file_that_is_a_fifo_does_not_hang_opening_the_root(tmp_path):
    os.mkfifo(tmp_path / ".applydiffignore")
    with deadline(10), pytest.raises(EditError) as raised:
        Workspace(tmp_path)
    assert raised.value.code == "io_error" and ".applydiffignore" in raised.value.message


@pytest.mark.skipif(os.geteuid() != 0, reason="making a device node needs root")
def test_a_device_node_is_refused(tmp_path):
    os.mknod(tmp_path / "dev.txt", 0o600 | stat.S_IFCHR, os.makedev(1, 3))  # /dev/null's
    with pytest.raises(EditError) as raised:
        Workspace(tmp_path).read("dev.txt")
    assert raised.value.code == "path_denied" and "character device" in raised.value.message


# -- 9. names the OS refuses are io_error in every tool ----------------------------------------
LONG = "n" * 300
TOOL_CALLS = [
    (None, "read_file", {"path": LONG}),
    (None, "write_file", {"path": f"{LONG}/x.py", "content": "x\n"}),
    (None, "edit_file", {"path": LONG, "old_string": "a", "new_string": "b"}),
    (None, "str_replace_based_edit_tool", {"command": "view", "path": LONG}),
    ("filesystem", "list_directory", {"path": LONG}),
    ("filesystem", "list_directory", {"path": f"{LONG}/x"}),
    ("filesystem", "read_text_file", {"path": LONG}),
    ("filesystem", "write_file", {"path": LONG, "content": "x"}),
    ("filesystem", "edit_file", {"path": LONG, "edits": [{"oldText": "a", "newText": "b"}]}),
    ("filesystem", "move_file", {"source": "a.py", "destination": LONG}),
]


@pytest.mark.parametrize(("compat", "name", "args"), TOOL_CALLS)
def test_a_name_too_long_is_an_io_error_in_every_tool(tmp_path, compat, name, args):
    (tmp_path / "a.py").write_text("x = 1\n")
    layer = ToolLayer(tmp_path, compat=compat, require_read=False)
    answer = layer.handle_tool_call(name, args)
    assert answer.is_error
    assert [e["code"] for e in answer.result["errors"]] == ["io_error"]
    assert (tmp_path / "a.py").read_text() == "x = 1\n"


def test_deeply_nested_tool_arguments_are_format_invalid(tmp_path):
    layer = ToolLayer(tmp_path)
    answer = layer.handle_tool_call("edit_file", '{"path": "a.py", "edits": ' + "[" * 5000)
    assert answer.is_error and answer.result["errors"][0]["code"] == "format_invalid"
    assert "nest too deeply" in answer.text
    nested: object = "x"
    for _ in range(5000):
        nested = [nested]
    answer = layer.handle_tool_call("edit_file", {"path": "a.py", "edits": nested})
    assert answer.is_error and answer.result["errors"][0]["code"] == "format_invalid"


# -- 10. a chmod between the preview and the commit is kept ------------------------------------
def test_a_chmod_between_preview_and_commit_is_kept(tree):
    root, _ = tree
    target = root / "sub" / "b.txt"
    os.chmod(target, 0o644)
    ws = Workspace(root)
    preview = ws.apply(EDIT_B, dry_run=True)
    os.chmod(target, 0o755)
    assert ws.commit(preview).committed
    assert target.read_bytes() == b"PWNED\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o755


def test_a_chmod_of_a_moved_file_between_preview_and_commit_is_kept(tree):
    root, _ = tree
    os.chmod(root / "sub" / "b.txt", 0o600)
    ws = Workspace(root)
    patch = (
        "*** Begin Patch\n*** Update File: sub/b.txt\n*** Move to: moved.txt\n"
        "@@\n-hello\n+bye\n*** End Patch\n"
    )
    preview = ws.apply(patch, dry_run=True)
    assert preview.ok
    os.chmod(root / "sub" / "b.txt", 0o750)
    assert ws.commit(preview).committed
    assert (root / "moved.txt").read_bytes() == b"bye\n"
    assert stat.S_IMODE((root / "moved.txt").stat().st_mode) == 0o750
    assert not (root / "sub" / "b.txt").exists()


# -- 11. the MCP server answers what the SDK would drop --------------------------------------


def _server_exchange(root: Path, lines: list[str], expect: int) -> list[dict]:
    """Send an initialize handshake and then ``lines``; the first ``expect`` answers after
    the handshake's."""
    pytest.importorskip("mcp")
    init = {
        "jsonrpc": "2.0",
        "id": 0,
        "method": "initialize",
        "params": {
            "protocolVersion": "2025-06-18",
            "capabilities": {},
            "clientInfo": {"name": "test", "version": "1"},
        },
    }
    ready = {"jsonrpc": "2.0", "method": "notifications/initialized"}
    text = "\n".join([json.dumps(init), json.dumps(ready), *lines]) + "\n"
    proc = subprocess.Popen(
        [sys.executable, "-m", "applydiff", "serve", "--root", str(root)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write(text.encode())
    proc.stdin.flush()
    answers = []
    try:
        with deadline(60):
            for _ in range(expect + 1):
                answers.append(json.loads(proc.stdout.readline()))
    finally:
        proc.kill()
        proc.wait()
    assert answers[0]["id"] == 0 and "result" in answers[0]
    return answers[1:]


@pytest.mark.slow
def test_the_server_answers_malformed_requests_and_keeps_serving(specials):
    call = {"jsonrpc": "2.0", "method": "tools/call"}

    def read(rid: int, path: str) -> str:
        params = {"name": "read_file", "arguments": {"path": path}}
        return json.dumps({**call, "id": rid, "params": params})

    lines = [
        json.dumps({**call, "id": 1, "params": ["read_file", {"path": "a.py"}]}),
        json.dumps({**call, "params": ["read_file"]}),  # a notification: no answer
        '{"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {',
        read(3, "pipe.txt"),
        read(4, "a.py"),
    ]
    # Requests run concurrently: answers come in any order (the parse error's id is null).
    answers = {a["id"]: a for a in _server_exchange(specials, lines, 4)}
    assert sorted(answers, key=str) == [1, 3, 4, None]
    assert answers[1] == {
        "jsonrpc": "2.0",
        "id": 1,
        "error": {
            "code": -32602,
            "message": "Invalid params: MCP passes params as an object of named fields, not array",
        },
    }
    assert answers[None]["error"]["code"] == -32700
    assert answers[3]["result"]["isError"] is True
    assert "FIFO" in answers[3]["result"]["content"][0]["text"]
    assert "x = 1" in answers[4]["result"]["content"][0]["text"]
