"""The filesystem dialect's tools, answering as the reference MCP filesystem server does."""

from __future__ import annotations

import json
import math
import os
import stat
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from ..compat import diff_fence, head_tail
from ..errors import CONFLICT, FORMAT_INVALID, IO_ERROR, EditError
from ..ir import Move
from ..text import file_id
from .base_layer import BaseLayer, Handler, ToolResult, tool_error
from .listing import TREE_LIMIT, glob_match, human_size


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
            "list_directory_with_sizes": self._fs_list_sizes,
            "directory_tree": self._fs_tree,
            "search_files": self._fs_search,
            "get_file_info": self._fs_info,
            "create_directory": self._fs_mkdir,
            "list_allowed_directories": self._fs_allowed,
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

    def _fs_dir(self, args: dict[str, Any]) -> tuple[str, Path]:
        """The directory a filesystem tool names: ``(key, real path)``, refused when it is
        neither a directory nor made one by outputs pending review."""
        path = args.get("path")
        if not isinstance(path, str):
            raise EditError("missing field 'path' (a string)", code=FORMAT_INVALID)
        key, where = self._directory(path)
        if not where.is_dir() and not (self.review and self._tree(key, where)):
            what = "is not a directory" if where.exists() else "does not exist"
            raise EditError(f"{key or path} {what}", code=IO_ERROR, path=key)
        return key, where

    def _fs_entries(self, args: dict[str, Any]) -> tuple[str, list[tuple[str, bool]]]:
        """A directory's key and its entries ``(name, is_dir)``, sorted by name."""
        key, where = self._fs_dir(args)
        prefix = f"{key}/" if key else ""
        return key, [(k[len(prefix) :], d) for k, d in self._tree(key, where, deep=False)]

    def _fs_list(self, args: dict[str, Any]) -> ToolResult:
        key, listing = self._fs_entries(args)
        text = "\n".join(("[DIR] " if d else "[FILE] ") + n for n, d in listing)
        text = text or "(empty directory)"
        entries = [
            {"path": f"{key}/{n}" if key else n, "type": "dir" if d else "file"} for n, d in listing
        ]
        return ToolResult(text, False, {"path": key or ".", "entries": entries})

    def _fs_list_sizes(self, args: dict[str, Any]) -> ToolResult:
        sort_by = args.get("sortBy", "name")
        if sort_by not in ("name", "size"):
            return tool_error("list_directory_with_sizes: sortBy must be 'name' or 'size'")
        key, listing = self._fs_entries(args)
        rows = []
        for name, is_dir in listing:
            child = f"{key}/{name}" if key else name
            rows.append((name, is_dir, 0 if is_dir else self._size(child)))
        if sort_by == "size":
            rows.sort(key=lambda r: (-r[2], r[0]))
        lines = [
            f"[DIR] {name}" if is_dir else f"[FILE] {name:<30} {human_size(size):>10}"
            for name, is_dir, size in rows
        ]
        files = [r for r in rows if not r[1]]
        total = sum(r[2] for r in files)
        lines += [
            "",
            f"Total: {len(files)} files, {len(rows) - len(files)} directories",
            f"Combined size: {human_size(total)}",
        ]
        entries = [
            {"path": f"{key}/{n}" if key else n, "type": "dir" if d else "file"}
            | ({} if d else {"size": size})
            for n, d, size in rows
        ]
        return ToolResult("\n".join(lines), False, {"path": key or ".", "entries": entries})

    def _size(self, key: str) -> int:
        """A file's size in bytes as reads show it (an output pending review: its UTF-8)."""
        if self.review and (pending := self.session.pending(key)) is not None:
            return len((pending.output or "").encode("utf-8"))
        try:
            return os.stat(self.ws.root / key).st_size
        except OSError:
            return 0

    def _fs_tree(self, args: dict[str, Any]) -> ToolResult:
        excludes = _patterns(args.get("excludePatterns"), "directory_tree")
        if isinstance(excludes, ToolResult):
            return excludes
        key, where = self._fs_dir(args)
        prefix = f"{key}/" if key else ""
        top: list[dict[str, Any]] = []
        nodes: dict[str, list[dict[str, Any]]] = {key: top}
        count = 0
        cut = False
        for k, is_dir in self._tree(key, where):
            rel = k[len(prefix) :]
            parent = k.rsplit("/", 1)[0] if "/" in rel else key
            if parent not in nodes or _excluded(rel, excludes):
                continue  # under an excluded directory, or excluded itself
            if count == TREE_LIMIT:
                cut = True
                break
            count += 1
            entry: dict[str, Any] = {"name": rel.rsplit("/", 1)[-1]}
            entry["type"] = "directory" if is_dir else "file"
            if is_dir:
                entry["children"] = nodes[k] = []
            nodes[parent].append(entry)
        text = json.dumps(top, indent=2, ensure_ascii=False)
        if cut:
            text += (
                f"\n(the tree stops at {TREE_LIMIT} entries: ask for a subdirectory or add "
                "excludePatterns)"
            )
        return ToolResult(text, False, {"path": key or ".", "tree": top, "truncated": cut})

    def _fs_search(self, args: dict[str, Any]) -> ToolResult:
        pattern = args.get("pattern")
        if not isinstance(pattern, str) or not pattern.strip():
            return tool_error("search_files: missing field 'pattern' (a non-empty string)")
        excludes = _patterns(args.get("excludePatterns"), "search_files")
        if isinstance(excludes, ToolResult):
            return excludes
        key, where = self._fs_dir(args)
        prefix = f"{key}/" if key else ""
        globbing = any(c in pattern for c in "*?[{")
        found: list[str] = []
        cut = False
        for k, _ in self._tree(key, where):
            rel = k[len(prefix) :]
            if _excluded(rel, excludes):
                continue
            name = rel.rsplit("/", 1)[-1]
            hit = glob_match(rel, pattern) if globbing else pattern.lower() in name.lower()
            if hit:
                if len(found) == TREE_LIMIT:
                    cut = True
                    break
                found.append(k)
        full = [str(self.ws.root / k) for k in found]
        text = "\n".join(full) if full else "No matches found"
        if cut:
            text += f"\n(more than {TREE_LIMIT} matches: narrow the pattern)"
        return ToolResult(text, False, {"paths": full, "truncated": cut})

    def _fs_info(self, args: dict[str, Any]) -> ToolResult:
        path = args.get("path")
        if not isinstance(path, str):
            return tool_error("get_file_info: missing field 'path' (a string)")
        key, where = self._directory(path)
        pending = self.session.pending(key) if self.review and key else None
        if pending is not None and pending.output is None:
            raise EditError(f"{key} is deleted in the changes pending review", code=IO_ERROR)
        try:
            st = os.stat(where)
        except FileNotFoundError:
            if pending is None:
                raise EditError(f"{key} does not exist", code=IO_ERROR, path=key) from None
            st = None
        is_dir = st is not None and stat.S_ISDIR(st.st_mode)
        size = self._size(key) if pending is not None or st is None else st.st_size
        when = (
            {
                "created": _time(getattr(st, "st_birthtime", st.st_ctime)),
                "modified": _time(st.st_mtime),
                "accessed": _time(st.st_atime),
            }
            if st is not None
            else {"created": "pending review", "modified": "pending review", "accessed": "-"}
        )
        info: dict[str, Any] = {
            "size": size,
            **when,
            "isDirectory": is_dir,
            "isFile": not is_dir,
            "permissions": format(stat.S_IMODE(st.st_mode), "o") if st is not None else "-",
        }
        text = "\n".join(f"{k}: {_shown(v)}" for k, v in info.items())
        return ToolResult(text, False, {"path": key or ".", **info})

    def _fs_mkdir(self, args: dict[str, Any]) -> ToolResult:
        path = args.get("path")
        if not isinstance(path, str):
            return tool_error("create_directory: missing field 'path' (a string)")
        key, where = self._directory(path)
        if key and not where.is_dir():
            if os.path.lexists(where):
                raise EditError(f"{key} exists and is not a directory", code=IO_ERROR, path=key)
            # The policy resolved the path (links followed, inside the root); the missing
            # directories are made there. Directories hold no content, so review mode makes
            # them too: the files written into them are what waits for review.
            where.mkdir(parents=True, exist_ok=True)
        return ToolResult(f"Successfully created directory {path}", False, {"path": key or "."})

    def _fs_allowed(self, args: dict[str, Any]) -> ToolResult:
        dirs = [str(d) for d in self.allowed]
        return ToolResult("Allowed directories:\n" + "\n".join(dirs), False, {"directories": dirs})


def _patterns(value: object, tool: str) -> list[str] | ToolResult:
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(p, str) for p in value):
        return tool_error(f"{tool}: excludePatterns must be a list of strings")
    return [p for p in value if p.strip()]


def _excluded(rel: str, patterns: list[str]) -> bool:
    """Whether a path (relative to where the walk starts) is left out: it matches a pattern,
    or a pattern without glob characters names one of its components."""
    for pattern in patterns:
        if glob_match(rel, pattern):
            return True
        if not any(c in pattern for c in "*?[{") and pattern.strip("/") in rel.split("/"):
            return True
    return False


def _time(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, tz=UTC).isoformat(timespec="seconds")


def _shown(value: object) -> str:
    """A value as the reference server prints it (JSON's true and false)."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def _is_count(x: object) -> bool:
    """A whole, finite, non-negative number (JSON gives 2.0 for 2 at times)."""
    if isinstance(x, bool) or not isinstance(x, int | float):
        return False
    return math.isfinite(x) and x >= 0 and x == int(x)


def _kept(review: bool) -> str:
    return "\n(kept for review: a person accepts it before it reaches the disk)" if review else ""
