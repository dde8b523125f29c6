"""The edit script: what every format parses into and what the engine applies, in order.

Paths are strings as the model wrote them; the workspace resolves them against its root.
``origin`` is the 1-based line of the model's response the op was read from (None for ops
built in code), so that an error can point the model at its own text.
"""

from __future__ import annotations

import dataclasses
import posixpath
from collections.abc import Iterator, Sequence
from dataclasses import MISSING, dataclass, field, fields
from typing import Any, NoReturn, overload

from .errors import FormatInvalid, WriteConflict


class Splits(Sequence[tuple[str, str]]):
    """The readings of a block whose text holds several divider lines: for each divider, the
    text before it and the text after it. A block of k dividers has k readings, each about as
    long as the block, so they are cut from the one text when asked for, not all at parse
    time (k times the block)."""

    __slots__ = ("_cuts", "_divider", "_text")

    def __init__(self, text: str, cuts: Sequence[int], divider: str) -> None:
        self._text, self._cuts, self._divider = text, tuple(cuts), divider

    def __len__(self) -> int:
        return len(self._cuts)

    @overload
    def __getitem__(self, k: int) -> tuple[str, str]: ...
    @overload
    def __getitem__(self, k: slice) -> Sequence[tuple[str, str]]: ...
    def __getitem__(self, k: int | slice) -> Any:
        if isinstance(k, slice):
            return Splits(self._text, self._cuts[k], self._divider)
        cut = self._cuts[k]
        return self._text[:cut], self._text[cut + len(self._divider) :]

    def __iter__(self) -> Iterator[tuple[str, str]]:
        return (self[k] for k in range(len(self)))

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Splits):
            return (self._text, self._cuts, self._divider) == (
                other._text,
                other._cuts,
                other._divider,
            )
        return isinstance(other, Sequence) and tuple(self) == tuple(other)

    def __hash__(self) -> int:
        return hash((self._text, self._cuts, self._divider))

    def __repr__(self) -> str:
        return f"Splits({len(self)} readings)"


@dataclass(frozen=True)
class Write:
    """Create or overwrite a file with ``content``; with ``create`` (a diff from /dev/null)
    the file must not exist yet. ``added``: the answer adds this file (codex's ``*** Add
    File``, which may overwrite), so its reverse deletes it, as a creation's does."""

    path: str
    content: str
    file_id: str | None = None
    create: bool = False
    origin: int | None = None
    added: bool = False


@dataclass(frozen=True)
class Replace:
    """Replace the place ``old`` names with ``new``; an empty ``old`` creates a new file.

    ``hint_line`` (1-based) orders the search and breaks ties; with ``hint_is_original`` it
    counts lines of the file as it was before this response (apply_diff's ``:start_line:``),
    and the engine shifts it by the lines earlier edits added or removed above it.
    ``threshold`` overrides the fuzzy threshold for this edit. ``alternatives`` holds other
    readings of an ambiguous block (several ``=======`` lines); the engine keeps the one
    reading whose ``old`` matches.

    Options that apply_patch chunks need: ``scope`` lines (``@@ def f``) are found first, in
    order, and the match must come after them; ``after_previous`` searches only below the
    previous edit of the same path in this script; ``at_end`` requires the match to end the
    file (``*** End of File``), and with an empty ``old`` appends ``new`` at the end;
    ``final_newline`` makes sure the file ends with a newline afterwards.
    """

    path: str
    old: str
    new: str
    replace_all: bool = False
    hint_line: int | None = None
    threshold: float | None = None
    file_id: str | None = None
    alternatives: Sequence[tuple[str, str]] = field(default=())
    scope: tuple[str, ...] = field(default=())
    hint_is_original: bool = False  # hint_line counts lines of the file before the response
    after_previous: bool = False
    at_end: bool = False
    final_newline: bool = False
    origin: int | None = None
    # Slips the parser read in the block (a stray divider, a marker with a stray character),
    # for the report; and the readings that keep a divider it took for a stray one as a line
    # of the file, which the engine tries only when the file holds such a line.
    slips: tuple[str, ...] = field(default=())
    literal: Sequence[tuple[str, str]] = field(default=())
    # The reverse of an edit that only removed lines: refused when the file already holds
    # ``new`` (the lines it would put back are there: the edit was never applied).
    absent: bool = False


@dataclass(frozen=True)
class Anchored:
    """Replace the lines from ``start`` through ``end`` (or just ``start``) by ``content``.

    ``start`` and ``end`` are lists of consecutive lines quoted from the file; ``end`` is the
    first match at or after ``start``.
    """

    path: str
    start: tuple[str, ...]
    content: tuple[str, ...]
    end: tuple[str, ...] | None = None
    hint_line: int | None = None
    file_id: str | None = None
    origin: int | None = None


