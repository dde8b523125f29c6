"""Every command's --help says what it does, what it prints and shows an example; the lists
it shows come from applydiff.names, which the library's own tables agree with (issue 29)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from applydiff import names
from applydiff.cli import commands
from applydiff.cli.edits import STATUS_LEGEND
from applydiff.cli.parser import build_parser

CLI = [sys.executable, "-m", "applydiff"]


def _help(*args: str) -> str:
    done = subprocess.run([*CLI, *args, "--help"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stderr == ""
    return done.stdout


@pytest.mark.parametrize("command", sorted(commands()))
def test_every_command_has_a_description_and_an_example(command):
    text = _help(command)
    usage, _, rest = text.partition("\n\n")
    assert usage.startswith(f"usage: applydiff {command}")
    description = rest.split("\n\n")[0]
    assert not description.startswith(("positional arguments:", "options:"))
    assert len(description) > 40
    assert "example:\n  applydiff " in text or "examples:\n  " in text


def test_every_argument_has_help():
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    missing = [
        f"{name} {action.dest}"
        for name, p in sub.choices.items()
        for action in p._actions
        if action.help is None
    ]
    assert missing == []


def test_the_status_legend_names_every_code():
    text = _help("status")
    said_all = ("M the model modified", "A added", "D deleted", "~ changed on disk", "~M", "blank")
    for said in said_all:
        assert said in text
    for code in ("M ", "A ", "D ", "~ ", "~M", "blank"):
        assert code in STATUS_LEGEND


def test_status_prints_the_legend_on_a_terminal_only(tmp_path):
    import os
    import pty

    from applydiff.session import Session

    (tmp_path / "a.txt").write_text("one\n")
    s = Session(tmp_path)
    s.remember("a.txt", "one\n")
    s.close()
    piped = subprocess.run([*CLI, "status"], cwd=tmp_path, capture_output=True, text=True)
    assert (piped.returncode, piped.stdout, piped.stderr) == (0, "   a.txt\n", "")
    leader, follower = pty.openpty()
    try:
        done = subprocess.run(
            [*CLI, "--color", "never", "status"],
            cwd=tmp_path,
            stdout=subprocess.PIPE,
            stderr=follower,
            text=True,
            timeout=60,
        )
        said = os.read(leader, 4096).decode()
    finally:
        os.close(leader)
        os.close(follower)
    assert done.returncode == 0 and done.stdout == "   a.txt\n"
    assert said.replace("\r\n", "\n") == STATUS_LEGEND + "\n"


def test_the_names_are_the_librarys():
    from applydiff import compat, prompts
    from applydiff.evals.tasks import shipped_task_names
    from applydiff.formats import FORMATS
    from applydiff.formats.tool_calls import TOOLS
    from applydiff.merge_model import PROMPTS
    from applydiff.tools import DIALECTS, MODES

    assert names.FORMATS == FORMATS
    assert names.MODES == MODES
    assert tuple(prompts.TEXT_MODES) == names.TEXT_MODES
    assert names.DIALECTS == DIALECTS
    assert names.COMPATS == compat.COMPATS == tuple(compat.TOOLS)
    assert names.EDIT_TOOLS == TOOLS
    assert tuple(PROMPTS) == names.MERGE_PROMPTS
    assert tuple(shipped_task_names()) == names.TASKS


def test_help_imports_none_of_the_librarys_work():
    code = (
        "import sys; from applydiff.cli import main\n"
        "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
        "heavy = sorted(m for m in sys.modules if m.startswith('applydiff.') and m.split('.')[1]"
        " in ('formats', 'match', 'tools', 'engine', 'batch', 'problems', 'workspace'))\n"
        "print(heavy, 'dataclasses' in sys.modules, file=sys.stderr)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.stderr.strip().splitlines()[-1] == "[] False"
