"""Lazy snippets merged definition by definition, for a file whose language the outline
scanner knows (issue 17).

The line merge (``lazy.merge_snippet``) anchors a snippet's segments by their lines; real
snippets are shaped by blocks instead: a whole ``class Calculator { ... }`` with one method
changed, a few functions of a larger file shown without any marker, new imports with nothing
to anchor them, a segment whose last line is a ``}`` like a hundred others. Here the snippet
is read as a sequence of *items* at its top level: definitions (a block and its header, with
the comment and decorator lines right above it), marker lines, imports, and other lines.

- A definition is matched to the file's definition with the same identity
  (``outline.identity``: kind and name, a CSS selector, an element's tag and key attributes),
  anywhere in the file, in the snippet's order. Its text replaces the file's: through the
  line merge, scoped to that definition, when it holds markers; as it stands when it holds
  none (then it must show every member of the file's definition, and leave out at most a
  few lines of it).
- A definition the file does not have is new: it goes after the file's place of the item
  before it in the snippet, or before the place of the item after it; with neither, after
  a leading marker at the end of the file, or before a trailing one at the top.
- New import lines go after the file's last import line of their kind (or of any kind, or at
  the top); imports the file has are not added again.
- Other lines must be lines of the file (context, kept as they are): anything else cannot
  be placed by structure, and is refused. (Narration comments are taken out before, by
  ``narration.drop_narration``.)
- What the snippet does not show stays; the result must keep the file's brackets balanced.

A markerless snippet whose definitions account for every definition of the file is the whole
file. Refusals raise ``Ambiguous`` or ``NoMatch`` with the reason; the caller decides whether
the line merge's refusal or this one is the better advice.
"""

from __future__ import annotations

from collections.abc import Callable

from ...errors import NoMatch
from ..lazy.shapes import is_import
from ..outline import Outline, syntax_for
from .merge import Merge
from .pieces import MAX_UNSHOWN, LineMerge, StructuralResult, definition_names, definitions_of

__all__ = [
    "MAX_UNSHOWN",
    "LineMerge",
    "StructuralResult",
    "definition_names",
    "definitions_of",
    "is_import",
    "merge_by_definitions",
]


def merge_by_definitions(
    path: str,
    text: str,
    snippet: str,
    merge_lines: LineMerge,
    outline: Callable[[], Outline] | None = None,
) -> tuple[str, StructuralResult]:
    """``text`` with ``snippet`` merged in by definitions (see the module's docstring).
    ``outline`` gives the file's outline when the caller has read it already."""
    syntax = syntax_for(path)
    if syntax is None:
        raise NoMatch(f"{path}: no structure is known for this kind of file", closest=[])
    return Merge(syntax, text, snippet, merge_lines, outline=outline).run()
