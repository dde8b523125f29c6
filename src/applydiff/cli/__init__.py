"""The ``applydiff`` command line.

Results go to stdout: the diff preview (a patch file when redirected), the status and parse
listings, profiles, ``--stat``/``--numstat``, reports. Diagnostics, warnings, progress and the
confirmation prompt go to stderr. With ``--json`` (anywhere on the command line) stdout holds
exactly one JSON object, also for a wrong command. Colour only on a terminal
(``--color=auto|always|never``, NO_COLOR, FORCE_COLOR; the flag wins), and no line is ever
wrapped. Exit codes: 0 done (or would be done), 1 rejected or not confirmed (nothing
written), 2 the command itself was wrong.

The commands live in :mod:`.edits` (apply, call, parse and the review verbs) and :mod:`.model`
(edit, schema, profile, serve, eval-models, bench); the arguments in :mod:`.parser`.
"""

from __future__ import annotations

import argparse
import contextlib
import io as io_module
import sys
from collections.abc import Callable

from .base import EXIT_USAGE, IO, UsageError, usage_json

__all__ = ["commands", "main"]


def commands() -> dict[str, Callable[[argparse.Namespace, IO], int]]:
    """Command name -> its function (imported here, not with the package: ``apply_patch``
    uses :mod:`.base` and :mod:`.output` without the parser's imports)."""
    from .edits import (
        cmd_apply,
        cmd_call,
        cmd_parse,
        cmd_recover,
        cmd_resolve,
        cmd_show,
        cmd_status,
        cmd_verify_merge,
    )
    from .model import (
        cmd_batch,
        cmd_bench,
        cmd_edit,
        cmd_eval_models,
        cmd_profile,
        cmd_schema,
        cmd_serve,
    )

    return {
        "apply": cmd_apply,
        "call": cmd_call,
        "parse": cmd_parse,
        "verify-merge": cmd_verify_merge,
        "status": cmd_status,
        "accept": cmd_resolve,
        "discard": cmd_resolve,
        "merge": cmd_resolve,
        "undo": cmd_resolve,
        "show": cmd_show,
        "recover": cmd_recover,
        "schema": cmd_schema,
        "profile": cmd_profile,
        "serve": cmd_serve,
        "bench": cmd_bench,
        "batch": cmd_batch,
        "edit": cmd_edit,
        "eval-models": cmd_eval_models,
    }


def _early(argv: list[str]) -> tuple[bool, str]:
    """``--json`` and ``--color`` as given anywhere before ``--``, known before the arguments
    are parsed (a wrong command must answer in JSON too, in the colours asked for)."""
    json_mode, color = False, "auto"
    for k, arg in enumerate(argv):
        if arg == "--":
            break
        if arg == "--json":
            json_mode = True
        elif arg == "--color" and k + 1 < len(argv):
            color = argv[k + 1]
        elif arg.startswith("--color="):
            color = arg.split("=", 1)[1]
    return json_mode, color if color in ("auto", "always", "never") else "auto"


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    json_mode, color = _early(argv)
    io = IO(color)
    from .parser import build_parser

    parser = build_parser()
    try:
        try:
            if json_mode:  # --help or --version under --json: their text inside the object
                with contextlib.redirect_stdout(io_module.StringIO()) as said:
                    args = parser.parse_args(argv)
            else:
                args = parser.parse_args(argv)
        except SystemExit as e:  # --help and --version print and exit 0
            if json_mode:
                text = said.getvalue()
                key = "version" if "--version" in argv else "help"
                io.json({"ok": True, key: text.strip() if key == "version" else text})
            return int(e.code or 0)
        args.json = json_mode or getattr(args, "json", False)  # --json before the command too
        if args.command is None:
            if json_mode:
                raise UsageError("no command given")
            parser.print_help(sys.stderr)
            return EXIT_USAGE
        return commands()[args.command](args, IO(getattr(args, "color", "auto")))
    except UsageError as e:
        if json_mode:
            io.json(usage_json(str(e)))
        else:
            io.err.line(f"applydiff: {e}")
        return EXIT_USAGE
    except KeyboardInterrupt:
        io.err.line("applydiff: interrupted; nothing more was written")
        return 130
    except BrokenPipeError:  # `applydiff status | head`: the reader left; say nothing more
        import os

        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except Exception as e:  # a bug: the traceback on stderr, and still one JSON object
        if json_mode:
            from ..problems import Problem

            message = f"{type(e).__name__}: {e}"
            io.json(
                {
                    "ok": False,
                    "errors": [Problem("internal", message).to_dict()],
                }
            )
        raise


if __name__ == "__main__":
    sys.exit(main())