@dataclass(frozen=True)
class Lazy:
    """Merge a lazy ``snippet`` (changed code with ``... existing code ...`` lines standing
    for the rest, as fast-apply tools take it) into the file; ``instructions`` is the model's
    one-line account of the change, kept for reports. A snippet without markers for a file
    that does not exist creates it."""

    path: str
    snippet: str
    instructions: str | None = None
    file_id: str | None = None
    origin: int | None = None


@dataclass(frozen=True)
class Delete:
    """Remove a file.

    ``shown``: the file's text as the answer showed it (a deletion diff's removed lines),
    kept so that the deletion can be reversed into a creation; it is not checked (a model
    often shows a deleted file in part). ``expect``: the text the file must hold to be
    deleted (the reverse of a creation); a file holding anything else is refused.
    """

    path: str
    file_id: str | None = None
    origin: int | None = None
    shown: str | None = None
    expect: str | None = None


@dataclass(frozen=True)
class Move:
    """Rename a file (its content as it stands after the earlier edits).

    With ``copy`` the file stays and ``to``, which must not exist, gets a copy of it (a git
    diff's ``copy from``/``copy to``). ``executable`` True or False sets or clears the
    executable bit of ``to`` (a git diff's ``new mode 100755``/``100644``; ``to`` may be
    ``path`` itself); the rest of its permissions stay as they are on disk at commit.
    """

    path: str
    to: str
    file_id: str | None = None
    origin: int | None = None
    copy: bool = False
    executable: bool | None = None


Op = Write | Replace | Anchored | Lazy | Delete | Move

KIND = {
    Write: "write",
    Replace: "replace",
    Anchored: "anchored",
    Lazy: "lazy",
    Delete: "delete",
    Move: "move",
}


def op_to_dict(op: Op) -> dict[str, Any]:
    """A JSON-able view of ``op``: its kind, then every field that is not at its default."""
    out: dict[str, Any] = {"op": KIND[type(op)]}
    for f in fields(op):
        value = getattr(op, f.name)
        default = f.default_factory() if f.default_factory is not MISSING else f.default
        if value != default:
            out[f.name] = list(value) if isinstance(value, tuple) else value
    return out


def normalize_path(path: str) -> str:
    """The key two spellings of one relative path share: ``./a//b`` and ``a/b``."""
    p = posixpath.normpath(path.replace("\\", "/"))
    return "" if p == "." else p


def reverse_ops(ops: Sequence[Op]) -> list[Op]:
    """The script that undoes ``ops`` (``git apply -R``): added and removed text swapped, a
    creation a deletion of exactly what it created, a shown deletion a creation, a move back.

    The ops go in reverse order, except that a run of edits of one path keeps its order (a
    codex chunk is searched below the previous one). An op whose reverse the answer does not
    say (a whole-file write with no old text, a lazy snippet, a copy, a deletion that does not
    show the file, an edit that would add lines with nothing to place them by) raises
    :class:`~applydiff.errors.FormatInvalid` naming its line: nothing is half reversed.
    """
    script, problems = _reverse_script(ops)
    if problems:
        raise problems[min(problems)]
    return script


def _reverse_script(ops: Sequence[Op]) -> tuple[list[Op], dict[int, FormatInvalid]]:
    """:func:`reverse_ops`'s script, each op reversed once, and the ops (by index) that have
    no reverse, each with why (then the script is empty)."""
    groups: list[list[int]] = []  # runs of edits of one path keep their order
    reverses: list[Op] = []
    refused: dict[int, FormatInvalid] = {}
    for index, op in enumerate(ops):
        try:
            reverses.append(_reversed(op))
        except FormatInvalid as e:
            refused[index] = e
            reverses.append(op)
        last = ops[groups[-1][-1]] if groups else None
        if isinstance(op, Replace) and isinstance(last, Replace) and last.path == op.path:
            groups[-1].append(index)
        else:
            groups.append([index])
    if refused:
        return [], refused
    return [reverses[i] for group in reversed(groups) for i in group], {}


def as_asked(
    ops: Sequence[Op], *, reverse: bool = False, directory: str | None = None
) -> tuple[list[Op], dict[int, FormatInvalid]]:
    """The ops as ``git apply``'s ``-R`` and ``--directory`` ask for them (reversed, then put
    under ``directory``), and nothing refused; or, when some op has no reverse, the ops as
    they are and those refused (by index, each with why): nothing is half reversed."""
    out = list(ops)
    if reverse:
        script, refused = _reverse_script(ops)
        if refused:
            return out, refused
        out = script
    if directory is not None:
        out = under_directory(out, directory)
    return out, {}


