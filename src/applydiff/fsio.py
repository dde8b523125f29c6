"""File access below a root that never follows a link and never blocks on a special file.

The policy checks a path when it is named; between that check and the read or the write, a
directory on the path can be swapped for a link to somewhere else (the CLI asks a person
before it writes, so that window can last minutes). Here a path is walked one component at a
time from a descriptor of the root, each directory opened with ``O_NOFOLLOW``, and files are
opened relative to their directory's descriptor: a link met on the way is
:class:`LinkedPath`, never followed. A FIFO, socket or device is :class:`NotRegular`, found
with ``lstat`` before it is opened (opening a FIFO for reading blocks until a writer comes).

Where the OS has no ``dir_fd`` support (Windows), plain paths are used: the policy's check is
then the only guard.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from .policy import STATE_DIR

DIR_FD = (
    os.open in os.supports_dir_fd
    and os.stat in os.supports_dir_fd
    and hasattr(os, "O_NOFOLLOW")
    and hasattr(os, "O_DIRECTORY")
)
NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)


class LinkedPath(OSError):
    """A component of the path is a link (or no longer a directory): it changed after the
    path was checked, and is not followed."""

    def __init__(self, path: str) -> None:
        super().__init__(errno.ELOOP, "a directory on the path is a link", path)


class NotRegular(OSError):
    """The path names something that is neither a regular file nor a directory."""

    def __init__(self, path: str, kind: str) -> None:
        super().__init__(errno.EINVAL, f"it is a {kind}, not a regular file", path)
        self.kind = kind


class UnsafeState(OSError):
    """The root's ``.applydiff``, or a file applydiff keeps in it, is not what applydiff
    makes there (a link, as a cloned repository can ship one): the lock, journals and session
    store would land wherever it points."""

    def __init__(self, path: str, kind: str) -> None:
        super().__init__(
            errno.ENOTDIR,
            f"it is a {kind}; applydiff keeps its lock, journals and session "
            "store only in a real directory inside the root: remove it",
            path,
        )


_STATE_FILES = (
    "lock",
    "session.db",
    "session.db-wal",
    "session.db-shm",
    "session.db-journal",
    ".gitignore",
)


GITIGNORE = b"*\n"  # the state directory's own .gitignore: git never sees any of it


def state_dir(root: Path, create: bool = True) -> Path:
    """The root's state directory (``.applydiff``), made when ``create`` (only a command
    that records something asks for that), with a ``.gitignore`` of ``*`` so that ``git
    status`` and ``git add .`` never see it; raises :class:`UnsafeState` when it, or a file
    applydiff keeps in it, is a link, and ``NotADirectoryError`` when something else stands
    in its place."""
    path = root / STATE_DIR
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        if create:
            with contextlib.suppress(FileExistsError):
                os.mkdir(path)
            checked = state_dir(root, create=False)
            _ignore_all(checked)
            return checked
        return path
    if stat.S_ISLNK(st.st_mode):
        raise UnsafeState(str(path), kind_of(st.st_mode))
    if not stat.S_ISDIR(st.st_mode):
        raise NotADirectoryError(
            errno.ENOTDIR,
            f"it is a {kind_of(st.st_mode)} where applydiff keeps its state directory; move it "
            "away",
            str(path),
        )
    for name in _STATE_FILES:  # a shipped link inside it would be written through as well
        with contextlib.suppress(FileNotFoundError):
            if stat.S_ISLNK(os.lstat(path / name).st_mode):
                raise UnsafeState(str(path / name), "symbolic link")
    if create:
        _ignore_all(path)  # a state directory made before it had one
    return path


def _ignore_all(path: Path) -> None:
    """Put the ``.gitignore`` of ``*`` in the state directory ``path`` unless it has one
    (never through a link: the file is created, not opened)."""
    try:
        fd = os.open(path / ".gitignore", os.O_WRONLY | os.O_CREAT | os.O_EXCL | NOFOLLOW, 0o644)
    except FileExistsError:
        return
    try:
        os.write(fd, GITIGNORE)
    finally:
        os.close(fd)


def read_plain(path: str | os.PathLike[str], limit: int) -> bytes | None:
    """A file applydiff keeps or reads beside the tree (a journal, a reason, git's index):
    its bytes, at most ``limit`` of them (more is :class:`TooLarge`); None when it is
    missing. Never through a link in its last component, never blocking on a FIFO (opened
    non-blocking, then checked to be a regular file)."""
    try:
        fd = os.open(path, os.O_RDONLY | NOFOLLOW | _NONBLOCK | _CLOEXEC)
    except FileNotFoundError:
        return None
    except OSError as e:
        if e.errno == errno.ELOOP:
            raise LinkedPath(os.fspath(path)) from None
        raise
    try:
        st = os.fstat(fd)
        _check_kind(st, os.fspath(path))
        if st.st_size > limit:
            raise TooLarge(os.fspath(path), st.st_size)
        return _read_all(fd, limit, os.fspath(path))
    finally:
        os.close(fd)


def write_new(path: str | os.PathLike[str], data: bytes, mode: int = 0o644) -> None:
    """Write ``data`` to a new file at ``path``, created here (never opened through a link
    or onto something already there: whatever stands at ``path`` is removed first), synced."""
    with contextlib.suppress(FileNotFoundError):
        os.unlink(path)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | NOFOLLOW | _CLOEXEC, mode)
    try:
        write_all(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)


def write_all(fd: int, data: bytes) -> None:
    """``os.write`` until every byte is written (one call may write fewer than asked)."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def kind_of(mode: int) -> str:
    """What a file of ``mode`` is, in words."""
    for test, name in (
        (stat.S_ISREG, "regular file"),
        (stat.S_ISDIR, "directory"),
        (stat.S_ISLNK, "symbolic link"),
        (stat.S_ISFIFO, "FIFO (named pipe)"),
        (stat.S_ISSOCK, "socket"),
        (stat.S_ISCHR, "character device"),
        (stat.S_ISBLK, "block device"),
    ):
        if test(mode):
            return name
    return "special file"


def parts_of(root: Path, path: str | os.PathLike[str]) -> list[str]:
    """``path`` (absolute, below ``root``) as the components to walk from the root."""
    rel = os.path.relpath(os.fspath(path), root)
    if rel == "." or rel.startswith(".." + os.sep) or rel == ".." or os.path.isabs(rel):
        raise LinkedPath(os.fspath(path))
    return rel.split(os.sep)


def open_root(root: Path) -> int:
    return os.open(root, os.O_RDONLY | _DIRECTORY | _CLOEXEC)


def open_dir(dir_fd: int, name: str, shown: str) -> int:
    """The directory ``name`` inside ``dir_fd``, not followed if it is a link."""
    try:
        return os.open(name, os.O_RDONLY | _DIRECTORY | NOFOLLOW | _CLOEXEC, dir_fd=dir_fd)
    except OSError as e:
        if e.errno not in (errno.ELOOP, errno.ENOTDIR, errno.EMLINK):
            raise
        st = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
        if stat.S_ISLNK(st.st_mode):
            raise LinkedPath(shown) from None
        raise NotADirectoryError(errno.ENOTDIR, "not a directory", shown) from None


def walk(root_fd: int, parts: Sequence[str], shown: str) -> int:
    """A new descriptor of the directory ``parts`` below the root (``[]``: the root)."""
    fd = os.dup(root_fd)
    try:
        for name in parts:
            child = open_dir(fd, name, shown)
            os.close(fd)
            fd = child
    except BaseException:
        os.close(fd)
        raise
    return fd


@contextlib.contextmanager
def parent(root: Path, path: str | os.PathLike[str]) -> Iterator[tuple[int, str]]:
    """``(descriptor of the directory holding path, its last component)``; raises
    FileNotFoundError when a directory on the way is missing."""
    parts = parts_of(root, path)
    root_fd = open_root(root)
    try:
        fd = walk(root_fd, parts[:-1], os.fspath(path))
    finally:
        os.close(root_fd)
    try:
        yield fd, parts[-1]
    finally:
        os.close(fd)


@dataclass(frozen=True)
class Found:
    """A regular file as read: its bytes and its ``stat``."""

    data: bytes
    st: os.stat_result


def lstat(root: Path, path: str | os.PathLike[str]) -> os.stat_result | None:
    """The ``lstat`` of ``path`` below ``root`` (None: missing), walking without links."""
    if not DIR_FD:
        try:
            return os.lstat(path)
        except FileNotFoundError:
            return None
    try:
        with parent(root, path) as (fd, name):
            return os.stat(name, dir_fd=fd, follow_symlinks=False)
    except FileNotFoundError:
        return None


def read_regular(root: Path, path: str | os.PathLike[str], limit: int) -> Found | None:
    """The bytes of the regular file ``path`` below ``root``; None when it does not exist.

    Raises :class:`LinkedPath` (a link on the way or at the end), :class:`NotRegular`,
    ``IsADirectoryError``, :class:`TooLarge` (over ``limit`` bytes, nothing read) or OSError.
    """
    shown = os.fspath(path)
    try:
        with parent(root, path) if DIR_FD else _no_parent(path) as (fd, name):
            st = os.stat(name, dir_fd=fd, follow_symlinks=False) if DIR_FD else os.lstat(path)
            _check_kind(st, shown)
            if st.st_size > limit:
                raise TooLarge(shown, st.st_size)
            flags = os.O_RDONLY | NOFOLLOW | _NONBLOCK | _CLOEXEC
            try:
                file_fd = os.open(name, flags, dir_fd=fd) if DIR_FD else os.open(path, flags)
            except OSError as e:
                if e.errno == errno.ELOOP:  # swapped for a link since the lstat
                    raise LinkedPath(shown) from None
                raise
            try:
                now = os.fstat(file_fd)
                if (now.st_dev, now.st_ino) != (st.st_dev, st.st_ino):
                    raise LinkedPath(shown)  # swapped for another file since the lstat
                _check_kind(now, shown)
                return Found(_read_all(file_fd, limit, shown), now)
            finally:
                os.close(file_fd)
    except FileNotFoundError:
        return None


class TooLarge(OSError):
    def __init__(self, path: str, size: int) -> None:
        super().__init__(errno.EFBIG, "the file is too large", path)
        self.size = size


@contextlib.contextmanager
def _no_parent(path: str | os.PathLike[str]) -> Iterator[tuple[int, str]]:
    yield -1, os.fspath(path)


def _check_kind(st: os.stat_result, shown: str) -> None:
    if stat.S_ISREG(st.st_mode):
        return
    if stat.S_ISDIR(st.st_mode):
        raise IsADirectoryError(errno.EISDIR, "is a directory", shown)
    if stat.S_ISLNK(st.st_mode):
        raise LinkedPath(shown)
    raise NotRegular(shown, kind_of(st.st_mode))


def _read_all(fd: int, limit: int, shown: str) -> bytes:
    chunks: list[bytes] = []
    total = 0
    while True:
        chunk = os.read(fd, 1 << 20)
        if not chunk:
            return b"".join(chunks)
        total += len(chunk)
        if total > limit:  # grew since the stat
            raise TooLarge(shown, total)
        chunks.append(chunk)
