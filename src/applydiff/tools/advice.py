"""Advice fitted to the tools a model has: a message names only fields and tools it can use.

The engine and the feedback write their advice in the words of applydiff's own tools ("set
replace_all", "read it with read_file", ``file_id=`` in a file's header). A dialect without
those fields or tools gets the same message with them translated to its own names, or the
sentence or clause left out when it has nothing like them:

- ``replace_all``: kept only where the called tool's schema has it; "give a line hint" only
  for ``apply_diff`` (its ``:start_line:``), the one tool that takes a hint;
- ``file_id``: ``file_id=...`` in ``@file`` headers, the "Current file ids" line and "the
  current file_id is" lines are dropped from a failure of a tool without a ``file_id`` field
  (and from any answer where no offered tool takes one);
- ``read_file`` / ``write_file``: renamed to the dialect's reading and writing tool
  (``read_text_file``; the text editor's ``view`` and ``create`` commands).
"""

from __future__ import annotations

import re
from typing import Any

# The ladder's ambiguity advice and the feedback's "what to do" for it.
_AMBIGUOUS_LADDER = re.compile(
    r"add surrounding lines that make it unique, give a line hint, or set replace_all to change "
    r"every occurrence"
)
_AMBIGUOUS_NEXT = re.compile(r", or set replace_all to change every occurrence")
_ANY_REPLACE_ALL = re.compile(r",?\s*(?:or\s+)?set replace_all to [^;,.\n]*")
_HEADER_FILE_ID = re.compile(r"(@file [^\n]*?) file_id=\S+")
_FILE_IDS_LINE = re.compile(r"\nCurrent file ids: [^\n]*")
_CURRENT_ID_LINE = re.compile(r"\n\s*the current file_id is \S+")
_TEXT_EDITOR = "str_replace_based_edit_tool"


def properties(schema: dict[str, Any]) -> set[str]:
    """Every property name in ``schema``, nested objects and array items included."""
    out: set[str] = set()
    stack = [schema]
    while stack:
        node = stack.pop()
        if not isinstance(node, dict):
            continue
        for name, sub in node.get("properties", {}).items():
            out.add(name)
            stack.append(sub)
        if "items" in node:
            stack.append(node["items"])
    return out


class Fitter:
    """Rewrites the messages of one tool for a model that has ``offered`` tools (name ->
    schema) and called the one named ``called`` (``hint``: whether it takes a line hint)."""

    def __init__(self, called: str, offered: dict[str, dict[str, Any]], *, hint: bool) -> None:
        self.fields = properties(offered.get(called, {}))
        self.all_fields = set().union(*(properties(s) for s in offered.values()))
        self.tools = set(offered)
        self.hint = hint

    def text(self, message: str, *, failed: bool = True) -> str:
        """``message`` in the model's tools' words. A failure's advice names only the called
        tool's fields; any other answer keeps what some offered tool takes (a read's
        ``file_id``, for the edit tools)."""
        if "replace_all" not in self.fields:
            # Past the ladder's phrase and the feedback's, any other "set replace_all to ..."
            # clause goes too.
            message = _AMBIGUOUS_LADDER.sub(self._unique_advice, message)
            message = _AMBIGUOUS_NEXT.sub("", message)
            message = _ANY_REPLACE_ALL.sub("", message)
        elif not self.hint:
            message = message.replace(", give a line hint, or set", ", or set")
        if "file_id" not in (self.fields if failed else self.all_fields):
            message = _HEADER_FILE_ID.sub(r"\1", message)
            message = _FILE_IDS_LINE.sub("", message)
            message = _CURRENT_ID_LINE.sub("", message)
        for tool, command in (("read_file", "view"), ("write_file", "create")):
            if tool not in self.tools:
                message = re.sub(rf"\b{tool}\b", self._tool_for(command), message)
        return message

    def _unique_advice(self, _: re.Match[str]) -> str:
        return "add surrounding lines that make it unique" + (
            ", or give a line hint" if self.hint else ""
        )

    def _tool_for(self, command: str) -> str:
        if command == "view" and "read_text_file" in self.tools:
            return "read_text_file"
        if command == "create" and "write_file" in self.tools:
            return "write_file"
        if _TEXT_EDITOR in self.tools:
            return f"{_TEXT_EDITOR}'s {command} command"
        return "read_text_file" if command == "view" else "write_file"

    def result(self, result: dict[str, Any]) -> dict[str, Any]:
        """The structured result with its errors' messages fitted."""
        errors = result.get("errors")
        if not isinstance(errors, list):
            return result
        fitted = [
            {**e, "message": self.text(e["message"])}
            if isinstance(e, dict) and isinstance(e.get("message"), str)
            else e
            for e in errors
        ]
        return {**result, "errors": fitted}
