"""The ``applydiff`` command line.

Human output goes to stderr (rich); with ``--json`` exactly one JSON object goes to stdout.
Exit codes: 0 done (or would be done), 1 rejected (an edit error: nothing written), 2 the
command itself was wrong (unknown flag, unreadable input).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

from .evals.tasks import shipped_task_names
from .text import line_texts
from .version import __version__

if TYPE_CHECKING:  # loaded when a command needs them, so that --help stays fast
    from rich.console import Console

    from .llm import ChatClient
    from .results import Result
    from .workspace import Workspace

EXIT_OK, EXIT_REJECTED, EXIT_USAGE = 0, 1, 2


class UsageError(Exception):
    """The command cannot run (exit 2)."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="applydiff",
        description="Turn what language models write about files into correct file changes.",
    )
    parser.add_argument("--version", action="version", version=f"applydiff {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("apply", help="apply a model's response to a tree (all files or none)")
    p.add_argument("file", metavar="FILE", nargs="?", default="-", help="the response (default -)")
    _common(p)
    p.add_argument("--format", default="auto", help="auto (default) or one format name")
    p.add_argument("--dry-run", "--check", action="store_true", help="preview; write nothing")
    p.add_argument(
        "--review", action="store_true", help="keep the outputs pending for accept/merge/discard"
    )
    p.add_argument(
        "--keep-narration",
        action="store_true",
        help="keep the comments of lazy snippets that narrate the edit "
        "('// Add a new method to Foo'), which are otherwise left out",
    )

    p = sub.add_parser("call", help="run one edit tool call (write_file, edit_file, ...)")
    p.add_argument(
        "tool", metavar="TOOL", help="write_file, edit_file, diff_edit, apply_diff or apply_patch"
    )
    p.add_argument("--args", required=True, metavar="JSON", help="the call's arguments (JSON)")
    _common(p)
    p.add_argument("--dry-run", "--check", action="store_true", help="preview; write nothing")

    for name, text in (
        (
            "status",
            "the session's files: M modified, A added, D deleted (pending), ~ changed "
            "on disk, ~M conflict",
        ),
        ("accept", "write pending outputs to disk"),
        ("discard", "drop pending outputs"),
        ("merge", "three-way merge pending outputs with the files on disk"),
        ("undo", "restore the files of the last commit (or one file's last change)"),
    ):
        p = sub.add_parser(name, help=text)
        if name in ("accept", "discard", "merge"):
            p.add_argument("paths", metavar="PATH", nargs="*", help="only these files")
        if name == "undo":
            p.add_argument(
                "path", metavar="PATH", nargs="?", help="only this file, from its last change"
            )
        p.add_argument("--root", default=".", help="the project root (default: .)")
        p.add_argument("--json", action="store_true", help="print one JSON object")

    p = sub.add_parser("schema", help="print the tool definitions for a diff mode")
    p.add_argument("--mode", default=None, help="diff mode (default: search_replace_multi)")
    p.add_argument("--dialect", default="openai", help="openai, anthropic or mcp")
    p.add_argument("--text-editor", action="store_true", help="add the text-editor tool")
    p.add_argument("--compat", default=None, help=_COMPAT_HELP)

    p = sub.add_parser("profile", help="the profile and diff mode for a model name")
    p.add_argument("model", metavar="MODEL")
    p.add_argument("--json", action="store_true", help="print one JSON object")

    p = sub.add_parser("serve", help="run the MCP server (stdio) for a root")
    p.add_argument("--root", default=".", help="the project root (default: .)")
    p.add_argument("--mode", default=None, help="diff mode (default: from the profile)")
    group = p.add_mutually_exclusive_group()
    group.add_argument("--model", default=None, help="pick the profile from this model name")
    group.add_argument("--profile", default=None, help="nano, minimal or full")
    p.add_argument("--review", action="store_true", help="keep outputs pending for review")
    p.add_argument("--text-editor", action="store_true", help="also expose the text-editor tool")
    p.add_argument("--compat", default=None, help=_COMPAT_HELP)

    p = sub.add_parser(
        "edit", help="let a model do TASK on the tree (an OpenAI-compatible endpoint)"
    )
    p.add_argument("task", metavar="TASK", help="what to do, in words")
    _endpoint(p)
    p.add_argument("--model", required=True, help="the model name the endpoint serves")
    p.add_argument("--root", default=".", help="the project root (default: .)")
    p.add_argument("--mode", default=None, help="diff mode or text mode (default: the profile's)")
    p.add_argument("--max-exchanges", type=int, default=3, help="answers with edits (default 3)")
    p.add_argument(
        "--file",
        action="append",
        default=None,
        metavar="PATH",
        help="show this file up front (repeatable; default: a small tree whole)",
    )
    p.add_argument("--review", action="store_true", help="keep outputs pending for review")
    p.add_argument("--json", action="store_true", help="print one JSON object")

    p = sub.add_parser("eval-models", help="score models x modes on the edit task suite")
    _endpoint(p, required=False)
    p.add_argument("--model", action="append", default=None, help="a model (repeatable)")
    p.add_argument(
        "--modes",
        default=None,
        help="comma-separated (default: anchored,search_replace,search_replace_multi)",
    )
    p.add_argument(
        "--tasks",
        default=None,
        help="comma-separated task names (default: all of the shipped suite: "
        + ", ".join(shipped_task_names())
        + ")",
    )
    p.add_argument("--runs", type=int, default=1, help="runs per task (default 1)")
    p.add_argument("--max-exchanges", type=int, default=3)
    p.add_argument(
        "--suite", default=None, help="the task suite (default: the one shipped with applydiff)"
    )
    p.add_argument("--out", default="applydiff-eval", help="directory for the report")
    p.add_argument(
        "--replay",
        default=None,
        metavar="DIR",
        help="re-score the transcripts of an earlier run instead of calling models",
    )

    p = sub.add_parser("bench", help="accuracy and speed next to other edit engines, with charts")
    p.add_argument("--quick", action="store_true", help="a small run (under a minute)")
    p.add_argument("--out", default="applydiff-bench", help="directory for the report")
    p.add_argument("--engines", default=None, help="comma-separated (applydiff,exact,aider,dmp)")
    p.add_argument("--files", default=None, help="glob of source files (default: the stdlib)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--per-kind", type=int, default=None, help="cases per kind of edit")

    p = sub.add_parser("parse", help="read a model's response and print the edits it holds")
    p.add_argument("file", metavar="FILE", help="the response (a path, or - for stdin)")
    p.add_argument("--format", default="auto", help="auto (default) or one format name")
    p.add_argument("--json", action="store_true", help="one JSON object on stdout")
    return parser


def _endpoint(p: argparse.ArgumentParser, *, required: bool = True) -> None:
    p.add_argument(
        "--endpoint",
        required=required,
        metavar="URL",
        help="OpenAI-compatible base URL, e.g. http://127.0.0.1:8080/v1",
    )
    p.add_argument(
        "--api-key-env",
        default="OPENAI_API_KEY",
        metavar="VAR",
        help="environment variable holding the API key (default OPENAI_API_KEY)",
    )
    p.add_argument("--timeout", type=float, default=300.0, help="seconds per request")


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--root", default=".", help="the project root (default: the current directory)")
    p.add_argument("--yes", "-y", action="store_true", help="apply without asking")
    p.add_argument("--json", action="store_true", help="print the result as one JSON object")
    p.add_argument("--threshold", type=float, default=None, help="fuzzy threshold in (0, 1]")


def read_input(name: str) -> str:
    """The text of FILE or stdin (``-``), decoded as UTF-8 with a BOM allowed."""
    try:
        data = sys.stdin.buffer.read() if name == "-" else open(name, "rb").read()  # noqa: SIM115
    except OSError as e:
        raise UsageError(f"cannot read {name}: {e.strerror}") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise UsageError(f"{name} is not UTF-8 text (byte {e.start})") from None


def emit_json(obj: dict[str, Any]) -> None:
    sys.stdout.write(json.dumps(obj, ensure_ascii=False) + "\n")
    sys.stdout.flush()


def cmd_parse(args: argparse.Namespace) -> int:
    from .errors import EditError
    from .formats import FORMATS, parse
    from .ir import op_to_dict

    if args.format not in ("auto", *FORMATS):
        raise UsageError(f"unknown format {args.format!r}; expected auto or one of {FORMATS}")
    text = read_input(args.file)
    try:
        ops = parse(text, args.format)
    except EditError as e:
        if args.json:
            emit_json({"ok": False, "ops": [], "error": e.to_dict()})
        else:
            console().print(f"[red]{e.code}[/red]: {e.message}", markup=True, highlight=False)
        return EXIT_REJECTED
    if args.json:
        emit_json({"ok": True, "ops": [op_to_dict(op) for op in ops]})
    else:
        out = console()
        if not ops:
            out.print("no edits found")
        for k, op in enumerate(ops):
            d = op_to_dict(op)
            where = f" (line {op.origin})" if op.origin else ""
            extra = f" -> {d['to']}" if "to" in d else ""
            out.print(f"{k}: {d['op']} {op.path}{extra}{where}", markup=False, highlight=False)
    return EXIT_OK


def open_workspace(
    args: argparse.Namespace, *, store: bool = True, optional: bool = False
) -> Workspace:
    """The root as a person at a terminal works on it: edits go against the disk (or, in
    review mode, the outputs pending review), and every commit is recorded for ``undo``.
    Without ``store`` (a preview) the session store is used only if the root has one. With
    ``optional`` (a plain apply), a store that cannot be opened is a warning, not an error:
    the edit goes ahead, unrecorded (the workspace says so in each result)."""
    from pathlib import Path

    from .errors import EditError
    from .policy import STATE_DIR
    from .session import SessionError
    from .workspace import Workspace

    threshold = getattr(args, "threshold", None)
    if threshold is not None and not 0.0 < threshold <= 1.0:
        raise UsageError(f"--threshold must be in (0, 1], not {threshold}")
    try:
        session = store or (Path(args.root) / STATE_DIR / "session.db").is_file()
        return Workspace(
            args.root,
            threshold=threshold,
            session=session,
            store_optional=optional,
            model_view=False,
        )
    except (EditError, SessionError) as e:
        raise UsageError(getattr(e, "message", str(e))) from None
    except OSError as e:  # the state directory (.applydiff) cannot be made or read
        raise UsageError(f"cannot use {args.root}: {e.strerror} ({e.filename})") from None


def cmd_apply(args: argparse.Namespace) -> int:
    from .formats import FORMATS

    if args.format not in ("auto", *FORMATS):
        raise UsageError(f"unknown format {args.format!r}; expected auto or one of {FORMATS}")
    text = read_input(args.file)
    ws = open_workspace(args, store=args.review or not args.dry_run, optional=not args.review)
    if args.review:
        result = ws.apply(
            text,
            review=True,
            dry_run=args.dry_run,
            format=args.format,
            keep_narration=args.keep_narration,
        )
        return report_review(result, args)
    # A response read from stdin leaves no stdin to answer a confirmation on.
    preview = ws.apply(
        text, dry_run=True, format=args.format, keep_narration=args.keep_narration
    )
    return finish(ws, preview, args, ask=args.file != "-")


def report_review(result: Result, args: argparse.Namespace) -> int:
    """Output of a review-mode apply: the diffs, and that the outputs wait for a decision."""
    out = None if args.json else console()
    if out is not None:
        show(out, result)
        if result.ok and result.review:
            out.print(
                f"kept {len(result.files)} file(s) pending: applydiff status, then accept, "
                "merge or discard"
            )
    if args.json:
        emit_json(result.to_dict())
    return EXIT_OK if result.ok else EXIT_REJECTED


def cmd_status(args: argparse.Namespace) -> int:
    ws = open_workspace(args)
    rows = ws.status()
    if args.json:
        emit_json({"ok": True, "files": rows})
    else:
        out = console()
        for r in rows:
            out.print(f"{r['status'] or ' ':<2} {r['path']}", markup=False, highlight=False)
        if not rows:
            out.print("no files in the session")
    return EXIT_OK


def cmd_resolve(args: argparse.Namespace) -> int:
    """accept, discard, merge, undo."""
    ws = open_workspace(args)
    try:
        if args.command == "undo":
            result = ws.undo(args.path)
        else:
            result = getattr(ws, args.command)(args.paths)
    except Exception as e:  # a path the policy refuses
        from .errors import EditError

        if isinstance(e, EditError):
            raise UsageError(e.message) from None
        raise
    if args.json:
        emit_json(result.to_dict())
    else:
        out = console()
        for f in result.files:
            extra = f" ({len(f.conflicts)} conflict(s))" if f.conflicts else ""
            out.print(f"{f.action}: {f.path}{extra}", markup=False, highlight=False)
        show_errors(out, result)
        show_warnings(out, result)
        if not result.files and result.ok:
            out.print("nothing pending")
    if args.command == "merge":
        return EXIT_OK if not result.errors else EXIT_REJECTED
    return EXIT_OK if result.ok else EXIT_REJECTED


_COMPAT_HELP = (
    "offer another tool set under the names agents expect: filesystem (the reference MCP "
    "filesystem server's), fast-apply (edit_file with code_edit) or anthropic (the text editor)"
)


def _check_compat(compat: str | None) -> None:
    from .compat import check

    if compat is not None:
        try:
            check(compat)
        except ValueError as e:
            raise UsageError(str(e)) from None


def cmd_schema(args: argparse.Namespace) -> int:
    from .tools import DIALECTS, MODES, mode_for, tool_definitions

    if args.dialect not in DIALECTS:
        raise UsageError(f"unknown dialect {args.dialect!r}; expected one of {DIALECTS}")
    if args.mode is not None and args.mode not in MODES:
        raise UsageError(f"unknown mode {args.mode!r}; expected one of {MODES}")
    _check_compat(args.compat)
    tools = tool_definitions(
        mode_for(mode=args.mode), args.dialect, text_editor=args.text_editor, compat=args.compat
    )
    sys.stdout.write(json.dumps(tools, indent=2, ensure_ascii=False) + "\n")
    return EXIT_OK


def cmd_profile(args: argparse.Namespace) -> int:
    from .tools import mode_for, parameters_b, profile_for, tool_names

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
        emit_json(info)
    else:
        size = f"{info['parameters_b']:g}B" if info["parameters_b"] else "size unknown"
        console().print(
            f"{args.model}: {size} -> profile {profile}, mode {mode} "
            f"(tools: {', '.join(info['tools'])})",
            markup=False,
            highlight=False,
        )
    return EXIT_OK


def cmd_call(args: argparse.Namespace) -> int:
    try:
        arguments = json.loads(args.args)
    except json.JSONDecodeError as e:
        raise UsageError(f"--args is not valid JSON: {e.msg} at column {e.colno}") from None
    except RecursionError:
        raise UsageError("--args is nested too deeply to read") from None
    ws = open_workspace(args, store=not args.dry_run, optional=True)
    call = json.dumps({"name": args.tool, "arguments": arguments})
    return finish(ws, ws.apply(call, dry_run=True, format="tool_calls"), args, ask=True)


def finish(ws: Workspace, result: Result, args: argparse.Namespace, *, ask: bool) -> int:
    """Show the planned change, confirm when a person is at the terminal, then commit.
    ``ask``: whether stdin is free for the answer (a response read from it is not); the
    person is asked only then, on a terminal, without ``--yes``."""
    out = None if args.json else console()
    if out is not None:
        show(out, result)
    if result.ok and not args.dry_run:
        if ask and not args.yes and sys.stdin.isatty():
            if out is None:
                out = console()
            answer = out.input(f"Apply to {len(result.files)} file(s)? [y/N] ")
            if answer.strip().lower() not in ("y", "yes"):
                out.print("not applied; nothing was written")
                return EXIT_REJECTED
        ws.commit(result)
        if out is not None:
            if result.ok:
                out.print(f"[green]applied[/green] to {len(result.files)} file(s)")
                show_warnings(out, result)
            else:
                show_errors(out, result)
    elif out is not None and result.ok:
        out.print(f"would apply to {len(result.files)} file(s); nothing was written (dry run)")
    if args.json:
        emit_json(result.to_dict())
    return EXIT_OK if result.ok else EXIT_REJECTED


def show(out: Console, result: Result) -> None:
    from rich.text import Text

    for path, diff in result.diffs():
        action = next((f for f in result.files if f.path == path), None)
        label = (
            f" ({action.action}" + (f" to {action.to}" if action.to is not None else "") + ")"
            if action
            else ""
        )
        out.print(Text(f"{path}{label}", style="bold"))
        # The diff's lines as its own newlines end them (a form feed or U+2028 in a line
        # is the line's).
        for line in line_texts(diff, cr=False):
            style = (
                "bold"
                if line.startswith(("+++", "---"))
                else "green"
                if line.startswith("+")
                else "red"
                if line.startswith("-")
                else "cyan"
                if line.startswith("@@")
                else ""
            )
            out.print(Text(line, style=style), soft_wrap=True)
    for r in result.edits:
        lines = f" lines {r.start_line}-{r.end_line}" if r.start_line else ""
        out.print(Text(f"edit {r.index}: {r.path}{lines}: {r.label} ({r.confidence:.2f})"))
    show_errors(out, result)


def show_errors(out: Console, result: Result) -> None:
    from rich.text import Text

    for e in result.errors:
        where = " ".join(
            x
            for x in (
                e.path or "",
                f"(edit {e.index})" if e.index is not None else "",
            )
            if x
        )
        line = Text(f"{e.code}", style="bold red")
        line.append(f" {where}: " if where else ": ")
        line.append(e.message)
        out.print(line)


def show_warnings(out: Console, result: Result) -> None:
    for w in result.warnings:
        out.print(f"warning: {w}", markup=False, highlight=False)


def console() -> Console:
    """Human output on stderr: styled on a terminal, plain otherwise or when NO_COLOR is set."""
    import os

    from rich.console import Console

    if os.environ.get("NO_COLOR"):
        return Console(stderr=True, color_system=None, highlight=False)
    return Console(stderr=True, highlight=False)


def cmd_bench(args: argparse.Namespace) -> int:
    from pathlib import Path

    from .bench import run as bench_run

    engines = [e.strip() for e in args.engines.split(",") if e.strip()] if args.engines else None
    try:
        result = bench_run.run(
            quick=args.quick,
            engines=engines,
            files=args.files,
            seed=args.seed,
            per_kind=args.per_kind,
            progress=sys.stderr.isatty() or bool(__import__("os").environ.get("FORCE_COLOR")),
        )
    except ValueError as e:
        raise UsageError(str(e)) from None
    paths = bench_run.write(result, Path(args.out))
    out = console()
    for engine in result.accuracy:
        t = result.totals(engine)
        out.print(
            f"{engine}: {t['correct']} correct, {t['whitespace_off']} whitespace off, "
            f"{t['refused']} refused, {t['misapplied']} misapplied",
            markup=False,
            highlight=False,
        )
    for note in result.notes:
        out.print(note, markup=False, highlight=False)
    out.print(f"report: {paths['report']}", markup=False, highlight=False)
    return EXIT_OK


def _client(args: argparse.Namespace, model: str) -> ChatClient:
    from .llm import ChatClient

    try:
        return ChatClient(args.endpoint, model, api_key_env=args.api_key_env, timeout=args.timeout)
    except ValueError as e:
        raise UsageError(str(e)) from None


def _check_mode(mode: str | None) -> None:
    from .prompts import TEXT_MODES
    from .tools import MODES

    if mode is not None and mode not in MODES and mode not in TEXT_MODES:
        raise UsageError(f"unknown mode {mode!r}; expected one of {MODES + tuple(TEXT_MODES)}")


def cmd_edit(args: argparse.Namespace) -> int:
    from .errors import EditError
    from .llm import LLMError
    from .loop import EditLoop
    from .session import SessionError
    from .tools import mode_for

    _check_mode(args.mode)
    if args.max_exchanges < 1:
        raise UsageError("--max-exchanges must be at least 1")
    mode = args.mode or mode_for(model=args.model)
    out = None if args.json else console()

    def event(kind: str, data: dict[str, Any]) -> None:
        if out is None or kind != "exchange":
            return
        if data["ok"]:
            files = ", ".join(f"{f['path']} ({f['action']})" for f in data["files"]) or "nothing"
            out.print(f"exchange {data['number']}: applied: {files}", markup=False)
        else:
            codes = ", ".join(e["code"] or "?" for e in data["errors"])
            out.print(f"exchange {data['number']}: failed ({codes}); feedback sent", markup=False)

    try:
        loop = EditLoop(
            args.root,
            _client(args, args.model),
            mode=mode,
            review=args.review,
            max_exchanges=args.max_exchanges,
            files=args.file,
            on_event=event,
        )
    except (EditError, SessionError) as e:
        raise UsageError(getattr(e, "message", str(e))) from None
    try:
        result = loop.run(args.task)
    except LLMError as e:
        raise UsageError(str(e)) from None
    except EditError as e:  # a --file the policy refuses
        raise UsageError(e.message) from None
    finally:
        loop.close()
    if out is not None:
        how = {
            "done": "the model is done",
            "max_exchanges": f"stopped after {args.max_exchanges} exchange(s)",
            "max_requests": "stopped: too many requests",
        }[result.stop]
        state = "applied" if result.ok else "not applied" if result.exchanges else "no edits"
        out.print(f"{state}; {how} (mode {mode}, {result.requests} request(s))", markup=False)
        if result.answer:
            out.print(result.answer.strip(), markup=False, highlight=False)
    if args.json:
        emit_json({"mode": mode, **result.to_dict()})
    return EXIT_OK if result.ok else EXIT_REJECTED


def cmd_eval_models(args: argparse.Namespace) -> int:
    from pathlib import Path

    from .evals import replay as replay_mod
    from .evals import report, run, tasks
    from .llm import LLMError

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
        clients = {m: _client(args, m) for m in args.model}
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
    out = console()
    for model in ev.meta["models"]:
        cells = ", ".join(
            f"{mode} {p}/{n}" for mode in ev.meta["modes"] for p, n in [ev.score(model, mode)]
        )
        out.print(f"{model}: {cells}", markup=False, highlight=False)
    out.print(f"report: {paths['report']}", markup=False, highlight=False)
    return EXIT_OK


def cmd_serve(args: argparse.Namespace) -> int:
    from .tools import mode_for

    try:
        mode = mode_for(profile=args.profile, model=args.model, mode=args.mode)
    except ValueError as e:
        raise UsageError(str(e)) from None
    try:
        from .mcp_server import serve
    except ModuleNotFoundError as e:
        raise UsageError(
            f"the MCP server needs the mcp package ({e.name} is missing): "
            "pip install 'applydiff[mcp]'"
        ) from None
    import os

    from .errors import EditError
    from .session import SessionError

    if not os.path.isdir(args.root):
        raise UsageError(f"the root {args.root!r} is not a directory")
    _check_compat(args.compat)
    try:
        serve(
            args.root,
            mode=mode,
            review=args.review,
            text_editor=args.text_editor,
            compat=args.compat,
        )
    except (EditError, SessionError) as e:  # raised while opening the root, before serving
        raise UsageError(getattr(e, "message", str(e))) from None
    return EXIT_OK


COMMANDS = {
    "apply": cmd_apply,
    "call": cmd_call,
    "parse": cmd_parse,
    "status": cmd_status,
    "accept": cmd_resolve,
    "discard": cmd_resolve,
    "merge": cmd_resolve,
    "undo": cmd_resolve,
    "schema": cmd_schema,
    "profile": cmd_profile,
    "serve": cmd_serve,
    "bench": cmd_bench,
    "edit": cmd_edit,
    "eval-models": cmd_eval_models,
}


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:  # argparse exits 2 on usage errors, 0 on --help/--version
        return int(e.code or 0)
    if args.command is None:
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    try:
        return COMMANDS[args.command](args)
    except UsageError as e:
        print(f"applydiff: {e}", file=sys.stderr)
        return EXIT_USAGE


if __name__ == "__main__":
    sys.exit(main())
