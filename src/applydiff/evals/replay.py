"""Recorded transcripts, and a client that plays one back instead of calling a model.

A run of ``eval-models`` keeps, per model, mode, task and run, the endpoint's raw answers in
order and a short hash of each request. Playing them back through the same loop re-scores the
run offline: the engine applies the recorded edits again and the checker judges the tree. A
request whose hash differs from the recording means the conversation drifted (the engine or
the prompts changed since); the run is still scored, and marked ``drifted``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..llm import ChatResponse, LLMError, parse_response


class ReplayExhausted(LLMError):
    """The loop asked for more answers than the recording holds."""


@dataclass
class Transcript:
    model: str
    mode: str
    task: str
    run: int
    seq: int = 0  # the order runs were made in (a replay keeps it)
    responses: list[dict[str, Any]] = field(default_factory=list)
    request_digests: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "model": self.model,
            "mode": self.mode,
            "task": self.task,
            "run": self.run,
            "seq": self.seq,
            "responses": self.responses,
            "request_digests": self.request_digests,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Transcript:
        return cls(
            str(d["model"]),
            str(d["mode"]),
            str(d["task"]),
            int(d["run"]),
            int(d.get("seq", 0)),
            list(d.get("responses") or []),
            [str(x) for x in d.get("request_digests") or []],
        )

    def path_in(self, directory: Path) -> Path:
        return directory / _slug(self.model) / _slug(self.mode) / f"{self.task}-{self.run}.json"


def _slug(name: str) -> str:
    return re.sub(r"[^\w.-]+", "_", name).strip("_") or "_"


def save(transcript: Transcript, directory: Path) -> Path:
    path = transcript.path_in(directory)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(transcript.to_dict(), ensure_ascii=False, indent=1) + "\n")
    return path


def load_all(directory: Path) -> list[Transcript]:
    """Every transcript under ``directory`` (an ``eval-models`` output or its transcripts/)."""
    base = directory / "transcripts" if (directory / "transcripts").is_dir() else directory
    out = []
    for path in sorted(base.rglob("*.json")):
        try:
            out.append(Transcript.from_dict(json.loads(path.read_text(encoding="utf-8"))))
        except (OSError, ValueError, KeyError, TypeError) as e:
            raise ValueError(f"{path} is not a transcript ({e})") from None
    if not out:
        raise ValueError(f"no transcripts under {base}")
    return sorted(out, key=lambda t: t.seq)


class ReplayClient:
    """Answers with a transcript's recorded responses, in order."""

    def __init__(self, transcript: Transcript) -> None:
        self.transcript = transcript
        self.calls = 0
        self.drifted = False

    def expect(self, digest: str) -> None:
        """The loop's next request hashes to ``digest``; a mismatch marks the replay drifted."""
        recorded = self.transcript.request_digests
        if self.calls < len(recorded) and recorded[self.calls] != digest:
            self.drifted = True

    def chat(
        self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None = None
    ) -> ChatResponse:
        responses = self.transcript.responses
        if self.calls >= len(responses):
            self.drifted = True
            raise ReplayExhausted(
                f"the recording holds {len(responses)} answer(s); the loop asked for more"
            )
        raw = responses[self.calls]
        self.calls += 1
        return parse_response(raw)
