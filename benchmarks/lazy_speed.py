"""How long a lazy snippet takes to merge (``merge_lazy``, what the engine runs), by the size
of the file: the generated Python and brace-language corpora, and real snippets when their
directories are given (the sources of ``real_snippets.py``).

Each case is merged ``--repeat`` times and its median kept; the table gives, per bucket of
file lines, the cases and the median and p90 of those medians, and the median over every
file of up to 2,000 lines (issue 26's bar: under 5 ms). Beside it, in the same run, the cost
of ``str.splitlines`` on the same files (a floor every merge pays more than once), so that
runs on different machines compare by ratio.

Usage::

    PYTHONPATH=src python benchmarks/lazy_speed.py [--cases 600] [--repeat 3]
        [--continue DIR] [--morph DIR]
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import sys
import time
from pathlib import Path

from applydiff.bench import lazy_brace, lazy_corpus
from applydiff.errors import EditError
from applydiff.match.snippet_merge import merge_lazy

BUCKETS = (250, 500, 1000, 2000, 10**9)


def timed(path: str, text: str, snippet: str, repeat: int) -> tuple[float, float]:
    """The median seconds of a merge, and of ``text.splitlines()``."""
    merges, floors = [], []
    for _ in range(repeat):
        start = time.perf_counter()
        with contextlib.suppress(EditError):  # a refusal is timed like a merge
            merge_lazy(path, text, snippet)
        merges.append(time.perf_counter() - start)
        start = time.perf_counter()
        text.splitlines()
        floors.append(time.perf_counter() - start)
    return statistics.median(merges), statistics.median(floors)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cases", type=int, default=600, help="cases per generated corpus")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--continue", dest="continue_dir", type=Path)
    ap.add_argument("--morph", type=Path)
    args = ap.parse_args()
    corpora: dict[str, list[tuple[str, str, str]]] = {
        "python (generated)": [
            (c.path, c.text, c.snippet) for c in lazy_corpus.generate(args.cases, seed=0)
        ],
        "brace (generated)": [
            (c.path, c.text, c.snippet) for c in lazy_brace.generate(args.cases, seed=0)
        ],
    }
    if args.continue_dir or args.morph:
        sys.path.insert(0, str(Path(__file__).parent))
        import real_snippets

        real: list[tuple[str, str, str]] = []
        if args.continue_dir:
            found, _ = real_snippets.continue_cases(args.continue_dir, "continue")
            real += [(c.path, c.original, c.snippet) for c in found]
        if args.morph:
            found, _ = real_snippets.morph_cases(args.morph)
            real += [(c.path, c.original, c.snippet) for c in found]
        corpora["real snippets"] = real
    print("| corpus | file lines | cases | median ms | p90 ms | splitlines ms |")
    print("|---|---|---|---|---|---|")
    for name, cases in corpora.items():
        rows = [(text.count("\n") + 1, *timed(p, text, s, args.repeat)) for p, text, s in cases]
        low = 0
        for high in BUCKETS:
            group = [r for r in rows if low < r[0] <= high]
            label = f"{low + 1}-{high}" if high < 10**9 else f"over {low}"
            low = high
            if not group:
                continue
            ms = sorted(g[1] * 1000 for g in group)
            floor = statistics.median(g[2] * 1000 for g in group)
            p90 = ms[int(0.9 * (len(ms) - 1))]
            print(
                f"| {name} | {label} | {len(group)} | {statistics.median(ms):.2f} | "
                f"{p90:.2f} | {floor:.3f} |"
            )
        upto = [r[1] * 1000 for r in rows if r[0] <= 2000]
        if upto:
            print(f"| {name} | **up to 2,000** | {len(upto)} | {statistics.median(upto):.2f} | | |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
