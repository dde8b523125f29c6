"""The session store: what the model was shown, what it wrote, what was committed, how it goes.

One SQLite database per root, ``.applydiff/session.db`` (WAL, a versioned schema):

- snapshots: the text of each file as the model was last shown it (``read_file``), which is
  the base its next edits are matched against;
- pending: outputs kept for review (``apply --review``), each with the base it was made from;
- history: the files of each commit, before and after, for ``undo``;
- counters and per-file stats: exchanges, errors, ambiguous matches, patches, consecutive
  failures, the text each file had when the model first changed it.

Texts are stored as UTF-8 bytes with surrogates passed through (a file may hold bytes that
are not UTF-8; see ``text.decode``).
"""

from __future__ import annotations

import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from .policy import STATE_DIR

SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS snapshots (
    path TEXT PRIMARY KEY, text BLOB NOT NULL, shown_at REAL NOT NULL);
CREATE TABLE IF NOT EXISTS pending (
    path TEXT PRIMARY KEY, base BLOB, output BLOB, created_at REAL NOT NULL);
CREATE TABLE IF NOT EXISTS commits (
    id INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL, at REAL NOT NULL);
CREATE TABLE IF NOT EXISTS commit_files (
    commit_id INTEGER NOT NULL REFERENCES commits(id) ON DELETE CASCADE,
    path TEXT NOT NULL, before BLOB, after BLOB, PRIMARY KEY (commit_id, path));
CREATE TABLE IF NOT EXISTS counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS files (
    path TEXT PRIMARY KEY, original BLOB, patches INTEGER NOT NULL DEFAULT 0,
    failures INTEGER NOT NULL DEFAULT 0, keystone INTEGER NOT NULL DEFAULT 0);
"""


def _blob(text: str | None) -> bytes | None:
    return None if text is None else text.encode("utf-8", "surrogatepass")


def _text(blob: bytes | None) -> str | None:
    return None if blob is None else bytes(blob).decode("utf-8", "surrogatepass")


@dataclass(frozen=True)
class Pending:
    """An output kept for review: ``base`` is the text it was made from (None: the file did
    not exist), ``output`` the model's text (None: the model deletes the file)."""

    path: str
    base: str | None
    output: str | None


@dataclass(frozen=True)
class Commit:
    """A committed change: per path, the bytes before and after (None: no file)."""

    id: int
    kind: str
    files: list[tuple[str, bytes | None, bytes | None]]


@dataclass(frozen=True)
class FileStats:
    path: str
    original: str | None
    patches: int
    failures: int
    keystone: bool


class SchemaError(RuntimeError):
    """The database was written by an incompatible version of applydiff."""


