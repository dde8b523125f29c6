"""Pathological inputs: how the cost of parsing and matching grows with their size.

Run: PYTHONPATH=src python benchmarks/adversarial.py [--runs N] [--only NAME] [--json]

Each family is an input shape that once made a parser or the matcher superlinear (or hang),
timed at three sizes (median of ``--runs``). The growth exponent is the slope of log(time)
over log(size): 1 is linear, 2 quadratic. The bars (issue 13): every exponent at most 1.1,
parsing at least 5 MB/s on any input, a 100k-line file answered in under 1 s whatever the
search. Exits 1 when a bar is missed, so a regression is loud; a call still running after
``--limit`` seconds counts as missed.
"""

from __future__ import annotations

import argparse
import json
import math
import signal
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

import applydiff
from applydiff.bench.markdown import engine_state
from applydiff.errors import EditError

MAX_EXPONENT = 1.1
MIN_PARSE_MB_S = 5.0
MAX_MATCH_SECONDS = 1.0
PARSE_SIZES = (100_000, 400_000, 1_600_000)  # bytes of model output
MATCH_SIZES = (25_000, 50_000, 100_000)  # lines of the file


@dataclass(frozen=True)
class Family:
    name: str
    kind: str  # "parse": size is bytes of input; "match": size is lines of the file
    build: Callable[[int], Callable[[], str]]  # size -> a call returning its outcome
    note: str


def _parse(text: str, fmt: str = "auto") -> Callable[[], str]:
    def run() -> str:
        try:
            return f"{len(applydiff.parse(text, fmt))} ops"
        except EditError as e:
            return e.code

    run.size = len(text.encode())  # type: ignore[attr-defined]
    return run


