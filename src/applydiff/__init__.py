"""applydiff: turn what language models write about files into correct file changes.

The matching API::

    >>> import applydiff
    >>> applydiff.replace("a = 1\\nb = 2\\n", "b = 2", "b = 3")
    'a = 1\\nb = 3\\n'
"""

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
from .match import DEFAULT_THRESHOLD, TIERS, Match, locate, replace
from .text import file_id

__version__ = "0.1.0"

__all__ = [
    "CODES",
    "DEFAULT_THRESHOLD",
    "TIERS",
    "Ambiguous",
    "EditError",
    "FileIdMismatch",
    "FormatInvalid",
    "Match",
    "NoMatch",
    "Region",
    "WriteConflict",
    "__version__",
    "file_id",
    "locate",
    "replace",
]
