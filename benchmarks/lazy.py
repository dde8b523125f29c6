"""Lazy snippets ("... existing code ..." edits) made from real files, merged and checked.

Each case (``applydiff.bench.lazy_corpus.generate``) is a real file and a snippet as a model writes
it for "fast apply": one to three changed regions (an insertion, a deletion, a replacement, or
a block's last line replaced), each with unchanged lines around it, joined by marker lines,
with or without a marker at the start and the end. Context is ``careful`` (as many lines as it
takes to be unique) or ``terse`` (one line on each side, unique in the file or not). The text
the file must hold afterwards is known exactly. Each case ends as one of:

* ``correct``: the merge returned exactly the expected text;
* ``refused``: an ``EditError`` (the right answer for a terse snippet whose context line is
  repeated in the file; a missed merge otherwise);
* ``misapplied``: a merge that is not the expected text;
* ``whitespace-off``: a merge that differs from the expected text in whitespace only (bytes
  the model did not touch came back changed): as wrong as misapplied;
* ``crashed``: an exception that is not an ``EditError`` (an engine bug).

"Placeable" cases are the careful ones and the terse ones whose context lines are unique: a
merge that reads the snippet right can place them for sure. The merge is the engine's
(``match.snippet_merge.merge_lazy``: narration out, the line merge, then the merge by
definitions when the line merge refuses); ``--lines-only`` measures the line merge
(``merge_snippet``) alone. Times are of the merge alone.

``--brace`` runs the brace-language corpus instead (``applydiff.bench.lazy_brace``:
JavaScript, TypeScript, Java, Go, Rust, C, CSS and HTML files, real ones from the machine and
generated ones full of repeated lines, with ``whole`` and ``scoped`` context besides careful
and terse), and adds a table by language for every seed.

Usage::

    PYTHONPATH=src python benchmarks/lazy.py [--cases 1500] [--seed 0] [--seeds 0,1,2]
        [--files GLOB] [--json PATH] [--show N]
    PYTHONPATH=src python benchmarks/lazy.py --brace [--cases 2400] [--langs c,go] ...

With several seeds: one totals row per seed, the per-group tables for the first. Exits 1 when
any case was misapplied, whitespace-off or crashed.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import sysconfig
import time
import traceback
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import applydiff
from applydiff.bench import lazy_brace
from applydiff.bench.lazy_corpus import KINDS, LazyCase, generate
from applydiff.bench.markdown import diff, engine_state, fence
from applydiff.match.lazy import merge_snippet, split_snippet
from applydiff.match.snippet_merge import merge_lazy
from applydiff.progress import progress_bar

# whitespace-off: a merge whose text differs from the expected one in whitespace only (bytes
# the model did not touch came back different): wrong, like misapplied.
OUTCOMES = ("correct", "refused", "misapplied", "crashed", "whitespace-off")
WRONG = ("misapplied", "whitespace-off", "crashed")
CONTEXTS = ("careful", "whole", "scoped", "terse, unique lines", "terse, repeated lines")
MARKER_SHAPES = ("lead, trail", "lead, no trail", "no lead, trail", "no lead, no trail")

# Refusal messages (applydiff.match.lazy) -> a short reason; the first fragment found wins.
REASONS = (
    ("may be meant to delete", "may delete lines elsewhere"),
    ("changes nothing", "no change"),
    ("nothing to anchor it on", "no anchor"),
    ("too common", "anchor too common ('}', 'try:')"),
    ("looks like a changed copy", "insertion or change? (changed copy)"),
    ("stands where file line", "insertion or change? (same level)"),
    ("marker after it says", "tail and block-end marker disagree"),
    ("which the file has at line", "added line already in the file"),
    ("would delete", "would delete unshown lines"),
    ("places", "anchor at several places"),
)


@dataclass
class Outcome:
    case: LazyCase
    outcome: str
    ms: float
    reason: str = ""  # refused: the short reason; crashed: the exception type
    error: str = ""  # the error message (crashed: the traceback)
    actual: str | None = None  # misapplied: what the merge returned


def reason(e: applydiff.EditError) -> str:
    message = str(e)
    for fragment, short in REASONS:
        if fragment in message:
            return short
    return f"other ({e.code})"


def engine_merge(case: LazyCase) -> str:
    """The merge the engine runs for a Lazy op on the case's path."""
    return merge_lazy(case.path, case.text, case.snippet)[0]


def line_merge(case: LazyCase) -> str:
    """The line merge alone (``--lines-only``)."""
    return merge_snippet(case.text, case.snippet)[0]


