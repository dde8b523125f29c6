"""``applydiff batch --ray``: the same job on Ray Data (the optional extra ``applydiff[ray]``).

Ray Data reads the input (JSON Lines through :class:`JsonLines`, a file-based datasource of
ours; Parquet with ``read_parquet``; from any filesystem Ray reads), applies each batch of
records in ``map_batches`` with the very function the local workers run
(:class:`~applydiff.batch.pool.Runner`), and writes the output records as JSON Lines files into
the directory (or URI) OUT, one file per write task, named so that sorting the names gives the
input order (``preserve_order``). Record for record, the output equals the local pool's.

JSON Lines are read as lines of bytes, not with ``read_json`` nor ``read_text``: Arrow's JSON
reader infers one schema for the whole file (a ``files`` object would become a struct with a
field for every path of every record, and one malformed line would fail the read instead of
giving its error record), and ``read_text`` reads a whole file at once and splits it with
``str.splitlines``, which also breaks lines at U+2028 and U+0085 inside JSON strings. Ours
streams each file in pieces, splits at line feeds only, and skips a line over the size limit unread
but for its id, as the local reader does.
"""

from __future__ import annotations

import logging
import time
from typing import Any

import pyarrow as pa  # type: ignore[import-untyped, import-not-found]
import ray
import ray.data
from ray.data.block import BlockAccessor
from ray.data.datasource import FileBasedDatasource
from ray.data.datasource.file_datasink import BlockBasedFileDatasink

from . import Summary
from .io import READ_BUFFER, is_parquet
from .pool import HASH_SEED, Line, Options, Runner
from .record import MAX_RECORD_BYTES, Oversize, head_id

BATCH_SIZE = 256  # records per map_batches call
# Reading and writing lines is light next to applying: their tasks ask for a quarter of a CPU,
# so that an applying actor can run on every CPU of the cluster meanwhile.
IO_CPUS = 0.25

_SCHEMA = pa.schema(
    [
        ("line", pa.large_string()),
        ("ok", pa.bool_()),
        ("code", pa.string()),
        ("exact", pa.bool_()),
    ]
)


_LINES = pa.schema([("line", pa.large_binary()), ("oversize", pa.int64())])


class JsonLines(FileBasedDatasource):
    """JSON Lines files as rows of ``line`` (bytes; for a line over the limit, its first 4 KiB)
    and ``oversize`` (that line's size, else null); blank lines left out."""

    def __init__(self, paths: str | list[str], *, rows_per_block: int = 1024, **kwargs: Any):
        super().__init__(paths, **kwargs)
        self.rows_per_block = rows_per_block

    def _read_stream(self, f: Any, path: str) -> Any:
        lines: list[bytes] = []
        sizes: list[int | None] = []
        pending = b""
        oversize: int | None = None  # the size so far of a line over the limit

        def add(line: bytes, size: int | None) -> None:
            line = line.rstrip(b"\r")
            if size is not None or line.strip():
                lines.append(line)
                sizes.append(size)

        while True:
            data = f.read(READ_BUFFER)
            if not data:
                break
            parts = data.split(b"\n")
            for k, part in enumerate(parts):
                last = k == len(parts) - 1
                if oversize is not None:
                    oversize += len(part) + (0 if last else 1)
                    if not last:
                        add(pending, oversize)
                        pending, oversize = b"", None
                    continue
                if last:
                    pending += part
                    if len(pending) > MAX_RECORD_BYTES:
                        pending, oversize = pending[:4096], len(pending)
                    continue
                line, pending = pending + part, b""
                if len(line) > MAX_RECORD_BYTES:
                    add(line[:4096], len(line) + 1)
                else:
                    add(line, None)
            if len(lines) >= self.rows_per_block:
                yield pa.table([lines, sizes], schema=_LINES)
                lines, sizes = [], []
        if oversize is not None:
            add(pending, oversize)
        elif pending:
            add(pending, None)
        if lines:
            yield pa.table([lines, sizes], schema=_LINES)


