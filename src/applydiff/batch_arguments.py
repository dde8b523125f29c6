"""The arguments of ``applydiff batch`` and of ``bench --emit-batch``, apart from the batch
package: the main parser lists every command for ``--help`` without importing the batch's
work (its package imports dataclasses and the record code)."""

from __future__ import annotations

import argparse
from typing import Any


def add_batch_arguments(p: argparse.ArgumentParser) -> None:
    """The arguments of ``batch`` on a parser (``add_batch_parser`` makes the subcommand)."""
    p.add_argument(
        "input",
        metavar="IN",
        help="records as JSON Lines (- for stdin), or Parquet (.parquet, needs pyarrow)",
    )
    p.add_argument(
        "--out",
        default=None,
        metavar="OUT",
        help="output records as JSON Lines (default: stdout); with --ray, a directory or URI",
    )
    p.add_argument(
        "--workers",
        type=int,
        default=None,
        metavar="N",
        help="worker processes (default: every core; 0: in this process, no crash isolation)",
    )
    p.add_argument(
        "--timeout",
        type=float,
        default=None,
        metavar="SECONDS",
        help="time limit per record; a record past it is reported as 'timeout'",
    )
    p.add_argument(
        "--hashes",
        action="store_true",
        help="output the SHA-256 of each changed file instead of its text",
    )
    p.add_argument(
        "--resume",
        action="store_true",
        help="skip the ids OUT already holds and append the rest (after a killed run)",
    )
    p.add_argument(
        "--ray",
        nargs="?",
        const="auto",
        default=None,
        metavar="ADDRESS",
        help="run on Ray Data (pip install 'applydiff[ray]'): a cluster address, or none to "
        "use RAY_ADDRESS or start a local one",
    )
    p.add_argument(
        "--json", action="store_true", help="print one JSON summary object on stdout (needs --out)"
    )
    p.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")


def add_batch_parser(subparsers: Any) -> argparse.ArgumentParser:
    """The ``batch`` subcommand, on the ``add_subparsers()`` object of the main parser."""
    p: argparse.ArgumentParser = subparsers.add_parser(
        "batch",
        help="apply and score many model answers in memory (JSON Lines in and out)",
        description="Apply each record's answer to its files in memory and write one output "
        "record per input record, in input order. Nothing is written under any root.",
        epilog="example:\n  applydiff batch records.jsonl --out scored.jsonl --json\n",
    )
    add_batch_arguments(p)
    return p


def add_emit_batch_arguments(p: argparse.ArgumentParser) -> None:
    """``--emit-batch N`` (and ``--batch-mix``) on the ``bench`` parser; ``--seed`` is bench's
    own. When ``args.emit_batch`` is set, bench calls :func:`emit_batch` instead of running."""
    p.add_argument(
        "--emit-batch",
        type=int,
        default=None,
        metavar="N",
        help="write N realistic batch records (JSON Lines) to stdout and exit",
    )
    p.add_argument(
        "--batch-mix",
        default="realistic",
        choices=("realistic", "noisy"),
        help="with --emit-batch: the share of noisy and refused edits (default: realistic)",
    )
