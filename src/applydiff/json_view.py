"""Result parts that read by key as their JSON form: ``report["tier"]`` is
``report.to_dict()["tier"]``. Callers that took results as dicts keep working while the
parts stay typed (``EditReport``, ``FileOutcome``, ``Problem``)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any


class JsonView(Mapping[str, Any]):
    """A read-only mapping over ``to_dict()``, which a subclass defines."""

    def to_dict(self) -> dict[str, Any]:
        raise NotImplementedError

    def __getitem__(self, key: str) -> Any:
        return self.to_dict()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.to_dict())

    def __len__(self) -> int:
        return len(self.to_dict())
