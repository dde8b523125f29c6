"""The commands about models: ``edit`` (a model does a task on the tree), ``schema``,
``profile``, ``serve`` (the MCP server), ``eval-models`` and ``bench``."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import TYPE_CHECKING, Any

from ..problems import Problem
from .base import EXIT_OK, EXIT_REJECTED, IO, NOT_CONFIRMED, UsageError
from .confirm import NO_TERMINAL, ask
from .edits import merge_model_of, root_of
from .output import show_diff

if TYPE_CHECKING:
    from ..llm import ChatClient, Retry
    from ..session import Session
    from ..workspace import Workspace


def cmd_schema(args: argparse.Namespace, io: IO) -> int:
    from ..prompts import TEXT_MODES, text_instructions
    from ..tools import mode_for, tool_definitions

    if args.mode in TEXT_MODES:  # no tools: the model writes its edits as text
        if args.json:
            io.json({"mode": args.mode, "instructions": text_instructions(args.mode)})
        else:
            io.out.write(text_instructions(args.mode) + "\n")
        return EXIT_OK
    tools = tool_definitions(
        mode_for(mode=args.mode), args.dialect, text_editor=args.text_editor, compat=args.compat
    )
    if args.json:
        io.json({"mode": mode_for(mode=args.mode), "dialect": args.dialect, "tools": tools})
    else:
        io.out.write(json.dumps(tools, indent=2, ensure_ascii=False) + "\n")
    return EXIT_OK


def cmd_profile(args: argparse.Namespace, io: IO) -> int:
    from ..tools import mode_for, parameters_b, profile_for, tool_names

    profile = profile_for(args.model)
    mode = mode_for(profile)
    info = {
        "model": args.model,
        "parameters_b": parameters_b(args.model),
        "profile": profile,
        "mode": mode,
        "tools": [n.split(":")[0] for n in tool_names(mode)],
    }
    if args.json:
        io.json(info)
    else:
        size = f"{info['parameters_b']:g}B" if info["parameters_b"] else "size unknown"
        io.out.line(
            f"{args.model}: {size} -> profile {profile}, mode {mode} "
            f"(tools: {', '.join(info['tools'])})"
        )
    return EXIT_OK


def _client(args: argparse.Namespace, model: str, io: IO | None = None) -> ChatClient:
    from ..llm import ChatClient

    def retrying(r: Retry) -> None:
        assert io is not None
        io.err.line(
            f"{model}: {r.reason}; retrying in {r.wait:g}s ({r.number} of {r.retries})", "yellow"
        )

    try:
        return ChatClient(
            args.endpoint,
            model,
            api_key_env=args.api_key_env,
            timeout=args.timeout,
            on_retry=retrying if io is not None else None,
        )
    except ValueError as e:
        raise UsageError(str(e)) from None


def _check_mode(mode: str | None) -> None:
    from ..prompts import TEXT_MODES
    from ..tools import MODES

    if mode is not None and mode not in MODES and mode not in TEXT_MODES:
        raise UsageError(f"unknown mode {mode!r}; expected one of {MODES + tuple(TEXT_MODES)}")


def cmd_edit(args: argparse.Namespace, io: IO) -> int:
    """The model works with its outputs kept pending review (it sees them, the disk does
    not change); at the end they are shown, and written only when confirmed (or ``--yes``),
    kept pending with ``--review``, dropped on ``--dry-run``, on a refusal, or when the last
    edits did not apply. The last line says what was written."""
    from ..errors import EditError
    from ..llm import LLMError
    from ..loop import EditLoop
    from ..session import Session, SessionError
    from ..tools import mode_for

    if args.max_exchanges < 1:
        raise UsageError("--max-exchanges must be at least 1")
    if args.review and args.dry_run:
        raise UsageError("--review keeps the changes pending and --dry-run drops them: pick one")
    root = root_of(args)
    mode = args.mode or mode_for(model=args.model)
    human = not args.json

    def event(kind: str, data: dict[str, Any]) -> None:
        if not human or kind != "exchange":
            return
        if data["ok"]:
            files = ", ".join(f"{f['path']} ({f['action']})" for f in data["files"]) or "nothing"
            io.err.line(f"exchange {data['number']}: changed: {files}")
        else:
            codes = ", ".join(e["code"] or "?" for e in data["errors"])
            io.err.line(f"exchange {data['number']}: failed ({codes}); feedback sent")

    client = _client(args, args.model, io)
    try:
        # A dry run keeps the model's pending outputs in a store in memory: the root gets no
        # state directory from it.
        scratch = Session(root, in_memory=True) if args.dry_run else None
        ws = _review_workspace(root, scratch)
        if not args.review and _pending(ws):
            raise UsageError(
                "outputs are pending review in this root (applydiff status): accept or discard "
                "them first, or pass --review"
            )
        loop = EditLoop(
            root,
            client,
            mode=mode,
            review=True,
            max_exchanges=args.max_exchanges,
            files=args.file,
            on_event=event,
            session=scratch,
        )
    except (EditError, SessionError) as e:
        raise UsageError(getattr(e, "message", str(e))) from None
    try:
        result = loop.run(args.task)
    except LLMError as e:
        if not args.review:
            ws.discard(_pending(ws))
        message = f"{e}; nothing was written"
        if args.json:
            io.json(
                {
                    "ok": False,
                    "mode": mode,
                    "errors": [Problem("endpoint", message).to_dict()],
                    "written": [],
                }
            )
        else:
            io.err.line(f"applydiff: {message}")
        return EXIT_REJECTED
    except EditError as e:  # a --file the policy refuses
        if not args.review:
            ws.discard(_pending(ws))
        raise UsageError(e.message) from None
    except KeyboardInterrupt:  # stopped by the person: what the model did is dropped
        if not args.review:
            ws.discard(_pending(ws))
        raise
    finally:
        loop.close()
    how = {
        "done": "the model is done",
        "max_exchanges": f"stopped after {args.max_exchanges} exchange(s)",
        "max_requests": "stopped: too many requests",
    }[result.stop]
    how += f" (mode {mode}, {result.requests} request(s))"
    pending = _pending(ws)
    if human:
        _show_pending(ws, pending, io)
        if result.answer:
            io.err.line(result.answer.strip())
    written: list[str] = []
    kept: list[str] = []
    if not pending:
        state = "nothing was written: " + ("no change" if result.exchanges else "no edits")
    elif args.review:
        kept = pending
        state = f"kept {len(pending)} file(s) pending review: {', '.join(pending)}"
    elif not result.ok:
        ws.discard(pending)
        state = "nothing was written: the model's last edits did not apply"
    elif args.dry_run:
        ws.discard(pending)
        state = f"nothing was written (dry run): {len(pending)} file(s) would change"
    else:
        answer = True if args.yes else ask(io, f"Write {len(pending)} file(s)?", stdin_free=True)
        if not answer:
            ws.discard(pending)
            state = NO_TERMINAL if answer is None else "not applied; nothing was written"
            if args.json:
                io.json(_edit_json(mode, result, [], [], state, confirmed=False))
            else:
                io.err.line(state)
            return EXIT_REJECTED
        accepted = ws.accept(pending)
        written = [f.path for f in accepted.files] if accepted.ok else []
        if accepted.ok:
            state = f"wrote {len(written)} file(s): {', '.join(written)}"
        else:
            ws.discard(pending)
            reasons = "; ".join(e.message for e in accepted.errors)
            state = f"nothing was written: {reasons}"
            result.ok = False
    if args.json:
        io.json(_edit_json(mode, result, written, kept, state))
    else:
        io.err.line(f"{state}; {how}")
    return EXIT_OK if result.ok else EXIT_REJECTED


def _edit_json(
    mode: str,
    result: Any,
    written: list[str],
    kept: list[str],
    state: str,
    *,
    confirmed: bool = True,
) -> dict[str, Any]:
    out: dict[str, Any] = {"mode": mode, **result.to_dict()}
    if not confirmed:
        out["ok"] = False
        out["errors"] = [Problem(NOT_CONFIRMED, state).to_dict()]
    out["written"] = written
    if kept:
        out["pending"] = kept
    out["summary"] = state
    return out


def _review_workspace(root: str, session: Session | None = None) -> Workspace:
    from ..workspace import Workspace

    return Workspace(root, session=session or True, model_view=False)


def _pending(ws: Workspace) -> list[str]:
    return [r["path"] for r in ws.status() if "pending_file_id" in r]


def _show_pending(ws: Workspace, paths: list[str], io: IO) -> None:
    """The pending outputs of ``paths`` as a diff against the disk, on stdout."""
    from ..results import Result

    changes = []
    for path in paths:
        read = ws.read_base(path, review=True)
        changes.append((path, read.text, read.base))
    result = Result(True, True, changes=changes)
    show_diff(io, result)


def cmd_eval_models(args: argparse.Namespace, io: IO) -> int:
    from pathlib import Path

    from ..evals import replay as replay_mod
    from ..evals import report, run, tasks
    from ..llm import LLMError

    try:
        suite = Path(args.suite) if args.suite else tasks.default_suite()
        names = [t.strip() for t in args.tasks.split(",") if t.strip()] if args.tasks else None
        suite_tasks = tasks.load_suite(suite, names)
    except (FileNotFoundError, ValueError) as e:
        raise UsageError(str(e)) from None
    progress = sys.stderr.isatty()
    if args.replay:
        try:
            recorded = replay_mod.load_all(Path(args.replay))
            ev = run.replay(
                suite_tasks, recorded, max_exchanges=args.max_exchanges, progress=progress
            )
        except ValueError as e:
            raise UsageError(str(e)) from None
    else:
        if not args.endpoint or not args.model:
            raise UsageError("eval-models needs --endpoint and --model (or --replay DIR)")
        modes = (
            [m.strip() for m in args.modes.split(",") if m.strip()]
            if args.modes
            else list(run.DEFAULT_MODES)
        )
        for mode in modes:
            _check_mode(mode)
        if args.runs < 1 or args.max_exchanges < 1:
            raise UsageError("--runs and --max-exchanges must be at least 1")
        clients = {m: _client(args, m, io) for m in args.model}
        try:
            ev = run.evaluate(
                suite_tasks,
                models=args.model,
                modes=modes,
                runs=args.runs,
                client_for=clients.__getitem__,
                max_exchanges=args.max_exchanges,
                endpoint=args.endpoint,
                progress=progress,
            )
        except LLMError as e:
            raise UsageError(str(e)) from None
    paths = report.write(ev, Path(args.out))
    scores = {
        model: {mode: list(ev.score(model, mode)) for mode in ev.meta["modes"]}
        for model in ev.meta["models"]
    }
    if args.json:
        io.json({"ok": True, "scores": scores, "report": str(paths["report"])})
        return EXIT_OK
    for model, cells in scores.items():
        io.out.line(f"{model}: " + ", ".join(f"{m} {p}/{n}" for m, (p, n) in cells.items()))
    io.out.line(f"report: {paths['report']}")
    return EXIT_OK


def cmd_batch(args: argparse.Namespace, io: IO) -> int:
    """``applydiff batch``: the batch package's own command (its output conventions are the
    same: records or a summary on stdout, progress on stderr)."""
    from ..batch.cli import run_batch

    return run_batch(args)


def cmd_bench(args: argparse.Namespace, io: IO) -> int:
    from pathlib import Path

    from ..bench import run as bench_run

    if args.emit_batch is not None:  # records for `applydiff batch`, not a benchmark run
        from ..batch.cli import emit_batch

        return emit_batch(args.emit_batch, args.seed, mix=args.batch_mix)
    engines = [e.strip() for e in args.engines.split(",") if e.strip()] if args.engines else None
    try:
        result = bench_run.run(
            quick=args.quick,
            engines=engines,
            files=args.files,
            seed=args.seed,
            per_kind=args.per_kind,
            progress=sys.stderr.isatty() or bool(os.environ.get("FORCE_COLOR")),
        )
    except ValueError as e:
        raise UsageError(str(e)) from None
    paths = bench_run.write(result, Path(args.out))
    totals = {engine: result.totals(engine) for engine in result.accuracy}
    if args.json:
        io.json(
            {"ok": True, "totals": totals, "notes": result.notes, "report": str(paths["report"])}
        )
        return EXIT_OK
    for engine, t in totals.items():
        io.out.line(
            f"{engine}: {t['correct']} correct, {t['whitespace_off']} whitespace off, "
            f"{t['refused']} refused, {t['misapplied']} misapplied"
        )
    for note in result.notes:
        io.err.line(note)
    io.out.line(f"report: {paths['report']}")
    return EXIT_OK


def cmd_serve(args: argparse.Namespace, io: IO) -> int:
    from ..tools import mode_for

    if args.json:
        raise UsageError("serve speaks MCP on stdout; --json does not apply")
    try:
        mode = mode_for(profile=args.profile, model=args.model, mode=args.mode)
    except ValueError as e:
        raise UsageError(str(e)) from None
    try:
        from ..mcp_server import serve
    except ModuleNotFoundError as e:
        raise UsageError(
            f"the MCP server needs the mcp package ({e.name} is missing): "
            "pip install 'applydiff[mcp]'"
        ) from None
    from ..errors import EditError
    from ..session import SessionError

    root = root_of(args)
    if not os.path.isdir(root):
        raise UsageError(f"the root {root!r} is not a directory")
    merge_model = merge_model_of(args)
    try:
        serve(
            root,
            mode=mode,
            review=args.review,
            text_editor=args.text_editor,
            compat=args.compat,
            merge_model=merge_model,
        )
    except (EditError, SessionError) as e:  # raised while opening the root, before serving
        raise UsageError(getattr(e, "message", str(e))) from None
    return EXIT_OK
