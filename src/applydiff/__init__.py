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

__version__ = "0.1.0"

# name -> module that defines it
_EXPORTS = {
    "Changeset": "engine",
    "EditReport": "engine",
    "FileChange": "engine",
    "OpError": "engine",
    "apply_ops": "engine",
    "CODES": "errors",
    "Ambiguous": "errors",
    "EditError": "errors",
    "FileIdMismatch": "errors",
    "FormatInvalid": "errors",
    "NoChange": "errors",
    "NoMatch": "errors",
    "Region": "errors",
    "WriteConflict": "errors",
    "FORMATS": "formats",
    "parse": "formats",
    "Anchored": "ir",
    "Delete": "ir",
    "Lazy": "ir",
    "Move": "ir",
    "Op": "ir",
    "Replace": "ir",
    "Write": "ir",
    "op_to_dict": "ir",
    "DEFAULT_THRESHOLD": "match",
    "TIERS": "match",
    "Match": "match",
    "locate": "match",
    "replace": "match",
    "Session": "session",
    "file_id": "text",
    "ToolLayer": "tools",
    "ToolResult": "tools",
    "FileText": "workspace",
    "Result": "workspace",
    "Workspace": "workspace",
}

__all__ = [
    "CODES",
    "DEFAULT_THRESHOLD",
    "FORMATS",
    "TIERS",
    "Ambiguous",
    "Anchored",
    "Changeset",
    "Delete",
    "EditError",
    "EditReport",
    "FileChange",
    "FileIdMismatch",
    "FileText",
    "FormatInvalid",
    "Lazy",
    "Match",
    "Move",
    "NoChange",
    "NoMatch",
    "Op",
    "OpError",
    "Region",
    "Replace",
    "Result",
    "Session",
    "ToolLayer",
    "ToolResult",
    "Workspace",
    "Write",
    "WriteConflict",
    "__version__",
    "apply_ops",
    "file_id",
    "locate",
    "op_to_dict",
    "parse",
    "replace",
]


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
    from .session import Session
    from .text import file_id
    from .tools import ToolLayer, ToolResult
    from .workspace import FileText, Result, Workspace
