"""Indentation: a file's style, columns, uniform shifts and re-indenting new lines.

Columns put tabs and spaces on one scale: a tab counts as one indent level of spaces, where the
level is the file's own unit when the file indents with spaces, and the model's unit (from its
search and replace text) when the file indents with tabs.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Style:
    """How a file indents: ``tabs`` or spaces, and the width of one level in columns."""

    tabs: bool
    unit: int

    def render(self, col: int) -> str:
        col = max(col, 0)
        if self.tabs:
            return "\t" * (col // self.unit) + " " * (col % self.unit)
        return " " * col


def leading(line: str) -> str:
    return line[: len(line) - len(line.lstrip(" \t"))]


def columns(ws: str, tab: int) -> int:
    return ws.count(" ") + ws.count("\t") * tab


# Indent levels people use; other steps are alignment (a continuation line), not a level.
UNITS = (2, 3, 4, 8)


def space_unit(lines: Iterable[str]) -> int | None:
    """The most common positive step between the space indents of successive lines."""
    steps: Counter[int] = Counter()
    prev = 0
    for line in lines:
        body = line.lstrip(" ")
        if not body or body[0] in "\t\r\n":  # blank, or indented with tabs
            continue
        width = len(line) - len(body)
        if width - prev in UNITS:
            steps[width - prev] += 1
        prev = width
    if not steps:
        return None
    return max(steps.items(), key=lambda kv: (kv[1], -kv[0]))[0]


def detect(file_lines: list[str], model_lines: list[str]) -> Style:
    """The file's style, with ``unit`` on the scale that makes model columns comparable."""
    tab_lines = sum(1 for x in file_lines if x[:1] == "\t")
    space_lines = sum(1 for x in file_lines if x[:1] == " " and not x.isspace())
    if tab_lines > space_lines:
        return Style(tabs=True, unit=space_unit(model_lines) or 4)
    return Style(tabs=False, unit=space_unit(file_lines) or space_unit(model_lines) or 4)


def column(line: str, style: Style) -> int:
    return columns(leading(line), style.unit)


@dataclass(frozen=True)
class Shift:
    """Model columns to file columns: ``file = model * scale + offset``.

    ``scale`` is 1 unless the model indents with another unit than the file (2 spaces a level
    where the file uses 4, say).
    """

    offset: int = 0
    scale: int = 1

    def apply(self, col: int) -> int:
        return col * self.scale + self.offset


def model_unit(lines: Iterable[str]) -> int:
    return space_unit(lines) or 4


def _scales(style: Style, model_lines: list[str]) -> list[int]:
    """Scales worth trying: 1, and the file's unit over the model's when it is a whole number."""
    out = [1]
    if not style.tabs:
        unit = space_unit(model_lines)
        if unit and style.unit > unit and style.unit % unit == 0:
            out.append(style.unit // unit)
    return out


def fit(pairs: list[tuple[str, str]], style: Style, model_lines: list[str]) -> Shift | None:
    """The one shift that maps every non-blank model line's indentation onto its file line's,
    or None."""
    cols = [(column(o, style), column(f, style)) for o, f in pairs if o.strip()]
    for scale in _scales(style, model_lines):
        offsets = {f - o * scale for o, f in cols}
        if len(offsets) <= 1:
            return Shift(offsets.pop() if offsets else 0, scale)
    return None


def common(pairs: list[tuple[str, str]], style: Style, model_lines: list[str]) -> Shift:
    """The shift that explains the most non-blank line pairs (smallest offset on a tie)."""
    cols = [(column(o, style), column(f, style)) for o, f in pairs if o.strip() and f.strip()]
    best = Shift()
    best_count = -1
    for scale in _scales(style, model_lines):
        counts = Counter(f - o * scale for o, f in cols)
        if not counts:
            continue
        offset, count = max(counts.items(), key=lambda kv: (kv[1], -abs(kv[0])))
        if count > best_count:
            best, best_count = Shift(offset, scale), count
    return best


def reindent(line: str, shift: Shift, style: Style) -> str:
    """``line`` moved by ``shift`` and written in ``style``; blank lines stay blank."""
    if not line.strip():
        return ""
    ws = leading(line)
    return style.render(shift.apply(columns(ws, style.unit))) + line[len(ws) :]


class Shifts:
    """Every (tab width, scale) pair that ``fit`` could use for ``model_lines`` under some
    file style (the file's unit, the model's and 4 are all in ``UNITS``), so that windows can
    be ruled out before their style (a scan of 80 lines around each) is known."""

    def __init__(self, model_lines: list[str]) -> None:
        mu = space_unit(model_lines)
        self.combos = [(u, 1) for u in UNITS] + [
            (u, u // mu) for u in UNITS if mu and u > mu and u % mu == 0
        ]


# Tab widths tried, in order, to read a file whose indentation mixes tabs and spaces.
TAB_WIDTHS = (8, 4, 2)


def width(ws: str, tab: int) -> int:
    """The columns leading blanks ``ws`` take with tab stops every ``tab`` columns."""
    return len(ws.expandtabs(tab))


def tab_width(pairs: list[tuple[str, str]]) -> int | None:
    """For (model indentation, file indentation) pairs of lines the model quoted: the tab
    width at which every file line sits at the column the model wrote it at, when the file
    writes each indentation of a tab or more as tabs then fewer spaces than a tab (the
    model retyped the file's tabs as spaces, GNU style C with its tab-aligned continuation
    lines say). None when no width explains every pair, or the file does not use tabs, or
    the model does (its tabs already say how wide it takes one to be)."""
    if any("\t" in m for m, _ in pairs):
        return None
    for tab in TAB_WIDTHS:
        if any(width(f, tab) != width(m, tab) for m, f in pairs):
            continue
        wide = [f for _, f in pairs if width(f, tab) >= tab]
        if not any("\t" in f for f in wide):
            return None
        style = Style(tabs=True, unit=tab)
        if all(f == style.render(width(f, tab)) for f in wide):
            return tab
    return None


def tab_stops(pairs: list[tuple[str, str]]) -> int | None:
    """For (model line, file line) pairs of lines the model quoted: the tab width at which
    the file's lines with tabs read as the model retyped them in spaces, column for column
    (some do, and none of those the model quoted word for word reads otherwise), or None
    when the lines do not tell."""
    retyped = [
        (m.rstrip(), f.rstrip())
        for m, f in pairs
        if "\t" in f and "\t" not in m and m.split() == f.split()
    ]
    for tab in TAB_WIDTHS:
        if retyped and all(f.expandtabs(tab) == m for m, f in retyped):
            return tab
    return None


def spaces_for_tabs(pairs: list[tuple[str, str]]) -> int | None:
    """For (model indentation, file indentation) pairs: the columns the model's tab stands
    for when it indents with tabs where the file has spaces only, and one width explains
    every pair (the file's 6 spaces quoted as three tabs: 2). None otherwise."""
    if not any("\t" in m for m, _ in pairs) or any("\t" in f for _, f in pairs):
        return None
    for tab in (*TAB_WIDTHS, 3):
        if all(width(m, tab) == len(f) for m, f in pairs):
            return tab
    return None