class _Apply:
    """The map_batches function: input rows to output lines (and what the summary counts)."""

    def __init__(self, options: Options, lines: bool) -> None:
        self.runner = Runner(options)
        self.lines = lines  # rows of JsonLines; else the rows are the records (Parquet)

    def __call__(self, batch: pa.Table) -> pa.Table:
        lines: list[str] = []
        ok: list[bool] = []
        codes: list[str | None] = []
        exact: list[bool | None] = []
        payloads: list[Any]
        if self.lines:
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
            out = self.runner.run(0, payload)
            assert isinstance(out, Line)
            lines.append(out.text)
            ok.append(out.ok)
            codes.append(out.code)
            exact.append(out.exact)
        return pa.table([lines, ok, codes, exact], schema=_SCHEMA)


class _LinesSink(BlockBasedFileDatasink):
    """Writes the ``line`` column of each block as JSON Lines, and returns what it wrote for
    the summary."""

    def __init__(self, path: str) -> None:
        super().__init__(path, file_format="jsonl")
        self.counts: dict[str, Any] = {}

    def write_block_to_file(self, block: BlockAccessor, file: Any) -> None:
        table = block.to_arrow()
        for line in table.column("line").to_pylist():
            file.write(line.encode("utf-8", "surrogatepass") + b"\n")

    def write(self, blocks: Any, ctx: Any) -> Any:
        blocks = list(blocks)
        super().write(blocks, ctx)
        counts: dict[str, Any] = {"records": 0, "ok": 0, "with_expected": 0, "exact": 0}
        errors: dict[str, int] = {}
        for b in blocks:
            t = BlockAccessor.for_block(b).to_arrow()
            counts["records"] += t.num_rows
            counts["ok"] += sum(1 for x in t.column("ok").to_pylist() if x)
            for x in t.column("exact").to_pylist():
                if x is not None:
                    counts["with_expected"] += 1
                    counts["exact"] += x
            for code in t.column("code").to_pylist():
                if code is not None:
                    errors[code] = errors.get(code, 0) + 1
        counts["errors"] = errors
        return counts

    def on_write_complete(self, write_result: Any) -> None:
        super().on_write_complete(write_result)
        total: dict[str, Any] = {"records": 0, "ok": 0, "with_expected": 0, "exact": 0}
        errors: dict[str, int] = {}
        for part in write_result.write_returns:
            if not part:
                continue
            for k in total:
                total[k] += part[k]
            for code, n in part["errors"].items():
                errors[code] = errors.get(code, 0) + n
        total["errors"] = errors
        self.counts = total


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
    if is_parquet(source):
        ds = ray.data.read_parquet(source, num_cpus=IO_CPUS)
    else:
        ds = ray.data.read_datasource(JsonLines(source), num_cpus=IO_CPUS)
    ds = ds.map_batches(
        _Apply,
        fn_constructor_args=(options, not is_parquet(source)),
        batch_size=batch_size,
        batch_format="pyarrow",
        compute=ray.data.ActorPoolStrategy(
            min_size=1, max_size=max(1, int(ray.available_resources().get("CPU", 1)))
        ),
        runtime_env={"env_vars": {"PYTHONHASHSEED": HASH_SEED}},
    )
    sink = _LinesSink(out)
    ds.write_datasink(sink, ray_remote_args={"num_cpus": IO_CPUS})
    if stats is not None:
        stats.append(ds.stats())
    counts = sink.counts
    summary = Summary(
        records=counts.get("records", 0),
        ok=counts.get("ok", 0),
        with_expected=counts.get("with_expected", 0),
        exact=counts.get("exact", 0),
        errors=counts.get("errors", {}),
        seconds=time.perf_counter() - start,
    )
    summary.crashes = summary.errors.get("crash", 0)
    return summary


def read_output(path: str) -> list[str]:
    """The lines of a Ray output directory, in input order (its files sorted by name)."""
    from pathlib import Path

    lines: list[str] = []
    for f in sorted(Path(path).glob("*.jsonl")):
        lines += f.read_text(encoding="utf-8").split("\n")[:-1]
    return lines
