"""Indentation the model retyped, and new lines indented as the file indents.

Lines are compared with trailing whitespace ignored, then (for a segment with no anchor that
way, or one whose indentation the model retyped, tabs for spaces) with all whitespace ignored,
re-indenting the segment by the shift its anchors show. Lines the model retyped keep the
file's bytes; a new line takes the indentation the file gives the nearest line the model
indented the same way.
"""

from __future__ import annotations

import bisect
import itertools
from dataclasses import replace

from .. import diff, indent
from .heads import ALIGN_WORK, Index, head_runs, tail_runs
from .segments import Segment
from .shapes import exact_key, loose_key


def retyped_segment(lines: list[str], index: Index) -> bool | None:
    """Whether the model retyped the segment's indentation (tabs for spaces, or spaces for
    tabs): True when no line it indents by a tab or by more than one space is in the file as
    it is, and some line is there with the other kind; "maybe" (False) when some other line
    is; None when no line says so."""
    strict = index.view(False).where
    indented = [x for x in lines if x.strip() and x[0] in " \t"]
    other = [x for x in indented if exact_key(x) not in strict]
    if not any(k in strict for x in other for k in _other_kind(x)):
        return None
    copied = any(
        exact_key(x) in strict and ("\t" in indent.leading(x) or "  " in indent.leading(x))
        for x in indented
    )
    return not copied


