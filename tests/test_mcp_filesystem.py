"""`applydiff serve --compat filesystem` as a real subprocess (issue 18, MCP items 1, 3, 5): the
reference filesystem server's whole tool set with its annotations, MCP roots as the allowed
directories, and advice that names only the dialect's fields; bytes on disk checked."""

from __future__ import annotations

import json
import os
import warnings
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

pytest.importorskip("mcp")

from mcp.shared.exceptions import MCPDeprecationWarning

from applydiff.compat import TOOLS
from applydiff.tools import SPECS, describe
from applydiff.tools.advice import properties
from field_names import field_like
from test_mcp_server import run_session, text_of

APP = "def run():\n    return 1\n\n\ndef other():\n    return 1\n"


def _tree(base: Path) -> tuple[Path, Path, Path]:
    """The --root (which the client's roots replace) and the two roots the client names."""
    served, first, second = base / "served", base / "first", base / "second"
    for d in (served, first, second):
        d.mkdir()
    (served / "only_in_root.txt").write_text("root\n")
    (first / "app.py").write_text(APP)
    (first / "pkg").mkdir()
    (first / "pkg" / "util.py").write_text("x = 1\n")
    (first / "pkg" / "big.bin").write_bytes(b"\0" * 2048)
    (first / "node_modules").mkdir()
    (first / "node_modules" / "dep.js").write_text("//\n")
    (first / "secret").mkdir()
    (first / ".applydiffignore").write_text("secret/\n")
    (second / "notes.md").write_text("# notes\n")
    return served, first, second


@pytest.fixture(scope="module")
def with_roots(tmp_path_factory) -> dict[str, Any]:
    base = tmp_path_factory.mktemp("fs")
    served, first, second = _tree(base)
    got: dict[str, Any] = {"served": served, "first": first, "second": second}

    async def body(session) -> None:
        got["tools"] = (await session.list_tools()).tools
        calls = {
            "allowed": ("list_allowed_directories", {}),
            "read": ("read_text_file", {"path": "app.py"}),
            "read_second": ("read_text_file", {"path": str(second / "notes.md")}),
            "read_root": ("read_text_file", {"path": str(served / "only_in_root.txt")}),
            "many": (
                "read_multiple_files",
                {"paths": ["app.py", str(second / "notes.md"), str(served / "only_in_root.txt")]},
            ),
            "sizes": ("list_directory_with_sizes", {"path": "pkg", "sortBy": "size"}),
            "tree": ("directory_tree", {"path": ".", "excludePatterns": ["node_modules"]}),
            "search": ("search_files", {"path": ".", "pattern": "*.py"}),
            "search_name": ("search_files", {"path": ".", "pattern": "UTIL"}),
            "search_none": ("search_files", {"path": ".", "pattern": "*.rs"}),
            "info": ("get_file_info", {"path": "pkg/util.py"}),
            "mkdir": ("create_directory", {"path": "made/deeper"}),
            "mkdir_again": ("create_directory", {"path": "made/deeper"}),
            "mkdir_secret": ("create_directory", {"path": "secret/x"}),
            "write_second": (
                "write_file",
                {"path": str(second / "new.txt"), "content": "new\n"},
            ),
            "move_across": (
                "move_file",
                {"source": "app.py", "destination": str(second / "app.py")},
            ),
            "move": ("move_file", {"source": "pkg/util.py", "destination": "made/util.py"}),
            "ambiguous": (
                "edit_file",
                {"path": "app.py", "edits": [{"oldText": "    return 1\n", "newText": "x\n"}]},
            ),
            "list": ("list_directory", {"path": "."}),
        }
        for key, (name, args) in calls.items():
            got[key] = await session.call_tool(name, args)
        # The client's roots change: the server asks again after the notice.
        roots[:] = [second]
        with warnings.catch_warnings():  # roots are deprecated in the 2026-07-28 protocol
            warnings.simplefilter("ignore", MCPDeprecationWarning)
            await session.send_roots_list_changed()
        await session.send_ping()
        got["allowed_after"] = await session.call_tool("list_allowed_directories", {})
        got["read_after"] = await session.call_tool("read_text_file", {"path": "notes.md"})
        got["first_after"] = await session.call_tool(
            "read_text_file", {"path": str(first / "app.py")}
        )

    roots = [first, second]
    with (base / "stderr.txt").open("w") as errlog:
        run_session(served, ["--compat", "filesystem"], body, roots=roots, errlog=errlog)
    got["stderr"] = (base / "stderr.txt").read_text()
    return got


