"""``applydiff batch --ray``: the same job on Ray Data (the optional extra ``applydiff[ray]``).

Ray Data reads the input (JSON Lines through :class:`JsonLines`, a datasource of ours that
reads files in byte ranges; Parquet with ``read_parquet``; from any filesystem pyarrow opens),
applies each batch of records in ``map_batches`` with the very function the local workers run
(:class:`~applydiff.batch.pool.Runner`), and writes the
output records as JSON Lines files into the directory (or URI) OUT, one file per write task,
named so that sorting the names gives the input order (``preserve_order``). Record for record,
the output equals the local pool's.

JSON Lines are read as lines of bytes, not with ``read_json`` nor ``read_text``: Arrow's JSON
reader infers one schema for the whole file (a ``files`` object would become a struct with a
field for every path of every record, and one malformed line would fail the read instead of
giving its error record), and ``read_text`` reads a whole file at once and splits it with
``str.splitlines``, which also breaks lines at U+2028 and U+0085 inside JSON strings. Ours
streams each range in pieces, splits at line feeds only, and skips a line over the size limit
unread but for its id, as the local reader does. Its rows are the lines' places, not their
bytes (as the local pool sends its workers): each applying task reads its batch's lines from
the file itself, in one read per run of neighbouring lines, so the records never pass through
Ray's object store.
"""

from __future__ import annotations

import functools
import logging
import os
import re
import time
from collections.abc import Iterator
from typing import Any, cast

import pyarrow as pa  # type: ignore[import-untyped, import-not-found]
import ray
import ray.data
from ray.data.block import BlockAccessor, BlockMetadata
from ray.data.datasource import Datasource, ReadTask
from ray.data.datasource.file_datasink import BlockBasedFileDatasink

from . import Summary
from .io import READ_BUFFER, is_parquet
from .pool import HASH_SEED, Line, Options, Runner
from .record import HEAD_BYTES, MAX_RECORD_BYTES, Oversize, head_id

BATCH_SIZE = 256  # records per map_batches call
RUN_BYTES = 8 * 1024 * 1024  # neighbouring lines an applying task reads at once, at most
# Bytes of input a read task finds the lines of (it reads no record: see _SPANS). Large, so
# that the read operator streams blocks of places ahead of the applying tasks instead of
# being scheduled again every few hundred records.
BYTES_PER_READ = 256 * 1024 * 1024
# Reading the places of lines and writing output lines is light next to applying (100,000
# records: 1 CPU-second to read, 1 to write, 50 to apply): their tasks reserve no CPU, so that
# an applying task runs on every CPU of the cluster...
IO_CPUS = 0
# ...and, reserving none, they are capped in number: one reader and one writer per this many
# CPUs (uncapped, Ray starts a process for each read or write task at once and they take the
# applying tasks' CPUs).
CPUS_PER_READER = 8

_SCHEMA = pa.schema(
    [
        ("line", pa.large_string()),
        ("ok", pa.bool_()),
        ("code", pa.string()),
        ("exact", pa.bool_()),
    ]
)


# A line of an input file, as the read tasks find it: where it is (``file``: its index in the
# datasource's files), its length without the line feed and the CRs before it (``size``),
# and, for a line over the size limit only, its first 4 KiB (``head``; ``size`` is then the
# whole line's). The applying task reads the line itself, so records never pass through
# Ray's object store: only these rows do.
_SPANS = pa.schema(
    [
        ("file", pa.int32()),
        ("offset", pa.int64()),
        ("size", pa.int64()),
        ("head", pa.large_binary()),
    ]
)
_SOLID = re.compile(rb"\S")  # a line with one of these is not blank (bytes.strip's whitespace)


