"""Locate the text a model meant, through a ladder of tolerances, and replace it.

>>> from applydiff import locate, replace
>>> text = "def f():\\n    return 1\\n"
>>> m = locate(text, "return 1")
>>> (m.tier, m.confidence, m.start_line, m.end_line)
('exact', 1.0, 2, 2)
>>> replace(text, "def f():\\n  return 1\\n", "def f():\\n  return 2\\n")
'def f():\\n    return 2\\n'
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import FormatInvalid
from ..text import to_lf
from . import ladder
from .doc import Doc
from .elision import could_hold_marker, is_marker, is_strict_marker
from .rewrite import splice
from .search import Hit, Search, line_of

# Chosen from measurements (benchmarks/accuracy.py, docs/threshold.md): the lowest similarity
# that kept misapplications at zero on the corpus, with a margin.
DEFAULT_THRESHOLD = 0.80

TIERS = ladder.TIER_NAMES

# Below this many characters, splicing by slices beats str.replace (no second scan); above it
# the copies cost more than the scan (measured: 2.7 vs 6.1 us at 30 kB, 7.3 vs 1.0 ms at 3.6 MB).
SLICE_LIMIT = 1_000_000


@dataclass(frozen=True)
class Match:
    """Where the search text was found.

    ``start_line``/``end_line`` are 1-based and inclusive; ``text[start:end]`` is the matched
    text of the original string (line-level tiers match whole lines, terminators included).
    """

    tier: str
    confidence: float
    start_line: int
    end_line: int
    start: int
    end: int


def locate(
    text: str, old: str, *, hint_line: int | None = None, threshold: float | None = None
) -> Match:
    """Find ``old`` in ``text``; raise :class:`NoMatch` or :class:`Ambiguous` if not sure."""
    doc = Doc(text)
    hits = ladder.find(_search(doc, old, hint_line, threshold, replace_all=False))
    return _match(doc, hits[0])


def replace(
    text: str,
    old: str,
    new: str,
    *,
    replace_all: bool = False,
    hint_line: int | None = None,
    threshold: float | None = None,
) -> str:
    """``text`` with the place ``old`` names replaced by ``new``.

    Untouched lines keep their bytes; new lines take the file's dominant line terminator.
    Raises :class:`NoMatch`, :class:`Ambiguous` or :class:`FormatInvalid`.
    """
    return replace_with_matches(
        text, old, new, replace_all=replace_all, hint_line=hint_line, threshold=threshold
    )[0]


def replace_with_matches(
    text: str,
    old: str,
    new: str,
    *,
    replace_all: bool = False,
    hint_line: int | None = None,
    threshold: float | None = None,
    report: bool = False,
    shown_from: int = 0,
) -> tuple[str, list[Match]]:
    """Like :func:`replace`, also returning the matches when ``report`` is set.

    ``shown_from``: lines of the file above ``text`` (a caller that searches below a scope
    line passes the rest of the file); errors count their line numbers from the file's top.
    """
    if not old:
        if not text:
            return new, []
        raise FormatInvalid(
            "the search text is empty, which only creates a new file, and this file is not "
            "empty; quote the lines to change, or write the whole file",
            expected="non-empty search text",
        )
    doc = Doc(text, shown_from=shown_from)
    old = doc.lf(old)
    if doc.cr:  # a lone CR the model wrote ends a line here, as in the file
        new = doc.lf(new)
    _check_new_markers(doc, old, new)
    if not (report or replace_all or doc.has_cr):
        # The common case first: the search text occurs once, exactly. One find for it,
        # one for a second occurrence, one str.replace: what a plain find-and-replace costs.
        _threshold(threshold)
        t = doc.t
        p = t.find(old)
        if p >= 0 and t.find(old, p + 1) < 0:
            new_lf = to_lf(new)
            # Mid-line hits of whole lines are not taken, and added lines after a hit that
            # starts past the indentation get that indentation: both are the ladder's job.
            if (
                p == 0
                or t[p - 1] == "\n"
                or (not old.endswith("\n") and "\n" not in new_lf.rstrip("\n"))
            ):
                if len(t) < SLICE_LIMIT:  # slices skip a second scan; past this size the
                    return "".join((t[:p], new_lf, t[p + len(old) :])), []  # copies cost more
                return t.replace(old, new_lf, 1), []
    if replace_all and not (report or doc.has_cr):
        _threshold(threshold)
        done = _replace_every(doc.t, old, to_lf(new))
        if done is not None:
            return done, []
    s = _search(doc, old, hint_line, threshold, replace_all=replace_all)
    s.new = to_lf(new)
    hits = ladder.find(s)
    if s.new_rewritten and s.new is not None:
        new = s.new
    return splice(doc, hits, new), ([_match(doc, h) for h in hits] if report else [])


def _replace_every(t: str, old: str, new: str) -> str | None:
    """``replace_all`` as one ``str.replace`` when that is what the ladder and splice would
    do: ``old`` is there, every occurrence counts (a whole-line search text starts each at
    a line's start or indentation), and ``new`` is one line (nothing to re-indent). Else
    None. A file of 100,000 occurrences then costs no object per occurrence."""
    if "\n" in new.rstrip("\n"):
        return None
    p = t.find(old)
    if p < 0:
        return None
    if old.endswith("\n"):
        size = len(old)
        while p >= 0:
            if t[t.rfind("\n", 0, p) + 1 : p].strip():
                return None
            p = t.find(old, p + size)
    return t.replace(old, new)


def _search(
    doc: Doc, old: str, hint_line: int | None, threshold: float | None, *, replace_all: bool
) -> Search:
    if not old:
        raise FormatInvalid("the search text is empty", expected="non-empty search text")
    hint = None if hint_line is None else max(hint_line - 1, 0)
    return Search(
        doc, doc.lf(old), hint=hint, threshold=_threshold(threshold), replace_all=replace_all
    )


def _threshold(threshold: float | None) -> float:
    if threshold is None:
        return DEFAULT_THRESHOLD
    if not 0.0 < threshold <= 1.0:
        raise ValueError(f"threshold must be in (0, 1], not {threshold}")
    return threshold


# Lines that open with a comment: the only ones that can be strict markers.
_COMMENT_LINE = re.compile(r"^[ \t]*(?:#|//|/\*|<!--|--|;|%|'|\{/\*|\(\*|\"\"\").*$", re.MULTILINE)


def _check_new_markers(doc: Doc, old: str, new: str) -> None:
    """Refuse a replacement holding an "existing code" marker the search text does not have:
    written literally it would delete the code the model meant to keep."""
    if not could_hold_marker(new):
        return
    new = to_lf(new)
    found = [
        (new.count("\n", 0, m.start()) + 1, m.group(0).strip())
        for m in _COMMENT_LINE.finditer(new)
        if is_strict_marker(m.group(0))
    ]
    if not found:
        return
    old_lines = old.split("\n")
    allowed = sum(1 for x in old_lines if is_marker(x))
    stripped = {x.strip() for x in old_lines}
    found = [(i, line) for i, line in found if line not in stripped]
    if len(found) <= allowed:
        return  # each pairs with an elision of the search text, wherever it is
    in_text: dict[str, bool] = {}  # one scan of the file per distinct line
    for i, line in found:
        if line not in in_text:
            in_text[line] = line in doc.t
        if in_text[line]:
            continue
        if allowed:
            allowed -= 1  # pairs with an elision in the search text (the elision tier checks)
            continue
        raise FormatInvalid(
            f"line {i} of the replacement ({line!r}) stands for code that is not written "
            "out, and the search text has no such line; applying it literally would delete "
            "that code. Write the full replacement, or put the same marker in the search text",
            line=i,
            expected="replacement text without elision markers",
        )


def _match(doc: Doc, hit: Hit) -> Match:
    first = line_of(doc, hit)
    last_pos = max(hit.start, hit.end - 1)
    last = doc.line_no(last_pos) if hit.end > hit.start else first
    return Match(
        tier=hit.tier,
        confidence=hit.confidence,
        start_line=first + 1,
        end_line=last + 1,
        start=doc.orig_offset(hit.start),
        end=doc.orig_offset(hit.end),
    )
