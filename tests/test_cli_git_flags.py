"""``applydiff apply`` with git apply's and patch's habits: -p N, -R, --directory, -C DIR,
--stat and --numstat in git's formats, a git diff's paths from the repository's top, and a
rename previewed as git shows one. Through the real command: stdout, stderr, exit code,
bytes on disk."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from applydiff.cli import main
from applydiff.cli.output import diffstat, numstat, quote_path

DIFF = """diff --git a/src/calc.py b/src/calc.py
--- a/src/calc.py
+++ b/src/calc.py
@@ -1,3 +1,4 @@
 def add(a, b):
-    return a - b
+    return a + b
+
 TOTAL = 0
"""
BEFORE = b"def add(a, b):\n    return a - b\nTOTAL = 0\n"
AFTER = b"def add(a, b):\n    return a + b\n\nTOTAL = 0\n"


def cli(*args: str, cwd: Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR")}
    return subprocess.run(
        [sys.executable, "-m", "applydiff", *args],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        text=True,
        env={**env, "APPLYDIFF_TTY": ""},
        start_new_session=True,
        timeout=60,
    )


@pytest.fixture(autouse=True)
def no_terminal(monkeypatch):
    monkeypatch.setenv("APPLYDIFF_TTY", "")


@pytest.fixture
def repo(tmp_path):
    (tmp_path / "src").mkdir()
    (tmp_path / "src/calc.py").write_bytes(BEFORE)
    (tmp_path / "docs").mkdir()
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    subprocess.run([*git, "add", "."], cwd=tmp_path, check=True)
    subprocess.run([*git, "commit", "-qm", "init"], cwd=tmp_path, check=True)
    return tmp_path


def test_stat_and_numstat_print_gits_formats_and_write_nothing(repo):
    proc = cli("apply", "--stat", cwd=repo, stdin=DIFF)
    assert (proc.returncode, proc.stderr) == (0, "")
    assert (
        proc.stdout == " src/calc.py |    3 ++-\n 1 file changed, 2 insertions(+), 1 deletion(-)\n"
    )
    git = subprocess.run(
        ["git", "apply", "--stat"], cwd=repo, input=DIFF, capture_output=True, text=True
    )
    assert proc.stdout == git.stdout
    proc = cli("apply", "--numstat", cwd=repo, stdin=DIFF)
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, "2\t1\tsrc/calc.py\n", "")
    assert (repo / "src/calc.py").read_bytes() == BEFORE
    assert not (repo / ".applydiff").exists()


def test_a_git_diff_run_in_a_subdirectory_takes_paths_from_the_top(repo):
    # From the file's own directory: its paths read from the top, as git apply reads them.
    proc = cli("apply", "--yes", cwd=repo / "src", stdin=DIFF)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.endswith("applied to 1 file(s)\n")
    assert (repo / "src/calc.py").read_bytes() == AFTER
    # -R undoes it, as git apply -R does.
    proc = cli("apply", "-R", "--yes", cwd=repo / "src", stdin=DIFF)
    assert proc.returncode == 0, proc.stderr
    assert (repo / "src/calc.py").read_bytes() == BEFORE
    # From another directory the file is outside it: skipped, as git apply skips it.
    proc = cli("apply", "--yes", cwd=repo / "docs", stdin=DIFF)
    assert proc.returncode == 0, proc.stderr
    assert "Skipped patch 'src/calc.py'" in proc.stderr
    assert (repo / "src/calc.py").read_bytes() == BEFORE


def test_strip_directory_and_dash_c(repo, tmp_path_factory):
    deep = DIFF.replace("a/src/", "a/x/y/src/").replace("b/src/", "b/x/y/src/")
    deep = deep.split("\n", 1)[1]  # a plain unified diff (no 'diff --git' line)
    elsewhere = tmp_path_factory.mktemp("elsewhere")
    proc = cli("apply", "-p3", "-C", str(repo), "--dry-run", cwd=elsewhere, stdin=deep)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("--- a/src/calc.py\n+++ b/src/calc.py\n")
    bare = DIFF.replace("a/src/", "a/").replace("b/src/", "b/").split("\n", 1)[1]
    proc = cli("apply", "--directory", "src", "--yes", "-C", str(repo), cwd=elsewhere, stdin=bare)
    assert proc.returncode == 0, proc.stderr
    assert (repo / "src/calc.py").read_bytes() == AFTER


def test_a_negative_strip_is_a_usage_error(repo, capsys):
    assert main(["apply", "-p", "-1", "--root", str(repo)]) == 2
    assert capsys.readouterr().err == (
        "applydiff: -p takes a number of components, 0 or more, not -1\n"
    )


def test_a_rename_previews_as_git_shows_it(repo):
    patch = (
        "*** Begin Patch\n*** Update File: src/calc.py\n*** Move to: src/maths.py\n@@\n"
        "-    return a - b\n+    return a + b\n*** End Patch\n"
    )
    proc = cli("apply", "--dry-run", cwd=repo, stdin=patch)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == (
        "diff --git a/src/calc.py b/src/maths.py\n"
        "rename from src/calc.py\n"
        "rename to src/maths.py\n"
        "--- a/src/calc.py\n"
        "+++ b/src/maths.py\n"
        "@@ -1,3 +1,3 @@\n"
        " def add(a, b):\n"
        "-    return a - b\n"
        "+    return a + b\n"
        " TOTAL = 0\n"
    )
    proc = cli("apply", "--stat", cwd=repo, stdin=patch)
    # As git apply --stat and --numstat name a renamed file: by its new path.
    assert proc.stdout == (
        " src/maths.py |    2 +-\n 1 file changed, 1 insertion(+), 1 deletion(-)\n"
    )
    assert cli("apply", "--numstat", cwd=repo, stdin=patch).stdout == "1\t1\tsrc/maths.py\n"
    assert (repo / "src/calc.py").read_bytes() == BEFORE


def test_diffstat_scales_and_shortens_as_git_does():
    stats = [
        {"path": "a/" * 30 + "long.py", "added": 100, "deleted": 50},
        {"path": "short.py", "added": 0, "deleted": 0},
    ]
    text = diffstat(stats)
    first, second, summary = text.splitlines()
    # git cuts a name past 50 columns at the first "/" after its cut, padded to 50.
    assert first == " .../" + "a/" * 19 + "long.py  |  150 " + "+" * 13 + "-" * 7
    assert second == " " + "short.py".ljust(50) + " |    0 "
    assert summary == " 2 files changed, 100 insertions(+), 50 deletions(-)"
    assert diffstat([]) == " 0 files changed\n"
    assert diffstat([{"path": "x", "added": 0, "deleted": 2}]).endswith(
        " 1 file changed, 2 deletions(-)\n"
    )
    assert quote_path('t\xe9st "q".py') == '"t\\303\\251st \\"q\\".py"'
    assert numstat([{"path": "tab\there", "added": 1, "deleted": 0}]) == '1\t0\t"tab\\there"\n'


# -- run from a subdirectory, as git apply (issue 29) -----------------------------------------
@pytest.mark.skipif(shutil.which("git") is None, reason="needs git")
def test_a_git_diff_from_a_subdirectory_skips_files_outside_it(tmp_path):
    from git_repo import git

    git(tmp_path, "init", "-q")
    (tmp_path / "sub").mkdir()
    (tmp_path / "top.txt").write_bytes(b"a\n")
    (tmp_path / "sub" / "in.txt").write_bytes(b"b\n")
    git(tmp_path, "add", ".")
    git(tmp_path, "commit", "-qm", "init")
    (tmp_path / "top.txt").write_bytes(b"A\n")
    (tmp_path / "sub" / "in.txt").write_bytes(b"B\n")
    patch = git(tmp_path, "diff")
    git(tmp_path, "checkout", "-q", ".")
    (tmp_path / "p.diff").write_text(patch)
    cli = [sys.executable, "-m", "applydiff"]
    done = subprocess.run(
        [*cli, "apply", "../p.diff", "--yes"], cwd=tmp_path / "sub", capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == "--- a/sub/in.txt\n+++ b/sub/in.txt\n@@ -1 +1 @@\n-b\n+B\n"
    assert (
        "warning: Skipped patch 'top.txt': outside sub/, where the command runs (as git apply "
        "skips it)\n" in done.stderr
    )
    assert (tmp_path / "top.txt").read_bytes() == b"a\n"
    assert (tmp_path / "sub" / "in.txt").read_bytes() == b"B\n"
    # git apply itself does the same from there.
    git(tmp_path, "checkout", "-q", ".")
    subprocess.run(["git", "apply", "../p.diff"], cwd=tmp_path / "sub", check=True)
    assert (tmp_path / "top.txt").read_bytes() == b"a\n"
    assert (tmp_path / "sub" / "in.txt").read_bytes() == b"B\n"
    git(tmp_path, "checkout", "-q", ".")
    # Only files outside: nothing to apply, said, exit 0, nothing asked.
    (tmp_path / "top.diff").write_text(patch.split("diff --git a/top.txt")[0] or patch)
    only_top = "diff --git a/top.txt" + patch.split("diff --git a/top.txt")[1]
    (tmp_path / "top.diff").write_text(only_top)
    done = subprocess.run(
        [*cli, "apply", "../top.diff"], cwd=tmp_path / "sub", capture_output=True, text=True
    )
    assert (done.returncode, done.stdout) == (0, "")
    assert done.stderr.endswith("nothing to apply; nothing was written\n")
    assert (tmp_path / "top.txt").read_bytes() == b"a\n"
    # From the top, both.
    done = subprocess.run([*cli, "apply", "p.diff", "--yes"], cwd=tmp_path, capture_output=True)
    assert done.returncode == 0
    assert (tmp_path / "top.txt").read_bytes() == b"A\n"
