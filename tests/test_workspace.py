"""The workspace: root jail, ignore rules, encodings, byte-faithful writes, modes, conflicts."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from applydiff import Delete, EditError, Move, Replace, Workspace, Write, file_id


def make(root: Path, files: dict[str, bytes]) -> Workspace:
    for rel, data in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(data)
    return Workspace(root)


def codes(result) -> list[str]:
    return [e["code"] for e in result.errors]


# -- root jail -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "path",
    [
        "../outside.txt",
        "src/../../outside.txt",
        "/etc/passwd",
        "~/x.txt",
        "~root/x.txt",
        "C:\\Windows\\x.txt",
        "c:/x.txt",
        "\\\\server\\share\\x",
        "a\x00b.txt",
        "",
        ".",
        ".git/config",
        "sub/.git/HEAD",
        ".applydiff/journal-x.json",
    ],
)
def test_path_attacks_are_denied_and_nothing_written(tmp_path, path):
    root = tmp_path / "root"
    root.mkdir()
    ws = make(root, {"ok.txt": b"ok\n"})
    before = sorted(p.as_posix() for p in tmp_path.rglob("*"))
    result = ws.apply([Write("ok.txt", "changed\n"), Write(path, "pwned\n")])
    assert not result.ok
    assert codes(result) == ["path_denied"]
    assert result.errors[0]["index"] == 1
    assert (root / "ok.txt").read_bytes() == b"ok\n"
    assert sorted(p.as_posix() for p in tmp_path.rglob("*")) == before


def test_symlink_escaping_the_root_is_denied(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("secret\n")
    root = tmp_path / "root"
    root.mkdir()
    (root / "link").symlink_to(outside)
    (root / "file_link.txt").symlink_to(outside / "secret.txt")
    ws = Workspace(root)
    for path in ("link/secret.txt", "file_link.txt", "link/new.txt"):
        result = ws.apply([Write(path, "x\n")])
        assert codes(result) == ["path_denied"], path
        assert "outside the project root" in result.errors[0]["message"]
    assert (outside / "secret.txt").read_text() == "secret\n"
    assert not (outside / "new.txt").exists()


def test_symlink_inside_the_root_writes_through_to_its_target(tmp_path):
    ws = make(tmp_path, {"real/a.txt": b"one\n"})
    (tmp_path / "alias.txt").symlink_to(tmp_path / "real" / "a.txt")
    result = ws.apply([Replace("alias.txt", "one", "two")])
    assert result.ok and result.files == [{"path": "real/a.txt", "action": "modified"}]
    assert (tmp_path / "alias.txt").is_symlink()
    assert (tmp_path / "real" / "a.txt").read_bytes() == b"two\n"


def test_absolute_path_inside_the_root_is_fine(tmp_path):
    ws = make(tmp_path, {"a.txt": b"x\n"})
    result = ws.apply([Replace(str(tmp_path / "a.txt"), "x", "y")])
    assert result.ok and result.files == [{"path": "a.txt", "action": "modified"}]


def test_ignore_rules_name_the_rule(tmp_path):
    ws = make(
        tmp_path,
        {
            ".applydiffignore": b"# generated\nbuild/\n*.lock\n!keep.lock\n!build/keep.txt\n",
            "build/out.txt": b"x\n",
            "build/keep.txt": b"x\n",
            "poetry.lock": b"x\n",
            "keep.lock": b"x\n",
            "src/a.py": b"x\n",
        },
    )
    for path, rule in [
        ("build/out.txt", "build/"),
        # A negated rule under an ignored directory does not re-include it (git semantics).
        ("build/keep.txt", "build/"),
        ("poetry.lock", "*.lock"),
        ("build/new/deep.txt", "build/"),
    ]:
        result = ws.apply([Write(path, "y\n")])
        assert codes(result) == ["path_denied"], path
        assert f"the rule {rule!r} in .applydiffignore" in result.errors[0]["message"]
    assert ws.apply([Write("keep.lock", "y\n")]).ok
    assert ws.apply([Write("src/a.py", "y\n")]).ok


# -- encodings and bytes ---------------------------------------------------------------------
ROUND_TRIPS = {
    "crlf": b"one\r\ntwo\r\nthree\r\n",
    "mixed": b"one\r\ntwo\nthree\r\nfour\n",
    "bom": b"\xef\xbb\xbfone\ntwo\nthree\n",
    "utf16le": "\ufeffone\r\ntwo\r\nthree\r\n".encode("utf-16-le"),
    "utf16be": "\ufeffone\ntwo\nthree\n".encode("utf-16-be"),
    "latin1": "caf\xe9\ntwo\nna\xefve\n".encode("latin-1"),
    "no_final_newline": b"one\ntwo\nthree",
    "lone_cr": b"one\rstill one\ntwo\nthree\n",
}


@pytest.mark.parametrize("name", sorted(ROUND_TRIPS))
def test_byte_exact_round_trip_outside_the_edit(tmp_path, name):
    data = ROUND_TRIPS[name]
    ws = make(tmp_path, {"f.txt": data})
    result = ws.apply([Replace("f.txt", "two\n", "TWO\n")])
    assert result.ok, result.errors
    out = (tmp_path / "f.txt").read_bytes()
    enc = {"utf16le": "utf-16-le", "utf16be": "utf-16-be", "latin1": "latin-1"}.get(name, "utf-8")
    expected = data.decode(enc).replace("two", "TWO", 1).encode(enc)
    assert out == expected


def test_read_reports_facts(tmp_path):
    ws = make(tmp_path, {"a.txt": b"\xef\xbb\xbfx\r\ny\r\n", "b.txt": "\xe9".encode("latin-1")})
    a = ws.read("a.txt")
    assert (a.text, a.encoding, a.bom, a.eol, a.final_newline) == (
        "x\r\ny\r\n",
        "utf-8-bom",
        True,
        "\r\n",
        True,
    )
    assert a.file_id == file_id("x\r\ny\r\n")
    b = ws.read("b.txt")
    assert (b.text, b.encoding, b.final_newline) == ("\xe9", "latin-1", False)


def test_replacement_the_encoding_cannot_hold(tmp_path):
    ws = make(tmp_path, {"l.txt": "caf\xe9\n".encode("latin-1"), "u.txt": b"ok\n"})
    result = ws.apply([Replace("u.txt", "ok", "fine"), Replace("l.txt", "caf\xe9", "caf\u20ac")])
    assert codes(result) == ["encoding"]
    assert result.errors[0]["path"] == "l.txt" and "'€'" in result.errors[0]["message"]
    assert (tmp_path / "u.txt").read_bytes() == b"ok\n"


def test_binary_and_too_large_files(tmp_path):
    root = tmp_path
    (root / "img.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00")
    (root / "big.txt").write_bytes(b"x" * 2000)
    ws = Workspace(root, max_file_bytes=1000)
    assert codes(ws.apply([Replace("img.png", "PNG", "GIF")])) == ["binary_file"]
    result = ws.apply([Replace("big.txt", "x", "y")])
    assert codes(result) == ["too_large"] and "2000 bytes" in result.errors[0]["message"]


def test_whole_file_write_keeps_crlf_and_bom(tmp_path):
    ws = make(tmp_path, {"w.txt": b"\xef\xbb\xbfold\r\nlines\r\n"})
    assert ws.apply([Write("w.txt", "new\ncontent\n")]).ok
    assert (tmp_path / "w.txt").read_bytes() == b"\xef\xbb\xbfnew\r\ncontent\r\n"


# -- modes, directories, deletes, moves --------------------------------------------------------
def test_mode_bits_kept_and_new_files_follow_umask(tmp_path):
    ws = make(tmp_path, {"run.sh": b"echo hi\n"})
    (tmp_path / "run.sh").chmod(0o751)
    old = os.umask(0o027)
    try:
        result = ws.apply([Replace("run.sh", "hi", "hello"), Write("a/b/c/new.txt", "n\n")])
    finally:
        os.umask(old)
    assert result.ok
    assert stat.S_IMODE((tmp_path / "run.sh").stat().st_mode) == 0o751
    assert stat.S_IMODE((tmp_path / "a/b/c/new.txt").stat().st_mode) == 0o640
    assert (tmp_path / "a/b/c/new.txt").read_bytes() == b"n\n"


def test_delete_missing_and_delete_directory_are_errors(tmp_path):
    ws = make(tmp_path, {"d/x.txt": b"x\n"})
    assert codes(ws.apply([Delete("nope.txt")])) == ["no_match"]
    result = ws.apply([Delete("d")])
    assert codes(result) == ["io_error"] and "is a directory" in result.errors[0]["message"]
    assert (tmp_path / "d/x.txt").exists()


def test_move_into_new_directory_and_delete(tmp_path):
    ws = make(tmp_path, {"a.txt": b"a\n", "b.txt": b"b\n"})
    result = ws.apply([Move("a.txt", "x/y/a.txt"), Delete("b.txt")])
    assert result.ok
    assert result.files == [
        {"path": "a.txt", "action": "moved", "to": "x/y/a.txt"},
        {"path": "b.txt", "action": "deleted"},
    ]
    assert sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*.txt")) == [
        "x/y/a.txt"
    ]


# -- all or nothing, dry runs, conflicts ---------------------------------------------------------
def test_failure_after_success_writes_nothing(tmp_path):
    ws = make(tmp_path, {"a.txt": b"a\n", "b.txt": b"b\n"})
    result = ws.apply([Replace("a.txt", "a", "A"), Replace("b.txt", "zzz", "B")])
    assert not result.ok and codes(result) == ["no_match"]
    assert result.errors[0]["index"] == 1 and result.errors[0]["path"] == "b.txt"
    assert (tmp_path / "a.txt").read_bytes() == b"a\n"


def test_dry_run_writes_nothing_then_commit(tmp_path):
    ws = make(tmp_path, {"a.txt": b"a\n"})
    result = ws.apply([Replace("a.txt", "a", "A"), Write("n.txt", "n\n")], dry_run=True)
    assert result.ok and result.dry_run
    assert result.to_dict() == {
        "ok": True,
        "dry_run": True,
        "files": [{"path": "a.txt", "action": "modified"}, {"path": "n.txt", "action": "added"}],
        "edits": [
            {
                "index": 0,
                "path": "a.txt",
                "tier": "exact",
                "confidence": 1.0,
                "start_line": 1,
                "end_line": 1,
            },
            {
                "index": 1,
                "path": "n.txt",
                "tier": "write",
                "confidence": 1.0,
                "start_line": 1,
                "end_line": 1,
            },
        ],
        "errors": [],
    }
    assert (tmp_path / "a.txt").read_bytes() == b"a\n" and not (tmp_path / "n.txt").exists()
    ws.commit(result)
    assert result.ok and result.committed and not result.dry_run
    assert (tmp_path / "a.txt").read_bytes() == b"A\n" and (tmp_path / "n.txt").exists()


def test_file_changed_between_read_and_commit_is_a_conflict(tmp_path):
    ws = make(tmp_path, {"a.txt": b"a\n", "b.txt": b"b\n"})
    result = ws.apply([Replace("a.txt", "a", "A"), Replace("b.txt", "b", "B")], dry_run=True)
    (tmp_path / "b.txt").write_bytes(b"b\nlocal edit\n")
    ws.commit(result)
    assert not result.ok and codes(result) == ["conflict"]
    assert result.errors[0]["path"] == "b.txt"
    assert (tmp_path / "a.txt").read_bytes() == b"a\n"
    assert (tmp_path / "b.txt").read_bytes() == b"b\nlocal edit\n"


def test_new_file_created_meanwhile_is_a_conflict(tmp_path):
    ws = make(tmp_path, {})
    result = ws.apply([Write("n.txt", "mine\n")], dry_run=True)
    (tmp_path / "n.txt").write_bytes(b"theirs\n")
    ws.commit(result)
    assert codes(result) == ["conflict"]
    assert (tmp_path / "n.txt").read_bytes() == b"theirs\n"


def test_response_text_and_empty_response(tmp_path):
    ws = make(tmp_path, {"a.py": b"x = 1\n"})
    result = ws.apply("a.py\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE\n")
    assert result.ok and (tmp_path / "a.py").read_bytes() == b"x = 2\n"
    result = ws.apply("Nothing to do here.")
    assert codes(result) == ["format_invalid"] and "no edit" in result.errors[0]["message"]
    result = ws.apply("a.py\n<<<<<<< SEARCH\nx = 2\n")
    assert codes(result) == ["format_invalid"] and result.errors[0]["line"] == 2


def test_root_must_be_a_directory(tmp_path):
    with pytest.raises(EditError) as e:
        Workspace(tmp_path / "missing")
    assert e.value.code == "io_error"


# -- git_toplevel (issue 18) ----------------------------------------------------------------
def test_git_toplevel_finds_the_work_tree(tmp_path):
    from applydiff.workspace import git_toplevel

    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "src" / "deep").mkdir(parents=True)
    (repo / "src" / "f.py").write_text("x\n")
    assert git_toplevel(str(repo / "src" / "deep")) == str(repo.resolve())
    assert git_toplevel(str(repo / "src" / "f.py")) == str(repo.resolve())
    assert git_toplevel(str(repo)) == str(repo.resolve())
    # A worktree or a submodule: a .git file that points at the git directory.
    sub = repo / "vendor" / "lib"
    sub.mkdir(parents=True)
    (sub / ".git").write_text("gitdir: ../../.git/modules/lib\n")
    assert git_toplevel(str(sub)) == str(sub.resolve())
    # A .git file that is not one stops nothing.
    other = repo / "notes"
    other.mkdir()
    (other / ".git").write_text("hello\n")
    assert git_toplevel(str(other)) == str(repo.resolve())


def test_git_toplevel_outside_any_work_tree(tmp_path):
    from applydiff.workspace import git_toplevel

    plain = tmp_path / "plain"
    plain.mkdir()
    if git_toplevel(str(tmp_path)) is None:  # the temp dir itself is not in a repository
        assert git_toplevel(str(plain)) is None
    os.mkfifo(plain / ".git")  # a FIFO named .git is not opened (it would block)
    assert git_toplevel(str(plain)) == git_toplevel(str(tmp_path))


def test_git_toplevel_agrees_with_git(tmp_path):
    import shutil
    import subprocess

    if shutil.which("git") is None:
        pytest.skip("needs git")
    from applydiff.workspace import git_toplevel

    repo = tmp_path / "r"
    repo.mkdir()
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    (repo / "a" / "b").mkdir(parents=True)
    out = subprocess.run(
        ["git", "rev-parse", "--show-toplevel"],
        cwd=repo / "a" / "b",
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert git_toplevel(str(repo / "a" / "b")) == out