def run_case(case: LazyCase, merge: Callable[[LazyCase], str] = engine_merge) -> Outcome:
    t0 = time.perf_counter()
    try:
        out = merge(case)
    except applydiff.EditError as e:
        ms = (time.perf_counter() - t0) * 1000
        return Outcome(case, "refused", ms, reason(e), str(e))
    except Exception as e:  # an engine bug: report it, do not stop the run
        ms = (time.perf_counter() - t0) * 1000
        return Outcome(case, "crashed", ms, type(e).__name__, traceback.format_exc())
    ms = (time.perf_counter() - t0) * 1000
    if out == case.expected:
        return Outcome(case, "correct", ms)
    if squeezed(out) == squeezed(case.expected):
        return Outcome(case, "whitespace-off", ms, actual=out)
    return Outcome(case, "misapplied", ms, actual=out)


def squeezed(text: str) -> list[str]:
    """The text's words, line by line, blank lines left out."""
    return [" ".join(x.split()) for x in text.splitlines() if x.strip()]


def run_all(
    cases: list[LazyCase], label: str = "", merge: Callable[[LazyCase], str] = engine_merge
) -> list[Outcome]:
    out = []
    with progress_bar(True) as bar:
        task = bar.add_task(f"{label}merging", total=len(cases))
        for case in cases:
            out.append(run_case(case, merge))
            bar.advance(task)
    for r in out:
        if r.outcome == "crashed":
            print(f"CRASH {r.case.path}\n{r.error}", file=sys.stderr)
    return out


# -- groups ---------------------------------------------------------------------------------
def end_markers(case: LazyCase) -> list[str]:
    """For each ``replace_end`` region, what the marker after it says: a comment marker left
    of the changed line says the block ends there; one that is not, or a bare ``...`` (no
    indentation), leaves "changed or inserted?" open, and a refusal is right."""
    lines = case.text.split("\n")
    literal = frozenset(x.rstrip() for x in lines if x.strip() and not x.strip().strip(".…"))
    segments, _, _ = split_snippet(case.snippet, literal)
    if len(segments) != len(case.kinds):
        return ["(snippet not split as generated)"] if "replace_end" in case.kinds else []
    out = set()
    for seg, kind in zip(segments, case.kinds, strict=True):
        if kind != "replace_end":
            continue
        last = seg.lines[-1]
        if seg.after_indent is None:
            out.add("bare '...' after it")
        elif seg.after_indent < len(last) - len(last.lstrip()):
            out.add("comment marker left of it")
        else:
            out.add("comment marker not left of it")
    return sorted(out)


def percentile(xs: list[float], q: float) -> float:
    if not xs:
        return 0.0
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def pct(a: int, b: int) -> str:
    return f"{100 * a / b:.1f}%" if b else "-"


# -- reports --------------------------------------------------------------------------------
def totals_table(runs: dict[int, list[Outcome]]) -> str:
    head = [
        "| seed | cases | correct | refused | misapplied | crashed | whitespace-off "
        "| placeable correct | median ms | p90 ms |",
        "|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|",
    ]
    rows = []
    every = [r for rs in runs.values() for r in rs]
    groups: list[tuple[str, list[Outcome]]] = [(str(s), rs) for s, rs in runs.items()]
    if len(runs) > 1:
        groups.append(("**all**", every))
    for name, rs in groups:
        c = Counter(r.outcome for r in rs)
        places = [r for r in rs if r.case.placeable]
        good = sum(1 for r in places if r.outcome == "correct")
        ms = [r.ms for r in rs]
        cells = [name, str(len(rs)), *(str(c[o]) for o in OUTCOMES)]
        cells += [f"{good}/{len(places)} ({pct(good, len(places))})"]
        cells += [f"{statistics.median(ms) if ms else 0:.2f}", f"{percentile(ms, 0.9):.2f}"]
        rows.append("| " + " | ".join(cells) + " |")
    return "\n".join(head + rows)


def group_table(
    results: list[Outcome], title: str, keys: Callable[[LazyCase], list[str]], order: list[str]
) -> str:
    groups: dict[str, list[Outcome]] = {}
    for r in results:
        for k in keys(r.case):
            groups.setdefault(k, []).append(r)
    names = [k for k in order if k in groups] + sorted(k for k in groups if k not in order)
    head = [
        f"| {title} | cases | correct | refused | misapplied | crashed | whitespace-off "
        "| correct % | median ms |",
        "|---|--:|--:|--:|--:|--:|--:|--:|--:|",
    ]
    rows = []
    for k in names:
        rs = groups[k]
        c = Counter(r.outcome for r in rs)
        cells = [k, str(len(rs)), *(str(c[o]) for o in OUTCOMES), pct(c["correct"], len(rs))]
        cells.append(f"{statistics.median(r.ms for r in rs):.2f}")
        rows.append("| " + " | ".join(cells) + " |")
    return "\n".join(head + rows)


