"""A project on disk: read files the way the engine needs them, apply responses atomically.

>>> ws = Workspace("path/to/project")                      # doctest: +SKIP
>>> result = ws.apply(model_response, dry_run=True)        # doctest: +SKIP
>>> result.ok, [f["path"] for f in result.files]           # doctest: +SKIP
"""

from __future__ import annotations

import difflib
import hashlib
import os
import stat
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import commit as commit_mod
from .engine import Changeset, EditReport, OpError, apply_ops
from .errors import (
    BINARY_FILE,
    CONFLICT,
    ENCODING,
    FORMAT_INVALID,
    IO_ERROR,
    TOO_LARGE,
    EditError,
)
from .formats import parse
from .ir import Op
from .policy import Policy
from .text import UTF8, Binary, Encoding, decode, dominant_eol, encode, file_id

DEFAULT_MAX_FILE_BYTES = 16 * 1024 * 1024


@dataclass(frozen=True)
class FileText:
    """A file as the engine sees it, with the facts needed to write it back byte for byte."""

    path: str
    text: str
    file_id: str
    encoding: str
    bom: bool
    eol: str  # the dominant line terminator: "\n" or "\r\n"
    final_newline: bool
    mode: int


@dataclass
class _Read:
    real: Path
    digest: str | None  # sha256 of the bytes read; None: the file did not exist
    text: str | None
    encoding: Encoding
    mode: int | None


@dataclass
class Result:
    """The outcome of :meth:`Workspace.apply`; ``to_dict()`` is the JSON the CLI prints."""

    ok: bool
    dry_run: bool
    files: list[dict[str, Any]] = field(default_factory=list)
    edits: list[dict[str, Any]] = field(default_factory=list)
    errors: list[dict[str, Any]] = field(default_factory=list)
    committed: bool = False
    # Before/after text per path, for previews (not part of the JSON).
    changes: list[tuple[str, str | None, str | None]] = field(default_factory=list, repr=False)
    _plan: list[commit_mod.Target] | None = field(default=None, repr=False)
    _reads: dict[str, _Read] | None = field(default=None, repr=False)

    def to_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "dry_run": self.dry_run,
            "files": self.files,
            "edits": self.edits,
            "errors": self.errors,
        }

    def diffs(self) -> Iterator[tuple[str, str]]:
        """``(path, unified diff)`` for every changed file."""
        for path, before, after in self.changes:
            a = (before or "").splitlines(keepends=True)
            b = (after or "").splitlines(keepends=True)
            for lines in (a, b):
                if lines and not lines[-1].endswith("\n"):
                    lines[-1] += "\n\\ No newline at end of file\n"
            old = f"a/{path}" if before is not None else "/dev/null"
            new = f"b/{path}" if after is not None else "/dev/null"
            yield path, "".join(difflib.unified_diff(a, b, old, new))


class _Files(Mapping[str, str]):
    """The engine's view of the tree: path key -> text, read lazily, remembered for commit."""

    def __init__(self, ws: Workspace) -> None:
        self.ws = ws
        self.reads: dict[str, _Read] = {}

    def __getitem__(self, key: str) -> str:
        got = self.get(key)
        if got is None:
            raise KeyError(key)
        return got

    def get(self, key: str, default: Any = None) -> Any:
        if key not in self.reads:
            self.reads[key] = self.ws._read(key)
        text = self.reads[key].text
        return default if text is None else text

    def __iter__(self) -> Iterator[str]:
        return iter(self.reads)

    def __len__(self) -> int:
        return len(self.reads)


