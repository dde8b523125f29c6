"""One batch record, in memory: read an input record, apply its answer to its files with the
engine, and build the output record. Nothing touches a disk.

An input record is a JSON object::

    {"id": "r1", "files": {"a.py": "x = 1\\n"}, "answer": "...",
     "expected": {"a.py": "x = 2\\n"}, "format": "auto"}

``answer`` is text in any format :func:`applydiff.parse` reads, or tool calls as JSON (an
object or a list, kept as JSON or as a string). ``expected`` (optional) maps a path to the
text it must hold afterwards (``null``: the answer must delete it); a path it does not name
must stay as it is in ``files``, so ``"expected": {}`` says that nothing may change (a
refusal is right). The output record (keys in this order)::

    {"id": "r1", "ok": true, "files": {"a.py": "x = 2\\n"},
     "reports": [{"index": 0, "path": "a.py", "kind": "replace", "tier": "exact",
                  "confidence": 1.0, "start_line": 1, "end_line": 1, "matches": 1}],
     "errors": [], "exact": true, "whitespace_only": false}

With ``merged`` (path -> the text a merge made of that file: a fast-apply model's output, a
training set's ``final_code``), the output has ``"merged": {path: {"verified": bool,
"reasons": [...], "notes": [...]}}`` (``batch.merged``): whether the answer explains it.

``files`` holds every file the answer changed (``null``: deleted), or, with ``hashes``, a
``hashes`` object holds their SHA-256 instead. ``exact`` and ``whitespace_only`` appear when
the record has ``expected``. Errors are ``{"code", "index", "path", "message", ...}``; a
record the batch cannot run has one error with a code of :data:`BATCH_CODES`.
"""

from __future__ import annotations

import hashlib
import json
import posixpath
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, cast

import orjson

from ..engine import apply_ops
from ..errors import PATH_DENIED, TOO_LARGE, EditError
from ..formats import FORMATS, no_edit, parse
from ..ir import Op, normalize_path
from ..problems import Problem
from .merged import verify_recorded

# The codes of records the batch could not run (the engine's codes are in errors.CODES).
BAD_RECORD = "bad_record"  # not JSON, not an object, or a field missing or of the wrong type
UNKNOWN_FORMAT = "unknown_format"  # ``format`` is neither "auto" nor one of formats.FORMATS
TIMEOUT = "timeout"  # the record ran past the time limit
CRASH = "crash"  # the engine raised an unexpected exception, or the worker process died
BATCH_CODES = (BAD_RECORD, UNKNOWN_FORMAT, TOO_LARGE, TIMEOUT, CRASH)

# A record larger than this (its input line in bytes, or its texts in characters) is refused
# as ``too_large`` unread: 64 MiB, far above any model answer with its files, and small enough
# that a few in flight per worker keep memory bounded.
MAX_RECORD_BYTES = 64 * 1024 * 1024
OVERSIZE_MESSAGE = (
    f"the record is over the limit of {MAX_RECORD_BYTES:,} bytes, so it was not read; split "
    "its files into several records"
)

_ID_TYPES = (str, int)


def error_record(
    rid: Any, code: str, message: str, *, expected: bool = False, hashes: bool = False
) -> dict[str, Any]:
    """The output record of a record that did not run: ``ok`` false, one error."""
    out: dict[str, Any] = {
        "id": rid,
        "ok": False,
        "hashes" if hashes else "files": {},
        "reports": [],
        "errors": [Problem(code, message).to_dict()],
    }
    if expected:
        out["exact"] = False
        out["whitespace_only"] = False
    return out


