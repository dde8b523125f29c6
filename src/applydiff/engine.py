"""The engine: apply an edit script to file texts in memory, all or nothing.

Ops apply in order and later ops see earlier results, across files. Every op is attempted even
after one fails, so that every failing op is reported (later ones against the state without
the failed op's effect); if any failed, no change comes back. Each applied op is reported
(:class:`EditReport`): what it did (``kind``) and the tier that located it (``tier``, None
for an op no tier located: a whole-file write, a move, lines added at the end, ...).

>>> from applydiff.engine import apply_ops
>>> from applydiff.ir import Replace
>>> cs = apply_ops([Replace("a.py", "x = 1", "x = 2")], {"a.py": "x = 1\\n"})
>>> cs.ok, cs.changes[0].after
(True, 'x = 2\\n')
"""

from __future__ import annotations

import dataclasses
import itertools
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NoReturn, Protocol

from . import region
from .errors import (
    CONFLICT,
    IO_ERROR,
    Ambiguous,
    EditError,
    FileIdMismatch,
    FormatInvalid,
    MissingFile,
    NoChange,
    NoMatch,
)
from .formats.limits import MAX_OPS, check_count
from .ir import (
    Anchored,
    Delete,
    Lazy,
    Move,
    Op,
    Replace,
    Write,
    as_asked,
    normalize_path,
    write_conflicts,
)
from .json_view import JsonView
from .match import Match, replace_with_matches
from .match.anchored import replace_anchored
from .match.lazy import has_markers
from .match.merged_bytes import keep_file_bytes
from .match.snippet_merge import merge_lazy
from .match.verify_merge import runs_anchored, verify_merge
from .text import LF, count_lines, dominant_eol, ends_line, file_id, line_growth, to_lf

# Readings of a block with several '=======' lines tried, times the file's length: each is
# a search of the whole file (a few scans of it), so this bounds the op at about a second.
READINGS_WORK = 100_000_000
# A line a SEARCH/REPLACE parser reads as a divider ('=======').
_DIVIDER_LINE = re.compile(r"^[ \t]*={5,9}[ \t]*\r?$", re.MULTILINE)


@dataclass(frozen=True)
class FileChange:
    """One path's text before and after the script (None: the file does not exist)."""

    path: str
    before: str | None
    after: str | None

    @property
    def action(self) -> str:
        if self.before is None:
            return "added"
        return "deleted" if self.after is None else "modified"


# The confidence of a merge a model made and the verifier passed: below every tier that
# located the edit itself (the fuzzy tier's floor is the threshold, 0.8 by default).
MODEL_CONFIDENCE = 0.5


class MergeModel(Protocol):
    """Whatever merges a lazy snippet the deterministic merge refused (a fast-apply model
    behind an endpoint: ``applydiff.merge_model.MergeClient``). ``merge`` returns the whole
    merged file, or raises ``EditError`` (``io_error``: the endpoint failed)."""

    name: str

    def merge(self, path: str, original: str, snippet: str) -> str: ...


# What an op did (EditReport.kind). The first three changed lines a tier located (``tier``
# names it); the others located nothing (``tier`` is None).
LOCATED_KINDS = ("replace", "anchored", "lazy")
KINDS = (*LOCATED_KINDS, "append", "create", "write", "delete", "move", "copy", "mode")


