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
unread but for its id, as the local reader does.
"""

from __future__ import annotations

import functools
import logging
import os
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
from .record import MAX_RECORD_BYTES, Oversize, head_id

BATCH_SIZE = 256  # records per map_batches call
# Reading and writing lines is light next to applying (100,000 records: 6 CPU-seconds to read,
# 1 to write, 68 to apply): their tasks reserve no CPU, so that an applying task runs on every
# CPU of the cluster (Ray Data does not fuse the read with map_batches here: with a CPU held
# for reading, one applying task ran at a time on a 2-CPU cluster)...
IO_CPUS = 0
# ...and, reserving none, they are capped in number: one reader per this many CPUs (a reader
# parses about 10,000 records a second, an applying CPU about 1,400; uncapped, Ray started a
# reader per range at once and the machine thrashed).
CPUS_PER_READER = 8

_SCHEMA = pa.schema(
    [
        ("line", pa.large_string()),
        ("ok", pa.bool_()),
        ("code", pa.string()),
        ("exact", pa.bool_()),
    ]
)


_LINES = pa.schema([("line", pa.large_binary()), ("oversize", pa.int64())])


def read_range(f: Any, start: int, end: int, rows_per_block: int = 256) -> Iterator[pa.Table]:
    """The lines of the seekable file ``f`` that start in bytes ``[start, end)``, as tables of
    ``line`` (bytes, ``\r`` and the line feed cut; for a line over the size limit, its first
    4 KiB) and ``oversize`` (that line's size, else null); blank lines left out. A line belongs
    to the range it starts in, so ranges that tile a file read each line once."""
    lines: list[bytes] = []
    sizes: list[int | None] = []

    def add(line: bytes, size: int | None) -> None:
        line = line.rstrip(b"\r")
        if size is not None or line.strip():
            lines.append(line)
            sizes.append(size)

    f.seek(max(0, start - 1))
    data = f.read(READ_BUFFER) if start else b""
    at = max(0, start - 1)  # the file offset of data[0]
    if start:  # skip to the first line that starts at or after ``start``
        while True:
            cut = data.find(b"\n")
            if cut >= 0:
                at, data = at + cut + 1, data[cut + 1 :]
                break
            at += len(data)
            data = f.read(READ_BUFFER)
            if not data:
                return
    line_start = at
    pending: list[bytes] = []  # the current line's pieces (its head only, once over the limit)
    length = 0  # the current line's length so far
    while line_start < end:
        if not data:
            data = f.read(READ_BUFFER)
            if not data:
                break
        cut = data.find(b"\n")
        piece, data = (data, b"") if cut < 0 else (data[:cut], data[cut + 1 :])
        length += len(piece)
        if length <= MAX_RECORD_BYTES:
            pending.append(piece)
        elif len(pending) != 1 or len(pending[0]) > 4096:
            pending = [b"".join(pending)[:4096]]
        if cut < 0:
            continue
        if length > MAX_RECORD_BYTES:
            add(pending[0][:4096], length + 1)
        else:
            add(b"".join(pending), None)
        line_start += length + 1
        pending, length = [], 0
        if len(lines) >= rows_per_block:
            yield pa.table([lines, sizes], schema=_LINES)
            lines, sizes = [], []
    if pending and line_start < end:  # a last line without its line feed
        if length > MAX_RECORD_BYTES:
            add(pending[0][:4096], length)
        else:
            add(b"".join(pending), None)
    if lines:
        yield pa.table([lines, sizes], schema=_LINES)


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
        for filesystem, path, size in self.files:
            count = max(1, -(-size // self.bytes_per_task))
            step = -(-size // count)
            for k in range(count):
                start, end = k * step, min(size, (k + 1) * step)
                if start >= end:
                    continue
                meta = BlockMetadata(
                    num_rows=None, size_bytes=end - start, exec_stats=None, input_files=(path,)
                )
                tasks.append(ReadTask(functools.partial(_read, filesystem, path, start, end), meta))
        return tasks


def _read(filesystem: Any, path: str, start: int, end: int) -> Iterator[pa.Table]:
    with filesystem.open_input_file(path) as f:
        yield from read_range(f, start, end)


def apply_batch(batch: pa.Table, options: Options, lines: bool) -> pa.Table:
    """The map_batches function: input rows (of :class:`JsonLines`, or records when not
    ``lines``: Parquet) to output lines, with what the summary counts."""
    runner = Runner(options)
    out_lines: list[str] = []
    ok: list[bool] = []
    codes: list[str | None] = []
    exact: list[bool | None] = []
    payloads: list[Any]
    if lines:
        payloads = [
            line if size is None else Oversize(size, head_id(line))
            for line, size in zip(
                batch.column("line").to_pylist(),
                batch.column("oversize").to_pylist(),
                strict=True,
            )
        ]
    else:
        payloads = batch.to_pylist()
    for payload in payloads:
        out = runner.run(0, payload)
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
    ctx.execution_options.preserve_order = True
    ctx.enable_progress_bars = False
    start = time.perf_counter()
    options = Options(hashes=hashes, timeout=timeout, encode=True)
    env = {"env_vars": {"PYTHONHASHSEED": HASH_SEED}}
    readers = max(1, int(ray.cluster_resources().get("CPU", 1)) // CPUS_PER_READER)
    if is_parquet(source):
        ds = ray.data.read_parquet(source, runtime_env=env, num_cpus=IO_CPUS, concurrency=readers)
    else:
        ds = ray.data.read_datasource(
            JsonLines(source), runtime_env=env, num_cpus=IO_CPUS, concurrency=readers
        )
    ds = ds.map_batches(
        cast(Any, apply_batch),  # a batch and the keyword arguments below
        fn_kwargs={"options": options, "lines": not is_parquet(source)},
        batch_size=batch_size,
        batch_format="pyarrow",
        runtime_env=env,
    )
    sink = _LinesSink(out)
    ds.write_datasink(sink, ray_remote_args={"num_cpus": IO_CPUS})
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
