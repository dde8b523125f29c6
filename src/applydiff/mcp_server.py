"""``applydiff serve``: the tool layer as a stdio MCP server (the ``mcp`` SDK 2.x, low level).

The tools are the tool layer's, under the names, schemas and annotations of the catalogue
(:func:`~applydiff.tools.catalogue.tool_annotations`: readOnlyHint, destructiveHint,
idempotentHint). A call goes to ``ToolLayer.handle_tool_call`` in a worker thread, one at a
time (a commit must not interleave with another); its feedback text is the result's text and
its structured result the structured content. A refused call is ``isError`` with the same
text, and its structured content carries the first error's ``code``, ``message`` and
``facts`` next to every error (``errors``).

With ``--compat filesystem`` the allowed directories follow the client's MCP roots when it
has them (asked before the first call, and again after ``notifications/roots/list_changed``);
without roots, the root. Each directory is served by its own layer (:mod:`.tools.roots`).

stderr gets one readable line per event (the root served, a refused call, a failure of the
SDK), never a traceback or a Python repr. Nothing but the protocol goes to stdout.

Imported only by ``serve``: ``applydiff --help`` and the library never load the SDK.
"""

from __future__ import annotations

import io
import json
import logging
import os
import sys
import threading
import warnings
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import anyio
import mcp_types as types
from mcp.server.lowlevel import Server
from mcp.server.stdio import stdio_server
from mcp.shared.exceptions import MCPDeprecationWarning
from mcp.shared.message import SessionMessage

from .engine import MergeModel
from .errors import IO_ERROR, EditError
from .prompts import tool_rules
from .tools import ToolLayer, ToolResult, tool_definitions
from .tools.base_layer import tool_error
from .tools.roots import RootedLayers, root_paths
from .version import __version__

log = logging.getLogger("applydiff.serve")

# Seconds a client that has roots gets to name them.
_ROOTS_TIMEOUT = 10.0
# The keys of an error's dict that are not its facts.
_NOT_FACTS = ("code", "message", "index", "path")


class Served:
    """What one server runs: its tools (as the catalogue declares them for MCP, made once),
    the layers, and the roots state."""

    def __init__(
        self,
        root: str | os.PathLike[str],
        *,
        mode: str,
        review: bool,
        text_editor: bool,
        compat: str | None,
        merge_model: MergeModel | None = None,
    ) -> None:
        def make(where: Path) -> ToolLayer:
            layer = ToolLayer(
                where, mode=mode, review=review, compat=compat, merge_model=merge_model
            )
            said = layer.ws.take_state_warning()  # a quarantined journal: said once, here
            if said:
                log.warning("%s: %s", where, said)
            return layer

        self.layers = RootedLayers(root, make)
        self.compat = compat
        defs = tool_definitions(
            self.layers.primary.mode, "mcp", text_editor=text_editor, compat=compat
        )
        self.names = [d["name"] for d in defs]
        self._tools = [types.Tool.model_validate(d) for d in defs]
        self.lock = threading.Lock()
        # Roots are asked for before the first call and after each list_changed notice.
        self.roots_stale = compat == "filesystem"

    def tools(self) -> list[types.Tool]:
        return list(self._tools)

    def call(self, name: str, arguments: dict[str, Any]) -> types.CallToolResult:
        if name not in self.names:
            text = f"unknown tool {name!r}; this server has {', '.join(self.names)}"
            return _refused(name, tool_error(text))
        with self.lock:
            answer = self.layers.handle_tool_call(name, arguments)
        if answer.is_error:
            return _refused(name, answer)
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=answer.text)],
            structured_content=answer.result,
        )

    def close(self) -> None:
        self.layers.close()