class Workspace:
    """A root directory that edits are applied to: safely, atomically, byte for byte.

    Opening one first recovers a commit that a crash interrupted.
    """

    def __init__(
        self,
        root: str | os.PathLike[str],
        *,
        ignore_file: str | None = ".applydiffignore",
        max_file_bytes: int = DEFAULT_MAX_FILE_BYTES,
        threshold: float | None = None,
    ) -> None:
        path = Path(root)
        if not path.is_dir():
            raise EditError(f"the root {str(root)!r} is not a directory", code=IO_ERROR)
        self.policy = Policy(path, ignore_file)
        self.root = self.policy.root
        self.max_file_bytes = max_file_bytes
        self.threshold = threshold
        commit_mod.recover(self.root)

    # -- reading ---------------------------------------------------------------------------
    def key(self, path: str) -> str:
        """The path relative to the root, after the policy checks (raises ``path_denied``)."""
        return self.policy.resolve(path)[0]

    def read(self, path: str) -> FileText:
        """The file's text and facts (raises ``EditError`` for a missing or unreadable file)."""
        key = self.key(path)
        got = self._read(key)
        if got.text is None:
            raise EditError(f"{key} does not exist", code=IO_ERROR, path=key)
        assert got.mode is not None
        return FileText(
            path=key,
            text=got.text,
            file_id=file_id(got.text),
            encoding=got.encoding.label(),
            bom=bool(got.encoding.bom),
            eol=dominant_eol(got.text),
            final_newline=got.text.endswith("\n"),
            mode=stat.S_IMODE(got.mode),
        )

    def _read(self, key: str) -> _Read:
        real = self.policy.resolve(key)[1]
        try:
            st = real.stat()
        except FileNotFoundError:
            return _Read(real, None, None, UTF8, None)
        except OSError as e:
            raise EditError(f"cannot read {key}: {e.strerror}", code=IO_ERROR, path=key) from None
        if stat.S_ISDIR(st.st_mode):
            raise EditError(f"{key} is a directory, not a file", code=IO_ERROR, path=key)
        if st.st_size > self.max_file_bytes:
            raise EditError(
                f"{key} is {st.st_size} bytes, over the limit of {self.max_file_bytes}; "
                "edit a smaller file or raise max_file_bytes",
                code=TOO_LARGE,
                path=key,
            )
        try:
            data = real.read_bytes()
        except OSError as e:
            raise EditError(f"cannot read {key}: {e.strerror}", code=IO_ERROR, path=key) from None
        try:
            text, enc = decode(data)
        except Binary as e:
            raise EditError(
                f"{key} is a binary file ({e}); applydiff edits text files only",
                code=BINARY_FILE,
                path=key,
            ) from None
        return _Read(real, hashlib.sha256(data).hexdigest(), text, enc, st.st_mode)

    # -- applying --------------------------------------------------------------------------
    def apply(
        self,
        response: str | Sequence[Op],
        *,
        dry_run: bool = False,
        format: str = "auto",
        threshold: float | None = None,
    ) -> Result:
        """Apply a model's response (text in any format, or ops) to the tree, all or nothing.

        With ``dry_run`` nothing is written; the result says what would happen, and
        :meth:`commit` can write it later (refusing if a file changed in between).
        """
        if isinstance(response, str):
            try:
                ops = parse(response, format)
            except EditError as e:
                return Result(False, dry_run, errors=[_error_dict(None, e)])
            if not ops:
                e = EditError(
                    "the response holds no edit in any format applydiff reads",
                    code=FORMAT_INVALID,
                )
                return Result(False, dry_run, errors=[_error_dict(None, e)])
        else:
            ops = list(response)
        files = _Files(self)
        threshold = threshold if threshold is not None else self.threshold
        cs = apply_ops(ops, files, key=self.key, threshold=threshold)
        result = self._result(cs, files, dry_run)
        if result.ok and not dry_run:
            self.commit(result)
        return result

    def _result(self, cs: Changeset, files: _Files, dry_run: bool) -> Result:
        edits = [_edit_dict(r) for r in cs.reports]
        if not cs.ok:
            return Result(False, dry_run, edits=edits, errors=[_op_error(e) for e in cs.errors])
        targets: list[commit_mod.Target] = []
        errors = []
        last_op = {r.path: r.index for r in cs.reports}
        for change in cs.changes:
            read = files.reads[change.path]
            if change.after is None:
                targets.append(commit_mod.Target(read.real, None, None))
                continue
            enc = read.encoding if read.text is not None else UTF8
            try:
                data = encode(change.after, enc)
            except UnicodeEncodeError as e:
                bad = change.after[e.start : e.end]
                errors.append(
                    {
                        "code": ENCODING,
                        "index": last_op.get(change.path),
                        "path": change.path,
                        "message": f"{change.path} is stored as {enc.label()}, which cannot "
                        f"hold {bad!r}; write the text with characters the file's encoding "
                        "has, or convert the file to UTF-8 first",
                    }
                )
                continue
            targets.append(commit_mod.Target(read.real, data, read.mode))
        if errors:
            return Result(False, dry_run, edits=edits, errors=errors)
        return Result(
            True,
            dry_run,
            files=cs.summary(),
            edits=edits,
            changes=[(c.path, c.before, c.after) for c in cs.changes],
            _plan=targets,
            _reads=files.reads,
        )

    def commit(self, result: Result) -> Result:
        """Write a successful result (from ``apply(..., dry_run=True)`` too): first check that
        no file changed on disk since it was read (``conflict``), then commit atomically."""
        if not result.ok or result._plan is None or result._reads is None:
            raise ValueError("only a successful, uncommitted result can be committed")
        for key, read in result._reads.items():
            if self._digest(read.real) != read.digest:
                result.ok = False
                result.errors.append(
                    {
                        "code": CONFLICT,
                        "index": None,
                        "path": key,
                        "message": f"{key} changed on disk after it was read; nothing was "
                        "written. Read the file again and redo the edit against what it holds "
                        "now",
                    }
                )
        if not result.ok:
            return result
        try:
            commit_mod.commit(self.root, result._plan)
        except commit_mod.CommitError as e:
            state = (
                "the new contents are committed and will be completed when the root is next opened"
                if e.committed
                else "every file is as it was"
            )
            result.ok = False
            result.errors.append(
                {
                    "code": IO_ERROR,
                    "index": None,
                    "path": e.filename,
                    "message": f"writing failed ({e.strerror}); {state}",
                }
            )
            return result
        result.committed = True
        result.dry_run = False
        result._plan = None
        return result

    @staticmethod
    def _digest(real: Path) -> str | None:
        try:
            return hashlib.sha256(real.read_bytes()).hexdigest()
        except FileNotFoundError:
            return None
        except IsADirectoryError:
            return "directory"


def _edit_dict(r: EditReport) -> dict[str, Any]:
    return {
        "index": r.index,
        "path": r.path,
        "tier": r.tier,
        "confidence": r.confidence,
        "start_line": r.start_line,
        "end_line": r.end_line,
    }


def _op_error(e: OpError) -> dict[str, Any]:
    out = e.error.to_dict()
    out.update(index=e.index, path=e.path)
    return {"code": out.pop("code"), "index": out.pop("index"), "path": out.pop("path"), **out}


def _error_dict(index: int | None, e: EditError) -> dict[str, Any]:
    out = e.to_dict()
    return {"code": out.pop("code"), "index": index, "path": out.pop("path", None), **out}
