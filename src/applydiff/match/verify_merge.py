"""Whether a merged file is one a lazy snippet explains (issue 27): the check that makes any
merge safe to apply, a fast-apply model's above all.

>>> verify_merge("a\\nb\\nc\\n", "a\\nB\\n# ... existing code ...\\n", "a\\nB\\nc\\n").verified
False

``verify_merge`` reads the original, the snippet and the merged file, and checks that:

- every snippet line that is not a marker is in the merged file, in the snippet's order
  (indentation and blank lines compared loosely; a narration comment may be left out, as the
  deterministic merge leaves it out);
- every line the merged file adds to the original is a snippet line, added no more often
  than the snippet shows it (no invented line, no block put in twice);
- every line of the original that the merged file drops is shown on both sides by one run of
  the snippet's lines with no marker between (a definition the snippet shows to its end
  counts as shown whole), or has a changed copy in its place, or is a line a diff-marked
  snippet removes; a dropped line that declares a name kept lines still use is never
  explained; a dropped tail the snippet does not reach is the file cut short;
- no marker line (``// ... existing code ...`` and its kin) is left in the merged file;
- no definition is in the merged file more often than the original and the snippet explain;
- the brackets (and a markup file's elements) are no less balanced than the original's.

What it cannot see: a line the snippet shows, put in a plausible but wrong place (another
block, or between the right lines but in the wrong one of two copies of them), passes when
every other check holds. Not checked yet: indentation (compared loosely: a shown line written
at another depth passes), an extra copy of a line the snippet shows unchanged, blank lines,
and an original line kept between two lines of one run. The verdict says a merge is
*explained* by the snippet, not that it is the one the model meant.
"""

from __future__ import annotations

import bisect
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..text import split_lines, to_lf
from .diff import align_versions
from .diff_snippet import DIFF_MARK, diff_marked
from .elision import is_marker
from .lazy.shapes import STRING_LITERAL, bracket_balance, indent_of, loose_key
from .lazy.unshown import (
    USE_REACH,
    declared,
    definition_name,
    is_definition,
    keyword_definition,
    leaves_open,
    unexplained_drops,
)
from .narration import drop_narration
from .outline import Syntax, syntax_for
from .sniff import extension_from_content

# A check's name, as it reads in a reason.
MISSING = "missing"  # a snippet line is not in the merged file
ORDER = "order"  # a snippet line is there, but not in the snippet's order
INVENTED = "invented"  # the merged file adds a line the snippet does not have
DUPLICATED = "duplicated"  # a snippet line (or a definition) added more often than shown
DROPPED = "dropped"  # an original line gone with nothing in the snippet saying so
DECLARATION = "declaration"  # a dropped line declared a name kept lines still use
CUT_SHORT = "cut_short"  # the original's tail, past what the snippet reaches, is gone
MARKER = "marker"  # a '... existing code ...' line left in the merged file
UNBALANCED = "unbalanced"  # brackets or elements less balanced than the original's
REWRITTEN = "rewritten"  # so unlike the original that it is no merge of a snippet
CHECKS = (
    MISSING,
    ORDER,
    INVENTED,
    DUPLICATED,
    DROPPED,
    DECLARATION,
    CUT_SHORT,
    MARKER,
    UNBALANCED,
    REWRITTEN,
)

# Elements that never close (HTML's void elements).
_VOID = frozenset(
    "area base br col embed hr img input link meta param source track wbr".split()  # noqa: SIM905
)
_TAG = re.compile(r"<(/?)([A-Za-z][\w.:-]*)\b(?:\"[^\"]*\"|'[^']*'|[^<>\"'])*?(/?)>")
_WORD = re.compile(r"[A-Za-z_$][\w$]*")
# A marker inside a line ("login(// ... existing ...) {", "port: /* ... */,"): the
# line stands for a line of the file with something there.
_INLINE = re.compile(r"(?://|/\*|#)\s*(?:\.{3}|…)\s*(?:[A-Za-z][\w ]*?\s*(?:\.{3}|…))?\s*(?:\*/)?")
# A diff's hunk header written between the runs of a snippet: a separator, as a marker is.
_HUNK = re.compile(r"^@@(?: .*)?$")
# Lines a merge may have beyond the original's and the snippet's (blank lines it spaces
# new code with), and line pairs of rewritten stretches past which it is not checked.
_SLACK = 200
_PAIRS = 250_000
# Places of a dropped line among copies of it around, tried on each side.
_SLIDES = 8
# Places of a run's rarest line from which a placement of the run is tried.
_STARTS = 64
# A JS spread the file does not have ("...defaults,"): it stands for the items it leaves
# out, as a marker does.
_SPREAD = re.compile(r"^\s*\.\.\.[A-Za-z_$][\w$.]*,?\s*$")
# Reasons of one check listed at most this many times (a cut-off file drops hundreds).
_PER_CHECK = 5


