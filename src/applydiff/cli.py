"""The ``applydiff`` command line.

Human output goes to stderr (rich); with ``--json`` exactly one JSON object goes to stdout.
Exit codes: 0 done (or would be done), 1 rejected (an edit error: nothing written), 2 the
command itself was wrong (unknown flag, unreadable input).
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from . import __version__

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

    p = sub.add_parser("call", help="run one edit tool call (write_file, edit_file, ...)")
    p.add_argument(
        "tool", metavar="TOOL", help="write_file, edit_file, diff_edit, apply_diff or apply_patch"
    )
    p.add_argument("--args", required=True, metavar="JSON", help="the call's arguments (JSON)")
    _common(p)
    p.add_argument("--dry-run", "--check", action="store_true", help="preview; write nothing")

    p = sub.add_parser("parse", help="read a model's response and print the edits it holds")
    p.add_argument("file", metavar="FILE", help="the response (a path, or - for stdin)")
    p.add_argument("--format", default="auto", help="auto (default) or one format name")
    p.add_argument("--json", action="store_true", help="one JSON object on stdout")
    return parser


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


def open_workspace(args: argparse.Namespace) -> Any:
    from .errors import EditError
    from .workspace import Workspace

    if args.threshold is not None and not 0.0 < args.threshold <= 1.0:
        raise UsageError(f"--threshold must be in (0, 1], not {args.threshold}")
    try:
        return Workspace(args.root, threshold=args.threshold)
    except EditError as e:
        raise UsageError(e.message) from None


def cmd_apply(args: argparse.Namespace) -> int:
    from .formats import FORMATS

    if args.format not in ("auto", *FORMATS):
        raise UsageError(f"unknown format {args.format!r}; expected auto or one of {FORMATS}")
    text = read_input(args.file)
    ws = open_workspace(args)
    return finish(ws, ws.apply(text, dry_run=True, format=args.format), args)


def cmd_call(args: argparse.Namespace) -> int:
    try:
        arguments = json.loads(args.args)
    except json.JSONDecodeError as e:
        raise UsageError(f"--args is not valid JSON: {e.msg} at column {e.colno}") from None
    ws = open_workspace(args)
    call = json.dumps({"name": args.tool, "arguments": arguments})
    args.file = "<call>"  # a person at a terminal is asked before writing
    return finish(ws, ws.apply(call, dry_run=True, format="tool_calls"), args)


def finish(ws: Any, result: Any, args: argparse.Namespace) -> int:
    """Show the planned change, confirm when a person is at the terminal, then commit."""
    out = None if args.json else console()
    if out is not None:
        show(out, result)
    if result.ok and not args.dry_run:
        if not args.yes and args.file not in (None, "-") and sys.stdin.isatty():
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
            else:
                show_errors(out, result)
    elif out is not None and result.ok:
        out.print(f"would apply to {len(result.files)} file(s); nothing was written (dry run)")
    if args.json:
        emit_json(result.to_dict())
    return EXIT_OK if result.ok else EXIT_REJECTED


def show(out: Any, result: Any) -> None:
    from rich.text import Text

    for path, diff in result.diffs():
        action = next((f for f in result.files if f["path"] == path), None)
        label = (
            f" ({action['action']}" + (f" to {action['to']}" if "to" in action else "") + ")"
            if action
            else ""
        )
        out.print(Text(f"{path}{label}", style="bold"))
        for line in diff.splitlines():
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
    for e in result.edits:
        lines = f" lines {e['start_line']}-{e['end_line']}" if e["start_line"] else ""
        out.print(
            Text(f"edit {e['index']}: {e['path']}{lines}: {e['tier']} ({e['confidence']:.2f})")
        )
    show_errors(out, result)


def show_errors(out: Any, result: Any) -> None:
    from rich.text import Text

    for e in result.errors:
        where = " ".join(
            x
            for x in (
                e.get("path") or "",
                f"(edit {e['index']})" if e.get("index") is not None else "",
            )
            if x
        )
        line = Text(f"{e['code']}", style="bold red")
        line.append(f" {where}: " if where else ": ")
        line.append(e["message"])
        out.print(line)


def console() -> Any:
    """Human output on stderr: styled on a terminal, plain otherwise or when NO_COLOR is set."""
    import os

    from rich.console import Console

    if os.environ.get("NO_COLOR"):
        return Console(stderr=True, color_system=None, highlight=False)
    return Console(stderr=True, highlight=False)


COMMANDS = {"apply": cmd_apply, "call": cmd_call, "parse": cmd_parse}


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
