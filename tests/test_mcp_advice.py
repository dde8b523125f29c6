"""Advice names only fields the advertised schema has (issue 18, MCP item 3).

For every mode and every compat dialect, each edit tool is made to fail in each way that
carries advice (no_match, ambiguous, not_read, format_invalid, file_id_mismatch, no_change,
path_denied, io_error, and the session's "read it again" after failures in a row). The words
of each message that look like field names (snake_case, camelCase) and are a field of ANY
dialect's tool must be properties of the input schema advertised for the tool that was
called, checked with jsonschema; tool names a message names must be tools the server offers.
The calls go through the tool layer, which fits the advice (tools/advice.py) for the MCP
server and every other caller; test_mcp_filesystem.py checks the same through a real server.
"""

from __future__ import annotations

from typing import Any

import pytest
from jsonschema import Draft202012Validator

from applydiff.compat import COMPATS
from applydiff.tools import MODES, SPECS, ToolLayer, tool_definitions
from applydiff.tools.advice import properties
from field_names import field_like

APP = "def run():\n    return 1\n\n\ndef other():\n    return 1\n"
ALL_FIELDS = set().union(*(properties(spec["schema"]) for spec in SPECS.values()))
ALL_TOOLS = {spec.get("name", key.split(":")[0]) for key, spec in SPECS.items()}
CONFIGS = [(mode, None) for mode in MODES] + [("search_replace_multi", c) for c in COMPATS]


