"""Results: what an apply or a review command did, typed, and the JSON the CLI prints.

A :class:`Result` holds typed parts: per file a :class:`FileOutcome`, per applied op an
:class:`~applydiff.engine.EditReport`, per error a :class:`~applydiff.problems.Problem`.
Each reads by key as its JSON object too; :meth:`Result.to_dict` is the JSON. A dry run's
result holds the :class:`Plan` that :meth:`Workspace.commit <applydiff.workspace.Workspace.commit>`
writes: the targets, the reads they were made from (checked again under the lock), and what
the session records once they are written.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from . import commit as commit_mod
from .engine import EditReport
from .ir import Op
from .json_view import JsonView
from .problems import Problem
from .store import FileRead
from .text import CR, LF, cr_ends_lines, split_lines

# The keys of an applied edit in the result's JSON (EditReport.to_dict holds more).
EDIT_KEYS = ("index", "path", "tier", "confidence", "start_line", "end_line")


# Read by key too (a Mapping over to_dict): callers index a result's files as the JSON
# objects they are printed as (``f["action"]``). eq=False keeps the Mapping's equality, so
# a FileOutcome equals the dict it prints as.
@dataclass(frozen=True, eq=False)
class FileOutcome(JsonView):
    """What happened to one file: ``action`` (modified, added, deleted, moved to ``to``;
    for the review commands accepted outputs' actions, discarded, merged, kept, restored),
    and for a merge the line spans written with conflict markers."""

    path: str
    action: str
    to: str | None = None
    conflicts: list[list[int]] | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"path": self.path, "action": self.action}
        if self.to is not None:
            out["to"] = self.to
        if self.conflicts is not None:
            out["conflicts"] = self.conflicts
        return out


@dataclass(frozen=True)
class PlannedWrite:
    """One file of a plan: the target to commit, and the text it holds (None: deleted)."""

    path: str
    target: commit_mod.Target
    text: str | None


@dataclass
class Plan:
    """What a successful apply would write, for :meth:`Workspace.commit` (or for keeping the
    outputs pending review): the writes, the reads they were made from, per path the text
    before and how many edits changed it (the session's edit counts), the other path of each
    move (for the history), and the path whose permissions a moved or copied file takes."""

    writes: list[PlannedWrite]
    reads: dict[str, FileRead]
    edit_counts: dict[str, tuple[str | None, int]] = field(default_factory=dict)
    partners: dict[str, str] = field(default_factory=dict)
    permissions_from: dict[str, str] = field(default_factory=dict)


@dataclass
class Result:
    """The outcome of :meth:`Workspace.apply` (and of the review commands);
    ``to_dict()`` is the JSON the CLI prints."""

    ok: bool
    dry_run: bool
    files: list[FileOutcome] = field(default_factory=list)
    edits: list[EditReport] = field(default_factory=list)
    errors: list[Problem] = field(default_factory=list)
    committed: bool = False
    review: bool = False
    # Things that went wrong after the files were written (the session store): not errors.
    warnings: list[str] = field(default_factory=list)
    # Before/after text per path, for previews and feedback (not part of the JSON).
    changes: list[tuple[str, str | None, str | None]] = field(default_factory=list, repr=False)
    # What commit writes: set on a successful apply, None once written or kept for review.
    plan: Plan | None = field(default=None, repr=False)
    ops: list[Op] | None = field(default=None, repr=False)  # the parsed edits, for feedback

    def fail(self, problem: Problem) -> None:
        """Add ``problem``: the result is not ok."""
        self.ok = False
        self.errors.append(problem)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "ok": self.ok,
            "dry_run": self.dry_run,
            "files": [f.to_dict() for f in self.files],
            "edits": [_edit_json(r) for r in self.edits],
            "errors": [e.to_dict() for e in self.errors],
        }
        if self.review:
            out["review"] = True
        if self.warnings:
            out["warnings"] = self.warnings
        return out

    def diffs(self) -> Iterator[tuple[str, str]]:
        """``(path, unified diff)`` for every changed file. A renamed file is one entry,
        under its old path, in git's shape: ``rename from``/``rename to`` lines, then the
        hunks of its changed lines, if any."""
        moved = {f.path: f.to for f in self.files if f.action == "moved" and f.to}
        after_of = {path: after for path, _, after in self.changes}
        shown = {dst for src, dst in moved.items() if src in after_of and dst in after_of}
        for path, before, after in self.changes:
            if path in shown:
                continue
            dst = moved.get(path)
            if dst is not None and dst in after_of:
                yield path, rename_diff(path, dst, before, after_of[dst])
            else:
                yield path, unified_diff(path, before, after)


def _edit_json(report: EditReport) -> dict[str, Any]:
    full = report.to_dict()
    return {k: full[k] for k in EDIT_KEYS}


def unified_diff(path: str, before: str | None, after: str | None, to: str | None = None) -> str:
    """The diff of ``path`` from ``before`` to ``after`` (None: no file); ``to``: the path
    it has afterwards, when it was renamed."""
    a, b = _diff_lines(before or ""), _diff_lines(after or "")
    for lines in (a, b):
        if lines and not lines[-1].endswith("\n"):
            lines[-1] += "\n\\ No newline at end of file\n"
    old = f"a/{path}" if before is not None else "/dev/null"
    new = f"b/{to or path}" if after is not None else "/dev/null"
    return "".join(difflib.unified_diff(a, b, old, new))


def rename_diff(old: str, new: str, before: str | None, after: str | None) -> str:
    """A rename as git writes it: its header lines, then the hunks of the lines that
    changed (none when the content moved as it was)."""
    head = f"diff --git a/{old} b/{new}\nrename from {old}\nrename to {new}\n"
    if before == after:
        return head
    return head + unified_diff(old, before, after, to=new)


def _diff_lines(text: str) -> list[str]:
    """The lines of ``text`` for a diff: as the edit paths split them, a lone CR that ends a
    line shown as a newline (difflib puts no terminator of its own after a line)."""
    cr = cr_ends_lines(text)
    lines = split_lines(text, cr)
    return [x[:-1] + LF if x.endswith(CR) else x for x in lines] if cr else lines