@dataclass(frozen=True)
class Reason:
    """One thing the snippet does not explain: the check, what is wrong, and where (1-based
    lines of the merged file and of the snippet, None where it has none)."""

    check: str
    message: str
    merged_line: int | None = None
    snippet_line: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "check": self.check,
            "message": self.message,
            "merged_line": self.merged_line,
            "snippet_line": self.snippet_line,
        }


@dataclass(frozen=True)
class MergeVerdict:
    """``verified`` when no check failed; ``reasons`` say what failed, ``notes`` what was
    allowed on the way (narration left out, lines compared loosely)."""

    verified: bool
    reasons: tuple[Reason, ...] = ()
    notes: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "verified": self.verified,
            "reasons": [r.to_dict() for r in self.reasons],
            "notes": list(self.notes),
        }

    def summary(self, most: int = 5) -> str:
        """The reasons in one line: the first ``most`` of them and how many more."""
        said = [f"{r.check}: {_where(r)}{r.message}" for r in self.reasons[:most]]
        more = len(self.reasons) - most
        return "; ".join(said) + (f"; and {more} more" if more > 0 else "")


def _where(r: Reason) -> str:
    at = []
    if r.merged_line is not None:
        at.append(f"merged line {r.merged_line}")
    if r.snippet_line is not None:
        at.append(f"snippet line {r.snippet_line}")
    return f"{', '.join(at)}: " if at else ""


@dataclass
class _Shown:
    """The snippet's lines that are not markers, with what the merged file must do with them."""

    rows: list[int] = field(default_factory=list)  # 0-based snippet line of each
    keys: list[str] = field(default_factory=list)  # its loose key
    segment: list[int] = field(default_factory=list)  # the run between markers it is in
    optional: list[bool] = field(default_factory=list)  # a narration comment
    removed: Counter[str] = field(default_factory=Counter)  # a diff-marked snippet's '-' lines
    extra: Counter[str] = field(default_factory=Counter)  # lines a merge may add (a spread)
    # shown line -> the pattern of a line with a marker inside it (``f(// ... existing ...)``)
    patterns: dict[int, re.Pattern[str]] = field(default_factory=dict)
    # segment -> the indentation of the marker after it (None: the snippet ends there)
    marker_after: dict[int, int | None] = field(default_factory=dict)


def verify_merge(original: str, snippet: str, merged: str, path: str | None = None) -> MergeVerdict:
    """Whether ``merged`` is a merge of the lazy ``snippet`` into ``original`` that the
    snippet explains (see the module's docstring for each check and what it cannot see).
    ``path`` names the file's language (brackets, comments, elements); without it the
    language is read from the content when it tells."""
    old = [x.rstrip("\r\n") for x in split_lines(original)]
    new = [x.rstrip("\r\n") for x in split_lines(merged)]
    syntax = _syntax(path, original)
    notes: list[str] = []
    shown = _read_snippet(to_lf(snippet), old, syntax, notes)
    reasons: list[Reason] = []
    grown = len(new) - len(old) - len(shown.keys) - _SLACK
    if grown > 0:
        # More lines than the snippet could add: a model repeating itself, not a merge.
        message = (
            f"the merged file has {len(new) - len(old):,} lines more than the original, and "
            f"the snippet shows {len(shown.keys):,}"
        )
        return MergeVerdict(False, (Reason(INVENTED, message),), tuple(notes))
    new_keys = [loose_key(x) for x in new]
    ops = align_versions(old, new)
    pairs = sum((i2 - i1) * (j2 - j1) for tag, i1, i2, j1, j2 in ops if tag == "replace")
    if pairs > _PAIRS:
        # A stretch rewritten whole on both sides: no snippet line-by-line explains it, and
        # pairing its lines for changed copies would cost their product.
        rewritten = sum(i2 - i1 for tag, i1, i2, _, _ in ops if tag != "equal")
        message = (
            f"the merged file rewrites {rewritten:,} lines of the original's {len(old):,}: too "
            "unlike it to be a merge of the snippet"
        )
        return MergeVerdict(False, (Reason(REWRITTEN, message),), tuple(notes))
    at = _place_shown(shown, new_keys, _touched(ops), reasons)
    _check_added(old, new_keys, ops, shown, reasons)
    _check_dropped(old, new, ops, shown, at, reasons)
    changed = _changed(ops)
    _check_markers(old, new, changed, reasons)
    _check_definitions(old, new, ops, changed, shown, at, reasons)
    _check_balance(original, old, new, changed, syntax, reasons)
    kept: list[Reason] = []
    told: Counter[str] = Counter()
    for r in reasons:
        told[r.check] += 1
        if told[r.check] <= _PER_CHECK:
            kept.append(r)
    for check, n in told.items():
        if n > _PER_CHECK:
            kept.append(Reason(check, f"{n - _PER_CHECK} more lines fail the same check"))
    return MergeVerdict(not kept, tuple(kept), tuple(notes))


