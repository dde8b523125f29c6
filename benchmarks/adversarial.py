"""Pathological inputs: how the cost of parsing and matching grows with their size.

Run: PYTHONPATH=src python benchmarks/adversarial.py [--runs N] [--only NAME] [--json]

Each family is an input shape that once made a parser or the matcher superlinear (or hang),
timed at three sizes (median of ``--runs``). The growth exponent is the slope of log(time)
over log(size): 1 is linear, 2 quadratic. The bars (issue 13): every exponent at most 1.1,
a 100k-line file answered in under 1 s whatever the search. Exits 1 when a bar is missed
(a growth exponent, a 100k-line match, a crash), so a regression is loud; a call still
running after ``--limit`` seconds counts as missed. The parse rate is an aim, not a bar: a
family below 5 MB/s is marked, not failed (a flood of five-byte fence lines costs one
Python step per line).

Times, and ``--limit``, are the process's CPU seconds (``time.process_time``): the calls
neither sleep nor wait, and on a shared machine other work would otherwise count; a call
shorter than ``MIN_TIMED`` is repeated and its mean taken, as that clock moves in ticks.
The floods of issue 28 run once at each of 0.5, 5 and 20 MB; those past ``MAX_OPS`` edits
time the refusal (``too_large``), and the ``tiny_*`` families time the parser itself with
that limit lifted. A whole run takes about seven CPU minutes on the machine of
docs/benchmarks.md.
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
from typing import Any
from unittest import mock

import applydiff
from applydiff.bench.markdown import engine_state
from applydiff.errors import EditError
from applydiff.formats import limits

MAX_EXPONENT = 1.1
MIN_PARSE_MB_S = 5.0
MAX_MATCH_SECONDS = 1.0
MIN_TIMED = 0.1  # CPU seconds: the process clock moves in ticks of a few milliseconds here
PARSE_SIZES = (100_000, 400_000, 1_600_000)  # bytes of model output
# Floods an MCP client or a batch record can send (issue 28): up to 20 MB, under the
# answer's size limit (formats.limits.MAX_ANSWER_CHARS); the tiny blocks pass MAX_OPS.
FLOOD_SIZES = (500_000, 5_000_000, 20_000_000)
# One run a size: a 20 MB parse takes up to half a minute, and its CPU time varies little
# (one run of each flood measured exponents of 1.01 to 1.03 before issue 28's change).
FLOOD_RUNS = 1
MATCH_SIZES = (25_000, 50_000, 100_000)  # lines of the file


@dataclass(frozen=True)
class Family:
    name: str
    kind: str  # "parse": size is bytes of input; "match": size is lines of the file
    build: Callable[[int], Callable[[], str]]  # size -> a call returning its outcome
    note: str
    sizes: tuple[int, ...] = ()  # () for the kind's sizes
    runs: int = 0  # at most this many runs a size (0: --runs)


def _parse(text: str, fmt: str = "auto", lifted: bool = False) -> Callable[[], str]:
    """A parse of ``text``; ``lifted``: with the limit of edits an answer holds out of the
    way, so that the time is the parser's on a block count no answer may hold."""

    def run() -> str:
        try:
            if lifted:
                with mock.patch.object(limits, "MAX_OPS", sys.maxsize):
                    return f"{len(applydiff.parse(text, fmt))} ops"
            return f"{len(applydiff.parse(text, fmt))} ops"
        except EditError as e:
            return e.code

    run.size = len(text.encode())  # type: ignore[attr-defined]
    return run


