"""Lazy snippets: changed code with "... existing code ..." lines standing for the rest.

>>> snippet = "# ... existing code ...\\nb\\nB2\\nc\\n# ... existing code ...\\n"
>>> merge_snippet("a\\nb\\nc\\nd\\n", snippet)[0]
'a\\nb\\nB2\\nc\\nd\\n'

The snippet is cut at its marker lines into *segments*. Each segment's leading lines that the
file has, in a row, are its *head* anchor; its trailing ones its *tail* anchor. The segment
replaces the file from the start of its head to the end of its tail, so lines of the file in
between that the segment leaves out are deleted ("a deletion is shown by the context around
it"), and lines it adds are inserted. Text between two segments, which the snippet does not
show, is kept. What cannot be placed for sure is refused, naming the segment and the reason.

The package, by job: ``segments`` reads the snippet into segments and markers; ``heads``
finds where a segment's head and tail lines are in the file; ``landing`` places one segment
(``placing`` holds what its steps share and the placement they return); ``guards`` and
``readings`` refuse what is not sure (``readings``: a segment that fits as well another
way); ``retype`` handles indentation the model retyped; ``blocks`` and ``shapes`` read the
file's blocks and single lines; ``stitch`` writes the merged text.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ...errors import NoChange, NoMatch, Region
from ...text import split_lines
from ..outline import Outline, syntax_for
from .guards import MAX_UNSHOWN_DELETE
from .heads import Index
from .landing import NoAnchor, place
from .placing import Placement, Placing
from .segments import bare_dots, has_markers, split_snippet
from .shapes import exact_key
from .stitch import assemble
from .unshown import names_declared, partial_by_nature

# Up to this many places of a segment's first (last) line, runs are measured by walking from
# each; past it, by ``str.find`` in the coded keys (one file of one repeated line has it on
# every line). WALK: the steps walking from each place may take to find a segment's lines
# around a gap; past it, the coded keys. Read at each merge (a test lowers them to try the
# coded keys on small files).
FEW = 64
WALK = 20_000


@dataclass(frozen=True)
class LazyResult:
    start_line: int  # 1-based, in the original text
    end_line: int
    confidence: float
    segments: int


def merge_snippet(
    text: str,
    snippet: str,
    *,
    path: str | None = None,
    outline: Callable[[], Outline] | None = None,
) -> tuple[str, LazyResult]:
    """``text`` with the lazy ``snippet`` merged in (raises ``NoMatch`` / ``Ambiguous`` with
    the segment and the reason when it cannot be placed for sure). ``path`` names the file:
    for a language the outline knows, a segment whose last lines are too common to place
    it by ends where the block its first line opens closes (``outline`` gives the file's
    outline when the caller has read it already)."""
    file_lines = split_lines(text)  # never str.splitlines: it splits at \f, \x85, U+2028
    bare = [x.rstrip("\r\n") for x in file_lines]
    dots = frozenset(x.rstrip() for x in bare if ("." in x or "…" in x) and bare_dots(x))
    segments, lead, trail = split_snippet(snippet, dots)
    if not segments:
        raise NoMatch("the snippet holds only '... existing code ...' lines: no change to make")
    syntax = syntax_for(path) if path else None
    index = Index(bare, FEW, WALK, syntax, outline)
    declares = names_declared(x for s in segments for x in s.lines)
    rewrite = (lead or trail or len(segments) > 1) and not partial_by_nature(syntax)
    placements: list[Placement] = []
    cursor = 0
    last = len(segments)
    for k, seg in enumerate(segments, 1):
        first_key, last_key = exact_key(seg.lines[0]), exact_key(seg.lines[-1])
        top = k == 1 and not lead and bool(bare) and first_key == exact_key(bare[0])
        bottom = k == last and not trail and bool(bare) and last_key == exact_key(bare[-1])
        # No marker at all, and the file's own first and last lines: the whole file.
        whole = last == 1 and top and bottom
        placed = place(
            Placing(seg, seg.name(k), index, cursor, False, top, bottom, whole, declares, rewrite)
        )
        if placed.blank_after is None:
            placed.blank_after = seg.blank_after
        placements.append(placed)
        cursor = placed.end
    merged = assemble(file_lines, placements, text)
    if merged == text:
        raise NoChange(
            "the snippet, placed in the file, changes nothing: every line it shows is already "
            "there as shown; write the changed lines in it"
        )
    return merged, _result(placements)


def _result(placements: list[Placement]) -> LazyResult:
    first, final = placements[0], placements[-1]
    return LazyResult(
        first.start + 1,
        max(first.start + 1, final.end),
        1.0 if all(p.exact for p in placements) else 0.95,
        len(placements),
    )


__all__ = [
    "FEW",
    "MAX_UNSHOWN_DELETE",
    "WALK",
    "LazyResult",
    "NoAnchor",
    "Region",
    "has_markers",
    "merge_snippet",
    "split_snippet",
]
