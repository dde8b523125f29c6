"""Lazy-snippet cases from real files, and how the merge does on them.

A case is what a model writes for "fast apply": the changed regions of a file, each with a few
unchanged lines around it, joined by ``# ... existing code ...`` lines, sometimes without the
marker at the start or the end. The edit is made on the file itself, so the text the file
must hold afterwards is known exactly. Regions: one, two or three; each an insertion, a
deletion or a replacement of lines. Context: ``careful`` (as many lines as it takes to be
unique, from one to six, as a model that copies the lines around its change writes it) or
``terse`` (one line, unique or not: a refusal is the right answer when it is not).

>>> cases = generate(6, seed=0)
>>> sorted({c.regions for c in cases})
[1, 2, 3]
"""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass

from .block_lines import is_code, lead
from .intended_edit import change_token, deeper, names_in, new_statement
from .sources import Source, load, source_files

MARKERS = (
    "# ... existing code ...",
    "# ... existing code ...",
    "# ...",
    "# ... rest of the code ...",
    "...",
)
# replace_end: the last line of a block changed, the snippet showing nothing after it but a
# marker left of it (the block ends there), as models write a function's new last line.
KINDS = ("replace", "insert", "delete", "replace_end")
MIN_GAP = 12  # lines between two regions


@dataclass(frozen=True)
class LazyCase:
    path: str
    text: str
    snippet: str
    expected: str
    regions: int
    kinds: tuple[str, ...]
    context: str  # "careful" or "terse"
    lead_marker: bool
    trail_marker: bool
    # Every line of context shown is unique in the file (so terse context can be placed).
    unique_context: bool = True
    lang: str = "python"
    noise: str = ""  # "retyped": the snippet's indentation written with spaces for tabs

    @property
    def markers(self) -> str:
        """Which end markers the snippet has: ``lead, no trail``, ..."""
        lead = "lead" if self.lead_marker else "no lead"
        return f"{lead}, {'trail' if self.trail_marker else 'no trail'}"

    @property
    def context_group(self) -> str:
        """``careful`` (or another style that shows enough, ``whole``, ``scoped``), or terse
        with unique or repeated lines (refused rightly then)."""
        if self.context != "terse":
            return self.context
        return f"terse, {'unique' if self.unique_context else 'repeated'} lines"

    @property
    def placeable(self) -> bool:
        """A merge that reads the snippet right can place it for sure: careful context (the
        brace corpus keeps only careful, whole and scoped snippets whose context is unique),
        or terse context whose lines are unique."""
        return self.context != "terse" or self.unique_context

    @property
    def shape(self) -> str:
        return f"{self.regions} region(s), {self.context}, {self.markers}"


