"""The fuzzy tier: normalized edit-distance similarity over line windows.

Candidate windows come from anchor probes (several, from different lines, so a typo in one
line cannot hide the place) and from every window within 40 lines of the hint. Each is scored
with rapidfuzz's normalized Levenshtein similarity over its loose form (unicode punctuation
mapped, blanks collapsed, indentation dropped); the most promising are refined by moving
their edges a line at a time. A window wins only at or above the threshold and at least
``MARGIN`` ahead of the best window that does not overlap it.
"""

from __future__ import annotations

from collections import Counter

from rapidfuzz.distance import Levenshtein

from ..errors import Region
from . import anchors, diff
from .budget import Budget, OverBudget
from .normalize import CharUndo, loose
from .search import LISTED, Fit, Hit, Search

NEAR = 40
MARGIN = 0.02
PROBES = 3  # from three lines: two typos cannot hide the place from all of them
PROBE_LIMIT = 400
LINE_PROBE_MIN = 12  # shorter lines are too common to be worth a pass over the text
# A refusal looks again with other probes only in texts this small (characters): the report is
# more useful, and a few more scans of a small text are cheap.
SECOND_LOOK_LIMIT = 200_000
REFINE = 4
AROUND = 4  # lines read ahead above and below the windows a refinement moves the edges of
SURE = 0.97  # a window this similar holds every line: no need to look for a shifted edge
REFINE_BELOW = 0.15  # refine windows this far below the threshold: a missing line costs that
# Below this much text (loose form) a similarity says too little about where: "return 9"
# is 88% similar to "return 1". Short search texts must match at a literal tier.
MIN_CHARS = 20
# What ``plausible`` lets through: lines with typos (at most LINE_EDITS edits each), at most
# MAX_TYPO_LINES of them or a quarter of the block; or one misremembered line in a block of
# MIN_LINES_FOR_ONE_OFF lines or more. Measured in benchmarks/ (docs/threshold.md).
LINE_EDITS = 2
MAX_TYPO_LINES = 3
MIN_LINES_FOR_ONE_OFF = 4


class _Scorer:
    """Scores windows (start position, line count) against the search block, with a cache.
    Each score's edit-distance cells come out of the search's budget."""

    def __init__(self, s: Search) -> None:
        self.s = s
        self.key = self.key_of(s)
        self.cache: dict[tuple[int, int], float] = {}
        self._views: dict[tuple[int, int], tuple[str, int, int, int] | None] = {}
        self._paid: set[tuple[int, int]] = set()

    @staticmethod
    def key_of(s: Search) -> str:
        return "\n".join(s.keys(loose))

    def view(self, start: int, count: int) -> tuple[str, int, int, int] | None:
        """The window's loose text without blank lines at its edges (padding a window with
        them would lengthen it and so inflate a normalized similarity); the range of its lines
        that are left (``a``..``b``, at least one line); the position after the window. None
        past the end of the text."""
        k = (start, count)
        if k in self._views:
            return self._views[k]
        span = self.s.loose_span(start, count)
        got = None
        if span is not None:
            keys, end = span
            a, b = 0, count
            while b - a > 1 and not keys[a]:
                a += 1
            while b - a > 1 and not keys[b - 1]:
                b -= 1
            got = ("\n".join(keys[a:b]), a, b, end)
        self._views[k] = got
        return got

    def text(self, start: int, count: int) -> str | None:
        got = self.view(start, count)
        return None if got is None else got[0]

    def trimmed(self, start: int, count: int) -> tuple[int, int, int] | None:
        """(start, count, end) of the window without the blank lines at its edges."""
        got = self.view(start, count)
        if got is None:
            return None
        _, a, b, end = got
        doc = self.s.doc
        for _ in range(a):
            start = self.s.line(start)[1]
        if b < count:
            # ``end`` is a line start or the end of the text: either way ``back`` steps over
            # whole lines (the window keeps at least one, so it cannot run off the top).
            end = doc.back(end, count - b) or 0
        return start, b - a, end

    def prepay(self, windows: list[tuple[int, int]]) -> None:
        """Spend what scoring all of ``windows`` will cost at once: a set of candidates the
        budget cannot cover is refused before any of them is scored."""
        cells = 0
        for w in windows:
            text = self.text(*w)
            if text is not None and w not in self.cache and w not in self._paid:
                cells += self._cost(text)
        self.s.budget.cells(cells)
        self._paid.update(windows)

    def _cost(self, text: str) -> int:
        """Cells to score ``text``: their product, or without the shared affixes when that
        is large (two calls into C a small window does not need)."""
        cells = len(self.key) * len(text)
        return cells if cells < 10_000_000 else diff.cells(self.key, text)

    def score(self, start: int, count: int) -> float:
        k = (start, count)
        got = self.cache.get(k)
        if got is None:
            text = self.text(start, count)
            if text is None:
                got = -1.0
            else:
                if k not in self._paid:
                    self.s.budget.cells(self._cost(text))
                got = Levenshtein.normalized_similarity(self.key, text)
            self.cache[k] = got
        return got


