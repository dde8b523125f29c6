"""The edit loop: a model, a task and a tree, until the edits apply or the exchanges run out.

>>> client = ChatClient("http://127.0.0.1:8080/v1", "qwen2.5-coder:7b")       # doctest: +SKIP
>>> result = EditLoop("path/to/project", client).run("Rename run to start")   # doctest: +SKIP
>>> result.ok, result.stop, [x.ok for x in result.exchanges]                  # doctest: +SKIP

The model gets the rules of its mode (tool definitions, or the text format to write), the
task, the files as ``read_file`` shows them (numbered lines, file_ids; the snapshots its edits
are matched against) and the ``[SESSION CONTEXT]`` block. Each answer's edits (native tool
calls, or edit blocks in its text) apply through the tool layer, all or none; a failure goes
back as the feedback with the retry context, and the model tries again. An *exchange* is an
answer with edits; reads do not count. The loop ends when the model answers without edits
(``done``), after ``max_exchanges`` exchanges, or after ``max_requests`` requests.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from .errors import EditError
from .formats import parse
from .llm import ChatResponse
from .prompts import TEXT_MODES, text_instructions, tool_rules
from .session import Session
from .tools import EDIT_TOOLS, TEXT_EDITOR, ToolLayer, ToolResult, tool_definitions

DEFAULT_EXCHANGES = 3
# The files of a tree this small are all shown up front; a bigger tree shows those the task
# names, and lists the rest for read_file.
SHOW_ALL_FILES = 30
SHOW_ALL_BYTES = 256 * 1024
LIST_FILES = 200
_SKIP_DIRS = frozenset({".git", ".applydiff", "__pycache__", "node_modules", ".venv", "venv"})
_EDITOR_EDITS = frozenset({"create", "str_replace", "insert", "undo_edit"})


class Chat(Protocol):
    """What the loop needs of a model: :class:`~applydiff.llm.ChatClient` or a replay."""

    def chat(
        self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None = None
    ) -> ChatResponse: ...


@dataclass
class Exchange:
    """One answer with edits: whether they applied, the errors, the files they changed."""

    number: int
    ok: bool
    channel: str  # "tools" (native tool calls) or "text" (edit blocks in the answer)
    errors: list[dict[str, Any]] = field(default_factory=list)
    files: list[dict[str, Any]] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "ok": self.ok,
            "channel": self.channel,
            "errors": [{"code": e.get("code"), "message": e.get("message")} for e in self.errors],
            "files": self.files,
        }


@dataclass
class LoopResult:
    """How a task went. ``ok``: the model made edits and the last of them applied."""

    ok: bool
    stop: str  # "done", "max_exchanges" or "max_requests"
    exchanges: list[Exchange]
    requests: int
    usage: dict[str, int]
    answer: str  # the model's last text
    transcript: list[dict[str, Any]] = field(default_factory=list, repr=False)

    @property
    def edit_errors(self) -> int:
        return sum(len(x.errors) for x in self.exchanges)

    @property
    def retries(self) -> int:
        return max(0, len(self.exchanges) - 1)

    def to_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "stop": self.stop,
            "exchanges": [x.to_dict() for x in self.exchanges],
            "requests": self.requests,
            "edit_errors": self.edit_errors,
            "retries": self.retries,
            "usage": self.usage,
            "answer": self.answer,
        }


class EditLoop:
    """Runs tasks on ``root`` with a model (``client``) in ``mode``: a tool mode of
    :data:`~applydiff.tools.MODES` or a text mode of :data:`~applydiff.prompts.TEXT_MODES`.

    ``files``: the paths to show up front (default: all of a small tree, else those the task
    names). ``on_event(kind, data)`` hears each request and exchange (progress output).
    """

    def __init__(
        self,
        root: str | os.PathLike[str],
        client: Chat,
        *,
        mode: str | None = None,
        review: bool = False,
        max_exchanges: int = DEFAULT_EXCHANGES,
        max_requests: int | None = None,
        files: list[str] | None = None,
        guidance: str | None = None,
        on_event: Callable[[str, dict[str, Any]], None] | None = None,
        session: Session | None = None,
    ) -> None:
        if max_exchanges < 1:
            raise ValueError("max_exchanges must be at least 1")
        self.text_mode = mode if mode in TEXT_MODES else None
        self.layer = ToolLayer(
            root,
            mode="off" if self.text_mode else (mode or "search_replace_multi"),
            review=review,
            # A text-mode model cannot call read_file: files it was not shown are edited
            # against the disk.
            require_read=self.text_mode is None,
            guidance=guidance,
            max_exchanges=max_exchanges,
            session=session,
        )
        self.mode = self.text_mode or self.layer.mode
        self.client = client
        self.max_exchanges = max_exchanges
        self.max_requests = max_requests or max_exchanges * 4
        self.files = files
        self.on_event = on_event or (lambda kind, data: None)

    def close(self) -> None:
        self.layer.close()

    def __enter__(self) -> EditLoop:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the conversation ----------------------------------------------------------------------
    def system_prompt(self) -> str:
        root = self.layer.ws.root
        if self.text_mode:
            return f"You edit the files of the project in {root}.\n\n" + text_instructions(
                self.text_mode
            )
        return (
            tool_rules(root, review=self.layer.review)
            + "\n- When the task is done, answer with a one-line summary and no tool call."
        )

    def first_message(self, task: str) -> str:
        shown, others = self._choose_files(task)
        parts = [f"Task: {task}"]
        reads = [self.layer.handle_tool_call("read_file", {"path": p}) for p in shown]
        if shown:
            parts.append("The files, as read_file shows them:")
            parts += [r.text for r in reads if not r.is_error]
        if others:
            listed = others[:LIST_FILES]
            left = len(others) - len(listed)
            more = f"\n... and {left} more" if left else ""
            how = "" if self.text_mode else " (read them with read_file)"
            parts.append(f"Other files in the project{how}:\n" + "\n".join(listed) + more)
        parts.append(self.layer.context())
        return "\n\n".join(parts)

    def _choose_files(self, task: str) -> tuple[list[str], list[str]]:
        found = _project_files(self.layer)
        if self.files is not None:
            shown = [self.layer.ws.key(p) for p in self.files]
        else:
            total = sum(size for _, size in found)
            if len(found) <= SHOW_ALL_FILES and total <= SHOW_ALL_BYTES:
                shown = [p for p, _ in found]
            else:
                shown = [p for p, _ in found if p in task or f"/{Path(p).name}" in f"/{task}"]
        rest = [p for p, _ in found if p not in shown]
        return shown, rest

    def run(self, task: str) -> LoopResult:
        messages: list[dict[str, Any]] = [
            {"role": "system", "content": self.system_prompt()},
            {"role": "user", "content": self.first_message(task)},
        ]
        tools = None if self.text_mode else tool_definitions(self.layer.mode, "openai")
        exchanges: list[Exchange] = []
        usage: dict[str, int] = {}
        transcript: list[dict[str, Any]] = []
        answer, stop, requests = "", "max_requests", 0
        while requests < self.max_requests:
            digest = _digest(messages, tools, str(self.layer.ws.root))
            expect = getattr(self.client, "expect", None)  # a replay checks for drift
            if expect is not None:
                expect(digest)
            response = self.client.chat(messages, tools)
            requests += 1
            transcript.append({"request_digest": digest, "response": response.raw})
            for k, v in response.usage.items():
                usage[k] = usage.get(k, 0) + v
            answer = response.content or answer
            messages.append(response.message())
            self.on_event("response", {"request": requests, "tool_calls": len(response.tool_calls)})
            if response.tool_calls:
                exchange = self._tool_calls(response, messages, len(exchanges) + 1)
            else:
                exchange = self._text(response.content, messages, len(exchanges) + 1)
                if exchange is None:
                    stop = "done"
                    break
            if exchange is not None:
                exchanges.append(exchange)
                self.on_event("exchange", exchange.to_dict())
                if len(exchanges) >= self.max_exchanges:
                    stop = "max_exchanges"
                    break
        ok = bool(exchanges) and exchanges[-1].ok
        return LoopResult(ok, stop, exchanges, requests, usage, answer, transcript)

    def _tool_calls(
        self, response: ChatResponse, messages: list[dict[str, Any]], number: int
    ) -> Exchange | None:
        calls = [(c.name, c.arguments) for c in response.tool_calls]
        results = self.layer.handle_tool_calls(calls)
        for call, result in zip(response.tool_calls, results, strict=True):
            messages.append({"role": "tool", "tool_call_id": call.id, "content": result.text})
        edits = [r for c, r in zip(response.tool_calls, results, strict=True) if _edits(c)]
        if not edits:
            return None  # reads only: not an exchange
        return _exchange(number, "tools", edits)

    def _text(self, content: str, messages: list[dict[str, Any]], number: int) -> Exchange | None:
        """Edit blocks in the answer's text (None: there are none, the model is done)."""
        try:
            if not parse(content):
                return None
        except EditError:
            pass  # malformed blocks: applying reports the error as feedback
        result = self.layer.apply_text(content)
        follow = (
            ""
            if result.is_error
            else "\n\nContinue with the task, or answer without edits when it is done."
        )
        messages.append({"role": "user", "content": result.text + follow})
        return _exchange(number, "text", [result])