def runs_anchored(original: str, snippet: str) -> bool:
    """Every run of the snippet's lines (between markers) has a line the original has
    exactly once: where each run goes can then be told from the original, and a merge's
    placement of it checked. (A snippet the deterministic merge found ambiguous, with a run
    of common lines only, fits several places; no verdict tells which one was meant.)"""
    old = [x.rstrip("\r\n") for x in split_lines(original)]
    count = Counter(loose_key(x) for x in old)
    shown = _read_snippet(to_lf(snippet), old, None, [])
    anchored = {s: False for s in range(len(shown.marker_after))}
    for key, s in zip(shown.keys, shown.segment, strict=True):
        if count[key] == 1:
            anchored[s] = True
    used = set(shown.segment)
    return all(anchored[s] for s in used)


def _syntax(path: str | None, original: str) -> Syntax | None:
    syntax = syntax_for(path or "")
    if syntax is None and (ext := extension_from_content(original)) is not None:
        syntax = syntax_for(f"{path or 'snippet'}.{ext}")
    return syntax


def _read_snippet(snippet: str, old: list[str], syntax: Syntax | None, notes: list[str]) -> _Shown:
    lines = snippet.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    have = {x.rstrip() for x in old}
    optional = [False] * len(lines)
    if syntax is not None:
        kept, dropped = drop_narration(snippet, have, syntax, old)
        if dropped:
            # drop_narration only takes lines out: the ones it took are the optional ones.
            rest = kept.split("\n")
            j = 0
            for k, x in enumerate(lines):
                if j < len(rest) and rest[j] == x:
                    j += 1
                else:
                    optional[k] = True
            notes.append(f"{len(dropped)} narration comment(s) of the snippet may be left out")
    marked = bool(diff_marked(snippet, old))
    out = _Shown()
    segment = 0
    for k, x in enumerate(lines):
        if (marked and DIFF_MARK.match(x)) or (marked and x in ("+", "-")):
            body = x[1:]
            if x[0] == "-":
                if body.strip():
                    out.removed[loose_key(body)] += 1
                continue
            x = body
        spread = _SPREAD.match(x) is not None and x.rstrip() not in have
        if spread:
            out.extra[loose_key(x)] += 1  # real code if the merge has it
        if (is_marker(x) or _HUNK.match(x) or spread) and x.rstrip() not in have:
            out.marker_after[segment] = indent_of(x)
            segment += 1
            continue
        if not x.strip():
            continue
        key = loose_key(x)
        if _INLINE.search(key):
            # The parts around the markers, in order, with anything between them (whitespace
            # ignored).
            parts = [re.escape(_bare(p)) for p in _INLINE.split(key)]
            out.patterns[len(out.keys)] = re.compile(".*?".join(parts), re.S)
        out.rows.append(k)
        out.keys.append(key)
        out.segment.append(segment)
        out.optional.append(optional[k])
    out.marker_after.setdefault(segment, None)
    if marked:
        notes.append("read the snippet's '+' and '-' lines as a diff's added and removed lines")
    return out


def _bare(text: str) -> str:
    """``text`` without whitespace (a line a marker inside it stands for is compared so:
    "path:'/a',method:" for "path: // ... existing ..., method:")."""
    return "".join(text.split())


