"""The tool layer: tool definitions for models, profiles, and dispatch of their calls.

- :func:`tool_definitions` gives the tools of a ``diff_mode`` in the OpenAI, Anthropic or MCP
  dialect; their descriptions teach the rules (uniqueness, ``replace_all``, ``file_id``, edits
  apply in order, all or nothing) and carry an example call valid against their own schema.
- :func:`profile_for` infers a profile from a model name (``qwen2.5-coder:1.5b`` -> ``nano``).
- :class:`ToolLayer` runs calls: ``handle_tool_call(name, arguments) -> ToolResult``, with
  ``read_file`` recording what the model was shown, the read-before-edit gate, review mode,
  the feedback text, and Anthropic's text-editor commands.
"""

from __future__ import annotations

import copy
import json
import math
import os
import re
import sqlite3
from dataclasses import dataclass, field
from typing import Any, TypeGuard

from . import compat as compat_mod
from . import feedback
from .errors import CONFLICT, IO_ERROR, EditError
from .formats.tool_calls import TOOLS
from .ir import Move, Op, Replace, Write
from .session import Session
from .text import count_lines, dominant_eol, ends_line, file_id, split_lines
from .workspace import Result, Workspace

MODES = (
    "search_replace_multi",
    "search_replace",
    "anchored",
    "diff_block",
    "apply_diff",
    "patch",
    "off",
)
DEFAULT_MODE = "search_replace_multi"
DIALECTS = ("openai", "anthropic", "mcp")
PROFILES: dict[str, dict[str, Any]] = {
    "nano": {"max_params_b": 4.0, "mode": "diff_block"},  # write_file + SEARCH/REPLACE text
    "minimal": {"max_params_b": 15.0, "mode": "search_replace"},  # write_file + edit_file
    "full": {"max_params_b": None, "mode": DEFAULT_MODE},
}

_RULES = (
    "Rules: the search text must match the file exactly once (copy it from read_file, "
    "without the line numbers); add surrounding lines to make it unique. Edits apply in "
    "order, each seeing the previous ones, and all or nothing: if one fails, nothing is "
    "written and you get the reason. Pass the file_id from read_file to make sure you edit "
    "the version you read."
)


