"""The root on disk: its policy, its session store, reading files as the engine needs them,
and committing new contents with their history entry.

:class:`Store` is the layer under the workspace and the review commands. It reads a file
as its bytes, encoding, mode and digest (:meth:`Store.read_disk`), together with the base the
engine edits: the disk, the snapshot the model was shown, or an output pending review
(:meth:`Store.read_base`). It commits targets crash-safely under the root's lock and records
them for undo (:meth:`Store.commit_targets`); session bookkeeping after a commit is best
effort, a failure there a warning (:meth:`Store.record_or_warn`).
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import os
import sqlite3
import stat
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import commit as commit_mod
from . import fsio, recovery
from .errors import (
    BINARY_FILE,
    CONFLICT,
    IO_ERROR,
    NOT_READ,
    PATH_DENIED,
    TOO_LARGE,
    EditError,
)
from .policy import STATE_DIR, Policy, denied
from .problems import Problem, listed
from .session import CommitFile, Session, SessionError
from .text import UTF8, Binary, Encoding, decode, dominant_eol, ends_line, file_id

DEFAULT_MAX_FILE_BYTES = 16 * 1024 * 1024
TREE_SCAN_LIMIT = 20_000  # files looked at for a suggestion ("did you mean")


@dataclass(frozen=True)
class FileText:
    """A file as the engine sees it, with the facts needed to write it back byte for byte."""

    path: str
    text: str
    file_id: str
    encoding: str
    bom: bool
    eol: str  # the dominant line terminator: "\n", "\r\n" or "\r"
    final_newline: bool
    mode: int


@dataclass
class FileRead:
    """A file as read for one apply: the disk's bytes and text, and the base the engine edits
    (``kind``: ``"disk"`` itself, the model's ``"snapshot"``, or an output ``"pending"``
    review) together with the text that base was made from (``merge_base``), for a three-way
    merge when the disk moved on."""

    real: Path
    data: bytes | None  # bytes on disk when read; None: no file
    text: str | None
    encoding: Encoding
    mode: int | None
    kind: str = "disk"
    base: str | None = None
    merge_base: str | None = None

    @property
    def digest(self) -> str | None:
        return None if self.data is None else hashlib.sha256(self.data).hexdigest()


class PendingReview(EditError):
    """A plain edit of a file whose output waits for review: writing would leave it stale."""

    code = CONFLICT

    def __init__(self, key: str) -> None:
        super().__init__(
            f"{key} has an output pending review; a person must accept, merge or discard it "
            "first (applydiff status lists them), or edit it in review mode",
            path=key,
        )

    def facts(self) -> dict[str, Any]:
        return {"pending_review": True}


class Store:
    """A root directory and what is kept about it: the policy that says which paths may be
    touched, and the session store (snapshots, review, undo).

    Opening one first recovers a commit that a crash interrupted. ``session=True`` opens the
    root's session store; with ``store_optional``, a store that cannot be opened (locked,
    broken) is not an error: the root is used without it, and :attr:`store_warning` says so
    (the workspace adds it to each result). ``require_read`` refuses edits to existing files
    the model was never shown (``not_read``). ``model_view`` (the default) matches edits
    against what the model was shown and keeps its counters; without it, edits go against
    the disk (or an output pending review, in review mode) and the session records only
    review outputs and history. ``lock_timeout``: seconds to wait for the root's lock while
    another process holds it (None: ``commit.LOCK_TIMEOUT``), then refuse (``io_error``).
    """

    def __init__(
        self,
        root: str | os.PathLike[str],
        *,
        ignore_file: str | None = ".applydiffignore",
        max_file_bytes: int = DEFAULT_MAX_FILE_BYTES,
        session: Session | bool = False,
        store_optional: bool = False,
        require_read: bool = False,
        model_view: bool = True,
        lock_timeout: float | None = None,
    ) -> None:
        path = Path(root)
        # Seconds another process's hold of the root's lock is waited for (None: the
        # default, commit.LOCK_TIMEOUT); then the command is refused, nothing written.
        self.lock_timeout = lock_timeout
        if not path.is_dir():
            raise EditError(f"the root {str(root)!r} is not a directory", code=IO_ERROR)
        self.policy = Policy(path, ignore_file)
        self.root = self.policy.root
        self.max_file_bytes = max_file_bytes
        # A journal that could not be finished on open (a file it writes is not writable):
        # every command that reads or writes the tree refuses with it (io_error), never a
        # traceback; the journal stays for the next open.
        self.recovery_problem: Problem | None = None
        # Journals recovery did not trust (a repository can ship one): moved aside, nothing
        # written; said once in the first result (`take_state_warning`) until discarded.
        self.state_warning: str | None = None
        try:
            commit_mod.recover(self.root, lock_timeout, vet=recovery.vetter(self.policy))
            self.state_warning = recovery.warning(commit_mod.quarantined(self.root))
        except (fsio.UnsafeState, commit_mod.LockTimeout):
            raise
        except OSError as e:
            where = self._shown(e.filename)
            self.recovery_problem = Problem(
                IO_ERROR,
                f"an interrupted change could not be finished ({where}: {e.strerror}); "
                "nothing was done. Make the file writable and run the command again",
                path=where,
            )
        # Why the root is used without its session store, when it could not be opened (with
        # store_optional): a change made so is not recorded for undo.
        self.store_warning: str | None = None
        self.session: Session | None = None
        if session is True:
            try:
                self.session = Session(self.root)
            except SessionError as e:
                if not store_optional:
                    raise
                self.store_warning = f"{e}; this change is not recorded for undo"
        elif session:
            self.session = session
        self.require_read = require_read
        self.model_view = model_view

    def take_state_warning(self) -> str | None:
        """The quarantine warning, the first time it is asked for (None after)."""
        said, self.state_warning = self.state_warning, None
        return said

    @property
    def origin(self) -> str | None:
        """Who the history says made a commit: the model's conversation, or a person (None)."""
        return self.session.conversation if self.session and self.model_view else None

    @property
    def model_session(self) -> Session | None:
        """The session, when it keeps the model's view (snapshots, counters, stats)."""
        return self.session if self.model_view else None

    # -- reading ---------------------------------------------------------------------------
    def key(self, path: str) -> str:
        """The path relative to the root, after the policy checks (raises ``path_denied``)."""
        return self.policy.resolve(path)[0]

    def read(self, path: str, *, remember: bool = False) -> FileText:
        """The file's text and facts (raises ``EditError`` for a missing or unreadable file).

        With ``remember``, the session records that the model was shown this text.
        """
        key = self.key(path)
        got = self.read_disk(key)
        if got.text is None:
            raise EditError(f"{key} does not exist", code=IO_ERROR, path=key)
        assert got.mode is not None
        if remember and self.model_session is not None:
            self.model_session.remember(key, got.text)
        return FileText(
            path=key,
            text=got.text,
            file_id=file_id(got.text),
            encoding=got.encoding.label(),
            bom=bool(got.encoding.bom),
            eol=dominant_eol(got.text),
            final_newline=ends_line(got.text),
            mode=stat.S_IMODE(got.mode),
        )

    def read_disk(self, key: str) -> FileRead:
        """The file at ``key`` as it is on disk (its base is the disk itself); a missing file
        is a read without data. Raises ``EditError`` for a file that cannot be edited."""
        real = self.policy.resolve(key)[1]
        try:
            found = fsio.read_regular(self.root, real, self.max_file_bytes)
        except fsio.TooLarge as e:
            raise EditError(
                f"{key} is {e.size} bytes, over the limit of {self.max_file_bytes}; "
                "edit a smaller file or raise max_file_bytes",
                code=TOO_LARGE,
                path=key,
            ) from None
        except IsADirectoryError:
            raise EditError(f"{key} is a directory, not a file", code=IO_ERROR, path=key) from None
        except OSError as e:
            raise _read_error(key, e) from None
        if found is None:
            return FileRead(real, None, None, UTF8, None)
        try:
            text, enc = decode(found.data)
        except Binary as e:
            raise EditError(
                f"{key} is a binary file ({e}); applydiff edits text files only",
                code=BINARY_FILE,
                path=key,
            ) from None
        return FileRead(real, found.data, text, enc, found.st.st_mode, "disk", text, text)

    def read_base(self, key: str, review: bool | None = None) -> FileRead:
        """The disk's file and the base the engine edits: an output pending review, else the
        snapshot the model was shown, else the disk. Outside review mode (``review=False``)
        a pending output is a ``conflict``: writing the file would leave it stale."""
        got = self.read_disk(key)
        s = self.session
        if s is None:
            return got
        pending = s.pending(key)
        if pending is not None:
            if review is False:
                raise PendingReview(key)
            got.kind, got.base, got.merge_base = "pending", pending.output, pending.base
            st = s.stats(key) if self.require_read and self.model_view else None
            if self.require_read and self.model_view and not (st and (st.seen or st.patches)):
                raise _not_read(key)
            return got
        if not self.model_view:
            return got
        snap = s.snapshot(key)
        if snap is not None:
            got.kind, got.base, got.merge_base = "snapshot", snap, snap
        elif self.require_read and got.text is not None:
            raise _not_read(key)
        return got

    def show_model(self, key: str, text: str | None) -> None:
        """The model is about to be shown ``key`` as ``text`` (a conflict's feedback): its
        next edits are matched against that."""
        s = self.model_session
        if s is None:
            return
        # On failure the old snapshot stays: the next edit conflicts again, nothing is lost.
        with contextlib.suppress(sqlite3.Error):
            if text is None:
                s.forget(key)
            else:
                s.remember(key, text)

    def tree_files(self, limit: int = TREE_SCAN_LIMIT) -> list[str]:
        """The keys of the regular files in the tree that the policy allows (ignore rules,
        ``.git``, ``.applydiff``), at most ``limit`` of them, directories sorted and walked
        depth first; no link is followed."""
        out: list[str] = []
        stack: list[tuple[str, Path]] = [("", self.root)]
        while stack and len(out) < limit:
            prefix, where = stack.pop()
            try:
                entries = sorted(os.scandir(where), key=lambda e: e.name)
            except OSError:
                continue
            dirs: list[tuple[str, Path]] = []
            for entry in entries:
                key = prefix + entry.name
                try:
                    if entry.is_dir(follow_symlinks=False):
                        if self.policy.allowed(key, is_dir=True):
                            dirs.append((key + "/", Path(entry.path)))
                    elif entry.is_file(follow_symlinks=False) and self.policy.allowed(key):
                        out.append(key)
                        if len(out) >= limit:
                            break
                except OSError:
                    continue
            stack.extend(reversed(dirs))
        return out

    # -- committing ------------------------------------------------------------------------
    @contextlib.contextmanager
    def locked(self, create: bool = True) -> Iterator[Problem | None]:
        """The root's lock, held for the body; the body sees None, or the problem when the
        lock cannot be taken (and must then write nothing). Without ``create``, a root with
        no state directory is not given one for the lock: nothing was ever recorded there, so
        the body (a review command) has nothing to act on and writes nothing."""
        if not create and not self.has_state():
            yield None
            return
        try:
            lock = commit_mod.root_lock(self.root, self.lock_timeout)
            lock.__enter__()
        except commit_mod.LockTimeout as e:
            where = self._shown(e.filename)
            yield Problem(
                IO_ERROR,
                f"another process holds the root's lock ({where}) and did not release it "
                f"within {e.waited:g} s; nothing was written. Try again when it is done",
                path=where,
            )
            return
        except OSError as e:
            where = self._shown(e.filename)
            yield Problem(
                PATH_DENIED if isinstance(e, fsio.UnsafeState) else IO_ERROR,
                f"cannot lock the root ({where}: {e.strerror}); nothing was written",
                path=where,
            )
            return
        try:
            yield None
        finally:
            lock.__exit__(None, None, None)

    def has_state(self) -> bool:
        """Whether the root has its state directory (something was recorded on it)."""
        return os.path.lexists(self.root / STATE_DIR)

    def recheck(self, reads: Mapping[str, FileRead], writing: Iterable[str]) -> list[Problem]:
        """Under the lock, before a commit: every path read still leads where it led (no
        directory on it swapped for a link), every file still holds what was read, and
        nothing went pending review for a path to be written (``writing``). A file whose
        permissions alone changed keeps them (its read's ``mode`` becomes the mode of now).
        The model is shown a snapshot file that changed as it is now."""
        problems: list[Problem] = []
        for key, read in reads.items():
            moved = self._moved(key, read)
            if moved is not None:
                problems.append(moved)
                continue
            try:
                found = fsio.read_regular(self.root, read.real, self.max_file_bytes)
            except IsADirectoryError:  # a change made meanwhile, like any other
                problems.append(
                    Problem(
                        CONFLICT,
                        f"{key} changed on disk after it was read: it is now a directory; "
                        "nothing was written. Look at the tree again before editing it",
                        path=key,
                    )
                )
                continue
            except OSError as e:
                problems.append(Problem.of(_read_error(key, e)))
                continue
            if (None if found is None else hashlib.sha256(found.data).hexdigest()) != read.digest:
                problems.append(
                    Problem(
                        CONFLICT,
                        f"{key} changed on disk after it was read; nothing was written. "
                        "Read the file again and redo the edit against what it holds now",
                        path=key,
                    )
                )
                if read.kind == "snapshot":
                    with contextlib.suppress(EditError):
                        self.show_model(key, self.read_disk(key).text)
            elif found is not None:
                read.mode = found.st.st_mode  # a chmod since the read is kept, not undone
        if self.session is not None:
            for path in writing:
                if self.session.pending(path) is not None:
                    problems.append(Problem.of(PendingReview(path)))
        return problems

    def _moved(self, key: str, read: FileRead) -> Problem | None:
        """The problem when ``key`` no longer leads to the file it led to when it was read."""
        try:
            real = self.policy.resolve(key)[1]
        except EditError as e:
            return Problem(
                e.code,
                f"{e.message}; a directory on its path changed since it was read. Nothing "
                "was written",
                path=key,
            )
        if real == read.real:
            return None
        return Problem(
            CONFLICT,
            f"{key} now leads to {real.relative_to(self.root).as_posix()}: a directory on "
            "its path changed since it was read. Nothing was written; read the file again "
            "and redo the edit",
            path=key,
        )

    def commit_targets(
        self,
        targets: list[commit_mod.Target],
        kind: str,
        history: list[CommitFile],
        warnings: list[str],
    ) -> Problem | None:
        """Commit ``targets`` crash-safely and record them (``history``, one entry per target,
        in order, given the directories the commit made for each) for undo as a commit of
        ``kind``; the problem on failure (a failure to record the history after the commit
        is a warning, added to ``warnings``). The caller holds the root's lock."""
        try:
            made = commit_mod.commit(self.root, targets)
        except commit_mod.CommitError as e:
            return self._commit_problem(e)
        except OSError as e:  # the lock itself (.applydiff not writable)
            where = self._shown(e.filename)
            return Problem(
                PATH_DENIED if isinstance(e, fsio.UnsafeState) else IO_ERROR,
                f"writing failed ({where}: {e.strerror}); nothing was written",
                path=where,
            )
        if self.session is not None and history:
            if len(history) == len(made):  # the directories made for each file, for undo
                history = [
                    dataclasses.replace(h, dirs_made=n) for h, n in zip(history, made, strict=True)
                ]
            add = self.session.add_commit
            self.record_or_warn(warnings, "the change for undo", add, kind, history, self.origin)
        return None

    def _commit_problem(self, e: commit_mod.CommitError) -> Problem:
        """What a failed commit says: the path and the OS's reason, and the truth about the
        files (all as they were, with those put back named; or what each holds now)."""
        where = self._shown(e.filename)
        if e.committed:
            said = "; ".join(f"{self._shown(p)} {what}" for p, what in e.states)
            if e.back:
                state = f"{e.why}. Now: {said}" if said else e.why or ""
            elif said:
                state = (
                    f"{e.why or 'not every file could be put back'}; the change will be "
                    f"completed when the root is next opened. Now: {said}"
                )
            else:
                state = (
                    "the new contents are committed and will be completed when the root is "
                    "next opened"
                )
        else:
            state = "nothing was written"
            if e.restored:
                names = [str(self._shown(p)) for p in e.restored]
                verb = "was" if len(names) == 1 else "were"
                state += f" ({listed(names)} {verb} put back)"
        if e.denied:
            return Problem(
                PATH_DENIED,
                f"{where!r} is not allowed: {e.strerror}, changed since the path was "
                f"checked; it is not followed, and {state}",
                path=where,
            )
        said = f"{where}: {e.strerror}" if where else f"writing failed: {e.strerror}"
        return Problem(IO_ERROR, f"{said}; {state}", path=where)

    @staticmethod
    def record_or_warn(warnings: list[str], what: str, fn: Callable[..., Any], *args: Any) -> None:
        """Session bookkeeping after the files are written, ``fn(*args)``: a failure there is
        a warning (added to ``warnings``), as the files are written already."""
        try:
            fn(*args)
        except sqlite3.Error as e:
            warnings.append(
                f"the files were written, but the session store could not record {what} ({e})"
            )

    def _shown(self, filename: object) -> str | None:
        """An OS error's file name as the project path it is, when it is one."""
        if not isinstance(filename, str):
            return None
        try:
            return Path(filename).relative_to(self.root).as_posix()
        except ValueError:
            return filename


