"""A lazy snippet merged into a file as the engine does it (issue 17).

1. For a language the outline knows, narration comments are taken out of the snippet
   (``narration.drop_narration``), unless ``keep_narration``.
2. The line merge (``lazy.merge_snippet``) places it by its lines.
3. When the line merge refuses, the merge by definitions (``structural``) tries, for a
   language the outline knows. If that refuses too, the line merge's refusal stands: it
   names the segment and the line to add, the advice a model can act on.

Both merges refuse rather than guess; the structural one is tried second because the line
merge is the one measured on the largest corpora.
"""

from __future__ import annotations

import gc
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from ..errors import Ambiguous, NoMatch
from ..text import split_lines
from .diff_snippet import diff_marked, merge_diff_snippet
from .elision import is_marker
from .lazy import has_markers, merge_snippet
from .lazy.readings import DeletionOrContext
from .narration import drop_narration
from .outline import Outline, Syntax, scan, syntax_for
from .sniff import extension_from_content
from .structural import definition_names, definitions_of, is_import, merge_by_definitions

# The confidence of a merge by definitions: every definition it places is matched by name,
# but the lines between were not compared one by one.
STRUCTURE_CONFIDENCE = 0.9


@dataclass(frozen=True)
class SnippetMerge:
    """How a snippet was merged: by ``lines``, by ``structure``, or as a ``diff`` (a snippet
    written with +/- marks), the 1-based lines of the file it touched, its confidence, and
    notes (narration left out)."""

    how: str
    start_line: int
    end_line: int
    confidence: float
    notes: tuple[str, ...] = ()


def merge_lazy(
    path: str, text: str, snippet: str, *, keep_narration: bool = False
) -> tuple[str, SnippetMerge]:
    """``text`` (the file at ``path``) with the lazy ``snippet`` merged in. Raises
    ``NoMatch``, ``Ambiguous`` or ``NoChange`` when it cannot be merged for sure."""
    # The merges make a few objects per line of the file and no lasting reference cycle:
    # the cyclic collector, run again and again over a heap that grows with the file, would
    # make a merge grow faster than the file (measured: exponent 1.2 at 100,000 lines).
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _merge_lazy(path, text, snippet, keep_narration)
    finally:
        if collecting:
            gc.enable()


def _merge_lazy(
    path: str, text: str, snippet: str, keep_narration: bool
) -> tuple[str, SnippetMerge]:
    syntax = syntax_for(path)
    notes: list[str] = []
    if syntax is None and (ext := extension_from_content(text)) is not None:
        # No extension that says the language (or no path): read it from the content, and
        # merge as for a file of that kind (rule 10).
        path = f"{path or 'snippet'}.{ext}"
        syntax = syntax_for(path)
        notes.append(f"read the file as .{ext} from its content")
    # The file's lines, split once (for narration, the outline and the markerless check).
    bare = [x.rstrip("\r\n") for x in split_lines(text)]
    if diff_marked(snippet, bare):
        # Written with a diff's +/- marks: read as hunks, never written with the marks.
        done = merge_diff_snippet(text, snippet, bare)
        note = "read the snippet's '+' and '-' lines as a diff's added and removed lines"
        how = SnippetMerge("diff", done.start_line, done.end_line, done.confidence, (note,))
        return done.text, how
    if syntax is not None and not keep_narration:
        snippet, dropped = drop_narration(snippet, {x.rstrip() for x in bare}, syntax, bare)
        notes += dropped

    # The file's outline, read once if either merge needs it.
    def read() -> Outline:
        if not cached:
            assert syntax is not None
            cached.append(scan(bare, syntax))
        return cached[0]

    cached: list[Outline] = []
    try:
        merged, result = merge_snippet(
            text, snippet, path=path, outline=read if syntax is not None else None
        )
        if syntax is not None and not has_markers(snippet):
            _keeps_unshown_definitions(bare, merged, snippet, syntax, read)
        return merged, SnippetMerge(
            "lines", result.start_line, result.end_line, result.confidence, tuple(notes)
        )
    except (NoMatch, Ambiguous) as line_error:
        if syntax is None or isinstance(line_error, DeletionOrContext):
            # (The merge by definitions would read that segment as context: one of the
            # two readings, not a reason to pick it.)
            raise
        try:
            merged, placed = merge_by_definitions(
                path, text, snippet, lambda t, s: merge_snippet(t, s, path=path)[0], read
            )
        except (NoMatch, Ambiguous):
            split = _imports_then_rest(snippet, syntax)
            if split is None:
                raise line_error from None
            # New imports, a marker, then the rest (item 3): the imports go with the
            # file's, then the rest is merged into that, by lines or by definitions.
            imports, rest = split
            try:
                with_imports, _ = merge_by_definitions(path, text, imports, _no_lines)
                merged, rest_merge = _merge_lazy(path, with_imports, rest, keep_narration=True)
            except (NoMatch, Ambiguous):
                raise line_error from None
            # From the imports at the top to the end of the rest's change.
            end = max(1, rest_merge.end_line)
            return merged, SnippetMerge("structure", 1, end, STRUCTURE_CONFIDENCE, tuple(notes))
    return merged, SnippetMerge(
        "structure", placed.first_line, placed.last_line, STRUCTURE_CONFIDENCE, tuple(notes)
    )


def _imports_then_rest(snippet: str, syntax: Syntax) -> tuple[str, str] | None:
    """``(imports and the marker after them, the rest from that marker)`` when the snippet
    starts with import lines (and blank lines) followed by a marker and more; else None."""
    lines = snippet.split("\n")
    first_marker = next((k for k, x in enumerate(lines) if is_marker(x)), None)
    head = lines[:first_marker] if first_marker is not None else []
    if first_marker is None or not any(x.strip() for x in head):
        return None
    if not all(not x.strip() or is_import(x, syntax) for x in head):
        return None
    rest = lines[first_marker:]
    if not any(x.strip() and not is_marker(x) for x in rest):
        return None  # imports and markers only: the merge by definitions took it already
    return "\n".join([*head, lines[first_marker]]) + "\n", "\n".join(rest)


def _no_lines(text: str, snippet: str) -> str:
    raise NoMatch("imports only: no definition to merge by lines", closest=[])


def _keeps_unshown_definitions(
    bare: list[str], merged: str, snippet: str, syntax: Syntax, read: Callable[[], Outline]
) -> None:
    """A snippet without any marker that shows a few definitions leaves the file's others
    alone (issue 17): a line merge that deleted one it does not show, reading the snippet as
    one region from its first line to its last, is refused, for the merge by definitions."""
    merged_lines = [x.rstrip("\r\n") for x in split_lines(merged)]
    fewer = Counter(bare) - Counter(merged_lines)
    if not fewer:
        return  # every line of the file is still there: no definition went (and no scan)
    outline = read()
    if not any(bare[b.start] in fewer for b in definitions_of(bare, outline, syntax)):
        return  # every definition's first line is still there (the merged text unscanned)
    before = definition_names(bare, syntax, outline)
    after = definition_names(merged_lines, syntax)
    shown = definition_names(snippet.split("\n"), syntax)
    gone = [name for name, n in before.items() if after[name] < n and name not in shown]
    if gone:
        raise Ambiguous(
            f"the snippet has no '... existing code ...' marker, and read as one piece it "
            f"would delete {', '.join(repr(g) for g in gone[:3])}, which it does not show",
            lines=[],
            tier="lazy",
        )


__all__ = ["STRUCTURE_CONFIDENCE", "SnippetMerge", "merge_lazy"]