# -- item 5: the tool set and annotations -----------------------------------------------------
@pytest.mark.slow
def test_the_reference_servers_tool_set_with_annotations(with_roots):
    tools = with_roots["tools"]
    assert [t.name for t in tools] == [
        "read_file",
        "read_text_file",
        "read_multiple_files",
        "write_file",
        "edit_file",
        "create_directory",
        "list_directory",
        "list_directory_with_sizes",
        "directory_tree",
        "move_file",
        "search_files",
        "get_file_info",
        "list_allowed_directories",
    ]
    for tool, key in zip(tools, TOOLS["filesystem"], strict=True):
        assert tool.input_schema == describe(key)[2]
    hints = {
        t.name: (
            t.annotations.read_only_hint,
            t.annotations.destructive_hint,
            t.annotations.idempotent_hint,
        )
        for t in tools
    }
    reads = (True, None, None)
    assert hints == {
        "read_file": reads,
        "read_text_file": reads,
        "read_multiple_files": reads,
        "list_directory": reads,
        "list_directory_with_sizes": reads,
        "directory_tree": reads,
        "search_files": reads,
        "get_file_info": reads,
        "list_allowed_directories": reads,
        "write_file": (False, True, True),
        "edit_file": (False, True, False),
        "create_directory": (False, False, True),
        "move_file": (False, True, False),
    }


# -- item 5: MCP roots ------------------------------------------------------------------------
def test_the_clients_roots_are_the_allowed_directories(with_roots):
    first, second = with_roots["first"], with_roots["second"]
    r = with_roots["allowed"]
    assert text_of(r) == f"Allowed directories:\n{first}\n{second}"
    assert r.structured_content == {"directories": [str(first), str(second)]}
    assert text_of(with_roots["read"]) == APP  # relative: under the first root
    assert text_of(with_roots["read_second"]) == "# notes\n"
    # The --root is not allowed any more: the client's roots replace it.
    r = with_roots["read_root"]
    assert r.is_error and r.structured_content["code"] == "path_denied"
    assert text_of(r) == (
        f"read_text_file: {with_roots['served'] / 'only_in_root.txt'} is outside the allowed "
        f"directories ({first}, {second})"
    )
    many = text_of(with_roots["many"])
    outside = with_roots["served"] / "only_in_root.txt"
    assert many == (
        f"app.py:\n{APP}\n\n---\n{second / 'notes.md'}:\n# notes\n\n\n---\n"
        f"{outside}: Error - {outside} is outside the allowed directories ({first}, {second})"
    )
    assert "allowed directories: " in with_roots["stderr"]


def test_the_allowed_directories_follow_the_roots_when_they_change(with_roots):
    first, second = with_roots["first"], with_roots["second"]
    assert text_of(with_roots["allowed_after"]) == f"Allowed directories:\n{second}"
    assert text_of(with_roots["read_after"]) == "# notes\n"  # relative: under the new first
    r = with_roots["first_after"]
    assert r.is_error and r.structured_content["code"] == "path_denied"
    assert with_roots["stderr"].splitlines()[-1] == (
        f"applydiff serve: read_text_file refused: path_denied on {first / 'app.py'}"
    )
    assert f"applydiff serve: allowed directories: {second}" in with_roots["stderr"]


def test_writes_land_in_the_root_they_name(with_roots):
    first, second = with_roots["first"], with_roots["second"]
    assert text_of(with_roots["write_second"]) == f"Successfully wrote to {second / 'new.txt'}"
    assert (second / "new.txt").read_bytes() == b"new\n"
    r = with_roots["move_across"]
    assert r.is_error and r.structured_content["code"] == "path_denied"
    assert text_of(r) == "move_file: the paths lie under different allowed directories"
    assert (first / "app.py").read_text() == APP and not (second / "app.py").exists()
    assert text_of(with_roots["move"]) == "Successfully moved pkg/util.py to made/util.py"
    assert (first / "made" / "util.py").read_bytes() == b"x = 1\n"
    assert not (first / "pkg" / "util.py").exists()
    assert not (with_roots["served"] / "new.txt").exists()


