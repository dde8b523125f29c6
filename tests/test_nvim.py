"""The Neovim plugin (editors/nvim, issue 30), driven in a real headless Neovim against a
temporary tree whose pending outputs `applydiff apply --review --yes` made: each test runs a
Lua script in `nvim --headless`, which records what the person sees (buffers, windows, the
quickfix list, messages, signs) as JSON; the test checks that and the bytes on disk."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from applydiff.cli import main as applydiff

HERE = Path(__file__).resolve().parent.parent
PLUGIN = HERE / "editors" / "nvim"
NVIM = shutil.which("nvim")


@pytest.fixture(autouse=True)
def _nvim():
    if NVIM is None:
        reason = "nvim is not installed (apt-get install neovim); the Neovim plugin is untested"
        if os.environ.get("CI"):
            pytest.fail(reason + ", and CI must run these tests")
        pytest.skip(reason)


def block(path: str, search: str, replace: str) -> str:
    return f"{path}\n```\n<<<<<<< SEARCH\n{search}=======\n{replace}>>>>>>> REPLACE\n```\n\n"


def pend(root: Path, answer: str) -> None:
    """Outputs kept pending, as `applydiff apply ANSWER --review --yes` keeps them."""
    (root / "review.md").write_text(answer)
    assert applydiff(["apply", str(root / "review.md"), "--review", "--yes", "-C", str(root)]) == 0
    (root / "review.md").unlink()


# What every script starts with: the plugin from the repository, applydiff as this Python
# runs it, and helpers that record what is on screen.
PRELUDE = r"""
vim.opt.runtimepath:prepend(PLUGIN)
vim.cmd('runtime plugin/applydiff.lua')
ad = require('applydiff').setup({ cmd = CMD })
R = { messages = {} }
vim.notify = function(msg, level) table.insert(R.messages, msg) end
function lines(buf) return vim.api.nvim_buf_get_lines(buf or 0, 0, -1, false) end
function bufname(buf) return vim.fn.fnamemodify(vim.api.nvim_buf_get_name(buf or 0), ':t') end
function screen()
  local out = {}
  for _, w in ipairs(vim.api.nvim_tabpage_list_wins(0)) do
    local b = vim.api.nvim_win_get_buf(w)
    table.insert(out, { name = vim.api.nvim_buf_get_name(b), diff = vim.wo[w].diff,
      lines = lines(b), modified = vim.bo[b].modified })
  end
  return { tabs = #vim.api.nvim_list_tabpages(), wins = out,
    current = vim.api.nvim_buf_get_name(0), line = vim.fn.line('.') }
end
function qf()
  local out = {}
  for _, i in ipairs(vim.fn.getqflist()) do
    table.insert(out, { buf = vim.api.nvim_buf_get_name(i.bufnr), lnum = i.lnum, text = i.text })
  end
  return out
end
function keys(k) vim.cmd('normal ' .. vim.api.nvim_replace_termcodes(k, true, false, true)) end
"""

RUN = r"""
local ok, err = xpcall(function() dofile(SCRIPT) end, debug.traceback)
if not ok then R.error = err end
vim.fn.writefile({ vim.json.encode(R) }, OUT)
vim.cmd('qall!')
"""


def nvim(root: Path, body: str) -> dict:
    """Run `body` (Lua) in a headless Neovim started in `root`; what it put in `R`."""
    assert NVIM is not None
    out, script, boot = root / ".out.json", root / ".test.lua", root / ".boot.lua"
    cmd = [sys.executable, "-m", "applydiff"]
    given = {"PLUGIN": str(PLUGIN), "CMD": cmd, "SCRIPT": str(script), "OUT": str(out)}
    values = "".join(f"{k} = vim.json.decode([==[{json.dumps(v)}]==])\n" for k, v in given.items())
    script.write_text(body)
    boot.write_text(values + PRELUDE + RUN)
    env = {**os.environ, "PYTHONPATH": str(HERE / "src")}
    done = subprocess.run(
        [NVIM, "--headless", "-u", "NONE", "-i", "NONE", "-n", "-c", f"luafile {boot}"],
        cwd=root,
        env=env,
        capture_output=True,
        text=True,
        timeout=30,
        stdin=subprocess.DEVNULL,
    )
    assert out.exists(), done.stderr
    result = json.loads(out.read_text())
    for name in (out, script, boot):
        name.unlink()
    assert "error" not in result, result["error"]
    return result


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    (tmp_path / "a.py").write_bytes(b"x = 1\ny = 2\n")
    (tmp_path / "c.py").write_bytes(b"def f():\n    return 1\n")
    return tmp_path


def test_status_lists_the_codes_and_enter_opens_the_review(tree):
    pend(
        tree,
        block("a.py", "x = 1\n", "x = 3\n")
        + block("c.py", "    return 1\n", "    return 2\n")
        + "*** Begin Patch\n*** Add File: new.txt\n+hello\n*** End Patch\n",
    )
    (tree / "c.py").write_bytes(b"def f():\n    return 1\n# mine\n")  # changed on disk: ~M
    seen = nvim(
        tree,
        """
