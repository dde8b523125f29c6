"""Which files under a directory git tracks, read from the repository's index file.

applydiff's state directory holds a ``.gitignore`` of ``*``: nothing in it is ever tracked
unless a repository shipped it on purpose. A journal or session store that came with a clone
is never trusted, so recovery and the session store ask this module. It reads the index
itself rather than running ``git``: a repository's own configuration can make ``git`` run
programs (``core.fsmonitor``), and ``git`` may not be installed.

The index format (``gitformat-index``): versions 2, 3 and 4, SHA-1 or SHA-256 object names,
v4's prefix-compressed paths; a split index's shared part is read too. An index that cannot
be read answers None: "cannot tell", which callers treat as their rules say.
"""

from __future__ import annotations

import os
import re
import struct
from pathlib import Path

from . import fsio

_SIGNATURE = b"DIRC"
_FIXED = 40  # ctime, mtime, dev, ino, mode, uid, gid, size: ten 32-bit fields
_EXTENDED = 0x4000
_NAME_MASK = 0x0FFF
_MAX_INDEX_BYTES = 1 << 30
_OBJECT_FORMAT = re.compile(rb"^\s*objectformat\s*=\s*sha256\s*$", re.IGNORECASE | re.MULTILINE)


def repository(start: Path) -> tuple[Path, Path] | None:
    """``(top, git directory)`` of the work tree holding ``start``, or None outside one. A
    ``.git`` file (a worktree, a submodule) names its git directory."""
    top = git_toplevel(str(start))
    if top is None:
        return None
    dot = Path(top) / ".git"
    if dot.is_dir():
        return Path(top), dot
    try:
        line = (fsio.read_plain(dot, 1 << 16) or b"").decode("utf-8", "replace").strip()
    except OSError:
        return None
    return Path(top), (Path(top) / line[len("gitdir:") :].strip()).resolve()


def git_toplevel(start: str) -> str | None:
    """The top of the git work tree holding ``start`` (a directory or a file in one), as
    ``git rev-parse --show-toplevel`` finds it without running git: the nearest directory
    at or above ``start`` with a ``.git`` directory, or a ``.git`` file (``gitdir: ...``,
    as a linked worktree or a submodule has). None outside any work tree."""
    here = os.path.realpath(start)
    if not os.path.isdir(here):
        here = os.path.dirname(here)
    while True:
        dot_git = os.path.join(here, ".git")
        if os.path.isdir(dot_git) or _gitdir_file(dot_git):
            return here
        parent = os.path.dirname(here)
        if parent == here:
            return None
        here = parent


def _gitdir_file(path: str) -> bool:
    """Whether ``path`` is a ``.git`` file pointing at a git directory (``gitdir: ...``)."""
    if not os.path.isfile(path):  # never open a FIFO: it would block
        return False
    try:
        with open(path, "rb") as f:
            return f.read(8) == b"gitdir: "
    except OSError:
        return False


def tracked(paths: list[Path]) -> set[Path] | None:
    """Those of ``paths`` (absolute, in one work tree) the index tracks; None when the index
    cannot be read. Outside a work tree nothing is tracked."""
    if not paths:
        return set()
    found = repository(paths[0].parent)
    if found is None:
        return set()
    top, gitdir = found
    wanted = {}
    for p in paths:
        try:
            wanted[Path(os.path.realpath(p)).relative_to(top).as_posix()] = p
        except ValueError:
            continue
    names = index_names(gitdir, set(wanted))
    if names is None:
        return None
    hit = set()
    for name in names:
        if name in wanted:
            hit.add(wanted[name])
        elif name.endswith("/"):  # a sparse index's directory entry holds what is below it
            hit.update(p for rel, p in wanted.items() if rel.startswith(name))
    return hit


def index_names(gitdir: Path, wanted: set[str]) -> set[str] | None:
    """The paths in ``gitdir``'s index (those in ``wanted``, and sparse directory entries);
    an empty set when there is no index; None when it cannot be read."""
    data = _read(gitdir / "index")
    if data is None:
        return set()
    if not isinstance(data, bytes):
        return None
    hash_size = 32 if _sha256(gitdir) else 20
    read = _names(data, hash_size, wanted)
    if read is None:
        return None
    names, end = read
    shared = _shared(data, end, hash_size)
    if shared:
        more = _read(gitdir / f"sharedindex.{shared}")
        if not isinstance(more, bytes):
            return None
        extra = _names(more, hash_size, wanted)
        if extra is None:
            return None
        names |= extra[0]
    return names


