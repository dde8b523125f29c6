"""git apply's options on Workspace.apply (issue 18): ``strip`` (-p N), ``reverse`` (-R) and
``directory`` (--directory), with exact bytes on disk, codes and the messages' key facts."""

from __future__ import annotations

import dataclasses
import difflib
import os
import stat
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from applydiff import Delete, Move, Replace, Workspace, Write
from applydiff.engine import apply_ops
from applydiff.formats import parse
from applydiff.ir import reverse_ops


def make(root: Path, files: dict[str, bytes]) -> Workspace:
    for rel, data in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(data)
    return Workspace(root)


def snapshot(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and ".applydiff" not in p.parts
    }


def errors(result) -> list[tuple[str, int | None]]:
    return [(e.code, e.get("line")) for e in result.errors]


MODIFY = """\
--- proj/src/app.py
+++ proj/src/app.py
@@ -1,3 +1,3 @@
 def main():
-    return 1
+    return 2
 # end
"""
APP = b"def main():\n    return 1\n# end\n"
APP2 = b"def main():\n    return 2\n# end\n"


# -- strip (-p N) ---------------------------------------------------------------------------
def test_strip_one_component(tmp_path):
    ws = make(tmp_path, {"src/app.py": APP})
    result = ws.apply(MODIFY, strip=1)
    assert result.ok, result.errors
    assert [f["path"] for f in result.files] == ["src/app.py"]
    assert snapshot(tmp_path) == {"src/app.py": APP2}


def test_strip_two_components_and_zero(tmp_path):
    ws = make(tmp_path, {"app.py": APP, "a/b.txt": b"x\n"})
    assert ws.apply(MODIFY, strip=2).ok
    assert (tmp_path / "app.py").read_bytes() == APP2
    # -p0 keeps git's a/: the file really is a/b.txt
    diff = "--- a/b.txt\n+++ a/b.txt\n@@ -1 +1 @@\n-x\n+y\n"
    assert ws.apply(diff, strip=0).ok
    assert (tmp_path / "a/b.txt").read_bytes() == b"y\n"


def test_default_keeps_gits_prefix_rule(tmp_path):
    ws = make(tmp_path, {"b.txt": b"x\n"})
    assert ws.apply("--- a/b.txt\n+++ b/b.txt\n@@ -1 +1 @@\n-x\n+y\n").ok
    assert (tmp_path / "b.txt").read_bytes() == b"y\n"


def test_strip_past_the_components_is_format_invalid(tmp_path):
    ws = make(tmp_path, {"src/app.py": APP})
    result = ws.apply(MODIFY, strip=3)
    assert not result.ok
    assert errors(result) == [("format_invalid", 1)]
    message = result.errors[0].message
    assert "'proj/src/app.py' has 3 components" in message
    assert "stripping 3 (-p3) leaves no file name" in message
    assert snapshot(tmp_path) == {"src/app.py": APP}


def test_strip_on_git_headers_and_renames(tmp_path):
    # git strips one component fewer from 'rename from/to', which carry no a/ b/.
    diff = (
        "diff --git x/a/old.txt y/a/new.txt\n"
        "similarity index 100%\n"
        "rename from a/old.txt\n"
        "rename to a/new.txt\n"
    )
    ws = make(tmp_path, {"old.txt": b"keep\n"})
    result = ws.apply(diff, strip=2)
    assert result.ok, result.errors
    assert snapshot(tmp_path) == {"new.txt": b"keep\n"}
    assert parse(diff, strip=2) == [Move("old.txt", "new.txt", origin=1)]


def test_strip_git_names_with_spaces(tmp_path):
    diff = (
        "diff --git w/my dir/f.txt w/my dir/f.txt\n"
        "--- w/my dir/f.txt\n"
        "+++ w/my dir/f.txt\n"
        "@@ -1 +1 @@\n-a\n+b\n"
    )
    ws = make(tmp_path, {"my dir/f.txt": b"a\n"})
    assert ws.apply(diff, strip=1).ok
    assert (tmp_path / "my dir/f.txt").read_bytes() == b"b\n"


def test_strip_applies_to_diffs_only(tmp_path):
    ws = make(tmp_path, {"x/f.txt": b"a\n"})
    block = "x/f.txt\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n"
    assert ws.apply(block, strip=1).ok
    assert (tmp_path / "x/f.txt").read_bytes() == b"b\n"
    with pytest.raises(ValueError, match="strip applies to the paths of a diff's text"):
        ws.apply([Replace("x/f.txt", "b", "c")], strip=1)


