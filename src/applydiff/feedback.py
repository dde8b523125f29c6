"""What the model reads after an exchange: why an edit failed and exactly what to send next.

- :func:`report` turns a result into text: what was applied, or for every failed edit the
  error, what to do about it, the closest regions of the file with a short diff against the
  search text, and the writable base of each failed file (``@file PATH mode=rw ...`` and its
  numbered lines, an excerpt around the relevant lines for big files).
- :func:`session_context` is the ``[SESSION CONTEXT]`` block: files modified so far (patches,
  share changed), the caller's guidance, health (errors, ambiguous matches, exchange k/max)
  and advice (send the whole file; re-read a file that keeps failing).

Both read the tree through the store's public API (:class:`~applydiff.store.Store`: the base
an edit is matched against, the disk).
"""

from __future__ import annotations

import difflib
from collections.abc import Sequence
from typing import TYPE_CHECKING

from .errors import (
    AMBIGUOUS,
    BINARY_FILE,
    CONFLICT,
    ENCODING,
    FILE_ID_MISMATCH,
    FORMAT_INVALID,
    IO_ERROR,
    NO_CHANGE,
    NO_MATCH,
    NOT_READ,
    NOTHING_TO_UNDO,
    PATH_DENIED,
    TOO_LARGE,
    WRITE_CONFLICT,
)
from .ir import KIND, Anchored, Lazy, Op, Replace
from .text import file_id, line_texts

if TYPE_CHECKING:
    from .problems import Problem
    from .results import Result
    from .session import Session
    from .store import Store

# What to do next, per error code (the error's own message says what happened).
NEXT = {
    NO_MATCH: "copy the lines to change exactly from the file as shown below, then send the "
    "edit again",
    AMBIGUOUS: "add surrounding lines to the search text so it matches one place only, or set "
    "replace_all to change every occurrence",
    FILE_ID_MISMATCH: "the file changed since you read it: use the current file_id below and "
    "write the edit against the content below",
    FORMAT_INVALID: "fix the edit's format at the line named above and send it again",
    PATH_DENIED: "edit only files inside the project that are not ignored",
    NOT_READ: "read the file with read_file first, then edit what it shows",
    CONFLICT: "the file changed on disk: redo the edit against its current content (below, "
    "or read it again)",
    BINARY_FILE: "binary files cannot be edited; leave this file alone",
    TOO_LARGE: "this file is over the size limit; edit a smaller file",
    ENCODING: "write only characters the file's encoding can hold",
    WRITE_CONFLICT: "write each file once per response, or edit it, not both",
    IO_ERROR: "check the path (does the file exist? is it a directory?)",
    NO_CHANGE: "leave out edits that change nothing; if the change is still needed, re-read "
    "the file and write the lines as they should become",
    NOTHING_TO_UNDO: "there is no change of yours to take back; read the file to see what it holds",
}

# A lazy snippet that cannot be placed needs context, not an exact copy or replace_all.
LAZY_NEXT = (
    "begin and end each changed part of the snippet with unchanged lines copied from the file "
    "(the message says which part and which side), keep an '... existing code ...' line "
    "wherever code is left out, and send the edit again"
)

# Bases longer than this are shown as excerpts around the lines that matter.
EXCERPT_OVER = 400
EXCERPT_AROUND = 20
# Advice thresholds (see session_context).
WHOLE_FILE_CHANGED = 0.70
WHOLE_FILE_PATCHES = 8
REREAD_AFTER_FAILURES = 3


def report(
    result: Result,
    ws: Store | None = None,
    ops: Sequence[Op] | None = None,
    *,
    review: bool | None = None,
) -> str:
    """The text the model reads after an exchange (``review``: whether its edits go on top
    of outputs pending review, which decides the base it is shown)."""
    ops = ops if ops is not None else result.ops
    if result.ok:
        return _applied(result, ws)
    lines = ["Nothing was written: an edit in this response failed, and edits apply all or none."]
    lines.append("")
    lines.append("Failed edits:")
    for e in result.errors:
        lines += _failure(e, ops)
    bases = _bases(result, ws, review)
    if bases:
        lines.append("")
        lines.append("Writable base (what the edits are matched against):")
        lines += bases
    lines.append("")
    ok_count = len(result.edits)
    redo = (
        f" The {ok_count} edit(s) that did apply were rolled back with it: send them again too."
        if ok_count
        else ""
    )
    lines.append(
        f"Next: fix the failed edits as described and send the whole response again.{redo}"
    )
    return "\n".join(lines)


