"""Tools for models: their definitions, the profiles by model size, and the layer running calls.

- :mod:`.catalogue`: every tool's name, description and schema; :func:`tool_definitions`
  gives the tools of a ``diff_mode`` (or a drop-in dialect) the OpenAI, Anthropic or MCP way.
- :mod:`.profiles`: the diff modes, and :func:`profile_for` / :func:`mode_for` picking one by
  model size (``qwen2.5-coder:1.5b`` -> ``nano`` -> ``diff_block``).
- :mod:`.layer`: :class:`ToolLayer` runs calls (``handle_tool_call(name, arguments) ->
  ToolResult``) through a table of handlers: read_file, find_files, status and edits from
  :mod:`.base_layer`, the filesystem dialect's from :mod:`.filesystem_dialect`, the text
  editor's from :mod:`.text_editor`; :mod:`.advice` fits each answer's advice to the tools
  offered; :mod:`.listing` walks the tree as the model may see it.
- :mod:`.roots`: several allowed directories (an MCP client's roots), a layer each.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from .catalogue import (
    DIALECTS,
    EDIT_TOOLS,
    SPECS,
    TEXT_EDITOR,
    describe,
    object_schema,
    tool_annotations,
    tool_definitions,
    tool_keys,
    tool_names,
)
from .profiles import DEFAULT_MODE, MODES, PROFILES, mode_for, parameters_b, profile_for

if TYPE_CHECKING:
    from .base_layer import READ_LIMIT, ToolResult
    from .layer import ToolLayer

# The layer (and the workspace and engine under it) loads at first use: the names, schemas
# and modes alone (a command line's --help) do not need it.
_LAZY = {"READ_LIMIT": "base_layer", "ToolResult": "base_layer", "ToolLayer": "layer"}


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "DEFAULT_MODE",
    "DIALECTS",
    "EDIT_TOOLS",
    "MODES",
    "PROFILES",
    "READ_LIMIT",
    "SPECS",
    "TEXT_EDITOR",
    "ToolLayer",
    "ToolResult",
    "describe",
    "mode_for",
    "object_schema",
    "parameters_b",
    "profile_for",
    "tool_annotations",
    "tool_definitions",
    "tool_keys",
    "tool_names",
]
