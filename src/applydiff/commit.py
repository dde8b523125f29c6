"""Crash-safe commit of several files: every file ends all old or all new, together.

The protocol:

1. *prepare*: a journal (state ``prepared``) names every temp file and directory about to be
   made; then each new content goes to a temp file beside its target, fsynced, with the
   target's mode.
2. *commit point*: the journal is rewritten (atomically) with state ``committed``.
3. the temp files are renamed over their targets, deleted files are removed, directories are
   fsynced, and the journal is removed.

A step of 3 that fails in this process (an ``OSError``: a file made immutable, a full disk)
is not a crash: the change is put back at once, itself as a journaled commit (each file
already replaced or deleted gets its old bytes and mode back, the temp files left and the
directories made go, then the journal), and :class:`CommitError` says nothing was written.
Only a crash leaves the journal, for the next recovery to roll forward.

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
import stat
import threading
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import NoReturn

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
    # A deleted file's directories that the delete leaves empty go too, this many levels up
    # (an undo of a file the commit added: the directories that commit created for it).
    prune: int = 0


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
    # The temp file is made new (a link or FIFO shipped under its name is removed, never
    # written through); the rename replaces whatever is at ``path`` without following it.
    tmp = path.with_name(path.name + ".tmp")
    fsio.write_new(tmp, data)
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
        # Up to the nearest directory already open, then down, one level at a time (a
        # loop, not recursion: a path's depth is the policy's to limit, not the stack's).
        down: list[str] = []
        here = path
        while here not in self.fds:
            parent, name = os.path.split(here)
            if not name or not _inside(parent, str(self.root)):
                raise fsio.LinkedPath(path)
            down.append(here)
            here = parent
        fd = self.fds[here]
        for here in reversed(down):
            name = os.path.basename(here)
            try:
                opened = fsio.open_dir(fd, name, here)
            except FileNotFoundError:
                if not create:
                    return None
                os.mkdir(name, dir_fd=fd)
                _step("mkdir")
                opened = fsio.open_dir(fd, name, here)
            self.fds[here] = fd = opened
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
    is as it was (``restored``: the targets already replaced and then put back); True, the
    files could not all be put back, the journal is kept and the next recovery completes the
    change, or its putting back when ``back`` (``states``: each target's path and what it
    holds now)."""

    def __init__(
        self,
        error: OSError,
        committed: bool,
        restored: list[str] | None = None,
        states: list[tuple[str, str]] | None = None,
        why: str | None = None,
        back: bool = False,
    ) -> None:
        super().__init__(error.errno, error.strerror, error.filename)
        self.committed = committed
        self.restored = restored or []
        self.states = states or []
        # Why putting back failed; ``back``: the journal kept puts the old contents back.
        self.why = why
        self.back = back
        # A link met on a target's path or as the state directory: refused, not followed.
        self.denied = isinstance(error, (fsio.LinkedPath, fsio.UnsafeState))


def commit(root: Path, targets: list[Target]) -> list[int]:
    """Apply every target, crash-safely (see the module doc); raises :class:`CommitError`.
    Returns, per target, how many of its parent directories the commit created (for an undo
    to remove those, and only those)."""
    if not targets:
        return []
    with root_lock(root):
        try:
            return _commit(root, targets)
        except CommitError:
            raise
        except OSError as e:
            recover(root)  # before the commit point this rolls back: all old
            raise CommitError(e, committed=False) from e


def _commit(root: Path, targets: list[Target]) -> list[int]:
    txid = uuid.uuid4().hex[:12]
    jdir = _journal_dir(root)
    journal = jdir / f"journal-{txid}.json"
    with _Dirs(root) as dirs:
        plan = []
        new_dirs: list[str] = []
        made: list[int] = []
        for t in targets:
            entry: dict = {"target": str(t.path), "temp": None}
            if t.prune and t.data is None:
                entry["prune"] = t.prune
            made.append(0)
            if t.data is not None:
                entry["temp"] = _temp_path(str(t.path), txid)
                missing = []
                d = str(t.path.parent)
                while not dirs.exists(d):
                    missing.append(d)
                    d = os.path.dirname(d)
                made[-1] = len(missing)
                new_dirs += [x for x in reversed(missing) if x not in new_dirs]
            plan.append(entry)
        record = {"state": "prepared", "entries": plan, "dirs": new_dirs}
        _journal_write(journal, record)
        _step("journal-prepared")
        for t, entry in zip(targets, plan, strict=True):
            if entry["temp"] is None:
                continue
            assert t.data is not None
            try:
                _write_temp(t, entry["temp"], dirs)
            except (fsio.LinkedPath, fsio.UnsafeState):
                raise
            except OSError as e:  # said of the file being written, not of our temp name
                raise OSError(e.errno, e.strerror, str(t.path)) from e
            _step("temp-synced")
        record["state"] = "committed"
        _journal_write(journal, record)
        _step("journal-committed")

        undo: list[_Undo] = []
        try:
            _finish(record, dirs, undo)
        except OSError as e:
            # Not a crash: this process is alive to put back what it replaced.
            _undo_finish(e, record, dirs, undo, journal)
        try:
            journal.unlink()
            _fsync_dir(jdir)
        except OSError as e:
            raise CommitError(e, committed=True) from e
    _step("journal-removed")
    return made