def _applied(result: Result, ws: Store | None) -> str:
    verb = "Kept for review" if result.review else "Would apply" if result.dry_run else "Applied"
    out = [f"{verb}: {len(result.files)} file(s), {len(result.edits)} edit(s)."]
    for f in result.files:
        extra = f" -> {f.to}" if f.to is not None else ""
        out.append(f"- {f.path}{extra}: {f.action}")
    for r in result.edits:
        where = f" lines {r.start_line}-{r.end_line}" if r.start_line else ""
        out.append(
            f"  edit {r.index + 1} on {r.path}{where}: {r.label} (confidence {r.confidence:.2f})"
        )
        out.extend(f"    read as meant: {note}" for note in r.notes)
    ids = []
    for path, _, after in result.changes:
        if after is not None:
            ids.append(f"{path} file_id={file_id(after)}")
    if ids:
        out.append("Current file ids: " + ", ".join(ids))
    return "\n".join(out)


def _failure(e: Problem, ops: Sequence[Op] | None) -> list[str]:
    index = e.index
    op = ops[index] if ops is not None and index is not None and index < len(ops) else None
    at = f", line {e.answer_line} of your response" if e.answer_line is not None else ""
    if index is None:
        what = "the response"
    elif op is not None:
        what = f"edit {index + 1} ({KIND[type(op)]} on {op.path}{at})"
    else:
        what = f"edit {index + 1}{f' ({at[2:]})' if at else ''}"
    if op is None and e.path:
        what += f" on {e.path}"
    out = [f"- {what}: {e.code}: {e.message}"]
    closest = e.facts.get("closest") or []
    search = _search_text(op)
    for r in closest[:3]:
        out.append(
            f"  closest: lines {r['start_line']}-{r['end_line']} ({r['similarity']:.0%} similar)"
        )
    if closest and search is not None and closest[0].get("text"):
        diff = list(
            difflib.unified_diff(
                search.rstrip("\n").split("\n"),
                closest[0]["text"].rstrip("\n").split("\n"),
                "your search text",
                f"file lines {closest[0]['start_line']}-{closest[0]['end_line']}",
                lineterm="",
                n=1,
            )
        )
        if diff:
            out.append("  difference:")
            out += ["    " + x for x in diff[:24]]
            if len(diff) > 24:
                out.append(f"    ... ({len(diff) - 24} more diff lines)")
    facts = e.facts
    if e.code == AMBIGUOUS and facts.get("lines"):
        out.append(f"  matches at lines {', '.join(map(str, facts['lines'][:20]))}")
    if e.code == FILE_ID_MISMATCH and facts.get("actual"):
        out.append(f"  the current file_id is {facts['actual']}")
    if e.code == FORMAT_INVALID and facts.get("line"):
        out.append(f"  at line {facts['line']} of your response; expected {facts.get('expected')}")
    if facts.get("pending_review"):
        out.append(
            "  what to do: leave this file until a person accepts, merges or discards the "
            "output waiting for review; edit other files meanwhile"
        )
    elif isinstance(op, Lazy) and e.code in (NO_MATCH, AMBIGUOUS):
        out.append(f"  what to do: {LAZY_NEXT}")
    else:
        out.append(f"  what to do: {NEXT.get(e.code, 'fix the edit and send it again')}")
    return out


def _search_text(op: Op | None) -> str | None:
    if isinstance(op, Replace):
        return op.old
    if isinstance(op, Anchored):
        return "\n".join(op.start)
    return None


def _bases(result: Result, ws: Store | None, review: bool | None) -> list[str]:
    """``@file`` blocks for the files of failed edits (those that exist)."""
    if ws is None:
        return []
    focus: dict[str, list[int]] = {}
    for e in result.errors:
        path = e.path
        if not path or e.code in (PATH_DENIED, BINARY_FILE, TOO_LARGE):
            continue
        lines = focus.setdefault(path, [])
        for r in e.facts.get("closest") or []:
            lines += [r["start_line"], r["end_line"]]
        lines += e.facts.get("lines") or []
    out: list[str] = []
    for path, lines in focus.items():
        block = writable_base(ws, path, lines, review=review)
        if block:
            out.append(block)
    return out


