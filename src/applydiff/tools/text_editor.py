"""The text editor tool (Anthropic's): view, create, str_replace, insert and undo_edit."""

from __future__ import annotations

from typing import Any

from ..errors import EditError
from ..ir import Replace, Write
from ..text import dominant_eol, ends_line, file_id, split_lines
from .base_layer import BaseLayer, ToolResult, is_int, tool_error


class TextEditor(BaseLayer):
    """The text editor's commands, for the tool layer."""

    def _text_editor(self, args: dict[str, Any]) -> ToolResult:
        command, path = args.get("command"), args.get("path")
        if not isinstance(path, str) or not isinstance(command, str):
            return tool_error("text editor: 'command' and 'path' are required strings")
        if command == "view":
            rng = args.get("view_range")
            if rng is None:
                return self._read({"path": path})
            if (
                not isinstance(rng, list)
                or not 1 <= len(rng) <= 2
                or not all(is_int(x) for x in rng)
            ):
                return tool_error("view: view_range must be [start_line] or [start_line, end_line]")
            if rng[0] < 1:
                return tool_error(f"view: view_range starts at line {rng[0]}; lines count from 1")
            last = None if len(rng) < 2 or rng[1] == -1 else rng[1]
            return self._read({"path": path, "start_line": rng[0], "end_line": last})
        if command == "create":
            text = args.get("file_text")
            if not isinstance(text, str):
                return tool_error("create: missing field 'file_text' (a string)")
            return self._apply([Write(path, text)])
        if command == "str_replace":
            old, new = args.get("old_str"), args.get("new_str", "")
            if not isinstance(old, str) or not isinstance(new, str):
                return tool_error("str_replace: 'old_str' and 'new_str' must be strings")
            return self._apply([Replace(path, old, new)])
        if command == "insert":
            return self._insert(path, args)
        if command == "undo_edit":
            return self._undo(path)
        return tool_error(f"text editor: unknown command {command!r}")

    def _insert(self, path: str, args: dict[str, Any]) -> ToolResult:
        line = args.get("insert_line")
        new = args.get("new_str", args.get("insert_text"))
        if not is_int(line) or not isinstance(new, str):
            return tool_error("insert: 'insert_line' (an integer) and 'new_str' are required")
        if not new:
            return tool_error("insert: new_str is empty, so there is nothing to insert")
        key = self.ws.key(path)
        base = self.ws.read_base(key, self.review).base
        if base is None:
            return tool_error(f"insert: {path} does not exist; create it first")
        parts = split_lines(base)
        if not 0 <= line <= len(parts):
            return tool_error(f"insert: insert_line {line} is outside the file (0 to {len(parts)})")
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
            return tool_error(f"undo_edit: {reason}", EditError(reason, code=first["code"]))
        action = result.files[0]["action"] if result.files else "restored"
        return ToolResult(f"Undid the last change to {key}: {action}.", False, result.to_dict())
