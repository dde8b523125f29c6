"""The tool catalogue: every tool's name, description and schema, and what each mode offers."""

from __future__ import annotations

import copy
import json
from typing import Any

from .. import compat as compat_mod
from .. import names
from ..formats.tool_calls import TOOLS
from .listing import FIND_LINES, FIND_PATHS, TREE_LIMIT
from .profiles import DEFAULT_MODE, MODES

DIALECTS = names.DIALECTS
EDIT_TOOLS = frozenset(TOOLS)  # the calls that edit: batched, all or none, per message

_RULES = (
    "Rules: the search text must match the file exactly once (copy it from read_file, "
    "without the line numbers); add surrounding lines to make it unique. Edits apply in "
    "order, each seeing the previous ones, and all or nothing: if one fails, nothing is "
    "written and you get the reason. Pass the file_id from read_file to make sure you edit "
    "the version you read."
)


def object_schema(properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    """The JSON schema of an object with these ``properties``, the ``required`` ones, and no
    others."""
    return {
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": False,
    }


_PATH = {"type": "string", "description": "File path relative to the project root."}
_FILE_ID = {
    "type": "string",
    "description": "The file_id read_file gave for this file (optional; refuses a stale edit).",
}
_LINES = {"type": "array", "items": {"type": "string"}}

# MCP tool annotations. Every tool works on the project's files only (not an open world). A
# read changes nothing; a write says whether it may change or remove what is there
# (destructive) and whether the same call again leaves the tree as the first one did
# (idempotent). The table in the README's MCP section gives the reasons, tool by tool.
READ_ONLY: dict[str, bool] = {"readOnlyHint": True, "openWorldHint": False}


def _writes(*, destructive: bool, idempotent: bool) -> dict[str, bool]:
    return {
        "readOnlyHint": False,
        "destructiveHint": destructive,
        "idempotentHint": idempotent,
        "openWorldHint": False,
    }


# Overwrites a whole file; the same content again leaves it as it is.
_OVERWRITES = _writes(destructive=True, idempotent=True)
# Changes or removes existing lines; sent again it fails (the old text is gone) or, where the
# old text is still there (an insertion), changes the file a second time.
_EDITS = _writes(destructive=True, idempotent=False)

_OWN_SPECS: dict[str, dict[str, Any]] = {
    "read_file": {
        "description": (
            "Read a file: its lines numbered, and its file_id. Read a file before editing "
            "it; edits are matched against what you read."
        ),
        "schema": object_schema(
            {
                "path": _PATH,
                "start_line": {"type": "integer", "minimum": 1},
                "end_line": {"type": "integer", "minimum": 1},
            },
            ["path"],
        ),
        "example": {"path": "src/app.py"},
    },
    "find_files": {
        "description": (
            "Find files in the project: the paths under `path` (default: the whole project) "
            "that match the glob `pattern` ('*.py' matches at any depth, 'src/**/*.ts' under "
            "src; default: every file). With `contains`, the lines of those files that contain "
            "that text exactly, as path:line: text. Ignored files are left out; at most "
            f"{FIND_PATHS} paths or {FIND_LINES} lines per call."
        ),
        "schema": object_schema(
            {
                "pattern": {"type": "string", "description": "A glob such as '*.py'."},
                "contains": {"type": "string", "description": "Text the lines must contain."},
                "path": {"type": "string", "description": "A directory to search under."},
            },
            [],
        ),
        "example": {"pattern": "*.py", "contains": "def run"},
    },
    "write_file": {
        "description": (
            "Create a file, or replace a whole file's content. Prefer an edit for small "
            "changes to big files; send the whole file when most of it changes."
        ),
        "schema": object_schema(
            {"path": _PATH, "content": {"type": "string"}, "file_id": _FILE_ID}, ["path", "content"]
        ),
        "example": {"path": "docs/notes.md", "content": "# Notes\n"},
    },
    "edit_file:search_replace_multi": {
        "name": "edit_file",
        "description": (
            "Edit files: each edit replaces old_string (copied exactly from the file, "
            "including indentation) with new_string. Several edits, in several files, go in "
            "one call. Set replace_all to change every occurrence of old_string. " + _RULES
        ),
        "schema": object_schema(
            {
                "edits": {
                    "type": "array",
                    "minItems": 1,
                    "items": object_schema(
                        {
                            "path": _PATH,
                            "old_string": {"type": "string"},
                            "new_string": {"type": "string"},
                            "replace_all": {"type": "boolean"},
                            "file_id": _FILE_ID,
                        },
                        ["path", "old_string", "new_string"],
                    ),
                }
            },
            ["edits"],
        ),
        "example": {
            "edits": [
                {
                    "path": "src/app.py",
                    "old_string": "def run():\n    return 1\n",
                    "new_string": "def run():\n    return 2\n",
                }
            ]
        },
    },
    "edit_file:search_replace": {
        "name": "edit_file",
        "description": (
            "Edit a file: replace old_string (copied exactly from the file, including "
            "indentation) with new_string. Set replace_all to change every occurrence. " + _RULES
        ),
        "schema": object_schema(
            {
                "path": _PATH,
                "old_string": {"type": "string"},
                "new_string": {"type": "string"},
                "replace_all": {"type": "boolean"},
                "file_id": _FILE_ID,
            },
            ["path", "old_string", "new_string"],
        ),
        "example": {"path": "src/app.py", "old_string": "return 1", "new_string": "return 2"},
    },
    "edit_file:anchored": {
        "name": "edit_file",
        "description": (
            "Edit a file by anchors: each change replaces the lines from `start` through "
            "`end` (lines quoted exactly from the file; leave `end` out to replace just the "
            "`start` lines) with `content`. `start` must match one place only. " + _RULES
        ),
        "schema": object_schema(
            {
                "path": _PATH,
                "changes": {
                    "type": "array",
                    "minItems": 1,
                    "items": object_schema(
                        {"start": _LINES, "end": _LINES, "content": _LINES},
                        ["start", "content"],
                    ),
                },
                "file_id": _FILE_ID,
            },
            ["path", "changes"],
        ),
        "example": {
            "path": "src/app.py",
            "changes": [
                {
                    "start": ["def run():"],
                    "end": ["    return 1"],
                    "content": ["def run():", "    return 2"],
                }
            ],
        },
    },
    "diff_edit": {
        "description": (
            "Edit a file with SEARCH/REPLACE blocks:\n<<<<<<< SEARCH\nlines copied exactly "
            "from the file\n=======\nthe new lines\n>>>>>>> REPLACE\nSeveral blocks may follow "
            "each other. " + _RULES
        ),
        "schema": object_schema(
            {"path": _PATH, "diff": {"type": "string"}, "file_id": _FILE_ID}, ["path", "diff"]
        ),
        "example": {
            "path": "src/app.py",
            "diff": "<<<<<<< SEARCH\n    return 1\n=======\n    return 2\n>>>>>>> REPLACE\n",
        },
    },
    "apply_diff": {
        "description": (
            "Edit a file with SEARCH/REPLACE blocks that say where they start:\n<<<<<<< SEARCH\n"
            ":start_line:12\n-------\nlines copied exactly from the file\n=======\nthe new "
            "lines\n>>>>>>> REPLACE\nstart_line is a hint that picks between equal places. "
            "Escape a marker line inside the content with a backslash (\\=======). " + _RULES
        ),
        "schema": object_schema(
            {"path": _PATH, "diff": {"type": "string"}, "file_id": _FILE_ID}, ["path", "diff"]
        ),
        "example": {
            "path": "src/app.py",
            "diff": "<<<<<<< SEARCH\n:start_line:2\n-------\n    return 1\n=======\n    return 2"
            "\n>>>>>>> REPLACE\n",
        },
    },
    "apply_patch": {
        "description": (
            "Change files with a patch:\n*** Begin Patch\n*** Update File: PATH\n@@ optional "
            "line such as a def or class header\n context line\n-removed line\n+added line\n"
            "*** Add File: PATH\n+line\n*** Delete File: PATH\n*** End Patch\nUse *** Move to: "
            "NEWPATH after an Update File line to rename. " + _RULES
        ),
        "schema": object_schema({"input": {"type": "string"}}, ["input"]),
        "example": {
            "input": "*** Begin Patch\n*** Update File: src/app.py\n@@ def run():\n-    return 1"
            "\n+    return 2\n*** End Patch\n"
        },
    },
    "status": {
        "description": (
            "List the files of this session with their review status: M modified, A added, "
            "D deleted by you and pending review; ~ changed on disk since you read it; ~M both."
        ),
        "schema": object_schema({}, []),
        "example": {},
    },
}

_MODE_TOOL = {
    "search_replace_multi": "edit_file:search_replace_multi",
    "search_replace": "edit_file:search_replace",
    "anchored": "edit_file:anchored",
    "diff_block": "diff_edit",
    "apply_diff": "apply_diff",
    "patch": "apply_patch",
    "off": None,
}

TEXT_EDITOR = "str_replace_based_edit_tool"
_TEXT_EDITOR_SPEC: dict[str, Any] = {
    "description": (
        "View and edit files (Anthropic text editor commands): view (path, view_range), create "
        "(path, file_text), str_replace (path, old_str, new_str: old_str must match once), "
        "insert (path, insert_line, new_str: inserted after that line, 0 for the top), "
        "undo_edit (path)."
    ),
    "schema": object_schema(
        {
            "command": {
                "type": "string",
                "enum": ["view", "create", "str_replace", "insert", "undo_edit"],
            },
            "path": _PATH,
            "file_text": {"type": "string"},
            "old_str": {"type": "string"},
            "new_str": {"type": "string"},
            "insert_line": {"type": "integer", "minimum": 0},
            "insert_text": {"type": "string"},
            "view_range": {"type": "array", "items": {"type": "integer"}, "maxItems": 2},
        },
        ["command", "path"],
    ),
    "example": {
        "command": "str_replace",
        "path": "src/app.py",
        "old_str": "return 1",
        "new_str": "return 2",
    },
}


# The drop-in dialects' own tools (see :mod:`applydiff.compat`), under their names and schemas.
_STR = {"type": "string"}

_DIALECT_SPECS: dict[str, dict[str, Any]] = {
    "read_file:filesystem": {
        "name": "read_file",
        "description": (
            "Read a file as text: read_text_file's older name, kept for the agents that call "
            "it. head: only its first N lines; tail: only its last N lines (not both)."
        ),
        "schema": object_schema(
            {
                "path": _STR,
                "head": {"type": "number", "description": "Only the first N lines."},
                "tail": {"type": "number", "description": "Only the last N lines."},
            },
            ["path"],
        ),
        "example": {"path": "src/app.py", "head": 20},
    },
    "read_text_file": {
        "description": (
            "Read a file as text. head: only its first N lines; tail: only its last N lines "
            "(not both). Read a file before editing it."
        ),
        "schema": object_schema(
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
        "schema": object_schema(
            {"paths": {"type": "array", "items": _STR, "minItems": 1}}, ["paths"]
        ),
        "example": {"paths": ["src/app.py", "README.md"]},
    },
    "write_file:filesystem": {
        "name": "write_file",
        "description": "Create a file, or overwrite a whole file with new content.",
        "schema": object_schema({"path": _STR, "content": _STR}, ["path", "content"]),
        "example": {"path": "docs/notes.md", "content": "# Notes\n"},
    },
    "edit_file:filesystem": {
        "name": "edit_file",
        "description": (
            "Edit a text file: each edit replaces oldText (copied from the file; it must match "
            "one place) with newText. Edits apply in order, all or none. Answers with a "
            "git-style diff of the change; with dryRun the diff only, nothing written."
        ),
        "schema": object_schema(
            {
                "path": _STR,
                "edits": {
                    "type": "array",
                    "minItems": 1,
                    "items": object_schema(
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
        "schema": object_schema({"source": _STR, "destination": _STR}, ["source", "destination"]),
        "example": {"source": "src/old.py", "destination": "src/new.py"},
    },
    "list_directory": {
        "description": (
            "List a directory: one entry per line, [DIR] or [FILE] before its name. Use '.' "
            "for the project root."
        ),
        "schema": object_schema({"path": _STR}, ["path"]),
        "example": {"path": "."},
    },
    "list_directory_with_sizes": {
        "description": (
            "List a directory with sizes: [DIR] or [FILE] before each name, a file's size "
            "after it, then the count of files and directories and their combined size. "
            "sortBy: 'name' (default) or 'size' (largest first)."
        ),
        "schema": object_schema(
            {
                "path": _STR,
                "sortBy": {"type": "string", "enum": ["name", "size"], "default": "name"},
            },
            ["path"],
        ),
        "example": {"path": ".", "sortBy": "size"},
    },
    "directory_tree": {
        "description": (
            "The tree under a directory as JSON: a list of entries, each with 'name', 'type' "
            "('file' or 'directory') and, for a directory, 'children' (a list, maybe empty). "
            "excludePatterns: globs of paths or names to leave out ('node_modules', '*.log'). "
            f"At most {TREE_LIMIT} entries."
        ),
        "schema": object_schema(
            {"path": _STR, "excludePatterns": {"type": "array", "items": _STR, "default": []}},
            ["path"],
        ),
        "example": {"path": ".", "excludePatterns": ["*.log"]},
    },
    "search_files": {
        "description": (
            "Find files and directories under a directory whose path matches a glob pattern "
            "('*.py' matches at any depth, 'src/**/*.ts' under src; a pattern without * or ? "
            "matches names that contain it, in any case). excludePatterns: globs to leave "
            f"out. Answers with full paths, one per line (at most {TREE_LIMIT})."
        ),
        "schema": object_schema(
            {
                "path": _STR,
                "pattern": _STR,
                "excludePatterns": {"type": "array", "items": _STR, "default": []},
            },
            ["path", "pattern"],
        ),
        "example": {"path": ".", "pattern": "*.py"},
    },
    "get_file_info": {
        "description": (
            "A file's or directory's metadata, one 'key: value' per line: size, created, "
            "modified and accessed times, isDirectory, isFile, permissions."
        ),
        "schema": object_schema({"path": _STR}, ["path"]),
        "example": {"path": "src/app.py"},
    },
    "create_directory": {
        "description": (
            "Create a directory, with its parents as needed; a directory that exists already "
            "is fine."
        ),
        "schema": object_schema({"path": _STR}, ["path"]),
        "example": {"path": "src/utils"},
    },
    "list_allowed_directories": {
        "description": (
            "The directories this server may read and write (and everything under them). "
            "Call it first to know where paths may point."
        ),
        "schema": object_schema({}, []),
        "example": {},
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
        "schema": object_schema(
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

# Every tool key -> its spec: "name" (when the key is not the name), "description", "schema",
# "example" (arguments valid against the schema).
SPECS: dict[str, dict[str, Any]] = {
    **_OWN_SPECS,
    TEXT_EDITOR: _TEXT_EDITOR_SPEC,
    **_DIALECT_SPECS,
}


# Every tool key -> its MCP annotations (see READ_ONLY and _writes above).
ANNOTATIONS: dict[str, dict[str, bool]] = {
    "read_file": READ_ONLY,
    "find_files": READ_ONLY,
    "status": READ_ONLY,
    "write_file": _OVERWRITES,
    "edit_file:search_replace_multi": _EDITS,
    "edit_file:search_replace": _EDITS,
    "edit_file:anchored": _EDITS,
    "diff_edit": _EDITS,
    "apply_diff": _EDITS,
    # Adds, changes, deletes and moves files: sent again, its changes fail or repeat.
    "apply_patch": _EDITS,
    # create overwrites, str_replace and insert change lines, undo_edit takes a change back.
    TEXT_EDITOR: _EDITS,
    "read_file:filesystem": READ_ONLY,
    "read_text_file": READ_ONLY,
    "read_multiple_files": READ_ONLY,
    "list_directory": READ_ONLY,
    "list_directory_with_sizes": READ_ONLY,
    "directory_tree": READ_ONLY,
    "search_files": READ_ONLY,
    "get_file_info": READ_ONLY,
    "list_allowed_directories": READ_ONLY,
    "write_file:filesystem": _OVERWRITES,
    "edit_file:filesystem": _EDITS,
    "edit_file:fast_apply": _EDITS,
    # Makes what is missing and never removes anything; the same call again changes nothing.
    "create_directory": _writes(destructive=False, idempotent=True),
    # Never overwrites (the destination must not exist), but the source path is gone after it:
    # not additive. Sent again, it fails (the source is gone).
    "move_file": _writes(destructive=True, idempotent=False),
}


def tool_annotations(key: str) -> dict[str, bool]:
    """The MCP annotations of the tool ``key`` (readOnlyHint, destructiveHint, ...)."""
    return dict(ANNOTATIONS[key])


def tool_names(mode: str, compat: str | None = None) -> list[str]:
    """The tool keys of ``mode``: read_file, find_files, write_file, its edit tool, status;
    with ``compat``, that dialect's tools instead (see :mod:`applydiff.compat`)."""
    if compat is not None:
        return list(compat_mod.TOOLS[compat_mod.check(compat)])
    if mode not in MODES:
        raise ValueError(f"unknown diff_mode {mode!r}; expected one of {MODES}")
    edit = _MODE_TOOL[mode]
    return ["read_file", "find_files", "write_file", *([edit] if edit else []), "status"]


def tool_keys(mode: str, *, text_editor: bool = False, compat: str | None = None) -> list[str]:
    """The tool keys a layer offers: the mode's or the compat dialect's, with the text
    editor when asked for (once)."""
    keys = tool_names(mode, compat)
    if text_editor and TEXT_EDITOR not in keys:
        keys.append(TEXT_EDITOR)
    return keys


def describe(key: str) -> tuple[str, str, dict[str, Any], dict[str, Any]]:
    """(name, description with its example call, JSON schema, example arguments)."""
    spec = SPECS[key]
    name = spec.get("name", key.split(":")[0])
    example = spec["example"]
    text = spec["description"] + "\nExample: " + json.dumps(example)
    return name, text, copy.deepcopy(spec["schema"]), copy.deepcopy(example)


def tool_definitions(
    mode: str = DEFAULT_MODE,
    dialect: str = "openai",
    *,
    text_editor: bool = False,
    compat: str | None = None,
) -> list[dict[str, Any]]:
    """The tools of ``mode`` (or of the ``compat`` dialect) as ``dialect`` declares them
    (OpenAI function tools, Anthropic tools, or MCP tools); ``text_editor`` adds Anthropic's
    text-editor tool."""
    if dialect not in DIALECTS:
        raise ValueError(f"unknown dialect {dialect!r}; expected one of {DIALECTS}")
    keys = tool_keys(mode, text_editor=text_editor, compat=compat)
    out = []
    for key in keys:
        name, text, schema, _ = describe(key)
        if dialect == "openai":
            out.append(
                {
                    "type": "function",
                    "function": {"name": name, "description": text, "parameters": schema},
                }
            )
        elif dialect == "anthropic":
            out.append({"name": name, "description": text, "input_schema": schema})
        else:
            out.append(
                {
                    "name": name,
                    "description": text,
                    "inputSchema": schema,
                    "annotations": tool_annotations(key),
                }
            )
    return out
