"""The local process pool of ``applydiff batch``: records out in input order, memory bounded,
a per-record time limit, and a worker that dies costing one record, not the batch.

Workers are our own processes, one pipe each, with two chunks of records sent ahead (a thread
in each worker takes them off the pipe as they come, so the parent never waits to send, and
the worker never waits for its next chunk). Each
worker publishes the record it is on (its sequence number and start time) in shared memory,
so that when a worker dies the record that killed it is known exactly: that record becomes a
``crash`` record, the rest of its chunk is run again, and a new worker takes its place.

Workers are fresh interpreters (forkserver, else spawn) with ``PYTHONHASHSEED`` pinned, so
the output is the same from run to run and equals the Ray path's (which pins it too).

The time limit is kept twice: in the worker, an interval timer interrupts the engine at the
limit (the record becomes a ``timeout`` record and the worker goes on); in the parent, a
worker still on one record well past the limit (stuck in C code) is killed and replaced.

At most ``window`` records are between the input and the output at any time, so a batch of
any size runs in memory bounded by the window, whatever the order records finish in.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import queue
import signal
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from typing import Any, NamedTuple

from .record import (
    BAD_RECORD,
    CRASH,
    TIMEOUT,
    Oversize,
    Payload,
    Source,
    Span,
    encode,
    error_record,
    loads,
    record_id,
    run_payload,
)


class Line(NamedTuple):
    """An output record as the pool hands it back when it encodes: the JSON line, and what a
    summary counts (ok, the first error's code, exact)."""

    text: str
    ok: bool
    code: str | None
    exact: bool | None


Out = dict[str, Any] | Line  # a record, or its JSON line when the pool encodes


class Unread(NamedTuple):
    """What a worker answers for a :class:`~applydiff.batch.record.Span` it could not read:
    why. The parent, which holds the line, makes the record's ``bad_record`` with its id."""

    reason: str


def _out(record: dict[str, Any], encoded: bool) -> Out:
    if not encoded:
        return record
    errors = record.get("errors")
    code = errors[0]["code"] if errors else None
    return Line(encode(record), bool(record.get("ok")), code, record.get("exact"))


CHUNK = 32  # records per message to a worker (fewer when they are large)
CHUNK_BYTES = 4 * 1024 * 1024  # a chunk's input lines, at most (one record may pass it)
WINDOW_PER_WORKER = 8  # chunks between input and output per worker
AHEAD = 2  # chunks sent to a worker before it answers the first
POLL = 0.25  # seconds between checks of the parent's time limit
MAX_ATTEMPTS = 3  # a record whose worker died this often without it being the one on: crash


@dataclass(frozen=True)
class Options:
    """How each record runs: file hashes instead of texts, the time limit in seconds (None:
    none), output as JSON lines (``encode``), the function that makes a record's output
    (``apply``: a module-level function, so that workers can load it;
    :func:`~applydiff.batch.record.run_payload` unless a caller scores records its own way),
    and the file that :class:`~applydiff.batch.record.Span` payloads lie in (``source``)."""

    hashes: bool = False
    timeout: float | None = None
    encode: bool = False
    apply: Callable[..., dict[str, Any]] = run_payload
    source: Source | None = None


class _Timeout(BaseException):
    """The interval timer fired: the record ran past the limit (a BaseException so that no
    ``except Exception`` on the way catches it)."""


def _on_alarm(signum: int, frame: Any) -> None:
    raise _Timeout


def timeout_record(
    rid: Any, timeout: float | None, *, expected: bool, hashes: bool
) -> dict[str, Any]:
    return error_record(
        rid,
        TIMEOUT,
        f"the record ran past the time limit of {timeout:g} s and was stopped",
        expected=expected,
        hashes=hashes,
    )


def _decoded(payload: Payload) -> Mapping[str, Any] | None:
    if isinstance(payload, Oversize):
        return {"id": payload.rid}
    if isinstance(payload, Span):
        if payload.data is None:
            return None
        payload = payload.data
    if not isinstance(payload, str | bytes):
        return payload
    try:
        value = loads(payload)
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


def facts_of(payload: Payload) -> tuple[Any, bool]:
    """(id, has expected) of a record, for an error record made outside the engine."""
    record = _decoded(payload)
    if record is None:
        return None, False
    return record_id(record), record.get("expected") is not None


def unread_record(payload: Payload, unread: Unread, options: Options) -> Out:
    """The ``bad_record`` of a line a worker could not read, with the id the payload holds."""
    rid, expected = facts_of(payload)
    out = error_record(rid, BAD_RECORD, unread.reason, expected=expected, hashes=options.hashes)
    return _out(out, options.encode)


class Runner:
    """Runs one record at a time under the options: reading its line, time limit, encoding."""

    def __init__(self, options: Options) -> None:
        self.options = options
        self.alarm = options.timeout is not None and (
            threading.current_thread() is threading.main_thread()
        )
        if self.alarm:
            signal.signal(signal.SIGALRM, _on_alarm)
        self._source: int | None = None  # the descriptor of options.source, once opened

    def close(self) -> None:
        if self._source is not None:
            os.close(self._source)
            self._source = None

    def _read(self, span: Span) -> bytes | str:
        """The bytes of ``span``: those it carries, else read from the source file; or why
        they cannot be read (a file that is not the one the batch reads, or cut short)."""
        if span.data is not None:
            return span.data
        source = self.options.source
        try:
            if self._source is None:
                if source is None:
                    return "the line was not read from the input file"
                fd = os.open(source.path, os.O_RDONLY)
                st = os.fstat(fd)
                if (st.st_dev, st.st_ino) != (source.device, source.inode):
                    os.close(fd)
                    return f"{source.path} is no longer the input file of the batch"
                self._source = fd
            data = os.pread(self._source, span.size, span.offset)
        except OSError as e:
            return f"cannot read the line from the input file: {e.strerror or e}"
        if len(data) != span.size:
            return "the input file was cut short while the batch ran"
        return data

    def run(self, payload: Payload) -> Out | Unread:
        """The record's output (or why its line could not be read)."""
        o = self.options
        if isinstance(payload, Span):
            got = self._read(payload)
            if isinstance(got, str):
                return Unread(got)
            payload = got
        if not self.alarm:
            out = o.apply(payload, hashes=o.hashes)
        else:
            try:
                signal.setitimer(signal.ITIMER_REAL, o.timeout or 0)
                out = o.apply(payload, hashes=o.hashes)
                signal.setitimer(signal.ITIMER_REAL, 0)
            except _Timeout:
                signal.setitimer(signal.ITIMER_REAL, 0)
                rid, expected = facts_of(payload)
                out = timeout_record(rid, o.timeout, expected=expected, hashes=o.hashes)
        return _out(out, o.encode)


def _worker(conn: Connection, state: Any, options: Options) -> None:
    """A worker's loop: a chunk in, its outputs back; ``state`` = [seq on, its start]."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent stops the batch
    runner = Runner(options)
    inbox: queue.SimpleQueue[Any] = queue.SimpleQueue()

    def receive() -> None:
        while True:
            try:
                msg = conn.recv()
            except (EOFError, OSError):
                msg = None
            inbox.put(msg)
            if msg is None:
                return

    threading.Thread(target=receive, daemon=True, name="inbox").start()
    while True:
        msg = inbox.get()
        if msg is None:  # the end: say how much CPU this worker used
            runner.close()
            with contextlib.suppress(OSError):
                conn.send(("cpu", time.process_time()))
            return
        outs = []
        for seq, payload in msg:
            state[1] = time.monotonic()
            state[0] = seq
            outs.append((seq, runner.run(payload)))
        state[0] = -1
        try:
            conn.send(outs)
        except OSError:  # the parent is gone (killed): nobody to tell, and nothing to say
            return


@dataclass
class _Slot:
    """One worker process: its pipe, its shared state and the chunks it holds, oldest first."""

    proc: Any
    conn: Connection
    state: Any
    chunks: deque[list[tuple[int, Payload]]] = field(default_factory=deque)
    killed_for_time: bool = False
    served: int = 0  # chunks it sent back


# Workers run with this string hash seed, so that a batch gives the same output run after run
# and on Ray: a few of the engine's reports (the closest regions of a no_match) depend on the
# order of sets of strings.
HASH_SEED = "0"


@contextlib.contextmanager
def pinned_hash_seed() -> Iterator[None]:
    """``PYTHONHASHSEED`` set to :data:`HASH_SEED` for the processes started meanwhile."""
    old = os.environ.get("PYTHONHASHSEED")
    os.environ["PYTHONHASHSEED"] = HASH_SEED
    try:
        yield
    finally:
        if old is None:
            del os.environ["PYTHONHASHSEED"]
        else:
            os.environ["PYTHONHASHSEED"] = old


def _context() -> Any:
    """A fresh interpreter for the workers (a fork would keep this process's hash seed):
    forkserver, which loads the engine once and forks each worker from it, else spawn."""
    if "forkserver" in multiprocessing.get_all_start_methods():
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload([__name__])
        return ctx
    return multiprocessing.get_context("spawn")


class Pool:
    """``workers`` processes running records in input order (see the module's docstring)."""

    def __init__(self, workers: int, options: Options) -> None:
        self.workers = max(1, workers)
        self.options = options
        self.ctx = _context()
        self.slots: list[_Slot] = []
        self.attempts: dict[int, int] = {}
        self.stillborn = 0  # workers in a row that died before their first record
        self.cpu_seconds = 0.0  # CPU time of the workers that ended cleanly

    def _spawn(self) -> _Slot:
        parent, child = self.ctx.Pipe()
        state = self.ctx.RawArray("d", 2)
        state[0] = -1
        proc = self.ctx.Process(
            target=_worker, args=(child, state, self.options), daemon=True, name="applydiff-batch"
        )
        with pinned_hash_seed():
            proc.start()
        child.close()
        return _Slot(proc, parent, state)

    def close(self) -> None:
        for slot in self.slots:
            with contextlib.suppress(OSError, ValueError):
                slot.conn.send(None)
        deadline = time.monotonic() + 2
        for slot in self.slots:
            with contextlib.suppress(EOFError, OSError):
                while slot.conn.poll(max(0.0, deadline - time.monotonic())):
                    msg = slot.conn.recv()
                    if isinstance(msg, tuple) and msg[0] == "cpu":
                        self.cpu_seconds += msg[1]
                        break
            slot.proc.join(max(0.0, deadline - time.monotonic()))
            if slot.proc.is_alive():
                slot.proc.kill()
                slot.proc.join()
            slot.conn.close()
        self.slots = []

    def map(self, items: Iterable[Payload]) -> Iterator[tuple[int, Out]]:
        """(position, output) for every item, in input order."""
        source = iter(items)
        exhausted = False
        next_in = 0  # the position of the next item read
        done: dict[int, Out] = {}
        next_out = 0
        again: deque[list[tuple[int, Payload]]] = deque()  # chunks to run again, first
        window = self.workers * WINDOW_PER_WORKER * CHUNK

        def next_chunk() -> list[tuple[int, Payload]] | None:
            nonlocal exhausted, next_in
            if again:
                return again.popleft()
            if exhausted or next_in - next_out >= window:
                return None
            chunk: list[tuple[int, Payload]] = []
            size = 0
            while len(chunk) < CHUNK and size < CHUNK_BYTES:
                try:
                    payload = next(source)
                except StopIteration:
                    exhausted = True
                    break
                chunk.append((next_in, payload))
                next_in += 1
                if isinstance(payload, str | bytes):
                    size += len(payload)
                elif isinstance(payload, Span):
                    size += payload.size
            return chunk or None

        try:
            self.slots = [self._spawn() for _ in range(self.workers)]
            while True:
                for _ in range(AHEAD):
                    for slot in self.slots:
                        if len(slot.chunks) >= AHEAD:
                            continue
                        chunk = next_chunk()
                        if chunk is None:
                            break
                        slot.chunks.append(chunk)
                        try:
                            slot.conn.send(chunk)
                        except OSError:  # it died: its chunks go to its successor
                            self._replace(slot, done, again)
                while next_out in done:
                    yield next_out, done.pop(next_out)
                    next_out += 1
                busy = [s for s in self.slots if s.chunks]
                if not busy:
                    if exhausted and not again:
                        return
                    continue
                ready = wait(
                    [s.conn for s in busy] + [s.proc.sentinel for s in busy],
                    timeout=POLL if self.options.timeout is not None else None,
                )
                for slot in busy:
                    if slot.conn in ready:
                        try:
                            outs = slot.conn.recv()
                        except (EOFError, OSError):
                            outs = None
                        if outs is not None:
                            sent = dict(slot.chunks.popleft())
                            for at, out in outs:
                                if isinstance(out, Unread):
                                    out = unread_record(sent[at], out, self.options)
                                done[at] = out
                            slot.served += 1
                            self.stillborn = 0
                            continue
                    if slot.proc.sentinel in ready or not slot.proc.is_alive():
                        self._replace(slot, done, again)
                self._enforce_time()
        finally:
            self.close()

    def _enforce_time(self) -> None:
        """Kill a worker still on one record at twice the limit plus a second."""
        limit = self.options.timeout
        if limit is None:
            return
        now = time.monotonic()
        for slot in self.slots:
            if slot.chunks and slot.state[0] >= 0 and now - slot.state[1] > 2 * limit + 1:
                slot.killed_for_time = True
                slot.proc.kill()

    def _replace(
        self,
        slot: _Slot,
        done: dict[int, Out],
        again: deque[list[tuple[int, Payload]]],
    ) -> None:
        """A worker died: its record on is a crash (or a timeout), the rest of its chunks run
        again, on a new worker in its place."""
        slot.proc.join()
        on = int(slot.state[0])
        code = slot.proc.exitcode
        if on < 0 and not slot.served and not slot.killed_for_time:
            self.stillborn += 1
            if self.stillborn >= MAX_ATTEMPTS:
                raise RuntimeError(
                    f"batch worker processes die as they start (exit code {code}); with the "
                    f"{self.ctx.get_start_method()} start method, a script that runs a batch "
                    "must do so under 'if __name__ == \"__main__\":'"
                )
        rest: list[tuple[int, Payload]] = []
        for seq, payload in (item for chunk in slot.chunks for item in chunk):
            tries = self.attempts[seq] = self.attempts.get(seq, 0) + 1
            if seq == on or tries >= MAX_ATTEMPTS:
                done[seq] = self._failed(payload, code, slot.killed_for_time and seq == on)
                self.attempts.pop(seq, None)
            else:
                rest.append((seq, payload))
        if rest:
            again.appendleft(rest)
        slot.conn.close()
        index = self.slots.index(slot)
        self.slots[index] = self._spawn()

    def _failed(self, payload: Payload, exitcode: int | None, timed_out: bool) -> Out:
        o = self.options
        rid, expected = facts_of(payload)
        if timed_out:
            out = timeout_record(rid, o.timeout, expected=expected, hashes=o.hashes)
        else:
            how = (
                f"signal {-exitcode}"
                if exitcode is not None and exitcode < 0
                else f"exit code {exitcode}"
            )
            out = error_record(
                rid,
                CRASH,
                f"the worker process died ({how}) while applying this record",
                expected=expected,
                hashes=o.hashes,
            )
        return _out(out, o.encode)


def in_process(items: Iterable[Payload], options: Options) -> Iterator[tuple[int, Out]]:
    """The records run one by one in this process (``workers=0``): no isolation from a
    crash; the time limit holds in the main thread only."""
    previous = (
        signal.getsignal(signal.SIGALRM)
        if threading.current_thread() is threading.main_thread()
        else None
    )
    runner = Runner(options)
    try:
        for seq, payload in enumerate(items):
            out = runner.run(payload)
            yield seq, unread_record(payload, out, options) if isinstance(out, Unread) else out
    finally:
        runner.close()
        if runner.alarm:  # the caller's handler back
            signal.signal(signal.SIGALRM, previous)


def default_workers() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def stream(
    items: Iterable[Payload], workers: int | None, options: Options, pool: list[Pool] | None = None
) -> Iterator[tuple[int, Out]]:
    """(position, output) per item, in input order (``pool`` receives
    the pool, to read its counters afterwards)."""
    n = default_workers() if workers is None else workers
    if n <= 0:
        return in_process(items, options)
    made = Pool(n, options)
    if pool is not None:
        pool.append(made)
    return made.map(items)
