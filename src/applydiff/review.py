"""Review: outputs the model wrote that wait for a person (``apply --review``), and undo.

Status per file, as editors show it:

====== ===========================================================================
``""`` unchanged: no pending output, the disk holds what the model was shown
``M``  the model modified the file (pending), the disk still holds its base
``A``  the model added the file (pending), nothing is on disk yet
``D``  the model deletes the file (pending), the disk still holds its base
``~``  the file changed on disk since the model was shown it (nothing pending)
``~M`` conflict: an output is pending and the disk changed since its base
====== ===========================================================================

Resolutions: accept (write the pending output), discard (drop it), merge (three-way: base =
what the output was made from, ours = the disk, theirs = the output; conflicts written with
markers and reported). Undo restores the files of the last commit, whichever command made it
(or one file, as it was before the last commit that changed it); undoing an accept puts the
outputs back pending.

The commands work on a :class:`~applydiff.store.Store` through its public API (reads, the
root's lock, commits with their history, best-effort bookkeeping);
:class:`~applydiff.workspace.Workspace` offers them as its methods.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from . import commit as commit_mod
from .errors import CONFLICT, ENCODING, NOTHING_TO_UNDO, EditError
from .merge3 import merge3
from .problems import Problem
from .results import FileOutcome, Result
from .session import CommitFile, Pending, Session
from .store import FileRead, Store, history_entry
from .text import UTF8, decode, encode, file_id


def _session(ws: Store) -> Session:
    if ws.session is None:
        raise ValueError("review needs a session: Workspace(root, session=True)")
    return ws.session


def _disk(ws: Store, path: str) -> FileRead | None:
    try:
        return ws.read_disk(path)
    except EditError:
        return None


def _status(p: Pending | None, disk: str | None, snapshot: str | None) -> str:
    if p is not None:
        if p.base is None:
            return "A" if disk is None else "~M"
        if disk != p.base:
            return "~M"
        return "D" if p.output is None else "M"
    if snapshot is not None and disk != snapshot:
        return "~"
    return ""


def status(ws: Store, only: str | None = None) -> list[dict[str, Any]]:
    """``[{path, status, file_id, pending_file_id?}]`` for every file with a snapshot or a
    pending output (with ``only``, for that path alone: no other file is read)."""
    s = _session(ws)
    pendings = {p.path: p for p in s.pendings()}
    known = set(pendings) | set(s.snapshot_paths())
    out = []
    for path in sorted(known if only is None else known & {only}):
        read = _disk(ws, path)
        disk = None if read is None else read.text
        p = pendings.get(path)
        entry: dict[str, Any] = {
            "path": path,
            "status": _status(p, disk, s.snapshot(path)),
            "file_id": None if disk is None else file_id(disk),
        }
        if p is not None:
            entry["pending_file_id"] = None if p.output is None else file_id(p.output)
        out.append(entry)
    return out


def _selected(s: Session, ws: Store, paths: Sequence[str] | None) -> list[Pending]:
    if not paths:
        return s.pendings()
    keys = {ws.key(p) for p in paths}
    return [p for p in s.pendings() if p.path in keys]


def _result(
    ok: bool,
    files: list[FileOutcome],
    errors: list[Problem],
    warnings: list[str] | None = None,
) -> Result:
    return Result(
        ok,
        False,
        files=files,
        errors=errors,
        committed=ok and bool(files),
        warnings=warnings or [],
    )


def _commit(
    ws: Store, kind: str, writes: list[tuple[str, str | None]], warnings: list[str]
) -> Problem | None:
    """Write ``(path, text or None to delete)`` atomically, recorded for undo."""
    targets, history = [], []
    for path, text in writes:
        try:
            read = ws.read_disk(path)
        except EditError as e:
            return Problem(e.code, f"{e.message}; nothing was written", path=path)
        if text is None:
            target = commit_mod.Target(read.real, None, None)
        else:
            enc = read.encoding if read.text is not None else UTF8
            try:
                target = commit_mod.Target(read.real, encode(text, enc), read.mode)
            except UnicodeEncodeError as e:
                bad = text[e.start : e.end]
                return Problem(
                    ENCODING,
                    f"{path} is stored as {enc.label()}, which cannot hold {bad!r}; "
                    "nothing was written",
                    path=path,
                )
        targets.append(target)
        history.append(history_entry(path, read, target))
    return ws.commit_targets(targets, kind, history, warnings)


def accept(ws: Store, paths: Sequence[str] | None = None) -> Result:
    """Write the pending outputs (all, or those of ``paths``) to disk, together. A file whose
    disk changed since the output's base (``~M``) is refused: merge it instead."""
    s = _session(ws)
    chosen = _selected(s, ws, paths)
    errors: list[Problem] = []
    writes: list[tuple[str, str | None]] = []
    files: list[FileOutcome] = []
    for p in chosen:
        try:
            read = ws.read_disk(p.path)
        except EditError as e:
            errors.append(Problem(e.code, e.message, path=p.path))
            continue
        if _status(p, read.text, s.snapshot(p.path)) == "~M":
            errors.append(
                Problem(
                    CONFLICT,
                    f"{p.path} changed on disk since the model's output was made; accepting "
                    "would overwrite that change. Merge it (applydiff merge) or discard the "
                    "output",
                    path=p.path,
                )
            )
            continue
        writes.append((p.path, p.output))
        files.append(FileOutcome(p.path, _action(p)))
    if errors:
        return _result(False, [], errors)
    warnings: list[str] = []
    error = _commit(ws, "accept", writes, warnings)
    if error is not None:
        return _result(False, [], [error])
    ws.record_or_warn(warnings, "the accepted outputs", _settle, ws, s, writes)
    return _result(True, files, [], warnings)


