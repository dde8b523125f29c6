"""The merged text: the file's lines between the placed segments, each segment's lines in its
region; a line the segment keeps is the file's, byte for byte, and a new line ends as the
file's lines mostly do."""

from __future__ import annotations

from ...text import cr_ends_lines, dominant_eol, ends_line
from .placing import Placement


def assemble(file_lines: list[str], placements: list[Placement], text: str) -> str:
    """``text`` (split into ``file_lines``, with their line ends) with ``placements``
    written in, in order."""
    eol = dominant_eol(text) if text else "\n"
    ended = ("\n", "\r") if cr_ends_lines(text) else "\n"
    out: list[str] = []
    at = 0
    for pl in placements:
        out += file_lines[at : pl.start]
        out += [eol] * pl.blank_before
        for i, line in enumerate(pl.lines):
            row = pl.same.get(i)
            if row is not None:
                out.append(
                    file_lines[row] if file_lines[row].endswith(ended) else file_lines[row] + eol
                )
                continue
            out.append(line + eol)
        if (
            pl.blank_after
            and pl.lines
            and len(pl.lines) - 1 not in pl.same
            and pl.end < len(file_lines)
            and file_lines[pl.end].strip()
        ):
            # New lines end the segment, a blank line then a marker follow them in the
            # snippet, and the file goes on right there: the blank line stands for itself.
            out += [eol] * (pl.blank_after or 0)
        at = max(at, pl.end)
    rest = file_lines[at:]
    out += rest
    merged = "".join(out)
    if text and not ends_line(text) and not rest and merged.endswith(eol):
        merged = merged[: -len(eol)]  # the file had no final newline: it still has none
    return merged
