"""One engine in a child process, with a cap on every call: a slow or stuck peer is killed
and restarted, and the call counts as timed out, so it cannot stall the run."""

from __future__ import annotations

import contextlib
import multiprocessing as mp
import statistics
import time
from multiprocessing.connection import Connection
from typing import Any

from .engines import Refused, load


def _serve(name: str, conn: Connection) -> None:
    engine = load(name)
    while True:
        msg = conn.recv()
        if msg is None:
            return
        kind, args = msg
        if kind == "apply":
            text, old, new, hint = args
            t0 = time.perf_counter()
            try:
                out = engine.apply(text, old, new, hint)
                conn.send(("ok", out, time.perf_counter() - t0))
            except Refused as e:
                conn.send(("refused", str(e), time.perf_counter() - t0))
            except Exception as e:  # a peer's own bug: reported, not fatal
                conn.send(("crashed", f"{type(e).__name__}: {e}", time.perf_counter() - t0))
        else:  # "time": median of up to ``runs`` calls within ``budget`` seconds
            text, old, new, runs, budget = args
            times: list[float] = []
            first: Any = None
            while len(times) < runs and sum(times) < budget:
                t0 = time.perf_counter()
                try:
                    result: Any = engine.apply(text, old, new, None)
                except Exception:
                    result = None
                times.append(time.perf_counter() - t0)
                if first is None:
                    first = result if result is not None else False
            conn.send(("timed", statistics.median(times), first or None))


class Capped:
    """An engine behind a pipe; :meth:`call` returns None when the cap ran out."""

    def __init__(self, name: str) -> None:
        self.name = name
        # spawn, not fork: the parent runs a progress thread, and a fork copies its locks
        self._ctx = mp.get_context("spawn")
        self._start()

    def _start(self) -> None:
        self.conn, child = self._ctx.Pipe()
        self.proc = self._ctx.Process(target=_serve, args=(self.name, child), daemon=True)
        self.proc.start()
        child.close()

    def call(self, kind: str, args: tuple[Any, ...], cap: float) -> tuple[Any, ...] | None:
        self.conn.send((kind, args))
        if self.conn.poll(cap):
            return self.conn.recv()
        self.proc.kill()
        self.proc.join()
        self._start()
        return None

    def close(self) -> None:
        with contextlib.suppress(BrokenPipeError, OSError):
            self.conn.send(None)
        self.proc.join(timeout=5)
        if self.proc.is_alive():
            self.proc.kill()