def _touched(ops: Sequence[tuple[str, int, int, int, int]]) -> list[int]:
    """The merged file's rows where it differs from the original: each row it adds, and the
    row where a line it drops stood."""
    out: list[int] = []
    for tag, _, _, j1, j2 in ops:
        if tag != "equal":
            out += range(j1, j2) if j2 > j1 else [j1]
    return out


def _place_shown(
    shown: _Shown, new_keys: list[str], touched: list[int], reasons: list[Reason]
) -> list[int | None]:
    """Where each shown line is in the merged file (None: not there in order; an optional
    line is placed only when it is before the next required line). Each run between markers
    is placed in order; where its first line is found at several places, at the place where
    the most of its lines are ones the merge adds or changes (``touched``: a run is there to
    change something), then where it spans the fewest rows, then where the most changes lie
    between its lines. A line the merged file lacks, or has only out of order, is a
    reason."""
    rows: dict[str, list[int]] = {}
    for j, key in enumerate(new_keys):
        if key:
            rows.setdefault(key, []).append(j)
    n = len(shown.keys)
    changed = set(touched)

    inline: dict[int, list[int]] = {}

    def where(i: int) -> list[int]:
        """The merged file's rows that can be shown line ``i``: its rows by key, or, for a
        line with a marker inside it, the rows its pattern matches."""
        pattern = shown.patterns.get(i)
        if pattern is None:
            return rows.get(shown.keys[i], [])
        if i not in inline:
            inline[i] = [j for j, key in enumerate(new_keys) if pattern.fullmatch(_bare(key))]
        return inline[i]

    def after(i: int, low: int) -> int | None:
        candidates = where(i)
        k = bisect.bisect_right(candidates, low)
        return candidates[k] if k < len(candidates) else None

    def embed(first: int, last: int, low: int) -> tuple[list[int | None], list[int]]:
        """Lines first..last-1 placed as early as they go after row ``low``, and the
        required ones that do not go."""
        out: list[int | None] = [None] * (last - first)
        lost: list[int] = []
        for i in range(first, last):
            found = after(i, low)
            if shown.optional[i]:
                following = next((k for k in range(i + 1, n) if not shown.optional[k]), None)
                bound = None if following is None else after(following, low)
                if found is not None and (bound is None or found < bound):
                    out[i - first] = low = found
            elif found is not None:
                out[i - first] = low = found
            else:
                lost.append(i)
        return out, lost

    def before(i: int, high: int) -> int | None:
        candidates = where(i)
        k = bisect.bisect_left(candidates, high)
        return candidates[k - 1] if k > 0 else None

    def embed_back(first: int, end: int, high: int) -> tuple[list[int | None], list[int]]:
        """Lines first..end-1 placed as late as they go before row ``high`` (``embed``
        backwards), and the required ones that do not go."""
        out: list[int | None] = [None] * (end - first)
        lost: list[int] = []
        for i in range(end - 1, first - 1, -1):
            found = before(i, high)
            if shown.optional[i]:
                above = next(
                    (k for k in range(i - 1, first - 1, -1) if not shown.optional[k]), None
                )
                bound = None if above is None else before(above, high)
                if found is not None and (bound is None or found > bound):
                    out[i - first] = high = found
            elif found is not None:
                out[i - first] = high = found
            else:
                lost.append(i)
        return out, lost

    def tightest(first: int, last: int, low: int) -> tuple[list[int | None], list[int]]:
        """The run placed around each place (after ``low``, the nearest ``_STARTS``) of its
        rarest required line in the merge: the lines before it as late as they go, those
        after it as early; the placement that loses the fewest lines, then holds the most
        lines the merge adds, then spans the fewest rows, then has the most changes inside."""
        required = [i for i in range(first, last) if not shown.optional[i]]
        if not required:
            return embed(first, last, low)
        pivot = min(required, key=lambda i: (len(where(i)), i))
        places = where(pivot)
        k = bisect.bisect_right(places, low)
        best: tuple[tuple[int, int, int, int], list[int | None], list[int]] | None = None
        for place in places[k : k + _STARTS]:
            head, lost_head = embed_back(first, pivot, place)
            if low >= 0 and any(x is not None and x <= low for x in head):
                continue
            tail, lost_tail = embed(pivot + 1, last, place)
            placed = [*head, place, *tail]
            lost = lost_head + lost_tail
            used = [x for x in placed if x is not None]
            top, end = min(used), max(used)
            own = sum(1 for x in used if x in changed)
            inside = bisect.bisect_right(touched, end + 1) - bisect.bisect_left(touched, top)
            score = (len(lost), -own, end - top, -inside)
            if best is None or score < best[0]:
                best = (score, placed, lost)
        return (best[1], best[2]) if best is not None else embed(first, last, low)

    # Each run between markers in order; runs themselves may come in any order (a model
    # writes the hunks of one file as it thinks of them, and each is placed by its lines).
    early: list[int | None] = [None] * n
    low = -1
    first = 0
    while first < n:
        last = first
        while last < n and shown.segment[last] == shown.segment[first]:
            last += 1
        placed, lost = tightest(first, last, low)
        if lost:
            anywhere, lost_anywhere = tightest(first, last, -1)
            if len(lost_anywhere) < len(lost):
                placed, lost = anywhere, lost_anywhere
        early[first:last] = placed
        low = max((x for x in placed if x is not None), default=low)
        first = last
        for i in lost:
            candidates = where(i)
            quoted = shown.keys[i][:60]
            if candidates:
                reasons.append(
                    Reason(
                        ORDER,
                        f"the snippet's line {quoted!r} is in the merged file, but not after "
                        "the lines the snippet puts before it",
                        candidates[0] + 1,
                        shown.rows[i] + 1,
                    )
                )
            else:
                reasons.append(
                    Reason(
                        MISSING,
                        f"the snippet's line {quoted!r} is not in the merged file",
                        None,
                        shown.rows[i] + 1,
                    )
                )
    return early