def _repeat(unit: str, size: int, head: str = "", tail: str = "") -> str:
    return head + unit * max(1, (size - len(head) - len(tail)) // len(unit)) + tail


def _replace(text: str, old: str, lines: int, **kw: Any) -> Callable[[], str]:
    def run() -> str:
        try:
            applydiff.replace(text, old, "changed = True\n", **kw)
            return "applied"
        except EditError as e:
            return e.code

    run.size = lines  # type: ignore[attr-defined]
    return run


def _lazy(text: str, snippet: str, lines: int, path: str = "f.py") -> Callable[[], str]:
    def run() -> str:
        try:
            cs = applydiff.apply_ops([applydiff.Lazy(path, snippet)], {path: text})
            return cs.reports[0].label if cs.ok else cs.errors[0].error.code
        except EditError as e:
            return e.code

    run.size = lines  # type: ignore[attr-defined]
    return run


def _near(i: int, b: str = "b") -> str:
    return f"    value_{i % 50} = compute(a{i % 7}, {b}{i % 3})\n"


def _distinct(n: int) -> list[str]:
    line = "    result_{} = transform(source_{}, limit={})\n"
    return [line.format(i, i * 7 % 1000, i % 97) for i in range(n)]


def _fuzzy_long(lines: int) -> Callable[[], str]:
    # a tenth of the file quoted with three typos: edit distances past the work budget
    file = _distinct(lines)
    old = file[lines // 3 : lines // 3 + lines // 10]
    for k in (1, len(old) // 2, len(old) - 2):
        old[k] = old[k].replace("transform", "transfrom")
    return _replace("".join(file), "".join(old), lines)


def _anchored(lines: int) -> Callable[[], str]:
    def run() -> str:
        op = applydiff.Anchored("f.py", ("x = 1",) * 50, ("new = 1",))
        cs = applydiff.apply_ops([op], {"f.py": "x = 1\n" * lines})
        return "applied" if cs.ok else cs.errors[0].error.code

    run.size = lines  # type: ignore[attr-defined]
    return run


def _readings(lines: int) -> Callable[[], str]:
    # a block of 2,000 unescaped '=======' lines: a search of the whole file per split
    text = "".join(_distinct(lines))
    block = "f.py\n<<<<<<< SEARCH\nx = 1\n" + "=======\n" * 2_000 + ">>>>>>> REPLACE\n"

    def run() -> str:
        cs = applydiff.apply_ops(applydiff.parse(block), {"f.py": text})
        return "applied" if cs.ok else cs.errors[0].error.code

    run.size = lines  # type: ignore[attr-defined]
    return run


def _parse_family(
    name: str,
    unit: str,
    note: str,
    head: str = "",
    tail: str = "",
    *,
    lifted: bool = False,
    sizes: tuple[int, ...] = (),
) -> Family:
    def build(n: int) -> Callable[[], str]:
        return _parse(_repeat(unit, n, head, tail), lifted=lifted)

    return Family(name, "parse", build, note, sizes, FLOOD_RUNS if sizes == FLOOD_SIZES else 0)


def _match_family(name: str, file_line: str, old: str, note: str, **kw: object) -> Family:
    return Family(
        name,
        "match",
        lambda n: _replace(file_line * n, old, n, **kw),
        note,  # type: ignore[arg-type]
    )


HUNK = "@@ -1 +1 @@\n x\n-y\n+z\n"
SEARCH_BLOCK = "a.py\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n"
PATCH_CHUNK = "*** Update File: a.py\n@@\n-x\n+y\n"

FAMILIES = [
    # -- parsing: bytes of model output ---------------------------------------------------------
    _parse_family("unclosed_fences", "```python\nx\n", "'```python\\nx\\n' repeated, never closed"),
    _parse_family("unclosed_json_fences", "```json\nx\n", "json fences never closed"),
    _parse_family("tilde_fences", "~~~~js\n~~~\n", "four-tilde openers, three-tilde closers"),
    Family(
        "growing_fences",
        "parse",
        lambda n: _parse("".join("`" * (3 + k % 200) + "py\n" for k in range(n // 100))),
        "openers of 3 to 202 backticks, none closed",
    ),
    _parse_family(
        "divider_lines",
        "=======\n",
        "one SEARCH block holding only '=======' lines",
        "a.py\n<<<<<<< SEARCH\n",
        ">>>>>>> REPLACE\n",
    ),
    _parse_family(
        "hunk_headers", "@@ -1 +1 @@\n", "a unified diff of empty hunks", "--- a/x\n+++ b/x\n"
    ),
    _parse_family(
        "tiny_hunks",
        HUNK,
        "a hunk every 21 bytes (MAX_OPS lifted: the parser's own growth)",
        "--- a/x\n+++ b/x\n",
        lifted=True,
    ),
    _parse_family(
        "tiny_search_blocks",
        SEARCH_BLOCK,
        "a SEARCH/REPLACE block every 49 bytes (MAX_OPS lifted)",
        lifted=True,
    ),
    _parse_family(
        "unclosed_search_block", "x\n", "a SEARCH block never closed", "a.py\n<<<<<<< SEARCH\n"
    ),
    _parse_family(
        "tiny_patch_chunks",
        PATCH_CHUNK,
        "an apply_patch update every 31 bytes (MAX_OPS lifted)",
        "*** Begin Patch\n",
        "*** End Patch\n",
        lifted=True,
    ),
    _parse_family(
        "unclosed_lazy_fences",
        "a.py\n```python\n# ... existing code ...\nx = 1\n",
        "lazy snippets whose fences never close",
    ),
    _parse_family("blank_lines", "\n", "nothing but empty lines"),
    Family(
        "nested_json",
        "parse",
        lambda n: _parse(_repeat("[", n, '{"name": "edit_file", "arguments": ')),
        "a tool call whose arguments open arrays without end",
    ),
    # -- floods to 20 MB (issue 28): refused past MAX_OPS edits, or read in linear time -----
    _parse_family(
        "flood_search_blocks",
        SEARCH_BLOCK,
        "100,000 tiny SEARCH/REPLACE blocks at 5 MB",
        sizes=FLOOD_SIZES,
    ),
    _parse_family(
        "flood_hunks",
        HUNK,
        "tiny unified hunks of one file",
        "--- a/x\n+++ b/x\n",
        sizes=FLOOD_SIZES,
    ),
    _parse_family(
        "flood_patch_chunks",
        "@@\n-x\n+y\n",
        "tiny apply_patch chunks of one update",
        "*** Begin Patch\n*** Update File: a.py\n",
        "*** End Patch\n",
        sizes=FLOOD_SIZES,
    ),
    _parse_family(
        "flood_nested_fences",
        "````markdown\n```python\nx = 1\n```\n````\n",
        "four-backtick markdown fences, each showing a three-backtick one",
        sizes=FLOOD_SIZES,
    ),
    _parse_family(
        "flood_hunk_headers",
        "@@ -1,3 +1,3 @@\n",
        "'@@' lines and nothing else, no file named",
        sizes=FLOOD_SIZES,
    ),
    # -- matching: lines of the file ------------------------------------------------------------
    _match_family(
        "common_line_search", "x = 1\n", "x = 1 \n" * 200, "200 lines of 'x = 1 ' among 'x = 1'"
    ),
    _match_family(
        "common_line_hint",
        "x = 1\n",
        "x = 1 \n" * 400,
        "400 lines of 'x = 1 ' with a line hint in the middle",
        hint_line=10_000,
    ),
    _match_family("indented_braces", "}\n", "  }\n" * 200, "200 indented '}' among '}' lines"),
    Family(
        "ragged_braces",
        "match",
        lambda n: _replace("".join(" " * (i * i % 7) + "}\n" for i in range(n)), "}\n" * 200, n),
        "200 '}' lines among '}' lines of ragged indentation",
    ),
    _match_family(
        "boundary_common",
        "value = compute(1)\n",
        "value = comp\n" + "value = compute(1)\n" * 199,
        "a truncated first line, then 199 lines the file repeats",
    ),
    Family(
        "elision_tight",
        "match",
        lambda n: _replace("x = 1\n" * n + "y = 2\n", "x = 1\n...\ny = 2\n", n),
        "an elided search whose first line is every line",
    ),
    _match_family(
        "elision_absent",
        "a = 1\nb = 2\n",
        "a = 1\n...\na = 1\na = 1\n",
        "an elided search whose second part is nowhere",
    ),
    Family(
        "near_copies_absent",
        "match",
        lambda n: _replace(
            "".join(_near(i) for i in range(n)), "".join(_near(i, "c") for i in range(500)), n
        ),
        "an absent 500-line block whose every line nearly matches many file lines",
    ),
    Family(
        "fuzzy_tenth",
        "match",
        _fuzzy_long,
        "a tenth of a file of distinct lines, quoted with three typos",
    ),
    _match_family(
        "replace_all_common",
        "x = 1\n",
        "x = 1",
        "replace_all of a line the file repeats on every line",
        replace_all=True,
    ),
    Family("anchored_common", "match", _anchored, "an anchored edit whose start is every line"),
    Family("many_readings", "match", _readings, "a block of 2,000 '=======' lines"),
    Family(
        "lazy_repeated",
        "match",
        lambda n: _lazy(
            "x = 1\n" * n,
            "# ... existing code ...\n"
            + "x = 1\n" * 1_000
            + "x = 2\n"
            + "x = 1\n" * 1_000
            + "# ... existing code ...\n",
            n,
        ),
        "a lazy snippet of 2,000 lines the file repeats",
    ),
    # The merge by definitions (issue 17): a file of many definitions, a snippet the line
    # merge refuses, placed by structure or refused.
    Family(
        "css_rules",
        "match",
        lambda n: _lazy(
            "".join(f".r{i} {{ margin: {i % 9}px; }}\n" for i in range(n)),
            f".r{n // 3} {{ margin: 1px; }}\n.r{2 * n // 3} {{ margin: 2px; }}\n",
            n,
            "site.css",
        ),
        "a markerless snippet of two one-line CSS rules in a file of one rule per line",
    ),
    Family(
        "js_functions",
        "match",
        lambda n: _lazy(
            "".join(f"function f{i}() {{\n  return {i % 7};\n}}\n" for i in range(n // 3)),
            "// ... existing code ...\n"
            + f"function f{n // 6}() {{\n  return 1;\n}}\n\n"
            + "function added() {\n  return 0;\n}\n// ... existing code ...\n",
            n,
            "app.js",
        ),
        "a changed function and a new one, among a file of three-line functions",
    ),
    Family(
        "nested_classes",
        "match",
        lambda n: _lazy(
            "".join(
                f"class C{i}:\n    def m(self):\n        return {i % 5}\n\n" for i in range(n // 4)
            ),
            f"class C{n // 8}:\n    # ... existing methods ...\n\n"
            "    def added(self):\n        return 1\n",
            n,
            "m.py",
        ),
        "a method added to one of many classes that all have the same method",
    ),
]


class _Late(Exception):
    pass


def _timed(run: Callable[[], str], limit: float) -> tuple[float, str]:
    def late(signum: int, frame: object) -> None:
        raise _Late

    # A CPU-time alarm (SIGPROF), as the times are CPU seconds: waiting is not lateness.
    old = signal.signal(signal.SIGPROF, late)
    signal.setitimer(signal.ITIMER_PROF, limit)
    start = time.process_time()
    calls = 0
    try:
        while True:  # a short call again, until the clock's ticks are a small part of it
            outcome = run()
            calls += 1
            if time.process_time() - start >= MIN_TIMED or calls >= 1_000:
                break
    except _Late:
        return math.inf, "still running"
    except Exception as e:  # a crash is a result to report, not the end of the run
        outcome = f"crash ({type(e).__name__})"
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, old)
    return (time.process_time() - start) / max(calls, 1), outcome


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
    runs = min(runs, family.runs or runs)
    for n in family.sizes or (PARSE_SIZES if family.kind == "parse" else MATCH_SIZES):
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
        row["mb_s"] = sizes[-1] / 1e6 / max(medians[-1], 1e-7) if finished else 0.0
        row["slow"] = row["mb_s"] < MIN_PARSE_MB_S  # the rate is an aim; growth is the bar
        fast = True
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
            f"| {r['outcomes'][-1]} | {_verdict(r)} |"
        )
    return "\n".join(out)


def _verdict(row: dict) -> str:
    if not row["ok"]:
        return "MISSED"
    return f"ok (below {MIN_PARSE_MB_S:g} MB/s)" if row.get("slow") else "ok"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5, help="runs per size (median)")
    ap.add_argument("--only", action="append", help="run only this family (repeatable)")
    ap.add_argument("--limit", type=float, default=60.0, help="CPU seconds before a call is late")
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