vim.cmd('Applydiff status')
R.status = lines()
R.status_screen = screen()
vim.cmd('normal! gg')
keys('<CR>')
R.review = screen()
""",
    )
    assert seen["status"] == ["M  a.py", "~M c.py", "A  new.txt"]
    assert [w["name"].endswith("applydiff://status") for w in seen["status_screen"]["wins"]] == [
        False,
        True,
    ]
    review = seen["review"]
    assert review["tabs"] == 2
    disk, pending = review["wins"]
    assert disk["name"] == str(tree / "a.py") and disk["lines"] == ["x = 1", "y = 2"]
    assert pending["name"].endswith("applydiff://pending/a.py")
    assert pending["lines"] == ["x = 3", "y = 2"]
    assert disk["diff"] and pending["diff"]
    assert review["current"] == pending["name"]
    assert (tree / "a.py").read_bytes() == b"x = 1\ny = 2\n"
    assert not (tree / "new.txt").exists()


def test_status_refreshes_after_a_write_and_gives_the_statusline_its_code(tree):
    pend(tree, block("a.py", "x = 1\n", "x = 3\n"))
    seen = nvim(
        tree,
        """
vim.cmd('Applydiff status')
R.before = lines()
vim.cmd('wincmd p')
vim.cmd('edit c.py')
R.c_code = ad.statusline()
vim.cmd('edit a.py')
R.a_code = ad.statusline()
vim.api.nvim_buf_set_lines(0, 1, 2, false, { 'y = 5' })
vim.cmd('write')
local status = vim.fn.bufnr('applydiff://status')
R.refreshed = vim.wait(20000, function() return lines(status)[1] == '~M a.py' end, 50)
R.after = lines(status)
R.a_after = ad.statusline()
""",
    )
    assert seen["before"] == ["M  a.py"]
    assert (seen["c_code"], seen["a_code"]) == ("", "M")
    assert seen["refreshed"] and seen["after"] == ["~M a.py"] and seen["a_after"] == "~M"
    assert (tree / "a.py").read_bytes() == b"x = 1\ny = 5\n"


def test_review_accept_writes_the_output_and_reloads_the_buffer(tree):
    pend(tree, block("a.py", "x = 1\n", "x = 3\n"))
    seen = nvim(
        tree,
        """
vim.cmd('edit a.py')
local a = vim.api.nvim_get_current_buf()
vim.cmd('Applydiff review')
R.review = screen()
keys('a')
R.after = screen()
R.buffer = lines(a)
R.rows = ad.rows
""",
    )
    assert seen["review"]["tabs"] == 2
    assert (tree / "a.py").read_bytes() == b"x = 3\ny = 2\n"
    assert seen["buffer"] == ["x = 3", "y = 2"]
    assert seen["after"]["tabs"] == 1 and len(seen["after"]["wins"]) == 1
    assert seen["rows"] == [] or all(r["status"] == "" for r in seen["rows"])
    assert any("modified: a.py" in m for m in seen["messages"])


def test_review_discard_leaves_the_disk_and_moves_to_the_next_file(tree):
    pend(
        tree, block("a.py", "x = 1\n", "x = 3\n") + block("c.py", "    return 1\n", "  return 2\n")
    )
    seen = nvim(
        tree,
        """
vim.cmd('Applydiff review a.py')
keys(']f')
R.next = screen()
keys('[f')
R.back = screen()
keys('d')
R.after = screen()
R.rows = ad.rows
""",
    )
    assert seen["next"]["wins"][1]["name"].endswith("applydiff://pending/c.py")
    assert seen["next"]["tabs"] == 2  # one review at a time
    assert seen["back"]["wins"][1]["name"].endswith("applydiff://pending/a.py")
    assert (tree / "a.py").read_bytes() == b"x = 1\ny = 2\n"
    assert seen["after"]["wins"][1]["name"].endswith("applydiff://pending/c.py")  # the next
    assert [(r["path"], r["status"]) for r in seen["rows"]] == [("c.py", "M")]


def test_review_merge_puts_conflict_markers_in_the_buffer(tree):
    pend(tree, block("a.py", "x = 1\n", "x = 3\n"))
    (tree / "a.py").write_bytes(b"x = 4\ny = 2\n")  # the same line changed on disk: ~M
    seen = nvim(
        tree,
        """
