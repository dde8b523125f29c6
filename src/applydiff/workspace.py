"""A project on disk: apply responses atomically, commit a dry run's plan, review outputs.

>>> ws = Workspace("path/to/project")                      # doctest: +SKIP
>>> result = ws.apply(model_response, dry_run=True)        # doctest: +SKIP
>>> result.ok, [f.path for f in result.files]              # doctest: +SKIP
>>> ws.commit(result)                                      # doctest: +SKIP

:class:`Workspace` is a :class:`~applydiff.store.Store` (the root, its policy and session,
reads and commits) with the verbs on top: :meth:`~Workspace.apply` runs the engine on the
files as the store reads them and turns its changes into a :class:`~applydiff.results.Plan`;
:meth:`~Workspace.commit` writes a plan; the review verbs (status, accept, discard, merge,
undo) are :mod:`applydiff.review`'s commands, run under the root's lock.

With a session (``Workspace(root, session=True)``), edits are matched against what the model
was shown (its snapshot, or an output pending review) rather than whatever is on disk now; a
file changed on disk meanwhile is merged three ways, and an overlap is a ``conflict``. With
``model_view=False`` (the CLI: a person applies a pasted answer) edits go against the disk
and the session only keeps the review outputs and the undo history.
"""

from __future__ import annotations

import dataclasses
import os
import sqlite3
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from rapidfuzz import fuzz, process

from . import commit as commit_mod
from . import review
from .engine import Changeset, MergeModel, apply_ops
from .errors import (
    AMBIGUOUS,
    CONFLICT,
    ENCODING,
    FORMAT_INVALID,
    IO_ERROR,
    EditError,
    MissingFile,
)
from .formats import no_edit, parse
from .gitindex import git_toplevel
from .ir import Anchored, Move, Op, Replace, as_asked, normalize_path
from .merge3 import merge3
from .problems import Problem, listed
from .results import FileOutcome, Plan, PlannedWrite, Result
from .session import Session
from .store import (
    DEFAULT_MAX_FILE_BYTES,
    FileRead,
    FileText,
    PendingReview,
    Store,
    history_entry,
)
from .text import UTF8, encode, to_lf

# Names that were defined here before the store and results had their own modules.
__all__ = [
    "DEFAULT_MAX_FILE_BYTES",
    "FileText",
    "PendingReview",
    "Result",
    "Workspace",
    "git_toplevel",
]


class _Files(Mapping[str, str]):
    """The engine's view of the tree: path key -> base text, read lazily, kept for commit."""

    def __init__(self, store: Store, review: bool) -> None:
        self.store = store
        self.review = review
        self.reads: dict[str, FileRead] = {}

    def __getitem__(self, key: str) -> str:
        got = self.get(key)
        if got is None:
            raise KeyError(key)
        return got

    def get(self, key: str, default: Any = None) -> Any:
        if key not in self.reads:
            self.reads[key] = self.store.read_base(key, self.review)
        base = self.reads[key].base
        return default if base is None else base

    def __iter__(self) -> Iterator[str]:
        return iter(self.reads)

    def __len__(self) -> int:
        return len(self.reads)