def refusal_table(results: list[Outcome]) -> str:
    refused = [r for r in results if r.outcome == "refused"]
    if not refused:
        return "No case was refused."
    by: dict[str, Counter[str]] = {}
    for r in refused:
        by.setdefault(r.reason, Counter())[r.case.context_group] += 1
    head = [
        "| reason | " + " | ".join(CONTEXTS) + " | total |",
        "|---|" + "--:|" * (len(CONTEXTS) + 1),
    ]
    rows = []
    for name, c in sorted(by.items(), key=lambda kv: (-sum(kv[1].values()), kv[0])):
        cells = [name, *(str(c[x]) for x in CONTEXTS), str(sum(c.values()))]
        rows.append("| " + " | ".join(cells) + " |")
    return "\n".join(head + rows)


def language_table(results: list[Outcome]) -> str:
    """Per language: the outcomes and the share of placeable cases merged."""
    head = [
        "| language | cases | correct | refused | misapplied | whitespace-off | crashed "
        "| placeable merged | median ms |",
        "|---|--:|--:|--:|--:|--:|--:|--:|--:|",
    ]
    by: dict[str, list[Outcome]] = {}
    for r in results:
        by.setdefault(r.case.lang, []).append(r)
    order = [x for x in lazy_brace.LANGS if x in by] + sorted(set(by) - set(lazy_brace.LANGS))
    rows = []
    for name, rs in [(x, by[x]) for x in order] + [("**all**", results)]:
        c = Counter(r.outcome for r in rs)
        places = [r for r in rs if r.case.placeable]
        good = sum(1 for r in places if r.outcome == "correct")
        cells = [name, str(len(rs))]
        cells += [str(c[o]) for o in ("correct", "refused", "misapplied", "whitespace-off")]
        cells += [str(c["crashed"]), f"{good}/{len(places)} ({pct(good, len(places))})"]
        cells.append(f"{statistics.median(r.ms for r in rs) if rs else 0:.2f}")
        rows.append("| " + " | ".join(cells) + " |")
    return "\n".join(head + rows)


def group_tables(results: list[Outcome]) -> str:
    def kinds(case: LazyCase) -> list[str]:
        order = KINDS + tuple(k for k in lazy_brace.KINDS if k not in KINDS)
        return sorted(set(case.kinds), key=order.index)

    parts = [
        ("By regions", "regions", lambda c: [f"{c.regions} region(s)"], []),
        (
            "By kind (a case with regions of several kinds counts under each)",
            "kind",
            kinds,
            [*KINDS, "member"],
        ),
        ("By context", "context", lambda c: [c.context_group], list(CONTEXTS)),
        ("By markers", "markers", lambda c: [c.markers], list(MARKER_SHAPES)),
        ("By source", "file", lambda c: [source(c)], ["real", "generated"]),
        ("By noise", "snippet", lambda c: [c.noise or "as copied"], ["as copied"]),
        (
            "Cases with a replace_end region, by the marker after that region",
            "marker after the changed last line",
            end_markers,
            [],
        ),
    ]
    out = []
    for heading, title, keys, order in parts:
        out += [f"### {heading}", "", group_table(results, title, keys, order), ""]
    out += ["### Refusals by reason and context", "", refusal_table(results)]
    return "\n".join(out)


def source(case: LazyCase) -> str:
    return "generated" if case.path.startswith("<generated") else "real"


def failures(results: list[Outcome], show: int) -> str:
    bad = [r for r in results if r.outcome in WRONG]
    if not bad:
        return "No case was misapplied, whitespace-off or crashed."
    out = [f"### Misapplied, whitespace-off or crashed: {len(bad)} case(s)", ""]
    for r in bad[:show]:
        c = r.case
        out += [
            f"#### {r.outcome}: {short_path(c.path)} ({c.lang}), {c.shape}, "
            f"kinds {', '.join(c.kinds)}{', ' + c.noise if c.noise else ''}",
            "",
            "snippet:",
            fence(c.snippet),
        ]
        if r.outcome == "crashed":
            out += ["traceback:", fence(r.error)]
        else:
            out += ["diff expected -> actual:", fence(diff(c.expected, r.actual or ""), "diff")]
        out.append("")
    if len(bad) > show:
        out.append(f"({len(bad) - show} more not shown; raise --show or see --json)")
    return "\n".join(out)


