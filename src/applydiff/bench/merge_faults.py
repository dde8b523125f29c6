"""Faulty merges made from right ones: the mistakes a fast-apply model makes (issue 27), for
measuring ``verify_merge`` (``benchmarks/verify_merge.py``) and for its tests.

Each maker takes the original, the snippet and a right merge, and returns the merge with one
fault, or None when the merge has no place for it (no added line to drop, no unshown block to
delete). The kinds:

- ``dropped_line``: a line the snippet adds is left out;
- ``invented_line``: a line neither the original nor the snippet has is put in;
- ``deleted_unshown``: a block of the original the snippet does not show is deleted;
- ``marker_left``: a ``... existing code ...`` line of the snippet is left in;
- ``cut_short``: the file ends early, its tail gone (a model past its token limit);
- ``duplicated_block``: the lines the snippet adds are put in twice;
- ``moved_line``: a line the snippet adds is put in another block (the right line in a wrong
  place: ``verify_merge`` says it cannot see this kind, counted apart).
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Callable

from ..match.elision import is_marker
from ..match.normalize import collapse as _key
from ..text import split_lines

KINDS = (
    "dropped_line",
    "invented_line",
    "deleted_unshown",
    "marker_left",
    "cut_short",
    "duplicated_block",
    "moved_line",
)
# The kind the verifier is not asked to catch.
UNSEEN = "moved_line"

_WORD = re.compile(r"[A-Za-z_]\w*")


def _lines(text: str) -> list[str]:
    return split_lines(text)


def _added(original: list[str], merged: list[str]) -> list[int]:
    """Rows of the merge whose line the original does not have (as often), not blank, and
    found once in the merge."""
    have = Counter(_key(x) for x in original)
    count = Counter(_key(x) for x in merged)
    out = []
    for j, x in enumerate(merged):
        k = _key(x)
        if k and count[k] == 1 and have[k] == 0:
            out.append(j)
    return out


def dropped_line(rng: random.Random, original: str, snippet: str, merged: str) -> str | None:
    old, new = _lines(original), _lines(merged)
    rows = _added(old, new)
    if not rows:
        return None
    j = rng.choice(rows)
    return "".join(new[:j] + new[j + 1 :])


def invented_line(rng: random.Random, original: str, snippet: str, merged: str) -> str | None:
    old, new = _lines(original), _lines(merged)
    have = {_key(x) for x in old} | {_key(x) for x in snippet.split("\n")}
    candidates = [j for j, x in enumerate(new) if _WORD.search(x)]
    if not candidates:
        return None
    j = rng.choice(candidates)
    line = new[j]
    m = _WORD.search(line)
    assert m is not None
    # The same statement with a name the file does not use: a plausible line nobody wrote.
    made = line[: m.start()] + m.group(0) + "_tmp" + line[m.end() :]
    if _key(made) in have or not made.endswith("\n"):
        return None
    return "".join([*new[: j + 1], made, *new[j + 1 :]])


def deleted_unshown(rng: random.Random, original: str, snippet: str, merged: str) -> str | None:
    """A run of 2 to 12 lines of the merge that the original has and the snippet does not
    show, from a line to the end of its block (the next line at its indentation or less)."""
    new = _lines(merged)
    shown = {_key(x) for x in snippet.split("\n")}
    have = Counter(_key(x) for x in _lines(original))
    starts = [
        j
        for j, x in enumerate(new)
        if x.strip() and _key(x) not in shown and have[_key(x)] and not is_marker(x)
    ]
    rng.shuffle(starts)
    for j in starts[:20]:
        depth = len(new[j]) - len(new[j].lstrip())
        end = j + 1
        while end < len(new) and (
            not new[end].strip() or len(new[end]) - len(new[end].lstrip()) > depth
        ):
            end += 1
        if 2 <= end - j <= 12 and not any(_key(new[k]) in shown for k in range(j, end)):
            return "".join(new[:j] + new[end:])
    return None


def marker_left(rng: random.Random, original: str, snippet: str, merged: str) -> str | None:
    """A marker line of the snippet put back after the merge's line that comes before it in
    the snippet."""
    lines = snippet.split("\n")
    new = _lines(merged)
    where = {_key(x): j for j, x in enumerate(new)}
    spots = []
    for k, x in enumerate(lines):
        if is_marker(x) and x.rstrip() not in {y.rstrip("\r\n") for y in _lines(original)}:
            before = next((lines[i] for i in range(k - 1, -1, -1) if lines[i].strip()), None)
            if before is not None and _key(before) in where:
                spots.append((where[_key(before)] + 1, x))
    if not spots:
        return None
    j, marker = rng.choice(spots)
    return "".join([*new[:j], marker + "\n", *new[j:]])


def cut_short(rng: random.Random, original: str, snippet: str, merged: str) -> str | None:
    """The merge ended at a line after its last added line, before the file's last line."""
    old, new = _lines(original), _lines(merged)
    rows = _added(old, new) or [0]
    last_code = max((j for j, x in enumerate(new) if x.strip()), default=-1)
    lo = max(rows) + 1
    if lo >= last_code:
        return None
    return "".join(new[: rng.randint(lo, last_code - 1) + 1])


def duplicated_block(rng: random.Random, original: str, snippet: str, merged: str) -> str | None:
    """The first run of added lines put in twice, one after the other."""
    old, new = _lines(original), _lines(merged)
    rows = set(_added(old, new))
    if not rows:
        return None
    start = min(rows)
    end = start
    while end + 1 < len(new) and (end + 1 in rows or not new[end + 1].strip()):
        end += 1
    block = new[start : end + 1]
    if not block[-1].endswith("\n"):
        return None
    return "".join(new[: end + 1] + block + new[end + 1 :])


def moved_line(rng: random.Random, original: str, snippet: str, merged: str) -> str | None:
    """An added line moved 5 to 40 lines away, at its indentation, between two kept lines."""
    old, new = _lines(original), _lines(merged)
    rows = _added(old, new)
    if not rows or len(new) < 12:
        return None
    j = rng.choice(rows)
    line = new[j]
    rest = new[:j] + new[j + 1 :]
    shift = rng.choice([-1, 1]) * rng.randint(5, 40)
    to = min(max(0, j + shift), len(rest))
    if abs(to - j) < 5 or not line.endswith("\n"):
        return None
    return "".join([*rest[:to], line, *rest[to:]])


MAKERS: dict[str, Callable[[random.Random, str, str, str], str | None]] = {
    "dropped_line": dropped_line,
    "invented_line": invented_line,
    "deleted_unshown": deleted_unshown,
    "marker_left": marker_left,
    "cut_short": cut_short,
    "duplicated_block": duplicated_block,
    "moved_line": moved_line,
}


def faults(rng: random.Random, original: str, snippet: str, merged: str) -> dict[str, str]:
    """kind -> the merge with that fault, for each kind this merge has a place for (a fault
    that gives back the right merge is left out)."""
    out = {}
    for kind in KINDS:
        made = MAKERS[kind](rng, original, snippet, merged)
        if made is not None and made != merged:
            out[kind] = made
    return out


__all__ = ["KINDS", "MAKERS", "UNSEEN", "faults"]