vim.cmd('Applydiff review a.py')
keys('m')
R.after = screen()
R.qf = qf()
""",
    )
    text = (tree / "a.py").read_text()
    assert text.startswith("<<<<<<<") and "x = 4\n" in text and "x = 3\n" in text
    assert ">>>>>>>" in text and text.endswith("y = 2\n")
    after = seen["after"]
    assert after["tabs"] == 1 and after["current"] == str(tree / "a.py")
    assert after["wins"][0]["lines"] == text.splitlines() and after["line"] == 1
    assert [q["lnum"] for q in seen["qf"]] == [1] and "conflict" in seen["qf"][0]["text"]


def test_a_buffer_with_changes_not_written_is_never_acted_on(tree):
    pend(tree, block("a.py", "x = 1\n", "x = 3\n"))
    seen = nvim(
        tree,
        """
vim.cmd('edit a.py')
vim.api.nvim_buf_set_lines(0, 1, 2, false, { 'y = mine' })
local a = vim.api.nvim_get_current_buf()
vim.cmd('Applydiff review a.py')
keys('a')
keys('m')
R.review = screen()
R.buffer = lines(a)
R.modified = vim.bo[a].modified
vim.cmd('tabclose!')
vim.cmd('Applydiff undo')
""",
    )
    assert (tree / "a.py").read_bytes() == b"x = 1\ny = 2\n"
    assert seen["buffer"] == ["x = 1", "y = mine"] and seen["modified"]
    assert seen["review"]["tabs"] == 2  # the review stays open
    warned = [m for m in seen["messages"] if "a.py has changes not written" in m]
    assert len(warned) == 3  # accept, merge, undo


ANSWER = (
    "Here is the fix.\n\n"
    + block("a.py", "x = 1\n", "x = 3\n")
    + "And the other file:\n\n"
    + block("c.py", "    return 7\n", "    return 2\n")
)


def test_apply_previews_then_applies_the_buffer(tree):
    (tree / "answer.md").write_text(ANSWER.replace("return 7", "return 1"))
    seen = nvim(
        tree,
        """
vim.cmd('edit a.py')
local a = vim.api.nvim_get_current_buf()
vim.cmd('edit answer.md')
vim.cmd('Applydiff apply')
R.preview = screen()
R.disk_during = vim.fn.readfile('a.py')
keys('y')
R.after = screen()
R.a = lines(a)
""",
    )
    preview = seen["preview"]
    assert preview["tabs"] == 2 and preview["wins"][0]["name"].endswith("applydiff://preview")
    shown = preview["wins"][0]["lines"]
    assert shown[0].startswith("# applydiff: y apply to 2 file(s)")
    assert "-x = 1" in shown and "+x = 3" in shown and "+    return 2" in shown
    assert seen["disk_during"] == ["x = 1", "y = 2"]
    assert (tree / "a.py").read_bytes() == b"x = 3\ny = 2\n"
    assert (tree / "c.py").read_bytes() == b"def f():\n    return 2\n"
    assert seen["a"] == ["x = 3", "y = 2"] and seen["after"]["tabs"] == 1
    assert any("applied to 2 file(s)" in m for m in seen["messages"])


def test_apply_errors_go_to_the_quickfix_list_at_the_answers_line(tree):
    (tree / "answer.md").write_text("# notes\n\n" + ANSWER)
    line = ("# notes\n\n" + ANSWER).splitlines().index("c.py") + 3  # its <<<<<<< SEARCH
    seen = nvim(
        tree,
        """
