"""Crash-safe commit of several files: every file ends all old or all new, together.

The protocol:

1. *prepare*: a journal (state ``prepared``) names every temp file and directory about to be
   made; then each new content goes to a temp file beside its target, fsynced, with the
   target's mode.
2. *commit point*: the journal is rewritten (atomically) with state ``committed``.
3. the temp files are renamed over their targets, deleted files are removed, directories are
   fsynced, and the journal is removed.

:func:`recover` runs whenever a root is opened: a ``prepared`` journal is rolled back (temp
files and new directories removed: all old), a ``committed`` one rolled forward (renames and
deletes finished: all new). Either way the journal goes.

:func:`root_lock` serialises these between processes (and threads) on one root, on every OS
(``filelock``): a commit, a recovery, and a caller's read-check-write sequence around them
never interleave, so one process never rolls back another's commit in flight. Another
process's lock is waited for :data:`LOCK_TIMEOUT` seconds, then refused (:class:`LockTimeout`).
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import threading
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import filelock

from . import fsio
from .policy import STATE_DIR

# Tests set this to crash the process at a named step (fault injection).
crash_hook: Callable[[str], None] | None = None


def _step(name: str) -> None:
    if crash_hook is not None:
        crash_hook(name)


@dataclass(frozen=True)
class Target:
    """One file to change: ``data`` None deletes it; ``mode`` None means a new file.
    ``executable`` True or False sets or clears the executable bits of that mode (None keeps
    it)."""

    path: Path
    data: bytes | None
    mode: int | None
    executable: bool | None = None
    # A deleted file's directories that the delete leaves empty go too, up to the root (an
    # undo of a file the commit added).
    prune: bool = False


def with_executable(mode: int, executable: bool | None) -> int:
    """``mode`` with its executable bits set where it is readable (as ``chmod +x`` under a
    usual umask), or cleared; unchanged for None."""
    if executable is None:
        return mode
    return mode | (mode & 0o444) >> 2 if executable else mode & ~0o111


LOCK_NAME = "lock"
LOCK_TIMEOUT = 10.0  # seconds a root lock held by another process is waited for
_locks: dict[str, tuple[threading.RLock, list[filelock.BaseFileLock]]] = {}
_locks_guard = threading.Lock()


class LockTimeout(OSError):
    """Another process held the root's lock for longer than the wait."""

    def __init__(self, path: str, waited: float) -> None:
        super().__init__(
            errno.EAGAIN,
            f"another process holds the lock and did not release it within {waited:g} s",
            path,
        )
        self.waited = waited


@contextlib.contextmanager
def root_lock(root: Path, timeout: float | None = None) -> Iterator[None]:
    """Hold the root's lock (``.applydiff/lock``, a ``filelock`` lock: ``flock`` on POSIX,
    ``LockFileEx`` on Windows): re-entrant within a thread, waited for by other threads, and
    by other processes for ``timeout`` seconds (:data:`LOCK_TIMEOUT` when None), after which
    :class:`LockTimeout` is raised and nothing is done."""
    key = os.path.realpath(root)
    with _locks_guard:
        lock, held = _locks.setdefault(key, (threading.RLock(), []))
    with lock:
        if not held:
            jdir = _journal_dir(Path(key))
            wait = LOCK_TIMEOUT if timeout is None else timeout
            taken: filelock.BaseFileLock = filelock.FileLock(
                str(jdir / LOCK_NAME), thread_local=False
            )
            try:
                taken.acquire(timeout=wait)
            except filelock.Timeout:
                raise LockTimeout(str(jdir / LOCK_NAME), wait) from None
            held.append(taken)
        else:
            held.append(held[-1])
        try:
            yield
        finally:
            last = held.pop()
            if not held:
                with contextlib.suppress(OSError):
                    last.release()


def _fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        _fsync_fd(fd)
    finally:
        os.close(fd)


def _fsync_fd(fd: int) -> None:
    with contextlib.suppress(OSError):
        os.fsync(fd)


def _write_atomic(path: Path, data: bytes) -> None:
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    _fsync_dir(path.parent)


def _journal_dir(root: Path, create: bool = True) -> Path:
    return fsio.state_dir(root, create=create)