# -- directory (--directory) ----------------------------------------------------------------
def test_directory_goes_before_every_path(tmp_path):
    ws = make(tmp_path, {"sub/src/app.py": APP, "sub/old.txt": b"o\n"})
    answer = (
        "--- a/src/app.py\n+++ b/src/app.py\n@@ -1,3 +1,3 @@\n def main():\n-    return 1\n"
        "+    return 2\n # end\n"
        "*** Begin Patch\n*** Add File: new.txt\n+n\n*** Update File: old.txt\n"
        "*** Move to: moved.txt\n@@\n-o\n+p\n*** End Patch\n"
    )
    result = ws.apply(answer, directory="sub")
    assert result.ok, result.errors
    assert snapshot(tmp_path) == {
        "sub/src/app.py": APP2,
        "sub/new.txt": b"n\n",
        "sub/moved.txt": b"p\n",
    }


def test_directory_with_strip(tmp_path):
    ws = make(tmp_path, {"lib/src/app.py": APP})
    assert ws.apply(MODIFY, strip=1, directory="lib/").ok
    assert (tmp_path / "lib/src/app.py").read_bytes() == APP2


@pytest.mark.parametrize("directory", ["../outside", ".git", ".applydiff"])
def test_directory_is_checked_by_the_path_policy(tmp_path, directory):
    root = tmp_path / "root"
    root.mkdir()
    ws = make(root, {"f.txt": b"a\n"})
    result = ws.apply(
        "f.txt\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n", directory=directory
    )
    assert [e.code for e in result.errors] == ["path_denied"]
    assert result.errors[0].path.startswith(directory)
    assert (root / "f.txt").read_bytes() == b"a\n"
    assert not (tmp_path / "outside").exists()


def test_empty_directory_is_a_usage_error(tmp_path):
    ws = make(tmp_path, {"f.txt": b"a\n"})
    with pytest.raises(ValueError, match="directory must name a directory"):
        ws.apply("f.txt\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n", directory="/")


# -- reverse (-R) ---------------------------------------------------------------------------
def test_reverse_unified_diff(tmp_path):
    ws = make(tmp_path, {"src/app.py": APP2})
    result = ws.apply(MODIFY, strip=1, reverse=True)
    assert result.ok, result.errors
    assert (tmp_path / "src/app.py").read_bytes() == APP


def test_reverse_creation_deletes_and_deletion_creates(tmp_path):
    ws = make(tmp_path, {"new.py": b"x = 1\ny = 2\n"})
    diff = (
        "--- /dev/null\n+++ b/new.py\n@@ -0,0 +1,2 @@\n+x = 1\n+y = 2\n"
        "--- a/gone.txt\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-bye\n-now\n"
    )
    result = ws.apply(diff, reverse=True)
    assert result.ok, result.errors
    assert snapshot(tmp_path) == {"gone.txt": b"bye\nnow\n"}
    assert sorted((f["path"], f["action"]) for f in result.files) == [
        ("gone.txt", "added"),
        ("new.py", "deleted"),
    ]


def test_reverse_creation_refuses_a_file_that_holds_more(tmp_path):
    ws = make(tmp_path, {"new.py": b"x = 1\ny = 2\nz = 3\n", "other.py": b"b\n"})
    diff = (
        "--- a/other.py\n+++ b/other.py\n@@ -1 +1 @@\n-a\n+b\n"
        "--- /dev/null\n+++ b/new.py\n@@ -0,0 +1,2 @@\n+x = 1\n+y = 2\n"
    )
    result = ws.apply(diff, reverse=True)
    assert [(e.code, e.path) for e in result.errors] == [("no_match", "new.py")]
    assert "does not hold exactly the text the edit created" in result.errors[0].message
    assert snapshot(tmp_path) == {"new.py": b"x = 1\ny = 2\nz = 3\n", "other.py": b"b\n"}


def test_reverse_git_rename_with_changes_and_mode(tmp_path):
    diff = (
        "diff --git a/old.sh b/new.sh\n"
        "old mode 100644\n"
        "new mode 100755\n"
        "similarity index 80%\n"
        "rename from old.sh\n"
        "rename to new.sh\n"
        "--- a/old.sh\n+++ b/new.sh\n@@ -1,2 +1,2 @@\n echo hi\n-exit 0\n+exit 1\n"
    )
    ws = make(tmp_path, {"old.sh": b"echo hi\nexit 0\n"})
    assert ws.apply(diff).ok
    assert snapshot(tmp_path) == {"new.sh": b"echo hi\nexit 1\n"}
    assert os.stat(tmp_path / "new.sh").st_mode & 0o100
    result = ws.apply(diff, reverse=True)
    assert result.ok, result.errors
    assert snapshot(tmp_path) == {"old.sh": b"echo hi\nexit 0\n"}
    assert not stat.S_IMODE(os.stat(tmp_path / "old.sh").st_mode) & 0o111


