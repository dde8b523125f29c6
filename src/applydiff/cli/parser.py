"""The ``applydiff`` command line's arguments: every command, its options, and the allowed
values of ``--format``, ``--mode``, ``--dialect`` and ``--compat`` from :mod:`applydiff.names`
(plain constants: ``--help`` imports no module of the library's work)."""

from __future__ import annotations

import argparse
from typing import Any, NoReturn

from ..batch_arguments import add_batch_parser, add_emit_batch_arguments
from ..names import COMPATS, DIALECTS, EDIT_TOOLS, FORMATS, MERGE_PROMPTS, MODES, TASKS, TEXT_MODES
from ..version import __version__
from .base import COLORS, UsageError

FORMAT_CHOICES = ("auto", *FORMATS)
EDIT_MODES = (*MODES, *TEXT_MODES)

TOP_EXAMPLES = """examples:
  applydiff apply answer.md --dry-run > preview.diff   # what would change, as a patch
  pbpaste | applydiff apply                            # apply; asks on the terminal first
  applydiff undo                                       # restore what the last apply changed
"""

APPLY_EXAMPLES = """examples:
  applydiff apply answer.md --dry-run       # the diff on stdout, nothing written
  git diff | applydiff apply -R --yes        # undo a working-tree change, as git apply -R
  applydiff apply fix.patch -p1 --stat       # what the patch touches, as git apply --stat
"""

# Each command's one-line help (in `applydiff --help`), what it does and prints (its own
# --help), and an example.
COMMANDS: dict[str, tuple[str, str, str]] = {
    "call": (
        "run one edit tool call (write_file, edit_file, ...)",
        "Run one edit tool call, as a model would send it, against the tree: the diff on\n"
        "stdout, the edit's tier and confidence on stderr; asks before writing unless --yes.",
        'applydiff call edit_file --args \'{"path": "a.py", "old_string": "x = 1", '
        '"new_string": "x = 2"}\'',
    ),
    "status": (
        "list the session's files and their review codes",
        "List every file the session knows, one per line: its code, then its path.\n"
        "Codes: M the model modified it (pending), A added (pending), D deleted (pending),\n"
        "~ changed on disk since the model was shown it, ~M pending and changed on disk\n"
        "(a conflict: merge it), blank: the model was shown it and nothing waits.",
        "applydiff status | grep '^~M'",
    ),
    "accept": (
        "write pending outputs to disk",
        "Write the outputs pending review (all, or those of PATH...) to disk, together;\n"
        "prints 'modified: PATH' (or added, deleted) for each. A file changed on disk since\n"
        "the output was made (~M) is refused: merge it instead.",
        "applydiff accept src/app.py",
    ),
    "discard": (
        "drop pending outputs",
        "Drop the outputs pending review (all, or those of PATH...); the disk is not touched.\n"
        "Prints 'discarded: PATH' for each.",
        "applydiff discard",
    ),
    "merge": (
        "three-way merge pending outputs with the files on disk",
        "Merge each pending output into the file on disk (base: what the output was made\n"
        "from). Clean merges and conflicts are both written, conflicts between <<<<<<< and\n"
        ">>>>>>> lines; prints 'merged: PATH' and the conflicts' lines.",
        "applydiff merge src/app.py",
    ),
    "undo": (
        "restore the files of the last commit (or one file's last change)",
        "Restore the files of the last commit, whichever command made it (or, with PATH,\n"
        "that file as it was before its last change); prints 'restored: PATH' or\n"
        "'deleted: PATH'. Undoing an accept puts its outputs back pending.",
        "applydiff undo src/app.py",
    ),
    "show": (
        "print the output pending review for a file",
        "Print the output pending review for PATH on stdout, as accept would write it\n"
        "(nothing for a deletion); --json adds its base (the text it was made from), its\n"
        "status code and the file ids of the disk and of the output. Exit 1 when nothing\n"
        "is pending for PATH.",
        "applydiff show src/app.py | diff src/app.py -",
    ),
    "recover": (
        "list (or --discard) the journals recovery did not trust",
        "List the journals of interrupted changes that recovery did not trust (moved to\n"
        ".applydiff/quarantine/, nothing written), each with why; --discard deletes them.",
        "applydiff recover --discard",
    ),
    "schema": (
        "print the tool definitions for a diff mode (or a text mode's rules)",
        "Print the tool definitions (JSON) a model is given for a diff mode, in the schema\n"
        "of an API dialect; for a text mode, the rules its prompt states.",
        "applydiff schema --mode search_replace --dialect anthropic",
    ),
    "profile": (
        "the profile and diff mode for a model name",
        "Print the profile (nano, minimal, full) and the diff mode applydiff picks for a\n"
        "model, read from the size in its name (7b, 1.5B, 8x7b).",
        "applydiff profile qwen2.5-coder-7b-instruct",
    ),
    "serve": (
        "run the MCP server (stdio) for a root",
        "Serve the root's edit tools over MCP on stdin/stdout (for an agent's config); the\n"
        "log goes to stderr.",
        "applydiff serve --root . --model gpt-4o-mini",
    ),
    "edit": (
        "let a model do TASK on the tree (an OpenAI-compatible endpoint)",
        "Ask a model to do TASK on the tree through its tools, feeding back each refusal;\n"
        "prints the diff of its changes on stdout and asks before writing unless --yes.",
        "applydiff edit 'rename run to start' --endpoint http://127.0.0.1:8080/v1 "
        "--model qwen2.5-coder-7b",
    ),
    "eval-models": (
        "score models x modes on the edit task suite",
        "Run each model in each diff mode on the edit task suite and print the scores as a\n"
        "table (and a report in --out); --replay re-scores recorded transcripts.",
        "applydiff eval-models --endpoint http://127.0.0.1:8080/v1 --model a --model b",
    ),
    "bench": (
        "accuracy and speed next to other edit engines, with charts",
        "Measure applydiff's matching next to other edit engines on generated edits of real\n"
        "files: a table on stdout, the report and charts in --out.",
        "applydiff bench --quick --out /tmp/bench",
    ),
    "parse": (
        "read a model's response and print the edits it holds",
        "Read a model's response and print the edits found in it, one per line: its index,\n"
        "kind, path and answer line; nothing is applied.",
        "applydiff parse answer.md --json",
    ),
}


