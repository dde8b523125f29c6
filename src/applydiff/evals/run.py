"""``eval-models``: every model in every mode on every task, k runs each, scored by checkers.

Each run copies the task's starting tree to a temporary directory, runs the edit loop there
with the model (or plays back a recorded transcript) and lets the task's checker judge the
tree. The table is models x modes, each cell the runs that passed out of those made.
"""

from __future__ import annotations

import platform
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..llm import LLMError
from ..loop import DEFAULT_EXCHANGES, Chat, EditLoop
from ..progress import progress_bar
from .replay import ReplayClient, Transcript
from .tasks import Task

DEFAULT_MODES = ("anchored", "search_replace", "search_replace_multi")


@dataclass
class RunRecord:
    """One run of one task by one model in one mode."""

    model: str
    mode: str
    task: str
    run: int
    passed: bool
    problems: list[str]
    loop: dict[str, Any] | None  # LoopResult.to_dict(); None when the endpoint failed
    error: str | None = None
    drifted: bool = False
    seconds: float = 0.0

    def tokens(self) -> int:
        usage = (self.loop or {}).get("usage") or {}
        return int(
            usage.get("total_tokens")
            or usage.get("prompt_tokens", 0) + usage.get("completion_tokens", 0)
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "model": self.model,
            "mode": self.mode,
            "task": self.task,
            "run": self.run,
            "passed": self.passed,
            "problems": self.problems,
            "loop": self.loop,
            "error": self.error,
            "drifted": self.drifted,
            "seconds": round(self.seconds, 2),
            "tokens": self.tokens(),
        }


@dataclass
class Evaluation:
    meta: dict[str, Any]
    runs: list[RunRecord] = field(default_factory=list)
    transcripts: list[Transcript] = field(default_factory=list, repr=False)

    def score(self, model: str, mode: str) -> tuple[int, int]:
        mine = [r for r in self.runs if r.model == model and r.mode == mode]
        return sum(r.passed for r in mine), len(mine)

    def to_dict(self) -> dict[str, Any]:
        models = list(dict.fromkeys(r.model for r in self.runs))
        modes = list(dict.fromkeys(r.mode for r in self.runs))
        return {
            "meta": self.meta,
            "scores": {
                m: {d: dict(zip(("passed", "runs"), self.score(m, d), strict=True)) for d in modes}
                for m in models
            },
            "runs": [r.to_dict() for r in self.runs],
        }


def run_one(
    task: Task,
    client: Chat,
    *,
    model: str,
    mode: str,
    run: int,
    max_exchanges: int = DEFAULT_EXCHANGES,
) -> tuple[RunRecord, Transcript]:
    """One run in a fresh copy of the task's tree; the endpoint's failure is recorded, except
    an endpoint that cannot be reached at all, which is raised (nothing else would work)."""
    started = time.monotonic()
    transcript = Transcript(model, mode, task.name, run)
    with tempfile.TemporaryDirectory(prefix="applydiff-eval-") as tmp:
        root = Path(tmp) / "tree"
        # An installed suite may hold byte code compiled at install time: not the task's.
        shutil.copytree(task.before, root, ignore=shutil.ignore_patterns("__pycache__"))
        loop = EditLoop(root, client, mode=mode, max_exchanges=max_exchanges)
        try:
            result = loop.run(task.prompt)
        except LLMError as e:
            if e.status is None and not isinstance(client, ReplayClient):
                raise
            record = RunRecord(model, mode, task.name, run, False, [], None, error=str(e))
        else:
            problems = task.check(root)
            record = RunRecord(
                model, mode, task.name, run, not problems, problems, result.to_dict()
            )
            transcript.responses = [t["response"] for t in result.transcript]
            transcript.request_digests = [t["request_digest"] for t in result.transcript]
        finally:
            loop.close()
    record.drifted = isinstance(client, ReplayClient) and client.drifted
    record.seconds = time.monotonic() - started
    return record, transcript


def evaluate(
    tasks: list[Task],
    *,
    models: list[str],
    modes: list[str],
    runs: int,
    client_for: Callable[[str], Chat],
    max_exchanges: int = DEFAULT_EXCHANGES,
    endpoint: str | None = None,
    progress: bool = False,
) -> Evaluation:
    """Every model x mode x task x run against live endpoints (``client_for(model)``)."""
    ev = _evaluation(tasks, models, modes, runs, max_exchanges, endpoint)
    total = len(models) * len(modes) * len(tasks) * runs
    with progress_bar(progress) as bar:
        job = bar.add_task("eval-models", total=total) if bar else None
        for model in models:
            client = client_for(model)
            for mode in modes:
                for task in tasks:
                    for k in range(1, runs + 1):
                        if bar is not None:
                            bar.update(job, description=f"{model} {mode} {task.name}")
                        record, transcript = run_one(
                            task,
                            client,
                            model=model,
                            mode=mode,
                            run=k,
                            max_exchanges=max_exchanges,
                        )
                        transcript.seq = len(ev.transcripts)
                        ev.runs.append(record)
                        ev.transcripts.append(transcript)
                        if bar is not None:
                            bar.advance(job)
    ev.meta["seconds"] = round(time.time() - ev.meta.pop("_started"), 1)
    return ev


def replay(
    tasks: list[Task],
    transcripts: list[Transcript],
    *,
    max_exchanges: int = DEFAULT_EXCHANGES,
    progress: bool = False,
) -> Evaluation:
    """Re-score recorded runs offline: each transcript played back on its task."""
    by_name = {t.name: t for t in tasks}
    missing = sorted({t.task for t in transcripts} - set(by_name))
    if missing:
        raise ValueError(f"the transcripts are of tasks the suite lacks: {', '.join(missing)}")
    models = list(dict.fromkeys(t.model for t in transcripts))
    modes = list(dict.fromkeys(t.mode for t in transcripts))
    runs = max(t.run for t in transcripts)
    ev = _evaluation(tasks, models, modes, runs, max_exchanges, None)
    ev.meta["replay"] = True
    with progress_bar(progress) as bar:
        job = bar.add_task("replay", total=len(transcripts)) if bar else None
        for t in transcripts:
            record, _ = run_one(
                by_name[t.task],
                ReplayClient(t),
                model=t.model,
                mode=t.mode,
                run=t.run,
                max_exchanges=max_exchanges,
            )
            ev.runs.append(record)
            if bar is not None:
                bar.advance(job)
    ev.meta["seconds"] = round(time.time() - ev.meta.pop("_started"), 1)
    return ev


def _evaluation(
    tasks: list[Task],
    models: list[str],
    modes: list[str],
    runs: int,
    max_exchanges: int,
    endpoint: str | None,
) -> Evaluation:
    started = time.time()
    return Evaluation(
        meta={
            "date": time.strftime("%Y-%m-%d %H:%M", time.localtime(started)),
            "endpoint": endpoint,
            "models": models,
            "modes": modes,
            "tasks": [t.name for t in tasks],
            "runs": runs,
            "max_exchanges": max_exchanges,
            "python": sys.version.split()[0],
            "machine": f"{platform.system()} {platform.machine()}",
            "_started": started,
        }
    )