def _other_kind(line: str) -> list[str]:
    """``line``'s key with its indentation written the other way: spaces as tabs (a tab for
    every 2, 4 or 8), or tabs as 2, 4 or 8 spaces."""
    ws = indent.leading(line)
    rest = exact_key(line)[len(ws) :]
    if "\t" in ws:
        return [ws.expandtabs(w) + rest for w in (2, 4, 8)]
    return ["\t" * (len(ws) // w) + " " * (len(ws) % w) + rest for w in (2, 4, 8) if len(ws) >= w]


def reindented(seg: Segment, index: Index, cursor: int) -> Segment:
    """The segment in the file's indentation, for reading it with whitespace ignored: the
    shift its first (else last) lines found in the file (from ``cursor``) show, measured as
    the matching ladder does (tabs and spaces on one scale, another indent unit), so that
    every later comparison of levels is between file columns."""
    bare = index.bare
    view = index.view(True)
    sk = [loose_key(x) for x in seg.lines]
    run, at = head_runs(sk, view, cursor, len(view.keys))
    pairs = [(seg.lines[i], bare[at[0] + i]) for i in range(run)] if run else []
    if not pairs:
        run, ends = tail_runs(sk, view, cursor, len(sk))
        n = len(sk)
        pairs = [(seg.lines[n - 1 - i], bare[ends[0] - 1 - i]) for i in range(run)] if run else []
    if not pairs:
        return seg
    style = indent.detect(bare, seg.lines)
    width = _tab_width(pairs) if style.tabs else None
    if width is not None:
        style = indent.Style(tabs=True, unit=width)
    shift = indent.common(pairs, style, seg.lines)

    def moved(col: int | None) -> int | None:
        return None if col is None else len(indent.leading(style.render(shift.apply(col))))

    lines = [indent.reindent(x, shift, style) if x.strip() else "" for x in seg.lines]
    return replace(seg, lines=lines, after_indent=moved(seg.after_indent))


def _tab_width(pairs: list[tuple[str, str]]) -> int | None:
    """The columns the model gave a tab, where it wrote spaces for the file's tabs: from the
    lines the file indents with tabs then spaces ("\t\t  ", as GNU C aligns) and the model with
    spaces alone; None unless they all say the same."""
    widths = set()
    for model, own in pairs:
        m, f = indent.leading(model), indent.leading(own)
        tabs = len(f) - len(f.lstrip("\t"))
        if not tabs or "\t" in m or "\t" in f[tabs:] or not model.strip():
            continue
        width, rest = divmod(len(m) - (len(f) - tabs), tabs)
        if rest or width < 1:
            return None
        widths.add(width)
    return widths.pop() if len(widths) == 1 else None


def retyped_copy(line: str, own: str) -> bool:
    """``line`` is the file's line ``own`` written with the other kind of whitespace."""
    model, file_ws = indent.leading(line), indent.leading(own)
    return (
        bool(own.strip()) and line.strip() == own.strip() and (("\t" in model) != ("\t" in file_ws))
    )


def blank_pairs(lines: list[str], same: dict[int, int], bare: list[str]) -> dict[int, int]:
    """A blank segment line paired with a file line of spaces whose very bytes are those of
    a later blank segment line, unpaired, with only new lines between the two: that later
    one is the file's line, and the first one a line the model added."""
    out = dict(same)
    for a in sorted(same):
        b = out[a]
        if lines[a].strip() or lines[a] == bare[b]:
            continue
        for a2 in range(a + 1, len(lines)):
            if a2 in out:
                break  # a paired line between: the order would not hold
            if lines[a2] == bare[b]:
                del out[a]
                out[a2] = b
                break
    return out


def retyped(
    lines: list[str], start: int, end: int, same: dict[int, int], bare: list[str]
) -> tuple[dict[int, int], list[str]]:
    """A segment placed by its exact lines may hold lines the model retyped: the file's text
    at the file's column with spaces for tabs (or tabs for spaces). Those are the file's lines,
    byte for byte; and a new line whose indentation in the segment is that of a line it shows
    takes that line's indentation in the file (the nearest such line), so that the new code
    is written as the file writes its indentation."""
    same = blank_pairs(lines, same, bare)
    kept = set(same.values())
    loose_rows = {bare[b].strip() for b in range(start, end) if b not in kept}
    if not any(a not in same and lines[a].strip() in loose_rows for a in range(len(lines))):
        return same, lines  # no line of the file there written another way: nothing to do
    found: dict[int, int] = {}
    style: indent.Style | None = None
    anchors = sorted(same.items())
    for (a0, b0), (a1, b1) in itertools.pairwise([(-1, start - 1), *anchors, (len(lines), end)]):
        if a1 - a0 < 2 or b1 - b0 < 2:
            continue
        model_lines = lines[a0 + 1 : a1]
        sm = diff.matcher(
            [x.strip() for x in model_lines], [x.strip() for x in bare[b0 + 1 : b1]], ALIGN_WORK
        )
        try:
            blocks = sm.get_matching_blocks()
        except diff.TooCostly:
            continue  # too much alike to pair up: the model's bytes stand
        for i, k, size in blocks:
            rows = range(b0 + 1 + k, b0 + 1 + k + size)
            for a, b in zip(range(a0 + 1 + i, a0 + 1 + i + size), rows, strict=True):
                model, own = indent.leading(lines[a]), indent.leading(bare[b])
                if model == own or not lines[a].strip():
                    continue
                if style is None:
                    style = indent.detect(bare, lines)
                if indent.columns(model, style.unit) == indent.columns(own, style.unit):
                    found[a] = b
    if not found:
        return same, lines
    same = {**same, **found}
    assert style is not None
    return same, by_analogy(lines, lines, same, bare, style)


def by_analogy(
    original: list[str],
    lines: list[str],
    same: dict[int, int],
    bare: list[str],
    style: indent.Style | None = None,
) -> list[str]:
    """``lines`` with each new line (not in ``same``) indented as the file indents the
    nearest kept line that the model indented as it (``original``: the segment as the model
    wrote it); with no such line, in ``style`` at its column (or as it is, without one)."""
    out = list(lines)
    by_ws: dict[str, list[int]] = {}  # kept segment lines by their indentation, in order
    for b in sorted(same):
        if original[b].strip():
            by_ws.setdefault(indent.leading(original[b]), []).append(b)
    for a, line in enumerate(original):
        if a in same or not line.strip():
            continue
        ws = indent.leading(line)
        rows = by_ws.get(ws)
        if rows:
            i = bisect.bisect_left(rows, a)
            near = min(rows[max(i - 1, 0) : i + 1], key=lambda b: abs(b - a))
            out[a] = indent.leading(bare[same[near]]) + line[len(ws) :]
        elif style is not None:
            out[a] = style.render(indent.columns(ws, style.unit)) + line[len(ws) :]
    return out
