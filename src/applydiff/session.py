"""The session store: what the model was shown, what it wrote, what was committed, how it goes.

One SQLite database per root, ``.applydiff/session.db`` (WAL, a versioned schema, migrated
forward on open):

- conversations: each model conversation (a ``ToolLayer``, an ``applydiff serve``) has an
  id; two of them on one root keep apart what each was shown and how each goes;
- snapshots (per conversation): the text of each file as the model was last shown it, the
  base its next edits are matched against;
- counters and per-file stats (per conversation): exchanges, errors, ambiguous matches,
  patches, consecutive failures, the text each file had before the model first changed it;
- pending: outputs kept for review (``apply --review``), each with the base it was made
  from, and the outputs and bases it replaced (``pending_steps``), so the model's last edit
  can be taken back;
- history: the files of each commit, before and after, with their modes, the path a moved
  file came from or went to, and who made the commit (a conversation, or a person: NULL).

Texts are stored as UTF-8 bytes with surrogates passed through (a file may hold bytes that
are not UTF-8; see ``text.decode``).
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from . import fsio, gitindex
from .policy import STATE_DIR

SCHEMA_VERSION = 4
DEFAULT_CONVERSATION = "default"
KEEP_CONVERSATIONS = 16  # older conversations' snapshots and stats are dropped

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS conversations (
    id TEXT PRIMARY KEY, started_at REAL NOT NULL, active_at REAL NOT NULL);
CREATE TABLE IF NOT EXISTS snapshots (
    conv TEXT NOT NULL, path TEXT NOT NULL, text BLOB NOT NULL, shown_at REAL NOT NULL,
    PRIMARY KEY (conv, path));
CREATE TABLE IF NOT EXISTS counters (
    conv TEXT NOT NULL, name TEXT NOT NULL, value INTEGER NOT NULL, PRIMARY KEY (conv, name));
CREATE TABLE IF NOT EXISTS files (
    conv TEXT NOT NULL, path TEXT NOT NULL, original BLOB,
    patches INTEGER NOT NULL DEFAULT 0, failures INTEGER NOT NULL DEFAULT 0,
    keystone INTEGER NOT NULL DEFAULT 0, edited INTEGER NOT NULL DEFAULT 0,
    seen INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (conv, path));
CREATE TABLE IF NOT EXISTS pending (
    path TEXT PRIMARY KEY, base BLOB, output BLOB, created_at REAL NOT NULL);
CREATE TABLE IF NOT EXISTS pending_steps (
    path TEXT NOT NULL, seq INTEGER NOT NULL, base BLOB, output BLOB, PRIMARY KEY (path, seq));
CREATE TABLE IF NOT EXISTS commits (
    id INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL, at REAL NOT NULL, origin TEXT);
CREATE TABLE IF NOT EXISTS commit_files (
    commit_id INTEGER NOT NULL REFERENCES commits(id) ON DELETE CASCADE,
    path TEXT NOT NULL, before BLOB, after BLOB, mode_before INTEGER, mode_after INTEGER,
    partner TEXT, dirs_made INTEGER, PRIMARY KEY (commit_id, path));
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
class CommitFile:
    """One file of a commit: its bytes and permission bits before and after (None: no file);
    ``partner``: the other path of a move (where the file came from, or went to);
    ``dirs_made``: how many of its parent directories the commit created for it (an undo
    removes those, and only those; None: not known, a commit of schema 3 or older)."""

    path: str
    before: bytes | None
    after: bytes | None
    mode_before: int | None = None
    mode_after: int | None = None
    partner: str | None = None
    dirs_made: int | None = None


@dataclass(frozen=True)
class Commit:
    """A committed change: ``kind`` (apply, accept, merge, undo), who made it (``origin``: a
    conversation id, or None for a person at the command line) and its files."""

    id: int
    kind: str
    files: list[CommitFile]
    origin: str | None = None


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
    """The database was written by a newer, incompatible version of applydiff."""


class Session:
    """The session store of one root, seen from one conversation (thread-safe: one connection
    behind a lock; other processes wait up to ``busy_timeout_ms`` for the database).

    ``conversation``: whose snapshots and stats to use; None takes the most recently active
    conversation (what ``applydiff status`` shows), or ``default`` when there is none.
    """

    busy_timeout_ms = 10_000

    def __init__(
        self, root: str | Path, conversation: str | None = None, *, in_memory: bool = False
    ) -> None:
        self.root = Path(root)
        self.path = self.root / STATE_DIR / "session.db"
        # In memory: a store for one run that leaves nothing behind (a dry run's pending
        # outputs); never on disk, so the root keeps no state directory.
        self.in_memory = in_memory
        self._lock = threading.RLock()
        self._depth = 0
        self._db: sqlite3.Connection | None = None
        self.conversation = conversation or DEFAULT_CONVERSATION
        self._named = conversation  # None: the most recently active one, once there is a store
        self._prune = False  # a new conversation: forget the oldest once the store is open
        self._state_dir(create=False)
        # A root that has no store yet gets one only when something is recorded: reading
        # (status, an undo with nothing to undo) leaves the tree as it is.
        if in_memory or self.path.exists():
            self._open(conversation, create=in_memory)

    @property
    def exists(self) -> bool:
        """Whether the store is on disk (something was recorded on this root)."""
        return self._db is not None or self.path.exists()

    def _state_dir(self, create: bool) -> None:
        """The root's state directory checked (a link or a file in its place is refused),
        and made when ``create``."""
        try:
            fsio.state_dir(self.root, create=create)
        except (fsio.UnsafeState, NotADirectoryError) as e:
            raise SessionError(f"{e.filename}: {e.strerror}") from None
        except OSError as e:
            raise SessionError(f"cannot open the session store {self.path}: {e}") from None

    def _open(self, conversation: str | None = None, create: bool = False) -> None:
        """Connect to the store (made, with the state directory, when ``create``)."""
        if not self.in_memory:
            self._state_dir(create)
        try:
            where = ":memory:" if self.in_memory else self.path
            db = sqlite3.connect(where, check_same_thread=False, isolation_level=None)
        except (OSError, sqlite3.Error) as e:
            raise SessionError(f"cannot open the session store {self.path}: {e}") from None
        try:
            if not self.in_memory:
                _trust(db, self.path)
            # The timeout first: switching to WAL needs a lock another process may hold.
            db.execute(f"PRAGMA busy_timeout={self.busy_timeout_ms}")
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA foreign_keys=ON")
            self._db = db
            with self.transaction() as tx:
                _migrate(tx, self.path)
            self.conversation = conversation or self._latest()
            self._touch()
            if self._prune:
                self._prune = False
                self._forget_old()
            self._named = self.conversation
        except sqlite3.Error as e:
            self._db = None
            db.close()
            raise SessionError(
                f"cannot open the session store {self.path}: {e}; remove the file to start "
                "a new session"
            ) from None
        except SessionError:  # a newer schema, or a store not made here
            self._db = None
            db.close()
            raise

    def _reader(self) -> sqlite3.Connection | None:
        """The connection to read through: None while the root has no store (nothing was
        recorded; another process may make one meanwhile, which is then opened)."""
        if self._db is None and self.path.exists():
            self._connect(create=False)
        return self._db

    def _writer(self) -> sqlite3.Connection:
        """The connection to write through, making the store on the first write."""
        if self._db is None:
            self._connect(create=True)
        assert self._db is not None
        return self._db

    def _connect(self, create: bool) -> None:
        try:
            self._open(self._named, create=create)
        except SessionError as e:  # a bookkeeping failure, as any failure of the store
            raise sqlite3.OperationalError(str(e)) from None

    def close(self) -> None:
        with self._lock:
            if self._db is not None:
                self._db.close()

    def _one(self, sql: str, args: tuple = ()) -> tuple | None:
        with self._lock:
            db = self._reader()
            return None if db is None else db.execute(sql, args).fetchone()

    def _all(self, sql: str, args: tuple = ()) -> list[tuple]:
        with self._lock:
            db = self._reader()
            return [] if db is None else db.execute(sql, args).fetchall()

    def _run(self, sql: str, args: tuple = ()) -> None:
        with self._lock:
            self._writer().execute(sql, args)

    @contextlib.contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """Statements that land together or not at all (nested ones join the outer one)."""
        with self._lock:
            db = self._writer()
            if self._depth:
                self._depth += 1
                try:
                    yield db
                finally:
                    self._depth -= 1
                return
            db.execute("BEGIN IMMEDIATE")
            self._depth = 1
            try:
                yield db
            except BaseException:
                self._depth = 0
                db.execute("ROLLBACK")
                raise
            self._depth = 0
            try:
                db.execute("COMMIT")
            except sqlite3.Error:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                raise

    # -- conversations -------------------------------------------------------------------------
    def _latest(self) -> str:
        row = self._one("SELECT id FROM conversations ORDER BY active_at DESC LIMIT 1")
        return DEFAULT_CONVERSATION if row is None else str(row[0])

    def _touch(self) -> None:
        now = time.time()
        self._run(
            "INSERT INTO conversations VALUES (?, ?, ?) "
            "ON CONFLICT(id) DO UPDATE SET active_at = excluded.active_at",
            (self.conversation, now, now),
        )

    def new_conversation(self) -> str:
        """Start a conversation of its own: nothing shown yet, no counters, no stats. Outputs
        pending review and the history are shared; other conversations are left alone, but
        the oldest are forgotten past ``KEEP_CONVERSATIONS``."""
        self.conversation = self._named = f"c-{uuid.uuid4().hex[:12]}"
        with self._lock:
            if self._reader() is None:  # no store yet: the conversation is noted when one is
                self._prune = True
                return self.conversation
            self._forget_old()
        return self.conversation

    def _forget_old(self) -> None:
        with self.transaction() as db:
            self._touch()
            old = [
                r[0]
                for r in db.execute(
                    "SELECT id FROM conversations ORDER BY active_at DESC LIMIT -1 OFFSET ?",
                    (KEEP_CONVERSATIONS,),
                ).fetchall()
            ]
            for conv in old:
                for table in ("snapshots", "counters", "files"):
                    db.execute(f"DELETE FROM {table} WHERE conv=?", (conv,))
                db.execute("DELETE FROM conversations WHERE id=?", (conv,))

    # -- snapshots ---------------------------------------------------------------------------
    def remember(self, path: str, text: str) -> None:
        """Record that the model was shown ``text`` for ``path``."""
        self._run(
            "INSERT OR REPLACE INTO snapshots (conv, path, text, shown_at) VALUES (?, ?, ?, ?)",
            (self.conversation, path, _blob(text), time.time()),
        )

    def snapshot(self, path: str) -> str | None:
        row = self._one(
            "SELECT text FROM snapshots WHERE conv=? AND path=?", (self.conversation, path)
        )
        return None if row is None else _text(row[0])

    def snapshot_paths(self) -> list[str]:
        rows = self._all(
            "SELECT path FROM snapshots WHERE conv=? ORDER BY path", (self.conversation,)
        )
        return [r[0] for r in rows]

    def forget(self, path: str) -> None:
        self._run("DELETE FROM snapshots WHERE conv=? AND path=?", (self.conversation, path))

    # -- pending outputs ---------------------------------------------------------------------
    def set_pending(
        self, path: str, base: str | None, output: str | None, *, step: bool = True
    ) -> None:
        """Keep ``output`` for review, made from ``base`` (the file's text on disk). With
        ``step``, the output and base it replaces are kept for :meth:`undo_pending`."""
        with self.transaction() as db:
            row = db.execute("SELECT base, output FROM pending WHERE path=?", (path,)).fetchone()
            if row is not None and step:
                seq = db.execute(
                    "SELECT COALESCE(MAX(seq), 0) + 1 FROM pending_steps WHERE path=?", (path,)
                ).fetchone()[0]
                db.execute(
                    "INSERT INTO pending_steps (path, seq, base, output) VALUES (?, ?, ?, ?)",
                    (path, seq, row[0], row[1]),
                )
            elif row is None:
                db.execute("DELETE FROM pending_steps WHERE path=?", (path,))
            db.execute(
                "INSERT OR REPLACE INTO pending (path, base, output, created_at) "
                "VALUES (?, ?, ?, ?)",
                (path, _blob(base), _blob(output), time.time()),
            )

    def undo_pending(self, path: str) -> Pending | None:
        """Take back the last edit of a pending output: the output (and base) before it is
        pending again, or, after the first, nothing is pending. Returns what is pending now."""
        with self.transaction() as db:
            row = db.execute(
                "SELECT seq, base, output FROM pending_steps WHERE path=? "
                "ORDER BY seq DESC LIMIT 1",
                (path,),
            ).fetchone()
            if row is None:
                db.execute("DELETE FROM pending WHERE path=?", (path,))
                return None
            db.execute("DELETE FROM pending_steps WHERE path=? AND seq=?", (path, row[0]))
            db.execute("UPDATE pending SET base=?, output=? WHERE path=?", (row[1], row[2], path))
        return self.pending(path)

    def pending(self, path: str) -> Pending | None:
        row = self._one("SELECT base, output FROM pending WHERE path=?", (path,))
        return None if row is None else Pending(path, _text(row[0]), _text(row[1]))

    def pendings(self) -> list[Pending]:
        rows = self._all("SELECT path, base, output FROM pending ORDER BY path")
        return [Pending(p, _text(b), _text(o)) for p, b, o in rows]

    def drop_pending(self, path: str) -> None:
        with self.transaction() as db:
            db.execute("DELETE FROM pending WHERE path=?", (path,))
            db.execute("DELETE FROM pending_steps WHERE path=?", (path,))

    # -- history -------------------------------------------------------------------------------
    def add_commit(self, kind: str, files: list[CommitFile], origin: str | None = None) -> int:
        with self.transaction() as db:
            cur = db.execute(
                "INSERT INTO commits (kind, at, origin) VALUES (?, ?, ?)",
                (kind, time.time(), origin),
            )
            cid = int(cur.lastrowid or 0)
            db.executemany(
                "INSERT INTO commit_files (commit_id, path, before, after, mode_before, "
                "mode_after, partner, dirs_made) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                [
                    (
                        cid,
                        f.path,
                        f.before,
                        f.after,
                        f.mode_before,
                        f.mode_after,
                        f.partner,
                        f.dirs_made,
                    )
                    for f in files
                ],
            )
            return cid

    def last_commit(self, path: str | None = None) -> Commit | None:
        """The last commit, or the last one that changed ``path``."""
        if path is None:
            row = self._one("SELECT id, kind, origin FROM commits ORDER BY id DESC LIMIT 1")
        else:
            row = self._one(
                "SELECT c.id, c.kind, c.origin FROM commits c "
                "JOIN commit_files f ON f.commit_id = c.id "
                "WHERE f.path=? ORDER BY c.id DESC LIMIT 1",
                (path,),
            )
        if row is None:
            return None
        files = self._all(
            "SELECT path, before, after, mode_before, mode_after, partner, dirs_made "
            "FROM commit_files WHERE commit_id=? ORDER BY path",
            (row[0],),
        )
        return Commit(
            row[0],
            row[1],
            [
                CommitFile(
                    p,
                    None if b is None else bytes(b),
                    None if a is None else bytes(a),
                    mb,
                    ma,
                    pt,
                    dm,
                )
                for p, b, a, mb, ma, pt, dm in files
            ],
            row[2],
        )

    def drop_commit(self, commit_id: int, paths: list[str] | None = None) -> None:
        """Forget a commit (undone), or only its ``paths``: the commit goes with its last."""
        with self.transaction() as db:
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

    # -- counters and per-file stats (this conversation's) ----------------------------------------
    def bump(self, name: str, n: int = 1) -> None:
        self._run(
            "INSERT INTO counters (conv, name, value) VALUES (?, ?, ?) "
            "ON CONFLICT(conv, name) DO UPDATE SET value = value + excluded.value",
            (self.conversation, name, n),
        )

    def count(self, name: str) -> int:
        row = self._one(
            "SELECT value FROM counters WHERE conv=? AND name=?", (self.conversation, name)
        )
        return 0 if row is None else int(row[0])

    def note_edit(self, path: str, original: str | None, patches: int) -> None:
        """``patches`` more edits landed in ``path``; ``original`` is its text before the first
        (None: the first created it)."""
        self._run(
            "INSERT INTO files (conv, path, original, patches, failures, edited) "
            "VALUES (?, ?, ?, ?, 0, 1) ON CONFLICT(conv, path) DO UPDATE SET "
            "patches = patches + excluded.patches, failures = 0, "
            "original = CASE WHEN files.edited THEN files.original ELSE excluded.original END, "
            "edited = 1",
            (self.conversation, path, _blob(original), patches),
        )

    def note_failure(self, path: str) -> int:
        """One more consecutive failed edit of ``path``; returns how many in a row."""
        self._run(
            "INSERT INTO files (conv, path, failures) VALUES (?, ?, 1) "
            "ON CONFLICT(conv, path) DO UPDATE SET failures = failures + 1",
            (self.conversation, path),
        )
        st = self.stats(path)
        return st.failures if st else 0

    def _flag(self, path: str, column: str, value: int) -> None:
        self._run(
            f"INSERT INTO files (conv, path, {column}) VALUES (?, ?, ?) "
            f"ON CONFLICT(conv, path) DO UPDATE SET {column} = excluded.{column}",
            (self.conversation, path, value),
        )

    def mark_seen(self, path: str) -> None:
        """The model was shown the output pending review for ``path``."""
        self._flag(path, "seen", 1)

    def reset_failures(self, path: str) -> None:
        """The model read ``path`` again: its run of failed edits starts over."""
        self._run(
            "UPDATE files SET failures = 0 WHERE conv=? AND path=?", (self.conversation, path)
        )

    def set_keystone(self, path: str, keystone: bool = True) -> None:
        self._flag(path, "keystone", int(keystone))

    def file_stats(self) -> list[FileStats]:
        rows = self._all(
            f"SELECT {_STATS} FROM files WHERE conv=? ORDER BY path", (self.conversation,)
        )
        return [_stats(r) for r in rows]

    def stats(self, path: str) -> FileStats | None:
        row = self._one(
            f"SELECT {_STATS} FROM files WHERE conv=? AND path=?", (self.conversation, path)
        )
        return None if row is None else _stats(row)


_STATS = "path, original, patches, failures, keystone, seen"


def _stats(row: tuple) -> FileStats:
    p, o, n, f, k, seen = row
    return FileStats(p, _text(o), n, f, bool(k), bool(seen))


# -- schema versions -----------------------------------------------------------------------------
def _trust(db: sqlite3.Connection, path: Path) -> None:
    """Refuse a store that did not come from applydiff on this machine: one git tracks (the
    state directory ignores itself, so a tracked store was shipped with the repository), or
    one holding triggers or views (applydiff makes neither; a trigger would run on our own
    writes). Functions in the schema are not trusted either (``trusted_schema``)."""
    db.execute("PRAGMA trusted_schema=OFF")
    if path.exists() and gitindex.tracked([path]):
        raise SessionError(
            f"{path} is tracked by git: it came with the repository, not from a session "
            "here, and is not used. Remove it (git rm --cached, then delete the file)"
        )
    shapes = db.execute(
        "SELECT type, name FROM sqlite_master WHERE type IN ('trigger', 'view') LIMIT 1"
    ).fetchone()
    if shapes is not None:
        raise SessionError(
            f"{path} holds a {shapes[0]} ({shapes[1]!r}) applydiff never makes: it is not a "
            "store applydiff wrote, and is not used. Remove the file to start a new session"
        )


def _migrate(db: sqlite3.Connection, path: Path) -> None:
    """Bring the database to :data:`SCHEMA_VERSION` (inside the caller's transaction)."""
    tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    version = 0
    if "meta" in tables:
        row = db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
        version = int(row[0]) if row and str(row[0]).isdigit() else 0
    if version > SCHEMA_VERSION:
        raise SchemaError(
            f"{path} has schema {version}, written by a newer applydiff (this one reads up to "
            f"{SCHEMA_VERSION}); upgrade applydiff, or remove the file to start a new session"
        )
    if 0 < version < 3:
        _from_v1_or_v2(db)
    for statement in _SCHEMA.split(";"):
        if statement.strip():
            db.execute(statement)
    if 0 < version < 4:
        _from_v3(db)
    db.execute("INSERT OR REPLACE INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))


def _columns(db: sqlite3.Connection, table: str) -> set[str]:
    return {r[1] for r in db.execute(f"PRAGMA table_info({table})")}


def _from_v3(db: sqlite3.Connection) -> None:
    """Schema 4 records the directories each committed file's commit created
    (``commit_files.dirs_made``); older commits have NULL there: not known, so an undo of
    one removes no directory."""
    if "dirs_made" not in _columns(db, "commit_files"):
        db.execute("ALTER TABLE commit_files ADD COLUMN dirs_made INTEGER")


def _from_v1_or_v2(db: sqlite3.Connection) -> None:
    """Schemas 1 and 2 kept one global view: it becomes the ``default`` conversation's."""
    for table in ("snapshots", "counters", "files"):
        if "conv" in _columns(db, table):
            continue
        db.execute(f"ALTER TABLE {table} RENAME TO old_{table}")
    for statement in _SCHEMA.split(";"):
        if statement.strip():
            db.execute(statement)
    conv = DEFAULT_CONVERSATION
    db.execute(
        "INSERT OR IGNORE INTO conversations VALUES (?, ?, ?)", (conv, time.time(), time.time())
    )
    old = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    if "old_snapshots" in old:
        db.execute(
            "INSERT INTO snapshots SELECT ?, path, text, shown_at FROM old_snapshots", (conv,)
        )
        db.execute("DROP TABLE old_snapshots")
    if "old_counters" in old:
        db.execute("INSERT INTO counters SELECT ?, name, value FROM old_counters", (conv,))
        db.execute("DROP TABLE old_counters")
    if "old_files" in old:
        cols = _columns(db, "old_files")
        edited = "edited" if "edited" in cols else "patches > 0"
        seen = "seen" if "seen" in cols else "0"
        db.execute(
            f"INSERT INTO files SELECT ?, path, original, patches, failures, keystone, {edited}, "
            f"{seen} FROM old_files",
            (conv,),
        )
        db.execute("DROP TABLE old_files")
    for column in ("mode_before INTEGER", "mode_after INTEGER", "partner TEXT"):
        if column.split()[0] not in _columns(db, "commit_files"):
            db.execute(f"ALTER TABLE commit_files ADD COLUMN {column}")
    if "origin" not in _columns(db, "commits"):
        db.execute("ALTER TABLE commits ADD COLUMN origin TEXT")
    steps = _columns(db, "pending_steps") if "pending_steps" in old else set()
    if steps and "base" not in steps:
        db.execute("ALTER TABLE pending_steps ADD COLUMN base BLOB")