def _check_added(
    old: list[str],
    new_keys: list[str],
    ops: Sequence[tuple[str, int, int, int, int]],
    shown: _Shown,
    reasons: list[Reason],
) -> None:
    """Every line the merged file adds is a snippet line, and no line is in the merge more
    often than the original and the snippet together have it (a block put in twice). Counted,
    not placed: the alignment may pair either of two equal lines with the original's."""
    snippet_count = Counter(shown.keys) + shown.extra
    old_count: Counter[str] | None = None
    new_count: Counter[str] | None = None
    told: set[str] = set()
    for tag, _, _, j1, j2 in ops:
        if tag not in ("insert", "replace"):
            continue
        for j in range(j1, j2):
            key = new_keys[j]
            if not key or key in told:
                continue
            if old_count is None or new_count is None:
                old_count = Counter(loose_key(x) for x in old)
                new_count = Counter(new_keys)
            n, was, said = new_count[key], old_count[key], snippet_count[key]
            if n <= was or (said and n <= was + said):
                continue
            if n <= was + len(shown.patterns) and any(
                p.fullmatch(_bare(key)) for p in shown.patterns.values()
            ):
                continue  # a line a snippet line with a marker inside it stands for
            told.add(key)
            if not was and not said:
                message = f"{key[:60]!r} is neither in the original nor in the snippet"
                reasons.append(Reason(INVENTED, message, j + 1))
                continue
            reasons.append(
                Reason(
                    DUPLICATED,
                    f"{key[:60]!r} is in the merged file {n} times: the original has it "
                    f"{was} and the snippet {said}",
                    j + 1,
                )
            )


