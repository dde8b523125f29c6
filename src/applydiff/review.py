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
markers and reported). Undo restores the files of the last commit, whichever command made it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from . import commit as commit_mod
from .errors import CONFLICT, ENCODING, IO_ERROR, EditError
from .merge3 import merge3
from .session import Pending, Session
from .text import UTF8, decode, encode, file_id

if TYPE_CHECKING:
    from .workspace import Result, Workspace, _Read


def _session(ws: Workspace) -> Session:
    if ws.session is None:
        raise ValueError("review needs a session: Workspace(root, session=True)")
    return ws.session


def _disk(ws: Workspace, path: str) -> _Read | None:
    try:
        return ws._disk(path)
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


def status(ws: Workspace) -> list[dict[str, Any]]:
    """``[{path, status, file_id, pending_file_id?}]`` for every file with a snapshot or a
    pending output."""
    s = _session(ws)
    pendings = {p.path: p for p in s.pendings()}
    out = []
    for path in sorted(set(pendings) | set(s.snapshot_paths())):
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


def _selected(s: Session, ws: Workspace, paths: Sequence[str] | None) -> list[Pending]:
    if not paths:
        return s.pendings()
    keys = {ws.key(p) for p in paths}
    return [p for p in s.pendings() if p.path in keys]


def _result(ok: bool, files: list[dict[str, Any]], errors: list[dict[str, Any]]) -> Result:
    from .workspace import Result

    return Result(ok, False, files=files, errors=errors, committed=ok and bool(files))


def _target(ws: Workspace, path: str, text: str | None) -> commit_mod.Target:
    read = ws._disk(path)
    if text is None:
        return commit_mod.Target(read.real, None, None)
    enc = read.encoding if read.text is not None else UTF8
    return commit_mod.Target(read.real, encode(text, enc), read.mode)


def _commit(
    ws: Workspace, kind: str, writes: list[tuple[str, str | None]]
) -> dict[str, Any] | None:
    """Write ``(path, text or None to delete)`` atomically, recorded for undo."""
    targets, history = [], []
    for path, text in writes:
        read = ws._disk(path)
        try:
            target = _target(ws, path, text)
        except UnicodeEncodeError as e:
            bad = (text or "")[e.start : e.end]
            return {
                "code": ENCODING,
                "index": None,
                "path": path,
                "message": f"{path} is stored as {read.encoding.label()}, which cannot hold "
                f"{bad!r}; nothing was written",
            }
        targets.append(target)
        history.append((path, read.data, target.data))
    return ws._write(targets, kind, history)


def accept(ws: Workspace, paths: Sequence[str] | None = None) -> Result:
    """Write the pending outputs (all, or those of ``paths``) to disk, together. A file whose
    disk changed since the output's base (``~M``) is refused: merge it instead."""
    s = _session(ws)
    chosen = _selected(s, ws, paths)
    errors, writes, files = [], [], []
    for p in chosen:
        read = _disk(ws, p.path)
        disk = None if read is None else read.text
        if _status(p, disk, s.snapshot(p.path)) == "~M":
            errors.append(
                {
                    "code": CONFLICT,
                    "index": None,
                    "path": p.path,
                    "message": f"{p.path} changed on disk since the model's output was made; "
                    "accepting would overwrite that change. Merge it (applydiff merge) or "
                    "discard the output",
                }
            )
            continue
        writes.append((p.path, p.output))
        files.append({"path": p.path, "action": _action(p)})
    if errors:
        return _result(False, [], errors)
    error = _commit(ws, "accept", writes)
    if error is not None:
        return _result(False, [], [error])
    for p in chosen:
        s.drop_pending(p.path)
        if p.output is None:
            s.forget(p.path)
        else:
            s.remember(p.path, p.output)
    return _result(True, files, [])


def _action(p: Pending) -> str:
    if p.output is None:
        return "deleted"
    return "added" if p.base is None else "modified"


def discard(ws: Workspace, paths: Sequence[str] | None = None) -> Result:
    """Drop the pending outputs (all, or those of ``paths``); the disk is not touched."""
    s = _session(ws)
    chosen = _selected(s, ws, paths)
    for p in chosen:
        s.drop_pending(p.path)
    return _result(True, [{"path": p.path, "action": "discarded"} for p in chosen], [])


def merge(ws: Workspace, paths: Sequence[str] | None = None) -> Result:
    """Three-way merge each pending output into the file on disk: base = the text the output
    was made from, ours = the disk, theirs = the output. Clean merges and conflicts are both
    written (conflicts with marker lines) and reported per file."""
    s = _session(ws)
    chosen = _selected(s, ws, paths)
    writes: list[tuple[str, str | None]] = []
    files: list[dict[str, Any]] = []
    conflicts: list[dict[str, Any]] = []
    for p in chosen:
        read = _disk(ws, p.path)
        disk = None if read is None else read.text
        if p.output is None:
            if disk == p.base:
                writes.append((p.path, None))
                files.append({"path": p.path, "action": "deleted", "conflicts": []})
            else:
                files.append({"path": p.path, "action": "kept", "conflicts": []})
                conflicts.append(
                    _conflict(p.path, "the model deletes it, but it changed on disk: kept")
                )
            continue
        merged = merge3(p.base or "", disk or "", p.output)
        writes.append((p.path, merged.text))
        spans = [list(c) for c in merged.conflicts]
        files.append({"path": p.path, "action": "merged", "conflicts": spans})
        if spans:
            conflicts.append(
                _conflict(
                    p.path,
                    "the local change and the model's overlap at lines "
                    + ", ".join(f"{a}-{b}" for a, b in spans)
                    + "; resolve the <<<<<<< ... >>>>>>> regions by hand",
                )
            )
    error = _commit(ws, "merge", writes)
    if error is not None:
        return _result(False, [], [error])
    for path, text in writes:
        s.drop_pending(path)
        if text is None:
            s.forget(path)
        else:
            s.remember(path, text)
    for p in chosen:
        s.drop_pending(p.path)
    result = _result(True, files, [])
    result.errors = conflicts  # reported; the merge itself was written
    return result


def _conflict(path: str, message: str) -> dict[str, Any]:
    return {"code": CONFLICT, "index": None, "path": path, "message": f"{path}: {message}"}


def undo(ws: Workspace) -> Result:
    """Restore the files of the last commit. Refused (``conflict``) if any of them changed on
    disk since."""
    s = _session(ws)
    last = s.last_commit()
    if last is None:
        return _result(
            False,
            [],
            [{"code": IO_ERROR, "index": None, "path": None, "message": "nothing to undo"}],
        )
    targets, history, files, errors = [], [], [], []
    for path, before, after in last.files:
        read = ws._disk(path)
        if read.data != after:
            errors.append(
                {
                    "code": CONFLICT,
                    "index": None,
                    "path": path,
                    "message": f"{path} changed since that commit; undo would overwrite the "
                    "change, so nothing was restored",
                }
            )
            continue
        targets.append(commit_mod.Target(read.real, before, read.mode))
        history.append((path, after, before))
        files.append({"path": path, "action": "restored" if before is not None else "deleted"})
    if errors:
        return _result(False, [], errors)
    error = ws._write(targets, "undo", [])
    if error is not None:
        return _result(False, [], [error])
    s.drop_commit(last.id)
    for path, before, _ in last.files:
        if before is None:
            s.forget(path)
        else:
            s.remember(path, decode(before)[0])
    return _result(True, files, [])