def writable_base(
    ws: Store, path: str, around: Sequence[int] = (), *, review: bool | None = None
) -> str | None:
    """``@file PATH mode=rw status=original|pending_output file_id=ID`` and the numbered lines
    the model's next edit is matched against (an excerpt around ``around`` for big files)."""
    try:
        key = ws.key(path)
        read = ws.read_base(key, review)
    except Exception:  # an unreadable file has no base to show; its error says why
        return None
    text = read.base
    if text is None:
        return None
    status = "pending_output" if read.kind == "pending" else "original"
    header = f"@file {key} mode=rw status={status} file_id={file_id(text)}"
    return header + "\n" + numbered(text, around)


def numbered(
    text: str,
    around: Sequence[int] = (),
    *,
    first: int = 1,
    last: int | None = None,
    excerpt: bool = True,
) -> str:
    """Lines ``first``..``last`` as ``  12| text``; with ``excerpt``, big texts are cut to
    excerpts around the given lines."""
    lines = line_texts(text)
    lo, hi = first, len(lines) if last is None else min(last, len(lines))
    keep: set[int] = set(range(lo, hi + 1))
    if excerpt and len(keep) > EXCERPT_OVER:
        centers = [x for x in around if lo <= x <= hi] or [lo]
        keep = {
            n
            for c in centers
            for n in range(max(lo, c - EXCERPT_AROUND), min(hi, c + EXCERPT_AROUND) + 1)
        }
    width = len(str(hi))
    out: list[str] = []
    prev = lo - 1
    for n in sorted(keep):
        if n != prev + 1:
            out.append(f"{'':>{width}}| ... (lines {prev + 1}-{n - 1} not shown)")
        out.append(f"{n:>{width}}| {lines[n - 1].rstrip(chr(13))}")
        prev = n
    if keep and prev < hi:
        out.append(f"{'':>{width}}| ... (lines {prev + 1}-{hi} not shown)")
    return "\n".join(out)


def session_context(
    session: Session,
    ws: Store | None = None,
    *,
    guidance: str | None = None,
    max_exchanges: int | None = None,
) -> str:
    """The ``[SESSION CONTEXT]`` block for the model's next request."""
    out = ["[SESSION CONTEXT]"]
    stats = [s for s in session.file_stats() if s.patches or s.keystone or s.failures]
    advice: list[str] = []
    modified = []
    for st in stats:
        share = _changed(st.original, _current(session, ws, st.path)) if st.patches else 0.0
        if st.patches:
            what = "new file" if st.created else f"{share:.0%} changed"
            modified.append(f"- {st.path}: {st.patches} patch(es), {what}")
        # A file the model created is its own text already: no advice to resend it.
        if st.keystone or (
            not st.created and (share > WHOLE_FILE_CHANGED or st.patches >= WHOLE_FILE_PATCHES)
        ):
            why = (
                "a keystone file"
                if st.keystone
                else f"{share:.0%} changed"
                if share > WHOLE_FILE_CHANGED
                else f"{st.patches} patches"
            )
            advice.append(
                f"- {st.path} ({why}): send the whole file with write_file instead of more patches"
            )
        if st.failures >= REREAD_AFTER_FAILURES:
            advice.append(
                f"- {st.path}: {st.failures} failed edits in a row: read it again with "
                "read_file before the next edit"
            )
    out.append("Modified:" if modified else "Modified: none")
    out += modified
    if guidance:
        out.append(f"Guidance: {guidance}")
    exchange = session.count("exchanges")
    k = f"{exchange}/{max_exchanges}" if max_exchanges else str(exchange)
    out.append(
        f"Health: errors {session.count('errors')}, ambiguous matches "
        f"{session.count('ambiguous')}, exchange {k}"
    )
    if advice:
        out.append("Advice:")
        out += advice
    out.append("[/SESSION CONTEXT]")
    return "\n".join(out)


def _current(session: Session, ws: Store | None, path: str) -> str | None:
    p = session.pending(path)
    if p is not None:
        return p.output
    snap = session.snapshot(path)
    if snap is not None or ws is None:
        return snap
    try:
        return ws.read_disk(path).text
    except Exception:  # gone or unreadable: nothing to compare
        return None


def _changed(original: str | None, current: str | None) -> float:
    """Share of lines changed between two versions: 0 the same, 1 nothing in common."""
    if original is None or current is None:
        return 1.0 if original != current else 0.0
    a, b = line_texts(original), line_texts(current)
    if not a and not b:
        return 0.0
    sm = difflib.SequenceMatcher(None, a, b, autojunk=False)
    kept = sum(size for _, _, size in sm.get_matching_blocks())
    return 1.0 - kept / max(len(a), len(b))
