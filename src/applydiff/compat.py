"""Drop-in tool dialects: the tools each one offers, and the shape of the filesystem answers.

The dialects are the tools other agents' tooling already defines, under their names and with
their argument schemas (those are in the tool catalogue, :mod:`applydiff.tools.catalogue`), so
an agent switches to applydiff without a prompt change.

- ``filesystem``: the reference MCP filesystem server's tool set — ``read_text_file(path,
  head?, tail?)`` (raw text; ``read_file``, its older name, is served too, as there),
  ``read_multiple_files(paths)``, ``write_file(path, content)``, ``edit_file(path,
  edits[{oldText, newText}], dryRun?)`` (answers with a git-style diff, also on a dry run),
  ``create_directory(path)``,
  ``list_directory(path)``, ``list_directory_with_sizes(path, sortBy?)``,
  ``directory_tree(path, excludePatterns?)`` (JSON), ``move_file(source, destination)``,
  ``search_files(path, pattern, excludePatterns?)`` (full paths), ``get_file_info(path)``,
  ``list_allowed_directories()``. Served over MCP, the allowed directories are the client's
  roots when it has any, else the root (see :mod:`applydiff.tools.roots`).
- ``fast-apply``: ``edit_file(target_file, instructions, code_edit)``, a lazy snippet with
  ``// ... existing code ...`` lines, merged here instead of by a second model; with
  ``read_file``, ``write_file`` and ``status``.
- ``anthropic``: the text-editor tool ``str_replace_based_edit_tool`` (view, create,
  str_replace, insert, undo_edit) alone.

The edits themselves go through the same engine as every other tool: the matching ladder
where the reference tools want bytes, a refusal with the reason where they would guess (the
reference filesystem server replaces the first of several matches; here that is refused as
ambiguous), all files or none.
"""

from __future__ import annotations

from . import names
from .text import split_lines

COMPATS = names.COMPATS

# The tool keys each dialect offers (their specs are in the tool catalogue,
# :data:`applydiff.tools.SPECS`).
TOOLS = {
    "filesystem": (
        "read_file:filesystem",
        "read_text_file",
        "read_multiple_files",
        "write_file:filesystem",
        "edit_file:filesystem",
        "create_directory",
        "list_directory",
        "list_directory_with_sizes",
        "directory_tree",
        "move_file",
        "search_files",
        "get_file_info",
        "list_allowed_directories",
    ),
    "fast-apply": ("read_file", "edit_file:fast_apply", "write_file", "status"),
    "anthropic": ("str_replace_based_edit_tool",),
}


def check(compat: str) -> str:
    if compat not in COMPATS:
        raise ValueError(f"unknown compat dialect {compat!r}; expected one of {COMPATS}")
    return compat


def head_tail(text: str, head: int | None, tail: int | None) -> str:
    """The first ``head`` or last ``tail`` lines of ``text``, line terminators kept."""
    lines = split_lines(text)
    if head is not None:
        return "".join(lines[:head])
    if tail is not None:
        return "".join(lines[-tail:]) if tail else ""
    return text


def diff_fence(diff: str) -> str:
    """``diff`` in a ```diff fence longer than any backtick run inside it."""
    ticks = 3
    while "`" * ticks in diff:
        ticks += 1
    fence = "`" * ticks
    return f"{fence}diff\n{diff}{'' if diff.endswith(chr(10)) or not diff else chr(10)}{fence}\n"


__all__ = ["COMPATS", "TOOLS", "check", "diff_fence", "head_tail"]
