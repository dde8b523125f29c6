"""Run the generated corpus through the matching ladder and count what it got right.

Each case ends as one of:

* ``correct``: the result is exactly ``expected`` (or the engine refused a must-refuse case);
* ``whitespace_off``: applied, and differs from ``expected`` only in whitespace;
* ``refused``: an ``EditError`` where a result was expected;
* ``misapplied``: anything else: applied in the wrong place or the wrong way, or applied where
  it must refuse;
* ``crashed``: an exception that is not an ``EditError`` (an engine bug).

Usage::

    PYTHONPATH=src python benchmarks/accuracy.py [--per-kind 200] [--seed 0] [--threshold X]
        [--sweep] [--json PATH] [--files GLOB] [--kinds a,b] [--show 3]

Exits 1 when any case was misapplied or crashed (with ``--sweep``: only when one crashed).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import traceback
from collections import Counter
from dataclasses import asdict, dataclass
from typing import Any

import applydiff
from applydiff.bench.corpus import FUZZY_KINDS, KINDS, REFUSE_KINDS, Case, generate
from applydiff.bench.markdown import diff, engine_state, fence

try:  # the tier that answered, without a second lookup
    from applydiff.match import replace_with_matches
except ImportError:  # pragma: no cover - older/newer engine layout
    replace_with_matches = None

OUTCOMES = ("correct", "whitespace_off", "refused", "misapplied", "crashed")
SWEEP = (*(round(0.50 + 0.05 * i, 2) for i in range(10)), 0.97, 0.98)


@dataclass
class Result:
    kind: str
    index: int  # position among the cases of its kind: generate([kind], n, seed)[index]
    outcome: str
    answer: str  # the tier that applied the edit, or the error code (Ambiguous: code/tier)
    confidence: float | None
    ms: float
    path: str
    line: int
    note: str
    actual: str | None = None
    error: str = ""
    nearest: float | None = None  # a refusal's closest region (NoMatch), its similarity


def run_case(case: Case, index: int, threshold: float | None) -> Result:
    t0 = time.perf_counter()
    conf: float | None = None
    try:
        kwargs: dict[str, Any] = {
            "replace_all": case.replace_all,
            "hint_line": case.hint_line,
            "threshold": threshold,
        }
        if replace_with_matches is not None:
            out, matches = replace_with_matches(
                case.text, case.old, case.new, **kwargs, report=True
            )
            answer = matches[0].tier if matches else "?"
            conf = min((m.confidence for m in matches), default=None)
        else:
            out = applydiff.replace(case.text, case.old, case.new, **kwargs)
            answer = "?"
    except applydiff.EditError as e:
        ms = (time.perf_counter() - t0) * 1000
        answer = e.code + (f"/{e.tier}" if isinstance(e, applydiff.Ambiguous) else "")
        outcome = "correct" if case.expected is None else "refused"
        closest = getattr(e, "closest", None) or []
        near = max((r.similarity for r in closest), default=None)
        return _result(case, index, outcome, answer, None, ms, error=str(e), nearest=near)
    except Exception as e:  # an engine bug: report it, do not stop the run
        ms = (time.perf_counter() - t0) * 1000
        return _result(
            case, index, "crashed", type(e).__name__, None, ms, error=traceback.format_exc()
        )
    ms = (time.perf_counter() - t0) * 1000
    if case.expected is None:
        outcome = "misapplied"
    elif out == case.expected:
        outcome = "correct"
    elif out.split() == case.expected.split():
        outcome = "whitespace_off"
    else:
        outcome = "misapplied"
    return _result(case, index, outcome, answer, conf, ms, actual=out)


def _result(
    case: Case,
    index: int,
    outcome: str,
    answer: str,
    conf: float | None,
    ms: float,
    *,
    actual: str | None = None,
    error: str = "",
    nearest: float | None = None,
) -> Result:
    keep = actual if outcome in ("misapplied", "whitespace_off") else None
    return Result(
        case.kind,
        index,
        outcome,
        answer,
        conf,
        ms,
        case.path,
        case.line,
        case.note,
        keep,
        error,
        nearest,
    )


def indexed(cases: list[Case]) -> list[tuple[int, Case]]:
    seen: Counter[str] = Counter()
    out = []
    for c in cases:
        out.append((seen[c.kind], c))
        seen[c.kind] += 1
    return out


def run_all(
    cases: list[tuple[int, Case]], threshold: float | None, label: str = ""
) -> list[Result]:
    out = []
    for n, (i, case) in enumerate(cases, 1):
        out.append(run_case(case, i, threshold))
        if n % 100 == 0 or n == len(cases):
            print(f"\r{label}{n}/{len(cases)} cases", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    for r in out:
        if r.outcome == "crashed":
            print(f"CRASH {r.kind} #{r.index} {r.path}:{r.line}\n{r.error}", file=sys.stderr)
    return out


# -- reports --------------------------------------------------------------------------------
def table(results: list[Result], kinds: list[str]) -> str:
    head = [
        "| kind | cases | correct | whitespace_off | refused | misapplied | crashed "
        "| answered by | ms/case | max ms |",
        "|---|--:|--:|--:|--:|--:|--:|---|--:|--:|",
    ]
    rows = []
    for kind in [*kinds, None]:
        rs = [r for r in results if kind is None or r.kind == kind]
        if not rs:
            continue
        c = Counter(r.outcome for r in rs)
        answers = Counter(r.answer for r in rs)
        spread = ", ".join(f"{a} {n}" for a, n in answers.most_common())
        mean = sum(r.ms for r in rs) / len(rs)
        name = "**total**" if kind is None else kind
        cells = [name, str(len(rs)), *(str(c[o]) for o in OUTCOMES)]
        cells += [spread if kind is not None else "", f"{mean:.1f}", f"{max(r.ms for r in rs):.0f}"]
        rows.append("| " + " | ".join(cells) + " |")
    return "\n".join(head + rows)


def failures(results: list[Result], cases: dict[tuple[str, int], Case], show: int) -> str:
    bad = [r for r in results if r.outcome in ("misapplied", "crashed")]
    if not bad:
        return "No case was misapplied or crashed."
    out = [f"## Misapplied or crashed: {len(bad)} case(s)", ""]
    shown: Counter[str] = Counter()
    for r in bad:
        case = cases[(r.kind, r.index)]
        shown[r.kind] += 1
        if shown[r.kind] > show:
            continue
        conf = f" ({r.confidence:.3f})" if r.confidence is not None else ""
        out += [
            f"### {r.outcome}: {r.kind} #{r.index}, {r.path}, block at line {r.line}",
            f"- made by: {r.note}",
            f"- answered by: {r.answer}{conf}; hint_line={case.hint_line}",
            "",
            "old:",
            fence(case.old),
            "new:",
            fence(case.new),
        ]
        if r.outcome == "crashed":
            out += ["traceback:", fence(r.error)]
        else:
            want = case.expected if case.expected is not None else case.text
            what = "expected" if case.expected is not None else "file (must stay unchanged)"
            out += [f"diff {what} -> actual:", fence(diff(want, r.actual or ""), "diff")]
    hidden = sum(max(0, n - show) for n in shown.values())
    if hidden:
        out.append(f"({hidden} more not shown; raise --show or see --json)")
    return "\n".join(out)


def sweep(cases: list[tuple[int, Case]]) -> tuple[dict[float, list[Result]], str]:
    """Every case at every threshold of ``SWEEP``, and the table of outcomes."""
    by_t = {t: run_all(cases, t, f"threshold {t:.2f}: ") for t in SWEEP}
    resolve = [k for k in FUZZY_KINDS if k not in REFUSE_KINDS]
    refuse = [k for k in FUZZY_KINDS if k in REFUSE_KINDS]
    head = [
        "| threshold | correct | whitespace_off | refused | misapplied | crashed "
        "| fuzzy must-resolve: correct / refused / misapplied "
        "| fuzzy must-refuse: refused / misapplied | misapplied by kind |",
        "|--:|--:|--:|--:|--:|--:|--:|--:|---|",
    ]
    rows = []
    for t, rs in by_t.items():
        c = Counter(r.outcome for r in rs)
        f = Counter(r.outcome for r in rs if r.kind in resolve)
        g = Counter(r.outcome for r in rs if r.kind in refuse)
        mis = Counter(r.kind for r in rs if r.outcome == "misapplied")
        by_kind = ", ".join(f"{k} {n}" for k, n in mis.most_common()) or "-"
        mark = " (default)" if abs(t - applydiff.DEFAULT_THRESHOLD) < 1e-9 else ""
        cells = [f"{t:.2f}{mark}", *(str(c[o]) for o in OUTCOMES)]
        cells += [f"{f['correct']} / {f['refused']} / {f['misapplied']}"]
        cells += [f"{g['correct']} / {g['misapplied']}", by_kind]
        rows.append("| " + " | ".join(cells) + " |")
    kinds = (
        f"Fuzzy must-resolve kinds: {', '.join(resolve)}. "
        f"Fuzzy must-refuse kinds: {', '.join(refuse)}."
    )
    return by_t, "\n".join([kinds, "", *head, *rows]) + "\n\n" + confidences(by_t[SWEEP[0]])


def confidences(results: list[Result]) -> str:
    """How far apart right and wrong fuzzy answers are: the similarity of each fuzzy answer
    at the lowest threshold (where the fuzzy tier answers most), and for the refusals of the
    fuzzy kinds the similarity of the closest region the refusal reported."""
    groups: dict[tuple[str, str], list[float]] = {}
    near: dict[tuple[str, str], list[float]] = {}
    for r in results:
        if r.answer == "fuzzy" and r.confidence is not None:
            groups.setdefault((r.outcome, r.kind), []).append(r.confidence)
        elif r.kind in FUZZY_KINDS and r.nearest is not None:
            near.setdefault((r.outcome, r.kind), []).append(r.nearest)
    if not groups:
        return "No case was answered by the fuzzy tier."
    lines = [
        f"Fuzzy-tier answers at threshold {SWEEP[0]:.2f}, by outcome and kind "
        "(similarity min / median / max):",
        "",
        *spread(groups),
    ]
    if near:
        lines += [
            "",
            f"Refusals (no_match) of the fuzzy kinds at threshold {SWEEP[0]:.2f}: similarity "
            "of the closest region reported (min / median / max); `correct` means the kind "
            "must refuse:",
            "",
            *spread(near),
        ]
    return "\n".join(lines)


def spread(groups: dict[tuple[str, str], list[float]]) -> list[str]:
    out = []
    for (outcome, kind), xs in sorted(groups.items()):
        xs.sort()
        mid = xs[len(xs) // 2]
        out.append(f"- {outcome} {kind}: {len(xs)} cases, {xs[0]:.3f} / {mid:.3f} / {xs[-1]:.3f}")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--per-kind", type=int, default=200)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threshold", type=float, default=None, help="fuzzy threshold to use")
    ap.add_argument("--sweep", action="store_true", help=f"run at thresholds {SWEEP}")
    ap.add_argument("--json", metavar="PATH", help="write per-case results here")
    ap.add_argument("--files", metavar="GLOB", help="source files (default: the stdlib)")
    ap.add_argument("--kinds", help="comma-separated kinds (default: all)")
    ap.add_argument("--show", type=int, default=3, help="failures shown per kind")
    args = ap.parse_args(argv)

    kinds = args.kinds.split(",") if args.kinds else list(KINDS)
    t0 = time.perf_counter()
    cases = indexed(generate(kinds, args.per_kind, args.seed, args.files))
    took = time.perf_counter() - t0
    print(f"generated {len(cases)} cases in {took:.1f}s", file=sys.stderr)
    short = Counter(c.kind for _, c in cases)
    for k in kinds:
        if short[k] < args.per_kind:
            print(f"warning: only {short[k]} cases of kind {k}", file=sys.stderr)
    by_key = {(c.kind, i): c for i, c in cases}
    config = {
        "per_kind": args.per_kind,
        "seed": args.seed,
        "files": args.files,
        "engine": engine_state(),
    }

    if args.sweep:
        by_t, text = sweep(cases)
        print(f"# Threshold sweep ({len(cases)} cases, seed {args.seed}, {engine_state()})")
        print(f"\n{text}")
        if args.json:
            dump(args.json, {**config, "sweep": {str(t): rs for t, rs in by_t.items()}})
        return 1 if any(r.outcome == "crashed" for rs in by_t.values() for r in rs) else 0

    t0 = time.perf_counter()
    results = run_all(cases, args.threshold)
    took = time.perf_counter() - t0
    threshold = args.threshold if args.threshold is not None else applydiff.DEFAULT_THRESHOLD
    print(f"# Accuracy (threshold {threshold}, seed {args.seed}, {len(cases)} cases, {took:.0f}s)")
    print(f"\n{engine_state()}\n")
    print(table(results, kinds))
    print()
    print(failures(results, by_key, args.show))
    if args.json:
        dump(args.json, {**config, "threshold": threshold, "results": results})
    return 1 if any(r.outcome in ("misapplied", "crashed") for r in results) else 0


def dump(path: str, data: dict[str, Any]) -> None:
    def plain(x: Any) -> Any:
        if isinstance(x, Result):
            return asdict(x)
        if isinstance(x, dict):
            return {k: plain(v) for k, v in x.items()}
        if isinstance(x, list):
            return [plain(v) for v in x]
        return x

    with open(path, "w", encoding="utf-8") as f:
        json.dump(plain(data), f, indent=1)


if __name__ == "__main__":
    sys.exit(main())
