"""The filesystem dialect's tools, answering as the reference MCP filesystem server does."""

from __future__ import annotations

import json
import math
import os
from typing import Any

from ..compat import diff_fence, head_tail
from ..errors import CONFLICT, IO_ERROR, EditError
from ..ir import Move
from ..text import file_id
from .base_layer import BaseLayer, Handler, ToolResult, tool_error


class FilesystemDialect(BaseLayer):
    """The filesystem dialect's tools, for the tool layer to mix in."""

    def _filesystem_handlers(self) -> dict[str, Handler]:
        """Each tool of the dialect -> its handler (read_file: the old name of read_text_file)."""
        return {
            "read_text_file": self._fs_read,
            "read_file": self._fs_read,
            "read_multiple_files": self._fs_read_many,
            "write_file": self._fs_write,
            "edit_file": self._fs_edit,
            "move_file": self._fs_move,
            "list_directory": self._fs_list,
        }

    def _fs_read(self, args: dict[str, Any]) -> ToolResult:
        path, head, tail = args.get("path"), args.get("head"), args.get("tail")
        if not isinstance(path, str):
            return tool_error("read_text_file: missing field 'path' (a string)")
        for field_name, value in (("head", head), ("tail", tail)):
            if value is not None and not _is_count(value):
                return tool_error(f"read_text_file: {field_name} must be a whole number of lines")
        if head is not None and tail is not None:
            return tool_error("read_text_file: give head or tail, not both")
        key = self.ws.key(path)
        got = self._shown(key, "read_text_file")
        if isinstance(got, ToolResult):
            return got
        text = got[0]
        shown = head_tail(
            text, None if head is None else int(head), None if tail is None else int(tail)
        )
        return ToolResult(shown, False, {"path": key, "file_id": file_id(text)})

    def _fs_read_many(self, args: dict[str, Any]) -> ToolResult:
        paths = args.get("paths")
        if not isinstance(paths, list) or not paths or not all(isinstance(p, str) for p in paths):
            return tool_error("read_multiple_files: 'paths' must be a non-empty list of strings")
        parts, files = [], []
        for path in paths:
            try:
                got = self._fs_read({"path": path})
            except EditError as e:
                got = tool_error(e.message, e)
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
            return tool_error("edit_file: dryRun must be true or false")
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
        text = diff_fence(diff) + ("" if dry_run else _kept(result.review))
        return ToolResult(text, False, result.to_dict())

    def _fs_move(self, args: dict[str, Any]) -> ToolResult:
        source, destination = args.get("source"), args.get("destination")
        if not isinstance(source, str) or not isinstance(destination, str):
            return tool_error("move_file: 'source' and 'destination' are required strings")
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
            return tool_error("list_directory: missing field 'path' (a string)")
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


def _is_count(x: object) -> bool:
    """A whole, finite, non-negative number (JSON gives 2.0 for 2 at times)."""
    if isinstance(x, bool) or not isinstance(x, int | float):
        return False
    return math.isfinite(x) and x >= 0 and x == int(x)


def _kept(review: bool) -> str:
    return "\n(kept for review: a person accepts it before it reaches the disk)" if review else ""