# -- item 5: the tools the dialect gained ------------------------------------------------------
def test_listing_with_sizes(with_roots):
    assert text_of(with_roots["sizes"]) == (
        "[FILE] big.bin                           2.00 KB\n"
        "[FILE] util.py                               6 B\n"
        "\n"
        "Total: 2 files, 0 directories\n"
        "Combined size: 2.01 KB"
    )


def test_directory_tree_as_json(with_roots):
    tree = json.loads(text_of(with_roots["tree"]))
    # Listed before the move and the mkdir: .applydiffignore, secret/ (ignored) and
    # node_modules (excluded) are left out.
    assert tree == [
        {"name": "app.py", "type": "file"},
        {
            "name": "pkg",
            "type": "directory",
            "children": [
                {"name": "big.bin", "type": "file"},
                {"name": "util.py", "type": "file"},
            ],
        },
    ]
    assert text_of(with_roots["tree"]) == json.dumps(tree, indent=2)


def test_search_files_by_glob_and_by_name(with_roots):
    first = with_roots["first"]
    assert text_of(with_roots["search"]) == f"{first / 'app.py'}\n{first / 'pkg' / 'util.py'}"
    assert text_of(with_roots["search_name"]) == str(first / "pkg" / "util.py")
    assert text_of(with_roots["search_none"]) == "No matches found"


def test_get_file_info(with_roots):
    lines = text_of(with_roots["info"]).split("\n")
    assert [line.split(": ")[0] for line in lines] == [
        "size",
        "created",
        "modified",
        "accessed",
        "isDirectory",
        "isFile",
        "permissions",
    ]
    info = dict(line.split(": ", 1) for line in lines)
    assert info["size"] == "6" and info["isDirectory"] == "false" and info["isFile"] == "true"
    mode = os.stat(with_roots["first"] / "pkg" / "big.bin").st_mode & 0o777
    assert info["permissions"] == format(mode, "o")


def test_create_directory(with_roots):
    assert text_of(with_roots["mkdir"]) == "Successfully created directory made/deeper"
    assert text_of(with_roots["mkdir_again"]) == "Successfully created directory made/deeper"
    assert (with_roots["first"] / "made" / "deeper").is_dir()
    r = with_roots["mkdir_secret"]
    assert r.is_error and r.structured_content["code"] == "path_denied"
    assert not (with_roots["first"] / "secret" / "x").exists()
    assert text_of(with_roots["list"]) == "[FILE] app.py\n[DIR] made\n[DIR] node_modules\n[DIR] pkg"


# -- item 3: advice in the dialect's words, through the server --------------------------------
def test_advice_names_only_the_dialects_fields(with_roots):
    r = with_roots["ambiguous"]
    assert r.is_error and r.structured_content["code"] == "ambiguous"
    schema = next(t.input_schema for t in with_roots["tools"] if t.name == "edit_file")
    every_field = set().union(*(properties(s["schema"]) for s in SPECS.values()))
    fields = Draft202012Validator({"type": "array", "items": {"enum": sorted(properties(schema))}})
    for text in (text_of(r), r.structured_content["message"]):
        named = field_like(text, every_field)
        assert [e.instance for e in fields.iter_errors(named)] == []
    assert "replace_all" not in text_of(r) and "file_id" not in text_of(r)
    assert r.structured_content["message"] == (
        "the search text matches 2 places (tier exact) at lines 2, 6; add surrounding lines "
        "that make it unique"
    )
    assert (with_roots["first"] / "app.py").read_text() == APP


# -- without roots: the --root ----------------------------------------------------------------
@pytest.mark.slow
def test_without_roots_the_root_is_the_allowed_directory(tmp_path):
    (tmp_path / "a.txt").write_text("a\n")
    got: dict[str, Any] = {}

    async def body(session) -> None:
        got["allowed"] = await session.call_tool("list_allowed_directories", {})
        got["outside"] = await session.call_tool("read_text_file", {"path": "/etc/hostname"})
        got["read"] = await session.call_tool("read_text_file", {"path": "a.txt"})

    run_session(tmp_path, ["--compat", "filesystem"], body)
    assert text_of(got["allowed"]) == f"Allowed directories:\n{tmp_path.resolve()}"
    assert got["outside"].is_error
    assert got["outside"].structured_content["code"] == "path_denied"
    assert text_of(got["read"]) == "a\n"
