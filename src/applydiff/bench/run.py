"""Run the benchmark: every engine on the accuracy corpus and the speed cases."""

from __future__ import annotations

import json
import platform
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

from ..progress import progress_bar
from . import charts, corpus, report
from .case_maker import Case
from .engines import ENGINES, available, load
from .measurements import Bench
from .outcome import classify
from .sources import source_files
from .speed import SIZES, speed_cases
from .worker import Capped

QUICK_PER_KIND = 6
FULL_PER_KIND = 100
QUICK_SIZES = (1_000, 10_000)
CAP = 10.0  # seconds per call before a peer is stopped
SPEED_RUNS = 7


def run(
    *,
    quick: bool = False,
    engines: list[str] | None = None,
    files: str | None = None,
    seed: int = 0,
    per_kind: int | None = None,
    sizes: tuple[int, ...] | None = None,
    progress: bool = True,
    cap: float = CAP,
) -> Bench:
    names, notes = available(list(engines or ENGINES))
    per_kind = per_kind or (QUICK_PER_KIND if quick else FULL_PER_KIND)
    sizes = sizes or (QUICK_SIZES if quick else SIZES)
    started = time.time()
    cases = corpus.generate(corpus.KINDS, per_kind, seed, files)
    paths = source_files(files)
    bench = Bench(
        meta={
            "date": time.strftime("%Y-%m-%d %H:%M", time.localtime(started)),
            "quick": quick,
            "seed": seed,
            "per_kind": per_kind,
            "cases": len(cases),
            "files": files or "the Python standard library",
            "source_files": len(paths),
            "python": sys.version.split()[0],
            "machine": f"{platform.system()} {platform.machine()}",
            "cap_seconds": cap,
            "sizes": list(sizes),
        },
        engines={
            n: {"description": load(n).description, "version": load(n).version} for n in names
        },
        notes=notes,
    )
    speed = speed_cases(paths, sizes, seed)
    with progress_bar(progress) as p:
        for name in names:
            worker = Capped(name)
            try:
                _accuracy(bench, name, worker, cases, cap, p)
                _speed(bench, name, worker, speed, cap, p)
            finally:
                worker.close()
    bench.meta["seconds"] = round(time.time() - started, 1)
    return bench


def _accuracy(
    bench: Bench, name: str, worker: Capped, cases: list[Case], cap: float, p: Any
) -> None:
    task = p.add_task(f"accuracy {name}", total=len(cases)) if p else None
    kinds: dict[str, Counter[str]] = defaultdict(Counter)
    answers = []
    seen: Counter[str] = Counter()
    for case in cases:
        got = worker.call("apply", (case.text, case.old, case.new, case.hint_line), cap)
        if got is None:
            status, detail, secs = "timeout", f"over {cap:g} s", cap
        else:
            status, detail, secs = got
        out = detail if status == "ok" else None
        outcome = classify(case.expected, out)
        kinds[case.kind][outcome] += 1
        answers.append(
            {
                "kind": case.kind,
                "index": seen[case.kind],
                "outcome": outcome,
                "status": status,
                "ms": round(secs * 1000, 3),
                **({"why": detail} if status != "ok" else {}),
            }
        )
        seen[case.kind] += 1
        if p:
            p.advance(task)
    bench.accuracy[name] = dict(kinds)
    bench.answers[name] = answers


def _speed(
    bench: Bench, name: str, worker: Capped, cases: list[dict[str, Any]], cap: float, p: Any
) -> None:
    task = p.add_task(f"speed {name}", total=len(cases)) if p else None
    for c in cases:
        # Up to SPEED_RUNS calls within the cap; a single call over the cap is stopped.
        got = worker.call("time", (c["text"], c["old"], c["new"], SPEED_RUNS, cap), 2 * cap + 5)
        if got is None:
            ms, out = None, None
        else:
            _, secs, out = got
            ms = round(secs * 1000, 3)
        bench.speed.append(
            {
                "engine": name,
                "lines": c["lines"],
                "case": c["case"],
                "ms": ms,
                "outcome": "timeout" if got is None else classify(c["expected"], out),
            }
        )
        if p:
            p.advance(task)


def write(bench: Bench, out: Path) -> dict[str, Path]:
    """The charts (PNG), the report (Markdown) and the results (JSON) under ``out``. The JSON
    is written last, once the report has been, so that it holds what the report shows (the
    notes the charts added included)."""
    out.mkdir(parents=True, exist_ok=True)
    paths = {"json": out / "results.json", "report": out / "report.md"}
    pngs = charts.draw(bench, out)
    if not pngs:
        bench.notes.append("charts: skipped, matplotlib is not installed (pip install matplotlib)")
    paths.update(pngs)
    paths["report"].write_text(report.markdown(bench, pngs), encoding="utf-8")
    paths["json"].write_text(json.dumps(bench.to_dict(), indent=1), encoding="utf-8")
    return paths