class _Dirs:
    """Descriptors of the directories a commit works in, each opened from the root without
    following a link, held until the commit is done: every temp file, rename and delete
    happens in the directory that was walked to, even if a path is swapped for a link
    meanwhile (:class:`fsio.LinkedPath` when one is met on the way). Without ``dir_fd``
    support (Windows), absolute paths."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.fds: dict[str, int] = {}
        if fsio.DIR_FD:
            self.fds[str(root)] = fsio.open_root(root)

    def __enter__(self) -> _Dirs:
        return self

    def __exit__(self, *exc: object) -> None:
        for fd in self.fds.values():
            os.close(fd)
        self.fds.clear()

    def fd(self, path: str, create: bool = False) -> int | None:
        """The directory ``path`` (absolute, at or below the root); None when it is missing
        and not ``create``d. Raises :class:`fsio.LinkedPath`."""
        if path in self.fds:
            return self.fds[path]
        parent, name = os.path.split(path)
        if not name or not _inside(parent, str(self.root)):
            raise fsio.LinkedPath(path)
        pfd = self.fd(parent, create)
        if pfd is None:
            return None
        try:
            fd = fsio.open_dir(pfd, name, path)
        except FileNotFoundError:
            if not create:
                return None
            os.mkdir(name, dir_fd=pfd)
            _step("mkdir")
            fd = fsio.open_dir(pfd, name, path)
        self.fds[path] = fd
        return fd

    def at(self, path: str, create: bool = False) -> tuple[int | None, str]:
        """``(dir_fd, name)`` to pass to ``os`` calls for the file ``path``."""
        if not fsio.DIR_FD:
            if create:
                os.makedirs(os.path.dirname(path), exist_ok=True)
            return None, path
        parent, name = os.path.split(path)
        fd = self.fd(parent, create)
        if fd is None:
            raise FileNotFoundError(errno.ENOENT, "no such directory", parent)
        return fd, name

    def forget(self, path: str) -> None:
        """``path`` was removed: its descriptor is closed, a later walk opens it anew."""
        fd = self.fds.pop(path, None)
        if fd is not None:
            os.close(fd)

    def exists(self, path: str) -> bool:
        if not fsio.DIR_FD:
            return os.path.isdir(path)
        return self.fd(path) is not None

    def sync(self, path: str) -> None:
        fd = self.fds.get(path)
        if fd is None:
            _fsync_dir(Path(path))
        else:
            _fsync_fd(fd)


class CommitError(OSError):
    """Writing failed. ``committed`` tells which side of the commit point: False, every file
    is as it was; True, the new contents are in place or will be at the next recovery."""

    def __init__(self, error: OSError, committed: bool) -> None:
        super().__init__(error.errno, error.strerror, error.filename)
        self.committed = committed
        # A link met on a target's path or as the state directory: refused, not followed.
        self.denied = isinstance(error, (fsio.LinkedPath, fsio.UnsafeState))


def commit(root: Path, targets: list[Target]) -> None:
    """Apply every target, crash-safely (see the module doc); raises :class:`CommitError`."""
    if not targets:
        return
    with root_lock(root):
        try:
            _commit(root, targets)
        except CommitError:
            raise
        except OSError as e:
            recover(root)  # before the commit point this rolls back: all old
            raise CommitError(e, committed=False) from e


def _commit(root: Path, targets: list[Target]) -> None:
    txid = uuid.uuid4().hex[:12]
    jdir = _journal_dir(root)
    journal = jdir / f"journal-{txid}.json"
    with _Dirs(root) as dirs:
        plan = []
        new_dirs: list[str] = []
        for t in targets:
            entry: dict = {"target": str(t.path), "temp": None}
            if t.prune and t.data is None:
                entry["prune"] = True
            if t.data is not None:
                entry["temp"] = str(t.path.with_name(f".{t.path.name}.applydiff-{txid}.tmp"))
                missing = []
                d = str(t.path.parent)
                while not dirs.exists(d):
                    missing.append(d)
                    d = os.path.dirname(d)
                new_dirs += [x for x in reversed(missing) if x not in new_dirs]
            plan.append(entry)
        record = {"state": "prepared", "entries": plan, "dirs": new_dirs}
        _write_atomic(journal, json.dumps(record).encode())
        _step("journal-prepared")
        for t, entry in zip(targets, plan, strict=True):
            if entry["temp"] is None:
                continue
            assert t.data is not None
            fd_dir, name = dirs.at(entry["temp"], create=True)
            flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | fsio.NOFOLLOW
            # A new file gets the umask's permissions, like any file a program creates.
            new = 0o777 if t.executable else 0o666
            fd = os.open(name, flags, new if t.mode is None else 0o600, dir_fd=fd_dir)
            try:
                _step("temp-open")
                os.write(fd, t.data[: len(t.data) // 2])
                _step("temp-half")
                os.write(fd, t.data[len(t.data) // 2 :])
                if t.mode is not None:
                    os.fchmod(fd, with_executable(t.mode, t.executable))
                os.fsync(fd)
            finally:
                os.close(fd)
            _step("temp-synced")
        record["state"] = "committed"
        _write_atomic(journal, json.dumps(record).encode())
        _step("journal-committed")
        try:
            _finish(record, dirs)
            journal.unlink()
            _fsync_dir(jdir)
        except OSError as e:
            raise CommitError(e, committed=True) from e
    _step("journal-removed")


def _finish(record: dict, dirs: _Dirs) -> None:
    """Roll a committed journal forward (idempotent: a step already done is skipped). An
    entry whose directory is now behind a link is left alone: the link is not followed."""
    done = []
    for entry in record["entries"]:
        target = entry["target"]
        try:
            fd, name = dirs.at(target)
        except (FileNotFoundError, fsio.LinkedPath):
            continue
        temp = entry["temp"]
        if temp is None:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(name, dir_fd=fd)
                _step("delete")
            if entry.get("prune") is True:
                done += _prune(os.path.dirname(target), dirs)
        else:
            temp_name = os.path.basename(temp) if fd is not None else temp
            with contextlib.suppress(FileNotFoundError):
                os.replace(temp_name, name, src_dir_fd=fd, dst_dir_fd=fd)
                _step("rename")
        done.append(os.path.dirname(target))
    for d in set(done):
        dirs.sync(d)


def _prune(path: str, dirs: _Dirs) -> list[str]:
    """Remove the directory ``path`` and its parents while they are empty, up to and not
    including the root; the parents of those removed, to sync."""
    root = str(dirs.root)
    removed: list[str] = []
    while path != root and _inside(os.path.dirname(path), root):
        try:
            fd, name = dirs.at(path)
            os.rmdir(name, dir_fd=fd)  # only if empty
        except (OSError, fsio.LinkedPath):
            break
        dirs.forget(path)
        removed.append(os.path.dirname(path))
        path = os.path.dirname(path)
    return removed


def _rollback(record: dict, dirs: _Dirs) -> None:
    for entry in record["entries"]:
        if entry["temp"]:
            with contextlib.suppress(FileNotFoundError, fsio.LinkedPath):
                fd, name = dirs.at(entry["temp"])
                os.unlink(name, dir_fd=fd)
    for d in reversed(record.get("dirs", [])):
        with contextlib.suppress(OSError):
            fd, name = dirs.at(d)
            os.rmdir(name, dir_fd=fd)  # only if still empty


def _inside(path: str, root: str) -> bool:
    real = os.path.realpath(path)
    return real == root or real.startswith(root.rstrip(os.sep) + os.sep)


def _trusted(record: object, root: Path, txid: str) -> dict | None:
    """The journal's record if it only names what a commit under ``root`` writes: targets
    inside the root, their temp files beside them under this journal's id, directories inside
    the root. A journal is data on disk (a cloned repository can ship one): anything else is
    ignored rather than acted on."""
    if not isinstance(record, dict) or record.get("state") not in ("prepared", "committed"):
        return None
    entries, dirs = record.get("entries"), record.get("dirs", [])
    if not isinstance(entries, list) or not isinstance(dirs, list):
        return None
    top = os.path.realpath(root)
    for entry in entries:
        if not isinstance(entry, dict):
            return None
        target, temp = entry.get("target"), entry.get("temp")
        if not isinstance(target, str) or not os.path.isabs(target):
            return None
        if not _inside(os.path.dirname(target), top) or STATE_DIR in Path(target).parts:
            return None
        name = os.path.basename(target)
        if temp is not None and temp != os.path.join(
            os.path.dirname(target), f".{name}.applydiff-{txid}.tmp"
        ):
            return None
    if not all(isinstance(d, str) and os.path.isabs(d) and _inside(d, top) for d in dirs):
        return None
    return record


def recover(root: Path, timeout: float | None = None) -> int:
    """Finish or undo interrupted commits under ``root``; returns how many were found. A
    state directory that is a link is not looked into (:func:`fsio.state_dir`): no journal
    there is trusted, and writing under it is refused."""
    try:
        jdir = _journal_dir(root, create=False)
    except (fsio.UnsafeState, NotADirectoryError):
        return 0
    if not jdir.is_dir() or not any(jdir.glob("journal-*.json*")):
        return 0  # nothing to finish: no lock taken, the state directory left as it is
    with root_lock(root, timeout):
        return _recover(root, jdir)


def _recover(root: Path, jdir: Path) -> int:
    found = 0
    with _Dirs(root) as dirs:
        for journal in sorted(jdir.glob("journal-*.json")):
            found += 1
            txid = journal.name[len("journal-") : -len(".json")]
            try:
                record = _trusted(json.loads(journal.read_bytes()), root, txid)
            except (OSError, ValueError, RecursionError):
                record = None  # unreadable: nothing is acted on
            if record is not None and record["state"] == "committed":
                _finish(record, dirs)
            elif record is not None:
                _rollback(record, dirs)
            journal.unlink()
    for tmp in jdir.glob("journal-*.json.tmp"):
        tmp.unlink()
    _fsync_dir(jdir)
    return found
