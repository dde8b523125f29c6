"""Problem: one thing that went wrong in an apply, a commit or a review command, as results
carry it and the JSON says it (``code``, ``index``, ``path``, ``message``, then the facts of
the error: ``closest``, ``lines``, ``pending_review``, ...).

Every error a :class:`~applydiff.results.Result` reports is a ``Problem``: an op's failure, a
parse failure, a conflict found while committing, a refused review command.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .errors import EditError
from .json_view import JsonView

if TYPE_CHECKING:
    from .engine import OpError


# Read by key too (a Mapping over to_dict): callers index a result's errors as the JSON
# objects they are printed as (``e["code"]``, ``e.get("closest")``). eq=False keeps the
# Mapping's equality, so a Problem equals the dict it prints as.
@dataclass(frozen=True, eq=False)
class Problem(JsonView):
    """What went wrong: a code of :data:`~applydiff.errors.CODES`, the message, the op's
    position in the response (None: the response or the command as a whole), the path, the
    error's facts (what a caller needs to act), and ``answer_line``: the 1-based line of the
    model's answer where the failed op's block starts, when known (the JSON has it then)."""

    code: str
    message: str
    index: int | None = None
    path: str | None = None
    facts: Mapping[str, Any] = field(default_factory=dict)
    answer_line: int | None = None

    @classmethod
    def of(cls, error: EditError, index: int | None = None) -> Problem:
        """The problem an :class:`EditError` states (its own path)."""
        return cls(error.code, error.message, index, error.path, error.facts())

    @classmethod
    def of_op(cls, failed: OpError) -> Problem:
        """An op that failed: its index, the path it resolved to, where its block starts."""
        return cls(
            failed.code,
            failed.error.message,
            failed.index,
            failed.path,
            failed.error.facts(),
            failed.answer_line,
        )

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code, "index": self.index}
        if self.answer_line is not None:
            out["answer_line"] = self.answer_line
        out.update(path=self.path, message=self.message)
        out.update(self.facts)
        return out


def listed(names: list[str]) -> str:
    """Names as a message lists them: ``a``, ``a and b``, ``a, b and c``."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
