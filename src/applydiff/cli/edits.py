"""The commands that apply edits and review them: ``apply``, ``call``, ``parse``, ``status``,
``accept``, ``discard``, ``merge``, ``undo``, ``show``."""

from __future__ import annotations

import argparse
import json
import os
from typing import TYPE_CHECKING, Any

from ..problems import Problem
from .base import EXIT_OK, EXIT_REJECTED, IO, NOT_CONFIRMED, UsageError, read_input
from .confirm import NO_TERMINAL, ask
from .output import (
    diffstat,
    error_line,
    file_stats,
    for_person,
    numstat,
    show_diff,
    show_edits,
    show_errors,
    show_warnings,
)
from .parser import call_tools

if TYPE_CHECKING:
    from ..merge_model import MergeClient
    from ..results import Result
    from ..workspace import Workspace


def cmd_parse(args: argparse.Namespace, io: IO) -> int:
    from ..errors import EditError
    from ..formats import parse
    from ..ir import op_to_dict

    text = read_input(args.file)
    try:
        ops = parse(text, args.format)
    except EditError as e:
        if args.json:
            io.json({"ok": False, "ops": [], "error": e.to_dict()})
        else:
            io.err.line(f"{e.code}: {e.message}")
        return EXIT_REJECTED
    if args.json:
        io.json({"ok": True, "ops": [op_to_dict(op) for op in ops]})
        return EXIT_OK
    if not ops:
        io.err.line("no edits found")
    for k, op in enumerate(ops):
        d = op_to_dict(op)
        where = f" (line {op.origin})" if op.origin else ""
        extra = f" -> {d['to']}" if "to" in d else ""
        io.out.line(f"{k}: {d['op']} {op.path}{extra}{where}")
    return EXIT_OK


def cmd_verify_merge(args: argparse.Namespace, io: IO) -> int:
    from ..match.verify_merge import verify_merge

    if [args.original, args.snippet, args.merged].count("-") > 1:
        raise UsageError("only one of ORIGINAL, SNIPPET and MERGED can be read from stdin")
    original, snippet, merged = (
        read_input(name) for name in (args.original, args.snippet, args.merged)
    )
    path = args.path if args.path is not None else (None if args.original == "-" else args.original)
    verdict = verify_merge(original, snippet, merged, path)
    if args.json:
        io.json(verdict.to_dict())
    else:
        io.out.line("verified" if verdict.verified else "not verified")
        for r in verdict.reasons:
            at = [f"merged line {r.merged_line}"] if r.merged_line is not None else []
            at += [f"snippet line {r.snippet_line}"] if r.snippet_line is not None else []
            io.out.line(f"  {r.check}: {r.message}" + (f" ({', '.join(at)})" if at else ""))
        for note in verdict.notes:
            io.err.line(f"note: {note}")
    return EXIT_OK if verdict.verified else EXIT_REJECTED


def root_of(args: argparse.Namespace, text: str | None = None) -> str:
    """The root a command works on: ``--root``/``-C``; without it, for a git diff run inside
    a git repository, the repository's top (as ``git apply`` takes a diff's paths), else
    the current directory."""
    if args.root is not None:
        if not os.path.isdir(args.root):
            raise UsageError(f"the root {args.root!r} is not a directory")
        return str(args.root)
    if text is not None and _is_git_diff(text):
        from ..workspace import git_toplevel

        top = git_toplevel(os.getcwd())
        if top is not None:
            return top
    return "."


def _is_git_diff(text: str) -> bool:
    return text.startswith("diff --git ") or "\ndiff --git " in text


def open_workspace(
    args: argparse.Namespace, root: str, *, store: bool = True, optional: bool = False
) -> Workspace:
    """The root as a person at a terminal works on it: edits go against the disk (or, in
    review mode, the outputs pending review), and every commit is recorded for ``undo``.
    Without ``store`` (a preview) the session store is used only if the root has one. With
    ``optional`` (a plain apply), a store that cannot be opened is a warning, not an error:
    the edit goes ahead, unrecorded (the workspace says so in each result)."""
    from pathlib import Path

    from ..errors import EditError
    from ..policy import STATE_DIR
    from ..session import SessionError
    from ..workspace import Workspace

    threshold = getattr(args, "threshold", None)
    if threshold is not None and not 0.0 < threshold <= 1.0:
        raise UsageError(f"--threshold must be in (0, 1], not {threshold}")
    merge_model = merge_model_of(args)
    try:
        session = store or (Path(root) / STATE_DIR / "session.db").is_file()
        return Workspace(
            root,
            threshold=threshold,
            session=session,
            store_optional=optional,
            model_view=False,
            merge_model=merge_model,
        )
    except (EditError, SessionError) as e:
        raise UsageError(getattr(e, "message", str(e))) from None
    except OSError as e:  # the state directory (.applydiff) cannot be made or read
        raise UsageError(f"cannot use {root}: {e.strerror} ({e.filename})") from None


