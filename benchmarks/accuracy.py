"""Run the generated corpus through the matching ladder and count what it got right.

Two corpora: ``stdlib`` (the standard library's Python, the default) and ``foreign`` (C
headers, npm's JavaScript, C/C++, Perl, CSS/HTML, Go: ``sources.foreign_groups``).

Each case ends as one of:

* ``correct``: the result is exactly ``expected`` (or the engine refused a must-refuse case);
* ``whitespace_off``: applied, and differs from ``expected`` only in whitespace (wrong too:
  bytes the model did not touch are the file's bytes);
* ``refused``: an ``EditError`` where a result was expected;
* ``misapplied``: anything else: applied in the wrong place or the wrong way, or applied where
  it must refuse;
* ``crashed``: an exception that is not an ``EditError`` (an engine bug).

Usage::

    PYTHONPATH=src python benchmarks/accuracy.py [--corpus stdlib|foreign] [--per-kind 200]
        [--seed 0 | --seeds 0,1,2] [--threshold X] [--sweep] [--json PATH] [--files GLOB]
        [--kinds a,b] [--show 3]

Exits 1 when any case was misapplied, whitespace-off or crashed (with ``--sweep``: only when
one crashed).
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
from applydiff.bench.case_maker import Case
from applydiff.bench.corpus import (
    FOREIGN_KINDS,
    FUZZY_KINDS,
    REFUSE_KINDS,
    STDLIB_KINDS,
    generate,
)
from applydiff.bench.markdown import diff, engine_state, fence
from applydiff.bench.sources import FOREIGN, foreign_groups

try:  # the tier that answered, without a second lookup
    from applydiff.match import replace_with_matches
except ImportError:  # pragma: no cover - older/newer engine layout
    replace_with_matches = None

OUTCOMES = ("correct", "whitespace_off", "refused", "misapplied", "crashed")
WRONG = ("whitespace_off", "misapplied", "crashed")
CORPORA = {"stdlib": (None, STDLIB_KINDS), "foreign": (FOREIGN, FOREIGN_KINDS)}
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
    seed: int = 0


Key = tuple[int, str, int]  # seed, kind, index among the kind's cases of that seed


def run_case(case: Case, index: int, threshold: float | None, seed: int = 0) -> Result:
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
        return _result(
            case, index, outcome, answer, None, ms, error=str(e), nearest=near, seed=seed
        )
    except Exception as e:  # an engine bug: report it, do not stop the run
        ms = (time.perf_counter() - t0) * 1000
        return _result(
            case,
            index,
            "crashed",
            type(e).__name__,
            None,
            ms,
            error=traceback.format_exc(),
            seed=seed,
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
    return _result(case, index, outcome, answer, conf, ms, actual=out, seed=seed)


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
    seed: int = 0,
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
        seed,
    )


def indexed(cases: list[Case], seed: int = 0) -> list[tuple[Key, Case]]:
    seen: Counter[str] = Counter()
    out = []
    for c in cases:
        out.append(((seed, c.kind, seen[c.kind]), c))
        seen[c.kind] += 1
    return out


def run_all(
    cases: list[tuple[Key, Case]], threshold: float | None, label: str = ""
) -> list[Result]:
    out = []
    for n, ((seed, _, i), case) in enumerate(cases, 1):
        out.append(run_case(case, i, threshold, seed))
        if n % 100 == 0 or n == len(cases):
            print(f"\r{label}{n}/{len(cases)} cases", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    for r in out:
        if r.outcome == "crashed":
            print(
                f"CRASH seed {r.seed} {r.kind} #{r.index} {r.path}:{r.line}\n{r.error}",
                file=sys.stderr,
            )
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


def per_seed(results: list[Result], kinds: list[str], seeds: list[int]) -> str:
    """Outcomes per kind and seed: ``cases: correct / whitespace_off / refused / misapplied``
    (``+N crashed`` when any), and each kind's correct share over all seeds."""
    head = [
        "Each cell: cases: correct / whitespace_off / refused / misapplied.",
        "",
        "| kind | must | " + " | ".join(f"seed {x}" for x in seeds) + " | correct, all seeds |",
        "|---|---|" + "--:|" * len(seeds) + "--:|",
    ]

    def cell(rs: list[Result]) -> str:
        c = Counter(r.outcome for r in rs)
        text = f"{len(rs)}: " + " / ".join(str(c[o]) for o in OUTCOMES[:4])
        return text + (f" +{c['crashed']} crashed" if c["crashed"] else "")

    rows = []
    for kind in [*kinds, None]:
        rs = [r for r in results if kind is None or r.kind == kind]
        if not rs:
            continue
        must = "" if kind is None else "refuse" if kind in REFUSE_KINDS else "apply"
        cells = [cell([r for r in rs if r.seed == x]) for x in seeds]
        share = sum(r.outcome == "correct" for r in rs) / len(rs)
        name = "**total**" if kind is None else kind
        rows.append(f"| {name} | {must} | " + " | ".join(cells) + f" | {100 * share:.1f}% |")
    apply = [r for r in results if r.kind not in REFUSE_KINDS]
    lines = []
    for x in [*seeds, None]:
        rs = [r for r in apply if x is None or r.seed == x]
        if rs:
            ok = sum(r.outcome == "correct" for r in rs)
            wrong = sum(r.outcome in WRONG for r in results if x is None or r.seed == x)
            label = "all seeds" if x is None else f"seed {x}"
            lines.append(
                f"- {label}: {ok}/{len(rs)} ({100 * ok / len(rs):.1f}%) of the must-apply "
                f"cases correct; {wrong} wrong (whitespace_off, misapplied or crashed)"
            )
    return "\n".join([*head, *rows, "", *lines])


