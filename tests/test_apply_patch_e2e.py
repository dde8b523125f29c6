"""apply_patch end to end on real trees, as codex documents it, except that a failure after an
earlier success in the same patch leaves nothing written."""

from __future__ import annotations

from pathlib import Path

import pytest

from applydiff import Workspace


def tree(root: Path, files: dict[str, str]) -> Workspace:
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(text.encode())
    return Workspace(root)


def files_of(root: Path) -> dict[str, str]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes().decode()
        for p in sorted(root.rglob("*"))
        if p.is_file() and ".applydiff" not in p.parts
    }


def patch(*body: str) -> str:
    return "\n".join(["*** Begin Patch", *body, "*** End Patch"]) + "\n"


def test_add_file(tmp_path):
    ws = tree(tmp_path, {})
    result = ws.apply(patch("*** Add File: hello.txt", "+Hello, world!"))
    assert result.ok
    assert files_of(tmp_path) == {"hello.txt": "Hello, world!\n"}


def test_several_operations_in_one_patch(tmp_path):
    ws = tree(tmp_path, {"modify.txt": "line1\nline2\n", "delete.txt": "obsolete\n"})
    result = ws.apply(
        patch(
            "*** Add File: nested/new.txt",
            "+created",
            "*** Delete File: delete.txt",
            "*** Update File: modify.txt",
            "@@",
            "-line2",
            "+changed",
        )
    )
    assert result.ok
    assert result.files == [
        {"path": "nested/new.txt", "action": "added"},
        {"path": "delete.txt", "action": "deleted"},
        {"path": "modify.txt", "action": "modified"},
    ]
    assert files_of(tmp_path) == {"modify.txt": "line1\nchanged\n", "nested/new.txt": "created\n"}


def test_several_chunks_in_one_file(tmp_path):
    ws = tree(tmp_path, {"multi.txt": "line1\nline2\nline3\nline4\n"})
    result = ws.apply(
        patch(
            "*** Update File: multi.txt", "@@", "-line2", "+changed2", "@@", "-line4", "+changed4"
        )
    )
    assert result.ok
    assert files_of(tmp_path) == {"multi.txt": "line1\nchanged2\nline3\nchanged4\n"}


def test_chunks_are_searched_in_order_below_the_previous(tmp_path):
    # The same context twice: the second chunk must land below the first.
    text = "def a():\n    return 0\n\ndef b():\n    return 0\n"
    ws = tree(tmp_path, {"m.py": text})
    result = ws.apply(
        patch(
            "*** Update File: m.py",
            "@@ def a():",
            "-    return 0",
            "+    return 1",
            "@@",
            "-    return 0",
            "+    return 2",
        )
    )
    assert result.ok, result.errors
    assert files_of(tmp_path)["m.py"] == "def a():\n    return 1\n\ndef b():\n    return 2\n"


def test_scope_line_narrows_the_search(tmp_path):
    text = "class A:\n    def f(self):\n        return 0\n\n"
    text += "class B:\n    def f(self):\n        return 0\n"
    ws = tree(tmp_path, {"m.py": text})
    result = ws.apply(
        patch(
            "*** Update File: m.py",
            "@@ class B:",
            "     def f(self):",
            "-        return 0",
            "+        return 1",
        )
    )
    assert result.ok, result.errors
    assert files_of(tmp_path)["m.py"] == text[: text.index("class B")] + (
        "class B:\n    def f(self):\n        return 1\n"
    )


def test_move_into_new_directory(tmp_path):
    ws = tree(tmp_path, {"old/name.txt": "old content\n"})
    result = ws.apply(
        patch(
            "*** Update File: old/name.txt",
            "*** Move to: renamed/dir/name.txt",
            "@@",
            "-old content",
            "+new content",
        )
    )
    assert result.ok
    assert result.files == [
        {"path": "old/name.txt", "action": "moved", "to": "renamed/dir/name.txt"}
    ]
    assert files_of(tmp_path) == {"renamed/dir/name.txt": "new content\n"}


def test_update_always_ends_the_file_with_a_newline(tmp_path):
    ws = tree(tmp_path, {"no_newline.txt": "no newline at end"})
    result = ws.apply(
        patch(
            "*** Update File: no_newline.txt",
            "@@",
            "-no newline at end",
            "+first line",
            "+second line",
        )
    )
    assert result.ok
    assert files_of(tmp_path) == {"no_newline.txt": "first line\nsecond line\n"}


def test_pure_addition_chunk_goes_at_the_end(tmp_path):
    ws = tree(tmp_path, {"input.txt": "line1\nline2\nline3\n"})
    result = ws.apply(patch("*** Update File: input.txt", "@@", "+after-context", "+second-line"))
    assert result.ok
    assert files_of(tmp_path) == {"input.txt": "line1\nline2\nline3\nafter-context\nsecond-line\n"}


