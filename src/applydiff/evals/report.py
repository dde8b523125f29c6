"""The ``eval-models`` report: a Markdown table of models x modes, per-task details, JSON,
and the transcripts that let anyone re-score the run offline."""

from __future__ import annotations

import json
from pathlib import Path

from . import replay as replay_mod
from .run import Evaluation


def markdown(ev: Evaluation) -> str:
    meta = ev.meta
    models = list(dict.fromkeys(r.model for r in ev.runs))
    modes = list(dict.fromkeys(r.mode for r in ev.runs))
    source = "replayed from transcripts" if meta.get("replay") else f"endpoint {meta['endpoint']}"
    out = [
        "# applydiff eval-models",
        "",
        f"{meta['date']}, {source}; {len(meta['tasks'])} tasks x {meta['runs']} run(s), up to "
        f"{meta['max_exchanges']} exchanges each; {meta.get('seconds', 0)} s.",
        "",
        "## Tasks passed (runs that passed / runs)",
        "",
        "| model | " + " | ".join(modes) + " |",
        "|---|" + "--:|" * len(modes),
    ]
    for model in models:
        cells = []
        for mode in modes:
            passed, runs = ev.score(model, mode)
            cells.append(f"{passed}/{runs}" if runs else "-")
        out.append(f"| {model} | " + " | ".join(cells) + " |")
    out += [
        "",
        "## Per task",
        "",
        "Edit errors: failed edits over all exchanges; retries: exchanges after the first; "
        "tokens: as the endpoint reported them (0: it did not).",
        "",
        "| model | mode | task | passed | edit errors | retries | tokens | notes |",
        "|---|---|---|--:|--:|--:|--:|---|",
    ]
    keys = list(dict.fromkeys((r.model, r.mode, r.task) for r in ev.runs))
    for model, mode, task in keys:
        mine = [r for r in ev.runs if (r.model, r.mode, r.task) == (model, mode, task)]
        errors = sum((r.loop or {}).get("edit_errors", 0) for r in mine)
        retries = sum((r.loop or {}).get("retries", 0) for r in mine)
        tokens = sum(r.tokens() for r in mine)
        notes = "; ".join(
            dict.fromkeys(
                [r.error for r in mine if r.error]
                + [p for r in mine for p in r.problems[:1]]
                + (["replay drifted"] if any(r.drifted for r in mine) else [])
            )
        )
        passed = sum(r.passed for r in mine)
        out.append(
            f"| {model} | {mode} | {task} | {passed}/{len(mine)} | {errors} | {retries} | "
            f"{tokens} | {_cell(notes)} |"
        )
    return "\n".join(out) + "\n"


def _cell(text: str, limit: int = 160) -> str:
    text = text.replace("|", "\\|").replace("\n", " ")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def write(ev: Evaluation, out: Path) -> dict[str, Path]:
    """``report.md``, ``results.json`` and ``transcripts/`` under ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    paths = {"report": out / "report.md", "json": out / "results.json"}
    paths["report"].write_text(markdown(ev), encoding="utf-8")
    paths["json"].write_text(json.dumps(ev.to_dict(), indent=1, ensure_ascii=False) + "\n")
    if ev.transcripts:
        paths["transcripts"] = out / "transcripts"
        for t in ev.transcripts:
            replay_mod.save(t, paths["transcripts"])
    return paths
