"""The state one search shares between tiers: the query, candidate windows, and hits."""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TypeVar

from . import anchors, indent
from .budget import Budget, OverBudget
from .doc import Doc
from .normalize import CharUndo, loose

T = TypeVar("T")
NOTHING: Mapping[int, str] = MappingProxyType({})

# Places an ambiguity lists. A tier stops once it has found one more: that proves there are
# more than it lists, and checking the rest would only cost time.
LISTED = 20
# Window lines the anchor probes may leave to check one by one; past this the line index
# (one pass over the file, see ``index.py``) finds the windows instead.
SCAN_WORK = 20_000
# Occurrences of a common probe collected before the line index takes over.
ALL_HITS = 100_000


@dataclass(slots=True)
class Hit:
    """One place a tier accepts. Positions are offsets into ``Doc.t``.

    Character-level hits (the exact tier) carry only ``start``/``end``. Line-level hits also
    carry the window of file lines (``ours``), the model's lines as the tier read them
    (``base``) and, for each base line, the range of window lines it stands for
    (``base_map``); the splice uses them to keep every line the model did not change.
    """

    tier: str
    confidence: float
    start: int
    end: int
    base: list[str] | None = None
    ours: list[str] | None = None
    base_map: list[tuple[int, int]] | None = None
    fit: Fit | None = None
    markers: frozenset[int] = frozenset()
    # Base lines the model quoted wrong, by why: "cut short" (a prefix of the file's line) or
    # "differs" (more than a typo). Context may be misquoted; changing such a line is refused.
    # One shared empty mapping by default: a replace_all may make 100,000 hits.
    misquoted: Mapping[int, str] = field(default_factory=lambda: NOTHING)
    unescaped: bool = False
    lead_blank: int = 0
    trail_blank: int = 0
    line: int = -1  # 0-based first line, filled in lazily by the ladder

    def adapt(self, line: str, base_index: int) -> str:
        """A replacement line written the way the file would hold it."""
        return line if self.fit is None else self.fit.adapt(line, base_index)


@dataclass
class Fit:
    """How the model's lines map onto the file's: per-line indentation shifts (falling back
    to the common one) and character noise to undo."""

    style: indent.Style | None = None
    shift: indent.Shift = field(default_factory=indent.Shift)
    line_shifts: list[indent.Shift | None] | None = None
    undo: CharUndo | None = None

    @classmethod
    def of(
        cls,
        pairs: list[tuple[int, str, str]],
        n_base: int,
        style: indent.Style,
        model_lines: list[str],
        *,
        undo: CharUndo | None = None,
        uniform: indent.Shift | None = None,
    ) -> Fit:
        """From (base index, model line, file line) pairs: the common shift, or ``uniform``
        when the tier proved one, and each paired line's own offset at the same scale."""
        shift = uniform or indent.common([(o, f) for _, o, f in pairs], style, model_lines)
        per: list[indent.Shift | None] = [None] * n_base
        if uniform is None:
            for i, o, f in pairs:
                if o.strip() and f.strip():
                    off = indent.column(f, style) - indent.column(o, style) * shift.scale
                    per[i] = indent.Shift(off, shift.scale)
        return cls(style, shift, per, undo)

    def adapt(self, line: str, base_index: int) -> str:
        if self.undo is not None:
            line = self.undo.apply(line)
        if self.style is None:
            return line
        shift = self.shift
        if self.line_shifts and 0 <= base_index < len(self.line_shifts):
            shift = self.line_shifts[base_index] or shift
        return indent.reindent(line, shift, self.style)


@dataclass(frozen=True, slots=True)
class Declined:
    """A place a tier found the search text but did not take. The ladder's rule is that the
    first tier that finds the text decides: a later tier may not apply it elsewhere or read
    it otherwise, only, when ``whole_lines`` is set, place it as the whole lines the text
    spans here (the tier read it so but cannot align a line it quoted from its middle)."""

    tier: str
    start: int  # offsets into ``Doc.t``
    end: int
    why: str  # why the tier did not take it, a clause of the refusal
    whole_lines: bool = False


