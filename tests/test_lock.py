"""The root lock across processes (issue 18, item 9): ``filelock`` on every OS, re-entrant
within a thread, a timeout, and a clear ``io_error`` naming the lock file and the wait when
another process holds it; nothing written."""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from applydiff import Replace, Workspace
from applydiff.commit import LOCK_TIMEOUT, LockTimeout, root_lock

HOLD = """
import sys
from pathlib import Path
from applydiff.commit import root_lock
with root_lock(Path(sys.argv[1])):
    print("held", flush=True)
    sys.stdin.read()  # until the test closes our stdin
"""


@pytest.fixture
def root(tmp_path: Path) -> Path:
    (tmp_path / "app.py").write_bytes(b"x = 1\n")
    return tmp_path


@pytest.fixture
def holder(root: Path):
    """Another process holding the root's lock until the test lets go."""
    proc = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(root)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None and proc.stdout.readline() == "held\n"
    yield proc
    if proc.poll() is None:
        proc.stdin.close()
        proc.wait(timeout=10)


def test_default_timeout():
    assert LOCK_TIMEOUT == 10.0


def test_another_process_holding_the_lock_refuses_the_commit(root, holder):
    ws = Workspace(root, lock_timeout=0.3)
    started = time.monotonic()
    result = ws.apply([Replace("app.py", "x = 1", "x = 2")])
    waited = time.monotonic() - started
    assert not result.ok
    [e] = result.errors
    assert (e.code, e.path) == ("io_error", ".applydiff/lock")
    assert e.message == (
        "another process holds the root's lock (.applydiff/lock) and did not release it "
        "within 0.3 s; nothing was written. Try again when it is done"
    )
    assert 0.3 <= waited < 5
    assert (root / "app.py").read_bytes() == b"x = 1\n"
    assert sorted(p.name for p in (root / ".applydiff").iterdir() if "journal" in p.name) == []
    # Once the other process lets go, the same commit goes through.
    holder.stdin.close()
    holder.wait(timeout=10)
    assert ws.apply([Replace("app.py", "x = 1", "x = 2")]).ok
    assert (root / "app.py").read_bytes() == b"x = 2\n"


def test_review_commands_wait_and_refuse_too(root, holder):
    ws = Workspace(root, session=True, model_view=False, lock_timeout=0.2)
    result = ws.undo()
    assert [(e.code, e.path) for e in result.errors] == [("io_error", ".applydiff/lock")]
    assert "within 0.2 s" in result.errors[0].message


def test_a_wait_that_ends_in_time_goes_through(root):
    proc = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(root)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout.readline() == "held\n"
    threading.Timer(0.3, proc.stdin.close).start()
    ws = Workspace(root, lock_timeout=20)
    assert ws.apply([Replace("app.py", "x = 1", "x = 3")]).ok
    proc.wait(timeout=10)
    assert (root / "app.py").read_bytes() == b"x = 3\n"


def test_root_lock_raises_lock_timeout_naming_the_file(root, holder):
    with pytest.raises(LockTimeout) as info, root_lock(root, timeout=0.1):
        pass
    assert info.value.filename == str(root.resolve() / ".applydiff" / "lock")
    assert info.value.waited == 0.1
    assert "another process holds the lock" in str(info.value)


def test_reentrant_in_a_thread_and_exclusive_between_threads(root):
    order: list[str] = []

    def other() -> None:
        with root_lock(root):
            order.append("thread")

    with root_lock(root), root_lock(root, timeout=0.1):  # re-entrant: no wait
        t = threading.Thread(target=other)
        t.start()
        time.sleep(0.2)
        order.append("main")
    t.join(timeout=10)
    assert order == ["main", "thread"]
    # Released: another process takes it at once.
    out = subprocess.run(
        [sys.executable, "-c", HOLD, str(root)], input="", capture_output=True, text=True
    )
    assert out.stdout == "held\n"