def merge_model_of(args: argparse.Namespace) -> MergeClient | None:
    """The merge model the command's options (or the environment) name; None when no
    endpoint is set."""
    from ..merge_model import from_settings

    try:
        return from_settings(
            getattr(args, "merge_endpoint", None),
            getattr(args, "merge_model", None),
            timeout=getattr(args, "merge_timeout", None),
            prompt=getattr(args, "merge_prompt", None),
        )
    except ValueError as e:
        raise UsageError(str(e)) from None


def cmd_apply(args: argparse.Namespace, io: IO) -> int:
    if args.strip is not None and args.strip < 0:
        raise UsageError(f"-p takes a number of components, 0 or more, not {args.strip}")
    text = read_input(args.file)
    root = root_of(args, text)
    stat = args.stat or args.numstat
    # The session store is opened (made) only to record something: a review, a commit.
    ws = open_workspace(args, root, store=args.review, optional=not args.review)
    git: dict[str, Any] = {}
    if args.strip is not None:
        git["strip"] = args.strip
    if args.reverse:
        git["reverse"] = True
    if args.directory is not None:
        git["directory"] = args.directory
    if args.hint_line is not None and args.hint_line < 1:
        raise UsageError(f"--line takes a line number, 1 or more, not {args.hint_line}")
    person = {"replace_all": args.replace_all, "hint_line": args.hint_line}
    if args.root is None and root != ".":  # a git diff, from the repository's top
        here = os.path.relpath(os.path.realpath(os.getcwd()), root)
        if here != ".":  # run from a subdirectory: as git apply, only files under it
            git["within"] = here
    options = {"format": args.format, "keep_narration": args.keep_narration, **git, **person}
    if stat:
        return report_stat(for_person(ws.apply(text, dry_run=True, **options)), args, io)
    if args.review:
        result = ws.apply(text, review=True, dry_run=args.dry_run or args.check, **options)
        return report_review(for_person(result), args, io)
    # A response read from stdin leaves no stdin to answer a confirmation on.
    result = for_person(ws.apply(text, dry_run=True, **options))
    return finish(ws, result, args, io, root=root, stdin_free=args.file != "-")


def report_stat(result: Result, args: argparse.Namespace, io: IO) -> int:
    """``--stat``/``--numstat``: what would change per file, on stdout; nothing written."""
    stats = file_stats(result)
    if args.json:
        io.json({**result.to_dict(), "stat": stats})
    else:
        if result.ok:
            if args.numstat:
                io.out.write(numstat(stats))
            if args.stat:
                io.out.write(diffstat(stats))
        show_errors(io, result)
    return EXIT_OK if result.ok else EXIT_REJECTED


def report_review(result: Result, args: argparse.Namespace, io: IO) -> int:
    """Output of a review-mode apply: the diffs, and that the outputs wait for a decision."""
    if args.json:
        io.json(result.to_dict())
    else:
        if not args.check:
            show_diff(io, result)
            show_edits(io, result)
        show_errors(io, result)
        if result.ok and result.review:
            io.err.line(
                f"kept {len(result.files)} file(s) pending: applydiff status, then accept, "
                "merge or discard"
            )
    return EXIT_OK if result.ok else EXIT_REJECTED


