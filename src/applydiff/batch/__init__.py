"""``applydiff batch``: apply and score many model answers, in memory, on all local cores or
on a Ray cluster.

>>> from applydiff import batch
>>> rec = {"id": 1, "files": {"a.py": "x = 1\\n"}, "expected": {"a.py": "x = 2\\n"},
...        "answer": "a.py\\n<<<<<<< SEARCH\\nx = 1\\n=======\\nx = 2\\n>>>>>>> REPLACE\\n"}
>>> out = next(batch.run([rec], workers=0))
>>> out["ok"], out["files"], out["exact"]
(True, {'a.py': 'x = 2\\n'}, True)

- :mod:`.record`: one record in memory (the formats, limits and error codes);
- :mod:`.pool`: the local process pool (order, time limit, crashes, bounded memory);
- :mod:`.io`: JSON Lines and Parquet in, JSON Lines out, what a resumed run skips;
- :mod:`.ray_run`: the same job on Ray Data (``applydiff[ray]``);
- :mod:`.cli`: ``applydiff batch`` and ``applydiff bench --emit-batch``.

This module loads nothing heavy, so that the command line's ``--help`` stays fast.
"""

from __future__ import annotations

import dataclasses
import itertools
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .record import Payload

__all__ = ["Summary", "run", "run_file"]


def run(
    records: Iterable[str | bytes | Mapping[str, Any]],
    workers: int | None = None,
    *,
    timeout: float | None = None,
    hashes: bool = False,
    apply: Callable[..., dict[str, Any]] | None = None,
) -> Iterator[dict[str, Any]]:
    """The output record of each input record, in input order.

    A record is a decoded object or a JSON line (str or bytes). ``workers``: processes (None:
    every core this process may use; 0: in this process, without crash isolation).
    ``timeout``: seconds per record, after which it is a ``timeout`` record. A malformed
    record, or one that makes the engine raise or its worker die, gives an error record with
    its id: the batch never stops and never drops a record. The records are read as the
    workers need them, so an endless iterable streams. ``apply`` replaces the function that
    makes a record's output (a module-level function ``(payload, *, hashes) -> dict``, as
    :func:`~applydiff.batch.record.run_payload`), to score records another way.
    """
    from .pool import Options, stream

    options = Options(hashes=hashes, timeout=timeout)
    if apply is not None:
        options = dataclasses.replace(options, apply=apply)
    for _, out in stream(records, workers, options):
        assert isinstance(out, dict)
        yield out


@dataclass
class Summary:
    """What a batch did: records written, skipped (resume), ok, exact (of those with
    ``expected``), whitespace only, errors by code of the first error, and seconds."""

    records: int = 0
    skipped: int = 0
    ok: int = 0
    with_expected: int = 0
    exact: int = 0
    errors: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0
    cpu_seconds: float = 0.0  # this process's and its workers' (None on Ray: not measured)

    def count(self, ok: bool, code: str | None, exact: bool | None) -> None:
        """One output record more: whether it applied, its first error's code, and whether
        it is exact (None: it had no ``expected``)."""
        self.records += 1
        self.ok += ok
        if code is not None:
            self.errors[code] = self.errors.get(code, 0) + 1
        if exact is not None:
            self.with_expected += 1
            self.exact += exact

    def add(self, other: Summary) -> None:
        """``other``'s records counted in too (a part written elsewhere)."""
        self.records += other.records
        self.ok += other.ok
        self.with_expected += other.with_expected
        self.exact += other.exact
        for code, n in other.errors.items():
            self.errors[code] = self.errors.get(code, 0) + n

    @property
    def crashes(self) -> int:
        """Records whose worker died (error code ``crash``)."""
        from .record import CRASH  # (the engine loads with it: not at import)

        return self.errors.get(CRASH, 0)

    def to_dict(self) -> dict[str, Any]:
        # "ok" says the batch ran, as every command's JSON does; the records that applied
        # are "applied".
        return {
            "ok": True,
            "records": self.records,
            "skipped": self.skipped,
            "applied": self.ok,
            "failed": self.records - self.ok,
            "with_expected": self.with_expected,
            "exact": self.exact,
            "errors": dict(sorted(self.errors.items())),
            "crashes": self.crashes,
            "seconds": round(self.seconds, 3),
            "cpu_seconds": round(self.cpu_seconds, 3) if self.cpu_seconds else None,
            "records_per_second": round(self.records / self.seconds, 1) if self.seconds else None,
        }


def run_file(
    source: str,
    out: str | None,
    *,
    workers: int | None = None,
    timeout: float | None = None,
    hashes: bool = False,
    resume: bool = False,
    progress: Callable[[int], None] | None = None,
) -> Summary:
    """Run the records of ``source`` (JSON Lines or Parquet; ``-``: stdin) into ``out`` (JSON
    Lines; None or ``-``: stdout). With ``resume``, the records ``out`` already holds are
    skipped and the rest appended. ``progress`` is called with each record's count done.
    Raises :class:`~applydiff.batch.io.InputError` when the input or output cannot be used.
    """
    from . import io
    from .pool import Line, Options, stream

    done: list[Any] = []
    if resume:
        if out is None or out == "-":
            raise io.InputError("--resume needs --out FILE: the output of the run to continue")
        done = io.done_in(out)
    options = Options(hashes=hashes, timeout=timeout, encode=True)
    summary = Summary()
    start = time.perf_counter()
    cpu_start = time.process_time()
    pools: list[Any] = []
    # A regular file's lines are read by the workers themselves: only their places cross the
    # pipes (``Span``).
    with (
        io.opened_input(source, spans=workers != 0) as (records, shared),
        io.opened_output(out, append=resume) as sink,
    ):
        options = dataclasses.replace(options, source=shared)
        payloads = iter(records)
        if done:  # passed over here: the workers never see them
            summary.skipped = _skip_done(payloads, done, out)
            if progress is not None and summary.skipped:
                progress(summary.skipped)
        results = stream(payloads, workers, options, pools)
        for n, (_, line) in enumerate(results, summary.skipped + 1):
            assert isinstance(line, Line)
            sink.write(line.text)
            sink.write("\n")
            summary.count(line.ok, line.code, line.exact)
            if progress is not None:
                progress(n)
    summary.seconds = time.perf_counter() - start
    summary.cpu_seconds = time.process_time() - cpu_start + sum(p.cpu_seconds for p in pools)
    return summary


def _skip_done(records: Iterator[Payload], done: list[Any], out: str | None) -> int:
    """Pass over the input's first records, those ``out`` holds (a resumed run goes by
    position: the output is in input order, so ids repeated in the input resume right), each
    checked to carry the id ``out`` has for it: an output of another input is refused before
    anything is appended to it. How many were passed over."""
    from . import io
    from .pool import facts_of

    count = 0
    for payload in itertools.islice(records, len(done)):
        rid, _ = facts_of(payload)
        if rid != done[count]:
            raise io.InputError(
                f"{out} line {count + 1} is the output of record {done[count]!r}, but input "
                f"record {count + 1} is {rid!r}: --resume continues the run that wrote OUT, on "
                "the same input"
            )
        count += 1
    return count