def _repeat(unit: str, size: int, head: str = "", tail: str = "") -> str:
    return head + unit * max(1, (size - len(head) - len(tail)) // len(unit)) + tail


def _replace(text: str, old: str, lines: int) -> Callable[[], str]:
    def run() -> str:
        try:
            applydiff.replace(text, old, "changed = True\n")
            return "applied"
        except EditError as e:
            return e.code

    run.size = lines  # type: ignore[attr-defined]
    return run


def _lazy(text: str, snippet: str, lines: int) -> Callable[[], str]:
    def run() -> str:
        try:
            applydiff.apply_ops([applydiff.Lazy("f.py", snippet)], {"f.py": text})
            return "merged"
        except EditError as e:
            return e.code

    run.size = lines  # type: ignore[attr-defined]
    return run


def _near_copies(lines: int) -> Callable[[], str]:
    text = "".join(f"    value_{i % 50} = compute(a{i % 7}, b{i % 3})\n" for i in range(lines))
    old = "".join(f"    value_{i % 50} = compute(a{i % 7}, c{i % 3})\n" for i in range(500))
    return _replace(text, old, lines)


FAMILIES = [
    Family(
        "unclosed_fences",
        "parse",
        lambda n: _parse(_repeat("```python\nx\n", n)),
        "'```python\\nx\\n' repeated, no fence ever closed",
    ),
    Family(
        "divider_lines",
        "parse",
        lambda n: _parse(_repeat("=======\n", n, "a.py\n<<<<<<< SEARCH\n", ">>>>>>> REPLACE\n")),
        "one SEARCH block holding only '=======' lines",
    ),
    Family(
        "hunk_headers",
        "parse",
        lambda n: _parse(_repeat("@@ -1 +1 @@\n", n, "--- a/x\n+++ b/x\n")),
        "a unified diff of empty hunks",
    ),
    Family(
        "nested_json",
        "parse",
        lambda n: _parse(_repeat("[", n, '{"name": "edit_file", "arguments": ')),
        "a tool call whose arguments open arrays without end",
    ),
    Family(
        "common_line_search",
        "match",
        lambda n: _replace("x = 1\n" * n, "x = 1 \n" * 200, n),
        "200 lines of 'x = 1 ' sought in a file of 'x = 1' lines",
    ),
    Family(
        "near_copies_absent",
        "match",
        _near_copies,
        "an absent 500-line block whose every line nearly matches many file lines",
    ),
]


class _Late(Exception):
    pass


def _timed(run: Callable[[], str], limit: float) -> tuple[float, str]:
    def late(signum: int, frame: object) -> None:
        raise _Late

    old = signal.signal(signal.SIGALRM, late)
    signal.setitimer(signal.ITIMER_REAL, limit)
    start = time.perf_counter()
    try:
        outcome = run()
    except _Late:
        return math.inf, "still running"
    except Exception as e:  # a crash is a result to report, not the end of the run
        outcome = f"crash ({type(e).__name__})"
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    return time.perf_counter() - start, outcome


def exponent(sizes: list[int], seconds: list[float]) -> float:
    """Least-squares slope of log(seconds) over log(size)."""
    xs = [math.log(s) for s in sizes]
    ys = [math.log(max(t, 1e-7)) for t in seconds]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sum(
        (x - mx) ** 2 for x in xs
    )


def measure(family: Family, runs: int, limit: float) -> dict:
    sizes, medians, outcomes = [], [], []
    for n in PARSE_SIZES if family.kind == "parse" else MATCH_SIZES:
        run = family.build(n)
        times = []
        for _ in range(runs):
            took, outcome = _timed(run, limit)
            times.append(took)
            if took == math.inf:
                break
        sizes.append(run.size)  # type: ignore[attr-defined]
        medians.append(statistics.median(times))
        outcomes.append(outcome)
        if math.inf in times:
            break
    row: dict = {"family": family.name, "kind": family.kind, "note": family.note}
    row.update(sizes=sizes, seconds=medians, outcomes=outcomes)
    finished = len(medians) == 3 and math.inf not in medians
    row["exponent"] = exponent(sizes, medians) if finished else math.inf
    crashed = any(o.startswith("crash") for o in outcomes)
    if family.kind == "parse":
        row["mb_s"] = sizes[-1] / 1e6 / medians[-1] if finished else 0.0
        fast = row["mb_s"] >= MIN_PARSE_MB_S
    else:
        fast = medians[-1] < MAX_MATCH_SECONDS
    row["ok"] = not crashed and fast and row["exponent"] <= MAX_EXPONENT
    return row


def table(rows: list[dict]) -> str:
    out = [
        "| family | kind | sizes | median seconds | exponent | MB/s | outcome | bar |",
        "|---|---|---|---|--:|--:|---|---|",
    ]
    for r in rows:
        unit = "B" if r["kind"] == "parse" else " lines"
        sizes = " / ".join(f"{s:,}{unit}" for s in r["sizes"])
        secs = " / ".join("-" if t == math.inf else f"{t:.4f}" for t in r["seconds"])
        mbs = f"{r['mb_s']:.1f}" if "mb_s" in r else "-"
        exp = "-" if r["exponent"] == math.inf else f"{r['exponent']:.2f}"
        out.append(
            f"| {r['family']} | {r['kind']} | {sizes} | {secs} | {exp} | {mbs} "
            f"| {r['outcomes'][-1]} | {'ok' if r['ok'] else 'MISSED'} |"
        )
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5, help="runs per size (median)")
    ap.add_argument("--only", action="append", help="run only this family (repeatable)")
    ap.add_argument("--limit", type=float, default=60.0, help="seconds before a call is late")
    ap.add_argument("--json", action="store_true", help="one JSON object instead of Markdown")
    args = ap.parse_args(argv)
    chosen = [f for f in FAMILIES if not args.only or f.name in args.only]
    rows = []
    for family in chosen:
        rows.append(measure(family, args.runs, args.limit))
        print(f"{family.name}: done", file=sys.stderr, flush=True)
    if args.json:
        print(json.dumps({"engine": engine_state(), "rows": rows}, default=str))
    else:
        print(f"Adversarial growth ({engine_state()}, median of {args.runs} runs)\n")
        print(table(rows))
        print("\n" + "\n".join(f"- {f.name}: {f.note}" for f in chosen))
    return 0 if all(r["ok"] for r in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
