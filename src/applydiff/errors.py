"""Errors with stable codes: the contract between applydiff and whoever reads its answers.

Every error carries a ``code`` from the list below and a message that says what happened and
what to do next. Subclasses add the facts a caller needs to act (candidate lines, regions).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

NO_MATCH = "no_match"
AMBIGUOUS = "ambiguous"
FILE_ID_MISMATCH = "file_id_mismatch"
FORMAT_INVALID = "format_invalid"
PATH_DENIED = "path_denied"
NOT_READ = "not_read"
CONFLICT = "conflict"
BINARY_FILE = "binary_file"
TOO_LARGE = "too_large"
ENCODING = "encoding"
WRITE_CONFLICT = "write_conflict"
IO_ERROR = "io_error"
NO_CHANGE = "no_change"
NOTHING_TO_UNDO = "nothing_to_undo"

CODES = (
    NO_MATCH,
    AMBIGUOUS,
    FILE_ID_MISMATCH,
    FORMAT_INVALID,
    PATH_DENIED,
    NOT_READ,
    CONFLICT,
    BINARY_FILE,
    TOO_LARGE,
    ENCODING,
    WRITE_CONFLICT,
    IO_ERROR,
    NO_CHANGE,
    NOTHING_TO_UNDO,
)


class EditError(Exception):
    """An edit that cannot be applied. ``code`` is one of :data:`CODES`."""

    code: str = IO_ERROR

    def __init__(self, message: str, *, code: str | None = None, path: str | None = None) -> None:
        super().__init__(message)
        if code is not None:
            if code not in CODES:
                raise ValueError(f"unknown error code {code!r}")
            self.code = code
        self.message = message
        self.path = path

    def facts(self) -> dict[str, Any]:
        """Structured details beyond the message (overridden by subclasses)."""
        return {}

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.path is not None:
            out["path"] = self.path
        out.update(self.facts())
        return out

    def __repr__(self) -> str:
        return f"{type(self).__name__}(code={self.code!r}, message={self.message!r})"


@dataclass(frozen=True)
class Region:
    """A place in a file that resembles the search text (1-based, inclusive lines)."""

    start_line: int
    end_line: int
    similarity: float
    text: str = ""


class NoMatch(EditError):
    """The search text was found nowhere, at any tier of the ladder."""

    code = NO_MATCH

    def __init__(
        self,
        message: str,
        *,
        closest: list[Region] | None = None,
        path: str | None = None,
    ) -> None:
        super().__init__(message, path=path)
        self.closest: list[Region] = list(closest or [])

    def facts(self) -> dict[str, Any]:
        return {"closest": [asdict(r) for r in self.closest]}


class MissingFile(NoMatch):
    """An edit, move or delete of a file that does not exist (not a creation). The workspace
    adds what it found: ``did_you_mean``, the file whose name is closest, and
    ``search_text_in``, the files that hold the edit's search text."""

    def __init__(
        self,
        message: str,
        *,
        path: str | None = None,
        did_you_mean: str | None = None,
        search_text_in: list[str] | None = None,
    ) -> None:
        super().__init__(message, path=path)
        self.did_you_mean = did_you_mean
        self.search_text_in = list(search_text_in or [])

    def facts(self) -> dict[str, Any]:
        out = super().facts()
        if self.did_you_mean is not None:
            out["did_you_mean"] = self.did_you_mean
        if self.search_text_in:
            out["search_text_in"] = self.search_text_in
        return out


class NoChange(EditError):
    """The edit would leave the file as it is: its search and replacement texts are the same,
    or the file already reads as the replacement."""

    code = NO_CHANGE


class Ambiguous(EditError):
    """The search text matches in more than one place and nothing picks one."""

    code = AMBIGUOUS

    def __init__(
        self,
        message: str,
        *,
        lines: list[int],
        tier: str,
        path: str | None = None,
    ) -> None:
        super().__init__(message, path=path)
        self.lines = list(lines)
        self.tier = tier

    def facts(self) -> dict[str, Any]:
        return {"lines": self.lines, "tier": self.tier}


class FormatInvalid(EditError):
    """The edit itself is malformed; ``line`` points into the model's text when known."""

    code = FORMAT_INVALID

    def __init__(
        self,
        message: str,
        *,
        line: int | None = None,
        expected: str | None = None,
        path: str | None = None,
    ) -> None:
        super().__init__(message, path=path)
        self.line = line
        self.expected = expected

    def facts(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.line is not None:
            out["line"] = self.line
        if self.expected is not None:
            out["expected"] = self.expected
        return out


class FileIdMismatch(EditError):
    """The edit names a file version (``file_id``) that is not the current one."""

    code = FILE_ID_MISMATCH

    def __init__(self, message: str, *, expected: str, actual: str, path: str | None = None):
        super().__init__(message, path=path)
        self.expected = expected
        self.actual = actual

    def facts(self) -> dict[str, Any]:
        return {"expected": self.expected, "actual": self.actual}


class WriteConflict(EditError):
    """One response writes a path twice, or writes and edits it."""

    code = WRITE_CONFLICT
