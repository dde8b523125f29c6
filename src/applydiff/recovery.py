"""Which interrupted commits recovery may finish: a journal is data on disk, held to the
rules an edit is held to.

A repository can ship ``.applydiff/journal-*.json`` (a clone, a tarball, a CI checkout at a
predictable path). Recovery acts on a journal only when every path it names passes the policy
as an edit's would (inside the root with no link on the way, not under ``.git/`` or the state
directory, not the ignore file, not ignored) and git does not track the journal (applydiff's
state directory is ignored by its own ``.gitignore``: a tracked journal was shipped). Any
other journal is moved aside by :func:`commit.recover`, and every command says so until it is
discarded (``applydiff recover --discard``).
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

from . import commit as commit_mod
from . import gitindex
from .errors import EditError
from .policy import Policy


def vetter(policy: Policy) -> Callable[[dict, Path], str | None]:
    """``vet(record, journal)`` for :func:`commit.recover`: why the journal is not trusted
    under ``policy``, or None."""

    def vet(record: dict, journal: Path) -> str | None:
        for role, path, is_dir in commit_mod.journal_paths(record, commit_mod.txid_of(journal)):
            why = _refused(policy, path, is_dir)
            if why is not None:
                return f"its {role} {path} {why}"
        found = gitindex.tracked([journal])
        if found is None:
            return "git's index could not be read to tell whether the journal was shipped"
        if found:
            return "git tracks it: it came with the repository, not from a crash here"
        return None

    return vet


def _refused(policy: Policy, path: str, is_dir: bool) -> str | None:
    """Why an edit of ``path`` (absolute) would be refused, or None: a link on the way
    (resolving would follow it), else what the policy says of it."""
    if os.path.realpath(path) != os.path.normpath(path):
        return "has a link on the way"
    try:
        key = policy.resolve(path)[0]
    except EditError as e:  # policy.denied's message: "'<path>' is not allowed: <why>"
        return (
            "is a directory edits may not touch"
            if is_dir
            else e.message.replace(f"{path!r} ", "", 1)
        )
    if is_dir and not policy.allowed(key, is_dir=True):
        return "is a directory edits may not touch"
    return None


def warning(found: list[commit_mod.Quarantined]) -> str | None:
    """What every command says while journals wait in quarantine."""
    if not found:
        return None
    listed = "; ".join(f".applydiff/quarantine/{q.name} ({q.why})" for q in found)
    many = len(found) > 1
    return (
        f"{'journals' if many else 'a journal'} of an interrupted change "
        f"{'were' if many else 'was'} not trusted and not acted on, nothing was written: "
        f"{listed}. If you did not expect this, the repository may have shipped "
        f"{'them' if many else 'it'}; delete with `applydiff recover --discard`"
    )