def _candidates(s: Search) -> list[int]:
    """Window starts worth scoring: every window near the hint, and the windows the probes
    agree on most (a window within the margin of the best shares nearly all its lines, so it
    cannot miss more than one probe more than the best does)."""
    doc = s.doc
    votes: Counter[int] = Counter()
    common: list[tuple[int, int, str]] = []
    for k, run in _fuzzy_probes(s):
        hits = s.hits(run, anchors.COMMON)
        if len(hits) <= anchors.COMMON:
            votes.update(s.window_starts(hits, k))
        else:
            common.append((len(hits), k, run))
    if not votes and common:
        # Every probe is common: the least common one, if it is not hopelessly so.
        _, k, run = min(common)
        hits = s.hits(run, PROBE_LIMIT)
        if len(hits) <= PROBE_LIMIT:
            votes.update(s.window_starts(hits, k))
    top = max(votes.values(), default=0)
    out = [x for x, v in votes.items() if v >= top - 1]
    if s.hint is not None:
        # Middle-out around the hint: the hinted line first, then alternately below/above.
        seen = set(out)
        top = max(0, s.hint - NEAR - AROUND)
        starts = doc.line_starts(top, s.hint + NEAR)
        if starts:
            n = len(s.lines)
            s.read_run(starts[min(starts)], s.hint + NEAR + n + n // 4 + AROUND - top)
        for d in [0, *(x for i in range(1, NEAR + 1) for x in (i, -i))]:
            pos = starts.get(s.hint + d)
            if pos is not None and pos not in seen:
                seen.add(pos)
                out.append(pos)
    return out


def _fuzzy_probes(s: Search) -> list[tuple[int, str]]:
    """Probes from ``PROBES`` different lines: the longest run (the one the literal tiers
    already scanned for, so its hits are cached), then whole lines, longest first. A whole line
    is a long needle, which ``str.find`` skips through several times faster than a short run;
    the model's typos may break some of them, not all."""
    runs = s.probes(s.lines)
    out = runs[:1]
    taken = {k for k, _ in out}
    ranked = sorted(
        ((k, x.strip()) for k, x in enumerate(s.lines) if len(x.strip()) >= LINE_PROBE_MIN),
        key=lambda kx: (-len(kx[1]), kx[0]),
    )
    for k, line in ranked:
        if len(out) == PROBES:
            break
        if k not in taken and line not in (x for _, x in out):
            out.append((k, line))
            taken.add(k)
    for k, run in runs[1:]:  # short blocks: fill up with runs from other lines
        if len(out) == PROBES:
            break
        if k not in taken:
            out.append((k, run))
            taken.add(k)
    return out


def _second_look(s: Search) -> list[tuple[float, int, int, int]]:
    """Windows found by each line's second-longest run, scored: when no probe found anything,
    the model may have mistyped the longest token of every probed line. Only for the report
    of a refusal (and only in texts small enough for a few more scans to be cheap)."""
    sc = _Scorer(s)
    n = len(s.lines)
    starts: set[int] = set()
    for k, run in _second_runs(s)[:PROBES]:
        hits = s.hits(run, anchors.COMMON)
        if len(hits) <= anchors.COMMON:
            starts.update(s.window_starts(hits, k))
    out = []
    for x in starts:
        w = s.window(x, n)
        if w is not None:
            out.append((sc.score(x, n), x, n, w[1]))
    return sorted(out, key=lambda r: (-r[0], r[1]))


def _second_runs(s: Search) -> list[tuple[int, str]]:
    """(line, run) for each line's second-longest run of 5 characters or more, longest first."""
    out = []
    for k, line in enumerate(s.lines):
        # Ties by the run's text: a set's order changes with the hash seed, the report must not.
        found = sorted(set(anchors.runs(line)), key=lambda r: (-len(r), r))
        if len(found) > 1 and len(found[1]) >= 5:
            out.append((k, found[1]))
    return sorted(out, key=lambda kr: -len(kr[1]))


def _read_around(s: Search, start: int, n: int) -> None:
    """Read ahead the lines a refinement of the window (start, n) scores, most of them."""
    top = start
    for _ in range(AROUND):
        up = s.doc.back(top, 1)
        if up is None:
            break
        top = up
    s.read_run(top, n + n // 4 + 2 * AROUND)


def _refine(sc: _Scorer, start: int, count: int, n: int) -> tuple[float, int, int]:
    """The best window near (start, count): a hill-climb moving either edge, or both, a line
    at a time while the score improves; when that ends below ``SURE``, the climb is repeated
    from the best of every window with edges up to two lines away (a line the model left out
    or added moves both edges of the true window, which one-line steps can miss)."""
    doc = sc.s.doc
    lo, hi = max(1, n - n // 4 - 2), n + n // 4 + 2

    def shifted(pos: int, d: int) -> int | None:
        if d < 0:
            return doc.back(pos, -d)
        for _ in range(d):
            if pos >= doc.n:
                return None
            pos = sc.s.line(pos)[1]
        return pos

    def climb(score: float, start: int, count: int) -> tuple[float, int, int]:
        while True:
            moves = []
            up, down = doc.back(start, 1), shifted(start, 1)
            if up is not None:
                moves.append((up, count))  # shift up
                if count + 1 <= hi:
                    moves.append((up, count + 1))  # grow upward
            if down is not None:
                moves.append((down, count))  # shift down
                if count - 1 >= lo:
                    moves.append((down, count - 1))  # shrink at the top
            if count - 1 >= lo:
                moves.append((start, count - 1))  # shrink at the bottom
            if count + 1 <= hi:
                moves.append((start, count + 1))  # grow downward
            top = max(((sc.score(a, c), a, c) for a, c in moves), default=(-1.0, start, count))
            if top[0] <= score:
                return score, start, count
            score, start, count = top

    best = climb(sc.score(start, count), start, count)
    if best[0] >= SURE:
        return best
    around = best
    for d in (0, -1, 1, -2, 2):
        a = shifted(start, d)
        if a is None:
            continue
        for c in range(max(lo, count - 2), min(hi, count + 2) + 1):
            score = sc.score(a, c)
            # On a tie the smaller window wins (blank edge lines score nothing either way).
            if (score, -c) > (around[0], -around[2]):
                around = (score, a, c)
    again = climb(*around)
    return again if (again[0], -again[2]) > (best[0], -best[2]) else best


def _scored(s: Search) -> list[tuple[float, int, int, int]]:
    """(similarity, start, count, end) for the candidate windows, best first."""
    if s.fuzzy_scored is not None:
        return s.fuzzy_scored
    n = len(s.lines)
    out: list[tuple[float, int, int, int]] = []
    if n:
        sc = _Scorer(s)
        starts = _candidates(s)
        sc.prepay([(x, n) for x in starts])
        ranked = sorted(((sc.score(x, n), x) for x in starts), reverse=True)
        refined: dict[tuple[int, int], float] = {}
        floor = max(s.threshold, ranked[0][0] if ranked else 0.0) - REFINE_BELOW
        for i, (sim, x) in enumerate(ranked):
            if sim < 0:
                continue
            c = n
            if i < REFINE and sim >= floor:
                _read_around(s, x, n)
                sim, x, c = _refine(sc, x, n, n)
            refined[(x, c)] = sim
        for (x, c), sim in refined.items():
            got = sc.trimmed(x, c)
            if got is not None:
                out.append((sim, *got))
        out.sort(key=lambda r: (-r[0], r[1]))
    s.fuzzy_scored = out
    return out


def _apart(a: tuple[float, int, int, int], b: tuple[float, int, int, int]) -> bool:
    return a[3] <= b[1] or b[3] <= a[1]


def fuzzy(s: Search) -> list[Hit]:
    """The best window if it clears the threshold and the margin; the near-best windows (for
    the ladder to break the tie with the hint, or report as ambiguous) otherwise. Out of
    budget: nothing, and ``s.stopped`` says why."""
    try:
        return _fuzzy(s)
    except OverBudget:
        s.stopped["fuzzy"] = "budget"
        return []


def _fuzzy(s: Search) -> list[Hit]:
    if len(_Scorer.key_of(s)) < MIN_CHARS:
        return []
    scored = _scored(s)
    if not scored or scored[0][0] < s.threshold:
        return []
    best = scored[0]
    first = _hit(s, best)
    if first is None:  # the best place is not plausible: nothing is
        return []
    hits = [first]
    rivals = [best]
    for r in scored[1:]:
        if best[0] - r[0] >= MARGIN:
            break
        if all(_apart(r, x) for x in rivals):
            rivals.append(r)
            hit = _hit(s, r)
            if hit is not None:
                hits.append(hit)
                # Without a hint, one more than an ambiguity lists proves it; with one, the
                # nearest rivals may come last.
                if s.hint is None and len(hits) > LISTED:
                    s.stopped["fuzzy"] = "enough"
                    break
    return hits


def closest(s: Search, k: int = 3) -> list[Region]:
    """The ``k`` best non-overlapping windows, for a ``no_match`` report (none when the work
    budget runs out first: ``s.stopped`` says so)."""
    try:
        scored = _scored(s)
        if not scored and s.doc.n < SECOND_LOOK_LIMIT and s.lines:
            scored = _second_look(s)
    except OverBudget:
        s.stopped["closest"] = "budget"
        return []
    picked: list[tuple[float, int, int, int]] = []
    for r in scored:
        if r[0] <= 0:
            break
        if all(_apart(r, x) for x in picked):
            picked.append(r)
            if len(picked) == k:
                break
    out = []
    for sim, x, c, _ in picked:
        line = s.doc.shown(s.doc.line_no(x))
        w = s.window(x, c)
        out.append(Region(line, line + c - 1, round(sim, 4), "\n".join(w[0]) if w else ""))
    return out


def _hit(s: Search, r: tuple[float, int, int, int]) -> Hit | None:
    sim, start, count, end = r
    w = s.window(start, count)
    if w is None:
        return None
    base = s.lines
    ours = w[0]
    bkeys = s.keys(loose)
    okeys = [loose(x) for x in ours]
    base_map, pairs = align(bkeys, okeys, s.budget)
    if not plausible(bkeys, okeys, pairs):
        return None
    misquoted = {}
    for i, j in pairs:
        a, b = bkeys[i], okeys[j]
        if a == b or not a:
            continue
        if b.startswith(a):
            misquoted[i] = "cut short"
        elif Levenshtein.distance(a, b, score_cutoff=LINE_EDITS + 1) > LINE_EDITS:
            misquoted[i] = "differs"
    fit_pairs = [(i, base[i], ours[j]) for i, j in pairs]
    undo = CharUndo()
    for i, j in pairs:
        if bkeys[i] == okeys[j]:
            undo.learn(base[i], ours[j])
    fit = Fit.of(fit_pairs, len(base), s.style_near(start), base, undo=undo)
    return Hit(
        "fuzzy",
        round(sim, 4),
        start,
        end,
        base=base,
        ours=ours,
        base_map=base_map,
        fit=fit,
        misquoted=misquoted,
        lead_blank=s.lead_blank,
        trail_blank=s.trail_blank,
    )


def plausible(bkeys: list[str], okeys: list[str], pairs: list[tuple[int, int]]) -> bool:
    """Whether the window reads as the search block with one kind of noise, not as other code
    that looks alike. Either a few lines hold typos (at most two edits each; at most
    ``MAX_TYPO_LINES`` lines or a quarter of them) and every other line matches exactly, or
    exactly one line is more than a typo (missing, extra, or rewritten: a misremembered line)
    and every other line matches exactly, in a block of ``MIN_LINES_FOR_ONE_OFF`` lines or
    more. A block with identifiers renamed throughout, a twin from another file that differs
    in two lines, or a table with every value different is similar as a whole but fails here.
    """
    paired_b = {i for i, _ in pairs}
    paired_o = {j for _, j in pairs}
    off = sum(1 for i, k in enumerate(bkeys) if k and i not in paired_b)
    off += sum(1 for j, k in enumerate(okeys) if k and j not in paired_o)
    typos = 0
    for i, j in pairs:
        a, b = bkeys[i], okeys[j]
        if a == b:
            continue
        if Levenshtein.distance(a, b, score_cutoff=LINE_EDITS + 1) <= LINE_EDITS:
            typos += 1
        else:
            off += 1
    lines = sum(1 for k in bkeys if k)
    if off == 0:
        # Typos, but not in every line: something must be quoted right.
        return typos <= max(MAX_TYPO_LINES, lines // 4) and typos < lines
    return off == 1 and typos == 0 and lines >= MIN_LINES_FOR_ONE_OFF


def align(
    bkeys: list[str], okeys: list[str], budget: Budget | None = None
) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """Map each base line to a range of window lines: equal lines pair up, a changed stretch
    pairs line by line in order, and what is left over maps to nothing (an empty range).

    Returns the map and the (base, window) line pairs. The alignment's steps come out of
    ``budget`` (``OverBudget`` when it has too few).
    """
    base_map: list[tuple[int, int]] = []
    pairs: list[tuple[int, int]] = []
    left = budget.lines_left if budget is not None else diff.WORK
    sm = diff.matcher(bkeys, okeys, max(left, 0))
    try:
        codes = sm.get_opcodes()
    except diff.TooCostly:
        raise OverBudget from None
    finally:
        if budget is not None:
            budget.lines_left -= getattr(sm, "spent", len(bkeys) * len(okeys))
    for tag, i1, i2, j1, j2 in codes:
        if tag == "insert":
            continue
        for d in range(i2 - i1):
            if tag != "delete" and j1 + d < j2:
                base_map.append((j1 + d, j1 + d + 1))
                pairs.append((i1 + d, j1 + d))
            else:
                at = min(j1 + d, j2) if tag != "delete" else j1
                base_map.append((at, at))
    return base_map, pairs
