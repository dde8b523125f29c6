"""What a ``replace`` costs next to a plain find-and-replace, on files of 1k, 10k, 100k lines.

The files are standard-library sources concatenated and cut to the line count. In each, one
20-line block is edited three ways:

* ``exact``: the block verbatim (budget 1.3x the floor);
* ``two_typo``: the block with two one-character typos in different lines (budget 8x, and the
  result must be the clean edit);
* ``absent``: a 20-line block that occurs nowhere; ``NoMatch`` is timed until it is raised
  (budget 8x).

The floor is ``text.count(old)`` plus ``text.replace(old, new)`` on the same ``old``: what an
exact-only tool pays. Floor and engine runs alternate so machine noise hits both alike; the
median of ``--runs`` runs (after warm-up) is reported. This script reports; it does not gate
(exit status 0).

Usage::

    PYTHONPATH=src python benchmarks/latency.py [--runs 15] [--json PATH]
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass

import applydiff
from applydiff.bench.sources import source_files
from applydiff.bench.speed import (
    BLOCK,
    SIZES,
    absent_block,
    corpus_text,
    edited,
    join,
    pick_block,
    with_typos,
)

BUDGETS = {"exact": 1.3, "two_typo": 8.0, "absent": 8.0}


@dataclass
class Row:
    lines: int
    case: str
    ms: float
    floor_ms: float
    ratio: float
    budget: float
    ok: bool
    found: bool  # exact/two_typo: the result is the clean edit; absent: NoMatch was raised


def measure(
    ours: Callable[[], object], floor: Callable[[], object], runs: int
) -> tuple[float, float]:
    """Median ms per call of each, interleaved (alternating which goes first), after warm-up.
    A run repeats each call enough times to last about a millisecond, so that microsecond
    timings are not timer noise; both sides repeat the same number of times."""
    t0 = time.perf_counter_ns()
    for _ in range(2):
        ours()
        floor()
    took = (time.perf_counter_ns() - t0) / 2
    reps = max(1, int(1e6 / max(took, 1.0)))
    a: list[float] = []
    b: list[float] = []
    gc.collect()
    gc.disable()
    try:
        for i in range(runs):
            pair = ((ours, a), (floor, b)) if i % 2 == 0 else ((floor, b), (ours, a))
            for fn, acc in pair:
                t0 = time.perf_counter_ns()
                for _ in range(reps):
                    fn()
                acc.append((time.perf_counter_ns() - t0) / 1e6 / reps)
    finally:
        gc.enable()
    return statistics.median(a), statistics.median(b)


def run(runs: int) -> list[Row]:
    paths = source_files()
    rng = random.Random(0)
    texts = {}
    used = 0
    for n in SIZES:
        texts[n], k = corpus_text(n, paths)
        used = max(used, k)
    gone = absent_block(list(texts.values()), paths[used:])
    rows = []
    for n in SIZES:
        text = texts[n]
        lines = text.split("\n")
        start = pick_block(lines, n * 3 // 5)  # past the middle: nothing is found early
        block = lines[start : start + BLOCK]
        edit, new_block = edited(rng, block, set())
        expected = join(lines[:start] + new_block + lines[start + BLOCK : -1])
        typo_block = with_typos(rng, block, edit.at)
        typo_new = list(typo_block)
        typo_new[edit.at] = edit.line
        gone_new = edited(rng, gone, set())[1]
        cases = {
            "exact": (join(block), join(new_block)),
            "two_typo": (join(typo_block), join(typo_new)),
            "absent": (join(gone), join(gone_new)),
        }
        for case, (old, new) in cases.items():
            print(f"{n} lines, {case}...", file=sys.stderr)
            found = check(case, text, old, new, expected)

            def ours(text: str = text, old: str = old, new: str = new) -> object:
                try:
                    return applydiff.replace(text, old, new)
                except applydiff.NoMatch as e:
                    return e

            def floor(text: str = text, old: str = old, new: str = new) -> object:
                return text.count(old), text.replace(old, new)

            ms, floor_ms = measure(ours, floor, runs)
            ratio = ms / floor_ms if floor_ms else float("inf")
            budget = BUDGETS[case]
            ok = ratio <= budget and found
            rows.append(Row(n, case, ms, floor_ms, ratio, budget, ok, found))
    return rows


def check(case: str, text: str, old: str, new: str, expected: str) -> bool:
    try:
        out = applydiff.replace(text, old, new)
    except applydiff.NoMatch:
        return case == "absent"
    except applydiff.EditError as e:
        print(f"  {case}: refused: {e}", file=sys.stderr)
        return False
    if case == "absent":
        print("  absent: applied, but the block occurs nowhere", file=sys.stderr)
        return False
    if out != expected:
        print(f"  {case}: applied, but not as the clean edit", file=sys.stderr)
    return out == expected


def report(rows: list[Row]) -> str:
    out = [
        "| lines | case | median ms | floor ms | ratio | budget | ok |",
        "|--:|---|--:|--:|--:|--:|---|",
    ]
    for r in rows:
        ok = "yes" if r.ok else ("**MISSED**" if r.found else "**WRONG RESULT**")
        out.append(
            f"| {r.lines:,} | {r.case} | {r.ms:.3f} | {r.floor_ms:.3f} | {r.ratio:.1f}x "
            f"| {r.budget:g}x | {ok} |"
        )
    missed = [r for r in rows if not r.ok]
    out.append("")
    if missed:
        out.append("Budgets missed:")
        for r in missed:
            why = f"{r.ratio:.1f}x > {r.budget:g}x" if r.found else "wrong result"
            out.append(f"- {r.lines:,} lines, {r.case}: {why}")
    else:
        out.append("All budgets met.")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--runs", type=int, default=15, help="timed runs per measurement (>= 15)")
    ap.add_argument("--json", metavar="PATH", help="write the rows here")
    args = ap.parse_args(argv)
    rows = run(max(args.runs, 15))
    print(report(rows))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump([asdict(r) for r in rows], f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