def _edits(call: Any) -> bool:
    if call.name in EDIT_TOOLS:
        return True
    if call.name != TEXT_EDITOR:
        return False
    args = call.arguments
    if isinstance(args, str):
        try:
            args = json.loads(args)
        except (json.JSONDecodeError, RecursionError):
            return True  # a broken call meant to do something: its error counts
    return not isinstance(args, dict) or args.get("command") in _EDITOR_EDITS


def _exchange(number: int, channel: str, results: list[ToolResult]) -> Exchange:
    first = results[0].result  # edit calls of one message share one result
    ok = not any(r.is_error for r in results)
    errors = list(first.get("errors") or [])
    if not ok and not errors:
        errors = [{"code": "format_invalid", "message": results[0].text}]
    return Exchange(number, ok, channel, errors, list(first.get("files") or []))


def _project_files(layer: ToolLayer) -> list[tuple[str, int]]:
    """(path, size) of the tree's files the policy allows, sorted."""
    root = layer.ws.root
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in _SKIP_DIRS)
        for name in sorted(filenames):
            rel = os.path.relpath(os.path.join(dirpath, name), root).replace(os.sep, "/")
            try:
                key = layer.ws.key(rel)
                size = os.path.getsize(os.path.join(dirpath, name))
            except (EditError, OSError):
                continue
            out.append((key, size))
    return out


def _digest(messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None, root: str) -> str:
    """A short hash of a request, so a replay can tell when it drifted from the recording
    (the root, a temporary directory in evaluations, does not count)."""
    body = json.dumps({"messages": messages, "tools": tools}, sort_keys=True, default=str)
    body = body.replace(json.dumps(root)[1:-1], "<root>")
    return hashlib.blake2b(body.encode("utf-8", "surrogatepass"), digest_size=8).hexdigest()