def test_reverse_apply_patch(tmp_path):
    patch = (
        "*** Begin Patch\n"
        "*** Add File: docs/new.md\n+# New\n"
        "*** Update File: src/a.py\n*** Move to: src/b.py\n@@ def f():\n-    return 1\n"
        "+    return 2\n"
        "@@\n x = 1\n+y = 2\n"
        "*** End Patch\n"
    )
    start = {"src/a.py": b"def f():\n    return 1\nx = 1\n"}
    ws = make(tmp_path, dict(start))
    assert ws.apply(patch).ok
    assert snapshot(tmp_path) == {
        "docs/new.md": b"# New\n",
        "src/b.py": b"def f():\n    return 2\nx = 1\ny = 2\n",
    }
    result = ws.apply(patch, reverse=True)
    assert result.ok, result.errors
    assert snapshot(tmp_path) == start


def test_reverse_search_replace_swaps(tmp_path):
    ws = make(tmp_path, {"f.txt": b"one\nTWO\nthree\n"})
    block = "f.txt\n<<<<<<< SEARCH\ntwo\n=======\nTWO\n>>>>>>> REPLACE\n"
    assert ws.apply(block, reverse=True).ok
    assert (tmp_path / "f.txt").read_bytes() == b"one\ntwo\nthree\n"


@pytest.mark.parametrize(
    ("answer", "why", "line"),
    [
        (
            "*** Begin Patch\n*** Delete File: f.txt\n*** End Patch\n",
            "the delete of f.txt at line 2 cannot be reversed: it deletes the file without "
            "showing what the file held",
            2,
        ),
        (
            '{"name": "write_file", "arguments": {"path": "f.txt", "content": "x\\n"}}',
            "the write of f.txt cannot be reversed: it writes the whole file and does not show "
            "what the file held",
            None,
        ),
        (
            "f.txt\n<<<<<<< SEARCH\nb\n=======\n>>>>>>> REPLACE\n",
            "the replace of f.txt at line 2 cannot be reversed: it removes lines and quotes "
            "nothing around them",
            2,
        ),
    ],
)
def test_reverse_refuses_what_has_no_reverse(tmp_path, answer, why, line):
    ws = make(tmp_path, {"f.txt": b"a\nb\n"})
    result = ws.apply(answer, reverse=True)
    assert errors(result) == [("format_invalid", line)]
    assert why in result.errors[0].message
    assert "nothing was applied" in result.errors[0].message
    assert snapshot(tmp_path) == {"f.txt": b"a\nb\n"}


def test_reverse_of_ops_reports_each_op_that_has_no_reverse(tmp_path):
    ws = make(tmp_path, {"f.txt": b"a\n"})
    result = ws.apply(
        [Replace("f.txt", "z", "a"), Write("f.txt", "q"), Delete("g.txt")], reverse=True
    )
    assert [(e.code, e.index, e.path) for e in result.errors] == [
        ("format_invalid", 1, "f.txt"),
        ("format_invalid", 2, "g.txt"),
    ]
    assert snapshot(tmp_path) == {"f.txt": b"a\n"}


def test_reverse_that_does_not_apply_writes_nothing(tmp_path):
    # The first file applies reversed, the second does not (it never had the change).
    ws = make(tmp_path, {"src/app.py": APP2, "other.txt": b"plain\n"})
    answer = MODIFY + "--- x/other.txt\n+++ x/other.txt\n@@ -1 +1 @@\n-plain\n+fancy\n"
    result = ws.apply(answer, strip=1, reverse=True)
    assert [(e.code, e.path) for e in result.errors] == [("no_match", "other.txt")]
    assert snapshot(tmp_path) == {"src/app.py": APP2, "other.txt": b"plain\n"}


def test_engine_takes_reverse_and_directory():
    ops = [Replace("f.txt", "a\n", "b\n")]
    cs = apply_ops(ops, {"d/f.txt": "b\n"}, reverse=True, directory="d")
    assert cs.ok and cs.texts() == {"d/f.txt": "a\n"}
    cs = apply_ops([Write("f.txt", "x")], {"f.txt": "y"}, reverse=True)
    assert [(e.index, e.code) for e in cs.errors] == [(0, "format_invalid")]


def test_reverse_keeps_the_order_of_a_files_chunks():
    ops = parse(
        "*** Begin Patch\n*** Update File: a.py\n*** Move to: b.py\n@@\n-1\n+2\n@@\n-3\n+4\n"
        "*** End Patch\n"
    )
    back = reverse_ops(ops)
    assert [type(op).__name__ for op in back] == ["Move", "Replace", "Replace"]
    assert back[0] == Move("b.py", "a.py", origin=3)
    assert [(op.path, op.old, op.new) for op in back[1:]] == [  # type: ignore[union-attr]
        ("a.py", "2\n", "1\n"),
        ("a.py", "4\n", "3\n"),
    ]


