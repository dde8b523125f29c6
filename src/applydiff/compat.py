"""Drop-in tool dialects: the tools other agents' tooling already defines, under their names
and with their argument schemas, so an agent switches to applydiff without a prompt change.

- ``filesystem``: the reference MCP filesystem server's file tools — ``read_text_file(path,
  head?, tail?)`` (raw text), ``read_multiple_files(paths)``, ``write_file(path, content)``,
  ``edit_file(path, edits[{oldText, newText}], dryRun?)`` (answers with a git-style diff,
  also on a dry run), ``move_file(source, destination)``, ``list_directory(path)``.
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

from typing import Any

from .text import split_lines

COMPATS = ("filesystem", "fast-apply", "anthropic")


def _object(properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": False,
    }


_STR = {"type": "string"}

SPECS: dict[str, dict[str, Any]] = {
    "read_text_file": {
        "description": (
            "Read a file as text. head: only its first N lines; tail: only its last N lines "
            "(not both). Read a file before editing it."
        ),
        "schema": _object(
            {
                "path": _STR,
                "head": {"type": "number", "description": "Only the first N lines."},
                "tail": {"type": "number", "description": "Only the last N lines."},
            },
            ["path"],
        ),
        "example": {"path": "src/app.py"},
    },
    "read_multiple_files": {
        "description": (
            "Read several files at once; each comes back after its path. A file that cannot "
            "be read gives its error and does not stop the others."
        ),
        "schema": _object({"paths": {"type": "array", "items": _STR, "minItems": 1}}, ["paths"]),
        "example": {"paths": ["src/app.py", "README.md"]},
    },
    "write_file:filesystem": {
        "name": "write_file",
        "description": "Create a file, or overwrite a whole file with new content.",
        "schema": _object({"path": _STR, "content": _STR}, ["path", "content"]),
        "example": {"path": "docs/notes.md", "content": "# Notes\n"},
    },
    "edit_file:filesystem": {
        "name": "edit_file",
        "description": (
            "Edit a text file: each edit replaces oldText (copied from the file; it must match "
            "one place) with newText. Edits apply in order, all or none. Answers with a "
            "git-style diff of the change; with dryRun the diff only, nothing written."
        ),
        "schema": _object(
            {
                "path": _STR,
                "edits": {
                    "type": "array",
                    "minItems": 1,
                    "items": _object(
                        {
                            "oldText": {
                                "type": "string",
                                "description": "Text to search for, as it is in the file.",
                            },
                            "newText": {"type": "string", "description": "Text to put there."},
                        },
                        ["oldText", "newText"],
                    ),
                },
                "dryRun": {
                    "type": "boolean",
                    "default": False,
                    "description": "Show the diff without writing.",
                },
            },
            ["path", "edits"],
        ),
        "example": {
            "path": "src/app.py",
            "edits": [{"oldText": "    return 1\n", "newText": "    return 2\n"}],
            "dryRun": True,
        },
    },
    "move_file": {
        "description": (
            "Move or rename a file. Fails if the destination exists. Edits made in the same "
            "message apply together with it, all or none."
        ),
        "schema": _object({"source": _STR, "destination": _STR}, ["source", "destination"]),
        "example": {"source": "src/old.py", "destination": "src/new.py"},
    },
    "list_directory": {
        "description": (
            "List a directory: one entry per line, [DIR] or [FILE] before its name. Use '.' "
            "for the project root."
        ),
        "schema": _object({"path": _STR}, ["path"]),
        "example": {"path": "."},
    },
    "edit_file:fast_apply": {
        "name": "edit_file",
        "description": (
            "Edit a file by writing only what changes. code_edit holds the changed lines with "
            "a few unchanged lines around each change, and a comment line such as "
            "'// ... existing code ...' (in the file's comment syntax) wherever unchanged code "
            "is left out. Start and end each changed part with unchanged lines copied from the "
            "file so its place is unique; to delete lines, show the lines around them without "
            "them. instructions: one sentence saying what the edit does. Refused, with the "
            "reason, when a part cannot be placed for sure: then add a line of context."
        ),
        "schema": _object(
            {
                "target_file": {"type": "string", "description": "The file to edit."},
                "instructions": {
                    "type": "string",
                    "description": "One sentence, first person, on what the edit does.",
                },
                "code_edit": {
                    "type": "string",
                    "description": "The changed code, '... existing code ...' for the rest.",
                },
            },
            ["target_file", "instructions", "code_edit"],
        ),
        "example": {
            "target_file": "src/app.py",
            "instructions": "I make run return 2.",
            "code_edit": "# ... existing code ...\ndef run():\n    return 2\n\n\n"
            "def stop():\n# ... existing code ...\n",
        },
    },
}

# The tool keys each dialect offers (keys of SPECS, or of the tool layer's own tools).
TOOLS = {
    "filesystem": (
        "read_text_file",
        "read_multiple_files",
        "write_file:filesystem",
        "edit_file:filesystem",
        "move_file",
        "list_directory",
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


__all__ = ["COMPATS", "SPECS", "TOOLS", "check", "diff_fence", "head_tail"]
