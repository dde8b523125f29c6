"""``apply_patch``: a drop-in for codex's ``apply_patch`` command, with applydiff's matching.

    apply_patch '*** Begin Patch ... *** End Patch'
    echo '*** Begin Patch ...' | apply_patch

The patch is the one argument, or stdin when there is none. It applies in the current
directory through applydiff's ladder (a context line with a typo or other indentation still
finds its place; a place that is not sure is refused), all files or none. On success stdout
says ``Success. Updated the following files:`` and then ``A path`` for each file added,
``M path`` for each modified (a moved file under its new path), ``D path`` for each deleted,
in that order, and the exit code is 0. On failure nothing is written, each reason goes to
stderr, and the exit code is 1; a wrong invocation (no patch, more than one argument) is 2.
A written patch is recorded in the root's session store, so that ``applydiff undo`` takes it
back (the commit's lock and journal live in ``.applydiff/`` in any case, with its own
``.gitignore``); a failed one leaves no state directory.
"""

from __future__ import annotations

import sys

from .cli.base import IO
from .cli.output import error_line, show_warnings

USAGE = "Usage: apply_patch 'PATCH'\n       echo 'PATCH' | apply_patch"
HELP = f"""{USAGE}

Apply a patch in codex's apply_patch format (*** Begin Patch ... *** End Patch) to the
files under the current directory, all or none, through applydiff's matching.

Prints "Success. Updated the following files:" and A/M/D lines on stdout, exit 0; on
failure the reasons on stderr, nothing written, exit 1; a wrong invocation exits 2.
`applydiff undo` takes a written patch back.

Options:
  -h, --help     show this help and exit
  --version      show the version and exit
  --             the next argument is the patch, even if it starts with '-'

Example:
  apply_patch $'*** Begin Patch\\n*** Add File: hello.txt\\n+hi\\n*** End Patch'
"""
_LETTERS = {"added": "A", "modified": "M", "moved": "M", "deleted": "D"}


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    io = IO("never")
    if args and args[0] == "--":
        args = args[1:]
    elif args and args[0] in ("-h", "--help"):
        io.out.write(HELP)
        return 0
    elif args and args[0] == "--version":
        from .version import __version__

        io.out.line(f"apply_patch (applydiff {__version__})")
        return 0
    elif args and args[0].startswith("-") and args[0] != "-" and "\n" not in args[0]:
        io.err.line(f"Error: unknown option {args[0]!r}.\n{USAGE}")
        return 2
    if len(args) > 1:
        io.err.line("Error: apply_patch accepts exactly one PATCH argument.")
        return 2
    if args and args[0] != "-":
        patch = args[0]
    else:
        try:
            patch = sys.stdin.buffer.read().decode("utf-8-sig")
        except UnicodeDecodeError as e:
            io.err.line(f"Error: the patch on stdin is not UTF-8 text (byte {e.start}).")
            return 1
        except OSError as e:
            io.err.line(f"Error: failed to read the patch from stdin: {e.strerror}.")
            return 1
        if not patch:
            io.err.line(USAGE)
            return 2
    return apply(patch, io)


def apply(patch: str, io: IO, root: str = ".") -> int:
    """Apply ``patch`` under ``root``; the report on stdout, or the reasons on stderr."""
    from .errors import EditError
    from .session import SessionError
    from .workspace import Workspace

    try:
        ws = Workspace(root, session=True, store_optional=True, model_view=False)
    except (EditError, SessionError) as e:
        io.err.line(f"Error: {getattr(e, 'message', e)}")
        return 1
    result = ws.apply(patch)
    if not result.ok:
        from .tools.advice import Fitter
        from .tools.catalogue import SPECS

        # Advice in the words of a patch (no replace_all, no line hint: more context lines).
        fit = Fitter("apply_patch", {"apply_patch": SPECS["apply_patch"]["schema"]}, hint=False)
        for problem in result.errors:
            code, rest = error_line(problem)
            io.err.line(fit.text(code + rest))
        io.err.line("Nothing was written.")
        return 1
    groups: dict[str, list[str]] = {"A": [], "M": [], "D": []}
    for f in result.files:
        letter = _LETTERS.get(f.action, "M")
        groups[letter].append(f.to if f.action == "moved" and f.to else f.path)
    lines = [f"{letter} {path}" for letter, paths in groups.items() for path in paths]
    io.out.write("Success. Updated the following files:\n" + "".join(x + "\n" for x in lines))
    show_warnings(io, result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