def _check_dropped(
    old: list[str],
    new: list[str],
    ops: Sequence[tuple[str, int, int, int, int]],
    shown: _Shown,
    at: list[int | None],
    reasons: list[Reason],
) -> None:
    """Every original line the merge drops is inside one run of shown lines, or replaced by
    a changed copy, or removed by a diff-marked snippet; none declares a name kept lines
    use."""
    dropped, replaced = unexplained_drops(old, new, ops)
    if not dropped:
        return
    # Where each dropped row would stand in the merged file: the row of the alignment's
    # opcode that drops it (and the end of the new lines in its stead).
    spot: dict[int, tuple[int, int]] = {}
    at_new: dict[int, tuple[int, int]] = {}  # a kept row: its row in the merge
    for tag, i1, i2, j1, j2 in ops:
        if tag in ("delete", "replace"):
            for i in range(i1, i2):
                spot[i] = (j1, j2)
        else:
            for d in range(i2 - i1):
                at_new[i1 + d] = (j1 + d, j1 + d + 1)
    runs = _runs(shown, at, old, new, {m: r for r, (m, _) in at_new.items()})
    removed = Counter(shown.removed)
    unexplained: list[int] = []
    for r in dropped:
        key = loose_key(old[r])
        if removed[key] > 0:
            removed[key] -= 1
            continue
        j1, j2 = spot[r]

        def parent(depth: int, r: int = r) -> tuple[int, int] | None:
            if indent_of(old[r]) <= depth:
                return None  # not inside a definition at that depth
            for up in range(r - 1, max(-1, r - USE_REACH), -1):
                if old[up].strip() and indent_of(old[up]) <= depth:
                    return at_new.get(up) or spot.get(up)
            return None

        if not any(
            run.bounds(j1 + d, j2 + d, parent) for d in _slides(new, j1, j2, old[r]) for run in runs
        ):
            unexplained.append(r)
    # (A row the snippet shows new lines in place of is its to change: only a deletion
    # outright leaves a name's uses behind.)
    _check_declarations(old, new, [r for r in dropped if r not in replaced], spot, reasons)
    if not unexplained:
        return
    tail = _tail_start(old)
    if (
        tail is not None
        and unexplained[-1] >= tail
        and all(r in set(unexplained) for r in range(unexplained[-1], len(old)) if old[r].strip())
    ):
        first_gone = max(
            (r for r in range(len(old)) if r not in set(unexplained) and old[r].strip()),
            default=-1,
        )
        start = min(r for r in unexplained if r > first_gone)
        reasons.append(
            Reason(
                CUT_SHORT,
                f"the merged file is cut short: original lines {start + 1}-{tail + 1} (from "
                f"{old[start].strip()[:60]!r} to the end) are gone, and the snippet does not "
                "reach them",
                len(new),
            )
        )
        unexplained = [r for r in unexplained if r <= first_gone]
    for r in unexplained:
        j1, _ = spot[r]
        reasons.append(
            Reason(
                DROPPED,
                f"original line {r + 1} ({old[r].strip()[:60]!r}) is gone, and no run of the "
                "snippet's lines shows lines on both sides of it",
                j1 + 1,
            )
        )


def _slides(new: list[str], j1: int, j2: int, line: str) -> list[int]:
    """Shifts of a dropped line's place in the merge among copies of it right above or below
    (which of three equal lines went is the alignment's pick, not the merge's)."""
    key = line.rstrip()
    out = [0]
    up = j1 - 1
    while up >= 0 and new[up].rstrip() == key and len(out) < _SLIDES:
        out.append(up - j1)
        up -= 1
    down = j2
    while down < len(new) and new[down].rstrip() == key and len(out) < 2 * _SLIDES:
        out.append(down + 1 - j2)
        down += 1
    return out


def _tail_start(old: list[str]) -> int | None:
    """The original's last line that is not blank."""
    return next((r for r in range(len(old) - 1, -1, -1) if old[r].strip()), None)


@dataclass
class _Run:
    """A run of shown lines (between markers): the rows of its placed lines in the merged
    file; and, when it shows a definition from its header on at its
    least indentation with no marker inside that definition after it, the header's row
    and indentation and the definition's last row in the merge (its body is shown whole)."""

    rows: list[int]
    header: int = -1
    depth: int = 0
    end: int = -1

    def bounds(self, j1: int, j2: int, parent: Callable[[int], tuple[int, int] | None]) -> bool:
        """A dropped line that stood at rows ``j1``..``j2`` of the merge (the new lines in
        its stead) has a line of the run above it and a later one below, or is inside the
        definition the run shows whole: its nearest line above at the header's indentation
        or less (``parent(depth)``: that line's rows in the merge) is the header."""
        above = next((k for k, row in enumerate(self.rows) if row < j1), None)
        if above is not None and any(row >= j2 for row in self.rows[above + 1 :]):
            return True
        if not 0 <= self.header < j1 or j2 > self.end + 1:
            return False
        rows = parent(self.depth)
        return rows is not None and rows[0] <= self.header < max(rows[1], rows[0] + 1)


