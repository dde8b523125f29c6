"""The tool layer's base: workspace and session, read_file, status, and what a call answers."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeGuard

from .. import compat as compat_mod
from .. import feedback
from ..engine import MergeModel
from ..errors import IO_ERROR, PATH_DENIED, EditError
from ..ir import Op
from ..session import Session
from ..text import count_lines, file_id
from ..workspace import Result, Workspace
from .catalogue import tool_definitions
from .listing import FIND_LINES, FIND_PATHS, LINE_CHARS, glob_match, walk
from .profiles import DEFAULT_MODE, mode_for

READ_LIMIT = 2000  # lines per read_file call; the rest is a call away


@dataclass
class ToolResult:
    """What a tool call gives back: the text the model reads, whether it is an error, and the
    structured result (``Result.to_dict()`` for edits)."""

    text: str
    is_error: bool = False
    result: dict[str, Any] = field(default_factory=dict)


# What runs one tool: its arguments in, the answer out.
Handler = Callable[[dict[str, Any]], ToolResult]


def tool_error(message: str, error: EditError | None = None) -> ToolResult:
    """A refused call: ``message`` for the model, with the error's code (else format_invalid)
    and the path it names."""
    code = error.code if error is not None else "format_invalid"
    problem: dict[str, Any] = {"code": code, "message": message}
    if error is not None and error.path is not None:
        problem["path"] = error.path
    return ToolResult(message, True, {"ok": False, "errors": [problem]})


def is_int(x: object) -> TypeGuard[int]:
    """An integer argument (JSON's true and false are not)."""
    return isinstance(x, int) and not isinstance(x, bool)


class BaseLayer:
    """A tool layer's state (workspace, session, mode, review) and what the tools of every
    dialect build on: reads, applying edits, and the feedback answer."""

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
        session: Session | None = None,  # another store than the root's (in memory)
        merge_model: MergeModel | None = None,
    ) -> None:
        self.mode = mode_for(mode=mode)
        self.compat = None if compat is None else compat_mod.check(compat)
        if require_read is None:
            # The reference filesystem server edits without a read first; its agents do too.
            require_read = self.compat != "filesystem"
        self.review = review
        self.guidance = guidance
        self.max_exchanges = max_exchanges
        self.ws = Workspace(
            root,
            require_read=require_read,
            threshold=threshold,
            session=session or True,
            merge_model=merge_model,
        )
        self._owns_session = session is None  # a store given by the caller is theirs to close
        assert self.ws.session is not None  # session=True opens it or raises
        self.session: Session = self.ws.session
        if new_conversation:
            self.session.new_conversation()
        self.conversation = self.session.conversation
        # The directories the model may name (list_allowed_directories): the root, or the
        # client's roots when a server routes between several (tools.roots).
        self.allowed: list[Path] = [self.ws.root]

    def close(self) -> None:
        if self._owns_session:
            self.session.close()

    def definitions(self, dialect: str = "openai", *, text_editor: bool = False) -> list[dict]:
        return tool_definitions(self.mode, dialect, text_editor=text_editor, compat=self.compat)

    def context(self) -> str:
        return feedback.session_context(
            self.session, self.ws, guidance=self.guidance, max_exchanges=self.max_exchanges
        )

    def apply_text(self, text: str) -> ToolResult:
        """Edits written as text (SEARCH/REPLACE blocks, diffs, patches) in a model's answer."""
        return self._apply(text)

    # -- what the tools share -------------------------------------------------------------------
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
                return tool_error(message, EditError(message, code=IO_ERROR, path=key))
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
        """read_file: the lines numbered, under a header with the file_id."""
        path = args.get("path")
        if not isinstance(path, str):
            return tool_error("read_file: missing field 'path' (a string)")
        first, last = args.get("start_line", 1), args.get("end_line")
        if not is_int(first) or (last is not None and not is_int(last)):
            return tool_error("read_file: start_line and end_line must be integers")
        key = self.ws.key(path)
        shown = self._shown(key, "read_file")
        if isinstance(shown, ToolResult):
            return shown
        text, status, note = shown
        count = count_lines(text)
        first = max(first, 1)
        if last is not None and last < first:
            return tool_error(
                f"read_file: the range {first}-{last} is empty (end_line is before start_line)"
            )
        if text and first > count:
            return tool_error(
                f"read_file: start_line {first} is past the end of {key} ({count} lines)"
            )
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

    def _directory(self, path: str) -> tuple[str, Path]:
        """``(key, real path)`` of a directory the model names (``""`` for the root itself:
        '.', the root's absolute path); refused when the policy hides it."""
        policy = self.ws.policy
        raw = path.strip() or "."
        joined = raw if os.path.isabs(raw) else os.path.join(policy.root, raw)
        if "\x00" not in raw and os.path.realpath(joined) == str(policy.root):
            return "", policy.root
        key, where = policy.resolve(path)
        if not policy.allowed(key, is_dir=True):
            raise EditError(
                f"{path!r} is not allowed: the ignore rules hide it", code=PATH_DENIED, path=key
            )
        return key, where

    def _exists(self, key: str) -> bool:
        """Whether ``key`` is a file as the model sees the tree (in review mode: with the
        outputs pending review)."""
        if self.review and (pending := self.session.pending(key)) is not None:
            return pending.output is not None
        return os.path.lexists(self.ws.root / key)

    def _tree(self, key: str, where: Path, *, deep: bool = True) -> list[tuple[str, bool]]:
        """``(key, is_dir)`` for everything under the directory ``key`` (without ``deep``:
        right under it) as reads show it: the disk under the policy and, in review mode, the
        outputs pending review (files they add, with their directories; files they delete
        left out). Sorted by key."""
        found = dict(walk(self.ws.policy, key, where, deep=deep)) if where.is_dir() else {}
        if self.review:
            prefix = f"{key}/" if key else ""
            first = prefix.count("/") + 1  # components of an entry right under the directory
            for pending in self.session.pendings():
                if not pending.path.startswith(prefix):
                    continue
                parts = pending.path.split("/")
                if pending.output is None:
                    found.pop(pending.path, None)
                    continue
                last = len(parts) if deep else min(len(parts), first)
                for depth in range(first, last + 1):
                    found["/".join(parts[:depth])] = depth < len(parts)
        return sorted(found.items())

    def _find(self, args: dict[str, Any]) -> ToolResult:
        """find_files: paths matching a glob under a directory; with ``contains``, the lines
        of those files holding that text."""
        pattern, contains, path = args.get("pattern"), args.get("contains"), args.get("path")
        for name, value in (("pattern", pattern), ("contains", contains), ("path", path)):
            if value is not None and not isinstance(value, str):
                return tool_error(f"find_files: {name} must be a string")
        if contains == "":
            return tool_error("find_files: contains is empty; leave it out to list paths")
        key, where = self._directory(path or ".")
        if key and not where.is_dir() and not self.review:
            what = "is not a directory" if where.exists() else "does not exist"
            raise EditError(f"{key} {what}", code=IO_ERROR, path=key)
        prefix = f"{key}/" if key else ""
        files = (
            k
            for k, is_dir in self._tree(key, where)
            if not is_dir and glob_match(k[len(prefix) :], pattern or "")
        )
        if contains is None:
            paths: list[str] = []
            more = False
            for k in files:
                if len(paths) == FIND_PATHS:
                    more = True
                    break
                paths.append(k)
            lines = paths or ["no files match"]
            if more:
                lines.append(
                    f"(more than {FIND_PATHS} files match: narrow the pattern or give a path)"
                )
            return ToolResult("\n".join(lines), False, {"files": paths, "truncated": more})
        matches: list[dict[str, Any]] = []
        more = False
        for k in files:
            pending = self.session.pending(k) if self.review else None
            try:
                text = pending.output if pending is not None else self.ws.read_disk(k).text
            except EditError:  # binary, too large, unreadable: not text to search
                continue
            for number, line in enumerate((text or "").split("\n"), 1):
                if contains in line:
                    if len(matches) == FIND_LINES:
                        more = True
                        break
                    matches.append({"path": k, "line": number, "text": line.rstrip("\r")})
            if more:
                break
        shown = [
            f"{m['path']}:{m['line']}: {m['text'][:LINE_CHARS]}"
            + (" ..." if len(m["text"]) > LINE_CHARS else "")
            for m in matches
        ] or [f"no line contains {contains!r}"]
        if more:
            shown.append(f"(more than {FIND_LINES} lines match: narrow the pattern or the text)")
        return ToolResult("\n".join(shown), False, {"matches": matches, "truncated": more})

    def _status(self, args: dict[str, Any]) -> ToolResult:
        """status: the session's files and their review status (it takes no arguments)."""
        rows = self.ws.status()
        lines = [f"{r['status'] or ' ':<2} {r['path']}" for r in rows] or ["no files yet"]
        return ToolResult("\n".join(lines), False, {"files": rows})
