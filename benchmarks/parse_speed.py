"""How long parsing a large model response takes: 1 MB holding 500 blocks of every format.

Run: PYTHONPATH=src python benchmarks/parse_speed.py [--runs N]
Budget (issue 3): under 200 ms. Prints a Markdown table; exits 0 (it reports, it does not gate).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import applydiff


def block(rng: random.Random, k: int, lines: int) -> str:
    body = [
        f"    value_{k}_{j} = compute({j}, {rng.randint(0, 999)})  # line {j}" for j in range(lines)
    ]
    old = "\n".join(body)
    new = "\n".join(
        x.replace("compute", "calculate", 1) if j == lines // 2 else x for j, x in enumerate(body)
    )
    path = f"src/pkg_{k % 40}/module_{k}.py"
    kind = k % 4
    if kind == 0:
        fenced = f"<<<<<<< SEARCH\n{old}\n=======\n{new}\n>>>>>>> REPLACE"
        return f"Edit {k}:\n\n{path}\n```python\n{fenced}\n```\n"
    if kind == 1:
        minus = "\n".join("-" + x for x in body)
        plus = "\n".join("+" + x for x in new.split("\n"))
        head = f"--- a/{path}\n+++ b/{path}\n@@ -1,{lines} +1,{lines} @@"
        return f"Diff {k}:\n```diff\n{head}\n{minus}\n{plus}\n```\n"
    if kind == 2:
        minus = "\n".join("-" + x for x in body)
        plus = "\n".join("+" + x for x in new.split("\n"))
        return f"*** Begin Patch\n*** Update File: {path}\n@@\n{minus}\n{plus}\n*** End Patch\n"
    return f">>> file: {path}\n--- from\n{old}\n--- to\n{new}\n<\n"


def response(blocks: int, target_bytes: int, seed: int = 0) -> str:
    rng = random.Random(seed)
    lines = 8
    while True:
        parts = [
            block(rng, k, lines) + "\nSome prose explaining the change.\n\n" for k in range(blocks)
        ]
        text = "".join(parts)
        if len(text.encode()) >= target_bytes:
            return text
        lines += 1


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=9)
    args = ap.parse_args(argv)
    text = response(500, 1_000_000)
    ops = applydiff.parse(text)
    times = []
    for _ in range(args.runs):
        t0 = time.perf_counter()
        applydiff.parse(text)
        times.append(time.perf_counter() - t0)
    ms = statistics.median(times) * 1e3
    print("| response | blocks | ops | median ms | budget | ok |")
    print("|---|--:|--:|--:|--:|---|")
    mb = len(text.encode()) / 1e6
    print(
        f"| {mb:.2f} MB | 500 | {len(ops)} | {ms:.1f} | 200 | {'yes' if ms < 200 else 'MISSED'} |"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