def _runs(
    shown: _Shown, at: list[int | None], old: list[str], new: list[str], kept: dict[int, int]
) -> list[_Run]:
    """Each run of shown lines as a ``_Run``. A run shows a definition whole when it shows
    its header at the run's least indentation and nothing after it is marked inside it,
    and either the snippet ends there or the run's last line is the original definition's
    last line (``kept``: merged row -> original row of the lines the merge kept); a run that
    ends on a line leaving a block open shows nothing whole."""
    runs: dict[int, _Run] = {}
    top: dict[int, int] = {}  # segment -> row of its last line at its least indentation
    for i, row in enumerate(at):
        if row is None:
            continue
        s = shown.segment[i]
        runs.setdefault(s, _Run([])).rows.append(row)
        if s not in top or indent_of(new[row]) <= indent_of(new[top[s]]):
            top[s] = row
    for s, run in runs.items():
        h = top[s]
        after = shown.marker_after.get(s)
        depth = indent_of(new[h])
        last = new[run.rows[-1]]
        if not is_definition(new[h]) or leaves_open(last):
            continue
        # The snippet ends there: with no marker at all (a definition rewritten whole), or
        # on a line of the definition's body at its first level (not inside a block of it
        # that the file goes on with). Or the run reaches the original definition's last
        # line with no marker inside it after.
        body = next((r for r in run.rows if r > h), None)
        ends_body = body is not None and indent_of(last) <= indent_of(new[body])
        whole = after is None and (len(shown.marker_after) == 1 or ends_body)
        if not whole and (
            (after is not None and after > depth) or not _ends_as(old, kept.get(h), depth, last)
        ):
            continue
        end = run.rows[-1]
        for j in range(end + 1, len(new)):
            if new[j].strip():
                if indent_of(new[j]) <= depth:
                    break
                end = j
        run.header, run.depth, run.end = h, depth, end
    return list(runs.values())


def _ends_as(old: list[str], header: int | None, depth: int, last: str) -> bool:
    """The original's definition that starts at row ``header`` ends with ``last``."""
    if header is None:
        return False
    end = header
    for r in range(header + 1, min(len(old), header + USE_REACH)):
        if old[r].strip():
            if indent_of(old[r]) <= depth:
                break
            end = r
    return end > header and loose_key(old[end]) == loose_key(last)


def _check_declarations(
    old: list[str],
    new: list[str],
    dropped: Sequence[int],
    spot: dict[int, tuple[int, int]],
    reasons: list[Reason],
) -> None:
    """A dropped line that declares a name which the merged file still uses after it, in its
    scope (up to the first line left of it), and which no line of the merge declares again
    (nor the original elsewhere, nor a header: a parameter), is never explained."""
    gone = set(dropped)
    names: dict[str, int] = {}
    for r in dropped:
        name = declared(old[r])
        if name is not None and name not in names:
            names[name] = r
    if not names:
        return
    # Declared elsewhere in the original (assigned again) or named by a header: kept.
    for r, x in enumerate(old):
        if r in gone or not any(n in x for n in names):
            continue
        if declared(x) in names or is_definition(x):
            for n in set(_WORD.findall(x)) & names.keys():
                names.pop(n)
    for x in new:
        if names and any(n in x for n in names) and (d := declared(x)) in names:
            names.pop(d or "")  # declared again (moved, or by the snippet's new lines)
    for n, r in names.items():
        level = indent_of(old[r])
        start = spot[r][0]
        for j in range(start, min(len(new), start + USE_REACH)):
            x = new[j]
            if x.strip() and indent_of(x) < level:
                break  # the scope ends
            if n in x and n in _WORD.findall(STRING_LITERAL.sub("", x)):
                reasons.append(
                    Reason(
                        DECLARATION,
                        f"original line {r + 1} ({old[r].strip()[:60]!r}) declared {n!r}, and "
                        f"it is gone while merged line {j + 1} still uses the name",
                        j + 1,
                    )
                )
                break


def _check_markers(
    old: list[str], new: list[str], changed: _Changed, reasons: list[Reason]
) -> None:
    """No marker line among the lines the merge adds (one the original has as often is its)."""
    added = [j for j in changed.added if is_marker(new[j])]
    if not added:
        return
    keys = {new[j].strip() for j in added}
    have = Counter(k for x in old if (k := x.strip()) in keys)
    for j in added:
        key = new[j].strip()
        if have[key] > 0:
            have[key] -= 1
            continue
        reasons.append(Reason(MARKER, f"the marker {key[:60]!r} is left in the merged file", j + 1))


@dataclass(frozen=True)
class _Changed:
    """The rows the merge adds (of the merged file) and drops (of the original), by the
    alignment: every whole-file count moves only by these."""

    added: list[int]
    dropped: list[int]