# -- properties -----------------------------------------------------------------------------
LINE = st.text(alphabet="abcxyz =()", min_size=0, max_size=8).map(lambda s: s + "\n")


def udiff(path: str, before: str, after: str, old: str = "a/", new: str = "b/") -> str:
    return "".join(
        difflib.unified_diff(
            before.splitlines(keepends=True),
            after.splitlines(keepends=True),
            old + path,
            new + path,
        )
    )


@st.composite
def edits(draw):
    # Unique lines, so every hunk's context locates one place and the diff is unambiguous.
    lines = draw(st.lists(LINE, min_size=1, max_size=12, unique=True))
    after = list(lines)
    for _ in range(draw(st.integers(1, 3))):
        k = draw(st.integers(0, len(after)))
        choice = draw(st.sampled_from(["insert", "delete", "change"]))
        new = f"new{draw(st.integers(0, 10_000))}\n"
        if new in after:
            continue
        if choice == "insert" or not after[k:]:
            after.insert(k, new)
        elif choice == "delete" and len(after) > 1:
            del after[k]
        else:
            after[k] = new
    return "".join(lines), "".join(after)


@pytest.mark.slow
@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(edits())
def test_diff_then_its_reverse_gives_the_original_bytes(tmp_path_factory, pair):
    before, after = pair
    if before == after:
        return
    root = tmp_path_factory.mktemp("rev")
    ws = make(root, {"pkg/f.txt": before.encode()})
    diff = udiff("pkg/f.txt", before, after)
    assert ws.apply(diff).ok
    assert (root / "pkg/f.txt").read_bytes() == after.encode()
    assert ws.apply(diff, reverse=True).ok
    assert (root / "pkg/f.txt").read_bytes() == before.encode()
    # reverse(reverse(diff)) is the diff (with the guard a reversed removal carries):
    # applied again it gives ``after`` again.
    ops = parse(diff)
    assert [unguarded(op) for op in reverse_ops(reverse_ops(ops))] == ops
    assert ws.apply(reverse_ops(reverse_ops(ops))).ok
    assert (root / "pkg/f.txt").read_bytes() == after.encode()


def unguarded(op):
    return dataclasses.replace(op, absent=False) if isinstance(op, Replace) else op


@settings(
    max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(edits())
def test_the_reverse_of_a_diff_never_applied_is_refused(tmp_path_factory, pair):
    # "Never a wrong file": -R on a tree that never had the change writes nothing (a
    # reversed removal would put its lines back a second time).
    before, after = pair
    if before == after:
        return
    root = tmp_path_factory.mktemp("unapplied")
    ws = make(root, {"f.txt": before.encode()})
    result = ws.apply(udiff("f.txt", before, after), reverse=True)
    assert not result.ok
    assert {e.code for e in result.errors} <= {"no_match", "no_change", "ambiguous"}
    assert (root / "f.txt").read_bytes() == before.encode()


def test_a_reversed_removal_refuses_a_file_that_still_has_the_lines(tmp_path):
    ws = make(tmp_path, {"f.txt": b"a\nb\nc\n"})
    diff = "--- a/f.txt\n+++ b/f.txt\n@@ -1,3 +1,2 @@\n a\n-b\n c\n"
    result = ws.apply(diff, reverse=True)
    assert [e.code for e in result.errors] == ["no_change"]
    assert "already holds the lines this reversed edit would put back" in result.errors[0].message
    assert (tmp_path / "f.txt").read_bytes() == b"a\nb\nc\n"
    assert ws.apply(diff).ok and ws.apply(diff, reverse=True).ok
    assert (tmp_path / "f.txt").read_bytes() == b"a\nb\nc\n"


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(edits(), st.lists(st.sampled_from(["x", "yy", "z1"]), min_size=1, max_size=3))
def test_strip_and_directory_round_trip(tmp_path_factory, pair, prefix):
    # A diff made under prefix/ applied with -p len(prefix) --directory sub equals the
    # same diff made for sub/ with git's prefixes.
    before, after = pair
    if before == after:
        return
    root = tmp_path_factory.mktemp("strip")
    ws = make(root, {"sub/f.txt": before.encode()})
    made = udiff("f.txt", before, after, old="/".join(prefix) + "/", new="/".join(prefix) + "/")
    plain = udiff("sub/f.txt", before, after)
    assert parse(made, strip=len(prefix), directory="sub") == parse(plain)
    assert ws.apply(made, strip=len(prefix), directory="sub").ok
    assert (root / "sub/f.txt").read_bytes() == after.encode()
