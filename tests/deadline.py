"""A generous wall-clock guard for tests of bounded work: the machine is shared, so no tight
timing is asserted, but an input that used to run for minutes must not hang the suite."""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Iterator

DEADLINE = 10  # seconds; each guarded call takes well under one


@contextlib.contextmanager
def deadline(seconds: int = DEADLINE) -> Iterator[None]:
    def late(signum: int, frame: object) -> None:
        raise TimeoutError(f"still running after {seconds} s")

    old = signal.signal(signal.SIGALRM, late)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