def _changed(ops: Sequence[tuple[str, int, int, int, int]]) -> _Changed:
    added: list[int] = []
    dropped: list[int] = []
    for tag, i1, i2, j1, j2 in ops:
        if tag != "equal":
            added += range(j1, j2)
            dropped += range(i1, i2)
    return _Changed(added, dropped)


def _check_definitions(
    old: list[str],
    new: list[str],
    ops: Sequence[tuple[str, int, int, int, int]],
    changed: _Changed,
    shown: _Shown,
    at: list[int | None],
    reasons: list[Reason],
) -> None:
    """No definition more often in the merge than in the original plus the snippet's
    headers of it that the merge adds (placed on a line the original does not have there):
    a snippet that shows a definition the file has, as it is, and a merge that writes it a
    second time, is a block put in twice. (A changed header written beside the old one
    passes: it reads as a new overload.)"""
    kept = {j for tag, _, _, j1, j2 in ops if tag == "equal" for j in range(j1, j2)}
    gained: Counter[str] = Counter(n for j in changed.added if (n := _defined(new[j])))
    gained.subtract(n for r in changed.dropped if (n := _defined(old[r])))
    names = {n for n, d in gained.items() if d > 0}
    if not names:
        return  # no definition more often than before (the file's others unread)
    before: Counter[str] = Counter(
        n for x in old if any(m in x for m in names) and (n := _defined(x)) in names
    )
    after = Counter({n: before[n] + gained[n] for n in names})
    added: Counter[str] = Counter()
    for i, key in enumerate(shown.keys):
        row = at[i]
        if row is not None and row not in kept and (name := _defined(key)) is not None:
            added[name] += 1
    for name, count in after.items():
        allowed = before[name] + added[name]
        if count > allowed:
            j = max(j for j, x in enumerate(new) if _defined(x) == name)
            reasons.append(
                Reason(
                    DUPLICATED,
                    f"{name!r} is defined {count} times in the merged file; the original and "
                    f"the snippet explain {allowed}",
                    j + 1,
                )
            )


def _defined(line: str) -> str | None:
    """The name a definition's header gives, when a keyword says it is one (not a variable
    of a struct type: ``struct buffer buf;``)."""
    if not keyword_definition(line) or line.rstrip().endswith(";"):
        return None
    return definition_name(line)


def _check_balance(
    original: str,
    old: list[str],
    new: list[str],
    changed: _Changed,
    syntax: Syntax | None,
    reasons: list[Reason],
) -> None:
    """The brackets (and a markup file's elements) no less balanced than the original's.
    Only the changed lines move a count: the whole original is counted when they do."""
    moved = bracket_balance([new[j] for j in changed.added])
    moved -= bracket_balance([old[r] for r in changed.dropped])
    if moved:
        was = bracket_balance(old)
        if abs(was + moved) > abs(was):
            reasons.append(
                Reason(
                    UNBALANCED,
                    f"the merged file's brackets are off by {was + moved:+d} (the original's "
                    f"by {was:+d})",
                )
            )
    if syntax is None or not syntax.tags:
        return
    delta = Counter(_open_elements("\n".join(new[j] for j in changed.added)))
    delta.subtract(_open_elements("\n".join(old[r] for r in changed.dropped)))
    if not any(delta.values()):
        return
    a = _open_elements(original)
    b = {t: a.get(t, 0) + delta[t] for t in delta}
    worse = sorted(t for t in b if abs(b[t]) > abs(a.get(t, 0)))
    if worse:
        reasons.append(
            Reason(
                UNBALANCED,
                "elements left open or closed twice in the merged file: "
                + ", ".join(f"<{t}> {b[t]:+d}" for t in worse[:5]),
            )
        )


def _open_elements(text: str) -> dict[str, int]:
    """Element name -> start tags minus end tags (void and self-closed elements left out)."""
    count: Counter[str] = Counter()
    for m in _TAG.finditer(text):
        closing, name, self_closed = m.group(1), m.group(2).lower(), m.group(3)
        if self_closed or name in _VOID:
            continue
        count[name] += -1 if closing else 1
    return {t: n for t, n in count.items() if n}


__all__ = ["CHECKS", "MergeVerdict", "Reason", "runs_anchored", "verify_merge"]