def finish(
    ws: Workspace,
    result: Result,
    args: argparse.Namespace,
    io: IO,
    *,
    root: str,
    stdin_free: bool,
) -> int:
    """Show the planned change (a dry run's result), confirm it, then commit. The person is
    asked unless ``--yes``: on stdin when it is a terminal and ``stdin_free`` (the response
    was not read from it), else on the controlling terminal; with no terminal nothing is
    written (exit 1). The commit is recorded for ``undo`` (the root's session store is made
    then, if it has none)."""
    if not args.json:
        if not args.check:  # git apply --check: silent when it applies
            show_diff(io, result)
            show_edits(io, result)
        show_errors(io, result)
    if result.ok and not result.files:  # every file skipped: nothing to ask about or write
        if args.json:
            io.json(result.to_dict())
        else:
            show_warnings(io, result)
            io.err.line("nothing to apply; nothing was written")
        return EXIT_OK
    if not args.json and (args.dry_run or args.check):
        show_warnings(io, result)  # a skipped file, a store not used: said before, not after
    if not result.ok or args.dry_run or args.check:
        if result.ok and not args.json and not args.check:
            io.err.line(
                f"would apply to {len(result.files)} file(s); nothing was written (dry run)"
            )
        if args.json:
            io.json(result.to_dict())
        return EXIT_OK if result.ok else EXIT_REJECTED
    if not args.yes:
        answer = ask(io, f"Apply to {len(result.files)} file(s)?", stdin_free=stdin_free)
        if not answer:
            message = NO_TERMINAL if answer is None else "not applied; nothing was written"
            if args.json:
                io.json(refused(result, message))
            else:
                io.err.line(message)
            return EXIT_REJECTED
    recorder = ws if ws.session is not None else open_workspace(args, root, optional=True)
    recorder.commit(result)
    if args.json:
        io.json(result.to_dict())
    elif result.ok:
        io.err.line(f"applied to {len(result.files)} file(s)", "green")
        show_warnings(io, result)
    else:  # the files changed between the preview and the commit
        show_errors(io, result)
    return EXIT_OK if result.ok else EXIT_REJECTED


def refused(result: Result, message: str) -> dict[str, Any]:
    """The JSON of a change the person did not confirm: the preview, not ok, nothing written."""
    out = result.to_dict()
    out["ok"] = False
    out["errors"] = [
        *out["errors"],
        Problem(NOT_CONFIRMED, message).to_dict(),
    ]
    return out


def call_arguments(spec: str) -> Any:
    """``--args``: JSON, ``@FILE`` or ``-`` (stdin)."""
    if spec == "-":
        text = read_input("-")
    elif spec.startswith("@"):
        text = read_input(spec[1:])
    else:
        text = spec
    try:
        arguments = json.loads(text)
    except json.JSONDecodeError as e:
        raise UsageError(f"--args is not valid JSON: {e.msg} at column {e.colno}") from None
    except RecursionError:
        raise UsageError("--args is nested too deeply to read") from None
    if not isinstance(arguments, dict):
        raise UsageError("--args must be a JSON object")
    return arguments


def cmd_call(args: argparse.Namespace, io: IO) -> int:
    tools = call_tools()
    if args.tool not in tools:
        raise UsageError(f"unknown tool {args.tool!r}; the tools are {', '.join(tools)}")
    arguments = call_arguments(args.args)
    root = root_of(args)
    ws = open_workspace(args, root, store=False, optional=True)
    call = json.dumps({"name": args.tool, "arguments": arguments})
    result = ws.apply(call, dry_run=True, format="tool_calls")
    return finish(ws, result, args, io, root=root, stdin_free=args.args != "-")


def _no_store(root: str) -> bool:
    """The root has no state directory: nothing was ever recorded (a broken one, a file in
    its place, is opened and reported)."""
    from ..policy import STATE_DIR

    return not os.path.lexists(os.path.join(root, STATE_DIR))


STATUS_LEGEND = (
    "codes: M modified, A added, D deleted (pending review); ~ changed on disk since the "
    "model saw it; ~M both (merge it); blank: the model saw it, nothing pending"
)


def cmd_status(args: argparse.Namespace, io: IO) -> int:
    root = root_of(args)
    ws = None if _no_store(root) else open_workspace(args, root)
    problem = ws.recovery_problem if ws is not None else None
    if problem is not None:  # a commit could not be finished or put back: say so, list nothing
        if args.json:
            io.json({"ok": False, "files": [], "errors": [problem.to_dict()]})
        else:
            code, rest = error_line(problem)
            io.err.line(code + rest)
        return EXIT_REJECTED
    rows = [] if ws is None else ws.status()
    said = None if ws is None else ws.take_state_warning()
    if args.json:
        io.json({"ok": True, "files": rows, "warnings": [said] if said else []})
        return EXIT_OK
    if said:
        io.err.line(f"warning: {said}", "yellow")
    for r in rows:
        io.out.line(f"{r['status'] or ' ':<2} {r['path']}")
    if not rows:
        io.err.line("no files in the session")
    elif io.err.terminal:  # for a person; a script reading the listing knows the codes
        io.err.line(STATUS_LEGEND)
    return EXIT_OK


