"""applydiff: turn what language models write about files into correct file changes.

The matching API::

    >>> import applydiff
    >>> applydiff.replace("a = 1\\nb = 2\\n", "b = 2", "b = 3")
    'a = 1\\nb = 3\\n'

Names load on first use, so that ``import applydiff`` (and ``applydiff --help``) stay fast.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .version import __version__

# module -> the public names it defines: the one list of the API; ``__all__`` and the lazy
# loading below are derived from it (the TYPE_CHECKING imports at the end restate it for type
# checkers, and tests/test_api.py keeps the two equal).
_MODULES: dict[str, tuple[str, ...]] = {
    "engine": ("Changeset", "EditReport", "FileChange", "OpError", "apply_ops"),
    "errors": (
        "CODES",
        "Ambiguous",
        "EditError",
        "FileIdMismatch",
        "FormatInvalid",
        "NoChange",
        "NoMatch",
        "Region",
        "WriteConflict",
    ),
    "formats": ("FORMATS", "parse"),
    "ir": ("Anchored", "Delete", "Lazy", "Move", "Op", "Replace", "Write", "op_to_dict"),
    "match": ("DEFAULT_THRESHOLD", "TIERS", "Match", "locate", "replace"),
    "match.verify_merge": ("MergeVerdict", "verify_merge"),
    "merge_model": ("MergeClient",),
    "problems": ("Problem",),
    "results": ("FileOutcome", "Plan", "Result"),
    "session": ("Session",),
    "store": ("FileText",),
    "text": ("file_id",),
    "tools": ("ToolLayer", "ToolResult"),
    "workspace": ("Workspace",),
}
_EXPORTS = {name: module for module, names in _MODULES.items() for name in names}

__all__ = sorted([*_EXPORTS, "__version__"])


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'applydiff' has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return __all__


if TYPE_CHECKING:
    from .engine import Changeset, EditReport, FileChange, OpError, apply_ops
    from .errors import (
        CODES,
        Ambiguous,
        EditError,
        FileIdMismatch,
        FormatInvalid,
        NoChange,
        NoMatch,
        Region,
        WriteConflict,
    )
    from .formats import FORMATS, parse
    from .ir import Anchored, Delete, Lazy, Move, Op, Replace, Write, op_to_dict
    from .match import DEFAULT_THRESHOLD, TIERS, Match, locate, replace
    from .match.verify_merge import MergeVerdict, verify_merge
    from .merge_model import MergeClient
    from .problems import Problem
    from .results import FileOutcome, Plan, Result
    from .session import Session
    from .store import FileText
    from .text import file_id
    from .tools import ToolLayer, ToolResult
    from .workspace import Workspace
