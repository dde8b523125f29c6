"""The session store: what the model was shown, what it wrote, what was committed, how it goes.

One SQLite database per root, ``.applydiff/session.db`` (WAL, a versioned schema):

- snapshots: the text of each file as the model was last shown it (``read_file``), which is
  the base its next edits are matched against;
- pending: outputs kept for review (``apply --review``), each with the base it was made from,
  and the outputs it replaced (``pending_steps``), so the model's last edit can be undone;
- history: the files of each commit, before and after, with their modes, for ``undo``;
- counters and per-file stats: exchanges, errors, ambiguous matches, patches, consecutive
  failures, the text each file had when the model first changed it.

Texts are stored as UTF-8 bytes with surrogates passed through (a file may hold bytes that
are not UTF-8; see ``text.decode``).
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from .policy import STATE_DIR

SCHEMA_VERSION = 2

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS snapshots (
    path TEXT PRIMARY KEY, text BLOB NOT NULL, shown_at REAL NOT NULL);
CREATE TABLE IF NOT EXISTS pending (
    path TEXT PRIMARY KEY, base BLOB, output BLOB, created_at REAL NOT NULL);
CREATE TABLE IF NOT EXISTS pending_steps (
    path TEXT NOT NULL, seq INTEGER NOT NULL, output BLOB, PRIMARY KEY (path, seq));
CREATE TABLE IF NOT EXISTS commits (
    id INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL, at REAL NOT NULL);
CREATE TABLE IF NOT EXISTS commit_files (
    commit_id INTEGER NOT NULL REFERENCES commits(id) ON DELETE CASCADE,
    path TEXT NOT NULL, before BLOB, after BLOB, mode_before INTEGER, mode_after INTEGER,
    PRIMARY KEY (commit_id, path));
CREATE TABLE IF NOT EXISTS counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS files (
    path TEXT PRIMARY KEY, original BLOB, patches INTEGER NOT NULL DEFAULT 0,
    failures INTEGER NOT NULL DEFAULT 0, keystone INTEGER NOT NULL DEFAULT 0,
    edited INTEGER NOT NULL DEFAULT 0, seen INTEGER NOT NULL DEFAULT 0);
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
class FileChange:
    """One file of a commit: its bytes and permission bits before and after (None: no file)."""

    path: str
    before: bytes | None
    after: bytes | None
    mode_before: int | None = None
    mode_after: int | None = None


@dataclass(frozen=True)
class Commit:
    """A committed change: ``kind`` (apply, accept, merge, undo) and its files."""

    id: int
    kind: str
    files: list[FileChange]


@dataclass(frozen=True)
class FileStats:
    path: str
    original: str | None  # the text before the model's first edit (None: it created the file)
    patches: int
    failures: int
    keystone: bool
    seen: bool = False  # the model was shown an output pending review for it

    @property
    def created(self) -> bool:
        return self.patches > 0 and self.original is None


class SessionError(RuntimeError):
    """The session store cannot be opened (not writable, damaged, or not a database)."""


class SchemaError(SessionError):
    """The database was written by an incompatible version of applydiff."""


class Session:
    """The session store of one root (thread-safe: one connection behind a lock; other
    processes wait up to ``busy_timeout`` for the database)."""

    busy_timeout_ms = 10_000

    def __init__(self, root: str | Path) -> None:
        state = Path(root) / STATE_DIR
        self.path = state / "session.db"
        self._lock = threading.RLock()
        if state.exists() and not state.is_dir():
            raise SessionError(
                f"{state} is a file, where applydiff keeps its state directory; move it away"
            )
        try:
            state.mkdir(exist_ok=True)
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        except (OSError, sqlite3.Error) as e:
            raise SessionError(f"cannot open the session store {self.path}: {e}") from None
        try:
            # The timeout first: switching to WAL needs a lock another process may hold.
            self._db.execute(f"PRAGMA busy_timeout={self.busy_timeout_ms}")
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA foreign_keys=ON")
            with self._lock:
                self._db.executescript(_SCHEMA)
                row = self._db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
                if row is None:
                    self._db.execute(
                        "INSERT OR IGNORE INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),)
                    )
                elif row[0] != str(SCHEMA_VERSION):
                    raise SchemaError(
                        f"{self.path} has schema {row[0]}, this applydiff reads "
                        f"{SCHEMA_VERSION}; remove the file to start a new session"
                    )
        except sqlite3.Error as e:
            self._db.close()
            raise SessionError(
                f"cannot open the session store {self.path}: {e}; remove the file to start "
                "a new session"
            ) from None
        except SchemaError:
            self._db.close()
            raise

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

    @contextlib.contextmanager
    def _transaction(self):  # type: ignore[no-untyped-def]
        """Statements that land together or not at all."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                yield self._db
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
            self._db.execute("COMMIT")

    def new_conversation(self) -> None:
        """Forget what a previous conversation was shown and how it went (snapshots, counters,
        per-file stats); outputs pending review and the undo history stay."""
        with self._transaction() as db:
            db.execute("DELETE FROM snapshots")
            db.execute("DELETE FROM counters")
            db.execute("DELETE FROM files")

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
    def set_pending(
        self, path: str, base: str | None, output: str | None, *, step: bool = True
    ) -> None:
        """Keep ``output`` for review, made from ``base`` (the file's text on disk). With
        ``step``, an output it replaces is kept for :meth:`undo_pending`."""
        with self._transaction() as db:
            row = db.execute("SELECT output FROM pending WHERE path=?", (path,)).fetchone()
            if row is not None and step:
                seq = db.execute(
                    "SELECT COALESCE(MAX(seq), 0) + 1 FROM pending_steps WHERE path=?", (path,)
                ).fetchone()[0]
                db.execute("INSERT INTO pending_steps VALUES (?, ?, ?)", (path, seq, row[0]))
            elif row is None:
                db.execute("DELETE FROM pending_steps WHERE path=?", (path,))
            db.execute(
                "INSERT OR REPLACE INTO pending VALUES (?, ?, ?, ?)",
                (path, _blob(base), _blob(output), time.time()),
            )

    def undo_pending(self, path: str) -> Pending | None:
        """Take back the last edit of a pending output: the output before it is pending again,
        or, after the first, nothing is pending. Returns what is pending now."""
        with self._transaction() as db:
            row = db.execute(
                "SELECT seq, output FROM pending_steps WHERE path=? ORDER BY seq DESC LIMIT 1",
                (path,),
            ).fetchone()
            if row is None:
                db.execute("DELETE FROM pending WHERE path=?", (path,))
                return None
            db.execute("DELETE FROM pending_steps WHERE path=? AND seq=?", (path, row[0]))
            db.execute("UPDATE pending SET output=? WHERE path=?", (row[1], path))
        return self.pending(path)

    def pending(self, path: str) -> Pending | None:
        row = self._one("SELECT base, output FROM pending WHERE path=?", (path,))
        return None if row is None else Pending(path, _text(row[0]), _text(row[1]))

    def pendings(self) -> list[Pending]:
        rows = self._all("SELECT path, base, output FROM pending ORDER BY path")
        return [Pending(p, _text(b), _text(o)) for p, b, o in rows]

    def drop_pending(self, path: str) -> None:
        with self._transaction() as db:
            db.execute("DELETE FROM pending WHERE path=?", (path,))
            db.execute("DELETE FROM pending_steps WHERE path=?", (path,))

    # -- history -------------------------------------------------------------------------------
    def add_commit(self, kind: str, files: list[FileChange]) -> int:
        with self._transaction() as db:
            cur = db.execute("INSERT INTO commits (kind, at) VALUES (?, ?)", (kind, time.time()))
            cid = int(cur.lastrowid or 0)
            db.executemany(
                "INSERT INTO commit_files VALUES (?, ?, ?, ?, ?, ?)",
                [(cid, f.path, f.before, f.after, f.mode_before, f.mode_after) for f in files],
            )
            return cid

    def last_commit(self, path: str | None = None) -> Commit | None:
        """The last commit, or the last one that changed ``path``."""
        if path is None:
            row = self._one("SELECT id, kind FROM commits ORDER BY id DESC LIMIT 1")
        else:
            row = self._one(
                "SELECT c.id, c.kind FROM commits c JOIN commit_files f ON f.commit_id = c.id "
                "WHERE f.path=? ORDER BY c.id DESC LIMIT 1",
                (path,),
            )
        if row is None:
            return None
        files = self._all(
            "SELECT path, before, after, mode_before, mode_after FROM commit_files "
            "WHERE commit_id=? ORDER BY path",
            (row[0],),
        )
        return Commit(
            row[0],
            row[1],
            [
                FileChange(
                    p, None if b is None else bytes(b), None if a is None else bytes(a), mb, ma
                )
                for p, b, a, mb, ma in files
            ],
        )

    def drop_commit(self, commit_id: int, paths: list[str] | None = None) -> None:
        """Forget a commit (undone), or only its ``paths``: the commit goes with its last."""
        with self._transaction() as db:
            if paths is not None:
                db.executemany(
                    "DELETE FROM commit_files WHERE commit_id=? AND path=?",
                    [(commit_id, p) for p in paths],
                )
                left = db.execute(
                    "SELECT 1 FROM commit_files WHERE commit_id=? LIMIT 1", (commit_id,)
                ).fetchone()
                if left is not None:
                    return
            db.execute("DELETE FROM commits WHERE id=?", (commit_id,))

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
        """``patches`` more edits landed in ``path``; ``original`` is its text before the first
        (None: the first created it)."""
        self._run(
            "INSERT INTO files (path, original, patches, failures, edited) VALUES (?, ?, ?, 0, 1) "
            "ON CONFLICT(path) DO UPDATE SET patches = patches + excluded.patches, failures = 0, "
            "original = CASE WHEN files.edited THEN files.original ELSE excluded.original END, "
            "edited = 1",
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

    def mark_seen(self, path: str) -> None:
        """The model was shown the output pending review for ``path``."""
        self._run(
            "INSERT INTO files (path, seen) VALUES (?, 1) ON CONFLICT(path) DO UPDATE SET seen = 1",
            (path,),
        )

    def reset_failures(self, path: str) -> None:
        """The model read ``path`` again: its run of failed edits starts over."""
        self._run("UPDATE files SET failures = 0 WHERE path=?", (path,))

    def set_keystone(self, path: str, keystone: bool = True) -> None:
        self._run(
            "INSERT INTO files (path, keystone) VALUES (?, ?) "
            "ON CONFLICT(path) DO UPDATE SET keystone = excluded.keystone",
            (path, int(keystone)),
        )

    def file_stats(self) -> list[FileStats]:
        rows = self._all(f"SELECT {_STATS} FROM files ORDER BY path")
        return [_stats(r) for r in rows]

    def stats(self, path: str) -> FileStats | None:
        row = self._one(f"SELECT {_STATS} FROM files WHERE path=?", (path,))
        return None if row is None else _stats(row)


_STATS = "path, original, patches, failures, keystone, seen"


def _stats(row: tuple) -> FileStats:
    p, o, n, f, k, seen = row
    return FileStats(p, _text(o), n, f, bool(k), bool(seen))