def cmd_recover(args: argparse.Namespace, io: IO) -> int:
    """The quarantined journals, listed or (``--discard``) deleted. Opening the root runs
    recovery first, so a journal found now is listed too."""
    from pathlib import Path

    from .. import commit as commit_mod

    root = root_of(args)
    if not _no_store(root):
        open_workspace(args, root, store=False)
    real = Path(os.path.realpath(root))
    found = commit_mod.discard_quarantined(real) if args.discard else commit_mod.quarantined(real)
    rows = [{"journal": f".applydiff/quarantine/{q.name}", "why": q.why} for q in found]
    if args.json:
        io.json({"ok": True, "discarded" if args.discard else "quarantined": rows})
        return EXIT_OK
    for r in rows:
        io.out.line(f"{'deleted' if args.discard else 'quarantined'}: {r['journal']}: {r['why']}")
    if not rows:
        io.err.line("no quarantined journals")
    elif not args.discard:
        io.err.line("delete them with `applydiff recover --discard`")
    return EXIT_OK


def cmd_resolve(args: argparse.Namespace, io: IO) -> int:
    """accept, discard, merge, undo."""
    from ..errors import EditError

    root = root_of(args)
    if _no_store(root):  # nothing recorded: nothing to undo, nothing pending
        result = _nothing(args)
        ws = None
    else:
        ws = open_workspace(args, root)
    try:
        if ws is None:
            pass
        elif args.command == "undo":
            result = ws.undo(args.path)
        else:
            result = getattr(ws, args.command)(args.paths)
    except EditError as e:  # a path the policy refuses
        raise UsageError(e.message) from None
    if args.json:
        io.json(result.to_dict())
    else:
        for f in result.files:
            extra = f" ({len(f.conflicts)} conflict(s))" if f.conflicts else ""
            io.out.line(f"{f.action}: {f.path}{extra}")
        show_errors(io, result)
        show_warnings(io, result)
        if not result.files and result.ok:
            io.err.line("nothing pending")
    if args.command == "merge":
        return EXIT_OK if not result.errors else EXIT_REJECTED
    return EXIT_OK if result.ok else EXIT_REJECTED


def _nothing(args: argparse.Namespace) -> Result:
    """The result of a review command on a root with nothing recorded."""
    from ..errors import NOTHING_TO_UNDO
    from ..results import Result

    if args.command != "undo":
        return Result(True, False)
    what = "nothing to undo" if args.path is None else f"no change to {args.path} to undo"
    return Result(False, False, errors=[Problem(NOTHING_TO_UNDO, what, path=args.path)])


NOT_PENDING = "not_pending"  # show: no output waits for review for that path


def cmd_show(args: argparse.Namespace, io: IO) -> int:
    """The output pending review for one file: its text on stdout as it would be written
    (nothing for a deletion); with ``--json`` also its base, its status and the file ids of
    the disk and of the output. Nothing pending for the path: exit 1."""
    from ..errors import EditError

    root = root_of(args)
    ws = None if _no_store(root) else open_workspace(args, root)
    try:
        key = ws.key(args.path) if ws is not None else args.path
    except EditError as e:  # a path the policy refuses
        raise UsageError(e.message) from None
    pending = None
    if ws is not None and ws.session is not None:
        pending = ws.session.pending(key)
    if pending is None:
        message = f"nothing pending for {key}"
        if args.json:
            io.json({"ok": False, "errors": [Problem(NOT_PENDING, message, path=key).to_dict()]})
        else:
            io.err.line(message)
        return EXIT_REJECTED
    assert ws is not None
    row = next(iter(ws.status(only=key)), {})
    if args.json:
        io.json(
            {
                "ok": True,
                "path": key,
                "status": row.get("status", ""),
                "base": pending.base,
                "output": pending.output,
                "file_id": row.get("file_id"),
                "pending_file_id": row.get("pending_file_id"),
            }
        )
        return EXIT_OK
    if pending.output is None:
        io.err.line(f"the model deletes {key}")
    else:
        io.out.write(pending.output)
    return EXIT_OK
