"""The benchmark as Markdown: headline, outcomes per kind and engine, latency, notes."""

from __future__ import annotations

from pathlib import Path

from .corpus import KINDS, REFUSE_KINDS
from .measurements import Bench
from .outcome import OUTCOMES
from .speed import SPEED_CASES


def _pct(n: int, total: int) -> str:
    return f"{100 * n / total:.1f}%" if total else "-"


def markdown(bench: Bench, pngs: dict[str, Path]) -> str:
    m = bench.meta
    engines = list(bench.accuracy)
    out = [
        "# applydiff bench",
        "",
        f"{m['date']}, {m['machine']}, Python {m['python']}; {m['cases']} cases "
        f"({m['per_kind']} per kind, seed {m['seed']}) from {m['files']} "
        f"({m['source_files']} files); {m['seconds']} s. Each call capped at "
        f"{m['cap_seconds']:g} s.",
        "",
        "| engine | what it is | version |",
        "|---|---|---|",
    ]
    for e in engines:
        info = bench.engines[e]
        out.append(f"| {e} | {info['description']} | {info['version'] or '-'} |")
    out += [
        "",
        "## Accuracy",
        "",
        "| engine | correct | whitespace off | refused | misapplied |",
        "|---|--:|--:|--:|--:|",
    ]
    for e in engines:
        t = bench.totals(e)
        total = sum(t.values())
        out.append(
            f"| {e} | {t['correct']} ({_pct(t['correct'], total)}) | {t['whitespace_off']} | "
            f"{t['refused']} | **{t['misapplied']}** ({_pct(t['misapplied'], total)}) |"
        )
    out += [
        "",
        "`correct`: the file is exactly the intended edit (or, for the kinds that must be "
        "refused, the engine refused). `whitespace off`: the right place, but whitespace differs "
        "from the intended edit. `refused`: the engine applied nothing although the edit was "
        "meant to apply. `misapplied`: it changed the file wrongly, or applied an edit it should "
        "have refused.",
        "",
    ]
    if "outcomes" in pngs:
        out += [f"![outcomes per kind and engine]({pngs['outcomes'].name})", ""]
    out += ["### Per kind", "", "Correct / whitespace off / refused / misapplied.", ""]
    out.append("| kind | " + " | ".join(engines) + " |")
    out.append("|---|" + "--:|" * len(engines))
    for kind in KINDS:
        cells = []
        for e in engines:
            c = bench.accuracy[e].get(kind)
            cells.append("/".join(str(c[o]) for o in OUTCOMES) if c else "-")
        label = f"{kind} (must refuse)" if kind in REFUSE_KINDS else kind
        out.append(f"| {label} | " + " | ".join(cells) + " |")
    out += [
        "",
        "## Speed",
        "",
        "Median milliseconds per call over up to 7 calls within the cap (`-`: one call took "
        "longer than the cap); the outcome in parentheses when it was not correct.",
        "",
    ]
    sizes = sorted({r["lines"] for r in bench.speed})
    out.append("| lines | case | " + " | ".join(engines) + " |")
    out.append("|--:|---|" + "--:|" * len(engines))
    for n in sizes:
        for case in SPEED_CASES:
            cells = []
            for e in engines:
                row = next(
                    (
                        r
                        for r in bench.speed
                        if r["engine"] == e and r["lines"] == n and r["case"] == case
                    ),
                    None,
                )
                if row is None:
                    cells.append("")
                    continue
                ms = "-" if row["ms"] is None else f"{row['ms']:.3g}"
                note = "" if row["outcome"] == "correct" else f" ({row['outcome']})"
                cells.append(ms + note)
            out.append(f"| {n:,} | {case} | " + " | ".join(cells) + " |")
    if "latency" in pngs:
        out += ["", f"![latency against file size]({pngs['latency'].name})"]
    if bench.notes:
        out += ["", "## Notes", ""] + [f"- {n}" for n in bench.notes]
    return "\n".join(out) + "\n"