vim.cmd('edit answer.md')
vim.cmd('Applydiff apply')
R.whole = qf()
vim.cmd('3,$Applydiff apply')
R.range = qf()
vim.fn.setreg('a', table.concat(vim.api.nvim_buf_get_lines(0, 2, -1, false), '\\n'))
vim.cmd('Applydiff apply @a')
R.register = qf()
R.tabs = #vim.api.nvim_list_tabpages()
""",
    )
    for got, at in ((seen["whole"], line), (seen["range"], line), (seen["register"], line - 2)):
        assert len(got) == 1 and got[0]["lnum"] == at, got
        assert got[0]["text"].startswith("no_match c.py: ")
    assert seen["whole"][0]["buf"] == str(tree / "answer.md")
    assert seen["register"][0]["buf"].endswith("applydiff://answer")
    assert seen["tabs"] == 1  # no preview
    assert (tree / "a.py").read_bytes() == b"x = 1\ny = 2\n"  # all files or none


def test_undo_restores_the_disk_and_the_buffer(tree):
    (tree / "ans.md").write_text(block("a.py", "x = 1\n", "x = 3\n"))
    assert applydiff(["apply", str(tree / "ans.md"), "--yes", "-C", str(tree)]) == 0
    seen = nvim(
        tree,
        """
vim.cmd('edit a.py')
R.before = lines()
vim.cmd('Applydiff undo a.py')
R.after = lines()
R.modified = vim.bo.modified
vim.cmd('Applydiff undo')
""",
    )
    assert seen["before"] == ["x = 3", "y = 2"] and seen["after"] == ["x = 1", "y = 2"]
    assert not seen["modified"]
    assert (tree / "a.py").read_bytes() == b"x = 1\ny = 2\n"
    assert "restored: a.py" in seen["messages"][0]
    assert "nothing to undo" in seen["messages"][-1]


def test_signs_mark_the_lines_a_pending_output_changes(tree):
    (tree / "a.py").write_bytes(b"x = 1\ny = 2\nz = 3\nw = 4\n")
    pend(tree, block("a.py", "y = 2\n", "y = 20\n") + block("a.py", "w = 4\n", "w = 4\nv = 5\n"))
    seen = nvim(
        tree,
        """
vim.cmd('Applydiff status')
vim.cmd('wincmd p')
vim.cmd('edit a.py')
R.signs = {}
for _, s in ipairs(vim.fn.sign_getplaced('', { group = 'applydiff' })[1].signs) do
  table.insert(R.signs, { s.lnum, s.name })
end
""",
    )
    assert sorted(seen["signs"]) == [[2, "ApplydiffChange"], [4, "ApplydiffAdd"]]


def test_help_and_a_wrong_subcommand(tree, tmp_path_factory):
    doc = tmp_path_factory.mktemp("rtp") / "doc"
    shutil.copytree(PLUGIN / "doc", doc)
    seen = nvim(
        tree,
        f"""
vim.opt.runtimepath:append('{doc.parent}')
vim.cmd('helptags {doc}')
vim.cmd('help applydiff')
R.help = vim.fn.expand('%:t')
R.topic = vim.fn.getline('.')
vim.cmd('Applydiff frobnicate')
""",
    )
    assert seen["help"] == "applydiff.txt" and "*applydiff.txt*" in seen["topic"]
    assert "unknown command frobnicate" in seen["messages"][-1]


def test_review_of_an_added_file_shows_an_empty_side_and_accept_creates_it(tree):
    pend(tree, "new.py\n```\n<<<<<<< SEARCH\n=======\nz = 9\n>>>>>>> REPLACE\n```\n")
    seen = nvim(
        tree,
        """
vim.cmd('Applydiff review new.py')
R.review = screen()
keys('a')
R.rows = ad.rows
""",
    )
    left, right = seen["review"]["wins"]
    assert left["lines"] == [""] and right["lines"] == ["z = 9"]
    assert left["diff"] and right["diff"]
    assert (tree / "new.py").read_bytes() == b"z = 9\n"
    assert all(r["status"] == "" for r in seen["rows"])


def test_a_crlf_file_accepted_through_the_review_keeps_its_crlf(tree):
    (tree / "w.txt").write_bytes(b"one\r\ntwo\r\nthree\r\n")
    pend(tree, block("w.txt", "two\n", "TWO\n"))
    seen = nvim(
        tree,
        """
vim.cmd('edit w.txt')
local w = vim.api.nvim_get_current_buf()
vim.cmd('Applydiff review')
R.review = screen()
keys('a')
R.buffer = lines(w)
R.format = vim.bo[w].fileformat
""",
    )
    right = seen["review"]["wins"][1]
    assert right["lines"] == ["one", "TWO", "three"]  # shown as lines, not with ^M
    assert (tree / "w.txt").read_bytes() == b"one\r\nTWO\r\nthree\r\n"
    assert seen["buffer"] == ["one", "TWO", "three"] and seen["format"] == "dos"
