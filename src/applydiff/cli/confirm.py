"""The confirmation before writing: the question on stderr ending in ``[y/N]``, the answer
from the terminal.

The answer is read from stdin when stdin is a terminal and free (the response came from a
file), else from the controlling terminal (``/dev/tty``: stdin is the response being piped
in). With no terminal at all the answer is None: the caller writes nothing and says to pass
``--yes``. ``APPLYDIFF_TTY`` names another device to read the answer from (empty: there is
no terminal), for tests and for front ends that hold a terminal of their own.
"""

from __future__ import annotations

import os
import sys

from .base import IO

TTY_ENV = "APPLYDIFF_TTY"
NO_TERMINAL = "no terminal to confirm on; nothing was written; pass --yes to apply"


def _stdin_is_terminal() -> bool:
    try:
        return sys.stdin is not None and sys.stdin.isatty()
    except (AttributeError, ValueError):
        return False


def ask(io: IO, question: str, *, stdin_free: bool) -> bool | None:
    """Ask ``question`` (``[y/N]`` is added) on stderr; True for y or yes, False for anything
    else (end of input too), None when there is no terminal to read an answer from."""
    if stdin_free and _stdin_is_terminal():
        io.err.line(f"{question} [y/N] ", end="")
        return _answered(io, sys.stdin.readline())
    device = os.environ.get(TTY_ENV, "/dev/tty")
    if not device:
        return None
    try:
        tty = open(device, encoding="utf-8", errors="replace")  # noqa: SIM115
    except OSError:  # no controlling terminal (a daemon, CI, a container without one)
        return None
    with tty:
        io.err.line(f"{question} [y/N] ", end="")
        return _answered(io, tty.readline())


def _yes(answer: str) -> bool:
    return answer.strip().lower() in ("y", "yes")


def _answered(io: IO, answer: str) -> bool:
    if not answer.endswith("\n"):  # end of input: the next message starts on a line of its own
        io.err.write("\n")
    return _yes(answer)
