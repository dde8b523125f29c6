"""Three-way merge inside one line.

When the model changes a line it quoted with noise (smart quotes where the file has ASCII, a
dash, odd spacing, a typo), the characters it did not change are taken from the file's line
and only the span it changed comes from its replacement: the file's ``s = “hello” — hi`` edited
by a model that quoted it as ``s = "hello" - hi`` into ``"goodbye"`` keeps the smart quotes and
the dash.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from rapidfuzz.distance import Indel

from . import diff

# Lines less alike than this are not "the same line with noise" (base vs file), or the change
# is a rewrite rather than an edit inside the line (base vs replacement).
SAME_LINE = 0.75
EDITED_LINE = 0.5
# Edit-distance cells (see ``diff.cells``) one line comparison may take: a few milliseconds.
LINE_CELLS = 100_000_000

# Tokens: words, runs of blanks, single other characters. Merging token by token (not char by
# char) keeps a change of spacing or a retyped word from being spliced into a neighbour.
_TOKEN = re.compile(r"\w+|\s+|[^\w\s]")


def _positions(base: list[str], ours: list[str]) -> list[int]:
    """For each token boundary 0..len(base) of ``base``, the matching boundary in ``ours``
    (monotonic; tokens that differ in place map one to one)."""
    pos = [0] * (len(base) + 1)
    for tag, i1, i2, j1, j2 in diff.matcher(base, ours).get_opcodes():
        if tag == "equal" or (tag == "replace" and i2 - i1 == j2 - j1):
            for d in range(i2 - i1 + 1):
                pos[i1 + d] = j1 + d
        else:
            for i in range(i1, i2):
                pos[i] = j1
            pos[i2] = j2
    return pos


def merge(base: str, ours: str, theirs: str, undo: Callable[[str], str]) -> str | None:
    """``theirs`` with every span it kept from ``base`` written as ``ours`` has it, or None
    when the lines are not alike enough for that to be meaningful (or, in lines of many
    thousands of characters, too costly to compare: then ``theirs`` is written as it is)."""
    if base == ours:
        return theirs
    if diff.cells(base, ours) > LINE_CELLS:
        return None  # a line this long and this changed: too costly to compare
    if Indel.normalized_similarity(base, ours) < SAME_LINE:
        return None
    b, o, t = _TOKEN.findall(base), _TOKEN.findall(ours), _TOKEN.findall(theirs)
    try:
        return _merge_tokens(b, o, t, undo)
    except diff.TooCostly:
        return None  # tokens too many and too repetitive to align


def _merge_tokens(
    b: list[str], o: list[str], t: list[str], undo: Callable[[str], str]
) -> str | None:
    edit = diff.matcher(b, t)
    if edit.ratio() < EDITED_LINE:
        return None
    pos = _positions(b, o)
    out = []
    for tag, i1, i2, j1, j2 in edit.get_opcodes():
        if tag == "equal":
            out.extend(o[pos[i1] : pos[i2]])
        else:
            out.append(undo("".join(t[j1:j2])))
    return "".join(out)
