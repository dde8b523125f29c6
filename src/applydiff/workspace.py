"""A project on disk: read files the way the engine needs them, apply responses atomically.

>>> ws = Workspace("path/to/project")                      # doctest: +SKIP
>>> result = ws.apply(model_response, dry_run=True)        # doctest: +SKIP
>>> result.ok, [f["path"] for f in result.files]           # doctest: +SKIP

With a session (``Workspace(root, session=True)``), edits are matched against what the model
was shown (its snapshot, or an output pending review) rather than whatever is on disk now; a
file changed on disk meanwhile is merged three ways, and an overlap is a ``conflict``. With
``model_view=False`` (the CLI: a person applies a pasted answer) edits go against the disk
and the session only keeps the review outputs and the undo history.
"""

from __future__ import annotations

import contextlib
import dataclasses
import difflib
import hashlib
import os
import sqlite3
import stat
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import commit as commit_mod
from . import fsio
from .engine import Changeset, EditReport, OpError, apply_ops
from .errors import (
    AMBIGUOUS,
    BINARY_FILE,
    CONFLICT,
    ENCODING,
    FORMAT_INVALID,
    IO_ERROR,
    NOT_READ,
    PATH_DENIED,
    TOO_LARGE,
    EditError,
)
from .formats import parse
from .ir import Op
from .merge3 import merge3
from .policy import Policy, denied
from .session import CommitFile, Session
from .text import (
    CR,
    LF,
    UTF8,
    Binary,
    Encoding,
    cr_ends_lines,
    decode,
    dominant_eol,
    encode,
    ends_line,
    file_id,
    split_lines,
)

DEFAULT_MAX_FILE_BYTES = 16 * 1024 * 1024


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
class _Read:
    """A file as read for one apply: the disk's bytes and text, and the base the engine edits
    (``kind``: the disk itself, the model's snapshot, or an output pending review) together
    with the text that base was made from (``merge_base``), for a three-way merge when the
    disk moved on."""

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


@dataclass
class Result:
    """The outcome of :meth:`Workspace.apply` (and of the review commands);
    ``to_dict()`` is the JSON the CLI prints."""

    ok: bool
    dry_run: bool
    files: list[dict[str, Any]] = field(default_factory=list)
    edits: list[dict[str, Any]] = field(default_factory=list)
    errors: list[dict[str, Any]] = field(default_factory=list)
    committed: bool = False
    review: bool = False
    # Things that went wrong after the files were written (the session store): not errors.
    warnings: list[str] = field(default_factory=list)
    # Before/after text per path, for previews and feedback (not part of the JSON).
    changes: list[tuple[str, str | None, str | None]] = field(default_factory=list, repr=False)
    _plan: list[tuple[str, commit_mod.Target, str | None]] | None = field(default=None, repr=False)
    _reads: dict[str, _Read] | None = field(default=None, repr=False)
    _patches: dict[str, tuple[str | None, int]] | None = field(default=None, repr=False)
    _partners: dict[str, str] = field(default_factory=dict, repr=False)  # the paths of moves
    # destination: source, of a move or a copy (whose permissions and encoding it takes)
    _moved_from: dict[str, str] = field(default_factory=dict, repr=False)
    ops: list[Op] | None = field(default=None, repr=False)  # the parsed edits, for feedback

    def to_dict(self) -> dict[str, Any]:
        out = {
            "ok": self.ok,
            "dry_run": self.dry_run,
            "files": self.files,
            "edits": self.edits,
            "errors": self.errors,
        }
        if self.review:
            out["review"] = True
        if self.warnings:
            out["warnings"] = self.warnings
        return out

    def diffs(self) -> Iterator[tuple[str, str]]:
        """``(path, unified diff)`` for every changed file."""
        for path, before, after in self.changes:
            yield path, unified_diff(path, before, after)


def unified_diff(path: str, before: str | None, after: str | None) -> str:
    a, b = _diff_lines(before or ""), _diff_lines(after or "")
    for lines in (a, b):
        if lines and not lines[-1].endswith("\n"):
            lines[-1] += "\n\\ No newline at end of file\n"
    old = f"a/{path}" if before is not None else "/dev/null"
    new = f"b/{path}" if after is not None else "/dev/null"
    return "".join(difflib.unified_diff(a, b, old, new))