def history_entry(
    path: str, read: FileRead, target: commit_mod.Target, partner: str | None = None
) -> CommitFile:
    """The history (for undo) of writing ``target`` over the file ``read``: its bytes and
    permissions before and after, and the other path of a move (``partner``)."""
    before_mode = None if read.mode is None else stat.S_IMODE(read.mode)
    after_mode = (
        before_mode
        if target.mode is None
        else stat.S_IMODE(commit_mod.with_executable(target.mode, target.executable))
    )
    return CommitFile(path, read.data, target.data, before_mode, after_mode, partner)


def _read_error(key: str, e: OSError) -> EditError:
    """A read that failed: a link met on the path or a special file is ``path_denied``
    (neither is followed or opened), anything else ``io_error``."""
    if isinstance(e, fsio.LinkedPath):
        return denied(
            key,
            "a directory on its path, or the file itself, is now a link, changed since the "
            "path was checked; it is not followed",
        )
    if isinstance(e, fsio.NotRegular):
        return denied(key, f"{e.strerror}; applydiff reads and writes regular files only")
    return EditError(f"cannot read {key}: {e.strerror}", code=IO_ERROR, path=key)


def _not_read(key: str) -> EditError:
    return EditError(
        f"{key} has not been read in this session, so the edit may rest on a wrong "
        "idea of its content; read it with read_file first, then edit what it shows",
        code=NOT_READ,
        path=key,
    )