def _settle(ws: Store, s: Session, writes: list[tuple[str, str | None]]) -> None:
    """After writing ``writes``: nothing is pending for them, and the model (when the session
    keeps its view) knows their texts."""
    for path, text in writes:
        s.drop_pending(path)
        if not ws.model_view:
            continue
        if text is None:
            s.forget(path)
        else:
            s.remember(path, text)


def _action(p: Pending) -> str:
    if p.output is None:
        return "deleted"
    return "added" if p.base is None else "modified"


def discard(ws: Store, paths: Sequence[str] | None = None) -> Result:
    """Drop the pending outputs (all, or those of ``paths``); the disk is not touched."""
    s = _session(ws)
    chosen = _selected(s, ws, paths)
    for p in chosen:
        s.drop_pending(p.path)
    return _result(True, [FileOutcome(p.path, "discarded") for p in chosen], [])


def merge_pending(ws: Store, paths: Sequence[str] | None = None) -> Result:
    """Three-way merge each pending output into the file on disk: base = the text the output
    was made from, ours = the disk, theirs = the output. Clean merges and conflicts are both
    written (conflicts with marker lines) and reported per file."""
    s = _session(ws)
    chosen = _selected(s, ws, paths)
    writes: list[tuple[str, str | None]] = []
    files: list[FileOutcome] = []
    conflicts: list[Problem] = []
    for p in chosen:
        read = _disk(ws, p.path)
        disk = None if read is None else read.text
        if p.output is None:
            if disk == p.base:
                writes.append((p.path, None))
                files.append(FileOutcome(p.path, "deleted", conflicts=[]))
            else:
                files.append(FileOutcome(p.path, "kept", conflicts=[]))
                conflicts.append(
                    _conflict(
                        p.path,
                        "the model deletes it, but it changed on disk: kept, and the deletion "
                        "stays pending until you discard it (or delete the file yourself)",
                    )
                )
            continue
        merged = merge3(p.base or "", disk or "", p.output)
        writes.append((p.path, merged.text))
        spans = [list(c) for c in merged.conflicts]
        files.append(FileOutcome(p.path, "merged", conflicts=spans))
        if spans:
            conflicts.append(
                _conflict(
                    p.path,
                    "the local change and the model's overlap at lines "
                    + ", ".join(f"{a}-{b}" for a, b in spans)
                    + "; resolve the <<<<<<< ... >>>>>>> regions by hand",
                )
            )
    warnings: list[str] = []
    error = _commit(ws, "merge", writes, warnings)
    if error is not None:
        return _result(False, [], [error])
    # _settle drops what was written; a deletion kept because the disk changed stays
    # pending, for a person to discard (or accept over the change).
    ws.record_or_warn(warnings, "the merged outputs", _settle, ws, s, writes)
    result = _result(True, files, [], warnings)
    result.errors = conflicts  # reported; the merge itself was written
    return result