def line_spans(f: Any, start: int, end: int) -> Iterator[tuple[int, int, bytes | None]]:
    """(offset, size, head) of each line of the seekable file ``f`` that starts in bytes
    ``[start, end)`` and is not blank: ``size`` without the line feed and the CRs before it,
    ``head`` None; for a line over the size limit, ``size`` is its whole length and ``head``
    its first 4 KiB. A line belongs to the range it starts in, so ranges that tile a file
    read each line once. No line is held: each chunk is scanned for line feeds and let go."""
    at = max(0, start - 1)  # the file offset of chunk[0]
    f.seek(at)
    chunk = f.read(READ_BUFFER)
    k = 0  # where the current line goes on in chunk
    if start:  # the first line that starts at or after ``start``: after a line feed
        while (cut := chunk.find(b"\n")) < 0:
            at += len(chunk)
            chunk = f.read(READ_BUFFER)
            if not chunk:
                return
        k = cut + 1
    line_at = at + k
    length = crs = 0  # the line's bytes so far, and how many of the last are CRs
    solid = False  # whether it has a byte that is not whitespace
    while line_at < end:
        if k >= len(chunk):
            at += len(chunk)
            chunk, k = f.read(READ_BUFFER), 0
            if not chunk:  # the file ends: the last line had no line feed
                if length > MAX_RECORD_BYTES:
                    yield line_at, length, _head(f, line_at)
                elif solid:
                    yield line_at, length - crs, None
                return
        cut = chunk.find(b"\n", k)
        stop = len(chunk) if cut < 0 else cut
        if stop > k:
            solid = solid or _SOLID.search(chunk, k, stop) is not None
            back = stop
            while back > k and chunk[back - 1] == 13:  # CRs at the piece's end
                back -= 1
            crs = crs + stop - k if back == k else stop - back
            length += stop - k
        if cut < 0:
            k = len(chunk)
            continue
        if length > MAX_RECORD_BYTES:
            yield line_at, length + 1, _head(f, line_at)
        elif solid:
            yield line_at, length - crs, None
        k = cut + 1
        line_at = at + k
        length = crs = 0
        solid = False


def _head(f: Any, offset: int) -> bytes:
    """The first 4 KiB of the line at ``offset`` (the file's position is kept)."""
    here = f.tell()
    f.seek(offset)
    head = f.read(HEAD_BYTES)
    f.seek(here)
    return head


def read_range(
    f: Any, start: int, end: int, file: int = 0, rows_per_block: int = 256
) -> Iterator[pa.Table]:
    """The lines of ``f`` that start in ``[start, end)`` (see :func:`line_spans`) as tables of
    :data:`_SPANS` rows, ``file`` the file's index."""
    rows: list[tuple[int, int, bytes | None]] = []
    for span in line_spans(f, start, end):
        rows.append(span)
        if len(rows) >= rows_per_block:
            yield _table(rows, file)
            rows = []
    if rows:
        yield _table(rows, file)


def _table(rows: list[tuple[int, int, bytes | None]], file: int) -> pa.Table:
    offsets, sizes, heads = zip(*rows, strict=True)
    return pa.table([[file] * len(rows), list(offsets), list(sizes), list(heads)], schema=_SPANS)


def read_lines_of(
    files: list[tuple[Any, str]], rows: list[tuple[int, int, int, bytes | None]]
) -> list[Any]:
    """The payloads of span rows (file, offset, size, head): each line's bytes, read from its
    file in one read per run of neighbouring lines, or an :class:`Oversize` for a line over
    the limit (never read)."""
    out: list[Any] = [None] * len(rows)
    i = 0
    while i < len(rows):
        file, offset, size, head = rows[i]
        if head is not None:
            out[i] = Oversize(size, head_id(head))
            i += 1
            continue
        j, end = i + 1, offset + size  # the run: one file, each line after the one before it
        while j < len(rows):
            f2, o2, s2, h2 = rows[j]
            if h2 is not None or f2 != file or o2 < end or o2 + s2 - offset > RUN_BYTES:
                break
            j, end = j + 1, o2 + s2
        filesystem, path = files[file]
        with filesystem.open_input_file(path) as f:
            data = f.read_at(end - offset, offset)
        for k in range(i, j):
            at = rows[k][1] - offset
            out[k] = data[at : at + rows[k][2]]
        i = j
    return out


