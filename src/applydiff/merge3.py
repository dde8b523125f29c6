"""Three-way merge of text (diff3), on difflib: base, ours (the local file), theirs (the
model's output).

Regions that only one side changed take that side; regions both changed the same way take
it once; regions both changed differently become a conflict, written with ``<<<<<<<`` /
``|||||||`` / ``=======`` / ``>>>>>>>`` marker lines as git's ``merge-file --diff3`` does.

>>> merge3("a\\nb\\nc\\n", "A\\nb\\nc\\n", "a\\nb\\nC\\n").text
'A\\nb\\nC\\n'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from difflib import SequenceMatcher

from .text import dominant_eol, split_lines


@dataclass
class Merged:
    """The merged text and the 1-based line ranges of its conflict regions (markers included)."""

    text: str
    conflicts: list[tuple[int, int]] = field(default_factory=list)

    @property
    def clean(self) -> bool:
        return not self.conflicts


def _matches(base: list[str], other: list[str]) -> dict[int, int]:
    """base line index -> other line index, for the lines the two have in common."""
    out: dict[int, int] = {}
    for a, b, size in SequenceMatcher(None, base, other, autojunk=False).get_matching_blocks():
        for k in range(size):
            out[a + k] = b + k
    return out


def merge3(
    base: str,
    ours: str,
    theirs: str,
    *,
    labels: tuple[str, str, str] = ("local", "snapshot", "model"),
) -> Merged:
    """Merge the change from ``base`` to ``theirs`` into ``ours`` (all three are whole texts)."""
    b, o, t = split_lines(base), split_lines(ours), split_lines(theirs)
    mo, mt = _matches(b, o), _matches(b, t)
    eol = dominant_eol(ours or theirs or base)
    out: list[str] = []
    conflicts: list[tuple[int, int]] = []
    pb = po = pt = 0
    # Sync points: base lines both sides kept. Between two of them, each side's stretch is
    # compared with the base's.
    syncs = [i for i in range(len(b)) if i in mo and i in mt]
    for i in [*syncs, len(b)]:
        jo = mo[i] if i < len(b) else len(o)
        jt = mt[i] if i < len(b) else len(t)
        cb, co, ct = b[pb:i], o[po:jo], t[pt:jt]
        if co == cb:
            out += ct
        elif ct == cb or co == ct:
            out += co
        else:
            start = len(out) + 1
            out.append(f"<<<<<<< {labels[0]}{eol}")
            out += _closed(co, eol)
            out.append(f"||||||| {labels[1]}{eol}")
            out += _closed(cb, eol)
            out.append(f"======={eol}")
            out += _closed(ct, eol)
            out.append(f">>>>>>> {labels[2]}{eol}")
            conflicts.append((start, len(out)))
        if i < len(b):
            out.append(o[jo])
            pb, po, pt = i + 1, jo + 1, jt + 1
    return Merged("".join(out), conflicts)


def _closed(lines: list[str], eol: str) -> list[str]:
    """Lines that end with a terminator, so a marker line after them starts a line."""
    if lines and not lines[-1].endswith("\r" if eol == "\r" else "\n"):
        return [*lines[:-1], lines[-1] + eol]
    return lines