def _journal_write(journal: Path, record: dict) -> None:
    """The journal written atomically; a failure (a full disk) names the journal."""
    try:
        _write_atomic(journal, json.dumps(record).encode())
    except OSError as e:
        where = e.filename if e.filename is not None else str(journal)
        raise OSError(e.errno, e.strerror, where) from e


def _write_temp(t: Target, temp: str, dirs: _Dirs) -> None:
    """``t``'s new bytes to its temp file beside it, fsynced, with its mode."""
    assert t.data is not None
    fd_dir, name = dirs.at(temp, create=True)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | fsio.NOFOLLOW
    # A new file gets the umask's permissions, like any file a program creates.
    new = 0o777 if t.executable else 0o666
    fd = os.open(name, flags, new if t.mode is None else 0o600, dir_fd=fd_dir)
    try:
        _step("temp-open")
        fsio.write_all(fd, t.data[: len(t.data) // 2])
        _step("temp-half")
        fsio.write_all(fd, t.data[len(t.data) // 2 :])
        if t.mode is not None:
            os.fchmod(fd, with_executable(t.mode, t.executable))
        os.fsync(fd)
    finally:
        os.close(fd)


@dataclass
class _Undo:
    """A step of :func:`_finish` done in this process, with what the target held before it
    (``data`` None: no file), to put back if a later step fails."""

    entry: dict
    data: bytes | None
    mode: int | None


def _old(fd: int | None, name: str) -> tuple[bytes | None, int | None]:
    """The bytes and permission bits of the file about to be replaced or deleted (None: no
    file). A link or special file there raises: it is neither replaced nor followed."""
    try:
        st = os.stat(name, dir_fd=fd, follow_symlinks=False)
    except FileNotFoundError:
        return None, None
    if not stat.S_ISREG(st.st_mode):
        raise fsio.NotRegular(
            name, "link or special file" if not stat.S_ISDIR(st.st_mode) else "directory"
        )
    rfd = os.open(name, os.O_RDONLY | fsio.NOFOLLOW, dir_fd=fd)
    try:
        chunks = []
        while chunk := os.read(rfd, 1 << 20):
            chunks.append(chunk)
        return b"".join(chunks), stat.S_IMODE(os.fstat(rfd).st_mode)
    finally:
        os.close(rfd)


def _undo_finish(
    error: OSError, record: dict, dirs: _Dirs, undo: list[_Undo], journal: Path
) -> NoReturn:
    """A step of :func:`_finish` failed in this process (not a crash): put back every target
    already replaced or deleted, and raise :class:`CommitError` (``committed`` False).

    The putting back is itself a commit: the old bytes of each target done go to its temp
    name (free again: renamed, or never made for a delete), then the journal is rewritten,
    atomically, as a committed change back to the old contents that also drops the temp
    files not renamed and the directories the commit made; then it is finished. A crash in
    between is recovered to all old. If the old bytes cannot be written, the first journal
    stays (the next recovery completes the change); if the rewritten journal cannot be
    finished, it stays (the next recovery completes the putting back); either way
    ``committed`` is True and ``states`` says what each target holds now."""
    done = {u.entry["target"] for u in undo}
    written: list[tuple[int | None, str]] = []
    back: list[dict] = []
    try:
        for u in undo:
            target = u.entry["target"]
            temp = _temp_path(target, txid_of(journal))
            entry: dict = {"target": target, "temp": None}
            if u.data is not None:
                fd, name = dirs.at(temp, create=True)
                wfd = os.open(
                    name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | fsio.NOFOLLOW, 0o600, dir_fd=fd
                )
                written.append((fd, name))
                try:
                    fsio.write_all(wfd, u.data)
                    if u.mode is not None:
                        os.fchmod(wfd, u.mode)
                    os.fsync(wfd)
                finally:
                    os.close(wfd)
                entry["temp"] = temp
            back.append(entry)
        drop = [e["temp"] for e in record["entries"] if e["temp"] and e["target"] not in done]
        rollback = {
            "state": "committed",
            "entries": back,
            "dirs": [],
            "drop": drop,
            "rmdirs": record.get("dirs", []),
        }
        _write_atomic(journal, json.dumps(rollback).encode())
    except OSError as e:
        for fd, name in written:
            with contextlib.suppress(OSError):
                os.unlink(name, dir_fd=fd)
        states = [
            (t["target"], "holds the new contents" if t["target"] in done else "is as it was")
            for t in record["entries"]
        ]
        why = f"putting back failed: {e.strerror}"
        raise CommitError(error, committed=True, states=states, why=why) from error
    _step("rollback-journal")
    changed: list[str] = []
    failed: dict[str, OSError] = {}
    for entry in back:  # each tried: as much as can be is put back now
        try:
            _finish_entry(entry, dirs, changed, None)
        except OSError as e:
            failed[entry["target"]] = e
    if failed:
        states = []
        for t in record["entries"]:
            path = t["target"]
            if path in failed:
                states.append((path, f"holds the new contents ({failed[path].strerror})"))
            else:
                gone = any(u.data is None for u in undo if u.entry["target"] == path)
                said = ("was removed" if gone else "was put back") if path in done else None
                states.append((path, said or "is as it was"))
        why = "putting back failed; it is completed when the root is next opened"
        raise CommitError(error, committed=True, states=states, why=why, back=True) from error
    _finish_tail(rollback, dirs, changed)
    with contextlib.suppress(OSError):
        journal.unlink()
        _fsync_dir(journal.parent)
    restored = [u.entry["target"] for u in undo]
    raise CommitError(error, committed=False, restored=restored) from error


def _temp_path(target: str, txid: str) -> str:
    """Where commit ``txid`` writes ``target``'s new bytes before renaming them into place."""
    return os.path.join(
        os.path.dirname(target), f".{os.path.basename(target)}.applydiff-{txid}.tmp"
    )


def txid_of(journal: Path) -> str:
    """The id of the commit a journal (``journal-<id>.json``) belongs to."""
    return journal.name[len("journal-") : -len(".json")]


def _finish(record: dict, dirs: _Dirs, undo: list[_Undo] | None = None) -> None:
    """Roll a committed journal forward (idempotent: a step already done is skipped). An
    entry whose directory is now behind a link is left alone: the link is not followed.
    With ``undo`` (a commit in this process), each step done is added to it with what the
    target held before, and a link or special file in a target's place raises."""
    done: list[str] = []
    for entry in record["entries"]:
        if undo is None:
            _finish_entry(entry, dirs, done, None)
            continue
        try:
            _finish_entry(entry, dirs, done, undo)
        except OSError as e:  # said of the target (a rename names its temp file)
            raise OSError(e.errno, e.strerror, entry["target"]) from e
    _finish_tail(record, dirs, done)


def _finish_tail(record: dict, dirs: _Dirs, done: list[str]) -> None:
    """After the entries: for a journal that puts a failed commit back, its temp files not
    renamed and its directories go; the directories changed are synced."""
    for temp in record.get("drop", []):
        with contextlib.suppress(FileNotFoundError, fsio.LinkedPath):
            fd, name = dirs.at(temp)
            os.unlink(name, dir_fd=fd)
    for d in reversed(record.get("rmdirs", [])):
        with contextlib.suppress(OSError):
            fd, name = dirs.at(d)
            os.rmdir(name, dir_fd=fd)  # only if empty
            dirs.forget(d)
            done.append(os.path.dirname(d))
    for d in set(done):
        if d not in record.get("rmdirs", []):
            dirs.sync(d)


def _finish_entry(entry: dict, dirs: _Dirs, done: list[str], undo: list[_Undo] | None) -> None:
    """One entry of :func:`_finish`; the directories it changed go to ``done``."""
    target = entry["target"]
    try:
        fd, name = dirs.at(target)
    except (FileNotFoundError, fsio.LinkedPath):
        return
    temp = entry["temp"]
    old: tuple[bytes | None, int | None] = (None, None)
    if undo is not None:
        old = _old(fd, name)
    if temp is None:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(name, dir_fd=fd)
            _step("delete")
        if undo is not None:
            undo.append(_Undo(entry, *old))
        levels = entry.get("prune")
        if isinstance(levels, int) and levels > 0:  # a journal is data: only a count counts
            done += _prune(os.path.dirname(target), dirs, levels)
    else:
        temp_name = os.path.basename(temp) if fd is not None else temp
        with contextlib.suppress(FileNotFoundError):
            _replace(temp_name, name, fd)
            _step("rename")
            if undo is not None:
                undo.append(_Undo(entry, *old))
    done.append(os.path.dirname(target))


def _replace(temp_name: str, name: str, fd: int | None) -> None:
    """Rename a temp file over its target (a seam for tests to fail one target)."""
    os.replace(temp_name, name, src_dir_fd=fd, dst_dir_fd=fd)


def _prune(path: str, dirs: _Dirs, levels: int) -> list[str]:
    """Remove the directory ``path`` and its parents while they are empty, at most
    ``levels`` of them and never the root; the parents of those removed, to sync."""
    root = str(dirs.root)
    removed: list[str] = []
    while path != root and _inside(os.path.dirname(path), root) and len(removed) < levels:
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


def untrusted(record: object, root: Path, txid: str) -> str | None:
    """Why the journal's record is not one a commit under ``root`` writes, or None when it
    only names targets inside the root, their temp files beside them under this journal's
    id, and directories inside the root. A journal is data on disk (a cloned repository can
    ship one): it is acted on only when this and the caller's own rules (``recover``'s
    ``vet``: the policy) find nothing wrong."""
    if not isinstance(record, dict) or record.get("state") not in ("prepared", "committed"):
        return "it is not a journal applydiff writes (no state prepared or committed)"
    entries, dirs = record.get("entries"), record.get("dirs", [])
    if not isinstance(entries, list) or not isinstance(dirs, list):
        return "it is not a journal applydiff writes (no list of entries)"
    top = os.path.realpath(root)
    for entry in entries:
        if not isinstance(entry, dict):
            return "it is not a journal applydiff writes (an entry is not an object)"
        target, temp = entry.get("target"), entry.get("temp")
        if not isinstance(target, str) or not os.path.isabs(target):
            return f"its target {target!r} is not an absolute path"
        if not _inside(os.path.dirname(target), top) or STATE_DIR in Path(target).parts:
            return f"its target {target} is outside the root or in its state directory"
        if temp is not None and temp != _temp_path(target, txid):
            return f"its temp file {temp!r} is not the one applydiff makes for {target}"
    for d in dirs:
        if not (isinstance(d, str) and os.path.isabs(d) and _inside(d, top)):
            return f"its directory {d!r} is not an absolute path inside the root"
    # A journal that puts a failed commit back: temp files to drop, directories to remove.
    drop, rmdirs = record.get("drop", []), record.get("rmdirs", [])
    if not isinstance(drop, list) or not isinstance(rmdirs, list):
        return "it is not a journal applydiff writes (drop or rmdirs is not a list)"
    for temp in drop:
        if not isinstance(temp, str) or not os.path.isabs(temp):
            return f"its temp file {temp!r} is not an absolute path"
        if temp_target(temp, txid) is None:
            return f"{temp} is not a temp file name applydiff makes"
        if not _inside(os.path.dirname(temp), top) or STATE_DIR in Path(temp).parts:
            return f"its temp file {temp} is outside the root or in its state directory"
    for d in rmdirs:
        if not (isinstance(d, str) and os.path.isabs(d) and _inside(d, top)):
            return f"its directory {d!r} is not an absolute path inside the root"
    return None


def temp_target(temp: str, txid: str) -> str | None:
    """The target whose temp file of commit ``txid`` ``temp`` is (:func:`_temp_path`
    reversed), or None when ``temp`` is not such a name."""
    name = os.path.basename(temp)
    suffix = f".applydiff-{txid}.tmp"
    if not (name.startswith(".") and name.endswith(suffix)) or len(name) <= len(suffix) + 1:
        return None
    return os.path.join(os.path.dirname(temp), name[1 : -len(suffix)])


def journal_paths(record: dict, txid: str) -> list[tuple[str, str, bool]]:
    """Every path a journal that :func:`untrusted` passed acts on, as ``(role, path,
    is_dir)``: its targets (a temp file is checked as the target it is for), the
    directories it makes or removes, and the targets of the temp files it drops."""
    paths = [("target", e["target"], False) for e in record["entries"]]
    drops = (temp_target(t, txid) for t in record.get("drop", []))
    paths += [("temp file for", t, False) for t in drops if t is not None]
    paths += [("directory", d, True) for d in record.get("dirs", []) + record.get("rmdirs", [])]
    return paths


@dataclass(frozen=True)
class Quarantined:
    """A journal recovery did not act on, moved to the state directory's ``quarantine``:
    its file name there and why it was not trusted."""

    name: str
    why: str


QUARANTINE = "quarantine"
_WHY = ".why"
# A journal names each target twice at most (target, temp); 10,000 edits of long paths fit.
MAX_JOURNAL_BYTES = 64 << 20


def recover(
    root: Path,
    timeout: float | None = None,
    vet: Callable[[dict, Path], str | None] | None = None,
) -> list[Quarantined]:
    """Finish or undo interrupted commits under ``root``. A journal that is not one a commit
    writes (:func:`untrusted`), or that ``vet(record, journal)`` finds a reason against (the
    policy: no target under ``.git/`` or ignored; a journal git tracks), is neither rolled
    back nor forward: it is moved to the state directory's ``quarantine`` with its reason,
    nothing else is written, and it is returned. A state directory that is a link is not
    looked into (:func:`fsio.state_dir`): no journal there is trusted, and writing under it
    is refused."""
    try:
        jdir = _journal_dir(root, create=False)
    except (fsio.UnsafeState, NotADirectoryError):
        return []
    if not jdir.is_dir() or not any(jdir.glob("journal-*.json*")):
        return []  # nothing to finish: no lock taken, the state directory left as it is
    with root_lock(root, timeout):
        return _recover(root, jdir, vet)


def _recover(
    root: Path, jdir: Path, vet: Callable[[dict, Path], str | None] | None
) -> list[Quarantined]:
    moved: list[Quarantined] = []
    with _Dirs(root) as dirs:
        for journal in sorted(jdir.glob("journal-*.json")):
            why: str | None
            try:
                record = json.loads(fsio.read_plain(journal, MAX_JOURNAL_BYTES) or b"")
            except fsio.LinkedPath:
                record, why = None, "it is a symbolic link, not a journal applydiff writes"
            except (fsio.NotRegular, IsADirectoryError) as e:
                record, why = None, str(e.strerror)  # "it is a FIFO ..., not a regular file"
            except fsio.TooLarge:
                record, why = None, f"it is over {MAX_JOURNAL_BYTES:,} bytes"
            except (OSError, ValueError, RecursionError) as e:
                record, why = None, f"it cannot be read as JSON ({type(e).__name__})"
            else:
                why = untrusted(record, root, txid_of(journal))
                if why is None and vet is not None:
                    why = vet(record, journal)
            if why is not None:
                moved.append(_quarantine(jdir, journal, why))
            elif record["state"] == "committed":
                _finish(record, dirs)
                journal.unlink()
            else:
                _rollback(record, dirs)
                journal.unlink()
    for tmp in jdir.glob("journal-*.json.tmp"):
        tmp.unlink()
    _fsync_dir(jdir)
    return moved


def _quarantine(jdir: Path, journal: Path, why: str) -> Quarantined:
    """Move an untrusted journal aside (``.applydiff/quarantine/``), its reason beside it."""
    qdir = jdir / QUARANTINE
    with contextlib.suppress(FileExistsError):
        os.mkdir(qdir, 0o700)
    if not stat.S_ISDIR(os.lstat(qdir).st_mode):
        raise fsio.UnsafeState(str(qdir), "is not a directory")
    os.replace(journal, qdir / journal.name)
    _write_atomic(qdir / (journal.name + _WHY), why.encode())
    return Quarantined(journal.name, why)


def quarantined(root: Path) -> list[Quarantined]:
    """The journals recovery moved aside and not yet discarded, with their reasons."""
    try:
        qdir = _journal_dir(root, create=False) / QUARANTINE
    except OSError:
        return []
    out = []
    try:
        names = sorted(p.name for p in qdir.iterdir() if p.name.endswith(".json"))
    except OSError:
        return []
    for name in names:
        try:
            kept = fsio.read_plain(qdir / (name + _WHY), 1 << 16)
        except OSError:
            kept = None
        why = "its reason was not kept" if kept is None else kept.decode("utf-8", "replace")
        out.append(Quarantined(name, why))
    return out


def discard_quarantined(root: Path) -> list[Quarantined]:
    """Delete the quarantined journals (and their reasons); those deleted."""
    gone = quarantined(root)
    if not gone:
        return []
    qdir = _journal_dir(root, create=False) / QUARANTINE
    with root_lock(root):
        for q in gone:
            for name in (q.name, q.name + _WHY):
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(qdir / name)
        with contextlib.suppress(OSError):
            os.rmdir(qdir)
    return gone