def _diff_lines(text: str) -> list[str]:
    """The lines of ``text`` for a diff: as the edit paths split them, a lone CR that ends a
    line shown as a newline (difflib puts no terminator of its own after a line)."""
    cr = cr_ends_lines(text)
    lines = split_lines(text, cr)
    return [x[:-1] + LF if x.endswith(CR) else x for x in lines] if cr else lines


class _Files(Mapping[str, str]):
    """The engine's view of the tree: path key -> base text, read lazily, kept for commit."""

    def __init__(self, ws: Workspace, review: bool) -> None:
        self.ws = ws
        self.review = review
        self.reads: dict[str, _Read] = {}

    def __getitem__(self, key: str) -> str:
        got = self.get(key)
        if got is None:
            raise KeyError(key)
        return got

    def get(self, key: str, default: Any = None) -> Any:
        if key not in self.reads:
            self.reads[key] = self.ws._base(key, self.review)
        base = self.reads[key].base
        return default if base is None else base

    def __iter__(self) -> Iterator[str]:
        return iter(self.reads)

    def __len__(self) -> int:
        return len(self.reads)


class Workspace:
    """A root directory that edits are applied to: safely, atomically, byte for byte.

    Opening one first recovers a commit that a crash interrupted. ``session=True`` opens the
    root's session store (snapshots, review, undo); ``require_read`` refuses edits to existing
    files the model was never shown (``not_read``). ``model_view`` (the default) matches edits
    against what the model was shown and keeps its counters; without it, edits go against the
    disk (or an output pending review, in review mode) and the session records only review
    outputs and history.
    """

    def __init__(
        self,
        root: str | os.PathLike[str],
        *,
        ignore_file: str | None = ".applydiffignore",
        max_file_bytes: int = DEFAULT_MAX_FILE_BYTES,
        threshold: float | None = None,
        session: Session | bool = False,
        require_read: bool = False,
        model_view: bool = True,
    ) -> None:
        path = Path(root)
        if not path.is_dir():
            raise EditError(f"the root {str(root)!r} is not a directory", code=IO_ERROR)
        self.policy = Policy(path, ignore_file)
        self.root = self.policy.root
        self.max_file_bytes = max_file_bytes
        self.threshold = threshold
        commit_mod.recover(self.root)
        self.session: Session | None = Session(self.root) if session is True else session or None
        self.require_read = require_read
        self.model_view = model_view
        # Set by a front door that opened the root without its session (the CLI, when the
        # store is locked or broken): said with each result, as that change is not undoable.
        self.store_warning: str | None = None

    @property
    def _origin(self) -> str | None:
        """Who the history says made a commit: the model's conversation, or a person."""
        return self.session.conversation if self.session and self.model_view else None

    @property
    def _model(self) -> Session | None:
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
        got = self._disk(key)
        if got.text is None:
            raise EditError(f"{key} does not exist", code=IO_ERROR, path=key)
        assert got.mode is not None
        if remember and self._model is not None:
            self._model.remember(key, got.text)
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

    def _disk(self, key: str) -> _Read:
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
            raise _os_error(key, e) from None
        if found is None:
            return _Read(real, None, None, UTF8, None)
        try:
            text, enc = decode(found.data)
        except Binary as e:
            raise EditError(
                f"{key} is a binary file ({e}); applydiff edits text files only",
                code=BINARY_FILE,
                path=key,
            ) from None
        return _Read(real, found.data, text, enc, found.st.st_mode, "disk", text, text)

    def _base(self, key: str, review: bool | None = None) -> _Read:
        """The disk's file and the base the engine edits: an output pending review, else the
        snapshot the model was shown, else the disk. Outside review mode (``review=False``)
        a pending output is a ``conflict``: writing the file would leave it stale."""
        got = self._disk(key)
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
                raise self._not_read(key)
            return got
        if not self.model_view:
            return got
        snap = s.snapshot(key)
        if snap is not None:
            got.kind, got.base, got.merge_base = "snapshot", snap, snap
        elif self.require_read and got.text is not None:
            raise self._not_read(key)
        return got

    @staticmethod
    def _not_read(key: str) -> EditError:
        return EditError(
            f"{key} has not been read in this session, so the edit may rest on a wrong "
            "idea of its content; read it with read_file first, then edit what it shows",
            code=NOT_READ,
            path=key,
        )

    # -- applying --------------------------------------------------------------------------
    def apply(
        self,
        response: str | Sequence[Op],
        *,
        dry_run: bool = False,
        review: bool = False,
        format: str = "auto",
        threshold: float | None = None,
    ) -> Result:
        """Apply a model's response (text in any format, or ops) to the tree, all or nothing.

        With ``dry_run`` nothing is written; the result says what would happen, and
        :meth:`commit` can write it later (refusing if a file changed in between). With
        ``review`` (needs a session) the outputs are kept pending for :meth:`accept`,
        :meth:`discard` or :meth:`merge` instead of written.
        """
        if review and self.session is None:
            raise ValueError("review needs a session: Workspace(root, session=True)")
        if isinstance(response, str):
            try:
                ops = parse(response, format)
            except EditError as e:
                return self._counted(Result(False, dry_run, errors=[_error_dict(None, e)]))
            if not ops:
                empty = EditError(
                    "the response holds no edit in any format applydiff reads",
                    code=FORMAT_INVALID,
                )
                return self._counted(Result(False, dry_run, errors=[_error_dict(None, empty)]))
        else:
            ops = list(response)
        files = _Files(self, review)
        threshold = threshold if threshold is not None else self.threshold
        cs = apply_ops(ops, files, key=self.key, threshold=threshold)
        result = self._result(cs, files, dry_run)
        result.ops = ops
        self._counted(result)
        if result.ok and review and result._plan is not None:
            # A pending output is text: a mode it cannot keep would be lost on accept.
            for path, target, _ in result._plan:
                if target.executable is not None:
                    result.ok = False
                    result.errors.append(
                        _plain_error(
                            FORMAT_INVALID,
                            None,
                            path,
                            f"the edit changes the mode of {path}, which review cannot keep; "
                            "apply it without review, or leave the mode change out",
                        )
                    )
        if result.ok and review and not dry_run:
            self._keep_pending(result)
        elif result.ok and not dry_run:
            self.commit(result)
        return result

    def _result(self, cs: Changeset, files: _Files, dry_run: bool) -> Result:
        edits = [_edit_dict(r) for r in cs.reports]
        if not cs.ok:
            return Result(False, dry_run, edits=edits, errors=[_op_error(e) for e in cs.errors])
        plan: list[tuple[str, commit_mod.Target, str | None]] = []
        errors = []
        last_op = {r.path: r.index for r in cs.reports}
        moved_from = {dst: src for src, dst in cs.moves.items()}
        like_from = {**cs.copies, **moved_from}
        for change in cs.changes:
            read = files.reads[change.path]
            final, problem = self._reconcile(read, change.after)
            if problem is not None:
                errors.append(
                    _plain_error(CONFLICT, last_op.get(change.path), change.path, problem)
                )
                if read.kind == "snapshot":
                    self._refresh(change.path, read.text)
                continue
            if final is None:
                plan.append((change.path, commit_mod.Target(read.real, None, None), None))
                continue
            # A moved or copied file keeps its source's encoding and permissions.
            like = files.reads[like_from[change.path]] if change.path in like_from else read
            enc = like.encoding if like.text is not None else UTF8
            try:
                data = encode(final, enc)
            except UnicodeEncodeError as e:
                bad = final[e.start : e.end]
                errors.append(
                    _plain_error(
                        ENCODING,
                        last_op.get(change.path),
                        change.path,
                        f"{change.path} is stored as {enc.label()}, which cannot hold {bad!r}; "
                        "write the text with characters the file's encoding has, or convert "
                        "the file to UTF-8 first",
                    )
                )
                continue
            target = commit_mod.Target(read.real, data, like.mode, cs.modes.get(change.path))
            plan.append((change.path, target, final))
        if errors:
            return Result(False, dry_run, edits=edits, errors=errors)
        patches: dict[str, int] = {}
        for r in cs.reports:
            patches[r.path] = patches.get(r.path, 0) + 1
        return Result(
            True,
            dry_run,
            files=cs.summary(),
            edits=edits,
            changes=[(path, files.reads[path].text, final) for path, _, final in plan],
            _plan=plan,
            _reads=files.reads,
            _patches={c.path: (c.before, patches.get(c.path, 1)) for c in cs.changes},
            _partners={**moved_from, **{src: dst for dst, src in moved_from.items()}},
            _moved_from=like_from,
        )

    @staticmethod
    def _reconcile(read: _Read, after: str | None) -> tuple[str | None, str | None]:
        """The text to write for an edit made against ``read.base``: the edit itself when the
        disk still holds what the base was made from, else a three-way merge of the disk's
        changes and the model's. Returns (text, None) or (None, why it conflicts)."""
        if read.kind == "disk" or read.text == read.merge_base:
            return after, None
        what = "an output pending review" if read.kind == "pending" else "what it was shown"
        if after is None or read.text is None or read.merge_base is None:
            return None, (
                f"the file changed on disk since the model's edit was made against {what}, "
                "and the edit creates or deletes it; read the file again and redo the edit"
            )
        merged = merge3(read.merge_base, read.text, after)
        if merged.clean:
            return merged.text, None
        return None, (
            f"the file changed on disk since the model's edit was made against {what}, and "
            "the two changes touch the same lines; nothing was written. Redo the edit on the "
            "file's current content"
        )

    def _refresh(self, key: str, text: str | None) -> None:
        """The model is about to be shown ``key`` as it is now (a conflict's feedback): its
        next edits are matched against that."""
        s = self._model
        if s is None:
            return
        # On failure the old snapshot stays: the next edit conflicts again, nothing is lost.
        with contextlib.suppress(sqlite3.Error):
            if text is None:
                s.forget(key)
            else:
                s.remember(key, text)

    def _counted(self, result: Result) -> Result:
        """Session counters: one more exchange; its errors, ambiguous matches, failures
        (bookkeeping: a store that fails here is a warning)."""
        if self._model is not None:
            self._best_effort(result.warnings, "the exchange counts", self._count, result)
        return result

    def _count(self, result: Result) -> None:
        s = self._model
        assert s is not None
        s.bump("exchanges")
        if result.errors:
            s.bump("errors", len(result.errors))
            s.bump("ambiguous", sum(1 for e in result.errors if e["code"] == AMBIGUOUS))
            for path in {e["path"] for e in result.errors if e.get("path")}:
                s.note_failure(path)

    def _note_patches(self, result: Result) -> None:
        if self._model is not None and result._patches:
            for path, (before, n) in result._patches.items():
                self._model.note_edit(path, before, n)
            result._patches = None

    def commit(self, result: Result) -> Result:
        """Write a successful result (from ``apply(..., dry_run=True)`` too): first check that
        no file changed on disk since it was read, and that no output for it went pending
        review meanwhile (``conflict``), then commit atomically. The checks and the write
        hold the root's lock, so no other applydiff writes in between."""
        if not result.ok or result._plan is None or result._reads is None:
            raise ValueError("only a successful, uncommitted result can be committed")
        with self._locked(result) as locked:
            if not locked:
                return result
            self._recheck(result)
            if not result.ok:
                return result
            result._plan = [
                (path, self._with_mode(result, path, target), final)
                for path, target, final in result._plan
            ]
            history = [
                _history(path, result._reads[path], target, result._partners.get(path))
                for path, target, _ in result._plan
            ]
            error = self._write([t for _, t, _ in result._plan], "apply", history, result.warnings)
        if error is not None:
            result.ok = False
            result.errors.append(error)
            return result
        self._best_effort(result.warnings, "the edit counts", self._note_patches, result)
        if self._model is not None:
            self._best_effort(result.warnings, "what the model saw", self._after_commit, result)
        result.committed = True
        result.dry_run = False
        result._plan = None
        return result

    @staticmethod
    def _with_mode(result: Result, path: str, target: commit_mod.Target) -> commit_mod.Target:
        """``target`` with the permissions its file (a move's source, for a move) has now."""
        assert result._reads is not None
        if target.mode is None:
            return target
        like = result._reads[result._moved_from.get(path, path)]
        return dataclasses.replace(target, mode=like.mode)

    @contextlib.contextmanager
    def _locked(self, result: Result) -> Iterator[bool]:
        """The root's lock; when it cannot be taken, ``result`` gets the error and the body
        sees False."""
        try:
            lock = commit_mod.root_lock(self.root)
            lock.__enter__()
        except OSError as e:
            result.ok = False
            result.errors.append(
                _plain_error(
                    PATH_DENIED if isinstance(e, fsio.UnsafeState) else IO_ERROR,
                    None,
                    self._shown(e.filename),
                    f"cannot lock the root ({self._shown(e.filename)}: {e.strerror}); "
                    "nothing was written",
                )
            )
            yield False
            return
        try:
            yield True
        finally:
            lock.__exit__(None, None, None)

    def _recheck(self, result: Result) -> None:
        """Under the lock: every path still leads where it led when it was read (no directory
        on it swapped for a link), every file still holds what was read, and nothing went
        pending review for a file the result writes to disk. A file whose permissions alone
        changed is written with its permissions of now."""
        assert result._reads is not None and result._plan is not None
        for key, read in result._reads.items():
            moved = self._moved(key, read)
            if moved is not None:
                result.ok = False
                result.errors.append(moved)
                continue
            try:
                found = fsio.read_regular(self.root, read.real, self.max_file_bytes)
            except OSError as e:
                result.ok = False
                result.errors.append(_error_dict(None, _os_error(key, e)))
                continue
            if (None if found is None else hashlib.sha256(found.data).hexdigest()) != read.digest:
                result.ok = False
                result.errors.append(
                    _plain_error(
                        CONFLICT,
                        None,
                        key,
                        f"{key} changed on disk after it was read; nothing was written. "
                        "Read the file again and redo the edit against what it holds now",
                    )
                )
                if read.kind == "snapshot":
                    with contextlib.suppress(EditError):
                        self._refresh(key, self._disk(key).text)
            elif found is not None:
                read.mode = found.st.st_mode  # a chmod since the read is kept, not undone
        if self.session is not None:
            for path, _, _ in result._plan:
                if self.session.pending(path) is not None:
                    result.ok = False
                    result.errors.append(_error_dict(None, PendingReview(path)))

    def _moved(self, key: str, read: _Read) -> dict[str, Any] | None:
        """The error when ``key`` no longer leads to the file it led to when it was read."""
        try:
            real = self.policy.resolve(key)[1]
        except EditError as e:
            return _plain_error(
                e.code,
                None,
                key,
                f"{e.message}; a directory on its path changed since it was read. Nothing "
                "was written",
            )
        if real == read.real:
            return None
        return _plain_error(
            CONFLICT,
            None,
            key,
            f"{key} now leads to {real.relative_to(self.root).as_posix()}: a directory on "
            "its path changed since it was read. Nothing was written; read the file again "
            "and redo the edit",
        )

    def _after_commit(self, result: Result) -> None:
        assert self._model is not None and result._plan is not None
        for path, _, final in result._plan:
            if final is None:
                self._model.forget(path)
            else:
                self._model.remember(path, final)  # the model knows what it wrote

    @staticmethod
    def _best_effort(warnings: list[str], what: str, fn: Callable[..., Any], *args: Any) -> None:
        """Session bookkeeping after the files are written: a failure there is a warning."""
        try:
            fn(*args)
        except sqlite3.Error as e:
            warnings.append(
                f"the files were written, but the session store could not record {what} ({e})"
            )

    def _keep_pending(self, result: Result) -> None:
        """Keep the outputs pending review, all in one transaction, under the root's lock;
        refused (``conflict``) if a pending output it builds on changed meanwhile."""
        s = self.session
        assert s is not None and result._plan is not None and result._reads
        with self._locked(result) as locked:
            if not locked:
                return
            try:
                with s.transaction():
                    for path, _, final in result._plan:
                        read = result._reads[path]
                        now = s.pending(path)
                        stale = (
                            now is None or now.output != read.base
                            if read.kind == "pending"
                            else now is not None
                        )
                        if stale:
                            raise _Stale(path)
                        # The output holds the disk's text as read (merged in if the disk
                        # moved on since the model's base), so that text is its base.
                        s.set_pending(path, read.text, final)
                    self._note_patches(result)
            except _Stale as e:
                result.ok = False
                result.errors.append(
                    _plain_error(
                        CONFLICT,
                        None,
                        e.path,
                        f"the output pending review for {e.path} changed while this edit was "
                        "made against it; nothing was kept. Read the file again and redo the "
                        "edit",
                    )
                )
                return
            except sqlite3.Error as e:
                result.ok = False
                result.errors.append(
                    _plain_error(
                        IO_ERROR, None, None, f"the session store failed ({e}); nothing was kept"
                    )
                )
                return
        result.review = True
        result._plan = None

    def _write(
        self,
        targets: list[commit_mod.Target],
        kind: str,
        history: list[CommitFile],
        warnings: list[str],
    ) -> dict[str, Any] | None:
        """Commit ``targets`` crash-safely and record them for undo; an error dict on failure
        (a failure to record the history after the commit is a warning)."""
        try:
            commit_mod.commit(self.root, targets)
        except commit_mod.CommitError as e:
            state = (
                "the new contents are committed and will be completed when the root is next opened"
                if e.committed
                else "every file is as it was"
            )
            where = self._shown(e.filename)
            if e.denied:
                return _plain_error(
                    PATH_DENIED,
                    None,
                    where,
                    f"{where!r} is not allowed: {e.strerror}, changed since the path was "
                    f"checked; it is not followed, and {state}",
                )
            return _plain_error(IO_ERROR, None, where, f"writing failed ({e.strerror}); {state}")
        except OSError as e:  # the lock itself (.applydiff not writable)
            where = self._shown(e.filename)
            return _plain_error(
                PATH_DENIED if isinstance(e, fsio.UnsafeState) else IO_ERROR,
                None,
                where,
                f"writing failed ({where}: {e.strerror}); nothing was written",
            )
        if self.session is not None and history:
            add = self.session.add_commit
            self._best_effort(warnings, "the change for undo", add, kind, history, self._origin)
        return None

    def _shown(self, filename: object) -> str | None:
        """An OS error's file name as the project path it is, when it is one."""
        if not isinstance(filename, str):
            return None
        try:
            return Path(filename).relative_to(self.root).as_posix()
        except ValueError:
            return filename

    # -- review ----------------------------------------------------------------------------
    def status(self) -> list[dict[str, Any]]:
        """Every file the session knows, with its review status (see ``review.status``)."""
        from . import review

        return review.status(self)

    def accept(self, paths: Sequence[str] | None = None) -> Result:
        from . import review

        return self._review_op(review.accept, paths)

    def discard(self, paths: Sequence[str] | None = None) -> Result:
        from . import review

        return self._review_op(review.discard, paths)

    def merge(self, paths: Sequence[str] | None = None) -> Result:
        from . import review

        return self._review_op(review.merge_pending, paths)

    def undo(self, path: str | None = None, *, own: bool = False) -> Result:
        """Restore the files of the last commit; with ``path``, only that file (and the other
        path of a move), as it was before the last commit that changed it. With ``own``, only
        a commit this conversation made is undone."""
        from . import review

        return self._review_op(review.undo, path, own=own)

    def _review_op(self, op: Callable[..., Result], *args: Any, **kwargs: Any) -> Result:
        failed = Result(False, False)
        with self._locked(failed) as locked:
            if not locked:
                return failed
            try:
                return op(self, *args, **kwargs)
            except sqlite3.Error as e:
                failed.errors.append(
                    _plain_error(IO_ERROR, None, None, f"the session store failed ({e})")
                )
                return failed