class Workspace(Store):
    """A root directory that edits are applied to: safely, atomically, byte for byte.

    Takes the :class:`~applydiff.store.Store`'s arguments (``session``, ``store_optional``,
    ``require_read``, ``model_view``, ...), the fuzzy ``threshold`` of its applies, and a
    ``merge_model`` (:class:`~applydiff.merge_model.MergeClient`) for the lazy snippets the
    deterministic merge refuses.
    """

    def __init__(
        self,
        root: str | os.PathLike[str],
        *,
        ignore_file: str | None = ".applydiffignore",
        max_file_bytes: int = DEFAULT_MAX_FILE_BYTES,
        threshold: float | None = None,
        session: Session | bool = False,
        store_optional: bool = False,
        require_read: bool = False,
        model_view: bool = True,
        lock_timeout: float | None = None,
        merge_model: MergeModel | None = None,
    ) -> None:
        super().__init__(
            root,
            ignore_file=ignore_file,
            max_file_bytes=max_file_bytes,
            session=session,
            store_optional=store_optional,
            require_read=require_read,
            model_view=model_view,
            lock_timeout=lock_timeout,
        )
        self.threshold = threshold
        # Merges the lazy snippets the deterministic merge refuses (``engine.MergeModel``):
        # applied only when the verifier passes them. None: never a network call.
        self.merge_model = merge_model

    # -- applying --------------------------------------------------------------------------
    def apply(
        self,
        text: str | Sequence[Op],
        *,
        dry_run: bool = False,
        review: bool = False,
        format: str = "auto",
        threshold: float | None = None,
        keep_narration: bool = False,
        strip: int | None = None,
        reverse: bool = False,
        directory: str | None = None,
        replace_all: bool = False,
        hint_line: int | None = None,
        within: str | None = None,
    ) -> Result:
        """Apply a model's response (text in any format, or ops) to the tree, all or nothing.

        With ``dry_run`` nothing is written; the result says what would happen, and
        :meth:`commit` can write its plan later (refusing if a file changed in between).
        With ``review`` (needs a session) the outputs are kept pending for :meth:`accept`,
        :meth:`discard` or :meth:`merge` instead of written. ``keep_narration`` keeps the
        comments of lazy snippets that narrate the edit, which are otherwise left out.

        As ``git apply`` takes them: ``strip`` leading components come off every path a
        unified or git diff names (``-p N``; None: git's a/ and b/; text only);
        ``reverse`` applies the answer reversed (``-R``: an edit that cannot be reversed is
        ``format_invalid``, nothing applied); ``directory`` goes before every path
        (``--directory``), each then checked by the policy like any path.

        What a person adds to a model's answer: ``replace_all`` makes every search edit
        change each exact occurrence; ``hint_line`` is the line hint of every search edit
        that has none (it picks one of several places, the nearest).

        ``within`` (a directory relative to the root) is ``git apply`` run from a
        subdirectory: the edits of a file outside it are skipped, each file named in a
        warning ("Skipped patch 'x'.").
        """
        if review and self.session is None:
            raise ValueError("review needs a session: Workspace(root, session=True)")
        if strip is not None and not isinstance(text, str):
            raise ValueError("strip applies to the paths of a diff's text, not to ops")
        if self.recovery_problem is not None:  # the tree is mid-change: nothing is read
            return Result(False, dry_run, errors=[self.recovery_problem])
        options = _Options(strip, reverse, directory, replace_all, hint_line, within)
        result = self._planned(text, dry_run, review, format, threshold, keep_narration, options)
        if self.store_warning:
            result.warnings.append(self.store_warning)
        self._say_state(result)
        if result.ok and review and not dry_run:
            self._keep_pending(result)
        elif result.ok and not dry_run:
            self.commit(result)
        return result

    def _planned(
        self,
        response: str | Sequence[Op],
        dry_run: bool,
        review: bool,
        format: str,
        threshold: float | None,
        keep_narration: bool = False,
        options: _Options | None = None,
    ) -> Result:
        """The result of running the engine on ``response``: its plan when it succeeds."""
        opts = options or _Options()
        if isinstance(response, str):
            try:
                ops = parse(
                    response,
                    format,
                    strip=opts.strip,
                    reverse=opts.reverse,
                    directory=opts.directory,
                )
            except EditError as e:
                return self._counted(Result(False, dry_run, errors=[Problem.of(e)]))
            if not ops:
                empty = no_edit("response")
                return self._counted(Result(False, dry_run, errors=[Problem.of(empty)]))
        else:
            ops, refused = as_asked(response, reverse=opts.reverse, directory=opts.directory)
            if refused:
                errors = [Problem.of(e, k) for k, e in sorted(refused.items())]
                return self._counted(Result(False, dry_run, errors=errors))
        ops, skipped = opts.skipped(opts.told(list(ops)))
        files = _Files(self, review)
        threshold = threshold if threshold is not None else self.threshold
        cs = apply_ops(
            ops,
            files,
            key=self.key,
            threshold=threshold,
            keep_narration=keep_narration,
            merge_model=self.merge_model,
        )
        result = self._result(cs, files, dry_run, ops)
        result.warnings += [
            f"Skipped patch {path!r}: outside {opts.within}/, where the command runs (as git "
            "apply skips it)"
            for path in skipped
        ]
        result.ops = ops
        self._counted(result)
        if result.ok and review and result.plan is not None:
            # A pending output is text: a mode it cannot keep would be lost on accept.
            for write in result.plan.writes:
                if write.target.executable is not None:
                    result.fail(
                        Problem(
                            FORMAT_INVALID,
                            f"the edit changes the mode of {write.path}, which review cannot "
                            "keep; apply it without review, or leave the mode change out",
                            path=write.path,
                        )
                    )
        return result

    def _result(
        self, cs: Changeset, files: _Files, dry_run: bool, ops: Sequence[Op] = ()
    ) -> Result:
        edits = list(cs.reports)
        if not cs.ok:
            tree: list[str] | None = None
            errors = []
            for failed in cs.errors:
                if isinstance(failed.error, MissingFile):
                    tree = self.tree_files() if tree is None else tree
                    op = ops[failed.index] if failed.index < len(ops) else None
                    self._suggest(failed.error, failed.path, op, tree)
                errors.append(Problem.of_op(failed))
            return Result(False, dry_run, edits=edits, errors=errors)
        writes: list[PlannedWrite] = []
        errors = []
        last_op = {r.path: r.index for r in cs.reports}

        def line_of(path: str) -> int | None:  # where the last op on path starts in the answer
            index = last_op.get(path)
            return ops[index].origin if index is not None and index < len(ops) else None

        moved_from = {dst: src for src, dst in cs.moves.items()}
        like_from = {**cs.copies, **moved_from}
        for change in cs.changes:
            read = files.reads[change.path]
            final, conflict = self._reconcile(read, change.after)
            if conflict is not None:
                errors.append(
                    Problem(
                        CONFLICT,
                        conflict,
                        last_op.get(change.path),
                        change.path,
                        answer_line=line_of(change.path),
                    )
                )
                if read.kind == "snapshot":
                    self.show_model(change.path, read.text)
                continue
            if final is None:
                target = commit_mod.Target(read.real, None, None)
                writes.append(PlannedWrite(change.path, target, None))
                continue
            # A moved or copied file keeps its source's encoding and permissions.
            like = files.reads[like_from[change.path]] if change.path in like_from else read
            enc = like.encoding if like.text is not None else UTF8
            try:
                data = encode(final, enc)
            except UnicodeEncodeError as e:
                bad = final[e.start : e.end]
                errors.append(
                    Problem(
                        ENCODING,
                        f"{change.path} is stored as {enc.label()}, which cannot hold {bad!r}; "
                        "write the text with characters the file's encoding has, or convert "
                        "the file to UTF-8 first",
                        last_op.get(change.path),
                        change.path,
                        answer_line=line_of(change.path),
                    )
                )
                continue
            target = commit_mod.Target(read.real, data, like.mode, cs.modes.get(change.path))
            writes.append(PlannedWrite(change.path, target, final))
        if errors:
            return Result(False, dry_run, edits=edits, errors=errors)
        patches: dict[str, int] = {}
        for r in cs.reports:
            patches[r.path] = patches.get(r.path, 0) + 1
        plan = Plan(
            writes,
            files.reads,
            edit_counts={c.path: (c.before, patches.get(c.path, 1)) for c in cs.changes},
            partners={**moved_from, **{src: dst for dst, src in moved_from.items()}},
            permissions_from=like_from,
        )
        return Result(
            True,
            dry_run,
            files=[FileOutcome(f["path"], f["action"], f.get("to")) for f in cs.summary()],
            edits=edits,
            changes=[(w.path, files.reads[w.path].text, w.text) for w in writes],
            plan=plan,
        )

    def _suggest(self, error: MissingFile, path: str, op: Op | None, tree: list[str]) -> None:
        """Did you mean: the file of ``tree`` whose name is closest to ``path``, and the few
        files that hold the op's search text exactly (looked for within a byte budget),
        added to ``error``'s message and facts."""
        others = [f for f in tree if f != path]
        best = process.extractOne(path, others, scorer=_name_score, score_cutoff=SUGGEST_SCORE)
        search = _search_text(op)
        holders = self._holding(search, others) if search else []
        error.did_you_mean = best[0] if best else None
        error.search_text_in = holders
        said = f" Did you mean {best[0]}?" if best else ""
        if holders:
            said += f" The search text is in {listed(holders)}."
        if said:
            error.message = error.message.rstrip(".") + "." + said

    def _holding(self, search: str, keys: list[str]) -> list[str]:
        """The files among ``keys`` that hold ``search`` (line endings aside): only when
        they are a few (:data:`SUGGEST_HOLDERS` at most), reading at most
        :data:`SUGGEST_BYTES` in all and no file over :data:`SUGGEST_FILE_BYTES`."""
        budget = SUGGEST_BYTES
        found: list[str] = []
        for key in keys:
            try:
                size = os.lstat(self.root / key).st_size
            except OSError:
                continue
            if size > SUGGEST_FILE_BYTES or size < len(search):  # a char is a byte or more
                continue
            budget -= size
            if budget < 0:
                return []  # not looked at everywhere: no claim about where it is
            try:
                read = self.read_disk(key)
            except EditError:
                continue
            if read.text is not None and search in to_lf(read.text):
                found.append(key)
                if len(found) > SUGGEST_HOLDERS:
                    return []
        return found

    @staticmethod
    def _reconcile(read: FileRead, after: str | None) -> tuple[str | None, str | None]:
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

    def _counted(self, result: Result) -> Result:
        """Session counters: one more exchange; its errors, ambiguous matches, failures
        (bookkeeping: a store that fails here is a warning)."""
        if self.model_session is not None:
            self.record_or_warn(result.warnings, "the exchange counts", self._count, result)
        return result

    def _count(self, result: Result) -> None:
        s = self.model_session
        assert s is not None
        s.bump("exchanges")
        if result.errors:
            s.bump("errors", len(result.errors))
            s.bump("ambiguous", sum(1 for e in result.errors if e.code == AMBIGUOUS))
            for path in {e.path for e in result.errors if e.path}:
                s.note_failure(path)

    def _note_edit_counts(self, plan: Plan) -> None:
        if self.model_session is not None:
            for path, (before, n) in plan.edit_counts.items():
                self.model_session.note_edit(path, before, n)

    # -- committing ------------------------------------------------------------------------
    def commit(self, result: Result) -> Result:
        """Write a successful result's plan (from ``apply(..., dry_run=True)`` too): first
        check that no file changed on disk since it was read, and that no output for it went
        pending review meanwhile (``conflict``), then commit atomically. The checks and the
        write hold the root's lock, so no other applydiff writes in between."""
        plan = result.plan
        if not result.ok or plan is None:
            raise ValueError("only a successful, uncommitted result can be committed")
        result.dry_run = False  # a commit is attempted: whatever it says, it was no dry run
        if self.recovery_problem is not None:
            result.fail(self.recovery_problem)
            return result
        with self.locked() as refused:
            if refused is not None:
                result.fail(refused)
                return result
            for problem in self.recheck(plan.reads, (w.path for w in plan.writes)):
                result.fail(problem)
            if not result.ok:
                return result
            plan.writes = [
                dataclasses.replace(w, target=self._with_mode(plan, w)) for w in plan.writes
            ]
            history = [
                history_entry(w.path, plan.reads[w.path], w.target, plan.partners.get(w.path))
                for w in plan.writes
            ]
            targets = [w.target for w in plan.writes]
            error = self.commit_targets(targets, "apply", history, result.warnings)
        if error is not None:
            result.fail(error)
            result.files = []  # none was modified, added or deleted: the error says what is
            return result
        self.record_or_warn(result.warnings, "the edit counts", self._note_edit_counts, plan)
        if self.model_session is not None:
            self.record_or_warn(result.warnings, "what the model saw", self._after_commit, plan)
        result.committed = True
        result.plan = None
        return result

    @staticmethod
    def _with_mode(plan: Plan, write: PlannedWrite) -> commit_mod.Target:
        """The write's target with the permissions its file (a move's source, for a move) has
        now."""
        if write.target.mode is None:
            return write.target
        like = plan.reads[plan.permissions_from.get(write.path, write.path)]
        return dataclasses.replace(write.target, mode=like.mode)

    def _after_commit(self, plan: Plan) -> None:
        s = self.model_session
        assert s is not None
        for w in plan.writes:
            if w.text is None:
                s.forget(w.path)
            else:
                s.remember(w.path, w.text)  # the model knows what it wrote

    def _keep_pending(self, result: Result) -> None:
        """Keep the outputs pending review, all in one transaction, under the root's lock;
        refused (``conflict``) if a pending output it builds on changed meanwhile."""
        s = self.session
        plan = result.plan
        assert s is not None and plan is not None
        # A store in memory is this process's alone: no state directory for its lock.
        with self.locked(create=not s.in_memory) as refused:
            if refused is not None:
                result.fail(refused)
                return
            try:
                with s.transaction():
                    for w in plan.writes:
                        read = plan.reads[w.path]
                        now = s.pending(w.path)
                        stale = (
                            now is None or now.output != read.base
                            if read.kind == "pending"
                            else now is not None
                        )
                        if stale:
                            raise _Stale(w.path)
                        # The output holds the disk's text as read (merged in if the disk
                        # moved on since the model's base), so that text is its base.
                        s.set_pending(w.path, read.text, w.text)
                    self._note_edit_counts(plan)
            except _Stale as e:
                result.fail(
                    Problem(
                        CONFLICT,
                        f"the output pending review for {e.path} changed while this edit was "
                        "made against it; nothing was kept. Read the file again and redo the "
                        "edit",
                        path=e.path,
                    )
                )
                return
            except sqlite3.Error as e:
                result.fail(Problem(IO_ERROR, f"the session store failed ({e}); nothing was kept"))
                return
        result.review = True
        result.plan = None

    # -- review ----------------------------------------------------------------------------
    def status(self, only: str | None = None) -> list[dict[str, Any]]:
        """Every file the session knows (or the one ``only`` names), with its review status
        (see ``review.status``)."""
        return review.status(self, only)

    def accept(self, paths: Sequence[str] | None = None) -> Result:
        return self._review_op(review.accept, paths)

    def discard(self, paths: Sequence[str] | None = None) -> Result:
        return self._review_op(review.discard, paths)

    def merge(self, paths: Sequence[str] | None = None) -> Result:
        return self._review_op(review.merge_pending, paths)

    def undo(self, path: str | None = None, *, own: bool = False) -> Result:
        """Restore the files of the last commit; with ``path``, only that file (and the other
        path of a move), as it was before the last commit that changed it. With ``own``, only
        a commit this conversation made is undone."""
        return self._review_op(review.undo, path, own=own)

    def _review_op(self, op: Callable[..., Result], *args: Any, **kwargs: Any) -> Result:
        failed = Result(False, False)
        if self.recovery_problem is not None:
            failed.fail(self.recovery_problem)
            return failed
        with self.locked(create=False) as refused:
            if refused is not None:
                failed.fail(refused)
                return failed
            try:
                return self._say_state(op(self, *args, **kwargs))
            except sqlite3.Error as e:
                failed.fail(Problem(IO_ERROR, f"the session store failed ({e})"))
                return failed

    def _say_state(self, result: Result) -> Result:
        """A quarantined journal is said once, in this workspace's first result."""
        said = self.take_state_warning()
        if said:
            result.warnings.append(said)
        return result


