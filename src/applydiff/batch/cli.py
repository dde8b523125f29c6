"""The command line of the batch: ``applydiff batch IN --out OUT`` and ``applydiff bench
--emit-batch N``, as functions the main command line wires in (``run_batch`` and
``emit_batch``; their arguments are in :mod:`applydiff.batch_arguments`), and ``python -m
applydiff.batch``, which runs them alone.

Conventions of the command line: results on stdout (JSON Lines when there is no ``--out``),
progress and the human summary on stderr, ``--json`` prints one summary object on stdout.
Exit codes: 0 the batch ran (records that failed are data, in the output), 2 the command was
wrong (unreadable input, a bad flag, Ray asked for and not installed).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import IO, Any

from ..batch_arguments import add_batch_arguments
from ..problems import Problem

EXIT_OK, EXIT_USAGE = 0, 2


def _progress_wanted(args: argparse.Namespace) -> bool:
    if getattr(args, "no_progress", False):
        return False
    return sys.stderr.isatty() or bool(os.environ.get("FORCE_COLOR"))


class _Bar:
    """A rich progress bar on stderr refreshed from the calling thread (no refresh thread, so
    worker processes can fork safely), at most ten times a second."""

    def __init__(self) -> None:
        from rich.console import Console
        from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

        self.progress = Progress(
            SpinnerColumn(),
            TextColumn("{task.description}"),
            TextColumn("{task.completed:,} records"),
            TextColumn("{task.fields[rate]}"),
            TimeElapsedColumn(),
            console=Console(stderr=True),
            auto_refresh=False,
            transient=False,
        )
        self.task = self.progress.add_task("batch", total=None, rate="")
        self.start = self.last = time.monotonic()
        self.done = 0

    def __enter__(self) -> _Bar:
        self.progress.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.show(self.done)
        self.progress.stop()

    def __call__(self, done: int) -> None:
        self.done = done
        if time.monotonic() - self.last >= 0.1:
            self.show(done)

    def show(self, done: int) -> None:
        now = self.last = time.monotonic()
        rate = done / (now - self.start) if now > self.start else 0.0
        self.progress.update(self.task, completed=done, rate=f"{rate:,.0f}/s")
        self.progress.refresh()


def run_batch(args: argparse.Namespace) -> int:
    """``applydiff batch``: run it and return the exit code (prints its own errors)."""
    from .io import InputError

    try:
        if args.json and (args.out is None or args.out == "-"):
            raise InputError("--json prints a summary on stdout, so it needs --out FILE")
        if args.workers is not None and args.workers < 0:
            raise InputError("--workers must be 0 or more")
        if args.timeout is not None and args.timeout <= 0:
            raise InputError("--timeout must be a positive number of seconds")
        if args.ray is not None:
            summary = _run_ray(args)
        else:
            summary = _run_local(args)
    except InputError as e:
        if args.json:  # one JSON object on stdout, a wrong command's too
            print(json.dumps({"ok": False, "errors": [Problem("usage", str(e)).to_dict()]}))
        else:
            print(f"applydiff: {e}", file=sys.stderr)
        return EXIT_USAGE
    if args.json:
        print(json.dumps(summary))
    else:
        print(_human(summary), file=sys.stderr)
    return EXIT_OK


def _run_local(args: argparse.Namespace) -> dict[str, Any]:
    from . import run_file

    common: dict[str, Any] = dict(
        workers=args.workers, timeout=args.timeout, hashes=args.hashes, resume=args.resume
    )
    if _progress_wanted(args):
        with _Bar() as bar:
            summary = run_file(args.input, args.out, progress=bar, **common)
    else:
        summary = run_file(args.input, args.out, **common)
    out = summary.to_dict()
    out["out"] = args.out or "-"
    return out


def _run_ray(args: argparse.Namespace) -> dict[str, Any]:
    from .io import InputError

    if args.resume:
        raise InputError("--resume works with the local pool; Ray writes OUT as a whole")
    if args.out is None or args.out == "-":
        raise InputError("--ray needs --out: the directory (or URI) Ray writes the records to")
    try:
        from . import ray_run
    except ImportError as e:
        raise InputError(f"--ray needs Ray Data: pip install 'applydiff[ray]' ({e})") from None
    address = None if args.ray == "auto" else args.ray
    return ray_run.run(
        args.input, args.out, address=address, timeout=args.timeout, hashes=args.hashes
    ).to_dict()


def _human(summary: dict[str, Any]) -> str:
    parts = [f"{summary['records']:,} records", f"{summary['applied']:,} applied"]
    if summary.get("skipped"):
        parts.append(f"{summary['skipped']:,} skipped (already in OUT)")
    if summary.get("with_expected"):
        parts.append(f"{summary['exact']:,} of {summary['with_expected']:,} exact")
    errors = summary.get("errors") or {}
    if errors:
        parts.append("errors: " + ", ".join(f"{k} {v:,}" for k, v in errors.items()))
    rate = summary.get("records_per_second")
    tail = f" in {summary['seconds']:.1f} s" + (f" ({rate:,.0f}/s)" if rate else "")
    return "; ".join(parts) + tail


def emit_batch(n: int, seed: int = 0, out: IO[str] | None = None, *, mix: str = "realistic") -> int:
    """``applydiff bench --emit-batch N``: N records on ``out`` (stdout); the exit code.
    Prints its own errors (no source files to make records from)."""
    from ..bench.batch_records import emit

    if n < 0:
        print("applydiff: --emit-batch needs a count of 0 or more", file=sys.stderr)
        return EXIT_USAGE
    try:
        emit(n, seed, out if out is not None else sys.stdout, mix=mix)
    except ValueError as e:
        print(f"applydiff: {e}", file=sys.stderr)
        return EXIT_USAGE
    return EXIT_OK


def main(argv: list[str] | None = None) -> int:
    """``python -m applydiff.batch``: ``IN --out OUT ...`` runs a batch; ``emit N [--seed S]``
    writes records (the two commands ``applydiff`` wires in)."""
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["emit"]:
        p = argparse.ArgumentParser(prog="python -m applydiff.batch emit")
        p.add_argument("n", type=int)
        p.add_argument("--seed", type=int, default=0)
        p.add_argument("--mix", default="realistic", choices=("realistic", "noisy"))
        a = p.parse_args(argv[1:])
        return emit_batch(a.n, a.seed, mix=a.mix)
    p = argparse.ArgumentParser(prog="python -m applydiff.batch")
    add_batch_arguments(p)
    try:
        args = p.parse_args(argv)
    except SystemExit as e:
        return int(e.code or 0)
    return run_batch(args)
