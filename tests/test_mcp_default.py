"""`applydiff serve` with its own tools (no --compat), one real server subprocess for the file:
annotations (issue 18, MCP item 1), structured errors (item 2), a quiet stderr (item 4) and
find_files (item 6), with the bytes on disk after each call."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("mcp")

from test_mcp_server import run_session, text_of

APP = "def run():\n    return 1\n\n\ndef other():\n    return 1\n"
UTIL = "import os\n\n\ndef helper():\n    return os.sep\n"


@pytest.fixture(scope="module")
def served(tmp_path_factory) -> dict[str, Any]:
    """One session: every call's result, the tree before and after, and the server's stderr."""
    root = tmp_path_factory.mktemp("default")
    (root / "app.py").write_text(APP)
    (root / "pkg").mkdir()
    (root / "pkg" / "util.py").write_text(UTIL)
    (root / "pkg" / "notes.md").write_text("uses helper()\n")
    (root / "secret").mkdir()
    (root / "secret" / "keys.py").write_text("KEY = 'helper'\n")
    (root / ".applydiffignore").write_text("secret/\n")
    log = root.parent / "default-stderr.txt"
    got: dict[str, Any] = {"root": root}

    async def body(session) -> None:
        got["tools"] = (await session.list_tools()).tools
        calls = {
            "read": ("read_file", {"path": "app.py"}),
            "no_match": (
                "edit_file",
                {"edits": [{"path": "app.py", "old_string": "def gone():\n", "new_string": "x"}]},
            ),
            "ambiguous": (
                "edit_file",
                {"edits": [{"path": "app.py", "old_string": "return 1", "new_string": "return 2"}]},
            ),
            "denied": ("write_file", {"path": "../outside.txt", "content": "x"}),
            "not_read": (
                "edit_file",
                {"edits": [{"path": "pkg/util.py", "old_string": "os.sep", "new_string": "'/'"}]},
            ),
            "bad_args": ("read_file", {"path": 7}),
            "unknown": ("delete_everything", {}),
            "crash_like": ("edit_file", {"edits": "not a list"}),
            "find_py": ("find_files", {"pattern": "*.py"}),
            "find_all": ("find_files", {}),
            "find_text": ("find_files", {"contains": "helper"}),
            "find_under": ("find_files", {"path": "pkg", "pattern": "*.md"}),
            "find_none": ("find_files", {"pattern": "*.rs"}),
            "find_secret": ("find_files", {"path": "secret"}),
            "edit_ok": (
                "edit_file",
                {
                    "edits": [
                        {
                            "path": "app.py",
                            "old_string": "def run():\n    return 1\n",
                            "new_string": "def run():\n    return 10\n",
                        }
                    ]
                },
            ),
        }
        for key, (name, args) in calls.items():
            got[key] = await session.call_tool(name, args)

    with log.open("w") as errlog:
        run_session(root, ["--text-editor"], body, errlog=errlog)
    got["stderr"] = log.read_text()
    return got


# -- item 1: annotations --------------------------------------------------------------------
@pytest.mark.slow
def test_every_tool_carries_truthful_annotations(served):
    hints = {
        t.name: (
            t.annotations.read_only_hint,
            t.annotations.destructive_hint,
            t.annotations.idempotent_hint,
            t.annotations.open_world_hint,
        )
        for t in served["tools"]
    }
    assert hints == {
        "read_file": (True, None, None, False),
        "find_files": (True, None, None, False),
        "write_file": (False, True, True, False),
        "edit_file": (False, True, False, False),
        "status": (True, None, None, False),
        "str_replace_based_edit_tool": (False, True, False, False),
    }


# -- item 2: structured errors --------------------------------------------------------------
def test_a_refused_edit_returns_code_message_and_facts(served):
    r = served["no_match"]
    assert r.is_error
    s = r.structured_content
    assert s["ok"] is False and s["code"] == "no_match"
    assert s["message"] == (
        "the search text was not found (any tier); nothing in the file resembles it; re-read "
        "the file and copy the lines to change exactly"
    )
    assert s["facts"] == {"closest": []}
    assert s["errors"] == [
        {"code": "no_match", "index": 0, "path": "app.py", **s["facts"], "message": s["message"]}
    ]
    assert text_of(r).startswith("Nothing was written: an edit in this response failed")

    r = served["ambiguous"]
    s = r.structured_content
    assert r.is_error and s["code"] == "ambiguous"
    assert s["facts"] == {"lines": [2, 6], "tier": "exact"}
    assert "matches 2 places (tier exact) at lines 2, 6" in s["message"]


def test_every_refusal_is_structured(served):
    expected = {
        "denied": "path_denied",
        "not_read": "not_read",
        "bad_args": "format_invalid",
        "unknown": "format_invalid",
        "crash_like": "format_invalid",
    }
    for key, code in expected.items():
        r = served[key]
        s = r.structured_content
        assert r.is_error, key
        assert (s["ok"], s["code"]) == (False, code), key
        assert isinstance(s["message"], str) and s["message"], key
        assert isinstance(s["facts"], dict), key
        assert s["errors"][0]["code"] == code, key
    assert text_of(served["unknown"]) == (
        "unknown tool 'delete_everything'; this server has read_file, find_files, write_file, "
        "edit_file, status, str_replace_based_edit_tool"
    )
    assert text_of(served["bad_args"]) == "read_file: missing field 'path' (a string)"


def test_refusals_write_nothing_and_a_good_edit_writes(served):
    root: Path = served["root"]
    assert not (root.parent / "outside.txt").exists()
    assert (root / "pkg" / "util.py").read_text() == UTIL
    assert not served["edit_ok"].is_error
    assert (root / "app.py").read_bytes() == APP.replace("return 1", "return 10", 1).encode()


# -- item 4: stderr -------------------------------------------------------------------------
def test_stderr_has_one_readable_line_per_event(served):
    lines = served["stderr"].splitlines()
    assert "Traceback" not in served["stderr"]
    assert "Error(" not in served["stderr"] and "EditError" not in served["stderr"]
    assert all(line.startswith("applydiff serve: ") for line in lines), lines
    assert lines == [
        f"applydiff serve: serving {served['root']} (mode search_replace_multi)",
        "applydiff serve: edit_file refused: no_match on app.py",
        "applydiff serve: edit_file refused: ambiguous on app.py",
        "applydiff serve: write_file refused: path_denied on ../outside.txt",
        "applydiff serve: edit_file refused: not_read on pkg/util.py",
        "applydiff serve: read_file refused: format_invalid",
        "applydiff serve: delete_everything refused: format_invalid",
        "applydiff serve: edit_file refused: format_invalid",
        "applydiff serve: find_files refused: path_denied on secret",
    ]


# -- item 6: find_files ---------------------------------------------------------------------
def test_find_files_lists_by_glob_and_respects_the_ignore_rules(served):
    assert text_of(served["find_py"]) == "app.py\npkg/util.py"
    assert served["find_py"].structured_content == {
        "files": ["app.py", "pkg/util.py"],
        "truncated": False,
    }
    # .applydiffignore, .applydiff (the session) and secret/ (ignored) are not listed.
    assert text_of(served["find_all"]) == "app.py\npkg/notes.md\npkg/util.py"
    assert text_of(served["find_under"]) == "pkg/notes.md"
    assert text_of(served["find_none"]) == "no files match"
    assert served["find_secret"].is_error
    assert served["find_secret"].structured_content["code"] == "path_denied"


def test_find_files_finds_lines_by_text(served):
    r = served["find_text"]
    assert not r.is_error
    assert text_of(r) == "pkg/notes.md:1: uses helper()\npkg/util.py:4: def helper():"
    assert r.structured_content["matches"] == [
        {"path": "pkg/notes.md", "line": 1, "text": "uses helper()"},
        {"path": "pkg/util.py", "line": 4, "text": "def helper():"},
    ]


# -- item 7: start to first result ----------------------------------------------------------
@pytest.mark.slow
def test_serving_imports_only_what_serving_needs():
    # The start-up time itself is measured by benchmarks/mcp_startup.py (not a timed test on
    # a shared machine); what keeps it low is that serving loads no command-line, report,
    # benchmark or model-client code.
    code = (
        "import sys, applydiff.mcp_server\n"
        "heavy = ('rich', 'matplotlib', 'hypothesis', 'ray', 'pyarrow', 'numpy')\n"
        "own = ('applydiff.cli', 'applydiff.bench', 'applydiff.evals', 'applydiff.batch',\n"
        "       'applydiff.llm', 'applydiff.loop')\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in heavy or m.startswith(own)))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout == "[]\n"