def short_path(path: str) -> str:
    stdlib = sysconfig.get_paths()["stdlib"]
    return os.path.relpath(path, stdlib) if path.startswith(stdlib) else path


def record(seed: int, r: Outcome) -> dict[str, Any]:
    c = r.case
    out: dict[str, Any] = {
        "seed": seed,
        "lang": c.lang,
        "path": c.path,
        "regions": c.regions,
        "kinds": list(c.kinds),
        "context": c.context_group,
        "noise": c.noise,
        "lead_marker": c.lead_marker,
        "trail_marker": c.trail_marker,
        "outcome": r.outcome,
        "ms": round(r.ms, 4),
        "reason": r.reason,
        "error": r.error,
    }
    if r.outcome in WRONG:
        out["snippet"] = c.snippet
        if source(c) == "generated":
            out["text"] = c.text
    if r.actual is not None:
        out["diff"] = diff(c.expected, r.actual)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--cases", type=int, help="cases per seed (1500; --brace: 2400)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--seeds", help="comma-separated seeds (overrides --seed)")
    ap.add_argument("--files", metavar="GLOB", help="source files (default: the stdlib)")
    ap.add_argument("--json", metavar="PATH", help="write per-case results here")
    ap.add_argument("--show", type=int, default=3, help="wrong or crashed cases shown")
    ap.add_argument("--brace", action="store_true", help="the brace-language corpus")
    ap.add_argument(
        "--lines-only", action="store_true", help="the line merge alone (merge_snippet)"
    )
    ap.add_argument(
        "--langs", help=f"--brace: comma-separated languages ({','.join(lazy_brace.LANGS)})"
    )
    args = ap.parse_args(argv)
    merge = line_merge if args.lines_only else engine_merge
    seeds = [int(s) for s in args.seeds.split(",")] if args.seeds else [args.seed]
    if args.cases is None:
        args.cases = 2400 if args.brace else 1500
    langs = tuple(args.langs.split(",")) if args.langs else lazy_brace.LANGS
    if args.brace and not set(langs) <= set(lazy_brace.LANGS):
        ap.error(f"--langs: one of {', '.join(lazy_brace.LANGS)}")

    def cases_for(seed: int) -> list[LazyCase]:
        if args.brace:
            return lazy_brace.generate(args.cases, seed, langs)
        return generate(args.cases, seed, args.files)

    runs: dict[int, list[Outcome]] = {}
    gen_s = merge_s = 0.0
    for seed in seeds:
        t0 = time.perf_counter()
        cases = cases_for(seed)
        gen_s += time.perf_counter() - t0
        if len(cases) < args.cases:
            print(f"warning: seed {seed}: only {len(cases)} cases", file=sys.stderr)
        t0 = time.perf_counter()
        runs[seed] = run_all(cases, f"seed {seed}: ", merge)
        merge_s += time.perf_counter() - t0

    first = seeds[0]
    n = sum(len(rs) for rs in runs.values())
    corpus = f"brace languages: {', '.join(langs)}" if args.brace else "Python"
    print(
        f"## Lazy snippets, {corpus} ({args.cases} cases per seed, seeds "
        f"{', '.join(map(str, seeds))}; generated in {gen_s:.0f}s, merged in {merge_s:.1f}s)"
    )
    print(f"\n{engine_state()}, Python {sys.version.split()[0]}; {n} cases\n")
    print(totals_table(runs))
    print(
        "\nplaceable correct: correct / (careful, whole and scoped + terse-unique cases); "
        f"ms: {'merge_snippet' if args.lines_only else 'merge_lazy'}() per snippet\n"
    )
    if args.brace:
        for seed, rs in runs.items():
            print(f"## Seed {seed}, by language\n")
            print(language_table(rs))
            print()
    print(f"## Seed {first}, by group\n")
    print(group_tables(runs[first]))
    print()
    bad = [r for rs in runs.values() for r in rs if r.outcome in WRONG]
    print(failures(bad, args.show))
    if args.json:
        data = {
            "corpus": "brace" if args.brace else "python",
            "cases": args.cases,
            "seeds": seeds,
            "files": args.files,
            "engine": engine_state(),
            "results": [record(s, r) for s, rs in runs.items() for r in rs],
        }
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(data, f, indent=1)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
