"""Patches as git and diff write them (issue 15, items 6-8): C-quoted paths, header-only
changes (modes, renames, copies, binary files), GNU diff's backup names. Most patches are made
by the machine's ``git``/``diff`` in a temp dir, then applied to a fresh tree."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from applydiff import Move, Replace, Workspace
from applydiff.formats import parse
from applydiff.formats.unified import unquote
from git_repo import git

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")

Files = dict[str, bytes]


def tree(root: Path, files: Files, executable: tuple[str, ...] = ()) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    for rel, data in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(data)
        p.chmod(0o755 if rel in executable else 0o644)
    return root


def git_patch(
    tmp: Path,
    files: Files,
    change: Callable[[Path], None],
    *diff_args: str,
    executable: tuple[str, ...] = (),
) -> str:
    """What ``git diff --cached`` writes for ``change`` made to ``files``."""
    repo = tree(tmp / "repo", files, executable)
    git(repo, "init", "-q")
    git(repo, "add", "--", ".")
    git(repo, "commit", "-q", "-m", "base")
    change(repo)
    git(repo, "add", "--", ".")
    return git(repo, "diff", "--cached", *diff_args)


def applied(tmp: Path, files: Files, patch: str, executable: tuple[str, ...] = ()):
    root = tree(tmp / "ws", files, executable)
    return root, Workspace(root).apply(patch)


def is_exec(p: Path) -> bool:
    return bool(p.stat().st_mode & stat.S_IXUSR)


def snapshot(root: Path) -> dict[str, tuple[bytes, int]]:
    return {
        str(p.relative_to(root)): (p.read_bytes(), stat.S_IMODE(p.stat().st_mode))
        for p in root.rglob("*")
        if p.is_file() and ".applydiff" not in p.parts
    }


APP = b"def main():\n    return 1\n\n\nprint(main())\n"


# -- item 6: C-quoted paths --------------------------------------------------------------------
def test_quoted_non_ascii_path_from_git(tmp_path):
    files = {"café.py": APP}
    patch = git_patch(
        tmp_path, files, lambda r: (r / "café.py").write_bytes(APP.replace(b"1", b"2"))
    )
    assert '"a/caf\\303\\251.py"' in patch
    root, result = applied(tmp_path, files, patch)
    assert result.ok, result.errors
    assert (root / "café.py").read_bytes() == APP.replace(b"1", b"2")
    assert not (root / "caf").exists()


def test_quoted_special_characters_from_git(tmp_path):
    name = 'we"ird\na\tme ü.py'  # a backslash would be a separator to applydiff
    files = {name: APP}
    patch = git_patch(tmp_path, files, lambda r: (r / name).write_bytes(APP + b"# end\n"))
    assert '"a/we\\"ird\\na\\tme \\303\\274.py"' in patch
    root, result = applied(tmp_path, files, patch)
    assert result.ok, result.errors
    assert (root / name).read_bytes() == APP + b"# end\n"


def test_quoted_rename_from_git(tmp_path):
    files = {"café.py": APP}
    patch = git_patch(tmp_path, files, lambda r: (r / "café.py").rename(r / "naïve.py"), "-M")
    assert 'rename from "caf\\303\\251.py"' in patch
    assert parse(patch) == [Move("café.py", "naïve.py", origin=1)]
    root, result = applied(tmp_path, files, patch)
    assert result.ok, result.errors
    assert (root / "naïve.py").read_bytes() == APP and not (root / "café.py").exists()


def test_unquote_every_escape():
    assert unquote(r"a\a\b\t\n\v\f\r\"\\z") == 'a\a\b\t\n\v\f\r"\\z'
    assert unquote(r"\346\227\245.txt") == "日.txt"
    assert os.fsencode(unquote(r"x\377")) == b"x\xff"  # not UTF-8: the byte itself


@pytest.mark.parametrize(
    "header",
    [
        'diff --git "a/d\\303\\251j\\303\\240.py" "b/d\\303\\251j\\303\\240.py"\n'
        '--- "a/d\\303\\251j\\303\\240.py"\n+++ "b/d\\303\\251j\\303\\240.py"\n',
        '--- "a/d\\303\\251j\\303\\240.py"\t2024-01-01 00:00:00\n'
        '+++ "b/d\\303\\251j\\303\\240.py"\t2024-01-01 00:00:01\n',
        'diff --git a/déjà.py "b/d\\303\\251j\\303\\240.py"\nindex 1..2 100644\n',
    ],
)
def test_quoted_headers_written_by_hand(header):
    text = header + "@@ -1 +1 @@\n-a\n+b\n"
    assert [op.path for op in parse(text)] == ["déjà.py"]


def test_plain_path_with_spaces_in_diff_git_line():
    text = "diff --git a/my b/file.py b/my b/file.py\nold mode 100644\nnew mode 100755\n"
    assert parse(text) == [Move("my b/file.py", "my b/file.py", origin=1, executable=True)]


# -- item 7: header-only changes -------------------------------------------------------------
def test_mode_only_diff_sets_the_executable_bit(tmp_path):
    files = {"run.sh": b"#!/bin/sh\necho hi\n"}
    patch = git_patch(tmp_path, files, lambda r: (r / "run.sh").chmod(0o755))
    assert "old mode 100644\nnew mode 100755" in patch and "@@" not in patch
    root, result = applied(tmp_path, files, patch)
    assert result.ok, result.errors
    assert is_exec(root / "run.sh") and (root / "run.sh").read_bytes() == files["run.sh"]


def test_mode_only_diff_clears_the_executable_bit(tmp_path):
    files = {"run.sh": b"#!/bin/sh\n"}
    patch = git_patch(
        tmp_path, files, lambda r: (r / "run.sh").chmod(0o644), executable=("run.sh",)
    )
    root, result = applied(tmp_path, files, patch, executable=("run.sh",))
    assert result.ok, result.errors
    assert stat.S_IMODE((root / "run.sh").stat().st_mode) == 0o644


def test_mode_change_with_hunks(tmp_path):
    files = {"tool.py": APP, "other.py": b"x = 1\n"}

    def change(r: Path) -> None:
        (r / "tool.py").write_bytes(b"#!/usr/bin/env python3\n" + APP)
        (r / "tool.py").chmod(0o755)
        (r / "other.py").write_bytes(b"x = 2\n")

    patch = git_patch(tmp_path, files, change)
    root, result = applied(tmp_path, files, patch)
    assert result.ok, result.errors
    assert (root / "tool.py").read_bytes() == b"#!/usr/bin/env python3\n" + APP
    assert is_exec(root / "tool.py") and not is_exec(root / "other.py")
    assert (root / "other.py").read_bytes() == b"x = 2\n"


def test_new_executable_file(tmp_path):
    files = {"a.txt": b"a\n"}

    def change(r: Path) -> None:
        (r / "bin").mkdir()
        (r / "bin/go").write_bytes(b"#!/bin/sh\nexit 0\n")
        (r / "bin/go").chmod(0o755)

    patch = git_patch(tmp_path, files, change)
    assert "new file mode 100755" in patch
    root, result = applied(tmp_path, files, patch)
    assert result.ok, result.errors
    assert (root / "bin/go").read_bytes() == b"#!/bin/sh\nexit 0\n" and is_exec(root / "bin/go")


def test_new_empty_file_and_deleted_file(tmp_path):
    files = {"gone.txt": b"bye\n", "keep.txt": b"k\n"}

    def change(r: Path) -> None:
        (r / "gone.txt").unlink()
        (r / "empty.txt").write_bytes(b"")

    patch = git_patch(tmp_path, files, change)
    assert "deleted file mode 100644" in patch and "new file mode 100644" in patch
    root, result = applied(tmp_path, files, patch)
    assert result.ok, result.errors
    assert snapshot(root) == {"keep.txt": (b"k\n", 0o644), "empty.txt": (b"", 0o644)}


def test_pure_rename_is_a_move(tmp_path):
    files = {"src/old.py": APP}
    patch = git_patch(tmp_path, files, lambda r: (r / "src/old.py").rename(r / "src/new.py"), "-M")
    assert "similarity index 100%" in patch and "@@" not in patch
    root, result = applied(tmp_path, files, patch)
    assert result.ok, result.errors
    assert snapshot(root) == {"src/new.py": (APP, 0o644)}


def test_rename_with_mode_change_and_hunk(tmp_path):
    files = {"old.sh": b"#!/bin/sh\necho 1\necho 2\necho 3\necho 4\n"}

    def change(r: Path) -> None:
        (r / "old.sh").rename(r / "new.sh")
        (r / "new.sh").write_bytes(b"#!/bin/sh\necho 1\necho 2\necho 3\necho four\n")
        (r / "new.sh").chmod(0o755)

    patch = git_patch(tmp_path, files, change, "-M")
    assert "rename from old.sh" in patch and "new mode 100755" in patch
    root, result = applied(tmp_path, files, patch)
    assert result.ok, result.errors
    assert not (root / "old.sh").exists() and is_exec(root / "new.sh")
    assert (root / "new.sh").read_bytes().endswith(b"echo four\n")


def test_copy_gets_the_source_content_plus_hunks(tmp_path):
    body = b"".join(b"line %d\n" % k for k in range(20))
    files = {"base.py": body}

    def change(r: Path) -> None:
        (r / "copy.py").write_bytes(body.replace(b"line 10\n", b"line ten\n"))

    patch = git_patch(tmp_path, files, change, "-C", "--find-copies-harder")
    assert "copy from base.py\ncopy to copy.py" in patch
    root, result = applied(tmp_path, files, patch)
    assert result.ok, result.errors
    assert (root / "base.py").read_bytes() == body
    assert (root / "copy.py").read_bytes() == body.replace(b"line 10\n", b"line ten\n")


def test_pure_copy_of_an_executable_keeps_its_mode(tmp_path):
    body = b"#!/bin/sh\n" + b"".join(b"echo %d\n" % k for k in range(10))
    files = {"a.sh": body}
    patch = git_patch(
        tmp_path,
        files,
        lambda r: shutil.copy2(r / "a.sh", r / "b.sh"),
        "-C",
        "--find-copies-harder",
        executable=("a.sh",),
    )
    assert "similarity index 100%\ncopy from a.sh" in patch
    root, result = applied(tmp_path, files, patch, executable=("a.sh",))
    assert result.ok, result.errors
    assert (root / "b.sh").read_bytes() == body and is_exec(root / "b.sh")


def test_copy_onto_an_existing_file_is_refused(tmp_path):
    patch = "diff --git a/a.py b/b.py\nsimilarity index 100%\ncopy from a.py\ncopy to b.py\n"
    root, result = applied(tmp_path, {"a.py": b"a\n", "b.py": b"b\n"}, patch)
    assert not result.ok and result.errors[0]["code"] == "conflict"
    assert (root / "b.py").read_bytes() == b"b\n"


def test_no_newline_at_end_of_file(tmp_path):
    files = {"n.txt": b"one\ntwo"}
    patch = git_patch(tmp_path, files, lambda r: (r / "n.txt").write_bytes(b"one\nTWO"))
    assert patch.count("\\ No newline at end of file") == 2
    root, result = applied(tmp_path, files, patch)
    assert result.ok, result.errors
    assert (root / "n.txt").read_bytes() == b"one\nTWO"


def test_index_line_of_an_executable_keeps_its_mode(tmp_path):
    files = {"x.sh": b"#!/bin/sh\necho a\n"}
    patch = git_patch(
        tmp_path,
        files,
        lambda r: (r / "x.sh").write_bytes(b"#!/bin/sh\necho b\n"),
        executable=("x.sh",),
    )
    assert " 100755\n" in patch
    root, result = applied(tmp_path, files, patch, executable=("x.sh",))
    assert result.ok and is_exec(root / "x.sh")


@pytest.mark.parametrize("binary_flag", [(), ("--binary",)])
def test_binary_file_refuses_the_whole_patch(tmp_path, binary_flag):
    files = {"logo.png": b"\x89PNG\x00\x01", "a.py": b"x = 1\n"}

    def change(r: Path) -> None:
        (r / "a.py").write_bytes(b"x = 2\n")
        (r / "logo.png").write_bytes(b"\x89PNG\x00\x02")

    patch = git_patch(tmp_path, files, change, *binary_flag)
    marker = "GIT binary patch" if binary_flag else "Binary files a/logo.png and b/logo.png"
    assert marker in patch
    root, result = applied(tmp_path, files, patch)
    assert not result.ok
    error = result.errors[0]
    assert error["code"] == "format_invalid"
    line = patch.splitlines().index(next(x for x in patch.splitlines() if x.startswith(marker)))
    assert f"line {line + 1} " in error["message"] and "logo.png" in error["message"]
    assert "another way" in error["message"]
    assert (root / "a.py").read_bytes() == b"x = 1\n"


def test_plain_diff_r_binary_line_refuses(tmp_path):
    patch = (
        "--- a/x.py\n+++ b/x.py\n@@ -1 +1 @@\n-x = 1\n+x = 2\n"
        "Binary files a/img.bin and b/img.bin differ\n"
    )
    root, result = applied(tmp_path, {"x.py": b"x = 1\n"}, patch)
    assert not result.ok and "img.bin" in result.errors[0]["message"]
    assert "line 6 " in result.errors[0]["message"]
    assert (root / "x.py").read_bytes() == b"x = 1\n"


def test_symlink_is_refused_naming_the_file(tmp_path):
    files = {"a.txt": b"a\n"}
    patch = git_patch(tmp_path, files, lambda r: (r / "link").symlink_to("a.txt"))
    assert "new file mode 120000" in patch
    root, result = applied(tmp_path, files, patch)
    assert not result.ok and "link" in result.errors[0]["message"]
    assert "line 2 " in result.errors[0]["message"]
    assert not (root / "link").exists()


def test_undo_restores_the_mode(tmp_path):
    root = tree(tmp_path / "ws", {"run.sh": b"#!/bin/sh\n"})
    ws = Workspace(root, session=True)
    assert ws.apply("diff --git a/run.sh b/run.sh\nold mode 100644\nnew mode 100755\n").ok
    assert is_exec(root / "run.sh")
    assert ws.undo().ok
    assert stat.S_IMODE((root / "run.sh").stat().st_mode) == 0o644


def test_dry_run_then_commit_applies_the_mode(tmp_path):
    root = tree(tmp_path / "ws", {"run.sh": b"#!/bin/sh\n"})
    ws = Workspace(root)
    result = ws.apply(
        "diff --git a/run.sh b/run.sh\nold mode 100644\nnew mode 100755\n", dry_run=True
    )
    assert result.ok and not is_exec(root / "run.sh")
    (root / "run.sh").chmod(0o600)  # a chmod in between is kept, the x bit added to it
    assert ws.commit(result).committed
    assert stat.S_IMODE((root / "run.sh").stat().st_mode) == 0o700


# -- item 8: GNU diff naming -----------------------------------------------------------------
@pytest.mark.parametrize("suffix", [".orig", ".bak", "~", ".old"])
def test_backup_name_edits_the_file_itself(tmp_path, suffix):
    src = tree(tmp_path / "src", {"f.py" + suffix: APP, "f.py": APP.replace(b"1", b"2")})
    out = subprocess.run(
        ["diff", "-u", "f.py" + suffix, "f.py"], cwd=src, capture_output=True, text=True
    )
    patch = out.stdout
    assert patch.startswith(f"--- f.py{suffix}\t")
    assert [(type(op), op.path) for op in parse(patch)] == [(Replace, "f.py")]
    files = {"f.py": APP, "f.py" + suffix: APP}
    root, result = applied(tmp_path, files, patch)
    assert result.ok, result.errors
    assert (root / "f.py").read_bytes() == APP.replace(b"1", b"2")
    assert (root / ("f.py" + suffix)).read_bytes() == APP


def test_plain_diff_with_other_names_is_not_a_move():
    text = "--- a/x.py\n+++ b/y.py\n@@ -1 +1 @@\n-a\n+b\n"
    assert parse(text) == [Replace("x.py", "a\n", "b\n", hint_line=1, origin=3)]
    text = "--- src/module/long_name.py\n+++ short.py\n@@ -1 +1 @@\n-a\n+b\n"
    assert [op.path for op in parse(text)] == ["short.py"]  # fewest components


def test_diff_u_of_two_trees_edits_the_old_tree_path(tmp_path):
    tree(tmp_path / "old", {"x.py": APP})
    tree(tmp_path / "new", {"x.py": APP.replace(b"1", b"3")})
    patch = subprocess.run(
        ["diff", "-ru", "old", "new"], cwd=tmp_path, capture_output=True, text=True
    ).stdout
    assert [(type(op), op.path) for op in parse(patch)] == [(Replace, "old/x.py")]


def test_git_diff_with_other_names_is_still_a_rename():
    text = "diff --git a/x.py b/y.py\n--- a/x.py\n+++ b/y.py\n@@ -1 +1 @@\n-a\n+b\n"
    assert parse(text) == [
        Replace("x.py", "a\n", "b\n", hint_line=1, origin=4),
        Move("x.py", "y.py", origin=1),
    ]


def test_review_refuses_a_mode_change_it_cannot_keep(tmp_path):
    root = tree(tmp_path / "ws", {"run.sh": b"#!/bin/sh\n"})
    ws = Workspace(root, session=True)
    result = ws.apply(
        "diff --git a/run.sh b/run.sh\nold mode 100644\nnew mode 100755\n", review=True
    )
    assert not result.ok and "review" in result.errors[0]["message"]
    assert not is_exec(root / "run.sh")


# -- the rename preview (issue 18, item 3) ---------------------------------------------------
def test_rename_preview_is_one_entry_in_gits_shape(tmp_path):
    root = tree(tmp_path / "t", {"src/a.py": b"def f():\n    return 1\n", "keep.txt": b"k\n"})
    ws = Workspace(root)
    pure = ws.apply(
        "*** Begin Patch\n*** Update File: src/a.py\n*** Move to: src/b.py\n*** End Patch\n",
        dry_run=True,
    )
    assert pure.ok, pure.errors
    assert list(pure.diffs()) == [
        ("src/a.py", "diff --git a/src/a.py b/src/b.py\nrename from src/a.py\nrename to src/b.py\n")
    ]
    changed = ws.apply(
        "*** Begin Patch\n*** Update File: src/a.py\n*** Move to: src/b.py\n@@\n def f():\n"
        "-    return 1\n+    return 2\n*** End Patch\n",
        dry_run=True,
    )
    assert list(changed.diffs()) == [
        (
            "src/a.py",
            "diff --git a/src/a.py b/src/b.py\n"
            "rename from src/a.py\n"
            "rename to src/b.py\n"
            "--- a/src/a.py\n"
            "+++ b/src/b.py\n"
            "@@ -1,2 +1,2 @@\n"
            " def f():\n"
            "-    return 1\n"
            "+    return 2\n",
        )
    ]
    # The JSON is as it was: one moved file.
    assert changed.to_dict()["files"] == [{"path": "src/a.py", "action": "moved", "to": "src/b.py"}]


def test_rename_preview_applies_with_git_and_with_applydiff(tmp_path):
    files = {"src/a.py": b"def f():\n    return 1\n", "other.txt": b"o\n"}
    root = tree(tmp_path / "t", files)
    preview = Workspace(root).apply(
        "*** Begin Patch\n*** Update File: src/a.py\n*** Move to: lib/b.py\n@@\n def f():\n"
        "-    return 1\n+    return 2\n*** Update File: other.txt\n@@\n-o\n+p\n*** End Patch\n",
        dry_run=True,
    )
    patch = "".join(d for _, d in preview.diffs())
    assert patch.count("diff --git") == 1 and patch.count("+++ ") == 2
    want = {"lib/b.py": b"def f():\n    return 2\n", "other.txt": b"p\n"}
    by_git = tree(tmp_path / "g", files)
    git(by_git, "init", "-q")
    (tmp_path / "p.diff").write_text(patch)
    git(by_git, "apply", str(tmp_path / "p.diff"))
    assert {k: v for k, (v, _) in snapshot(by_git).items() if not k.startswith(".git")} == want
    by_us = tree(tmp_path / "u", files)
    assert Workspace(by_us).apply(patch).ok
    assert {k: v for k, (v, _) in snapshot(by_us).items()} == want


def test_reverse_of_an_executable_files_deletion_makes_it_executable_again(tmp_path):
    files = {"run.sh": b"#!/bin/sh\necho hi\n", "keep.txt": b"k\n"}
    patch = git_patch(tmp_path, files, lambda r: (r / "run.sh").unlink(), executable=("run.sh",))
    assert "deleted file mode 100755" in patch
    root = tree(tmp_path / "t", files, executable=("run.sh",))
    ws = Workspace(root)
    assert ws.apply(patch).ok
    assert "run.sh" not in snapshot(root)
    result = ws.apply(patch, reverse=True)
    assert result.ok, result.errors
    assert snapshot(root)["run.sh"][0] == b"#!/bin/sh\necho hi\n"
    assert snapshot(root)["run.sh"][1] & 0o100
