"""For tests that run real git: an environment that no user or system config reaches (and
names the committer), and ``git`` run in a repository."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

ENV = {
    **os.environ,
    "GIT_CONFIG_NOSYSTEM": "1",
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_AUTHOR_NAME": "t",
    "GIT_AUTHOR_EMAIL": "t@t",
    "GIT_COMMITTER_NAME": "t",
    "GIT_COMMITTER_EMAIL": "t@t",
}


def git(repo: Path, *args: str) -> str:
    """``git ARGS`` in ``repo`` (paths quoted as git does by default), its stdout."""
    out = subprocess.run(
        ["git", "-c", "core.quotepath=true", *args],
        cwd=repo,
        env=ENV,
        capture_output=True,
        check=True,
    )
    return out.stdout.decode("utf-8", "surrogateescape")