def test_pure_addition_to_a_file_without_final_newline(tmp_path):
    ws = tree(tmp_path, {"input.txt": "a\nb"})
    assert ws.apply(patch("*** Update File: input.txt", "@@", "+c")).ok
    assert files_of(tmp_path) == {"input.txt": "a\nb\nc\n"}


def test_end_of_file_anchor(tmp_path):
    ws = tree(tmp_path, {"tail.txt": "x\nend\nmiddle\nx\nend\n"})
    result = ws.apply(
        patch("*** Update File: tail.txt", "@@", " x", "-end", "+END", "*** End of File")
    )
    assert result.ok, result.errors
    assert files_of(tmp_path) == {"tail.txt": "x\nend\nmiddle\nx\nEND\n"}


def test_whitespace_padded_markers_and_unicode(tmp_path):
    ws = tree(tmp_path, {"unicode.py": 'print("héllo — wörld")\n'})
    text = (
        '  *** Begin Patch\n*** Update File: unicode.py  \n@@\n-print("héllo — wörld")\n'
        '+print("héllo — wörld ✓")\n   *** End Patch\n'
    )
    result = ws.apply(text)
    assert result.ok, result.errors
    assert files_of(tmp_path) == {"unicode.py": 'print("héllo — wörld ✓")\n'}


def test_heredoc_wrapper_and_prose(tmp_path):
    ws = tree(tmp_path, {"a.txt": "a\n"})
    text = (
        "Let me fix that.\n\napply_patch <<'EOF'\n"
        + patch("*** Update File: a.txt", "@@", "-a", "+b")
        + "EOF\n\nDone."
    )
    assert ws.apply(text).ok and files_of(tmp_path) == {"a.txt": "b\n"}


def test_crlf_patch_on_crlf_file(tmp_path):
    ws = tree(tmp_path, {"w.txt": "one\r\ntwo\r\n"})
    text = patch("*** Update File: w.txt", "@@", " one", "-two", "+TWO").replace("\n", "\r\n")
    assert ws.apply(text).ok
    assert (tmp_path / "w.txt").read_bytes() == b"one\r\nTWO\r\n"


def test_add_file_overwrites_an_existing_path(tmp_path):
    ws = tree(tmp_path, {"dup.txt": "old\n"})
    assert ws.apply(patch("*** Add File: dup.txt", "+new")).ok
    assert files_of(tmp_path) == {"dup.txt": "new\n"}


def test_move_overwrites_an_existing_destination(tmp_path):
    ws = tree(tmp_path, {"old/name.txt": "from\n", "renamed/dir/name.txt": "existing\n"})
    result = ws.apply(
        patch(
            "*** Update File: old/name.txt",
            "*** Move to: renamed/dir/name.txt",
            "@@",
            "-from",
            "+new",
        )
    )
    assert result.ok
    assert files_of(tmp_path) == {"renamed/dir/name.txt": "new\n"}


@pytest.mark.parametrize(
    ("files", "body", "code", "fragment"),
    [
        ({}, [], "format_invalid", "empty"),
        (
            {"m.txt": "line1\nline2\n"},
            ["*** Update File: m.txt", "@@", "-missing", "+x"],
            "no_match",
            "not found",
        ),
        ({}, ["*** Delete File: missing.txt"], "no_match", "does not exist"),
        ({"dir/x.txt": "x\n"}, ["*** Delete File: dir"], "io_error", "is a directory"),
        ({}, ["*** Update File: missing.txt", "@@", "-a", "+b"], "no_match", "does not exist"),
        (
            {"m.txt": "a\n"},
            ["*** Update File: m.txt", "bad hunk line"],
            "format_invalid",
            "unexpected line",
        ),
        ({"m.txt": "a\n"}, ["*** Frobnicate File: m.txt"], "format_invalid", "unknown header"),
    ],
)
def test_rejections_write_nothing(tmp_path, files, body, code, fragment):
    ws = tree(tmp_path, files)
    before = files_of(tmp_path)
    result = ws.apply(patch(*body))
    assert not result.ok
    assert [e["code"] for e in result.errors] == [code]
    assert fragment in result.errors[0]["message"]
    assert files_of(tmp_path) == before


def test_failure_after_an_earlier_success_leaves_nothing_written(tmp_path):
    # codex writes created.txt and then fails; applydiff writes nothing.
    ws = tree(tmp_path, {"modify.txt": "line1\nline2\n"})
    result = ws.apply(
        patch(
            "*** Add File: created.txt",
            "+hello",
            "*** Update File: modify.txt",
            "@@",
            "-missing",
            "+changed",
        )
    )
    assert not result.ok and [e["index"] for e in result.errors] == [1]
    assert files_of(tmp_path) == {"modify.txt": "line1\nline2\n"}
