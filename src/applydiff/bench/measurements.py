"""What a benchmark run measured, shared by the runner, the report and the charts."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from .outcome import OUTCOMES


@dataclass
class Bench:
    """What a run measured; ``to_dict()`` is the JSON file."""

    meta: dict[str, Any]
    engines: dict[str, dict[str, Any]]
    notes: list[str]
    accuracy: dict[str, dict[str, Counter[str]]] = field(default_factory=dict)  # engine->kind
    answers: dict[str, list[dict[str, Any]]] = field(default_factory=dict)  # engine -> cases
    speed: list[dict[str, Any]] = field(default_factory=list)

    def totals(self, engine: str) -> Counter[str]:
        out: Counter[str] = Counter()
        for counts in self.accuracy.get(engine, {}).values():
            out.update(counts)
        return out

    def to_dict(self) -> dict[str, Any]:
        return {
            "meta": self.meta,
            "engines": self.engines,
            "notes": self.notes,
            "accuracy": {
                e: {k: {o: c[o] for o in OUTCOMES} for k, c in kinds.items()}
                for e, kinds in self.accuracy.items()
            },
            "totals": {e: {o: self.totals(e)[o] for o in OUTCOMES} for e in self.accuracy},
            "speed": self.speed,
            "cases": self.answers,
        }
