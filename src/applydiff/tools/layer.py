"""The tool layer: runs a model's tool calls, each through the handler its name maps to."""

from __future__ import annotations

import functools
import json
import os
import sqlite3
from typing import Any

from ..errors import IO_ERROR, EditError
from .advice import Fitter
from .base_layer import Handler, ToolResult, tool_error
from .catalogue import EDIT_TOOLS, TEXT_EDITOR, describe, tool_keys
from .filesystem_dialect import FilesystemDialect
from .text_editor import TextEditor

_TOO_DEEP = "the arguments nest too deeply to be an edit; send flat JSON objects"


class ToolLayer(FilesystemDialect, TextEditor):
    """Runs a model's tool calls against a root, with a session.

    ``require_read`` (on by default here: the model talks to files through read_file) refuses
    edits to existing files it was never shown; ``review`` keeps outputs pending. A new layer
    is a new conversation (``new_conversation``): what an earlier one was shown, its counters
    and per-file stats are forgotten; outputs pending review and the undo history stay.
    """

    def _handlers(self) -> dict[str, Handler]:
        """Tool name -> its handler; any other name is an edit call for the engine. With the
        filesystem dialect its tools take their names."""
        own: dict[str, Handler] = {
            "read_file": self._read,
            "find_files": self._find,
            "status": self._status,
            TEXT_EDITOR: self._text_editor,
            "str_replace_editor": self._text_editor,  # the text editor's older name
        }
        if self.compat == "filesystem":
            return own | self._filesystem_handlers()
        return own

    def handle_tool_call(self, name: str, arguments: dict[str, Any] | str) -> ToolResult:
        """One call's answer, its advice in the words of the tools this layer offers (see
        :mod:`.advice`)."""
        return self._fitted(name, self._call(name, arguments))

    def _fitted(self, name: str, answer: ToolResult) -> ToolResult:
        """``answer`` to a call of ``name``, its advice fitted to this layer's tools."""
        fitter = self._fitters.get(name)
        if fitter is None:
            offered, hinted = self._offered
            fitter = self._fitters[name] = Fitter(name, offered, hint=name in hinted)
        return ToolResult(
            fitter.text(answer.text, failed=answer.is_error),
            answer.is_error,
            fitter.result(answer.result),
        )

    @functools.cached_property
    def _offered(self) -> tuple[dict[str, dict[str, Any]], frozenset[str]]:
        """The tools of this layer's mode or dialect (and the text editor, which every layer
        runs) by name, with their schemas; and those that take a line hint (apply_diff). The
        mode and dialect are the layer's for its life, so this is read once."""
        offered: dict[str, dict[str, Any]] = {}
        hinted: set[str] = set()
        for key in tool_keys(self.mode, text_editor=True, compat=self.compat):
            tool, _, schema, _ = describe(key)
            offered[tool] = schema
            if key == "apply_diff":
                hinted.add(tool)
        return offered, frozenset(hinted)

    @functools.cached_property
    def _fitters(self) -> dict[str, Fitter]:
        """A fitter per tool name called, made at its first call."""
        return {}

    def _call(self, name: str, arguments: dict[str, Any] | str) -> ToolResult:
        if isinstance(arguments, str):
            arguments = _decode(name, arguments)
            if isinstance(arguments, ToolResult):
                return arguments
        if not isinstance(arguments, dict):
            return tool_error(f"{name}: the arguments must be an object")
        try:
            handler = self._handlers().get(name)
            if handler is not None:
                return handler(arguments)
            call = json.dumps({"name": name, "arguments": arguments})
            return self._apply(call, "tool_calls")
        except EditError as e:  # a path the policy refuses, an unreadable file, ...
            return tool_error(f"{name}: {e.message}", e)
        except sqlite3.Error as e:  # the session store (locked past its timeout, full disk)
            return tool_error(
                f"{name}: the session store failed ({e}); nothing was written",
                EditError(str(e), code=IO_ERROR),
            )
        except RecursionError:  # arguments nested past what json and the parsers walk
            return tool_error(f"{name}: {_TOO_DEEP}")
        except OSError as e:  # the file system refused (a name too long, no permission, ...)
            where = f" ({os.path.basename(e.filename)})" if isinstance(e.filename, str) else ""
            message = f"{name}: {e.strerror or e}{where}"
            return tool_error(message, EditError(message, code=IO_ERROR))

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
                    arguments = _decode(name, arguments)
                    if isinstance(arguments, ToolResult):
                        # Text that is not JSON: the batch is refused as a call not valid JSON.
                        arguments = f"({arguments.text})"
                parsed.append({"name": name, "arguments": arguments})
            try:
                first = self._apply(json.dumps(parsed), "tool_calls")
            except RecursionError:
                first = tool_error(f"{batch[0][1]}: {_TOO_DEEP}")
            first = self._fitted(batch[0][1], first)
            results[batch[0][0]] = first
            together = (
                f"(applied together with the other edit calls of this message, all or none: "
                f"{'applied' if not first.is_error else 'nothing was written'}; the report is "
                "in the result of the first edit call)"
            )
            for k, _, _ in batch[1:]:
                results[k] = ToolResult(together, first.is_error, first.result)
        return [r for r in results if r is not None]


def _decode(name: str, arguments: str) -> Any:
    """Arguments sent as JSON text (blank: none), or the ToolResult refusing them."""
    try:
        return json.loads(arguments) if arguments.strip() else {}
    except json.JSONDecodeError as e:
        return tool_error(f"{name}: the arguments are not valid JSON ({e.msg})")
    except RecursionError:  # nested past the decoder's depth
        return tool_error(f"{name}: {_TOO_DEEP}")
    except ValueError:  # an integer of more digits than Python converts (4,300)
        return tool_error(f"{name}: the arguments hold a number too long to read")
