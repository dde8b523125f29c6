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

    p = sub.add_parser("parse", help="read a model's response and print the edits it holds")
    p.add_argument("file", metavar="FILE", help="the response (a path, or - for stdin)")
    p.add_argument("--format", default="auto", help="auto (default) or one format name")
    p.add_argument("--json", action="store_true", help="one JSON object on stdout")
    return parser


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


def console() -> Any:
    from rich.console import Console

    return Console(stderr=True)


COMMANDS = {"parse": cmd_parse}


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