def _reversed(op: Op) -> Op:
    if isinstance(op, Replace):
        if not op.old and not op.new:
            _irreversible(op, "it changes nothing")
        if not op.old and not op.at_end:
            # An empty search text creates the file: its reverse deletes the file, and only
            # when it holds exactly what was created.
            return Delete(op.path, op.file_id, op.origin, shown=op.new, expect=op.new)
        if not op.new and not op.at_end:
            _irreversible(
                op,
                "it removes lines and quotes nothing around them, so reversed it would add "
                "them with nothing to find their place by",
            )
        return dataclasses.replace(
            op,
            old=op.new,
            new=op.old,
            alternatives=_swapped(op.alternatives),
            literal=_swapped(op.literal),
            absent=_only_removes(op.old, op.new),
        )
    if isinstance(op, Write):
        if op.create or op.added:
            return Delete(op.path, op.file_id, op.origin, shown=op.content, expect=op.content)
        _irreversible(op, "it writes the whole file and does not show what the file held")
    if isinstance(op, Delete):
        if op.shown is None:
            _irreversible(op, "it deletes the file without showing what the file held")
        return Write(op.path, op.shown, op.file_id, create=True, origin=op.origin, added=True)
    if isinstance(op, Move):
        if op.copy:
            _irreversible(op, f"it copies {op.path} to {op.to}, and a copy has no reverse")
        executable = None if op.executable is None else not op.executable
        return Move(op.to, op.path, op.file_id, op.origin, executable=executable)
    what = "anchored edit" if isinstance(op, Anchored) else "lazy snippet"
    _irreversible(op, f"a {what} does not show the text it replaces")


def _only_removes(old: str, new: str) -> bool:
    """Whether going from ``old`` to ``new`` only removes lines (``new``'s lines are ``old``'s
    with some left out, in order)."""
    kept = iter(old.split("\n"))
    return all(any(line == have for have in kept) for line in new.split("\n"))


def _swapped(pairs: Sequence[tuple[str, str]]) -> Sequence[tuple[str, str]]:
    return tuple((new, old) for old, new in pairs)


def _irreversible(op: Op, why: str) -> NoReturn:
    where = f" at line {op.origin}" if op.origin else ""
    raise FormatInvalid(
        f"the {KIND[type(op)]} of {op.path}{where} cannot be reversed: {why}; nothing was "
        "applied. Reverse the other edits without it, or send the change it undoes",
        line=op.origin,
        expected="edits that show the text they remove and add",
        path=op.path,
    )


def under_directory(ops: Sequence[Op], directory: str) -> list[Op]:
    """``ops`` with ``directory`` put before every path they name (``git apply
    --directory``); the workspace's policy then checks each path as it checks any."""
    base = directory.replace("\\", "/").rstrip("/")
    if not base:
        raise ValueError("directory must name a directory (not be empty or '/')")

    def under(path: str) -> str:
        return f"{base}/{path}"

    out: list[Op] = []
    for op in ops:
        moved = dataclasses.replace(op, path=under(op.path))
        if isinstance(moved, Move):
            moved = dataclasses.replace(moved, to=under(moved.to))
        out.append(moved)
    return out


def write_conflicts(ops: list[Op], key: Any = normalize_path) -> dict[int, WriteConflict]:
    """The ops (by index) that write a path written or edited earlier in the script, or edit
    a path written earlier: one response must write a file once, or edit it, not both."""
    written: dict[str, int] = {}
    edited: dict[str, int] = {}
    out: dict[int, WriteConflict] = {}
    for index, op in enumerate(ops):
        try:
            k = key(op.path)
        except Exception:  # an unusable path fails later, where it is read
            continue
        if isinstance(op, Write):
            first = written.get(k, edited.get(k))
            if first is not None:
                out[index] = _conflict(ops, index, first, "written" if k in written else "edited")
            else:
                written[k] = index
        elif isinstance(op, Replace | Anchored | Lazy):
            if k in written:
                out[index] = _conflict(ops, index, written[k], "written")
            else:
                edited.setdefault(k, index)
        elif isinstance(op, Move) and not op.copy:
            try:
                to = key(op.to)
            except Exception:  # a new path refused: the move fails where it is applied
                continue
            # What was done to the file is done to its new path.
            for table in (written, edited):
                if k in table:
                    table[to] = table.pop(k)
    return out


def _conflict(ops: list[Op], index: int, first: int, what: str) -> WriteConflict:
    op, other = ops[index], ops[first]
    where = f" (line {other.origin} of the response)" if other.origin else ""
    return WriteConflict(
        f"{op.path} is {what} earlier in this response{where}; write a file once, or edit "
        "it, not both: send one write with the final content",
        path=op.path,
    )
