"""Lazy snippets as models write them, by shape: the hand-made corpus of benchmarks/lazy_shapes.

Each case is a real-looking file, a snippet as a model writes it for "fast apply" (markers in
the language's comment syntax, or none) and the file a careful reader makes of it, or no file
when no reader could place the snippet for sure (``applydiff.bench.lazy_shapes`` describes
the layout and the shapes). Every case goes through the engine as a ``Lazy`` op on the
path the model named, and ends as one of:

* ``correct``: the merge returned exactly the expected file;
* ``correct_refusal``: a case that must be refused was refused;
* ``refused``: an ``EditError`` for a case a careful reader can place (a missed merge);
* ``whitespace_off``: a merge equal to the expected file but for whitespace (as wrong as
  misapplied: bytes the model did not touch came back changed);
* ``misapplied``: any other text, or a merge of a case that must be refused;
* ``crashed``: an exception that is not an ``EditError`` (an engine bug).

Prints a Markdown table by shape and one by language, with the median time of a merge.

Usage::

    PYTHONPATH=src python benchmarks/lazy_shapes.py [--show refused|misapplied|...]
        [--only SUBSTRING] [--keep-narration] [--root DIR]

``--show`` prints one line per case of that outcome: its id, its path and the error message
(for a wrong merge, the first line that differs). ``--keep-narration`` merges with the
narration comments kept and checks against ``after_keep_narration`` where a case has one.
Exits 1 when any case was misapplied, whitespace-off or crashed.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections.abc import Callable, Iterable
from pathlib import Path

from applydiff.bench.lazy_shapes import (
    OUTCOMES,
    ROOT,
    SHAPES,
    Case,
    Outcome,
    engine_merge,
    engine_merge_keeping_narration,
    load,
    run,
)

COLUMNS = ("correct", "correct_refusal", "refused", "whitespace_off", "misapplied", "crashed")


def table(title: str, outcomes: list[Outcome], key: Callable[[Case], str]) -> list[str]:
    groups: dict[str, list[Outcome]] = {}
    for o in outcomes:
        groups.setdefault(key(o.case), []).append(o)
    head = f"| {title} | cases | " + " | ".join(COLUMNS) + " | median ms |"
    rows = [head, "|" + "---|" * (len(COLUMNS) + 3)]
    for name, group in [*groups.items(), ("**all**", outcomes)]:
        counts = [sum(o.outcome == c for o in group) for c in COLUMNS]
        ms = statistics.median(o.seconds for o in group) * 1000 if group else 0.0
        cells = " | ".join(str(n) for n in counts)
        rows.append(f"| {name} | {len(group)} | {cells} | {ms:.1f} |")
    return rows


def shape_name(case: Case) -> str:
    return f"{case.shape}: {SHAPES[case.shape]}" if case.shape in SHAPES else str(case.shape)


def by_shape_order(outcomes: Iterable[Outcome]) -> list[Outcome]:
    order = {s: k for k, s in enumerate(SHAPES)}
    return sorted(outcomes, key=lambda o: (order.get(o.case.shape, len(order)), o.case.id))


def first_difference(expected: str | None, actual: str | None) -> str:
    if expected is None:
        return "merged a case that must be refused"
    if actual is None:
        return ""
    want, got = expected.splitlines(), actual.splitlines()
    for n, (a, b) in enumerate(zip(want, got, strict=False), 1):
        if a != b:
            return f"line {n}: expected {a!r}, got {b!r}"
    if len(want) != len(got):
        return f"expected {len(want)} lines, got {len(got)}"
    return "line endings or final newline differ"


def describe(o: Outcome, keep_narration: bool) -> str:
    if o.outcome in ("refused", "correct_refusal"):
        detail = " ".join(o.error.split())
    elif o.outcome == "crashed":
        detail = o.error.strip().splitlines()[-1]
    else:
        detail = first_difference(o.case.expected(keep_narration), o.actual)
    where = f"{o.case.id} ({o.case.path})"
    return f"{where}: {detail}" if detail else where


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--show", choices=OUTCOMES, action="append", default=[])
    parser.add_argument("--only", default="", help="cases whose id holds this text")
    parser.add_argument("--keep-narration", action="store_true")
    parser.add_argument("--root", type=Path, default=ROOT)
    args = parser.parse_args(argv)

    cases = [c for c in load(args.root) if args.only in c.id]
    merge = engine_merge_keeping_narration if args.keep_narration else engine_merge
    outcomes = run(cases, merge, keep_narration=args.keep_narration)

    what = "narration kept" if args.keep_narration else "narration left out"
    print(f"# Lazy snippets by shape: {len(cases)} cases through the engine ({what})\n")
    print("\n".join(table("shape", by_shape_order(outcomes), shape_name)))
    print()
    by_lang = sorted(outcomes, key=lambda o: o.case.lang)
    print("\n".join(table("language", by_lang, lambda c: c.lang)))
    for outcome in args.show:
        chosen = [o for o in outcomes if o.outcome == outcome]
        print(f"\n## {outcome} ({len(chosen)})\n")
        for o in chosen:
            print(describe(o, args.keep_narration))
    return 1 if any(o.wrong for o in outcomes) else 0


if __name__ == "__main__":
    sys.exit(main())
