"""The state one search shares between tiers: the query, candidate windows, and hits."""

from __future__ import annotations

from dataclasses import dataclass, field

from . import anchors, indent
from .doc import Doc
from .normalize import CharUndo


@dataclass
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
    truncated: frozenset[int] = frozenset()
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


@dataclass
class Search:
    """One lookup of ``old`` in ``doc``. Built once per call; tiers read from it."""

    doc: Doc
    old: str
    hint: int | None = None  # 0-based line
    threshold: float = 0.0
    replace_all: bool = False
    lines: list[str] = field(init=False)
    lead_blank: int = field(init=False)
    trail_blank: int = field(init=False)
    _starts: dict[tuple[str, ...], list[int] | None] = field(init=False, default_factory=dict)
    _windows: dict[tuple[int, int], tuple[list[str], int] | None] = field(
        init=False, default_factory=dict
    )
    _styles: dict[int, indent.Style] = field(init=False, default_factory=dict)
    fuzzy_scored: list[tuple[float, int, int, int]] | None = field(init=False, default=None)

    def __post_init__(self) -> None:
        self.lines, self.lead_blank, self.trail_blank = block_lines(self.old)

    # -- candidate windows ----------------------------------------------------------------
    def starts(self, lines: list[str]) -> list[int] | None:
        """Start positions of every window where ``lines`` could match under a line-level
        normalization (a superset), or None when ``lines`` has no run to probe with."""
        key = tuple(lines)
        if key in self._starts:
            return self._starts[key]
        doc = self.doc
        best: list[int] | None = None
        best_k = 0
        for k, run in anchors.probes(lines, 3):
            hits = doc.find_all(run, anchors.COMMON)
            if best is None or len(hits) < len(best):
                best, best_k, probe = hits, k, run
            if len(hits) <= anchors.COMMON:
                break
        if best is None:
            self._starts[key] = None
            return None
        if len(best) > anchors.COMMON:
            best = doc.find_all(probe, 1 << 62)
        out = self.window_starts(best, best_k)
        self._starts[key] = out
        return out

    def window_starts(self, positions: list[int], k: int) -> list[int]:
        """Line starts ``k`` lines above each position (deduplicated, in order)."""
        doc = self.doc
        seen: set[int] = set()
        out: list[int] = []
        last_line_start = -1
        for p in positions:
            ls = doc.line_start(p)
            if ls == last_line_start:
                continue
            last_line_start = ls
            s = doc.back(ls, k)
            if s is not None and s not in seen:
                seen.add(s)
                out.append(s)
        return out

    def all_starts(self) -> list[int]:
        """Every line start of the file (the fallback when nothing can be probed)."""
        t, find = self.doc.t, self.doc.t.find
        out = [0] if t else []
        p = find("\n")
        while p >= 0 and p + 1 < len(t):
            out.append(p + 1)
            p = find("\n", p + 1)
        return out

    def candidate_starts(self, lines: list[str]) -> list[int]:
        found = self.starts(lines)
        return self.all_starts() if found is None else found

    def window(self, start: int, count: int) -> tuple[list[str], int] | None:
        key = (start, count)
        if key not in self._windows:
            self._windows[key] = self.doc.lines_at(start, count)
        return self._windows[key]

    def style_near(self, start: int) -> indent.Style:
        """The indentation style of the file around ``start`` (100 lines either side)."""
        if start not in self._styles:
            doc = self.doc
            top = doc.back(start, 100)
            if top is None:
                top = 0
            got = doc.lines_at(top, 200) or (doc.t[top:].split("\n"), doc.n)
            model = self.lines
            self._styles[start] = indent.detect(got[0], model)
        return self._styles[start]


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
