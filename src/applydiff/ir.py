"""The edit script: what every format parses into and what the engine applies, in order.

Paths are strings as the model wrote them; the workspace resolves them against its root.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Write:
    """Create or overwrite a file with ``content``."""

    path: str
    content: str
    file_id: str | None = None


@dataclass(frozen=True)
class Replace:
    """Replace the place ``old`` names with ``new``; an empty ``old`` creates a new file.

    ``hint_line`` (1-based) orders the search and breaks ties; ``threshold`` overrides the
    fuzzy threshold for this edit. ``alternatives`` holds other readings of an ambiguous block
    (several ``=======`` lines); the engine keeps the one reading whose ``old`` matches.
    """

    path: str
    old: str
    new: str
    replace_all: bool = False
    hint_line: int | None = None
    threshold: float | None = None
    file_id: str | None = None
    alternatives: tuple[tuple[str, str], ...] = field(default=())


@dataclass(frozen=True)
class Anchored:
    """Replace the lines from ``start`` through ``end`` (or just ``start``) by ``content``.

    ``start`` and ``end`` are lists of consecutive lines quoted from the file; ``end`` is the
    first match at or after ``start``.
    """

    path: str
    start: tuple[str, ...]
    content: tuple[str, ...]
    end: tuple[str, ...] | None = None
    hint_line: int | None = None
    file_id: str | None = None


@dataclass(frozen=True)
class Delete:
    """Remove a file."""

    path: str
    file_id: str | None = None


@dataclass(frozen=True)
class Move:
    """Rename a file (its content as it stands after the earlier edits)."""

    path: str
    to: str
    file_id: str | None = None


Op = Write | Replace | Anchored | Delete | Move