def _failing_calls(name: str, schema: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Arguments of ``name`` (with this schema) that fail in each advice-bearing way."""
    top, props = schema["properties"], properties(schema)
    if name == "edit_file" and "edits" in top and "path" not in top:

        def multi(old: str, new: str, path: str = "app.py", **kw: Any) -> dict[str, Any]:
            return {"edits": [{"path": path, "old_string": old, "new_string": new, **kw}]}

        return {
            "no_match": multi("def gone():\n", "x\n"),
            "ambiguous": multi("    return 1\n", "    return 2\n"),
            "format_invalid": {"edits": [{"path": "app.py", "old_string": "x"}]},
            "file_id_mismatch": multi("def run", "def go", file_id="deadbeef"),
            "no_change": multi("return 1", "return 1"),
            "io_error": multi("a", "b", path="gone.py"),
            "path_denied": multi("a", "b", path="../x.py"),
        }
    if name == "edit_file" and "old_string" in top:

        def single(old: str, new: str, path: str = "app.py", **kw: Any) -> dict[str, Any]:
            return {"path": path, "old_string": old, "new_string": new, **kw}

        return {
            "no_match": single("def gone():\n", "x\n"),
            "ambiguous": single("    return 1\n", "    return 2\n"),
            "format_invalid": {"path": "app.py", "old_string": "x"},
            "file_id_mismatch": single("def run", "def go", file_id="deadbeef"),
            "no_change": single("return 1", "return 1"),
            "io_error": single("a", "b", path="gone.py"),
            "path_denied": single("a", "b", path="../x.py"),
        }
    if name == "edit_file" and "changes" in props:

        def anchored(start: list[str], content: list[str], **kw: Any) -> dict[str, Any]:
            return {"path": "app.py", "changes": [{"start": start, "content": content}], **kw}

        return {
            "no_match": anchored(["def gone():"], ["x"]),
            "ambiguous": anchored(["    return 1"], ["    return 2"]),
            "format_invalid": {"path": "app.py", "changes": [{"start": "x"}]},
            "file_id_mismatch": anchored(["def run():"], ["def go():"], file_id="deadbeef"),
        }
    if name == "edit_file" and "oldText" in props:

        def fs(old: str, new: str, path: str = "app.py") -> dict[str, Any]:
            return {"path": path, "edits": [{"oldText": old, "newText": new}]}

        return {
            "no_match": fs("def gone():\n", "x\n"),
            "ambiguous": fs("    return 1\n", "    return 2\n"),
            "format_invalid": {"path": "app.py", "edits": [{"oldText": "x"}]},
            "no_change": fs("return 1", "return 1"),
            "io_error": fs("a", "b", path="gone.py"),
            "path_denied": fs("a", "b", path="../x.py"),
        }
    if name == "edit_file" and "code_edit" in props:

        def lazy(code: str) -> dict[str, Any]:
            return {"target_file": "app.py", "instructions": "I edit it.", "code_edit": code}

        marker = "# ... existing code ...\n"
        return {
            "no_match": lazy(f"{marker}def gone():\n    x = 1\n    return 5\n{marker}"),
            "ambiguous": lazy(f"{marker}    return 1\n    log()\n{marker}"),
            "format_invalid": {"target_file": "app.py", "instructions": "x"},
        }
    if name in ("diff_edit", "apply_diff"):

        def block(old: str, new: str, **kw: Any) -> dict[str, Any]:
            return {
                "path": "app.py",
                "diff": f"<<<<<<< SEARCH\n{old}=======\n{new}>>>>>>> REPLACE\n",
                **kw,
            }

        return {
            "no_match": block("def gone():\n", "x\n"),
            "ambiguous": block("    return 1\n", "    return 2\n"),
            "format_invalid": {"path": "app.py", "diff": "<<<<<<< SEARCH\nx\n"},
            "file_id_mismatch": block("def run():\n", "def go():\n", file_id="deadbeef"),
            "no_change": block("    return 1\n", "    return 1\n"),
        }
    if name == "apply_patch":

        def patch(body: str) -> dict[str, Any]:
            return {"input": f"*** Begin Patch\n*** Update File: app.py\n{body}*** End Patch\n"}

        return {
            "no_match": patch("-def gone():\n+x\n"),
            "ambiguous": patch("-    return 1\n+    return 2\n"),
            "format_invalid": {"input": "*** Begin Patch\n*** Frob\n"},
        }
    if name == "str_replace_based_edit_tool":

        def editor(old: str, new: str, path: str = "app.py") -> dict[str, Any]:
            return {"command": "str_replace", "path": path, "old_str": old, "new_str": new}

        return {
            "no_match": editor("def gone():\n", "x\n"),
            "ambiguous": editor("    return 1\n", "    return 2\n"),
            "format_invalid": {"command": "str_replace", "path": "app.py"},
            "no_change": editor("return 1", "return 1"),
            "io_error": editor("a", "b", path="gone.py"),
            "path_denied": editor("a", "b", path="../x.py"),
        }
    if name == "write_file":
        return {
            "path_denied": {"path": "../x.txt", "content": "x"},
            "format_invalid": {"path": "a.txt"},
        }
    return {}


def _messages(result) -> list[str]:
    """The texts a model reads: the answer and each error's message."""
    out = [result.text]
    out += [e["message"] for e in result.result.get("errors", []) if "message" in e]
    return out


@pytest.mark.parametrize(("mode", "compat"), CONFIGS, ids=[c or m for m, c in CONFIGS])
def test_advice_names_only_fields_of_the_called_tools_schema(tmp_path, mode, compat):
    (tmp_path / "app.py").write_text(APP)
    advertised = {
        t["name"]: t["inputSchema"]
        for t in tool_definitions(mode, "mcp", text_editor=True, compat=compat)
    }
    layer = ToolLayer(tmp_path, mode=mode, compat=compat)
    checked: dict[str, set[str]] = {}
    try:
        for read_first in (False, True):
            if read_first:
                layer.ws.read("app.py", remember=True)
            for name, schema in advertised.items():
                calls = _failing_calls(name, schema)
                for code, args in calls.items():
                    # Three failures in a row bring the session's "read it again" advice.
                    for _ in range(3 if code == "no_match" else 1):
                        result = layer.handle_tool_call(name, args)
                    assert result.is_error, (name, code, result.text)
                    got = result.result["errors"][0]["code"]
                    checked.setdefault(name, set()).add(got)
                    fields = Draft202012Validator(
                        {"type": "array", "items": {"enum": sorted(properties(schema))}}
                    )
                    for text in _messages(result):
                        named = field_like(text, ALL_FIELDS)
                        wrong = [e.instance for e in fields.iter_errors(named)]
                        assert not wrong, (name, code, wrong, text)
                        tools = field_like(text, ALL_TOOLS)
                        assert set(tools) <= set(advertised), (name, code, tools, text)
    finally:
        layer.close()
    # Each edit tool was refused in the ways its calls provoke (not_read before a read).
    for name in advertised:
        if _failing_calls(name, advertised[name]):
            assert "no_match" in checked[name] or name == "write_file", (name, checked)
    if compat is None and mode != "off":
        assert "not_read" in checked[advertised_edit(mode)]


def advertised_edit(mode: str) -> str:
    return {
        "search_replace_multi": "edit_file",
        "search_replace": "edit_file",
        "anchored": "edit_file",
        "diff_block": "diff_edit",
        "apply_diff": "apply_diff",
        "patch": "apply_patch",
    }[mode]


def test_ambiguity_advice_per_tool(tmp_path):
    """The ladder's advice as each tool can follow it: replace_all only where it is a field,
    a line hint only for apply_diff."""
    (tmp_path / "app.py").write_text(APP)
    expect = {
        ("search_replace", None): "add surrounding lines that make it unique, or set "
        "replace_all to change every occurrence",
        ("apply_diff", None): "add surrounding lines that make it unique, or give a line hint",
        ("diff_block", None): "add surrounding lines that make it unique",
        ("search_replace_multi", "filesystem"): "add surrounding lines that make it unique",
    }
    for (mode, compat), advice in expect.items():
        layer = ToolLayer(tmp_path, mode=mode, compat=compat, require_read=False)
        name, schema = next(
            (t["name"], t["inputSchema"])
            for t in tool_definitions(mode, "mcp", compat=compat)
            if t["name"] in ("edit_file", "apply_diff", "diff_edit")
        )
        result = layer.handle_tool_call(name, _failing_calls(name, schema)["ambiguous"])
        layer.close()
        message = result.result["errors"][0]["message"]
        assert message == "the search text matches 2 places (tier exact) at lines 2, 6; " + advice