def failures(results: list[Result], cases: dict[Key, Case], show: int) -> str:
    bad = [r for r in results if r.outcome in WRONG]
    if not bad:
        return "No case was misapplied, whitespace-off or crashed."
    out = [f"## Misapplied, whitespace-off or crashed: {len(bad)} case(s)", ""]
    shown: Counter[str] = Counter()
    for r in bad:
        case = cases[(r.seed, r.kind, r.index)]
        shown[r.kind] += 1
        if shown[r.kind] > show:
            continue
        conf = f" ({r.confidence:.3f})" if r.confidence is not None else ""
        out += [
            f"### {r.outcome}: {r.kind} #{r.index} (seed {r.seed}), {r.path}, "
            f"block at line {r.line}",
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


def sweep(cases: list[tuple[Key, Case]]) -> tuple[dict[float, list[Result]], str]:
    """Every case at every threshold of ``SWEEP``, and the table of outcomes."""
    by_t = {t: run_all(cases, t, f"threshold {t:.2f}: ") for t in SWEEP}
    resolve = [k for k in FUZZY_KINDS if k not in REFUSE_KINDS]
    refuse = [k for k in FUZZY_KINDS if k in REFUSE_KINDS]
    head = [
        "| threshold | correct | whitespace_off | refused | misapplied | crashed "
        "| fuzzy must-resolve: correct / whitespace_off / refused / misapplied "
        "| fuzzy must-refuse: refused / misapplied | wrong by kind |",
        "|--:|--:|--:|--:|--:|--:|--:|--:|---|",
    ]
    rows = []
    for t, rs in by_t.items():
        c = Counter(r.outcome for r in rs)
        f = Counter(r.outcome for r in rs if r.kind in resolve)
        g = Counter(r.outcome for r in rs if r.kind in refuse)
        mis = Counter(r.kind for r in rs if r.outcome in WRONG)
        by_kind = ", ".join(f"{k} {n}" for k, n in mis.most_common()) or "-"
        mark = " (default)" if abs(t - applydiff.DEFAULT_THRESHOLD) < 1e-9 else ""
        cells = [f"{t:.2f}{mark}", *(str(c[o]) for o in OUTCOMES)]
        cells += [" / ".join(str(f[o]) for o in OUTCOMES[:4])]
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
    ap.add_argument("--corpus", choices=sorted(CORPORA), default="stdlib", help="default stdlib")
    ap.add_argument("--per-kind", type=int, default=200, help="cases per kind and seed")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--seeds", help="comma-separated seeds (instead of --seed), e.g. 0,1,2")
    ap.add_argument("--threshold", type=float, default=None, help="fuzzy threshold to use")
    ap.add_argument("--sweep", action="store_true", help=f"run at thresholds {SWEEP}")
    ap.add_argument("--json", metavar="PATH", help="write per-case results here")
    ap.add_argument("--files", metavar="GLOB", help="source files (default: the corpus's)")
    ap.add_argument("--kinds", help="comma-separated kinds (default: the corpus's)")
    ap.add_argument("--show", type=int, default=3, help="failures shown per kind")
    args = ap.parse_args(argv)

    files, corpus_kinds = CORPORA[args.corpus]
    files = args.files or files
    kinds = args.kinds.split(",") if args.kinds else list(corpus_kinds)
    seeds = [int(x) for x in args.seeds.split(",")] if args.seeds else [args.seed]
    t0 = time.perf_counter()
    cases = [
        kc for seed in seeds for kc in indexed(generate(kinds, args.per_kind, seed, files), seed)
    ]
    took = time.perf_counter() - t0
    print(f"generated {len(cases)} cases in {took:.1f}s", file=sys.stderr)
    short = Counter((key[0], c.kind) for key, c in cases)
    for seed in seeds:
        for k in kinds:
            if short[seed, k] < args.per_kind:
                print(
                    f"warning: only {short[seed, k]} cases of kind {k}, seed {seed}",
                    file=sys.stderr,
                )
    by_key = dict(cases)
    where = args.files or ("the standard library" if args.corpus == "stdlib" else "foreign files")
    config = {
        "corpus": args.corpus,
        "per_kind": args.per_kind,
        "seeds": seeds,
        "files": files,
        "engine": engine_state(),
    }
    what = f"{args.corpus} corpus, seeds {','.join(map(str, seeds))}, {len(cases)} cases"

    if args.sweep:
        by_t, text = sweep(cases)
        print(f"# Threshold sweep ({what}, {engine_state()})")
        print(f"\n{text}")
        if args.json:
            dump(args.json, {**config, "sweep": {str(t): rs for t, rs in by_t.items()}})
        return 1 if any(r.outcome == "crashed" for rs in by_t.values() for r in rs) else 0

    t0 = time.perf_counter()
    results = run_all(cases, args.threshold)
    took = time.perf_counter() - t0
    threshold = args.threshold if args.threshold is not None else applydiff.DEFAULT_THRESHOLD
    print(f"# Accuracy (threshold {threshold}, {what}, {took:.0f}s)")
    print(f"\n{engine_state()}; cases from {where}{sources(files)}\n")
    print(table(results, kinds))
    print()
    print("## Per kind and seed\n")
    print(per_seed(results, kinds, seeds))
    print()
    print(failures(results, by_key, args.show))
    if args.json:
        dump(args.json, {**config, "threshold": threshold, "results": results})
    return 1 if any(r.outcome in WRONG for r in results) else 0


def sources(files: str | None) -> str:
    """The foreign corpus's file groups, for the report's header."""
    if files != FOREIGN:
        return ""
    groups = foreign_groups()
    total = sum(map(len, groups.values()))
    return f" ({total} files: " + ", ".join(f"{g} {len(p)}" for g, p in groups.items()) + ")"


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
