"""A batch record's recorded merges checked (issue 27): ``merged`` maps a path to the text a
merge (a fast-apply model's, a training set's ``final_code``) made of it from the record's
answer. Each is checked against what the answer says of that file:

- a lazy snippet (one, or several joined in order): ``verify_merge`` with the file as the
  record has it (a file the record lacks is empty);
- other edits (SEARCH/REPLACE, a diff, a whole file): the merge must be the text applydiff
  makes of them;
- no edit of that file: the merge must be the file unchanged.

The output per path is ``{"verified": bool, "reasons": [...], "notes": [...]}`` with
``verify_merge``'s reasons (each ``check``, ``message``, ``merged_line``, ``snippet_line``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..ir import Lazy, Op, normalize_path
from ..match.verify_merge import MergeVerdict, Reason, verify_merge

# A check of a recorded merge that is not a lazy snippet's.
APPLIED = "applied"  # the merge is not what applydiff makes of the answer's edits
UNREAD = "unread"  # the answer could not be read, or its edits of the file do not apply


def verify_recorded(
    files: Mapping[str, str],
    merged: Mapping[str, str],
    ops: Sequence[Op] | None,
    applied: Mapping[str, str | None] | None,
    problem: str | None,
) -> dict[str, dict[str, Any]]:
    """path -> the verdict on ``merged[path]``. ``ops``: the answer's edits (None: it could
    not be read, ``problem`` says why); ``applied``: the texts applydiff made of them (None:
    they did not apply, ``problem`` says why)."""
    out: dict[str, dict[str, Any]] = {}
    for path, text in merged.items():
        original = files.get(path, "")
        mine = [op for op in ops or () if normalize_path(op.path) == path]
        if ops is None:
            verdict = _refused(UNREAD, f"the answer could not be read: {problem}")
        elif mine and all(isinstance(op, Lazy) for op in mine):
            snippet = "\n... existing code ...\n".join(
                op.snippet for op in mine if isinstance(op, Lazy)
            )
            verdict = verify_merge(original, snippet, text, path)
        elif not mine:
            verdict = _same(text, original, "the answer does not edit this file")
        elif applied is None:
            verdict = _refused(UNREAD, f"the answer's edits do not apply: {problem}")
        else:
            want = applied.get(path, original)
            if want is None:
                verdict = _refused(APPLIED, "the answer deletes this file")
            else:
                verdict = _same(text, want, "the answer's edits make another text")
        out[path] = verdict.to_dict()
    return out


def _refused(check: str, message: str) -> MergeVerdict:
    return MergeVerdict(False, (Reason(check, message),))


def _same(text: str, want: str, why: str) -> MergeVerdict:
    """Verified when ``text`` is ``want``; else the first line where they differ."""
    if text == want:
        return MergeVerdict(True)
    a, b = text.split("\n"), want.split("\n")
    line = next(
        (k for k, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b))
    )
    return MergeVerdict(False, (Reason(APPLIED, f"{why} (first at line {line + 1})", line + 1),))


__all__ = ["APPLIED", "UNREAD", "verify_recorded"]