# Read by key too (a Mapping over to_dict): Result.edits holds these, and its readers index
# an edit as the JSON object it is printed as.
@dataclass(frozen=True)
class EditReport(JsonView):
    """How one op was applied: what it did (``kind``, one of :data:`KINDS`), the tier that
    located it (None when none did: a whole-file write, a move, lines added at the end), its
    confidence, its 1-based lines in the text it was applied to, and how many places it
    changed."""

    index: int
    path: str
    kind: str
    tier: str | None
    confidence: float
    start_line: int | None = None
    end_line: int | None = None
    matches: int = 1
    notes: tuple[str, ...] = ()  # slips of the model's text read on the way (parser's words)

    @property
    def label(self) -> str:
        """The ``"tier"`` of the JSON: the tier, or what the op did when no tier located it.
        That key has always said "write", "create", "move", ... for those: a JSON contract."""
        return self.kind if self.tier is None else self.tier

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "index": self.index,
            "path": self.path,
            "kind": self.kind,
            "tier": self.label,
            "confidence": self.confidence,
            "start_line": self.start_line,
            "end_line": self.end_line,
            "matches": self.matches,
        }
        if self.notes:
            out["notes"] = list(self.notes)
        return out


@dataclass(frozen=True)
class OpError:
    """An op that failed: its position in the script, its path and the error;
    ``answer_line``: the line of the model's answer where the op's block starts (its
    ``origin``), when known."""

    index: int
    path: str
    error: EditError
    answer_line: int | None = None

    @property
    def code(self) -> str:
        return self.error.code

    def to_dict(self) -> dict[str, Any]:
        out = self.error.to_dict()
        out.update(index=self.index, path=self.path)
        if self.answer_line is not None:
            out["answer_line"] = self.answer_line
        return out


@dataclass
class Changeset:
    """The outcome of a script: every change (only when ``ok``), reports and errors."""

    changes: list[FileChange] = field(default_factory=list)
    moves: dict[str, str] = field(default_factory=dict)
    # path -> executable bit to set (True) or clear (False); the text may be unchanged
    modes: dict[str, bool] = field(default_factory=dict)
    copies: dict[str, str] = field(default_factory=dict)  # a copy's path -> its source
    reports: list[EditReport] = field(default_factory=list)
    errors: list[OpError] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors

    def texts(self) -> dict[str, str | None]:
        """path -> new text (None: deleted)."""
        return {c.path: c.after for c in self.changes}

    def summary(self) -> list[dict[str, str]]:
        """One entry per logical change: modified, added, deleted, or moved (with ``to``)."""
        out: list[dict[str, str]] = []
        targets = {dst: src for src, dst in self.moves.items()}
        for c in self.changes:
            if c.path in self.moves:
                out.append({"path": c.path, "action": "moved", "to": self.moves[c.path]})
            elif c.path in targets:
                continue
            else:
                out.append({"path": c.path, "action": c.action})
        return out


def apply_ops(
    ops: Sequence[Op],
    files: Mapping[str, str],
    *,
    key: Callable[[str], str] = normalize_path,
    threshold: float | None = None,
    keep_narration: bool = False,
    reverse: bool = False,
    directory: str | None = None,
    merge_model: MergeModel | None = None,
) -> Changeset:
    """Apply ``ops`` to ``files`` (path -> text; a missing path is a missing file).

    With ``reverse`` the script that undoes ``ops`` is applied (:func:`~applydiff.ir.reverse_ops`;
    an op with no reverse fails the script, nothing applied); ``directory`` is put before
    every path (:func:`~applydiff.ir.under_directory`).

    ``files`` may raise :class:`EditError` when a path is read (the workspace refuses paths
    outside its root, binary files, ...): that fails the op that read it.
    ``keep_narration`` keeps the comments of a lazy snippet that narrate the edit
    (``match.narration``), which are otherwise left out. ``merge_model``, when given, merges
    a lazy snippet the deterministic merge refuses; its merge is applied only when
    ``verify_merge`` finds the snippet explains it (tier ``model``).
    """
    run = _Run(files, key, threshold, keep_narration, merge_model)
    try:  # ops given directly, not parsed from an answer, are bounded as an answer's are
        check_count(len(ops))
    except EditError as e:
        run.errors.append(OpError(MAX_OPS, ops[MAX_OPS].path, e, ops[MAX_OPS].origin))
        return run.result()
    if reverse or directory is not None:
        ops, refused = as_asked(ops, reverse=reverse, directory=directory)
        if refused:
            run.errors += [
                OpError(k, ops[k].path, e, ops[k].origin) for k, e in sorted(refused.items())
            ]
            return run.result()
    conflicts = write_conflicts(list(ops), key)
    for index, op in enumerate(ops):
        path = op.path
        try:
            path = run.key(op.path)
            if index in conflicts:
                raise conflicts[index]
            before = run.read(path)
            report = run.apply(index, op, path)
            run.note_shift(path, before, report)
            run.reports.append(report)
        except EditError as e:
            if e.path is None:
                e.path = path
            run.errors.append(OpError(index, path, e, op.origin))
    return run.result()


