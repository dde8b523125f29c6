"""What every command of the command line shares: the exit codes, the usage error, reading
the response, and the streams (results on stdout, everything else on stderr, colour only
where it is wanted).

Exit codes: 0 done (or would be done), 1 rejected or refused (nothing written), 2 the command
itself was wrong (unknown flag, unreadable input, an unknown tool). With ``--json`` stdout
holds exactly one JSON object, whatever happens; a wrong command prints
``{"ok": false, "errors": [{"code": "usage", "index": null, "path": null, "message": ...}]}``.
"""

from __future__ import annotations

import os
import sys
from typing import Any, TextIO

# json and problems are imported where they are used: `applydiff --help` needs neither.

EXIT_OK, EXIT_REJECTED, EXIT_USAGE = 0, 1, 2
USAGE = "usage"  # the code of a wrong command in the JSON (no library error has it)
NOT_CONFIRMED = "not_confirmed"  # the person said no, or there was no terminal to ask on
COLORS = ("auto", "always", "never")

_STYLES = {
    "bold": "1",
    "red": "31",
    "green": "32",
    "yellow": "33",
    "cyan": "36",
    "bold red": "1;31",
    "bold green": "1;32",
}


class UsageError(Exception):
    """The command cannot run (exit 2)."""


def read_input(name: str) -> str:
    """The text of FILE or stdin (``-``), decoded as UTF-8 with a BOM allowed."""
    try:
        if name == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(name, "rb") as f:
                data = f.read()
    except OSError as e:
        raise UsageError(f"cannot read {name}: {e.strerror}") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise UsageError(f"{name} is not UTF-8 text (byte {e.start})") from None


def wants_color(color: str, stream: TextIO) -> bool:
    """Colour for ``stream``: ``--color=always``/``never`` decide; with ``auto`` NO_COLOR (set,
    not empty) says no, FORCE_COLOR (set, not empty, not 0) says yes, else only a terminal
    (not TERM=dumb) gets colour."""
    if color == "always":
        return True
    if color == "never":
        return False
    if os.environ.get("NO_COLOR"):
        return False
    force = os.environ.get("FORCE_COLOR")
    if force and force != "0":
        return True
    if os.environ.get("TERM") == "dumb":
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def _visible(text: str) -> str:
    """``text`` safe to show on a terminal: control characters (a model's path or message
    may hold escape sequences) as ``\\xNN``; tabs stay."""
    if not any((ord(c) < 32 and c != "\t") or c == "\x7f" for c in text):
        return text
    return "".join(
        f"\\x{ord(c):02x}" if (ord(c) < 32 and c != "\t") or c == "\x7f" else c for c in text
    )


class Stream:
    """One output stream: lines written whole (never wrapped), styled only with colour on;
    on a terminal, control characters in a line are shown escaped."""

    def __init__(self, stream: TextIO, color: bool) -> None:
        self.stream = stream
        self.color = color
        try:
            self.terminal = stream.isatty()
        except (AttributeError, ValueError):
            self.terminal = False

    def write(self, text: str) -> None:
        """``text`` as it is (a diff's lines keep their bytes), as UTF-8."""
        buffer = getattr(self.stream, "buffer", None)
        if buffer is None:
            self.stream.write(text)
        else:
            self.stream.flush()
            try:
                data = text.encode("utf-8", "surrogateescape")
            except UnicodeEncodeError:
                data = text.encode("utf-8", "replace")
            buffer.write(data)
            buffer.flush()
        self.stream.flush()

    def line(self, text: str, style: str | None = None, *, end: str = "\n") -> None:
        """One message, one line: ``text`` (its own newline, if any, kept as the end)."""
        body, newline = (text[:-1], "\n") if text.endswith("\n") else (text, end)
        if self.terminal:
            body = _visible(body)
        if style and self.color and body:
            body = f"\x1b[{_STYLES[style]}m{body}\x1b[0m"
        self.write(body + newline)


class IO:
    """stdout (results) and stderr (diagnostics, warnings, prompts) of one command."""

    def __init__(self, color: str = "auto") -> None:
        self.out = Stream(sys.stdout, wants_color(color, sys.stdout))
        self.err = Stream(sys.stderr, wants_color(color, sys.stderr))

    def json(self, obj: dict[str, Any]) -> None:
        """The one JSON object of a ``--json`` run, on one line of stdout."""
        import json

        self.out.write(json.dumps(obj, ensure_ascii=False) + "\n")


def usage_json(message: str) -> dict[str, Any]:
    """The JSON of a wrong command."""
    from ..problems import Problem

    return {
        "ok": False,
        "errors": [Problem(USAGE, message).to_dict()],
    }