def sha256(text: str) -> str:
    """The SHA-256 hex digest of ``text`` as UTF-8 (lone surrogates as they came)."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


class BadRecord(Exception):
    """The record cannot run: its code (one of :data:`BATCH_CODES`) and why."""

    def __init__(self, code: str, message: str, rid: Any = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.rid = rid


def record_id(value: Any) -> Any:
    """The id of a decoded record, or None when it has no usable one."""
    if isinstance(value, Mapping):
        rid = value.get("id")
        if isinstance(rid, _ID_TYPES) and not isinstance(rid, bool):
            return rid
    return None


def loads(line: str | bytes) -> Any:
    """``json.loads``, twice as fast on records (decoding was a sixth of a worker's time):
    orjson decodes, and its value stands when it holds no float (orjson reads an integer past
    64 bits as one, json as an int); what orjson refuses (NaN, lone surrogates, a BOM, ...) or
    reads with a float goes to json, whose value or error stands."""
    try:
        value = orjson.loads(line)
    except orjson.JSONDecodeError:
        return json.loads(line)
    return json.loads(line) if _holds_float(value) else value


def _holds_float(value: Any) -> bool:
    todo = [value]
    while todo:
        v = todo.pop()
        if isinstance(v, float):
            return True
        if isinstance(v, dict):
            todo.extend(v.values())
        elif isinstance(v, list):
            todo.extend(v)
    return False


def decode_line(line: str | bytes) -> dict[str, Any]:
    """An input line as a record object (raises :class:`BadRecord`)."""
    if len(line) > MAX_RECORD_BYTES:
        raise BadRecord(TOO_LARGE, OVERSIZE_MESSAGE)
    try:
        value = loads(line)
    except (ValueError, RecursionError) as e:
        raise BadRecord(BAD_RECORD, f"the line is not JSON: {e}") from None
    if not isinstance(value, dict):
        raise BadRecord(BAD_RECORD, f"the line is JSON but not an object ({type(value).__name__})")
    return value


def _texts(value: Any, field: str, rid: Any, *, nulls: bool) -> dict[str, str | None]:
    """``files`` or ``expected``: an object of path -> text (``null`` allowed when ``nulls``),
    or, as Parquet gives a map column, a list of [path, text] pairs; paths normalized."""
    if isinstance(value, str):  # a JSON string column (Parquet without nested types)
        try:
            value = json.loads(value)
        except ValueError:
            raise BadRecord(
                BAD_RECORD, f"'{field}' is a string but not a JSON object", rid
            ) from None
    if isinstance(value, list) and all(isinstance(p, list | tuple) and len(p) == 2 for p in value):
        value = dict(value)
    if not isinstance(value, dict):
        raise BadRecord(
            BAD_RECORD,
            f"'{field}' must be an object of path -> text, not {type(value).__name__}",
            rid,
        )
    out: dict[str, str | None] = {}
    for path, text in value.items():
        if not isinstance(path, str) or not path:
            raise BadRecord(BAD_RECORD, f"'{field}' has a path that is not a string", rid)
        if text is None and not nulls:
            continue  # a struct column's absent keys
        if text is not None and not isinstance(text, str):
            raise BadRecord(
                BAD_RECORD, f"'{field}' maps {path!r} to {type(text).__name__}, not text", rid
            )
        key = normalize_path(path)
        if key in out:
            raise BadRecord(BAD_RECORD, f"'{field}' names {key!r} twice ({path!r})", rid)
        out[key] = text
    return out


def _answer_text(value: Any, rid: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, dict | list):  # tool calls as JSON
        return json.dumps(value, ensure_ascii=False)
    raise BadRecord(
        BAD_RECORD,
        f"'answer' must be text or tool calls as JSON, not {type(value).__name__}",
        rid,
    )


def _size(files: Mapping[str, str | None], answer: str) -> int:
    return len(answer) + sum(len(p) + len(t or "") for p, t in files.items())


def _key(path: str) -> str:
    """A path of an op as a key of the record's files; outside the record's tree: denied."""
    key = normalize_path(path)
    if posixpath.isabs(key) or key == ".." or key.startswith("../") or not key:
        raise EditError(
            f"{path!r} is outside the record's files (an absolute path or one that climbs "
            "out with '..'); name the file as the record's files do",
            code=PATH_DENIED,
        )
    return key


def apply_record(record: Mapping[str, Any], *, hashes: bool = False) -> dict[str, Any]:
    """The output record of one decoded input record (never raises for bad input: a bad record
    is an error record; an unexpected exception of the engine propagates to the caller)."""
    rid = record_id(record)
    has_expected = record.get("expected") is not None
    try:
        if rid is None:
            raise BadRecord(BAD_RECORD, "the record has no 'id' (a string or an integer)")
        fmt = record.get("format") or "auto"
        if fmt not in ("auto", *FORMATS):
            raise BadRecord(
                UNKNOWN_FORMAT,
                f"unknown format {fmt!r}; expected auto or one of {', '.join(FORMATS)}",
                rid,
            )
        if "files" not in record or "answer" not in record:
            missing = [k for k in ("files", "answer") if k not in record]
            raise BadRecord(BAD_RECORD, f"the record has no {' or '.join(map(repr, missing))}", rid)
        files = cast(dict[str, str], _texts(record["files"], "files", rid, nulls=False))
        answer = _answer_text(record["answer"], rid)
        expected = _texts(record["expected"], "expected", rid, nulls=True) if has_expected else None
        merged = (
            cast(dict[str, str], _texts(record["merged"], "merged", rid, nulls=False))
            if record.get("merged") is not None
            else None
        )
        size = _size(files, answer) + (_size(expected, "") if expected else 0)
        size += _size(merged, "") if merged else 0
        if size > MAX_RECORD_BYTES:
            raise BadRecord(
                TOO_LARGE,
                f"the record holds {size:,} characters, over the limit of {MAX_RECORD_BYTES:,}",
                rid,
            )
    except BadRecord as e:
        return error_record(rid, e.code, e.message, expected=has_expected, hashes=hashes)
    return _applied(rid, files, answer, fmt, expected, hashes, merged)


HEAD_BYTES = 4096  # the first bytes of a line too large to read, which head_id reads
# The id at the head of a line too large to read: ``{"id": "x"`` or ``{"id": 12``.
_HEAD_ID = re.compile(rb'\A\s*\{\s*"id"\s*:\s*("(?:[^"\\]|\\.){0,1000}"|-?\d{1,30})\s*[,}]')


def head_id(head: bytes) -> Any:
    """The id a record's first bytes name, when the record starts with it (else None)."""
    m = _HEAD_ID.match(head)
    if m is None:
        return None
    try:
        return record_id({"id": json.loads(m.group(1))})
    except ValueError:
        return None


@dataclass(frozen=True)
class Oversize:
    """An input line over :data:`MAX_RECORD_BYTES`, left unread but for the id at its head."""

    size: int
    rid: Any = None


class Span:
    """An input line of a regular file: its bytes (``data``) in the process that read it,
    and where they lie in the file. Pickled, a span keeps only its place: a worker reads the
    line from the file itself (``os.pread``), so a record's bytes never cross a pipe."""

    __slots__ = ("data", "offset", "size")

    def __init__(self, offset: int, size: int, data: bytes | None = None) -> None:
        self.offset = offset
        self.size = size
        self.data = data

    def __reduce__(self) -> tuple[type[Span], tuple[int, int]]:
        return Span, (self.offset, self.size)


@dataclass(frozen=True)
class Source:
    """The input file that :class:`Span` payloads lie in, as other processes open it: the
    reading process's open file through ``/proc`` (the same file even when its path is
    renamed or deleted meanwhile), with its device and inode, checked on opening."""

    path: str
    device: int
    inode: int


Payload = str | bytes | Mapping[str, Any] | Oversize | Span


def run_payload(payload: Payload, *, hashes: bool = False) -> dict[str, Any]:
    """The output record of one input: a JSON line (str or bytes, or a :class:`Span` holding it),
    a decoded record, or an :class:`Oversize` line. Bad input and an exception of the engine
    give an error record (``crash``); this never raises an ``Exception``."""
    rid: Any = None
    expected = False
    if isinstance(payload, Oversize):
        return error_record(payload.rid, TOO_LARGE, OVERSIZE_MESSAGE, hashes=hashes)
    try:
        if isinstance(payload, Span) and payload.data is not None:  # (a runner reads the rest)
            payload = payload.data
        if isinstance(payload, str | bytes):
            if len(payload) > MAX_RECORD_BYTES:
                raw = payload[:HEAD_BYTES]
                rid = head_id(raw.encode("utf-8", "replace") if isinstance(raw, str) else raw)
            record: Mapping[str, Any] = decode_line(payload)
        elif isinstance(payload, Mapping):
            record = payload
        else:
            raise BadRecord(
                BAD_RECORD, f"a record is an object or a JSON line, not {type(payload).__name__}"
            )
        rid = record_id(record)
        expected = record.get("expected") is not None
        return apply_record(record, hashes=hashes)
    except BadRecord as e:
        return error_record(rid, e.code, e.message, hashes=hashes)
    except Exception as e:  # a bug of the engine: this record fails, the batch goes on
        return error_record(
            rid,
            CRASH,
            f"the engine raised {type(e).__name__}: {e}",
            expected=expected,
            hashes=hashes,
        )


def _applied(
    rid: Any,
    files: dict[str, str],
    answer: str,
    fmt: str,
    expected: dict[str, str | None] | None,
    hashes: bool,
    merged: dict[str, str] | None = None,
) -> dict[str, Any]:
    reports: list[dict[str, Any]] = []
    errors: list[dict[str, Any]] = []
    changed: dict[str, str | None] = {}
    ops: list[Op] | None = None
    try:
        ops = parse(answer, fmt)
    except EditError as e:
        errors.append(Problem.of(e).to_dict())
    else:
        if not ops:
            errors.append(Problem.of(no_edit("answer")).to_dict())
        else:
            cs = apply_ops(ops, files, key=_key)
            reports = [r.to_dict() for r in cs.reports]
            errors = [Problem.of_op(e).to_dict() for e in cs.errors]
            if cs.ok:
                changed = {c.path: c.after for c in cs.changes if c.after != c.before}
    out: dict[str, Any] = {"id": rid, "ok": not errors}
    if hashes:
        out["hashes"] = {p: None if t is None else sha256(t) for p, t in changed.items()}
    else:
        out["files"] = changed
    out["reports"] = reports
    out["errors"] = errors
    if expected is not None:
        exact, whitespace_only = compare(files, changed, expected)
        out["exact"] = exact
        out["whitespace_only"] = whitespace_only
    if merged is not None:
        problem = errors[0]["message"] if errors else None
        out["merged"] = verify_recorded(files, merged, ops, None if errors else changed, problem)
    return out


def compare(
    files: Mapping[str, str | None],
    changed: Mapping[str, str | None],
    expected: Mapping[str, str | None],
) -> tuple[bool, bool]:
    """(exact, whitespace_only): whether the files after the answer equal the files as
    ``expected`` says they should be (every path it does not name as it was), byte for byte;
    and, when not, whether they differ only in whitespace (the same paths, each text's words
    the same)."""
    paths = set(changed) | set(expected)
    got = {p: changed[p] if p in changed else files.get(p) for p in paths}
    want = {p: expected[p] if p in expected else files.get(p) for p in paths}
    if got == want:
        return True, False
    for p in paths:
        a, b = got[p], want[p]
        if (a is None) != (b is None):
            return False, False
        if a is not None and b is not None and a.split() != b.split():
            return False, False
    return False, True


def encode(out: Mapping[str, Any]) -> str:
    """An output record as one JSON line (no newline): ``id`` first, non-ASCII kept."""
    return json.dumps(out, ensure_ascii=False, separators=(",", ":"))
