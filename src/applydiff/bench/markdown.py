"""What the benchmark scripts share to write their Markdown: fenced text with invisible
characters shown, a short diff, and which code ran."""

from __future__ import annotations

import difflib
import subprocess
from pathlib import Path

from ..version import __version__


def fence(text: str, lang: str = "", limit: int = 40) -> str:
    """``text`` in a fence (at most ``limit`` lines), tabs, trailing blanks and other
    invisible characters (form feeds, CR, U+2028) made visible."""
    lines = text.rstrip("\n").split("\n") if lang != "diff" else text.split("\n")
    if len(lines) > limit:
        lines = [*lines[:limit], f"... ({len(lines) - limit} more lines)"]
    body = "\n".join(repr(x)[1:-1] if not x.isprintable() or x != x.rstrip() else x for x in lines)
    return f"```{lang}\n{body}\n```"


def diff(a: str, b: str) -> str:
    """A unified diff of ``a`` to ``b`` without its header, line endings (CRLF, CR) made
    alike."""

    def split(x: str) -> list[str]:
        return x.replace("\r\n", "\n").replace("\r", "\n").split("\n")

    lines = difflib.unified_diff(split(a), split(b), n=2, lineterm="")
    return "\n".join(list(lines)[2:]) or "(no difference after CRLF, CR -> LF: line endings differ)"


def engine_state() -> str:
    """applydiff's version and, in a git checkout, the commit and whether the package has
    uncommitted changes (results describe the code that ran, not a commit)."""
    where = str(Path(__file__).resolve().parents[1])  # the applydiff package
    out = f"applydiff {__version__}"
    try:
        git = ["git", "-C", where]
        head = subprocess.run(
            [*git, "rev-parse", "--short", "HEAD"], capture_output=True, text=True
        )
        dirty = subprocess.run([*git, "status", "--porcelain", "."], capture_output=True, text=True)
    except OSError:
        return out
    if head.returncode == 0:
        out += f", git {head.stdout.strip()}" + (" + uncommitted changes" if dirty.stdout else "")
    return out