def _read(path: Path) -> bytes | bool | None:
    """The file's bytes; None when it is missing; False when it cannot be read."""
    try:  # never through a link, never blocking on a FIFO a tarball can ship
        return fsio.read_plain(path, _MAX_INDEX_BYTES)
    except OSError:
        return False


def _sha256(gitdir: Path) -> bool:
    """Whether the repository names objects by SHA-256 (its common config says so)."""
    common = gitdir
    got = _read(gitdir / "commondir")
    if isinstance(got, bytes):
        common = (gitdir / got.decode("utf-8", "replace").strip()).resolve()
    config = _read(common / "config")
    return isinstance(config, bytes) and _OBJECT_FORMAT.search(config) is not None


def _names(data: bytes, hash_size: int, wanted: set[str]) -> tuple[set[str], int] | None:
    """The names walked over the entries, and where the entries end (the extensions
    begin); None when the bytes are not an index this module reads."""
    if len(data) < 12 or data[:4] != _SIGNATURE:
        return None
    version, count = struct.unpack(">II", data[4:12])
    if version not in (2, 3, 4):
        return None
    # Fast path: a v2/v3 index stores each path whole, so one absent from its bytes is not
    # in it (unless a sparse directory entry holds it, or a split index's shared part does).
    whole = version != 4 and b"/\x00" not in data and b"link" not in data
    if whole and not any(w.encode("utf-8", "surrogateescape") in data for w in wanted):
        return set(), len(data)
    names: set[str] = set()
    pos, previous = 12, b""
    for _ in range(count):
        start = pos
        pos += _FIXED + hash_size
        if pos + 2 > len(data):
            return None
        (flags,) = struct.unpack(">H", data[pos : pos + 2])
        pos += 2
        if version >= 3 and flags & _EXTENDED:
            pos += 2
        if version == 4:
            strip, pos = _varint(data, pos)
            if strip is None or strip > len(previous):
                return None
            end = data.find(b"\x00", pos)
            if end < 0:
                return None
            name = previous[: len(previous) - strip] + data[pos:end]
            pos = end + 1
        else:
            end = data.find(b"\x00", pos)
            if end < 0:
                return None
            name = data[pos:end]
            # The entry is padded with 1-8 NULs to a multiple of eight bytes.
            pos = start + ((end - start) // 8 + 1) * 8
        if (flags & _NAME_MASK) not in (len(name), _NAME_MASK) and len(name) < _NAME_MASK:
            return None  # the name's length disagrees with its flags: not read right
        previous = name
        text = name.decode("utf-8", "surrogateescape")
        if text in wanted or text.endswith("/"):
            names.add(text)
    return names, pos


def _varint(data: bytes, pos: int) -> tuple[int | None, int]:
    """git's offset varint (each continuation adds one before shifting)."""
    if pos >= len(data):
        return None, pos
    c = data[pos]
    value = c & 0x7F
    pos += 1
    while c & 0x80:
        if pos >= len(data) or value > 1 << 32:
            return None, pos
        c = data[pos]
        value = ((value + 1) << 7) | (c & 0x7F)
        pos += 1
    return value, pos


def _shared(data: bytes, pos: int, hash_size: int) -> str | None:
    """The shared index a split index points to (its ``link`` extension), if any: the
    extensions follow the entries, each a signature, a size and its bytes, before the
    index's own checksum."""
    end = len(data) - hash_size
    while pos + 8 <= end:
        signature = data[pos : pos + 4]
        (size,) = struct.unpack(">I", data[pos + 4 : pos + 8])
        body = data[pos + 8 : pos + 8 + size]
        if signature == b"link" and len(body) >= hash_size and any(body[:hash_size]):
            return body[:hash_size].hex()
        pos += 8 + size
    return None