@dataclass
class Search:
    """One lookup of ``old`` in ``doc``. Built once per call; tiers read from it."""

    doc: Doc
    old: str
    hint: int | None = None  # 0-based line
    threshold: float = 0.0
    replace_all: bool = False
    new: str | None = None  # the replacement (LF), when the search is for a replace
    lines: list[str] = field(init=False)
    lead_blank: int = field(init=False)
    trail_blank: int = field(init=False)
    _starts: dict[tuple[str, ...], list[int] | None] = field(init=False, default_factory=dict)
    _windows: dict[tuple[int, int], tuple[list[str], int] | None] = field(
        init=False, default_factory=dict
    )
    _line: dict[int, tuple[str, int]] = field(init=False, default_factory=dict)
    _loose: dict[int, str] = field(init=False, default_factory=dict)
    # Runs of lines read ahead in loose form: a line start -> (the run's loose lines, the
    # position after each, the line's index in the run).
    _runs: dict[int, tuple[list[str], list[int], int]] = field(init=False, default_factory=dict)
    _probes: dict[tuple[str, ...], list[tuple[int, str]]] = field(init=False, default_factory=dict)
    _hits: dict[str, tuple[list[int], bool]] = field(init=False, default_factory=dict)
    _styles: dict[int, indent.Style] = field(init=False, default_factory=dict)
    _matches: dict[tuple[tuple[str, ...], Callable[[str], str]], list[int]] = field(
        init=False, default_factory=dict
    )
    fuzzy_scored: list[tuple[float, int, int, int]] | None = field(init=False, default=None)
    budget: Budget = field(init=False, default_factory=Budget)
    # Per tier that stopped before it saw every candidate: "enough" (more than LISTED hits)
    # or "budget" (out of work).
    stopped: dict[str, str] = field(init=False, default_factory=dict)
    # Set when the hint chose one of several places (the others still hold the text).
    picked_by_hint: bool = field(init=False, default=False)
    # The first place a tier found the search text and did not take (see ``Declined``).
    declined: Declined | None = field(init=False, default=None)
    # Set when a tier rewrote ``new`` (the line-numbers tier strips copied numbers from it):
    # the splice then writes ``new`` as the tier left it.
    new_rewritten: bool = field(init=False, default=False)

    def __post_init__(self) -> None:
        self.lines, self.lead_blank, self.trail_blank = block_lines(self.old)
        self._keys: dict[object, list[str]] = {}

    def decline(self, found: Declined) -> None:
        """Record a place a tier found the text and did not take; the first one stands."""
        if self.declined is None:
            self.declined = found

    def keys(self, norm: Callable[[str], str], lines: list[str] | None = None) -> list[str]:
        """``norm`` of each line of the block (or of ``lines``), computed once."""
        if lines is None:
            got = self._keys.get(norm)
            if got is None:
                got = self._keys[norm] = [norm(x) for x in self.lines]
            return got
        return [norm(x) for x in lines]

    # -- candidate windows ----------------------------------------------------------------
    def starts(self, lines: list[str]) -> list[int] | None:
        """Start positions of every window where ``lines`` could match under a line-level
        normalization (a superset), or None when the probes cannot make that set small: the
        block has no run to probe with, or its probe is in so many lines that finding their
        window starts would cost more than ``SCAN_WORK`` lines."""
        key = tuple(lines)
        if key in self._starts:
            return self._starts[key]
        best: list[int] | None = None
        best_k = 0
        for k, run in self.probes(lines)[:3]:
            hits = self.hits(run, anchors.COMMON)
            if best is None or len(hits) < len(best):
                best, best_k, probe = hits, k, run
            if len(hits) <= anchors.COMMON:
                break
        out = None
        if best is not None and len(best) > anchors.COMMON:
            # Every occurrence (up to a limit no real file reaches), as the fuzzy tier's
            # probes expect to find them cached: collecting them is one pass.
            best = self.hits(probe, ALL_HITS)
            if len(best) > ALL_HITS:
                best = None
        if best is not None:
            found = self._hit_lines(best)
            if len(found) * (best_k + 1) <= SCAN_WORK:  # each costs best_k lines up
                out = self._above(found, best_k)
        self._starts[key] = out
        return out

    def probes(self, lines: list[str]) -> list[tuple[int, str]]:
        """The block's probe runs, best first (see ``anchors.probes``), computed once."""
        key = tuple(lines)
        got = self._probes.get(key)
        if got is None:
            got = self._probes[key] = anchors.probes(lines, 8)
        return got

    def hits(self, run: str, limit: int) -> list[int]:
        """Positions of ``run``: all of them, or more than ``limit`` when it is that common
        (callers check ``len(...) > limit``). Shared by the tiers."""
        got = self._hits.get(run)
        if got is not None:
            positions, complete = got
            if complete or len(positions) > limit:
                return positions
        positions = self.doc.find_all(run, limit)
        self._hits[run] = (positions, len(positions) <= limit)
        return positions

    def window_starts(self, positions: list[int], k: int) -> list[int]:
        """Line starts ``k`` lines above each position (deduplicated, in order)."""
        return self._above(self._hit_lines(positions), k)

    def _above(self, line_starts: list[int], k: int) -> list[int]:
        doc = self.doc
        seen: set[int] = set()
        out: list[int] = []
        for ls in line_starts:
            s = doc.back(ls, k)
            if s is not None and s not in seen:
                seen.add(s)
                out.append(s)
        return out

    def _hit_lines(self, positions: list[int]) -> list[int]:
        """The distinct starts of the lines holding ``positions`` (sorted). Each line is found
        by scanning from the previous one: many hits in one long line cost one pass over it,
        not one scan back to its start per hit."""
        t = self.doc.t
        out: list[int] = []
        end = -1  # the newline ending the last line found (-1: none yet)
        for p in positions:
            if out and p <= end:
                continue
            ls = t.rfind("\n", max(end, 0), p) + 1 if out else t.rfind("\n", 0, p) + 1
            e = t.find("\n", p)
            end = len(t) if e < 0 else e
            out.append(ls)
        return out

    def matches(self, lines: list[str], norm: Callable[[str], str]) -> list[int]:
        """Start positions of every window whose lines equal ``lines`` under ``norm`` (a
        line-level normalization), in order: the probes' candidates checked one by one when
        they are few, else the line index's answer (the same set, in one pass)."""
        key = (tuple(lines), norm)
        got = self._matches.get(key)
        if got is None:
            got = self._matches[key] = self._find_matches(lines, norm)
        return got

    def _find_matches(self, lines: list[str], norm: Callable[[str], str]) -> list[int]:
        if not lines:
            return []
        cands = self.starts(lines)
        if cands == []:
            return []
        keys = self.keys(norm, None if lines is self.lines else lines)
        if cands is not None:
            # Checked one by one while that costs less than ``SCAN_WORK`` lines (most
            # windows differ at their first line); else the index answers.
            out: list[int] = []
            work = 0
            for p in cands:
                same, read = self._equal_at(p, keys, norm)
                work += read
                if work > SCAN_WORK:
                    break
                if same:
                    out.append(p)
            else:
                return out
        index = self.doc.index
        return [index.starts[i] for i in index.coded(norm).occurrences(keys)]

    def _equal_at(self, pos: int, keys: list[str], norm: Callable[[str], str]) -> tuple[bool, int]:
        """Whether the lines from ``pos`` equal ``keys`` under ``norm``, and how many lines
        that read (it stops at the first line that differs)."""
        n = self.doc.n
        for read, k in enumerate(keys, 1):
            if pos >= n:
                return False, read
            text, pos = self.line(pos)
            if norm(text) != k:
                return False, read
        return True, len(keys)

    # -- collecting hits ------------------------------------------------------------------
    def nearest_first(self, starts: list[int]) -> Iterator[int]:
        """``starts`` (sorted positions) as a tier collects them: in file order, or nearest
        the hint first when there are more than it collects (else the order is moot)."""
        if self.hint is None or len(starts) <= LISTED + 1:
            return iter(starts)
        return self.by_distance(starts)

    def by_distance(self, starts: list[int]) -> Iterator[int]:
        """``starts`` (sorted positions) nearest the hint first (on a tie, the one above)."""
        assert self.hint is not None
        at = self.doc.pos_of_line(self.hint)
        i = bisect.bisect_left(starts, self.doc.n + 1 if at is None else at)
        return nearest(reversed(starts[:i]), iter(starts[i:]), self.doc.line_no, self.hint)

    def collect(
        self, tier: str, candidates: Iterable[int], accept: Callable[[int], Hit | None]
    ) -> list[Hit]:
        """The hits ``accept`` makes of ``candidates`` (in the order given), in file order.

        Stops at ``LISTED + 1`` hits (ambiguity is proven, and with a hint the candidates come
        nearest first, so the two nearest are in) or when the budget runs out; ``stopped``
        says which.
        """
        out: list[Hit] = []
        try:
            for p in candidates:
                hit = accept(p)
                if hit is None:
                    continue
                out.append(hit)
                if len(out) > LISTED:
                    self.stopped[tier] = "enough"
                    break
        except OverBudget:
            self.stopped[tier] = "budget"
        out.sort(key=lambda h: h.start)
        return out

    def line(self, pos: int) -> tuple[str, int]:
        """The line starting at ``pos`` and the start of the next one (``n`` at the end)."""
        got = self._line.get(pos)
        if got is None:
            t = self.doc.t
            e = t.find("\n", pos)
            got = (t[pos:], self.doc.n) if e < 0 else (t[pos:e], e + 1)
            self._line[pos] = got
        return got

    def advance(self, pos: int, count: int) -> int:
        """The position ``count`` lines below line start ``pos`` (``n`` past the end)."""
        index = self.doc.built_index
        if index is not None:
            line = index.line_of(pos) + count
            return index.starts[line] if line < len(index) else self.doc.n
        self.budget.lines(count)
        for _ in range(count):
            if pos >= self.doc.n:
                break
            pos = self.line(pos)[1]
        return pos

    def window(self, start: int, count: int) -> tuple[list[str], int] | None:
        """``count`` lines from line start ``start`` and the position after them, or None
        when the text ends first."""
        key = (start, count)
        if key in self._windows:
            return self._windows[key]
        self.budget.lines(count)
        n = self.doc.n
        out = []
        p = start
        got: tuple[list[str], int] | None = None
        for _ in range(count):
            if p >= n:
                break
            text, p = self.line(p)
            out.append(text)
        else:
            got = (out, p)
        self._windows[key] = got
        return got

    def loose_span(self, start: int, count: int) -> tuple[list[str], int] | None:
        """The window's lines in loose form (see ``normalize.loose``) and the position after
        it, or None when the text ends first: a slice of a run of lines read ahead
        (``read_run``), read now when none holds the window."""
        self.budget.lines(count)
        if count <= 0:
            return [], start
        run = self._runs.get(start)
        if run is None or run[2] + count > len(run[0]):
            self.read_run(start, count)
            run = self._runs.get(start)
            if run is None:  # ``start`` is at the end of the text
                return None
        keys, ends, i = run
        if i + count > len(keys):
            return None
        return keys[i : i + count], ends[i + count - 1]

    def read_run(self, start: int, count: int) -> None:
        """Read the loose form of ``count`` lines from line start ``start`` (fewer at the end
        of the text) in one walk, so that every window inside them is a slice: the fuzzy tier
        scores dozens of windows that overlap but for a line (81 around a hint)."""
        runs = self._runs
        old = runs.get(start)
        if old is not None and len(old[0]) - old[2] >= count:
            return  # read already
        t, n = self.doc.t, self.doc.n
        find = t.find
        cache = self._loose
        keys: list[str] = []
        ends: list[int] = []  # the position after each line
        p = start
        for _ in range(count):
            if p >= n:
                break
            e = find("\n", p)
            nxt = n if e < 0 else e + 1
            key = cache.get(p)
            if key is None:
                key = cache[p] = loose(t[p:] if e < 0 else t[p:e])
            keys.append(key)
            ends.append(nxt)
            p = nxt
        size = len(keys)
        at = start
        for i in range(size):
            # Where runs overlap, a line start keeps the run that reaches further past it.
            old = runs.get(at)
            if old is None or len(old[0]) - old[2] < size - i:
                runs[at] = (keys, ends, i)
            at = ends[i]

    def style_near(self, start: int) -> indent.Style:
        """The indentation style of the file around ``start`` (40 lines either side)."""
        if start not in self._styles:
            self.budget.lines(80)
            doc = self.doc
            top = doc.back(start, 40)
            if top is None:
                top = 0
            got = doc.lines_at(top, 80) or (doc.t[top:].split("\n"), doc.n)
            model = self.lines
            self._styles[start] = indent.detect(got[0], model)
        return self._styles[start]


