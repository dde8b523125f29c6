"""``verify_merge`` measured (issue 27): its confusion table and its speed.

Every case is an original, a lazy snippet and merges of it:

* **deterministic merges**: the engine's own merge of every lazy corpus (generated Python from
  the stdlib, generated brace languages, the hand-written shapes corpus, and the real
  snippets given on the command line). Each must verify: a rejection is a bug in one of the
  two, and makes the script exit 1.
* **reference merges**: the merged file a source records as right for its snippet: the
  generated corpora's expected files, the shapes corpus's, Continue's test examples (a
  developer checked them) and Kortix's example. A rejection is a false alarm unless the
  reference itself is wrong (the table's ``--show`` lists each with its reasons).
* **model merges**: what Morph's fast-apply models made of real snippets
  (``morphllm/coding-agent-bench``, ``pi-fast-apply``'s snapshots). Neither right nor wrong
  by assumption: the rejections are listed by reason to be judged.
* **faulty merges**: each right merge (a verified reference, else the deterministic merge)
  with one fault a fast-apply model makes (``applydiff.bench.merge_faults``): each must be
  rejected, but for ``moved_line`` (the right line in a wrong place, which the verifier says
  it cannot see: counted apart).

Speed: the median milliseconds of ``verify_merge`` per merge by the original's size, beside
the median of the deterministic merge of the same cases (a baseline measured in the same run).

Nothing of the real sources is in this repository: each is read from a directory given on the
command line (as ``benchmarks/real_snippets.py`` reads them).

Usage::

    PYTHONPATH=src python benchmarks/verify_merge.py [--cases 600] [--brace 800] [--seed 0]
        [--continue DIR ...] [--morph DIR] [--kortix DIR] [--pi DIR] [--show WHAT]

``--show`` prints the cases of one kind: ``deterministic`` (rejected deterministic merges),
``reference`` (rejected references), ``model`` (rejected model merges), or a fault kind
(faulty merges that passed).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import real_snippets
from applydiff.bench import lazy_brace, lazy_shapes
from applydiff.bench.lazy_corpus import generate
from applydiff.bench.merge_faults import KINDS, UNSEEN, faults
from applydiff.errors import EditError
from applydiff.match.verify_merge import MergeVerdict, verify_merge


@dataclass
class Case:
    source: str
    name: str
    path: str
    original: str
    snippet: str
    reference: str | None = None  # a merge the source says is right
    model: str | None = None  # a merge a fast-apply model made (judged, not assumed)


def generated(cases: int, brace: int, seed: int) -> list[Case]:
    out = [
        Case("python (generated)", c.path, c.path, c.text, c.snippet, c.expected)
        for c in generate(cases, seed=seed)
    ]
    out += [
        Case(f"brace {c.lang} (generated)", c.path, c.path, c.text, c.snippet, c.expected)
        for c in lazy_brace.generate(brace, seed=seed)
    ]
    out += [
        Case("shapes (hand-written)", c.id, c.path, c.before, c.snippet, c.after)
        for c in lazy_shapes.load()
    ]
    return out


def real(args: argparse.Namespace) -> list[Case]:
    out: list[Case] = []
    seen: set[str] = set()
    for d in args.continue_dir:
        found, _ = real_snippets.continue_cases(d, "continue")
        for c in found:
            if c.name not in seen:
                seen.add(c.name)
                out.append(Case("continue", c.name, c.path, c.original, c.snippet, c.expected))
    if args.kortix:
        found, _ = real_snippets.kortix_cases(args.kortix)
        out += [Case("kortix", c.name, c.path, c.original, c.snippet, c.expected) for c in found]
    if args.morph:
        found, _ = real_snippets.morph_cases(args.morph)
        out += [
            Case("morph", c.name, c.path, c.original, c.snippet, model=c.expected) for c in found
        ]
    if args.pi:
        for d in sorted(args.pi.glob("*/")):
            parts = [d / f for f in ("original.txt", "snippet.txt", "morph_output.txt")]
            if all(p.is_file() for p in parts):
                original, snippet, merged = (p.read_text(encoding="utf-8") for p in parts)
                out.append(Case("pi-fast-apply", d.name, "", original, snippet, model=merged))
    return out


def deterministic(case: Case) -> tuple[str | None, float]:
    start = time.perf_counter()
    try:
        merged = lazy_shapes.engine_merge(case.path, case.original, case.snippet)
    except EditError:
        merged = None
    return merged, time.perf_counter() - start


def timed(case: Case, merged: str, seconds: list[float]) -> MergeVerdict:
    start = time.perf_counter()
    verdict = verify_merge(case.original, case.snippet, merged, case.path or None)
    seconds.append(time.perf_counter() - start)
    return verdict


def size_group(text: str) -> str:
    n = text.count("\n")
    for limit in (100, 500, 2000):
        if n <= limit:
            return f"up to {limit:,} lines"
    return "over 2,000 lines"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cases", type=int, default=600, help="generated Python cases")
    ap.add_argument("--brace", type=int, default=800, help="generated brace-language cases")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--continue", dest="continue_dir", type=Path, action="append", default=[])
    ap.add_argument("--morph", type=Path)
    ap.add_argument("--kortix", type=Path)
    ap.add_argument("--pi", type=Path, help="pi-fast-apply's quick-edit-live triples")
    ap.add_argument("--show", choices=("deterministic", "reference", "model", *KINDS))
    args = ap.parse_args(argv)
    cases = generated(args.cases, args.brace, args.seed) + real(args)
    rng = random.Random(args.seed)

    det: dict[str, Counter[str]] = defaultdict(Counter)
    ref: dict[str, Counter[str]] = defaultdict(Counter)
    mod: dict[str, Counter[str]] = defaultdict(Counter)
    made: Counter[str] = Counter()
    caught: Counter[str] = Counter()
    shown: list[str] = []
    verify_s: dict[str, list[float]] = defaultdict(list)
    merge_s: dict[str, list[float]] = defaultdict(list)

    def show(kind: str, case: Case, verdict: MergeVerdict) -> None:
        if args.show == kind:
            shown.append(f"- {case.source} {case.name}: {verdict.summary(3)}")

    for case in cases:
        group = size_group(case.original)
        merged, seconds = deterministic(case)
        right: str | None = None
        if merged is not None:
            merge_s[group].append(seconds)
            verdict = timed(case, merged, verify_s[group])
            det[case.source]["verified" if verdict.verified else "rejected"] += 1
            if verdict.verified:
                right = merged
            else:
                show("deterministic", case, verdict)
        if case.reference is not None:
            verdict = verify_merge(case.original, case.snippet, case.reference, case.path or None)
            ref[case.source]["verified" if verdict.verified else "rejected"] += 1
            if verdict.verified:
                right = case.reference
            else:
                ref[case.source][f"rejected: {verdict.reasons[0].check}"] += 1
                show("reference", case, verdict)
        if case.model is not None:
            verdict = verify_merge(case.original, case.snippet, case.model, case.path or None)
            mod[case.source]["verified" if verdict.verified else "rejected"] += 1
            if not verdict.verified:
                mod[case.source][f"rejected: {verdict.reasons[0].check}"] += 1
                show("model", case, verdict)
        if right is None:
            continue
        for kind, bad in faults(rng, case.original, case.snippet, right).items():
            made[kind] += 1
            verdict = verify_merge(case.original, case.snippet, bad, case.path or None)
            if not verdict.verified:
                caught[kind] += 1
            elif args.show == kind:
                shown.append(f"- {case.source} {case.name}")

    print("## Deterministic merges (each must verify)\n")
    print("| source | merges | verified | rejected |\n|---|---:|---:|---:|")
    for source, c in det.items():
        print(f"| {source} | {c.total()} | {c['verified']} | {c['rejected']} |")
    print("\n## Reference merges (a rejection is a false alarm or a wrong reference)\n")
    print("| source | references | verified | rejected | first reasons |\n|---|---:|---:|---:|---|")
    for source, c in ref.items():
        why = ", ".join(f"{k[10:]} {v}" for k, v in sorted(c.items()) if k.startswith("rejected:"))
        n = c["verified"] + c["rejected"]
        print(f"| {source} | {n} | {c['verified']} | {c['rejected']} | {why} |")
    if mod:
        print("\n## Model merges (Morph's fast-apply output: rejections to be judged)\n")
        print("| source | merges | verified | rejected | first reasons |\n|---|---:|---:|---:|---|")
        for source, c in mod.items():
            why = ", ".join(
                f"{k[10:]} {v}" for k, v in sorted(c.items()) if k.startswith("rejected:")
            )
            n = c["verified"] + c["rejected"]
            print(f"| {source} | {n} | {c['verified']} | {c['rejected']} | {why} |")
    print("\n## Faulty merges (each must be rejected; moved_line is the kind it cannot see)\n")
    print("| fault | made | rejected | passed |\n|---|---:|---:|---:|")
    for kind in KINDS:
        label = f"{kind} (unseen by design)" if kind == UNSEEN else kind
        print(f"| {label} | {made[kind]} | {caught[kind]} | {made[kind] - caught[kind]} |")
    print("\n## Speed (median ms per merge; the deterministic merge of the same cases beside)\n")
    print("| original | merges | verify_merge | deterministic merge | ratio |")
    print("|---|---:|---:|---:|---:|")
    order = ["up to 100 lines", "up to 500 lines", "up to 2,000 lines", "over 2,000 lines"]
    upto: list[float] = []
    for group in order:
        v, m = verify_s.get(group, []), merge_s.get(group, [])
        if not v:
            continue
        if group != "over 2,000 lines":
            upto += v
        a, b = statistics.median(v) * 1000, statistics.median(m) * 1000
        print(f"| {group} | {len(v)} | {a:.2f} | {b:.2f} | {a / b:.2f} |")
    if upto:
        print(
            f"\nMedian over every merge of a file up to 2,000 lines: "
            f"{statistics.median(upto) * 1000:.2f} ms ({len(upto)} merges)."
        )
    if shown:
        print(f"\n## {args.show}\n")
        print("\n".join(shown))
    return 1 if any(c["rejected"] for c in det.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