class JsonLines(Datasource):
    """JSON Lines files (a file, a directory of ``*.jsonl``/``*.json`` files, or a list; local
    or any URI pyarrow opens) read in byte ranges of about ``bytes_per_task``: each read task
    reads the lines that start in its range (:func:`read_range`), so one large file is read in
    parallel, on every node."""

    def __init__(self, paths: str | list[str], *, bytes_per_task: int = 32 * 1024 * 1024) -> None:
        from pyarrow import fs as pafs  # type: ignore[import-untyped, import-not-found]

        self.bytes_per_task = bytes_per_task
        self.files: list[tuple[Any, str, int]] = []  # (filesystem, path, size)
        for path in [paths] if isinstance(paths, str) else paths:
            if "://" in path:
                filesystem, where = pafs.FileSystem.from_uri(path)
            else:
                filesystem, where = pafs.LocalFileSystem(), os.path.abspath(path)
            info = filesystem.get_file_info(where)
            if info.type == pafs.FileType.Directory:
                found = filesystem.get_file_info(pafs.FileSelector(where, recursive=False))
                for f in sorted(found, key=lambda x: x.path):
                    if f.type == pafs.FileType.File and f.path.endswith((".jsonl", ".json")):
                        self.files.append((filesystem, f.path, f.size))
            elif info.type == pafs.FileType.File:
                self.files.append((filesystem, where, info.size))
            else:
                raise FileNotFoundError(path)

    def estimate_inmemory_data_size(self) -> int:
        return sum(size for _, _, size in self.files)

    def get_read_tasks(
        self,
        parallelism: int,
        per_task_row_limit: int | None = None,
        data_context: Any = None,
    ) -> list[ReadTask]:
        tasks = []
        for index, (filesystem, path, size) in enumerate(self.files):
            count = max(1, -(-size // self.bytes_per_task))
            step = -(-size // count)
            for k in range(count):
                start, end = k * step, min(size, (k + 1) * step)
                if start >= end:
                    continue
                meta = BlockMetadata(
                    num_rows=None, size_bytes=end - start, exec_stats=None, input_files=(path,)
                )
                read = functools.partial(_read, filesystem, path, start, end, index)
                tasks.append(ReadTask(read, meta))
        return tasks

    def sources(self) -> list[tuple[Any, str]]:
        """(filesystem, path) of each file, by the index its span rows carry."""
        return [(filesystem, path) for filesystem, path, _ in self.files]


def _read(filesystem: Any, path: str, start: int, end: int, file: int) -> Iterator[pa.Table]:
    with filesystem.open_input_file(path) as f:
        yield from read_range(f, start, end, file)


def apply_batch(
    batch: pa.Table, options: Options, files: list[tuple[Any, str]] | None = None
) -> pa.Table:
    """The map_batches function: input rows (span rows of :class:`JsonLines`, whose lines it
    reads from ``files``; records when ``files`` is None: Parquet) to output lines, with what
    the summary counts."""
    runner = Runner(options)
    out_lines: list[str] = []
    ok: list[bool] = []
    codes: list[str | None] = []
    exact: list[bool | None] = []
    payloads: list[Any]
    if files is not None:
        columns = (batch.column(c).to_pylist() for c in ("file", "offset", "size", "head"))
        payloads = read_lines_of(files, list(zip(*columns, strict=True)))
    else:
        payloads = batch.to_pylist()
    for payload in payloads:
        out = runner.run(payload)
        assert isinstance(out, Line)
        out_lines.append(out.text)
        ok.append(out.ok)
        codes.append(out.code)
        exact.append(out.exact)
    return pa.table([out_lines, ok, codes, exact], schema=_SCHEMA)


class _LinesSink(BlockBasedFileDatasink):
    """Writes the ``line`` column of each block as JSON Lines, and returns what it wrote for
    the summary."""

    def __init__(self, path: str) -> None:
        super().__init__(path, file_format="jsonl")
        self.summary = Summary()

    def write_block_to_file(self, block: BlockAccessor, file: Any) -> None:
        table = block.to_arrow()
        for line in table.column("line").to_pylist():
            file.write(line.encode("utf-8", "surrogatepass") + b"\n")

    def write(self, blocks: Any, ctx: Any) -> Any:
        blocks = list(blocks)
        super().write(blocks, ctx)
        part = Summary()
        for b in blocks:
            t = BlockAccessor.for_block(b).to_arrow()
            columns = (t.column(c).to_pylist() for c in ("ok", "code", "exact"))
            for ok, code, exact in zip(*columns, strict=True):
                part.count(bool(ok), code, exact)
        return part

    def on_write_complete(self, write_result: Any) -> None:
        super().on_write_complete(write_result)
        for part in write_result.write_returns:
            if part:
                self.summary.add(part)


def connect(address: str | None = None, **init: Any) -> None:
    """Join the cluster at ``address`` (None: ``RAY_ADDRESS``, else a new local one), unless
    this process is connected already."""
    if not ray.is_initialized():
        ray.init(address=address, logging_level=logging.WARNING, log_to_driver=False, **init)


def run(
    source: str,
    out: str,
    *,
    address: str | None = None,
    timeout: float | None = None,
    hashes: bool = False,
    batch_size: int = BATCH_SIZE,
    stats: list[str] | None = None,
) -> Summary:
    """Run the records of ``source`` on Ray into the directory (or URI) ``out`` (``stats``
    receives Ray Data's account of where the time went)."""
    connect(address)
    ctx = ray.data.DataContext.get_current()
    saved = (
        ctx.execution_options.preserve_order,
        ctx.enable_progress_bars,
        ctx.op_resource_reservation_enabled,
    )
    ctx.execution_options.preserve_order = True
    ctx.enable_progress_bars = False
    # Ray Data reserves a share of the CPUs for each operator; the reads and writes take none,
    # and on a small cluster what was left kept the applying tasks to one at a time.
    ctx.op_resource_reservation_enabled = False
    try:
        return _run(source, out, timeout=timeout, hashes=hashes, batch_size=batch_size, stats=stats)
    finally:
        (
            ctx.execution_options.preserve_order,
            ctx.enable_progress_bars,
            ctx.op_resource_reservation_enabled,
        ) = saved


def _run(
    source: str,
    out: str,
    *,
    timeout: float | None,
    hashes: bool,
    batch_size: int,
    stats: list[str] | None,
) -> Summary:
    start = time.perf_counter()
    options = Options(hashes=hashes, timeout=timeout, encode=True)
    env = {"env_vars": {"PYTHONHASHSEED": HASH_SEED}}
    readers = max(1, int(ray.cluster_resources().get("CPU", 1)) // CPUS_PER_READER)  # writers too
    files = None
    if is_parquet(source):
        ds = ray.data.read_parquet(source, runtime_env=env, num_cpus=IO_CPUS, concurrency=readers)
    else:
        lines = JsonLines(source, bytes_per_task=BYTES_PER_READ)
        files = lines.sources()
        ds = ray.data.read_datasource(lines, runtime_env=env, num_cpus=IO_CPUS, concurrency=readers)
    ds = ds.map_batches(
        cast(Any, apply_batch),  # a batch and the keyword arguments below
        fn_kwargs={"options": options, "files": files},
        batch_size=batch_size,
        batch_format="pyarrow",
        runtime_env=env,
    )
    sink = _LinesSink(out)
    ds.write_datasink(sink, ray_remote_args={"num_cpus": IO_CPUS}, concurrency=readers)
    if stats is not None:
        stats.append(ds.stats())
    sink.summary.seconds = time.perf_counter() - start
    return sink.summary


def read_output(path: str) -> list[str]:
    """The lines of a Ray output directory, in input order (its files sorted by name)."""
    from pathlib import Path

    lines: list[str] = []
    for f in sorted(Path(path).glob("*.jsonl")):
        lines += f.read_text(encoding="utf-8").split("\n")[:-1]
    return lines
