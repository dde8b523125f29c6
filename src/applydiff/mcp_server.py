"""``applydiff serve``: the tool layer as a stdio MCP server (the ``mcp`` SDK, 2.x).

Every tool of the chosen mode (and ``read_file``, ``status``) is registered on an
``MCPServer`` under the name and with the JSON schema the tool layer defines. A call goes to
``ToolLayer.handle_tool_call`` behind a lock (the SDK runs synchronous tools in worker
threads, and a commit must not interleave with another); its feedback text is the result's
text, the ``Result`` its structured content, and a failed edit is raised as the SDK's
``ToolError`` so the model reads the reason. Nothing but the protocol goes to stdout.

Imported only by ``serve``: ``applydiff --help`` and the library never load the SDK.
"""

from __future__ import annotations

import inspect
import logging
import os
import threading
from typing import Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp_types import CallToolResult, TextContent

from . import __version__
from .prompts import tool_rules
from .tools import ToolLayer, describe, tool_keys

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
    server = MCPServer(
        "applydiff",
        version=__version__,
        instructions=tool_rules(layer.ws.root, review=review, compat=compat),
    )
    lock = threading.Lock()
    keys = tool_keys(layer.mode, text_editor=text_editor, compat=compat)
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
        server.add_tool(call, name=name, description=description, structured_output=False)
        # The schema the model sees is the tool layer's own (descriptions, nesting, limits).
        tool = server._tool_manager.get_tool(name)
        assert tool is not None
        tool.parameters = schema
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
        server.run("stdio")
    finally:
        layer.close()