# "Did you mean": a file name at least this alike (rapidfuzz ratio, 0-100) is suggested;
# the search text is looked for in files of at most SUGGEST_FILE_BYTES, SUGGEST_BYTES in
# all, and named when SUGGEST_HOLDERS files or fewer hold it.
SUGGEST_SCORE = 60.0


def _name_score(a: str, b: str, **_: object) -> float:
    """How alike two paths are for a suggestion: the whole paths, and their names without the
    extension (a shared '.txt' or directory must not make 'nope.txt' look like 'keep.txt'):
    the lower of the two ratios."""
    return min(fuzz.ratio(a, b), fuzz.ratio(_stem(a), _stem(b)))


def _stem(path: str) -> str:
    name = path.rsplit("/", 1)[-1]
    return name.rsplit(".", 1)[0] if "." in name[1:] else name


SUGGEST_FILE_BYTES = 1 << 20
SUGGEST_BYTES = 32 << 20
SUGGEST_HOLDERS = 3


def _search_text(op: Op | None) -> str | None:
    """The text an edit searches for, in LF form (None: it searches for none, or only
    blank lines)."""
    if isinstance(op, Replace):
        text = op.old
    elif isinstance(op, Anchored):
        text = "".join(line + "\n" for line in op.start)
    else:
        return None
    text = to_lf(text)
    return text if text.strip() else None