def _command(sub: Any, name: str, **kwargs: Any) -> Parser:
    """A subcommand with its help, description and example from :data:`COMMANDS`."""
    short, long, example = COMMANDS[name]
    return sub.add_parser(
        name, help=short, description=long, epilog=f"example:\n  {example}\n", **kwargs
    )


class Formatter(argparse.RawDescriptionHelpFormatter):
    """Help as written (descriptions and examples keep their lines), wrapped to the terminal
    only: piped or redirected, each option's help is one line."""

    def __init__(self, prog: str) -> None:
        import shutil
        import sys

        width = shutil.get_terminal_size().columns if sys.stdout.isatty() else 10_000
        super().__init__(prog, width=max(width, 40))


class Parser(argparse.ArgumentParser):
    """An argument parser whose errors are :class:`UsageError` (the command line prints them,
    as JSON under ``--json``), not a message and ``sys.exit``; its help in :class:`Formatter`."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", Formatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (see {self.prog} --help)")


def _shared(p: argparse.ArgumentParser, *, json: bool = True) -> None:
    """``--json`` and ``--color``, on every command and before it; a command's own default
    never hides the value given before the command (``applydiff --json status``)."""
    if json:
        p.add_argument(
            "--json",
            action="store_true",
            default=argparse.SUPPRESS,
            help="print the result as one JSON object on stdout",
        )
    p.add_argument(
        "--color",
        choices=COLORS,
        default=argparse.SUPPRESS,
        help="colour the output: auto (default: on a terminal, unless NO_COLOR is set; "
        "FORCE_COLOR forces it), always or never",
    )


def _root(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--root",
        "-C",
        metavar="DIR",
        default=None,
        help="the project root (default: the current directory)",
    )


def build_parser() -> Parser:
    parser = Parser(
        prog="applydiff",
        description="Turn what language models write about files into correct file changes.",
        epilog=TOP_EXAMPLES,
    )
    parser.add_argument("--version", action="version", version=f"applydiff {__version__}")
    _shared(parser)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)

    p = sub.add_parser(
        "apply",
        help="apply a model's response to a tree (all files or none)",
        description="Apply a model's response (SEARCH/REPLACE blocks, diffs, apply_patch, tool\n"
        "calls, lazy snippets) to a tree, all files or none. The diff goes to stdout, the\n"
        "rest to stderr; it asks on the terminal before writing unless --yes.",
        epilog=APPLY_EXAMPLES,
    )
    p.add_argument("file", metavar="FILE", nargs="?", default="-", help="the response (default -)")
    _common(p)
    p.add_argument(
        "--format",
        default="auto",
        choices=FORMAT_CHOICES,
        help="auto (default) or one format: " + ", ".join(FORMATS),
    )
    _dry_run_and_check(p)
    p.add_argument(
        "--review", action="store_true", help="keep the outputs pending for accept/merge/discard"
    )
    p.add_argument(
        "--replace-all",
        action="store_true",
        help="every search edit changes each exact occurrence (for an ambiguous edit meant "
        "everywhere)",
    )
    p.add_argument(
        "--line",
        dest="hint_line",
        type=int,
        default=None,
        metavar="N",
        help="a search edit that fits several places takes the one nearest line N",
    )
    p.add_argument(
        "--keep-narration",
        action="store_true",
        help="keep the comments of lazy snippets that narrate the edit "
        "('// Add a new method to Foo'), which are otherwise left out",
    )
    _merge_options(p)
    git = p.add_argument_group("git apply / patch options")
    git.add_argument(
        "-p",
        dest="strip",
        type=int,
        default=None,
        metavar="N",
        help="strip N leading components from a diff's paths (default: git's a/ and b/)",
    )
    git.add_argument(
        "-R", "--reverse", action="store_true", help="apply the diff in reverse (undo it)"
    )
    git.add_argument(
        "--directory", metavar="DIR", default=None, help="prepend DIR to every path of the diff"
    )
    git.add_argument(
        "--stat",
        action="store_true",
        help="print what would change per file (git apply --stat) on stdout; write nothing",
    )
    git.add_argument(
        "--numstat",
        action="store_true",
        help="print added and deleted lines per file, tab-separated; write nothing",
    )

    p = _command(sub, "call")
    p.add_argument("tool", metavar="TOOL", help="the tool: " + ", ".join(call_tools()))
    p.add_argument(
        "--args",
        required=True,
        metavar="JSON",
        help="the call's arguments: JSON, @FILE (read from a file) or - (read from stdin)",
    )
    _common(p)
    _dry_run_and_check(p)

    for name in ("status", "accept", "discard", "merge", "undo"):
        p = _command(sub, name)
        if name in ("accept", "discard", "merge"):
            p.add_argument("paths", metavar="PATH", nargs="*", help="only these files")
        if name == "undo":
            p.add_argument(
                "path", metavar="PATH", nargs="?", help="only this file, from its last change"
            )
        _root(p)
        _shared(p)

    p = _command(sub, "show")
    p.add_argument("path", metavar="PATH", help="the file whose pending output to print")
    _root(p)
    _shared(p)

    p = _command(sub, "recover")
    p.add_argument("--discard", action="store_true", help="delete the quarantined journals")
    _root(p)
    _shared(p)

    p = _command(sub, "schema")
    p.add_argument(
        "--mode",
        default=None,
        choices=EDIT_MODES,
        help="diff mode (default: search_replace_multi): "
        + ", ".join(MODES)
        + "; or a text mode, whose instructions are printed: "
        + ", ".join(TEXT_MODES),
    )
    p.add_argument(
        "--dialect", default="openai", choices=DIALECTS, help="one of " + ", ".join(DIALECTS)
    )
    p.add_argument("--text-editor", action="store_true", help="add the text-editor tool")
    p.add_argument("--compat", default=None, choices=COMPATS, help=_COMPAT_HELP)
    _shared(p)

    p = _command(sub, "profile")
    p.add_argument(
        "model", metavar="MODEL", help="a model name, e.g. llama-3.1-8b-instruct or gpt-4o"
    )
    _shared(p)

    p = _command(sub, "serve")
    _root(p)
    p.add_argument(
        "--mode",
        default=None,
        choices=MODES,
        help="diff mode (default: from the profile): " + ", ".join(MODES),
    )
    group = p.add_mutually_exclusive_group()
    group.add_argument("--model", default=None, help="pick the profile from this model name")
    group.add_argument("--profile", default=None, help="nano, minimal or full")
    p.add_argument("--review", action="store_true", help="keep outputs pending for review")
    p.add_argument("--text-editor", action="store_true", help="also expose the text-editor tool")
    p.add_argument("--compat", default=None, choices=COMPATS, help=_COMPAT_HELP)
    _merge_options(p)
    _shared(p, json=False)

    p = _command(sub, "edit")
    p.add_argument("task", metavar="TASK", help="what to do, in words")
    _endpoint(p)
    p.add_argument("--model", required=True, help="the model name the endpoint serves")
    _root(p)
    p.add_argument(
        "--mode",
        default=None,
        choices=EDIT_MODES,
        help="diff mode or text mode (default: the profile's): " + ", ".join(EDIT_MODES),
    )
    p.add_argument("--max-exchanges", type=int, default=3, help="answers with edits (default 3)")
    p.add_argument(
        "--file",
        action="append",
        default=None,
        metavar="PATH",
        help="show this file up front (repeatable; default: a small tree whole)",
    )
    p.add_argument("--review", action="store_true", help="keep outputs pending for review")
    p.add_argument("--dry-run", action="store_true", help="show the model's changes; write nothing")
    p.add_argument("--yes", "-y", action="store_true", help="write the changes without asking")
    _shared(p)

    p = _command(sub, "eval-models")
    _endpoint(p, required=False)
    p.add_argument("--model", action="append", default=None, help="a model (repeatable)")
    p.add_argument(
        "--modes",
        default=None,
        help="comma-separated (default: anchored,search_replace,search_replace_multi), of: "
        + ", ".join(EDIT_MODES),
    )
    p.add_argument(
        "--tasks",
        default=None,
        help="comma-separated task names (default: all of the shipped suite: "
        + ", ".join(TASKS)
        + ")",
    )
    p.add_argument("--runs", type=int, default=1, help="runs per task (default 1)")
    p.add_argument(
        "--max-exchanges",
        type=int,
        default=3,
        help="answers with edits each model may send per task (default 3)",
    )
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
    _shared(p)

    p = _command(sub, "bench")
    p.add_argument("--quick", action="store_true", help="a small run (under a minute)")
    p.add_argument("--out", default="applydiff-bench", help="directory for the report")
    p.add_argument("--engines", default=None, help="comma-separated (applydiff,exact,aider,dmp)")
    p.add_argument("--files", default=None, help="glob of source files (default: the stdlib)")
    p.add_argument("--seed", type=int, default=0, help="seed of the generated edits (default 0)")
    p.add_argument("--per-kind", type=int, default=None, help="cases per kind of edit")
    add_emit_batch_arguments(p)
    _shared(p)

    _shared(add_batch_parser(sub), json=False)  # batch has its own --json (a summary object)

    p = sub.add_parser(
        "verify-merge",
        help="check that a merged file is one a lazy snippet explains",
        description="Check that MERGED (a fast-apply model's output, or any merge) is ORIGINAL\n"
        "with SNIPPET merged in: every snippet line there in order, no line added that the\n"
        "snippet lacks, no line dropped that it does not show on both sides, no marker left,\n"
        "brackets balanced, nothing cut off. Prints the verdict and the reasons with line\n"
        "numbers; exit 0 verified, 1 not. A snippet line put in a plausible but wrong place\n"
        "passes when every other check holds.",
        epilog="example:\n"
        "  applydiff verify-merge app.py snippet.py merged.py --path app.py --json\n",
    )
    p.add_argument("original", metavar="ORIGINAL", help="the file before the merge")
    p.add_argument("snippet", metavar="SNIPPET", help="the lazy snippet (- for stdin)")
    p.add_argument("merged", metavar="MERGED", help="the merged file")
    p.add_argument(
        "--path",
        default=None,
        metavar="P",
        help="the file's path, for its language (default: ORIGINAL's name)",
    )
    _shared(p)

    p = _command(sub, "parse")
    p.add_argument("file", metavar="FILE", help="the response (a path, or - for stdin)")
    p.add_argument(
        "--format",
        default="auto",
        choices=FORMAT_CHOICES,
        help="auto (default) or one format: " + ", ".join(FORMATS),
    )
    _shared(p)
    return parser


_COMPAT_HELP = (
    "offer another tool set under the names agents expect: filesystem (the reference MCP "
    "filesystem server's), fast-apply (edit_file with code_edit) or anthropic (the text editor)"
)


def call_tools() -> tuple[str, ...]:
    """The tools ``applydiff call`` runs: the edit tools of the catalogue."""
    return tuple(sorted(EDIT_TOOLS))


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


def _dry_run_and_check(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--dry-run", action="store_true", help="show the diff and the edits; write nothing"
    )
    p.add_argument(
        "--check",
        action="store_true",
        help="as git apply --check: only see whether it applies; print nothing but problems "
        "(exit 0 when it applies, 1 when not); write nothing",
    )


def _merge_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group(
        "merge model",
        "a fast-apply model asked for the lazy snippets the deterministic merge refuses; its "
        "merge is applied only when the snippet explains it (applydiff verify-merge)",
    )
    g.add_argument(
        "--merge-endpoint",
        default=None,
        metavar="URL",
        help="OpenAI-compatible base URL (env APPLYDIFF_MERGE_ENDPOINT; key in "
        "APPLYDIFF_MERGE_API_KEY or OPENAI_API_KEY); none: never a network call",
    )
    g.add_argument(
        "--merge-model", default=None, metavar="NAME", help="its model (env APPLYDIFF_MERGE_MODEL)"
    )
    g.add_argument(
        "--merge-prompt",
        default=None,
        choices=MERGE_PROMPTS,
        help="the prompt format the model was trained on (default fastapply)",
    )
    g.add_argument(
        "--merge-timeout",
        type=float,
        default=None,
        metavar="S",
        help="seconds per request (default 60)",
    )


def _common(p: argparse.ArgumentParser) -> None:
    _root(p)
    p.add_argument("--yes", "-y", action="store_true", help="apply without asking")
    _shared(p)
    p.add_argument("--threshold", type=float, default=None, help="fuzzy threshold in (0, 1]")