def _refused(name: str, answer: ToolResult) -> types.CallToolResult:
    """A refused call: its text, and the first error's code, message and facts (with every
    error, and the rest of the result) as structured content; one line on stderr."""
    errors = [e for e in answer.result.get("errors", []) if isinstance(e, dict)]
    first = errors[0] if errors else {"code": "format_invalid", "message": answer.text}
    structured = {
        **answer.result,
        "ok": False,
        "code": first.get("code"),
        "message": first.get("message"),
        "facts": {k: v for k, v in first.items() if k not in _NOT_FACTS},
        "errors": errors,
    }
    where = f" on {first['path']}" if isinstance(first.get("path"), str) else ""
    log.info("%s refused: %s%s", name, first.get("code"), where)
    return types.CallToolResult(
        content=[types.TextContent(type="text", text=answer.text)],
        structured_content=structured,
        is_error=True,
    )


def build_server(
    root: str | os.PathLike[str],
    *,
    mode: str,
    review: bool = False,
    text_editor: bool = False,
    compat: str | None = None,
    merge_model: MergeModel | None = None,
) -> tuple[Server[Any], Served]:
    """The MCP server for ``root`` and what it serves (the tools, the layers); a
    ``merge_model`` merges the lazy snippets the deterministic merge refuses."""
    served = Served(
        root,
        mode=mode,
        review=review,
        text_editor=text_editor,
        compat=compat,
        merge_model=merge_model,
    )

    async def list_tools(
        ctx: Any, params: types.PaginatedRequestParams | None
    ) -> types.ListToolsResult:
        return types.ListToolsResult(tools=served.tools())

    async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
        if served.roots_stale:
            await _follow_roots(ctx, served)
        arguments = dict(params.arguments or {})
        try:
            return await anyio.to_thread.run_sync(served.call, params.name, arguments)
        except Exception as e:  # a bug: the model gets the reason, stderr one line
            text = f"{params.name}: internal error ({type(e).__name__}: {e}); nothing was written"
            log.error("%s failed: %s: %s", params.name, type(e).__name__, _one_line(str(e)))
            return _refused(params.name, tool_error(text, EditError(text, code=IO_ERROR)))

    async def roots_changed(ctx: Any, params: types.NotificationParams | None) -> None:
        served.roots_stale = served.compat == "filesystem"

    with warnings.catch_warnings():
        # Roots are deprecated in the 2026-07-28 protocol, which no client speaks yet; the
        # filesystem dialect's clients use them.
        warnings.simplefilter("ignore", MCPDeprecationWarning)
        server: Server[Any] = Server(
            "applydiff",
            version=__version__,
            instructions=tool_rules(
                served.layers.primary.ws.root, review=review, compat=compat, mode=mode
            ),
            on_list_tools=list_tools,
            on_call_tool=call_tool,
            on_roots_list_changed=roots_changed,
        )
    return server, served


async def _follow_roots(ctx: Any, served: Served) -> None:
    """Ask the client for its roots when it has them, and make them the allowed
    directories (kept as they are when it names no directory, or the request fails)."""
    served.roots_stale = False
    capabilities = ctx.session.client_capabilities
    if capabilities is None or capabilities.roots is None:
        return
    try:
        with warnings.catch_warnings(), anyio.fail_after(_ROOTS_TIMEOUT):
            warnings.simplefilter("ignore", MCPDeprecationWarning)
            answer = await ctx.session.list_roots()
    except Exception as e:  # the client did not answer as it said it would
        why = "no answer" if isinstance(e, TimeoutError) else _one_line(e)
        log.warning("the client's roots could not be read (%s); keeping %s", why, _dirs(served))
        return
    roots = root_paths([str(r.uri) for r in answer.roots])
    if not roots:
        log.warning("the client's roots name no directory; keeping %s", _dirs(served))
        return

    def adopt() -> None:
        with served.lock:
            served.layers.set_roots(roots)

    await anyio.to_thread.run_sync(adopt)
    log.info("allowed directories: %s", ", ".join(str(r) for r in roots))


def _dirs(served: Served) -> str:
    return ", ".join(str(r) for r in served.layers.roots)


class _OneLine(logging.Formatter):
    """``applydiff serve: message`` on one line: no traceback, line breaks folded."""

    def format(self, record: logging.LogRecord) -> str:
        return "applydiff serve: " + _one_line(record.getMessage())


def _one_line(value: object) -> str:
    return " ".join(str(value).split())


