"""applydiff: turn what language models write about files into correct file changes.

The matching API::

    >>> import applydiff
    >>> applydiff.replace("a = 1\\nb = 2\\n", "b = 2", "b = 3")
    'a = 1\\nb = 3\\n'
"""

from .engine import Changeset, EditReport, FileChange, OpError, apply_ops
from .errors import (
    CODES,
    Ambiguous,
    EditError,
    FileIdMismatch,
    FormatInvalid,
    NoMatch,
    Region,
    WriteConflict,
)
from .formats import FORMATS, parse
from .ir import Anchored, Delete, Move, Op, Replace, Write, op_to_dict
from .match import DEFAULT_THRESHOLD, TIERS, Match, locate, replace
from .text import file_id
from .workspace import FileText, Result, Workspace

__version__ = "0.1.0"

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
    "Match",
    "Move",
    "NoMatch",
    "Op",
    "OpError",
    "Region",
    "Replace",
    "Result",
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
