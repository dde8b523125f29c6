"""`applydiff serve` as a real subprocess, driven through the MCP SDK's stdio client."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

mcp = pytest.importorskip("mcp")

import anyio  # noqa: E402
from mcp.client.session import ClientSession  # noqa: E402
from mcp.client.stdio import StdioServerParameters, stdio_client  # noqa: E402

from applydiff.tools import describe, tool_names  # noqa: E402

APP = "def run():\n    return 1\n\n\ndef other():\n    return 2\n"


def _command() -> list[str]:
    exe = shutil.which("applydiff", path=os.path.dirname(sys.executable))
    return [exe] if exe else [sys.executable, "-m", "applydiff"]


def run_session(root: Path, args: list[str], body, *, roots=None, errlog=None) -> None:
    """``applydiff serve --root ROOT ARGS`` as a subprocess, a client session with it, and
    ``body(session)``; ``roots``: directories the client names as its MCP roots; ``errlog``:
    a file for the server's stderr."""
    cmd = _command()
    params = StdioServerParameters(
        command=cmd[0], args=[*cmd[1:], "serve", "--root", str(root), *args]
    )
    callback = None
    if roots is not None:
        import mcp_types

        async def callback(context):  # the client's roots, as file:// URIs
            return mcp_types.ListRootsResult(
                roots=[mcp_types.Root(uri=Path(r).as_uri()) for r in roots]
            )

    async def run() -> None:
        # The SDK's default errlog is sys.stderr as it was when mcp was first imported: under
        # pytest that may be an earlier test's capture, which has no file descriptor.
        client = stdio_client(params, errlog=errlog or sys.__stderr__)
        async with (
            client as (read, write),
            ClientSession(read, write, list_roots_callback=callback) as session,
        ):
            await session.initialize()
            await body(session)

    anyio.run(run)


def text_of(result) -> str:
    return "".join(c.text for c in result.content if getattr(c, "type", "") == "text")


def test_serve_end_to_end(tmp_path):
    root = tmp_path / "project"
    root.mkdir()
    (root / "app.py").write_text(APP)

    async def body(session: ClientSession) -> None:
        tools = (await session.list_tools()).tools
        assert [t.name for t in tools] == [
            "read_file",
            "find_files",
            "write_file",
            "edit_file",
            "status",
        ]
        for tool, key in zip(tools, tool_names("search_replace_multi"), strict=True):
            _, description, schema, _ = describe(key)
            assert tool.input_schema == schema and tool.description == description

        r = await session.call_tool("read_file", {"path": "app.py"})
        assert not r.is_error
        assert text_of(r).startswith("@file app.py mode=rw status=original file_id=")
        assert r.structured_content["lines"] == 6

        r = await session.call_tool(
            "edit_file",
            {"edits": [{"path": "app.py", "old_string": "return 1", "new_string": "return 10"}]},
        )
        assert not r.is_error, text_of(r)
        assert "edit 1 on app.py lines 2-2: exact" in text_of(r)
        assert r.structured_content["files"] == [{"path": "app.py", "action": "modified"}]
        assert (root / "app.py").read_text() == APP.replace("return 1", "return 10")

        r = await session.call_tool(
            "edit_file",
            {
                "edits": [
                    {"path": "app.py", "old_string": "def gone():\n    pass\n", "new_string": "x\n"}
                ]
            },
        )
        assert r.is_error
        assert "no_match" in text_of(r) and "Nothing was written" in text_of(r)
        assert (root / "app.py").read_text() == APP.replace("return 1", "return 10")

        r = await session.call_tool("write_file", {"path": "../outside.txt", "content": "x"})
        assert r.is_error and "path_denied" in text_of(r)
        assert not (tmp_path / "outside.txt").exists()

        r = await session.call_tool("edit_file", {"edits": [{"path": "app.py", "old_string": "x"}]})
        assert r.is_error and "new_string" in text_of(r)

        r = await session.call_tool("status", {})
        assert not r.is_error and text_of(r) == "   app.py"

    run_session(root, [], body)


@pytest.mark.slow
def test_serve_with_a_profile_and_review(tmp_path):
    (tmp_path / "app.py").write_text(APP)

    async def body(session: ClientSession) -> None:
        tools = (await session.list_tools()).tools
        assert [t.name for t in tools] == [
            "read_file",
            "find_files",
            "write_file",
            "diff_edit",
            "status",
        ]
        await session.call_tool("read_file", {"path": "app.py"})
        r = await session.call_tool(
            "diff_edit",
            {
                "path": "app.py",
                "diff": "<<<<<<< SEARCH\n    return 2\n=======\n    return 20\n>>>>>>> REPLACE\n",
            },
        )
        assert not r.is_error and text_of(r).startswith("Kept for review")
        assert (tmp_path / "app.py").read_text() == APP
        r = await session.call_tool("status", {})
        assert text_of(r) == "M  app.py"

    run_session(tmp_path, ["--model", "qwen2.5-coder:1.5b", "--review"], body)
