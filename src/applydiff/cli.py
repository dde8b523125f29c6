"""The ``applydiff`` command line.

Human output goes to stderr; with ``--json`` exactly one JSON object goes to stdout.
"""

from __future__ import annotations

import argparse
import sys

from . import __version__


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="applydiff",
        description="Turn what language models write about files into correct file changes.",
    )
    parser.add_argument("--version", action="version", version=f"applydiff {__version__}")
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    parser.parse_args(argv)
    parser.print_help(sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