def nearest(
    above: Iterator[T], below: Iterator[T], line_no: Callable[[T], int], hint: int
) -> Iterator[T]:
    """Merge items above the hint (nearest first) and below it (nearest first) by the
    distance of their lines to ``hint``; on a tie, the one above first."""
    a, b = next(above, None), next(below, None)
    da = 0 if a is None else abs(hint - line_no(a))
    db = 0 if b is None else abs(line_no(b) - hint)
    while a is not None or b is not None:
        if b is None or (a is not None and da <= db):
            assert a is not None
            yield a
            a = next(above, None)
            da = 0 if a is None else abs(hint - line_no(a))
        else:
            yield b
            b = next(below, None)
            db = 0 if b is None else abs(line_no(b) - hint)


def line_of(doc: Doc, hit: Hit) -> int:
    """The hit's 0-based first line (counted once, on demand: it costs a scan)."""
    if hit.line < 0:
        hit.line = doc.line_no(hit.start)
    return hit.line


def block_lines(text: str) -> tuple[list[str], int, int]:
    """The lines of a model block (a final newline ends the last line, it does not open one),
    without blank lines at either end, and how many were dropped at each end."""
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    lead = 0
    while lead < len(lines) and not lines[lead].strip():
        lead += 1
    if lead == len(lines):
        return [], lead, 0
    trail = 0
    while not lines[-1 - trail].strip():
        trail += 1
    return lines[lead : len(lines) - trail], lead, trail