def _told(error: EditError, more: str) -> EditError:
    """``error`` with ``more`` said after its message (a refusal the merge model was or was
    not asked about keeps its own facts and code)."""
    error.message = f"{error.message}; {more}"
    error.args = (error.message,)
    return error


def _changed_lines(before: str, after: str) -> tuple[int, int]:
    """The 1-based first and last lines of ``after`` that differ from ``before``."""
    a, b = before.split("\n"), after.split("\n")
    p = 0
    while p < min(len(a), len(b)) and a[p] == b[p]:
        p += 1
    s = 0
    while s < min(len(a), len(b)) - p and a[-1 - s] == b[-1 - s]:
        s += 1
    return p + 1, max(p + 1, len(b) - s)


class _Run:
    def __init__(
        self,
        files: Mapping[str, str],
        key: Callable[[str], str],
        threshold: float | None,
        keep_narration: bool = False,
        merge_model: MergeModel | None = None,
    ) -> None:
        self.files = files
        self.key = key
        self.threshold = threshold
        self.keep_narration = keep_narration
        self.merge_model = merge_model
        self.state: dict[str, str | None] = {}
        self.original: dict[str, str | None] = {}
        self.moves: dict[str, str] = {}  # original source -> current destination
        self.modes: dict[str, bool] = {}  # path -> executable bit to set or clear
        self.copies: dict[str, str] = {}  # a copy's path -> the path it was copied from
        self.last_end: dict[str, int] = {}  # path -> line below its latest edit (0-based)
        # path -> (first line, lines added) of each edit so far, to map original line numbers
        self.shifts: dict[str, list[tuple[int, int]]] = {}
        # A text's line count, for the few texts of the edit at hand (an edit that says not
        # what it replaced has its before and after counted whole).
        self._counted: dict[int, tuple[str, int]] = {}
        self._grown: tuple[str, str, int] | None = None  # (before, after, lines grown)
        self.reports: list[EditReport] = []
        self.errors: list[OpError] = []

    def note_shift(self, path: str, before: str | None, report: EditReport) -> None:
        after = self.state.get(path)
        if report.kind == "write" or before is None or after is None:
            self.shifts.pop(path, None)  # line numbers of the old file mean nothing now
        elif report.start_line is not None:
            self.shifts.setdefault(path, []).append((report.start_line, self.grown(before, after)))

    def grown(self, before: str, after: str, changed: tuple[int, int] | None = None) -> int:
        """Lines ``after`` has more than ``before`` (negative: fewer). ``changed``: the
        (start, end) of the only part of ``before`` the edit replaced, when known: then only
        that part is counted. The last answer is remembered (an edit asks twice)."""
        memo = self._grown
        if memo is not None and memo[0] is before and memo[1] is after:
            return memo[2]
        n = None if changed is None else line_growth(before, after, *changed)
        if n is None:
            n = self.lines_in(after) - self.lines_in(before)
        self._grown = (before, after, n)
        return n

    def lines_in(self, text: str) -> int:
        """``count_lines(text)``, remembered for the last few texts counted."""
        got = self._counted.get(id(text))
        if got is not None and got[0] is text:
            return got[1]
        n = region.count_lines(text)
        if len(self._counted) >= 8:
            self._counted.clear()
        self._counted[id(text)] = (text, n)
        return n

    def current_line(self, path: str, line: int) -> int:
        """Where line ``line`` of the file as it was before this response is now."""
        for start, grown in self.shifts.get(path, ()):
            if start < line:
                line = max(line + grown, start)
        return line

    def read(self, path: str) -> str | None:
        if path not in self.state:
            text = self.files.get(path)
            self.original[path] = text
            self.state[path] = text
        return self.state[path]

    def check_id(self, op: Op, path: str, text: str) -> None:
        if op.file_id is None:
            return
        now = file_id(text)
        first = self.original.get(path)
        if op.file_id == now or (first is not None and op.file_id == file_id(first)):
            return
        raise FileIdMismatch(
            f"file_id {op.file_id} does not name the current version of {path} (its file_id "
            f"is {now}); re-read the file and write the edit against what it holds now",
            expected=op.file_id,
            actual=now,
        )

    def existing(self, op: Op, path: str, verb: str) -> str:
        text = self.read(path)
        if text is None:
            hint = "; to create it, use write_file" if verb == "edit" else ""
            raise MissingFile(
                f"cannot {verb} {path}: the file does not exist; check the path{hint}"
            )
        self.check_id(op, path, text)
        return text

    def apply(self, index: int, op: Op, path: str) -> EditReport:
        if isinstance(op, Write):
            return self.write(index, op, path)
        if isinstance(op, Replace):
            return self.replace(index, op, path)
        if isinstance(op, Anchored):
            return self.anchored(index, op, path)
        if isinstance(op, Lazy):
            return self.lazy(index, op, path)
        if isinstance(op, Delete):
            text = self.existing(op, path, "delete")
            if op.expect is not None and to_lf(text) != to_lf(op.expect):
                raise NoMatch(
                    f"cannot delete {path}: it does not hold exactly the text the edit "
                    "created, so deleting it would lose other text (the reverse of a "
                    "creation deletes only the file as it was created); nothing was applied"
                )
            self.state[path] = None
            self.modes.pop(path, None)
            return EditReport(index, path, "delete", None, 1.0)
        if isinstance(op, Move):
            return self.move(index, op, path)
        raise TypeError(f"not an edit op: {op!r}")

    def write(self, index: int, op: Write, path: str) -> EditReport:
        current = self.read(path)
        content = op.content
        if current is not None and op.create:
            raise EditError(
                f"{path} already exists, but the edit creates it as a new file (a diff from "
                "/dev/null); diff against its current content, or write the whole file",
                code=CONFLICT,
            )
        if current is not None:
            self.check_id(op, path, current)
            # A whole-file write keeps the file's line endings when the model wrote plain LF.
            eol = dominant_eol(current)
            if eol != LF and "\r" not in content:
                content = content.replace(LF, eol)
        self.state[path] = content
        lines = count_lines(content)
        return EditReport(index, path, "write", None, 1.0, 1, max(lines, 1))

    def replace(self, index: int, op: Replace, path: str) -> EditReport:
        current = self.read(path)
        if current is None and not op.old:
            self.state[path] = op.new
            return EditReport(index, path, "create", None, 1.0, 1, 1)
        text = self.existing(op, path, "edit")
        if op.old == op.new and not op.alternatives and not op.literal:
            raise NoChange(
                f"the search and replacement texts of this edit of {path} are the same, so "
                "nothing would change; write the lines as they should become after "
                "'=======' (or '+' lines in a diff)"
            )
        if op.absent and to_lf(op.new) in to_lf(text):
            raise NoChange(
                f"{path} already holds the lines this reversed edit would put back, so the "
                "edit it reverses does not look applied; nothing was applied"
            )
        if op.at_end and not op.old:
            self.region_top(op, path, text)  # its scope lines must exist, as codex checks
            return self.append(index, op, path, text)
        top = self.region_top(op, path, text)
        cut = region.line_start(text, top)
        head, body = text[:cut], text[cut:]
        hint = op.hint_line
        if hint is not None and op.hint_is_original:
            hint = self.current_line(path, hint)
        hint = hint - top if hint is not None and hint > top else None
        if hint is None and top and (op.scope or op.after_previous):
            hint = 1  # a chunk below a scope line or an earlier chunk: nearest place first
        threshold = op.threshold if op.threshold is not None else self.threshold
        notes = op.slips
        if not op.alternatives and not op.literal:
            new_body, matches = replace_with_matches(
                body,
                op.old,
                op.new,
                replace_all=op.replace_all,
                hint_line=hint,
                threshold=threshold,
                report=True,
                shown_from=top,
            )
        else:
            new_body, matches, literal = self.one_reading(body, op, hint, threshold, top)
            if literal:
                notes = ("the '=======' lines were read as the file's, which has such lines",)
        new_text = head + new_body
        if op.final_newline and new_text and not ends_line(new_text):
            new_text += dominant_eol(new_text)
        if new_text == text:
            _unchanged(path, _report(index, path, "replace", matches, offset=top))
        self.state[path] = new_text
        report = _report(index, path, "replace", matches, offset=top)
        if notes:
            report = dataclasses.replace(report, notes=notes)
        if report.start_line is not None and report.end_line is not None:
            changed = (cut + matches[0].start, cut + matches[-1].end) if matches else None
            self.last_end[path] = report.end_line + self.grown(text, new_text, changed)
        return report

    def region_top(self, op: Replace, path: str, text: str) -> int:
        """The first line the op may match at (0-based): below the previous edit of the path
        (``after_previous``), below its scope lines, within the file's tail (``at_end``)."""
        top = self.last_end.get(path, 0) if op.after_previous else 0
        for line in op.scope:
            found = region.find_line(text, line, top)
            if found is None:
                raise NoMatch(
                    f"the scope line {line.strip()!r} was not found in {path}"
                    + (f" below line {top}" if top else "")
                    + "; quote a line the file has (a class or function header) after '@@'"
                )
            top = found + 1
        if op.at_end:
            top = max(top, region.tail_top(text, op.old))
        return top

    def append(self, index: int, op: Replace, path: str, text: str) -> EditReport:
        """A chunk of pure additions: it goes at the end of the file."""
        eol = dominant_eol(text)
        body = text if not text or ends_line(text) else text + eol
        added = op.new.replace("\r\n", "\n").replace("\n", eol)
        new_text = body + added
        if op.final_newline and new_text and not ends_line(new_text):
            new_text += eol
        self.state[path] = new_text
        first = region.count_lines(body) + 1
        self.last_end[path] = region.count_lines(new_text)
        return EditReport(index, path, "append", None, 1.0, first, max(first, self.last_end[path]))

    def one_reading(
        self,
        text: str,
        op: Replace,
        hint: int | None,
        threshold: float | None,
        top: int,
    ) -> tuple[str, list[Match], bool]:
        """A block with several ``=======`` lines: keep the one split whose search text
        matches (and say whether it is one of ``op.literal``, tried only when the file holds
        a divider-like line). Each split is a search of the whole file (and a copy of the
        block), so a block with thousands of such lines is refused without trying them, and
        trying stops at the second fit."""
        literal = op.literal if op.literal and _DIVIDER_LINE.search(text) else ()
        count = 1 + len(op.alternatives) + len(literal)
        size = len(text) + len(op.old) + len(op.new)
        if count > max(2, READINGS_WORK // max(size, 1)):
            raise FormatInvalid(
                f"the block holds {count} unescaped '=======' lines, so it splits "
                f"into search and replace text in {count} ways, too many to try "
                "against a file this size; escape each '=======' line that belongs to the "
                "content with a leading backslash",
                expected="one unescaped ======= separator per block",
            )
        fits: list[tuple[bool, str, list[Match]]] = []
        tried = 0
        for old, new in itertools.chain([(op.old, op.new)], op.alternatives, literal):
            tried += 1
            try:
                fit = replace_with_matches(
                    text,
                    old,
                    new,
                    replace_all=op.replace_all,
                    hint_line=hint,
                    threshold=threshold,
                    report=True,
                    shown_from=top,
                )
            except EditError:
                continue
            fits.append((tried > 1 + len(op.alternatives), *fit))
            if len(fits) == 2:
                break  # two readings fit: neither can be chosen
        if len(fits) == 1:
            was_literal, new_text, matches = fits[0]
            return new_text, matches, was_literal
        slips = "".join(f"{note}; " for note in op.slips)
        some = "at least 2" if fits and tried < count else str(len(fits) or "none")
        raise FormatInvalid(
            f"{slips}the block holds several '=======' lines, so it splits into search and "
            f"replace text in {count} ways, and {some} of them match the file; "
            "escape a '=======' line that belongs to the content with a leading backslash",
            expected="one unescaped ======= separator per block",
        )

    def anchored(self, index: int, op: Anchored, path: str) -> EditReport:
        text = self.existing(op, path, "edit")
        new_text, hit, doc = replace_anchored(
            text,
            list(op.start),
            list(op.content),
            list(op.end) if op.end else None,
            hint_line=op.hint_line,
        )
        self.state[path] = new_text
        last = doc.line_no(max(hit.start, hit.end - 1))
        return EditReport(index, path, "anchored", hit.tier, hit.confidence, hit.line + 1, last + 1)

    def lazy(self, index: int, op: Lazy, path: str) -> EditReport:
        current = self.read(path)
        if not current:  # a missing or empty file: the snippet is all of it, if it can be
            if has_markers(op.snippet):
                what = "does not exist" if current is None else "is empty"
                raise (NoMatch if current is not None else MissingFile)(
                    f"cannot edit {path}: the file {what}, and the snippet's "
                    "'... existing code ...' lines stand for text it does not have; send the "
                    "whole file to create it"
                )
            self.state[path] = op.snippet
            return EditReport(index, path, "create", None, 1.0, 1, max(1, op.snippet.count("\n")))
        text = self.existing(op, path, "edit")
        try:
            new_text, merged = merge_lazy(
                path, text, op.snippet, keep_narration=self.keep_narration
            )
        except (NoMatch, Ambiguous) as refused:
            if self.merge_model is None or isinstance(refused, MissingFile):
                raise
            if isinstance(refused, Ambiguous) and not runs_anchored(text, op.snippet):
                # The snippet fits several places: a merge at any of them verifies alike, so
                # none can be trusted (the verifier does not see a right line misplaced).
                _told(
                    refused,
                    f"the merge model {self.merge_model.name} was not asked: a run of the "
                    "snippet has no line the file has once, so no merge of it could be checked",
                )
                raise
            return self.model_merge(index, op, path, text, refused)
        # The tier: "lazy" placed by lines, "structure" by definitions, "diff" read as hunks
        # (a snippet written with +/- marks).
        tier = "lazy" if merged.how == "lines" else merged.how
        report = EditReport(
            index,
            path,
            "lazy",
            tier,
            merged.confidence,
            merged.start_line,
            merged.end_line,
            notes=merged.notes,
        )
        if new_text == text:
            _unchanged(path, report)
        self.state[path] = new_text
        return report

    def model_merge(
        self, index: int, op: Lazy, path: str, text: str, refused: EditError
    ) -> EditReport:
        """The merge model's merge of a snippet the deterministic merge refused: applied
        when the verifier passes it, with the file's bytes on every line it kept; else the
        refusal stands, with the verifier's reasons beside it."""
        model = self.merge_model
        assert model is not None
        try:
            answer = model.merge(path, text, op.snippet)
        except EditError as e:
            raise EditError(
                f"{refused.message}; the merge model {model.name} was asked and failed: "
                f"{e.message}",
                code=IO_ERROR,
                path=path,
            ) from None
        verdict = verify_merge(text, op.snippet, answer, path)
        if not verdict.verified:
            raise _told(
                refused,
                f"the merge model {model.name}'s merge was not applied, as the snippet does "
                f"not explain it: {verdict.summary()}",
            )
        new_text = keep_file_bytes(text, answer, op.snippet)
        if new_text == text:
            raise NoChange(f"the merge model {model.name} returned {path} unchanged")
        first, last = _changed_lines(text, new_text)
        notes = (
            f"merged by the model {model.name} (the deterministic merge refused: "
            f"{refused.message})",
            *verdict.notes,
        )
        self.state[path] = new_text
        return EditReport(index, path, "lazy", "model", MODEL_CONFIDENCE, first, last, notes=notes)

    def move(self, index: int, op: Move, path: str) -> EditReport:
        report = self.move_or_copy(index, op, path)
        if op.executable is not None:
            self.modes[self.key(op.to)] = op.executable
        return report

    def move_or_copy(self, index: int, op: Move, path: str) -> EditReport:
        text = self.existing(op, path, "copy" if op.copy else "move")
        dest = self.key(op.to)
        if op.copy:
            if dest == path or self.read(dest) is not None:
                raise EditError(
                    f"{op.to} already exists, but the edit copies {op.path} to it as a new "
                    "file; copy to a path that does not exist, or edit the file itself",
                    code=CONFLICT,
                )
            self.state[dest] = text
            moved = next((s for s, d in self.moves.items() if d == path), path)
            self.copies[dest] = self.copies.get(path, moved)  # where its bytes were read
            if path in self.modes:
                self.modes[dest] = self.modes[path]
            return EditReport(index, path, "copy", None, 1.0)
        if dest == path:  # a move onto itself changes nothing (but maybe the mode)
            return EditReport(index, path, "move" if op.executable is None else "mode", None, 1.0)
        self.read(dest)  # remember what was there (a move may overwrite it)
        self.shifts[dest] = self.shifts.pop(path, [])
        self.state[dest] = text
        self.state[path] = None
        if path in self.modes:
            self.modes[dest] = self.modes.pop(path)
        if path in self.copies:
            self.copies[dest] = self.copies.pop(path)
        source = next((s for s, d in self.moves.items() if d == path), path)
        self.moves.pop(source, None)
        if source != dest:
            self.moves[source] = dest
        return EditReport(index, path, "move", None, 1.0)

    def result(self) -> Changeset:
        if self.errors:
            return Changeset(reports=self.reports, errors=self.errors)
        changes = [
            FileChange(path, self.original[path], after)
            for path, after in self.state.items()
            if after != self.original[path] or (after is not None and path in self.modes)
        ]
        return Changeset(
            changes=changes,
            moves=dict(self.moves),
            modes=dict(self.modes),
            copies={d: s for d, s in self.copies.items() if self.state.get(d) is not None},
            reports=self.reports,
        )


def _unchanged(path: str, report: EditReport) -> NoReturn:
    """An edit that found its place but would leave the file as it is."""
    where = ""
    if report.start_line is not None:
        where = f" at lines {report.start_line}-{report.end_line or report.start_line}"
    raise NoChange(
        f"{path} already reads as this edit's replacement{where}, so nothing would change; "
        "re-read the file: the change may already be there"
    )


def _report(index: int, path: str, kind: str, matches: list[Match], offset: int = 0) -> EditReport:
    if not matches:  # an empty search text filled an empty file
        return EditReport(index, path, "create", None, 1.0, 1, 1)
    first, last = matches[0], matches[-1]
    return EditReport(
        index,
        path,
        kind,
        first.tier,
        min(m.confidence for m in matches),
        first.start_line + offset,
        last.end_line + offset,
        len(matches),
    )