def _schema(properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
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

_TOOLS: dict[str, dict[str, Any]] = {
    "read_file": {
        "description": (
            "Read a file: its lines numbered, and its file_id. Read a file before editing "
            "it; edits are matched against what you read."
        ),
        "schema": _schema(
            {
                "path": _PATH,
                "start_line": {"type": "integer", "minimum": 1},
                "end_line": {"type": "integer", "minimum": 1},
            },
            ["path"],
        ),
        "example": {"path": "src/app.py"},
    },
    "write_file": {
        "description": (
            "Create a file, or replace a whole file's content. Prefer an edit for small "
            "changes to big files; send the whole file when most of it changes."
        ),
        "schema": _schema(
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
        "schema": _schema(
            {
                "edits": {
                    "type": "array",
                    "minItems": 1,
                    "items": _schema(
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
        "schema": _schema(
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
        "schema": _schema(
            {
                "path": _PATH,
                "changes": {
                    "type": "array",
                    "minItems": 1,
                    "items": _schema(
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
        "schema": _schema(
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
        "schema": _schema(
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
        "schema": _schema({"input": {"type": "string"}}, ["input"]),
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
        "schema": _schema({}, []),
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
_TEXT_EDITOR: dict[str, Any] = {
    "description": (
        "View and edit files (Anthropic text editor commands): view (path, view_range), create "
        "(path, file_text), str_replace (path, old_str, new_str: old_str must match once), "
        "insert (path, insert_line, new_str: inserted after that line, 0 for the top), "
        "undo_edit (path)."
    ),
    "schema": _schema(
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


def tool_names(mode: str, compat: str | None = None) -> list[str]:
    """The tool keys of ``mode``: read_file, write_file, its edit tool, status; with
    ``compat``, that dialect's tools instead (see :mod:`applydiff.compat`)."""
    if compat is not None:
        return list(compat_mod.TOOLS[compat_mod.check(compat)])
    if mode not in MODES:
        raise ValueError(f"unknown diff_mode {mode!r}; expected one of {MODES}")
    edit = _MODE_TOOL[mode]
    return ["read_file", "write_file", *([edit] if edit else []), "status"]


def tool_keys(mode: str, *, text_editor: bool = False, compat: str | None = None) -> list[str]:
    """The tool keys a layer offers: the mode's or the compat dialect's, with the text
    editor when asked for (once)."""
    keys = tool_names(mode, compat)
    if text_editor and TEXT_EDITOR not in keys:
        keys.append(TEXT_EDITOR)
    return keys


def _spec(key: str) -> dict[str, Any]:
    if key == TEXT_EDITOR:
        return _TEXT_EDITOR
    return _TOOLS[key] if key in _TOOLS else compat_mod.SPECS[key]


def describe(key: str) -> tuple[str, str, dict[str, Any], dict[str, Any]]:
    """(name, description with its example call, JSON schema, example arguments)."""
    spec = _spec(key)
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
            out.append({"name": name, "description": text, "inputSchema": schema})
    return out


# -- profiles ------------------------------------------------------------------------------------
# "7b", "1.5B", "8x7b" (experts), "360m", "e2b" (an effective size, as gemma3n states it).
_SIZE = re.compile(r"(?<![\w.])(?:[eE](?=\d))?(?:(\d+)x)?(\d+(?:\.\d+)?)\s*([bBmM])(?![a-zA-Z])")

# Names that state no size: the size their default tag (Ollama's, Hugging Face's) has.
# The first pattern that matches the name wins, so the specific ones come first.
_FAMILY_SIZES: tuple[tuple[re.Pattern[str], float], ...] = tuple(
    (re.compile(pattern, re.IGNORECASE), size)
    for pattern, size in (
        (r"tinyllama", 1.1),
        (r"phi-?3(?:\.5)?[:-]?medium", 14.0),
        (r"phi-?3(?:\.5)?[:-]?small", 7.0),
        (r"llama-?3\.2-?vision", 11.0),
        (r"smollm", 1.7),
        (r"phi-?2\b", 2.7),
        (r"phi-?[34](?:\.\d)?-?mini", 3.8),
        (r"phi-?3(?:\.5)?(?!\d)", 3.8),
        (r"phi-?4(?!\d)", 14.0),
        (r"llama-?3\.2(?!\d)", 3.0),
        (r"llama-?3(?:\.1)?(?![\d.])", 8.0),
        (r"qwen2\.5-?coder", 7.0),
        (r"gemma-?3n", 4.0),
        (r"gemma-?3(?!\d)", 4.0),
        (r"codellama|code-llama", 7.0),
        (r"deepseek-?coder(?!-?v2)", 1.3),
        (r"starcoder2", 3.0),
    )
)


def parameters_b(model: str) -> float | None:
    """Billions of parameters a model name states (``llama3.2:3b`` -> 3.0, ``smollm2:360m``
    -> 0.36, ``gemma3n:e2b`` -> 2.0) or, for a known family named without a size, its
    default size (``tinyllama`` -> 1.1); None for anything else."""
    best = None
    for m in _SIZE.finditer(model.replace("_", "-")):
        experts = int(m.group(1) or 1)
        size = float(m.group(2)) * experts / (1000.0 if m.group(3) in "mM" else 1.0)
        best = size if best is None else max(best, size)
    if best is not None:
        return best
    for pattern, size in _FAMILY_SIZES:
        if pattern.search(model):
            return size
    return None


def profile_for(model: str) -> str:
    """``nano`` (up to 4B parameters), ``minimal`` (up to 15B), else ``full`` (also when the
    name states no size: hosted models are large)."""
    size = parameters_b(model)
    if size is None:
        return "full"
    for name in ("nano", "minimal"):
        limit = PROFILES[name]["max_params_b"]
        assert isinstance(limit, float)
        if size <= limit:
            return name
    return "full"


def mode_for(profile: str | None = None, model: str | None = None, mode: str | None = None) -> str:
    """The diff_mode to use: an explicit ``mode`` wins, then the profile (given or inferred
    from the model name), else the default."""
    if mode:
        if mode not in MODES:
            raise ValueError(f"unknown diff_mode {mode!r}; expected one of {MODES}")
        return mode
    if profile is None and model:
        profile = profile_for(model)
    if profile is None:
        return DEFAULT_MODE
    if profile not in PROFILES:
        raise ValueError(f"unknown profile {profile!r}; expected one of {tuple(PROFILES)}")
    value = PROFILES[profile]["mode"]
    assert isinstance(value, str)
    return value


# -- dispatch ------------------------------------------------------------------------------------
@dataclass
class ToolResult:
    """What a tool call gives back: the text the model reads, whether it is an error, and the
    structured result (``Result.to_dict()`` for edits)."""

    text: str
    is_error: bool = False
    result: dict[str, Any] = field(default_factory=dict)


class ToolLayer:
    """Runs a model's tool calls against a root, with a session.

    ``require_read`` (on by default here: the model talks to files through read_file) refuses
    edits to existing files it was never shown; ``review`` keeps outputs pending. A new layer
    is a new conversation (``new_conversation``): what an earlier one was shown, its counters
    and per-file stats are forgotten; outputs pending review and the undo history stay.
    """

    def __init__(
        self,
        root: str | os.PathLike[str],
        *,
        mode: str = DEFAULT_MODE,
        review: bool = False,
        require_read: bool | None = None,
        guidance: str | None = None,
        max_exchanges: int | None = None,
        threshold: float | None = None,
        new_conversation: bool = True,
        compat: str | None = None,
    ) -> None:
        self.mode = mode_for(mode=mode)
        self.compat = None if compat is None else compat_mod.check(compat)
        if require_read is None:
            # The reference filesystem server edits without a read first; its agents do too.
            require_read = self.compat != "filesystem"
        self.review = review
        self.guidance = guidance
        self.max_exchanges = max_exchanges
        self.ws = Workspace(root, require_read=require_read, threshold=threshold)
        self.session = Session(self.ws.root)
        self.ws.session = self.session
        if new_conversation:
            self.session.new_conversation()
        self.conversation = self.session.conversation

    def close(self) -> None:
        self.session.close()

    def definitions(self, dialect: str = "openai", *, text_editor: bool = False) -> list[dict]:
        return tool_definitions(self.mode, dialect, text_editor=text_editor, compat=self.compat)

    def context(self) -> str:
        return feedback.session_context(
            self.session, self.ws, guidance=self.guidance, max_exchanges=self.max_exchanges
        )

    def handle_tool_call(self, name: str, arguments: dict[str, Any] | str) -> ToolResult:
        if isinstance(arguments, str):
            try:
                arguments = json.loads(arguments) if arguments.strip() else {}
            except json.JSONDecodeError as e:
                return _error(f"{name}: the arguments are not valid JSON ({e.msg})")
            except RecursionError:
                return _error(f"{name}: {_TOO_DEEP}")
        if not isinstance(arguments, dict):
            return _error(f"{name}: the arguments must be an object")
        try:
            if self.compat == "filesystem" and name in _FILESYSTEM:
                return getattr(self, _FILESYSTEM[name])(arguments)
            if name == "read_file":
                return self._read(arguments)
            if name == "status":
                return self._status()
            if name in (TEXT_EDITOR, "str_replace_editor"):
                return self._text_editor(arguments)
            call = json.dumps({"name": name, "arguments": arguments})
            return self._apply(call, "tool_calls")
        except EditError as e:  # a path the policy refuses, an unreadable file, ...
            return _error(f"{name}: {e.message}", e)
        except sqlite3.Error as e:  # the session store (locked past its timeout, full disk)
            return _error(
                f"{name}: the session store failed ({e}); nothing was written",
                EditError(str(e), code=IO_ERROR),
            )
        except RecursionError:  # arguments nested past what json and the parsers walk
            return _error(f"{name}: {_TOO_DEEP}")
        except OSError as e:  # the file system refused (a name too long, no permission, ...)
            where = f" ({os.path.basename(e.filename)})" if isinstance(e.filename, str) else ""
            message = f"{name}: {e.strerror or e}{where}"
            return _error(message, EditError(message, code=IO_ERROR))

    def handle_tool_calls(self, calls: list[tuple[str, dict[str, Any] | str]]) -> list[ToolResult]:
        """Several calls of one model message: the edit calls among them apply together, all
        or none, after the others (reads, status, text-editor commands) have run in order.
        One result per call, in order; the first edit call carries the report. (With the
        filesystem dialect each call stands alone, as that server runs them.)"""
        if self.compat == "filesystem":
            return [self.handle_tool_call(name, arguments) for name, arguments in calls]
        results: list[ToolResult | None] = [None] * len(calls)
        batch: list[tuple[int, str, Any]] = []
        for k, (name, arguments) in enumerate(calls):
            if name in EDIT_TOOLS:
                batch.append((k, name, arguments))
            else:
                results[k] = self.handle_tool_call(name, arguments)
        if len(batch) == 1:
            k, name, arguments = batch[0]
            results[k] = self.handle_tool_call(name, arguments)
        elif batch:
            parsed = []
            for _, name, arguments in batch:
                if isinstance(arguments, str):
                    try:
                        arguments = json.loads(arguments) if arguments.strip() else {}
                    except json.JSONDecodeError as e:
                        arguments = f"(not valid JSON: {e.msg})"
                    except RecursionError:
                        arguments = f"({_TOO_DEEP})"
                parsed.append({"name": name, "arguments": arguments})
            try:
                first = self._apply(json.dumps(parsed), "tool_calls")
            except RecursionError:
                first = _error(f"{batch[0][1]}: {_TOO_DEEP}")
            results[batch[0][0]] = first
            together = (
                f"(applied together with the other edit calls of this message, all or none: "
                f"{'applied' if not first.is_error else 'nothing was written'}; the report is "
                "in the result of the first edit call)"
            )
            for k, _, _ in batch[1:]:
                results[k] = ToolResult(together, first.is_error, first.result)
        return [r for r in results if r is not None]

    def apply_text(self, text: str) -> ToolResult:
        """Edits written as text (SEARCH/REPLACE blocks, diffs, patches) in a model's answer."""
        return self._apply(text)

    # -- the tools -----------------------------------------------------------------------------
    def _apply(self, response: str | list[Op], format: str = "auto") -> ToolResult:
        result = self.ws.apply(response, review=self.review, format=format)
        return self._answer(result)

    def _answer(self, result: Result) -> ToolResult:
        text = feedback.report(result, self.ws, review=self.review)
        context = self.context()
        if not result.ok or "Advice:" in context:
            text += "\n\n" + context
        return ToolResult(text, not result.ok, result.to_dict())

    def _shown(self, key: str, tool: str) -> tuple[str, str, str] | ToolResult:
        """What a read of ``key`` shows — (text, status, note) — and the session's record
        of it: in review mode the output pending review, which edits build on; else the
        disk."""
        pending = self.session.pending(key)
        note = ""
        if pending is not None and self.review:
            if pending.output is None:
                message = (
                    f"{tool}: {key} is deleted in the changes pending review; write_file "
                    "creates it again"
                )
                return _error(message, EditError(message, code=IO_ERROR, path=key))
            text, status = pending.output, "pending_output"
            self.session.mark_seen(key)
        else:
            text, status = self.ws.read(key, remember=True).text, "original"
            if pending is not None:
                note = (
                    "\n(an output for this file is pending review: edits to it are refused "
                    "until a person accepts, merges or discards it)"
                )
        self.session.reset_failures(key)
        return text, status, note

    def _read(self, args: dict[str, Any]) -> ToolResult:
        path = args.get("path")
        if not isinstance(path, str):
            return _error("read_file: missing field 'path' (a string)")
        first, last = args.get("start_line", 1), args.get("end_line")
        if not _is_int(first) or (last is not None and not _is_int(last)):
            return _error("read_file: start_line and end_line must be integers")
        key = self.ws.key(path)
        shown = self._shown(key, "read_file")
        if isinstance(shown, ToolResult):
            return shown
        text, status, note = shown
        count = count_lines(text)
        first = max(first, 1)
        if last is not None and last < first:
            return _error(
                f"read_file: the range {first}-{last} is empty (end_line is before start_line)"
            )
        if text and first > count:
            return _error(f"read_file: start_line {first} is past the end of {key} ({count} lines)")
        end = count if last is None else min(last, count)
        shown_end = min(end, first + READ_LIMIT - 1)
        header = f"@file {key} mode=rw status={status} file_id={file_id(text)} lines={count}"
        body = (
            feedback.numbered(text, first=first, last=shown_end, excerpt=False)
            if text
            else "(empty)"
        )
        if shown_end < end:
            body += (
                f"\n... (lines {shown_end + 1}-{end} not shown: at most {READ_LIMIT} lines per "
                f"call; read_file with start_line={shown_end + 1} for the next)"
            )
        return ToolResult(
            header + "\n" + body + note,
            False,
            {"path": key, "file_id": file_id(text), "lines": count, "status": status},
        )

    # -- the filesystem dialect ----------------------------------------------------------------
    def _fs_read(self, args: dict[str, Any]) -> ToolResult:
        path, head, tail = args.get("path"), args.get("head"), args.get("tail")
        if not isinstance(path, str):
            return _error("read_text_file: missing field 'path' (a string)")
        for field_name, value in (("head", head), ("tail", tail)):
            if value is not None and not _is_count(value):
                return _error(f"read_text_file: {field_name} must be a whole number of lines")
        if head is not None and tail is not None:
            return _error("read_text_file: give head or tail, not both")
        key = self.ws.key(path)
        got = self._shown(key, "read_text_file")
        if isinstance(got, ToolResult):
            return got
        text = got[0]
        shown = compat_mod.head_tail(
            text, None if head is None else int(head), None if tail is None else int(tail)
        )
        return ToolResult(shown, False, {"path": key, "file_id": file_id(text)})

    def _fs_read_many(self, args: dict[str, Any]) -> ToolResult:
        paths = args.get("paths")
        if not isinstance(paths, list) or not paths or not all(isinstance(p, str) for p in paths):
            return _error("read_multiple_files: 'paths' must be a non-empty list of strings")
        parts, files = [], []
        for path in paths:
            try:
                got = self._fs_read({"path": path})
            except EditError as e:
                got = _error(e.message, e)
            if got.is_error:
                reason = got.text.removeprefix("read_text_file: ")
                parts.append(f"{path}: Error - {reason}")
                files.append({"path": path, "error": got.result["errors"][0]["code"]})
                continue
            parts.append(f"{path}:\n{got.text}\n")
            files.append(got.result)
        return ToolResult("\n---\n".join(parts), False, {"files": files})

    def _fs_write(self, args: dict[str, Any]) -> ToolResult:
        answer = self._fs_apply("write_file", args, dry_run=False)
        if answer.is_error:
            return answer
        return ToolResult(
            f"Successfully wrote to {args['path']}" + _kept(self.review), False, answer.result
        )

    def _fs_edit(self, args: dict[str, Any]) -> ToolResult:
        dry = args.get("dryRun", False)
        if not isinstance(dry, bool):
            return _error("edit_file: dryRun must be true or false")
        rest = {k: v for k, v in args.items() if k != "dryRun"}
        return self._fs_apply("edit_file", rest, dry_run=dry)

    def _fs_apply(self, name: str, args: dict[str, Any], *, dry_run: bool) -> ToolResult:
        """A filesystem-dialect edit: on success a git-style diff of what it changes (also on
        a dry run, which writes nothing), on failure the usual feedback."""
        call = json.dumps({"name": name, "arguments": args})
        result = self.ws.apply(call, review=self.review, format="tool_calls", dry_run=dry_run)
        if not result.ok:
            return self._answer(result)
        diff = "".join(d for _, d in result.diffs())
        if not diff:
            return ToolResult("No changes: the file already reads so.", False, result.to_dict())
        text = compat_mod.diff_fence(diff) + ("" if dry_run else _kept(result.review))
        return ToolResult(text, False, result.to_dict())

    def _fs_move(self, args: dict[str, Any]) -> ToolResult:
        source, destination = args.get("source"), args.get("destination")
        if not isinstance(source, str) or not isinstance(destination, str):
            return _error("move_file: 'source' and 'destination' are required strings")
        target = self.ws.key(destination)
        if self._exists(target):  # the reference server never overwrites
            raise EditError(
                f"{target} already exists; move it away or delete it first",
                code=CONFLICT,
                path=target,
            )
        answer = self._apply([Move(source, destination)])
        if answer.is_error:
            return answer
        text = f"Successfully moved {source} to {destination}" + _kept(self.review)
        return ToolResult(text, False, answer.result)

    def _exists(self, key: str) -> bool:
        """Whether ``key`` is a file as the model sees the tree (in review mode: with the
        outputs pending review)."""
        if self.review and (pending := self.session.pending(key)) is not None:
            return pending.output is not None
        return os.path.lexists(self.ws.root / key)

    def _fs_list(self, args: dict[str, Any]) -> ToolResult:
        path = args.get("path")
        if not isinstance(path, str):
            return _error("list_directory: missing field 'path' (a string)")
        policy = self.ws.policy
        raw = path.strip() or "."
        joined = raw if os.path.isabs(raw) else os.path.join(policy.root, raw)
        if "\x00" not in raw and os.path.realpath(joined) == str(policy.root):
            key, where = "", policy.root
        else:
            key, where = policy.resolve(path)
            if not policy.allowed(key, is_dir=True):
                raise EditError(
                    f"{path!r} is not allowed: the ignore rules hide it", code="path_denied"
                )
        prefix = f"{key}/" if key else ""
        # In review mode, the files under it the session knows, and whether reads show them.
        rows = self.ws.status() if self.review else []
        known = {r["path"]: self._exists(r["path"]) for r in rows if r["path"].startswith(prefix)}
        if not where.is_dir() and not any(known.values()):  # pending outputs can make one
            what = "is not a directory" if where.exists() else "does not exist"
            raise EditError(f"{key or path} {what}", code=IO_ERROR, path=key)
        found: dict[str, bool] = {}  # name -> is a directory
        for entry in os.scandir(where) if where.is_dir() else ():
            child = f"{key}/{entry.name}" if key else entry.name
            try:
                _, real = policy.resolve(child)  # a link out of the project is not listed
            except EditError:
                continue
            if policy.allowed(child, real.is_dir()):
                found[entry.name] = real.is_dir()
        for path, shown in known.items():  # the tree as reads show it, pending outputs in
            name, _, below = path[len(prefix) :].partition("/")
            if shown:
                found.setdefault(name, bool(below))
            elif not below:
                found.pop(name, None)
        listing = sorted(found.items())
        text = "\n".join(("[DIR] " if d else "[FILE] ") + n for n, d in listing)
        text = text or "(empty directory)"
        entries = [
            {"path": f"{key}/{n}" if key else n, "type": "dir" if d else "file"} for n, d in listing
        ]
        return ToolResult(text, False, {"path": key or ".", "entries": entries})

    def _status(self) -> ToolResult:
        rows = self.ws.status()
        lines = [f"{r['status'] or ' ':<2} {r['path']}" for r in rows] or ["no files yet"]
        return ToolResult("\n".join(lines), False, {"files": rows})

    def _text_editor(self, args: dict[str, Any]) -> ToolResult:
        command, path = args.get("command"), args.get("path")
        if not isinstance(path, str) or not isinstance(command, str):
            return _error("text editor: 'command' and 'path' are required strings")
        if command == "view":
            rng = args.get("view_range")
            if rng is None:
                return self._read({"path": path})
            if (
                not isinstance(rng, list)
                or not 1 <= len(rng) <= 2
                or not all(_is_int(x) for x in rng)
            ):
                return _error("view: view_range must be [start_line] or [start_line, end_line]")
            if rng[0] < 1:
                return _error(f"view: view_range starts at line {rng[0]}; lines count from 1")
            last = None if len(rng) < 2 or rng[1] == -1 else rng[1]
            return self._read({"path": path, "start_line": rng[0], "end_line": last})
        if command == "create":
            text = args.get("file_text")
            if not isinstance(text, str):
                return _error("create: missing field 'file_text' (a string)")
            return self._apply([Write(path, text)])
        if command == "str_replace":
            old, new = args.get("old_str"), args.get("new_str", "")
            if not isinstance(old, str) or not isinstance(new, str):
                return _error("str_replace: 'old_str' and 'new_str' must be strings")
            return self._apply([Replace(path, old, new)])
        if command == "insert":
            return self._insert(path, args)
        if command == "undo_edit":
            return self._undo(path)
        return _error(f"text editor: unknown command {command!r}")

    def _insert(self, path: str, args: dict[str, Any]) -> ToolResult:
        line = args.get("insert_line")
        new = args.get("new_str", args.get("insert_text"))
        if not _is_int(line) or not isinstance(new, str):
            return _error("insert: 'insert_line' (an integer) and 'new_str' are required")
        if not new:
            return _error("insert: new_str is empty, so there is nothing to insert")
        key = self.ws.key(path)
        base = self.ws._base(key, self.review).base
        if base is None:
            return _error(f"insert: {path} does not exist; create it first")
        parts = split_lines(base)
        if not 0 <= line <= len(parts):
            return _error(f"insert: insert_line {line} is outside the file (0 to {len(parts)})")
        eol = dominant_eol(base)
        new = new.replace("\r\n", "\n")
        if new.endswith("\n"):  # one line terminator ends the text; more are blank lines
            new = new[:-1]
        added = [x + eol for x in new.split("\n")]
        open_end = bool(parts) and not ends_line(base)
        if line == len(parts) and open_end:
            # After a last line without a newline: that line gets one, the new last one not.
            parts[-1] += eol
            added[-1] = added[-1][: -len(eol)]
        text = "".join(parts[:line] + added + parts[line:])
        return self._apply([Write(key, text, file_id=file_id(base))])

    def _undo(self, path: str) -> ToolResult:
        """Take back the last change to ``path``: in review mode its last pending edit, else
        the file as it was before the last commit that changed it."""
        key = self.ws.key(path)
        if self.review and self.session.pending(key) is not None:
            now = self.session.undo_pending(key)
            text = f"Undid the last edit of {key}: " + (
                "the output before it is pending review again."
                if now is not None
                else "nothing is pending for it now; it is as on disk."
            )
            done = {"ok": True, "files": [{"path": key, "action": "undone"}]}
            return ToolResult(text, False, done)
        result = self.ws.undo(key, own=True)
        if not result.ok:
            first = result.errors[0]
            reason = "; ".join(e["message"] for e in result.errors)
            return _error(f"undo_edit: {reason}", EditError(reason, code=first["code"]))
        action = result.files[0]["action"] if result.files else "restored"
        return ToolResult(f"Undid the last change to {key}: {action}.", False, result.to_dict())


EDIT_TOOLS = frozenset(TOOLS)  # the calls that edit: batched, all or none, per message
READ_LIMIT = 2000  # lines per read_file call; the rest is a call away


# The filesystem dialect's tools and the methods that run them (read_file: its old name).
_FILESYSTEM = {
    "read_text_file": "_fs_read",
    "read_file": "_fs_read",
    "read_multiple_files": "_fs_read_many",
    "write_file": "_fs_write",
    "edit_file": "_fs_edit",
    "move_file": "_fs_move",
    "list_directory": "_fs_list",
}


def _is_count(x: object) -> bool:
    """A whole, finite, non-negative number (JSON gives 2.0 for 2 at times)."""
    if isinstance(x, bool) or not isinstance(x, int | float):
        return False
    return math.isfinite(x) and x >= 0 and x == int(x)


def _kept(review: bool) -> str:
    return "\n(kept for review: a person accepts it before it reaches the disk)" if review else ""


def _is_int(x: object) -> TypeGuard[int]:
    return isinstance(x, int) and not isinstance(x, bool)


_TOO_DEEP = "the arguments nest too deeply to be an edit; send flat JSON objects"


def _error(message: str, error: EditError | None = None) -> ToolResult:
    code = error.code if error is not None else "format_invalid"
    return ToolResult(message, True, {"ok": False, "errors": [{"code": code, "message": message}]})


__all__ = [
    "DEFAULT_MODE",
    "DIALECTS",
    "MODES",
    "PROFILES",
    "TEXT_EDITOR",
    "ToolLayer",
    "ToolResult",
    "describe",
    "mode_for",
    "parameters_b",
    "profile_for",
    "tool_definitions",
    "tool_keys",
    "tool_names",
]
