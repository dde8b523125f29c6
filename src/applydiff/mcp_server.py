"""``applydiff serve``: the tool layer as a stdio MCP server (the ``mcp`` SDK, 2.x).

Every tool of the chosen mode (and ``read_file``, ``status``) is handed to the ``MCPServer``
(its ``tools``) under the name and with the JSON schema the tool layer defines. A call goes to
``ToolLayer.handle_tool_call`` behind a lock (the SDK runs synchronous tools in worker
threads, and a commit must not interleave with another); its feedback text is the result's
text, the ``Result`` its structured content, and a failed edit is raised as the SDK's
``ToolError`` so the model reads the reason. Nothing but the protocol goes to stdout.

Imported only by ``serve``: ``applydiff --help`` and the library never load the SDK.
"""

from __future__ import annotations

import inspect
import io
import json
import logging
import os
import sys
import threading
from collections.abc import AsyncIterator
from typing import Any

import anyio
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.mcpserver.tools import Tool
from mcp.server.stdio import stdio_server
from mcp.shared.message import SessionMessage
from mcp_types import (
    INVALID_PARAMS,
    INVALID_REQUEST,
    PARSE_ERROR,
    CallToolResult,
    ErrorData,
    JSONRPCError,
    TextContent,
    jsonrpc_message_adapter,
)

from .prompts import tool_rules
from .tools import ToolLayer, describe, tool_keys
from .version import __version__

log = logging.getLogger("applydiff.serve")


def _signature(schema: dict[str, Any]) -> inspect.Signature:
    """A keyword-only signature with the schema's top-level fields (required ones first), so
    the SDK's argument model takes exactly those fields; the tool layer checks their types."""
    required = set(schema.get("required", []))
    params = [
        inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, annotation=Any)
        for name in schema.get("properties", {})
        if name in required
    ] + [
        inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=None, annotation=Any)
        for name in schema.get("properties", {})
        if name not in required
    ]
    return inspect.Signature(params, return_annotation=CallToolResult)


def build_server(
    root: str | os.PathLike[str],
    *,
    mode: str,
    review: bool = False,
    text_editor: bool = False,
    compat: str | None = None,
) -> tuple[MCPServer, ToolLayer]:
    """The MCP server for ``root`` and the tool layer behind it; ``compat`` serves that
    dialect's tools (:mod:`applydiff.compat`) in place of the mode's."""
    layer = ToolLayer(root, mode=mode, review=review, compat=compat)
    lock = threading.Lock()
    keys = tool_keys(layer.mode, text_editor=text_editor, compat=compat)
    tools: list[Tool] = []
    for key in keys:
        name, description, schema, _ = describe(key)

        def call(_name: str = name, **arguments: Any) -> CallToolResult:
            args = {k: v for k, v in arguments.items() if v is not None}
            with lock:
                answer = layer.handle_tool_call(_name, args)
            if answer.is_error:
                raise ToolError(answer.text)
            return CallToolResult(
                content=[TextContent(type="text", text=answer.text)],
                structured_content=answer.result,
            )

        call.__signature__ = _signature(schema)  # type: ignore[attr-defined]
        call.__name__ = name
        tool = Tool.from_function(call, name=name, description=description, structured_output=False)
        # The schema the model sees is the tool layer's own (descriptions, nesting, limits).
        tool.parameters = schema
        tools.append(tool)
    server = MCPServer(
        "applydiff",
        version=__version__,
        instructions=tool_rules(layer.ws.root, review=review, compat=compat),
        tools=tools,
    )
    return server, layer


def serve(
    root: str | os.PathLike[str],
    *,
    mode: str,
    review: bool = False,
    text_editor: bool = False,
    compat: str | None = None,
) -> None:
    """Run the server over stdio until the client goes away."""
    logging.basicConfig(level=logging.INFO, format="applydiff serve: %(message)s")
    server, layer = build_server(
        root, mode=mode, review=review, text_editor=text_editor, compat=compat
    )
    tools = f"compat {compat}" if compat else f"mode {layer.mode}"
    log.info("serving %s (%s%s)", layer.ws.root, tools, ", review" if review else "")
    try:
        anyio.run(_run_stdio, server)
    finally:
        layer.close()


async def _run_stdio(server: MCPServer) -> None:
    """``server.run("stdio")``, except that a line the SDK cannot decode as a JSON-RPC
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
            # The SDK's private API: MCPServer has no public way to run on streams of one's
            # own (run_stdio_async reads sys.stdin itself), and no public accessor for its
            # low-level server (mcp 2.3).
            lowlevel = server._lowlevel_server
            await lowlevel.run(read_stream, write_stream, lowlevel.create_initialization_options())
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


def screen(line: str) -> str | JSONRPCError | None:
    """``line`` itself when the SDK can decode it (or it is blank, which the SDK skips); else
    the JSON-RPC error that answers it, or None for a broken notification (no one waits for
    an answer to it, and JSON-RPC sends none)."""
    if not line.strip():
        return line
    try:
        jsonrpc_message_adapter.validate_json(line, by_name=False)
        return line
    except ValueError:
        pass
    try:
        message = json.loads(line)
    except (ValueError, RecursionError):
        return _rpc_error(None, PARSE_ERROR, "Parse error: the line is not JSON")
    if not isinstance(message, dict):
        return _rpc_error(None, INVALID_REQUEST, "Invalid Request: a message is a JSON object")
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
            INVALID_PARAMS,
            f"Invalid params: MCP passes params as an object of named fields, not {kind}",
        )
    return _rpc_error(rid, INVALID_REQUEST, "Invalid Request: not a JSON-RPC 2.0 message")


def _rpc_error(rid: int | str | None, code: int, message: str) -> JSONRPCError:
    return JSONRPCError(jsonrpc="2.0", id=rid, error=ErrorData(code=code, message=message))
