"""Records in and out of files: JSON Lines streamed line by line (a line over the size limit
is skipped unread but for its id), Parquet in batches when pyarrow is installed, and what a
resumed run finds already done in its output (a last line cut short by a kill is dropped)."""

from __future__ import annotations

import json
import os
import stat
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from .record import (
    HEAD_BYTES,
    MAX_RECORD_BYTES,
    Oversize,
    Payload,
    Source,
    Span,
    head_id,
    record_id,
)

READ_BUFFER = 1024 * 1024
PARQUET_BATCH = 256  # rows per Arrow batch read from a Parquet file


class InputError(Exception):
    """The input cannot be read as records (a usage error: exit 2)."""


def is_parquet(path: str) -> bool:
    return path.lower().endswith((".parquet", ".pq"))


def read_lines(
    stream: IO[bytes], limit: int = MAX_RECORD_BYTES, *, spans: bool = False
) -> Iterator[Payload]:
    """The records of a JSON Lines stream, one payload per non-blank line: the line's bytes
    (with ``spans``, a :class:`Span` of them: the stream is a regular file read from its
    start), or an :class:`Oversize` when it is longer than ``limit`` (read past, never
    held)."""
    offset = 0  # where the line read next starts in the file
    while True:
        line = stream.readline(limit + 1)
        if not line:
            return
        at = offset
        offset += len(line)
        if len(line) > limit and not line.endswith(b"\n"):
            size = len(line)
            rid = head_id(line[:HEAD_BYTES])
            while True:  # the rest of the line, in pieces
                more = stream.readline(READ_BUFFER)
                size += len(more)
                if not more or more.endswith(b"\n"):
                    break
            offset = at + size
            yield Oversize(size, rid)
            continue
        line = line.rstrip(b"\r\n")
        if line.strip():
            yield Span(at, len(line), line) if spans else line


def read_parquet(path: str) -> Iterator[Payload]:
    """The rows of a Parquet file as records (needs pyarrow)."""
    try:
        import pyarrow.parquet as pq  # type: ignore[import-untyped, import-not-found]
    except ImportError:
        raise InputError(
            f"{path} is Parquet, which needs pyarrow: pip install 'applydiff[ray]' or pyarrow"
        ) from None
    try:
        reader = pq.ParquetFile(path)
    except (OSError, ValueError) as e:
        raise InputError(f"cannot read {path} as Parquet: {e}") from None
    for batch in reader.iter_batches(batch_size=PARQUET_BATCH):
        yield from batch.to_pylist()


def shared_source(f: IO[bytes]) -> Source | None:
    """How worker processes can read the regular file this process has open as ``f`` (see
    :class:`Span`): through ``/proc/PID/fd/N``, so that they read the very file this process
    reads, whatever happens to its path meanwhile. None where they cannot (not a regular file,
    no ``/proc``, no ``os.pread``: then the records go to them as bytes)."""
    if not hasattr(os, "pread"):
        return None
    try:
        st = os.fstat(f.fileno())
        if not stat.S_ISREG(st.st_mode):
            return None
        source = Source(f"/proc/{os.getpid()}/fd/{f.fileno()}", st.st_dev, st.st_ino)
        fd = os.open(source.path, os.O_RDONLY)
    except (OSError, ValueError):
        return None
    try:
        again = os.fstat(fd)
    finally:
        os.close(fd)
    return source if (again.st_dev, again.st_ino) == (st.st_dev, st.st_ino) else None


@contextmanager
def opened_input(
    path: str, *, spans: bool = False
) -> Iterator[tuple[Iterator[Payload], Source | None]]:
    """The records of ``path`` (``-``: stdin), JSON Lines or Parquet by its extension; with
    ``spans``, a regular file's lines as :class:`Span` payloads and where workers read them
    (else None)."""
    if path == "-":
        yield read_lines(sys.stdin.buffer), None
        return
    if is_parquet(path):
        if not Path(path).is_file():
            raise InputError(f"{path}: no such file")
        yield read_parquet(path), None
        return
    try:
        f = open(path, "rb", buffering=READ_BUFFER)  # noqa: SIM115 (closed below)
    except OSError as e:
        raise InputError(f"cannot read {path}: {e.strerror or e}") from None
    with f:
        source = shared_source(f) if spans else None
        yield read_lines(f, spans=source is not None), source


def done_in(path: str) -> list[Any]:
    """What an earlier run wrote to ``path``: the ids of its complete records, in order (None
    for a record without a usable id). A last line without its newline (the run was killed
    while writing it) is cut off the file, so its record is run again."""
    try:
        f = open(path, "r+b")  # noqa: SIM115 (closed below)
    except FileNotFoundError:
        return []
    except OSError as e:
        raise InputError(f"cannot read {path} to resume: {e.strerror or e}") from None
    ids: list[Any] = []
    end = 0  # the end of the last complete line
    decoder = json.JSONDecoder()
    with f:
        for line in f:
            if not line.endswith(b"\n"):
                break
            try:
                ids.append(_line_id(line, decoder))
            except ValueError:
                raise InputError(
                    f"{path} line {len(ids) + 1} is not an output record; resume needs the "
                    "output of an earlier run of this batch"
                ) from None
            end += len(line)
        if f.seek(0, os.SEEK_END) != end:
            f.truncate(end)
    return ids


_HEAD = b'{"id":'


def _line_id(line: bytes, decoder: json.JSONDecoder) -> Any:
    """The id of an output line (the writer puts it first); ValueError if not a record."""
    if line.startswith(_HEAD):
        value, _ = decoder.raw_decode(line[len(_HEAD) :].decode("utf-8", "surrogatepass"))
        return record_id({"id": value})
    record = json.loads(line)
    if not isinstance(record, dict) or "id" not in record:
        raise ValueError("not a record")
    return record_id(record)


@contextmanager
def opened_output(path: str | None, *, append: bool) -> Iterator[IO[str]]:
    """Where output lines go: ``path`` (appended to when resuming), or stdout."""
    if path is None or path == "-":
        yield sys.stdout
        sys.stdout.flush()
        return
    parent = Path(path).parent
    if not parent.is_dir():
        raise InputError(f"cannot write {path}: {parent} is not a directory")
    with open(path, "a" if append else "w", encoding="utf-8", errors="surrogatepass") as f:
        yield f
