"""Noise: how a model's copy of a block differs from the file (typos, misquotes, quotes,
tabs, elided or dropped lines), applied alike to the old and new text it sends."""

from __future__ import annotations

import random
import string
from collections.abc import Callable
from dataclasses import dataclass, field

from .block_lines import SMART_TO_ASCII, lead

ELISION_MARKER = "# ... existing code ..."


@dataclass
class Noise:
    """How the model writes the block: ``lines`` replaces given block lines (in old and new
    alike), ``every`` rewrites every line, ``elide`` turns a run of block lines into one
    marker line, ``drop`` leaves block lines out, ``extra`` puts a line the file does not
    have there before a block line, ``search`` replaces block lines in old only (new has the
    file's line)."""

    every: Callable[[str], str] | None = None
    lines: dict[int, str] = field(default_factory=dict)
    elide: tuple[int, int] | None = None
    marker: str = ""
    drop: frozenset[int] = frozenset()
    extra: dict[int, str] = field(default_factory=dict)
    search: dict[int, str] = field(default_factory=dict)

    def render(self, lines: list[str], origin: list[int | None], *, old: bool = False) -> list[str]:
        a, b = self.elide or (-1, -1)
        out = []
        for line, o in zip(lines, origin, strict=True):
            if o is not None and o in self.extra:
                x = self.extra[o]
                out.append(self.every(x) if self.every else x)
            if o is not None and o in self.drop:
                continue
            if o is not None and a <= o < b:
                if o == a:
                    out.append(self.marker)
                continue
            x = self.lines.get(o, line) if o is not None else line
            if old and o in self.search:
                x = self.search[o]
            out.append(self.every(x) if self.every else x)
        return out


def typo(rng: random.Random, line: str) -> str | None:
    """One character substituted, deleted or transposed (never in the indentation)."""
    start, end = len(lead(line)), len(line.rstrip())
    if end - start < 4:
        return None
    op = rng.choice(["sub", "del", "swap"])
    pos = rng.randrange(start, end)
    if op == "sub":
        ch = line[pos]
        repl = rng.choice([c for c in string.ascii_lowercase if c != ch.lower()])
        out = line[:pos] + (repl.upper() if ch.isupper() else repl) + line[pos + 1 :]
    elif op == "del":
        out = line[:pos] + line[pos + 1 :]
    else:
        swaps = [i for i in range(start, end - 1) if line[i] != line[i + 1]]
        if not swaps:
            return None
        i = rng.choice(swaps)
        out = line[:i] + line[i + 1] + line[i] + line[i + 2 :]
    return out if out != line else None


def misquote(rng: random.Random, line: str) -> tuple[str, str] | None:
    """A line as a model misquotes it, and how: a typo, a space moved or dropped
    (``backup="", *,`` as ``backup="",*,``, ``/* Invalid`` as ``/ *Invalid``), or a
    punctuation mark dropped or swapped with its neighbour."""
    start, end = len(lead(line)), len(line.rstrip())
    how = rng.choice(["typo", "space", "punct"])
    out: str | None = None
    if how == "typo":
        out = typo(rng, line)
    elif how == "space":
        spots = [
            p
            for p in range(start + 1, end - 1)
            if line[p] == " " and line[p - 1] not in " \t" and line[p + 1] not in " \t"
        ]
        if not spots:
            return None
        p = rng.choice(spots)
        move = rng.choice(["left", "drop", "right"])
        how += " " + move
        if move == "left":
            out = line[: p - 1] + " " + line[p - 1] + line[p + 1 :]
        elif move == "drop":
            out = line[:p] + line[p + 1 :]
        else:
            out = line[:p] + line[p + 1] + " " + line[p + 2 :]
    else:
        spots = [p for p in range(start, end) if line[p] in string.punctuation]
        if not spots:
            return None
        p = rng.choice(spots)
        if rng.random() < 0.5 or p + 1 >= end or line[p + 1] == line[p]:
            how, out = "punct drop", line[:p] + line[p + 1 :]
        else:
            how, out = "punct swap", line[:p] + line[p + 1] + line[p] + line[p + 2 :]
    return None if out is None or out == line else (out, how)


def escape(line: str) -> str:
    return line.replace("\\", "\\\\").replace('"', '\\"')


def smarten(line: str) -> str:
    """ASCII quotes as typographic ones: apostrophes inside words, the rest paired."""
    out = []
    double = single = 0
    for i, ch in enumerate(line):
        if ch == '"':
            out.append("“" if double % 2 == 0 else "”")
            double += 1
        elif ch == "'":
            inside = 0 < i < len(line) - 1 and line[i - 1].isalnum() and line[i + 1].isalnum()
            if inside:
                out.append("’")
            else:
                out.append("‘" if single % 2 == 0 else "’")
                single += 1
        else:
            out.append(ch)
    return "".join(out)


def ascii_quotes(line: str) -> str:
    return line.translate(SMART_TO_ASCII)


def tabify(line: str, unit: str) -> str:
    """Leading ``unit`` groups as tabs (a remainder of spaces stays)."""
    ws = lead(line)
    return "\t" * (len(ws) // len(unit)) + " " * (len(ws) % len(unit)) + line[len(ws) :]


def untabify(line: str, unit: str) -> str:
    ws = lead(line)
    return ws.replace("\t", unit) + line[len(ws) :]
