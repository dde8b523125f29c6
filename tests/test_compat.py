"""Drop-in dialects: the reference MCP filesystem server's tools, the fast-apply edit_file and
Anthropic's text editor, through the tool layer and through `applydiff serve --compat`."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest
from jsonschema import Draft202012Validator

from applydiff.compat import COMPATS, TOOLS, diff_fence, head_tail
from applydiff.tools import SPECS, ToolLayer, describe, tool_definitions, tool_keys

APP = "def run():\n    return 1\n\n\ndef other():\n    return 2\n"


@pytest.fixture
def root(tmp_path):
    (tmp_path / "app.py").write_text(APP)
    return tmp_path


def layer(root, compat, **kw) -> ToolLayer:
    made = ToolLayer(root, compat=compat, **kw)
    return made


# -- schemas -----------------------------------------------------------------------------------
@pytest.mark.parametrize("compat", COMPATS)
def test_each_dialect_declares_valid_schemas_with_valid_examples(compat):
    keys = tool_keys("search_replace_multi", compat=compat)
    assert keys == list(TOOLS[compat])
    for key in keys:
        _, description, schema, example = describe(key)
        Draft202012Validator.check_schema(schema)
        Draft202012Validator(schema).validate(example)
        assert "Example: " + json.dumps(example) in description
    names = [t["function"]["name"] for t in tool_definitions(compat=compat)]
    assert (
        names
        == {
            "filesystem": [
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
            ],
            "fast-apply": ["read_file", "edit_file", "write_file", "status"],
            "anthropic": ["str_replace_based_edit_tool"],
        }[compat]
    )
    for dialect, field in (("anthropic", "input_schema"), ("mcp", "inputSchema")):
        assert all(field in t for t in tool_definitions(compat=compat, dialect=dialect))


def test_filesystem_edit_schema_is_the_reference_servers_shape():
    schema = SPECS["edit_file:filesystem"]["schema"]
    assert schema["required"] == ["path", "edits"]
    assert schema["properties"]["edits"]["items"]["required"] == ["oldText", "newText"]
    assert schema["properties"]["dryRun"] == {
        "type": "boolean",
        "default": False,
        "description": "Show the diff without writing.",
    }
    validator = Draft202012Validator(schema)
    assert not validator.is_valid({"path": "a", "edits": [{"old_string": "x", "new_string": "y"}]})
    assert not validator.is_valid({"path": "a", "edits": [], "dryRun": True})
    fast = Draft202012Validator(SPECS["edit_file:fast_apply"]["schema"])
    assert fast.is_valid({"target_file": "a", "instructions": "i", "code_edit": "c"})
    assert not fast.is_valid({"target_file": "a", "code_edit": "c"})


def test_unknown_compat_is_refused(root):
    with pytest.raises(ValueError, match="unknown compat dialect 'cursor'"):
        ToolLayer(root, compat="cursor")
    with pytest.raises(ValueError):
        tool_definitions(compat="cursor")


# -- filesystem ----------------------------------------------------------------------------------
DIFF = (
    "```diff\n--- a/app.py\n+++ b/app.py\n@@ -1,5 +1,5 @@\n def run():\n-    return 1\n"
    "+    return 10\n \n \n def other():\n```\n"
)


def test_filesystem_dry_run_shows_the_diff_and_writes_nothing(root):
    fs = layer(root, "filesystem")
    args = {"path": "app.py", "edits": [{"oldText": "return 1", "newText": "return 10"}]}
    r = fs.handle_tool_call("edit_file", {**args, "dryRun": True})
    assert not r.is_error
    assert r.text == DIFF
    assert r.result["dry_run"] is True
    assert (root / "app.py").read_text() == APP
    # No read first: the reference server needs none, and neither does this dialect.
    r = fs.handle_tool_call("edit_file", args)
    assert not r.is_error and r.text == DIFF
    assert r.result["files"] == [{"path": "app.py", "action": "modified"}]
    assert (root / "app.py").read_text() == APP.replace("return 1", "return 10")


def test_filesystem_edits_apply_in_order_all_or_none(root):
    fs = layer(root, "filesystem")
    r = fs.handle_tool_call(
        "edit_file",
        {
            "path": "app.py",
            "edits": [
                {"oldText": "return 1", "newText": "return 10"},
                {"oldText": "def missing():\n    pass\n", "newText": ""},
            ],
        },
    )
    assert r.is_error
    assert "Nothing was written" in r.text and "edit 2" in r.text and "no_match" in r.text
    assert r.result["errors"][0]["code"] == "no_match"
    assert (root / "app.py").read_text() == APP


def test_filesystem_refuses_where_the_reference_takes_the_first_match(root):
    fs = layer(root, "filesystem")
    r = fs.handle_tool_call(
        "edit_file", {"path": "app.py", "edits": [{"oldText": "    return", "newText": "  x"}]}
    )
    assert r.is_error and r.result["errors"][0]["code"] == "ambiguous"
    assert "lines 2" in r.text or "line 2" in r.text
    assert (root / "app.py").read_text() == APP


def test_filesystem_edit_tolerates_indentation_and_keeps_crlf(root):
    (root / "win.py").write_bytes(b"def f():\r\n    a = 1\r\n    b = 2\r\n")
    fs = layer(root, "filesystem")
    r = fs.handle_tool_call(
        "edit_file",
        {"path": "win.py", "edits": [{"oldText": "a = 1\nb = 2\n", "newText": "a = 1\nb = 3\n"}]},
    )
    assert not r.is_error, r.text
    assert (root / "win.py").read_bytes() == b"def f():\r\n    a = 1\r\n    b = 3\r\n"


def test_filesystem_argument_errors_are_format_invalid(root):
    fs = layer(root, "filesystem")
    r = fs.handle_tool_call("edit_file", {"path": "app.py", "edits": [], "dryRun": True})
    assert r.is_error and r.result["errors"][0]["code"] == "format_invalid"
    r = fs.handle_tool_call(
        "edit_file", {"path": "app.py", "edits": [{"oldText": "a", "newText": "b"}], "dryRun": 1}
    )
    assert r.is_error and "dryRun must be true or false" in r.text
    r = fs.handle_tool_call("edit_file", {"path": "app.py", "edits": [{"oldText": "a"}]})
    assert r.is_error and "newText" in r.text
    assert (root / "app.py").read_text() == APP


def test_filesystem_read_text_file_head_tail(root):
    fs = layer(root, "filesystem")
    r = fs.handle_tool_call("read_text_file", {"path": "app.py"})
    assert r.text == APP and not r.is_error
    assert fs.handle_tool_call("read_text_file", {"path": "app.py", "head": 2}).text == (
        "def run():\n    return 1\n"
    )
    assert fs.handle_tool_call("read_file", {"path": "app.py", "tail": 1}).text == "    return 2\n"
    both = fs.handle_tool_call("read_text_file", {"path": "app.py", "head": 1, "tail": 1})
    assert both.is_error and "not both" in both.text
    bad = fs.handle_tool_call("read_text_file", {"path": "app.py", "head": 1.5})
    assert bad.is_error and "whole number" in bad.text
    missing = fs.handle_tool_call("read_text_file", {"path": "nope.py"})
    assert missing.is_error and missing.result["errors"][0]["code"] == "io_error"
    outside = fs.handle_tool_call("read_text_file", {"path": "../x"})
    assert outside.is_error and outside.result["errors"][0]["code"] == "path_denied"


def test_filesystem_read_multiple_files_reports_each(root):
    (root / "b.txt").write_text("bee\n")
    fs = layer(root, "filesystem")
    r = fs.handle_tool_call("read_multiple_files", {"paths": ["b.txt", "gone.txt", "app.py"]})
    assert not r.is_error
    assert r.text == (
        "b.txt:\nbee\n\n\n---\ngone.txt: Error - gone.txt does not exist\n---\napp.py:\n"
        + APP
        + "\n"
    )
    assert [f.get("error") for f in r.result["files"]] == [None, "io_error", None]


def test_filesystem_write_move_and_list(root):
    (root / ".applydiffignore").write_text("secret/\n")
    (root / "secret").mkdir()
    (root / ".git").mkdir()
    fs = layer(root, "filesystem")
    r = fs.handle_tool_call("write_file", {"path": "pkg/new.py", "content": "x = 1\n"})
    assert r.text == "Successfully wrote to pkg/new.py" and not r.is_error
    assert (root / "pkg/new.py").read_bytes() == b"x = 1\n"
    r = fs.handle_tool_call("move_file", {"source": "pkg/new.py", "destination": "pkg/moved.py"})
    assert r.text == "Successfully moved pkg/new.py to pkg/moved.py"
    assert not (root / "pkg/new.py").exists()
    assert (root / "pkg/moved.py").read_bytes() == b"x = 1\n"
    taken = fs.handle_tool_call("move_file", {"source": "pkg/moved.py", "destination": "app.py"})
    assert taken.is_error and (root / "app.py").read_text() == APP
    assert (root / "pkg/moved.py").exists()
    listing = fs.handle_tool_call("list_directory", {"path": "."})
    # .git, .applydiff (the session), the ignore file and ignored directories are not shown.
    assert listing.text == "[FILE] app.py\n[DIR] pkg"
    assert fs.handle_tool_call("list_directory", {"path": "pkg"}).text == "[FILE] moved.py"
    notdir = fs.handle_tool_call("list_directory", {"path": "app.py"})
    assert notdir.is_error and "not a directory" in notdir.text


def test_filesystem_calls_of_one_message_run_one_by_one(root):
    fs = layer(root, "filesystem")
    results = fs.handle_tool_calls(
        [
            ("edit_file", {"path": "app.py", "edits": [{"oldText": "nope", "newText": "x"}]}),
            ("edit_file", {"path": "app.py", "edits": [{"oldText": "return 2", "newText": "y"}]}),
        ]
    )
    assert [r.is_error for r in results] == [True, False]
    assert (root / "app.py").read_text() == APP.replace("return 2", "y")


def test_filesystem_review_mode_keeps_the_edit_pending(root):
    fs = layer(root, "filesystem", review=True)
    r = fs.handle_tool_call(
        "edit_file", {"path": "app.py", "edits": [{"oldText": "return 1", "newText": "return 5"}]}
    )
    assert not r.is_error and "kept for review" in r.text
    assert (root / "app.py").read_text() == APP
    # A read shows the output pending review, which the next edit builds on.
    assert fs.handle_tool_call("read_text_file", {"path": "app.py", "head": 2}).text == (
        "def run():\n    return 5\n"
    )


# -- fast-apply ----------------------------------------------------------------------------------
def test_fast_apply_merges_the_snippet(root):
    fa = layer(root, "fast-apply")
    assert fa.handle_tool_call("read_file", {"path": "app.py"}).is_error is False
    r = fa.handle_tool_call(
        "edit_file",
        {
            "target_file": "app.py",
            "instructions": "I set x first in other.",
            "code_edit": "# ... existing code ...\ndef other():\n    x = 0\n    return 2\n",
        },
    )
    assert not r.is_error, r.text
    assert "lazy" in r.text
    assert (root / "app.py").read_text() == APP.replace("    return 2", "    x = 0\n    return 2")


def test_fast_apply_refusal_asks_for_context_and_writes_nothing(root):
    (root / "twice.py").write_text("def a():\n    pass\n\n\ndef b():\n    pass\n")
    fa = layer(root, "fast-apply")
    fa.handle_tool_call("read_file", {"path": "twice.py"})
    r = fa.handle_tool_call(
        "edit_file",
        {
            "target_file": "twice.py",
            "instruction": "I add a log line.",  # the singular spelling some agents use
            "code_edit": "// ... existing code ...\n    pass\n    log()\n"
            "// ... existing code ...\n",
        },
    )
    assert r.is_error
    assert "one more line of context" in r.text
    assert "what to do: begin and end each changed part of the snippet" in r.text
    assert "replace_all" not in r.text
    assert (root / "twice.py").read_text() == "def a():\n    pass\n\n\ndef b():\n    pass\n"


def test_fast_apply_needs_a_read_first(root):
    fa = layer(root, "fast-apply")
    r = fa.handle_tool_call(
        "edit_file",
        {"target_file": "app.py", "instructions": "x", "code_edit": "def run():\n    return 9\n"},
    )
    assert r.is_error and r.result["errors"][0]["code"] == "not_read"


# -- anthropic -----------------------------------------------------------------------------------
def test_anthropic_text_editor(root):
    an = layer(root, "anthropic")
    assert [t["name"] for t in an.definitions("anthropic")] == ["str_replace_based_edit_tool"]
    view = an.handle_tool_call("str_replace_based_edit_tool", {"command": "view", "path": "app.py"})
    assert not view.is_error
    r = an.handle_tool_call(
        "str_replace_based_edit_tool",
        {"command": "str_replace", "path": "app.py", "old_str": "return 1", "new_str": "return 7"},
    )
    assert not r.is_error
    assert (root / "app.py").read_text() == APP.replace("return 1", "return 7")


def test_helpers():
    assert head_tail("a\nb\nc", 2, None) == "a\nb\n"
    assert head_tail("a\nb\nc", None, 1) == "c"
    assert head_tail("a\nb\n", None, 0) == ""
    assert diff_fence("x ``` y\n") == "````diff\nx ``` y\n````\n"


# -- applydiff serve --compat ----------------------------------------------------------------------
def test_schema_command_prints_the_compat_tools():
    out = subprocess.run(
        [sys.executable, "-m", "applydiff", "schema", "--compat", "fast-apply", "--dialect", "mcp"],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    )
    tools = json.loads(out.stdout)
    assert [t["name"] for t in tools] == ["read_file", "edit_file", "write_file", "status"]
    assert tools[1]["inputSchema"]["required"] == ["target_file", "instructions", "code_edit"]
    bad = subprocess.run(
        [sys.executable, "-m", "applydiff", "serve", "--compat", "cursor"],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
    )
    assert bad.returncode == 2 and "invalid choice: 'cursor'" in bad.stderr


def _serve(root, compat, body):
    mcp = pytest.importorskip("mcp")
    del mcp
    import anyio
    from mcp.client.session import ClientSession
    from mcp.client.stdio import StdioServerParameters, stdio_client

    exe = shutil.which("applydiff", path=os.path.dirname(sys.executable))
    cmd = [exe] if exe else [sys.executable, "-m", "applydiff"]
    params = StdioServerParameters(
        command=cmd[0], args=[*cmd[1:], "serve", "--root", str(root), "--compat", compat]
    )

    async def run() -> None:
        # The SDK's default errlog is sys.stderr as it was when mcp was first imported: under
        # pytest that may be an earlier test's capture, which has no file descriptor.
        client = stdio_client(params, errlog=sys.__stderr__)
        async with client as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            await body(session)

    anyio.run(run)


def _text(result) -> str:
    return "".join(c.text for c in result.content if getattr(c, "type", "") == "text")


@pytest.mark.slow
def test_serve_compat_filesystem(root):
    async def body(session) -> None:
        tools = (await session.list_tools()).tools
        assert [t.name for t in tools] == [describe(k)[0] for k in TOOLS["filesystem"]]
        for tool, key in zip(tools, TOOLS["filesystem"], strict=True):
            assert tool.input_schema == describe(key)[2]
        edit = {"path": "app.py", "edits": [{"oldText": "return 1", "newText": "return 10"}]}
        r = await session.call_tool("edit_file", {**edit, "dryRun": True})
        assert not r.is_error and _text(r) == DIFF
        assert (root / "app.py").read_text() == APP
        r = await session.call_tool("edit_file", edit)
        assert not r.is_error and _text(r) == DIFF
        assert (root / "app.py").read_text() == APP.replace("return 1", "return 10")
        r = await session.call_tool("read_text_file", {"path": "app.py", "head": 1})
        assert _text(r) == "def run():\n"
        r = await session.call_tool("write_file", {"path": "n.txt", "content": "n\n"})
        assert _text(r) == "Successfully wrote to n.txt"
        r = await session.call_tool("edit_file", {"path": "n.txt", "edits": [{"oldText": "zz"}]})
        assert r.is_error

    _serve(root, "filesystem", body)
    assert (root / "n.txt").read_bytes() == b"n\n"


@pytest.mark.slow
def test_serve_compat_fast_apply_and_anthropic(root):
    async def fast(session) -> None:
        tools = (await session.list_tools()).tools
        assert [t.name for t in tools] == ["read_file", "edit_file", "write_file", "status"]
        assert [(t.annotations.read_only_hint, t.annotations.destructive_hint) for t in tools] == [
            (True, None),
            (False, True),
            (False, True),
            (True, None),
        ]
        assert [t.annotations.idempotent_hint for t in tools] == [None, False, True, None]
        await session.call_tool("read_file", {"path": "app.py"})
        r = await session.call_tool(
            "edit_file",
            {
                "target_file": "app.py",
                "instructions": "I make run return 4.",
                "code_edit": "def run():\n    return 4\n# ... existing code ...\n",
            },
        )
        assert not r.is_error, _text(r)

    _serve(root, "fast-apply", fast)
    assert (root / "app.py").read_text() == APP.replace("return 1", "return 4")

    async def editor(session) -> None:
        tools = (await session.list_tools()).tools
        assert [t.name for t in tools] == ["str_replace_based_edit_tool"]
        hints = tools[0].annotations
        assert (hints.read_only_hint, hints.destructive_hint, hints.idempotent_hint) == (
            False,
            True,
            False,
        )
        await session.call_tool(
            "str_replace_based_edit_tool", {"command": "view", "path": "app.py"}
        )
        r = await session.call_tool(
            "str_replace_based_edit_tool",
            {"command": "str_replace", "path": "app.py", "old_str": "return 2", "new_str": "ok"},
        )
        assert not r.is_error, _text(r)

    _serve(root, "anthropic", editor)
    assert (root / "app.py").read_text() == APP.replace("return 1", "return 4").replace(
        "return 2", "ok"
    )


def test_fast_apply_example_call_applies(tmp_path):
    (tmp_path / "src").mkdir()
    app = "def run():\n    return 1\n\n\ndef stop():\n    pass\n"
    (tmp_path / "src/app.py").write_text(app)
    fa = layer(tmp_path, "fast-apply", require_read=False)
    r = fa.handle_tool_call("edit_file", describe("edit_file:fast_apply")[3])
    assert not r.is_error, r.text
    assert (tmp_path / "src/app.py").read_text() == app.replace("return 1", "return 2")


# -- review findings: the filesystem dialect in review mode and on odd input --------------------
def test_filesystem_review_mode_moves_and_lists_the_tree_reads_show(root):
    (root / "c.txt").write_text("hello\n")
    fs = layer(root, "filesystem", review=True)
    fs.handle_tool_call("write_file", {"path": "n.txt", "content": "PENDING\n"})
    taken = fs.handle_tool_call("move_file", {"source": "c.txt", "destination": "n.txt"})
    assert taken.is_error and taken.result["errors"][0]["code"] == "conflict"
    assert taken.text == "move_file: n.txt already exists; move it away or delete it first"
    assert fs.handle_tool_call("read_text_file", {"path": "n.txt"}).text == "PENDING\n"
    moved = fs.handle_tool_call("move_file", {"source": "c.txt", "destination": "d/e.txt"})
    assert not moved.is_error and "kept for review" in moved.text
    assert fs.handle_tool_call("list_directory", {"path": "."}).text == (
        "[FILE] app.py\n[DIR] d\n[FILE] n.txt"
    )
    assert fs.handle_tool_call("list_directory", {"path": "d"}).text == "[FILE] e.txt"
    many = fs.handle_tool_call("read_multiple_files", {"paths": ["c.txt", "d/e.txt"]})
    assert many.text.startswith("c.txt: Error - c.txt is deleted in the changes pending review")
    assert many.text.endswith("---\nd/e.txt:\nhello\n\n")
    assert [f.get("error") for f in many.result["files"]] == ["io_error", None]
    assert (root / "c.txt").read_text() == "hello\n" and not (root / "n.txt").exists()


def test_filesystem_odd_arguments_are_errors_not_crashes(root):
    fs = layer(root, "filesystem")
    for head in (float("inf"), float("nan"), -1, 1.5, "2", True):
        r = fs.handle_tool_call("read_text_file", {"path": "app.py", "head": head})
        assert r.is_error and "whole number" in r.text
    assert fs.handle_tool_call("read_text_file", {"path": "app.py", "head": 2.0}).text == (
        "def run():\n    return 1\n"
    )
    r = fs.handle_tool_call("read_text_file", '{"path": "app.py", "tail": 1e400}')
    assert r.is_error
    r = fs.handle_tool_call("list_directory", {"path": "sub\x00"})
    assert r.is_error and r.result["errors"][0]["code"] == "path_denied"
    r = fs.handle_tool_call("list_directory", {"path": "nope"})
    assert r.is_error and "nope does not exist" in r.text


def test_list_directory_hides_links_out_and_refuses_ignored_directories(root, tmp_path_factory):
    outside = tmp_path_factory.mktemp("outside")
    (outside / "pw").write_text("secret\n")
    (root / "pw").symlink_to(outside / "pw")
    (root / "out").symlink_to(outside)
    (root / ".applydiffignore").write_text("secret/\n")
    (root / "secret").mkdir()
    (root / "sub").mkdir()
    fs = layer(root, "filesystem")
    assert fs.handle_tool_call("list_directory", {"path": "."}).text == ("[FILE] app.py\n[DIR] sub")
    r = fs.handle_tool_call("list_directory", {"path": "secret"})
    assert r.is_error and r.result["errors"][0]["code"] == "path_denied"
    assert fs.handle_tool_call("list_directory", {"path": "sub/.."}).text.startswith(
        "[FILE] app.py"
    )


def test_conflicting_edit_shapes_are_format_invalid(root):
    fs = layer(root, "filesystem")
    r = fs.handle_tool_call(
        "edit_file",
        {"path": "app.py", "edits": [{"oldText": "return 1", "old_string": "x", "newText": "y"}]},
    )
    assert r.is_error and "the same text given twice" in r.text
    fa = layer(root, "fast-apply", require_read=False)
    r = fa.handle_tool_call(
        "edit_file",
        {
            "target_file": "app.py",
            "instructions": "x",
            "code_edit": "def run():\n    return 9\n",
            "edits": [{"path": "app.py", "old_string": "a", "new_string": "b"}],
        },
    )
    assert r.is_error and "give one of 'code_edit', 'edits'" in r.text
    assert (root / "app.py").read_text() == APP