class Session:
    """The session store of one root (thread-safe: one connection behind a lock)."""

    def __init__(self, root: str | Path) -> None:
        state = Path(root) / STATE_DIR
        state.mkdir(exist_ok=True)
        self.path = state / "session.db"
        self._lock = threading.RLock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.execute("PRAGMA busy_timeout=5000")
        with self._lock:
            self._db.executescript(_SCHEMA)
            row = self._db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
            if row is None:
                self._db.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
            elif int(row[0]) != SCHEMA_VERSION:
                raise SchemaError(
                    f"{self.path} has schema {row[0]}, this applydiff reads {SCHEMA_VERSION}; "
                    "remove the file to start a new session"
                )

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def _one(self, sql: str, args: tuple = ()) -> tuple | None:
        with self._lock:
            return self._db.execute(sql, args).fetchone()

    def _all(self, sql: str, args: tuple = ()) -> list[tuple]:
        with self._lock:
            return self._db.execute(sql, args).fetchall()

    def _run(self, sql: str, args: tuple = ()) -> None:
        with self._lock:
            self._db.execute(sql, args)

    # -- snapshots ---------------------------------------------------------------------------
    def remember(self, path: str, text: str) -> None:
        """Record that the model was shown ``text`` for ``path``."""
        self._run(
            "INSERT OR REPLACE INTO snapshots VALUES (?, ?, ?)", (path, _blob(text), time.time())
        )

    def snapshot(self, path: str) -> str | None:
        row = self._one("SELECT text FROM snapshots WHERE path=?", (path,))
        return None if row is None else _text(row[0])

    def snapshot_paths(self) -> list[str]:
        return [r[0] for r in self._all("SELECT path FROM snapshots ORDER BY path")]

    def forget(self, path: str) -> None:
        self._run("DELETE FROM snapshots WHERE path=?", (path,))

    # -- pending outputs ---------------------------------------------------------------------
    def set_pending(self, path: str, base: str | None, output: str | None) -> None:
        """Keep ``output`` for review; a pending output edited again keeps its first base."""
        with self._lock:
            row = self._db.execute("SELECT base FROM pending WHERE path=?", (path,)).fetchone()
            first = _text(row[0]) if row is not None else base
            self._db.execute(
                "INSERT OR REPLACE INTO pending VALUES (?, ?, ?, ?)",
                (path, _blob(first), _blob(output), time.time()),
            )

    def pending(self, path: str) -> Pending | None:
        row = self._one("SELECT base, output FROM pending WHERE path=?", (path,))
        return None if row is None else Pending(path, _text(row[0]), _text(row[1]))

    def pendings(self) -> list[Pending]:
        rows = self._all("SELECT path, base, output FROM pending ORDER BY path")
        return [Pending(p, _text(b), _text(o)) for p, b, o in rows]

    def drop_pending(self, path: str) -> None:
        self._run("DELETE FROM pending WHERE path=?", (path,))

    # -- history -------------------------------------------------------------------------------
    def add_commit(self, kind: str, files: list[tuple[str, bytes | None, bytes | None]]) -> int:
        with self._lock:
            self._db.execute("BEGIN")
            cur = self._db.execute(
                "INSERT INTO commits (kind, at) VALUES (?, ?)", (kind, time.time())
            )
            cid = int(cur.lastrowid or 0)
            self._db.executemany(
                "INSERT INTO commit_files VALUES (?, ?, ?, ?)",
                [(cid, p, before, after) for p, before, after in files],
            )
            self._db.execute("COMMIT")
            return cid

    def last_commit(self) -> Commit | None:
        row = self._one("SELECT id, kind FROM commits ORDER BY id DESC LIMIT 1")
        if row is None:
            return None
        files = self._all(
            "SELECT path, before, after FROM commit_files WHERE commit_id=? ORDER BY path",
            (row[0],),
        )
        return Commit(
            row[0],
            row[1],
            [
                (p, None if b is None else bytes(b), None if a is None else bytes(a))
                for p, b, a in files
            ],
        )

    def drop_commit(self, commit_id: int) -> None:
        self._run("DELETE FROM commits WHERE id=?", (commit_id,))

    # -- counters and per-file stats -------------------------------------------------------------
    def bump(self, name: str, n: int = 1) -> None:
        self._run(
            "INSERT INTO counters VALUES (?, ?) "
            "ON CONFLICT(name) DO UPDATE SET value = value + excluded.value",
            (name, n),
        )

    def count(self, name: str) -> int:
        row = self._one("SELECT value FROM counters WHERE name=?", (name,))
        return 0 if row is None else int(row[0])

    def note_edit(self, path: str, original: str | None, patches: int) -> None:
        """``patches`` more edits landed in ``path``; ``original`` is its text before the first."""
        self._run(
            "INSERT INTO files (path, original, patches, failures) VALUES (?, ?, ?, 0) "
            "ON CONFLICT(path) DO UPDATE SET patches = patches + excluded.patches, failures = 0, "
            "original = COALESCE(files.original, excluded.original)",
            (path, _blob(original), patches),
        )

    def note_failure(self, path: str) -> int:
        """One more consecutive failed edit of ``path``; returns how many in a row."""
        self._run(
            "INSERT INTO files (path, original, failures) VALUES (?, NULL, 1) "
            "ON CONFLICT(path) DO UPDATE SET failures = failures + 1",
            (path,),
        )
        row = self._one("SELECT failures FROM files WHERE path=?", (path,))
        return int(row[0]) if row else 0

    def set_keystone(self, path: str, keystone: bool = True) -> None:
        self._run(
            "INSERT INTO files (path, keystone) VALUES (?, ?) "
            "ON CONFLICT(path) DO UPDATE SET keystone = excluded.keystone",
            (path, int(keystone)),
        )

    def file_stats(self) -> list[FileStats]:
        rows = self._all(
            "SELECT path, original, patches, failures, keystone FROM files ORDER BY path"
        )
        return [FileStats(p, _text(o), n, f, bool(k)) for p, o, n, f, k in rows]

    def stats(self, path: str) -> FileStats | None:
        row = self._one(
            "SELECT path, original, patches, failures, keystone FROM files WHERE path=?", (path,)
        )
        return (
            None if row is None else FileStats(row[0], _text(row[1]), row[2], row[3], bool(row[4]))
        )