def _os_error(key: str, e: OSError) -> EditError:
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


def _history(
    path: str, read: _Read, target: commit_mod.Target, partner: str | None = None
) -> CommitFile:
    before_mode = None if read.mode is None else stat.S_IMODE(read.mode)
    after_mode = (
        before_mode
        if target.mode is None
        else stat.S_IMODE(commit_mod.with_executable(target.mode, target.executable))
    )
    return CommitFile(path, read.data, target.data, before_mode, after_mode, partner)


class _Stale(Exception):
    def __init__(self, path: str) -> None:
        self.path = path


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


def _edit_dict(r: EditReport) -> dict[str, Any]:
    return {
        "index": r.index,
        "path": r.path,
        "tier": r.tier,
        "confidence": r.confidence,
        "start_line": r.start_line,
        "end_line": r.end_line,
    }


def _plain_error(code: str, index: int | None, path: str | None, message: str) -> dict[str, Any]:
    return {"code": code, "index": index, "path": path, "message": message}


def _op_error(e: OpError) -> dict[str, Any]:
    out = e.error.to_dict()
    out.update(index=e.index, path=e.path)
    return {"code": out.pop("code"), "index": out.pop("index"), "path": out.pop("path"), **out}


def _error_dict(index: int | None, e: EditError) -> dict[str, Any]:
    out = e.to_dict()
    return {"code": out.pop("code"), "index": index, "path": out.pop("path", None), **out}