def generate(n: int, seed: int = 0, files: str | None = None) -> list[LazyCase]:
    """``n`` cases, evenly over 1-3 regions, both context styles and the marker variants."""
    rng = random.Random(seed)
    paths = source_files(files)
    out: list[LazyCase] = []
    tries = 0
    while len(out) < n and tries < n * 50:
        tries += 1
        k = len(out)
        src = load(rng.choice(paths))
        if src is None or src.n < 60:
            continue
        case = _case(
            rng,
            src,
            regions=1 + k % 3,
            context="terse" if (k // 3) % 4 == 3 else "careful",
            lead=(k // 12) % 2 == 0 or rng.random() < 0.4,
            trail=(k // 24) % 2 == 0 or rng.random() < 0.4,
        )
        if case is not None:
            out.append(case)
    return out


def _case(
    rng: random.Random,
    src: Source,
    *,
    regions: int,
    context: str,
    lead: bool,
    trail: bool,
) -> LazyCase | None:
    lines = src.lines[: src.n]
    spots = _spots(rng, lines, regions)
    if spots is None:
        return None
    names = names_in(lines[: min(len(lines), 400)])
    new_lines = list(lines)
    snippet: list[str] = []
    kinds: list[str] = []
    unique = True
    keys = [x.rstrip() for x in lines]
    shift = 0
    last_end = 0
    marker = rng.choice(MARKERS)
    for r, at in enumerate(spots):
        kind = rng.choice(KINDS)
        edit = _edit(rng, lines, at, kind, names, src.unit)
        if edit is None:
            return None
        start, end, replacement = edit  # lines[start:end] become replacement
        before, after = _context(rng, lines, start, end, context)
        if kind == "replace_end":
            after = (end, end)
        if before is None or after is None:
            return None
        unique = (
            unique and _unique(keys, *before) and (after[0] == after[1] or _unique(keys, *after))
        )
        if r > 0 and kinds[-1] == "replace_end":
            snippet.append(_end_marker(marker, lines, last_end))
        elif r > 0 or lead:
            # The marker stands where the skipped code is: at its last line's indentation.
            skipped = _nonblank(lines, before[0] - 1, -1)
            snippet.append(_marker(marker, lines, skipped if skipped is not None else start))
        snippet += lines[before[0] : start] if before else []
        snippet += replacement
        snippet += lines[end : after[1]] if after else []
        last_end = after[1] if after else end
        new_lines[start + shift : end + shift] = replacement
        shift += len(replacement) - (end - start)
        kinds.append(kind)
    # A changed last line with nothing after it is an insertion or a change unless a marker
    # left of it says the block ends there: that marker is what makes the kind.
    trail = trail or kinds[-1] == "replace_end"
    if kinds[-1] == "replace_end":
        snippet.append(_end_marker(marker, lines, last_end))
    elif trail:
        skipped = _nonblank(lines, last_end, 1)
        snippet.append(_marker(marker, lines, skipped if skipped is not None else spots[-1]))
    text = src.text
    expected = "\n".join(new_lines) + ("\n" if text.endswith("\n") else "")
    return LazyCase(
        src.path,
        text,
        "\n".join(snippet) + "\n",
        expected,
        regions,
        tuple(kinds),
        context,
        lead,
        trail,
        unique,
    )


def _nonblank(lines: list[str], at: int, step: int) -> int | None:
    while 0 <= at < len(lines):
        if lines[at].strip():
            return at
        at += step
    return None


def _spots(rng: random.Random, lines: list[str], k: int) -> list[int] | None:
    """``k`` code lines at least ``MIN_GAP`` apart, away from the file's edges."""
    code = [i for i in range(8, len(lines) - 8) if is_code(lines[i])]
    if len(code) < k * 4:
        return None
    for _ in range(30):
        spots = sorted(rng.sample(code, k))
        if all(b - a >= MIN_GAP for a, b in itertools.pairwise(spots)):
            return spots
    return None


def _edit(
    rng: random.Random, lines: list[str], at: int, kind: str, names: list[str], unit: str
) -> tuple[int, int, list[str]] | None:
    if kind == "replace_end":
        following = _nonblank(lines, at + 1, 1)
        if following is None or len(lead(lines[following])) >= len(lead(lines[at])):
            return None  # not the last line of a block
        changed = change_token(rng, lines[at], names)
        return None if changed is None else (at, at + 1, [changed])
    if kind == "replace":
        count = rng.choice([1, 1, 2])
        out = []
        for i in range(at, at + count):
            if not lines[i].strip():
                return None
            changed = change_token(rng, lines[i], names)
            if changed is None:
                return None
            out.append(changed)
        return at, at + count, out
    if kind == "insert":
        indent = lead(lines[at])
        if lines[at].rstrip().endswith(":"):
            indent = deeper(indent, unit)
        new = [new_statement(rng, indent, names) for _ in range(rng.choice([1, 2, 3]))]
        new = [
            x
            if not x.rstrip().endswith(":")
            else x.replace("if ", "assert ").rstrip(":").split("  #")[0]
            for x in new
        ]
        return at + 1, at + 1, new
    # A model deletes whole statements: lines that open no block and sit at the level of
    # the line after them (not a def line whose body would be left behind).
    count = rng.choice([1, 1, 2])
    level = len(lead(lines[at]))
    for i in range(at, at + count):
        line = lines[i]
        if not line.strip() or len(lead(line)) != level:
            return None
        if line.rstrip().endswith((":", "(", "[", "{", "\\", ",")) or line.lstrip().startswith(
            ("@", "def ", "class ", '"""', "'''", "elif", "else", "except", "finally")
        ):
            return None
    after = next((x for x in lines[at + count :] if x.strip()), "")
    if len(lead(after)) > level:
        return None
    return at, at + count, []


def _context(
    rng: random.Random, lines: list[str], start: int, end: int, style: str
) -> tuple[tuple[int, int] | None, tuple[int, int] | None]:
    """The unchanged lines shown before (``start - b .. start``) and after (``end ..
    end + a``) the change."""
    keys = [x.rstrip() for x in lines]
    want_b = 1 if style == "terse" else rng.choice([1, 2, 3])
    want_a = 1 if style == "terse" else rng.choice([1, 2, 3])
    b = _span(lines, start, -1, want_b)
    a = _span(lines, end, 1, want_a)
    if style == "careful":  # as many more lines as it takes to be unique
        while b is not None and b < 8 and not _unique(keys, start - b, start):
            b = _span(lines, start, -1, _code_count(lines, start - b, start) + 1)
        while a is not None and a < 8 and not _unique(keys, end, end + a):
            a = _span(lines, end, 1, _code_count(lines, end, end + a) + 1)
    if b is None or a is None:
        return None, None
    return (start - b, start), (end, end + a)


def _span(lines: list[str], at: int, step: int, code: int) -> int | None:
    """How many lines from ``at`` (backwards for step -1) hold ``code`` non-blank lines; a
    model shows code lines as context, with the blank lines among them."""
    n = 0
    seen = 0
    i = at - 1 if step < 0 else at
    while 0 <= i < len(lines):
        n += 1
        if lines[i].strip():
            seen += 1
            if seen == code:
                return n
        i += step
    return None


def _code_count(lines: list[str], a: int, b: int) -> int:
    return sum(1 for x in lines[max(a, 0) : b] if x.strip())


def _unique(keys: list[str], a: int, b: int) -> bool:
    if a < 0 or b > len(keys) or a >= b:
        return False
    block = keys[a:b]
    n = b - a
    hits = sum(1 for i in range(len(keys) - n + 1) if keys[i : i + n] == block)
    return hits == 1


def _end_marker(style: str, lines: list[str], end: int) -> str:
    """The marker after a block's changed last line: a comment at the next line's (smaller)
    indentation, the only thing that says the block ended there (a bare ``...`` cannot)."""
    following = _nonblank(lines, end, 1)
    return _marker("# ..." if style == "..." else style, lines, following or end)


def _marker(style: str, lines: list[str], near: int) -> str:
    if style == "...":
        return "..."
    return lead(lines[min(near, len(lines) - 1)]) + style