@dataclasses.dataclass(frozen=True)
class _Options:
    """git apply's options of one apply: ``-p N``, ``-R``, ``--directory``."""

    strip: int | None = None
    reverse: bool = False
    directory: str | None = None
    # A person's additions to every search edit: --replace-all, --line N.
    replace_all: bool = False
    hint_line: int | None = None
    # git apply from a subdirectory: only files under it are patched.
    within: str | None = None

    def skipped(self, ops: list[Op]) -> tuple[list[Op], list[str]]:
        """``ops`` without those of files outside ``within``, and those files' paths."""
        if self.within is None:
            return ops, []
        prefix = normalize_path(self.within).rstrip("/") + "/"
        files = [op.path for op in ops] + [op.to for op in ops if isinstance(op, Move)]
        outside = {normalize_path(p) for p in files if not normalize_path(p).startswith(prefix)}
        if not outside:
            return ops, []

        def inside(op: Op) -> bool:
            names = [op.path, op.to] if isinstance(op, Move) else [op.path]
            return not any(normalize_path(n) in outside for n in names)

        return [op for op in ops if inside(op)], sorted(outside)

    def told(self, ops: list[Op]) -> list[Op]:
        """``ops`` with the person's additions (search edits only)."""
        if not self.replace_all and self.hint_line is None:
            return ops
        out: list[Op] = []
        for op in ops:
            if isinstance(op, Replace) and op.old:
                hint = op.hint_line if op.hint_line is not None else self.hint_line
                op = dataclasses.replace(
                    op, replace_all=op.replace_all or self.replace_all, hint_line=hint
                )
            out.append(op)
        return out


class _Stale(Exception):
    def __init__(self, path: str) -> None:
        self.path = path
