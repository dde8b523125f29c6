"""A lazy snippet read into segments: the runs of lines between its marker lines.

A snippet without a marker before its first segment is read as if it had one, unless that
segment starts with the file's first line (then it is anchored at the top); likewise at the
end. A bare ``...`` line is a marker, unless the file has it as a line (a doctest continuation,
a stub's body): then it is content.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..elision import is_marker
from .shapes import indent_of


@dataclass
class Segment:
    lines: list[str]  # without line terminators
    first: int  # 1-based line of the snippet where it starts
    open_before: bool  # a marker (written or implied) stands before it
    open_after: bool
    # The indentation of the comment marker after it (None: none, or a bare "..."): a
    # marker left of the segment's last line says the segment showed its block to the end.
    after_indent: int | None = None
    # Blank lines between its last line and the marker after it: they stand for themselves
    # (issue 17, item 8).
    blank_after: int = 0

    def name(self, k: int) -> str:
        head = next((x.strip() for x in self.lines if x.strip()), "")
        last = self.first + len(self.lines) - 1
        return f"segment {k} (snippet lines {self.first}-{last}, starting {head[:60]!r})"


def split_snippet(
    snippet: str, literal: frozenset[str] = frozenset()
) -> tuple[list[Segment], bool, bool]:
    """The segments of ``snippet`` and whether it has a marker before the first one and after
    the last (blank lines at a segment's edges are dropped). A bare ``...`` line that is in
    ``literal`` (lines of the file: a doctest continuation, a stub's body) is content."""
    lines = snippet.replace("\r\n", "\n").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    segments: list[Segment] = []
    current: list[str] = []
    start = 0
    lead = trail = False
    for i, line in enumerate(lines):
        if is_marker(line) and not (line.rstrip() in literal and bare_dots(line)):
            marker_indent = None if bare_dots(line) else indent_of(line)
            if current:
                segments.append(_segment(current, start, True))
                segments[-1].after_indent = marker_indent
            elif not segments:
                lead = True
            current = []
            trail = True
            continue
        if not current:
            start = i
        current.append(line)
        trail = False
    if current:
        segments.append(_segment(current, start, False))
    if segments and (segments[0].first > 1 or lead):
        lead = lead or any(is_marker(x) for x in lines[: segments[0].first - 1])
    for k, seg in enumerate(segments):
        seg.open_before = k > 0 or lead
    return [s for s in segments if s.lines], lead, trail


def has_markers(snippet: str) -> bool:
    """Whether ``snippet`` leaves code out: a comment marker anywhere, or a bare ``...`` as
    its first or last line (inside, a bare ``...`` is a stub's body or a doctest line)."""
    lines = [x for x in snippet.replace("\r\n", "\n").split("\n") if x.strip()]
    if not lines:
        return False
    if any(is_marker(x) and not bare_dots(x) for x in lines):
        return True
    stub_body = (
        len(lines) > 1
        and lines[-2].rstrip().endswith((":", "{"))
        and indent_of(lines[-1]) > indent_of(lines[-2])
    )
    return bare_dots(lines[0]) or (bare_dots(lines[-1]) and not stub_body)


def bare_dots(line: str) -> bool:
    """The line is dots alone: ``...``, ``…``, ``.....``."""
    return line.strip() in ("...", "…") or set(line.strip()) == {"."}


def _segment(lines: list[str], start: int, open_after: bool) -> Segment:
    first = start
    while lines and not lines[0].strip():
        lines = lines[1:]
        first += 1
    blank_after = 0
    while lines and not lines[-1].strip():
        lines = lines[:-1]
        blank_after += 1
    return Segment(
        list(lines), first + 1, False, open_after, blank_after=blank_after if open_after else 0
    )
