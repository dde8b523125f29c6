"""What an engine did with a case: right, right but for whitespace, refused, or wrong."""

from __future__ import annotations

OUTCOMES = ("correct", "whitespace_off", "refused", "misapplied")


def classify(expected: str | None, out: str | None) -> str:
    """``expected`` None: the case must be refused. ``out`` None: the engine refused."""
    if out is None:
        return "correct" if expected is None else "refused"
    if expected is None:
        return "misapplied"
    if out == expected:
        return "correct"
    if out.split() == expected.split():
        return "whitespace_off"
    return "misapplied"
