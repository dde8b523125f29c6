"""The text of the weekly summary: one line per job, worst first."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class JobStats:
    name: str
    runs: int
    failures: int
    late: int

    @property
    def failure_rate(self) -> float:
        return self.failures / self.runs if self.runs else 0.0


def digest_lines(stats: list[JobStats]) -> list[str]:
    ordered = sorted(stats, key=lambda s: (s.failure_rate, s.late), reverse=True)
    return [
        f"{s.name}: {s.runs} runs, {s.failures} failed, {s.late} late ({s.failure_rate:.0%})"
        for s in ordered
    ]
