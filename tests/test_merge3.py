"""The three-way merge, and a cross-check against git merge-file."""

from __future__ import annotations

import shutil
import subprocess

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from applydiff.merge3 import merge3


def test_changes_on_both_sides_in_different_places_merge_cleanly():
    base = "a\nb\nc\nd\ne\n"
    m = merge3(base, "A\nb\nc\nd\ne\n", "a\nb\nc\nd\nE\n")
    assert m.clean and m.text == "A\nb\nc\nd\nE\n"


def test_same_change_on_both_sides_is_taken_once():
    m = merge3("a\nb\n", "a\nB\n", "a\nB\n")
    assert m.clean and m.text == "a\nB\n"


def test_overlapping_changes_conflict_with_markers():
    m = merge3("a\nb\nc\n", "a\nlocal\nc\n", "a\nmodel\nc\n")
    assert m.conflicts == [(2, 8)]
    assert m.text == (
        "a\n<<<<<<< local\nlocal\n||||||| snapshot\nb\n=======\nmodel\n>>>>>>> model\nc\n"
    )


def test_one_side_unchanged_takes_the_other():
    assert merge3("a\nb\n", "a\nb\n", "x\ny\nz\n").text == "x\ny\nz\n"
    assert merge3("a\nb\n", "q\n", "a\nb\n").text == "q\n"


def test_crlf_lines_and_no_final_newline():
    m = merge3("a\r\nb\r\nc", "A\r\nb\r\nc", "a\r\nb\r\nC")
    assert m.clean and m.text == "A\r\nb\r\nC"
    m = merge3("a\r\nb", "a\r\nx", "a\r\ny")
    assert (
        m.text
        == "a\r\n<<<<<<< local\r\nx\r\n||||||| snapshot\r\nb\r\n=======\r\ny\r\n>>>>>>> model\r\n"
    )


def test_added_file_on_both_sides():
    m = merge3("", "x\n", "y\n")
    assert not m.clean
    assert merge3("", "", "new\n").text == "new\n"


GIT = shutil.which("git")


def _git_merge(tmp_path, base: str, ours: str, theirs: str) -> tuple[str, int]:
    for name, text in (("ours", ours), ("base", base), ("theirs", theirs)):
        (tmp_path / name).write_text(text)
    proc = subprocess.run(
        [
            GIT,
            "merge-file",
            "-p",
            "--diff3",
            "-L",
            "local",
            "-L",
            "snapshot",
            "-L",
            "model",
            str(tmp_path / "ours"),
            str(tmp_path / "base"),
            str(tmp_path / "theirs"),
        ],
        capture_output=True,
        text=True,
    )
    return proc.stdout, proc.returncode


# Distinct lines: with repeated identical lines several alignments are equally minimal and
# difflib and git may pick different ones (both valid), so only distinct lines are compared.
LINES = st.lists(st.sampled_from([f"line {i}" for i in range(30)]), max_size=12, unique=True)


def _edit(draw, base: list[str], side: str) -> list[str]:
    out = list(base)
    for k in range(draw(st.integers(0, 3))):
        op = draw(st.sampled_from(["change", "insert", "delete"]))
        new = f"{side} {k}"
        if op == "insert" or not out:
            out.insert(draw(st.integers(0, len(out))), new)
        elif op == "delete":
            del out[draw(st.integers(0, len(out) - 1))]
        else:
            out[draw(st.integers(0, len(out) - 1))] = new
    return out


@pytest.mark.slow
@pytest.mark.skipif(GIT is None, reason="git not installed")
@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.data())
def test_agrees_with_git_merge_file(tmp_path, data):
    base = data.draw(LINES)
    ours = _edit(data.draw, base, "ours")
    theirs = _edit(data.draw, base, "theirs")
    b, o, t = ("".join(x + "\n" for x in side) for side in (base, ours, theirs))
    mine = merge3(b, o, t)
    git_text, git_conflicts = _git_merge(tmp_path, b, o, t)
    if mine.clean and git_conflicts == 0:
        assert mine.text == git_text
    elif not mine.clean and git_conflicts > 0:
        pass  # both see overlapping changes; where the markers go may differ
    else:
        raise AssertionError((b, o, t, mine.text, git_text, git_conflicts))