def _conflict(path: str, message: str) -> Problem:
    return Problem(CONFLICT, f"{path}: {message}", path=path)


def undo(ws: Store, path: str | None = None, *, own: bool = False) -> Result:
    """Restore the files of the last commit (with ``path``: only that file, and the other
    path of a move, from the last commit that changed it). Refused (``conflict``) if any of
    them changed on disk since, or, for an accept, if a newer output is pending for it; with
    ``own``, refused unless this conversation made the commit. Undoing an accept puts its
    outputs back pending review."""
    s = _session(ws)
    key = None if path is None else ws.key(path)
    last = s.last_commit(key)
    if last is None:
        what = "nothing to undo" if key is None else f"no change to {key} to undo"
        return _result(False, [], [Problem(NOTHING_TO_UNDO, what, path=key)])
    if own and last.origin != ws.origin:
        who = (
            "a person (applydiff on the command line)"
            if last.origin is None
            else "another conversation"
        )
        return _result(
            False,
            [],
            [
                Problem(
                    CONFLICT,
                    f"the last change to {key} was made by {who}, not in this conversation; "
                    "undo_edit takes back only your own changes",
                    path=key,
                )
            ],
        )
    chosen = last.files
    if key is not None:
        keep = {key} | {f.partner for f in last.files if f.path == key and f.partner}
        chosen = [f for f in last.files if f.path in keep]
    targets: list[commit_mod.Target] = []
    files: list[FileOutcome] = []
    errors: list[Problem] = []
    for f in chosen:
        try:
            read = ws.read_disk(f.path)
        except EditError as e:
            errors.append(Problem(e.code, e.message, path=f.path))
            continue
        if read.data != f.after:
            errors.append(
                Problem(
                    CONFLICT,
                    f"{f.path} changed since that commit; undo would overwrite the change, so "
                    "nothing was restored",
                    path=f.path,
                )
            )
            continue
        if last.kind == "accept" and s.pending(f.path) is not None:
            errors.append(
                Problem(
                    CONFLICT,
                    f"{f.path} has a newer output pending review; undoing the accept would "
                    "replace it, so nothing was restored. Accept, merge or discard it first",
                    path=f.path,
                )
            )
            continue
        # A file the commit added goes with the directories that commit created for it,
        # when they are left empty (never one that was there before).
        prune = (f.dirs_made or 0) if f.before is None else 0
        targets.append(commit_mod.Target(read.real, f.before, _stored_mode(f, read), prune=prune))
        files.append(FileOutcome(f.path, "restored" if f.before is not None else "deleted"))
    if errors:
        return _result(False, [], errors)
    warnings: list[str] = []
    error = ws.commit_targets(targets, "undo", [], warnings)
    if error is not None:
        return _result(False, [], [error])
    paths = None if key is None else [f.path for f in chosen]
    ws.record_or_warn(warnings, "the undo", _undone, ws, s, last.id, last.kind, chosen, paths)
    return _result(True, files, [], warnings)


def _stored_mode(f: CommitFile, read: FileRead) -> int | None:
    """The mode an undo restores: the stored permission bits; setuid, setgid and sticky only
    as the file has them now (the store is data on disk: it never adds them)."""
    if f.mode_before is None:
        return None
    special = 0 if read.mode is None else read.mode & 0o7000
    return (f.mode_before & 0o777) | special


def _undone(
    ws: Store,
    s: Session,
    commit_id: int,
    kind: str,
    files: list[CommitFile],
    paths: list[str] | None,
) -> None:
    with s.transaction():
        s.drop_commit(commit_id, paths)
        for f in files:
            before = None if f.before is None else decode(f.before)[0]
            if kind == "accept":  # the outputs wait for a decision again
                after = None if f.after is None else decode(f.after)[0]
                s.set_pending(f.path, before, after)
            if not ws.model_view:
                continue
            if before is None:
                s.forget(f.path)
            else:
                s.remember(f.path, before)