def _logging() -> None:
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(_OneLine())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(logging.WARNING)
    log.setLevel(logging.INFO)
    logging.captureWarnings(True)
    warnings.simplefilter("ignore", MCPDeprecationWarning)


def serve(
    root: str | os.PathLike[str],
    *,
    mode: str,
    review: bool = False,
    text_editor: bool = False,
    compat: str | None = None,
    merge_model: MergeModel | None = None,
) -> None:
    """Run the server over stdio until the client goes away."""
    _logging()
    server, served = build_server(
        root,
        mode=mode,
        review=review,
        text_editor=text_editor,
        compat=compat,
        merge_model=merge_model,
    )
    primary = served.layers.primary
    tools = f"compat {compat}" if compat else f"mode {primary.mode}"
    merging = f", merge model {merge_model.name}" if merge_model is not None else ""
    log.info("serving %s (%s%s%s)", primary.ws.root, tools, ", review" if review else "", merging)
    try:
        anyio.run(_run_stdio, server)
    finally:
        served.close()


async def _run_stdio(server: Server[Any]) -> None:
    """The server over stdio, except that a line the SDK cannot decode as a JSON-RPC
    message is answered here: the SDK 2.3 drops it unanswered (upstream:
    modelcontextprotocol/python-sdk#2751), so a client waiting for that id would hang."""
    replies_in, replies_out = anyio.create_memory_object_stream[SessionMessage](16)
    stdin = anyio.wrap_file(io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="replace"))
    screened = _Screened(stdin, replies_in)
    async with stdio_server(stdin=screened) as (read_stream, write_stream):  # type: ignore[arg-type]

        async def forward() -> None:
            async with replies_out:
                async for reply in replies_out:
                    await write_stream.send(reply)

        async with anyio.create_task_group() as tg:
            tg.start_soon(forward)
            await server.run(read_stream, write_stream, server.create_initialization_options())
            tg.cancel_scope.cancel()


class _Screened:
    """The lines of stdin the SDK can decode; for each other line, the JSON-RPC error it
    deserves goes to ``replies`` (a request's id kept when the line has one)."""

    def __init__(self, lines: Any, replies: Any) -> None:
        self.lines = lines
        self.replies = replies

    async def __aiter__(self) -> AsyncIterator[str]:
        async with self.replies:
            async for line in self.lines:
                verdict = screen(line)
                if isinstance(verdict, str):
                    yield verdict
                elif verdict is not None:
                    await self.replies.send(SessionMessage(verdict))


def screen(line: str) -> str | types.JSONRPCError | None:
    """``line`` itself when the SDK can decode it (or it is blank, which the SDK skips); else
    the JSON-RPC error that answers it, or None for a broken notification (no one waits for
    an answer to it, and JSON-RPC sends none)."""
    if not line.strip():
        return line
    try:
        types.jsonrpc_message_adapter.validate_json(line, by_name=False)
        return line
    except ValueError:
        pass
    try:
        message = json.loads(line)
    except (ValueError, RecursionError):
        return _rpc_error(None, types.PARSE_ERROR, "Parse error: the line is not JSON")
    if not isinstance(message, dict):
        return _rpc_error(
            None, types.INVALID_REQUEST, "Invalid Request: a message is a JSON object"
        )
    if "id" not in message:
        return None
    rid = message["id"]
    if isinstance(rid, bool) or not isinstance(rid, (int, str)):
        rid = None  # an id that cannot be echoed: JSON-RPC answers with null
    params = message.get("params")
    if "method" in message and params is not None and not isinstance(params, dict):
        kind = type(params).__name__.replace("list", "array").replace("dict", "object")
        return _rpc_error(
            rid,
            types.INVALID_PARAMS,
            f"Invalid params: MCP passes params as an object of named fields, not {kind}",
        )
    return _rpc_error(rid, types.INVALID_REQUEST, "Invalid Request: not a JSON-RPC 2.0 message")


def _rpc_error(rid: int | str | None, code: int, message: str) -> types.JSONRPCError:
    return types.JSONRPCError(
        jsonrpc="2.0", id=rid, error=types.ErrorData(code=code, message=message)
    )
