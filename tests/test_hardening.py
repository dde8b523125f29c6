"""Cases found by reviewing the engine adversarially: each was a silent wrong edit, a lost byte
or a crash before it was fixed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from applydiff import (
    FormatInvalid,
    Move,
    NoMatch,
    Replace,
    Workspace,
    Write,
    apply_ops,
    parse,
    replace,
)


# -- the commit journal is data: it must not reach outside the root ---------------------------
def test_a_crafted_committed_journal_cannot_touch_files_outside_the_root(tmp_path):
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "keep.txt").write_text("keep\n")
    root = tmp_path / "repo"
    (root / ".applydiff").mkdir(parents=True)
    (root / "payload").write_text("evil\n")
    journal = {
        "state": "committed",
        "entries": [
            {"target": str(victim / "keep.txt"), "temp": None},
            {"target": str(victim / "new.txt"), "temp": str(root / "payload")},
        ],
        "dirs": [],
    }
    (root / ".applydiff" / "journal-000000000000.json").write_text(json.dumps(journal))
    Workspace(root)
    assert (victim / "keep.txt").read_text() == "keep\n"
    assert not (victim / "new.txt").exists()
    assert not list((root / ".applydiff").glob("journal-*"))


def test_a_crafted_prepared_journal_cannot_delete_outside_the_root(tmp_path):
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "keep.txt").write_text("keep\n")
    root = tmp_path / "repo"
    (root / ".applydiff").mkdir(parents=True)
    journal = {
        "state": "prepared",
        "entries": [{"target": str(root / "x"), "temp": str(victim / "keep.txt")}],
        "dirs": [str(victim)],
    }
    (root / ".applydiff" / "journal-abc.json").write_text(json.dumps(journal))
    Workspace(root)
    assert (victim / "keep.txt").read_text() == "keep\n"


@pytest.mark.parametrize("content", ['{"state": "committed"}', '"x"', "{not json", "[]"])
def test_a_malformed_journal_is_dropped_without_a_crash(tmp_path, content):
    (tmp_path / ".applydiff").mkdir()
    (tmp_path / ".applydiff" / "journal-1.json").write_text(content)
    (tmp_path / "a.txt").write_text("a\n")
    assert Workspace(tmp_path).apply([Replace("a.txt", "a", "b")]).ok
    assert (tmp_path / "a.txt").read_text() == "b\n"


# -- moves ----------------------------------------------------------------------------------
def test_a_move_onto_itself_changes_nothing(tmp_path):
    cs = apply_ops([Move("a.py", "./a.py")], {"a.py": "x\n"})
    assert cs.ok and cs.changes == []
    (tmp_path / "a.py").write_text("x = 1\n")
    patch = (
        "*** Begin Patch\n*** Update File: a.py\n*** Move to: ./a.py\n@@\n-x = 1\n+x = 2\n"
        "*** End Patch\n"
    )
    result = Workspace(tmp_path).apply(patch)
    assert result.ok and result.files == [{"path": "a.py", "action": "modified"}]
    assert (tmp_path / "a.py").read_text() == "x = 2\n"


def test_a_diff_creating_an_existing_file_is_a_conflict(tmp_path):
    (tmp_path / "new.py").write_text("mine\n")
    result = Workspace(tmp_path).apply("--- /dev/null\n+++ b/new.py\n@@ -0,0 +1 @@\n+theirs\n")
    assert [e["code"] for e in result.errors] == ["conflict"]
    assert (tmp_path / "new.py").read_text() == "mine\n"


# -- the fuzzy tier and the merge --------------------------------------------------------------
def test_a_file_line_inside_the_rewritten_lines_is_not_silently_dropped():
    text = (
        "def run(cfg):\n    start = begin(cfg)\n    audit_log(start)\n"
        "    result = compute(start)\n    return finish(result)\n"
    )
    old = text.replace("    audit_log(start)\n", "")
    new = (
        "def run(cfg):\n    start = begin_v2(cfg)\n    result = compute_v2(start)\n"
        "    return finish(result)\n"
    )
    with pytest.raises(NoMatch) as e:
        replace(text, old, new)
    assert "'audit_log(start)'" in e.value.message and "would be lost" in e.value.message


def test_an_edit_applied_twice_is_refused_the_second_time():
    text = "def load(path):\n    data = read(path)\n    check(data)\n    return parse(data)\n"
    old = text
    new = text.replace("    check(data)\n", "    log(data)\n    check(data)\n")
    once = replace(text, old, new)
    with pytest.raises(NoMatch) as e:
        replace(once, old, new)
    assert "applied already" in e.value.message and e.value.closest[0].start_line == 1


def test_elision_markers_moved_between_lines_are_refused():
    m = "# ... existing code ..."
    text = (
        "def a():\n    pass\n\ndef b():\n    x = 2\n    return x\n\ndef c():\n    y = 3\n"
        "    return y\n"
    )
    with pytest.raises(FormatInvalid) as e:
        replace(
            text,
            f"def a():\n{m}\ndef b():\n{m}\ndef c():\n",
            f"def a():\n{m}\ndef c():\n{m}\ndef b():\n",
        )
    assert "do not line up" in e.value.message


def test_an_elision_inside_a_function_does_not_run_into_the_next_one():
    text = "def a():\n    v = 1\n    return y\n\ndef b():\n    w = 2\n    return x\n"
    with pytest.raises(NoMatch):
        replace(text, "def a():\n    ...\n    return x\n", "def a():\n    ...\n    return z\n")
    assert replace(
        text, "def a():\n    ...\n    return y\n", "def a():\n    ...\n    return z\n"
    ) == text.replace("return y", "return z")


# -- the exact tier -------------------------------------------------------------------------
def test_whole_lines_do_not_match_the_end_of_another_line():
    text = "count = 0  \ntotal_count = 0\n"
    # (The file's trailing blanks, which the model did not quote, stay: issue 14.)
    assert replace(text, "count = 0\n", "count = 1\n") == "count = 1  \ntotal_count = 0\n"


def test_lines_added_after_an_indented_one_line_hit_take_its_indentation():
    text = "def f():\n    x = 1\n    return x\n"
    assert (
        replace(text, "x = 1", "x = 1\ny = 2") == "def f():\n    x = 1\n    y = 2\n    return x\n"
    )
    # Already written at the file's indentation: kept as written.
    assert replace(text, "x = 1", "x = 1\n    y = 2") == (
        "def f():\n    x = 1\n    y = 2\n    return x\n"
    )


# -- hints ---------------------------------------------------------------------------------
def test_start_line_hints_follow_earlier_edits_in_the_same_response():
    lines = [f"line {i}" for i in range(1, 121)]
    lines[49:51] = ["twin()", "done()"]
    lines[99:101] = ["twin()", "done()"]
    text = "\n".join(lines) + "\n"
    added = "".join(f"extra {i}\n" for i in range(40))
    response = (
        "f.txt\n<<<<<<< SEARCH\n:start_line:1\n-------\nline 1\n=======\nline 1\n"
        f"{added}>>>>>>> REPLACE\n"
        "<<<<<<< SEARCH\n:start_line:100\n-------\ntwin()\ndone()\n=======\ntwin()\n"
        "done(2)\n>>>>>>> REPLACE\n"
    )
    cs = apply_ops(parse(response), {"f.txt": text})
    assert cs.ok, cs.errors
    out = cs.texts()["f.txt"].split("\n")
    assert out[49 + 40 : 51 + 40] == ["twin()", "done()"]  # the first copy is untouched
    assert out[99 + 40 : 101 + 40] == ["twin()", "done(2)"]
    assert cs.reports[1].start_line == 140


# -- apply_patch -------------------------------------------------------------------------------
def test_pure_additions_under_a_missing_scope_are_refused(tmp_path):
    (tmp_path / "m.py").write_text("class B:\n    pass\n")
    patch = "*** Begin Patch\n*** Update File: m.py\n@@ class Missing:\n+    def g(self): ...\n"
    result = Workspace(tmp_path).apply(patch + "*** End Patch\n")
    assert [e["code"] for e in result.errors] == ["no_match"]
    assert "'class Missing:'" in result.errors[0]["message"]


# -- bytes and paths -------------------------------------------------------------------------
def test_utf8_with_a_stray_byte_stays_utf8(tmp_path):
    data = "naïve\n".encode() + b"bad \xff byte\n" + b"end\n"
    (tmp_path / "f.txt").write_bytes(data)
    ws = Workspace(tmp_path)
    assert ws.read("f.txt").encoding == "utf-8 (with invalid bytes kept)"
    assert ws.apply([Replace("f.txt", "naïve\n", "naïve é\n")]).ok
    assert (tmp_path / "f.txt").read_bytes() == "naïve é\n".encode() + b"bad \xff byte\nend\n"


def test_an_ignore_file_that_is_not_utf8_does_not_crash(tmp_path):
    (tmp_path / ".applydiffignore").write_bytes(b"secret\xff/\n*.log\n")
    result = Workspace(tmp_path).apply([Write("x.log", "y\n"), Write("ok.txt", "z\n")])
    assert [e["code"] for e in result.errors] == ["path_denied"]


@pytest.mark.parametrize("path", ["sub/.git", ".GIT/config", "a/.Git/HEAD", ".applydiffignore"])
def test_git_in_any_component_and_the_ignore_file_are_denied(tmp_path, path):
    result = Workspace(tmp_path).apply([Write(path, "x\n")])
    assert [e["code"] for e in result.errors] == ["path_denied"]
    assert not (tmp_path / Path(path)).exists()


# -- a path deeper than any tree: refused with its depth, never a RecursionError ---------------
DEEP = "/".join(["d"] * 2100) + "/x.txt"
DEEP_ANSWERS = {
    "unified": f"--- /dev/null\n+++ b/{DEEP}\n@@ -0,0 +1 @@\n+hi\n",
    "rename": f"diff --git a/a.txt b/{DEEP}\nsimilarity index 100%\nrename from a.txt\n"
    f"rename to {DEEP}\n",
    "apply_patch add": f"*** Begin Patch\n*** Add File: {DEEP}\n+hi\n*** End Patch\n",
    "apply_patch move": "*** Begin Patch\n*** Update File: a.txt\n"
    f"*** Move to: {DEEP}\n@@\n-a\n+b\n*** End Patch\n",
    "patch block": f">>> file: {DEEP} | mode=replace\n--- to\nhi\n<\n",
    "write_file": json.dumps({"name": "write_file", "arguments": {"path": DEEP, "content": "hi"}}),
    "copy": f"diff --git a/a.txt b/{DEEP}\nsimilarity index 100%\ncopy from a.txt\n"
    f"copy to {DEEP}\n",
}


@pytest.mark.parametrize("answer", DEEP_ANSWERS.values(), ids=DEEP_ANSWERS.keys())
def test_a_path_2100_levels_deep_is_refused_naming_the_limit(tmp_path, answer):
    (tmp_path / "a.txt").write_text("a\n")
    result = Workspace(tmp_path).apply(answer)
    assert not result.ok
    [error] = result.errors
    assert error.code == "path_denied"
    assert error.message.endswith("is not allowed: it is 2101 levels deep, past the limit of 128")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt"]
    assert (tmp_path / "a.txt").read_text() == "a\n"


@pytest.mark.slow
def test_a_path_at_the_depth_limit_is_written(tmp_path):
    from applydiff.policy import MAX_DEPTH

    path = "/".join(["d"] * (MAX_DEPTH - 1)) + "/x.txt"
    result = Workspace(tmp_path).apply([Write(path, "hi\n")])
    assert result.ok, result.errors
    assert (tmp_path / path).read_text() == "hi\n"
    too_deep = Workspace(tmp_path).apply([Write("d/" + path, "hi\n")])
    assert [e.code for e in too_deep.errors] == ["path_denied"]
    assert f"it is {MAX_DEPTH + 1} levels deep, past the limit of {MAX_DEPTH}" in (
        too_deep.errors[0].message
    )
