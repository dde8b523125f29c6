"""What every kind of case shares: the case (``Case``), the kind's row in the corpus's
table (``Kind``), and the maker that picks a file and a block and assembles a checked case
(``CaseMaker``); the kinds' own makers are in the ``kinds_*`` modules."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from .block_lines import MAX_BLOCK, MIN_BLOCK, good_block, haystack, occurrences
from .intended_edit import Edit
from .langs import PY, Lang
from .noise import Noise
from .sources import Source, load


@dataclass(frozen=True)
class Case:
    """One edit: apply ``replace(text, old, new, hint_line=..., replace_all=...)``."""

    kind: str
    path: str
    text: str
    old: str
    new: str
    hint_line: int | None
    expected: str | None
    replace_all: bool = False
    line: int = 0  # 1-based first line of the intended block in ``text`` (0: none)
    note: str = ""  # how the case was made, for reports


@dataclass(frozen=True)
class Kind:
    """A kind of case: its name, the function that makes one (None when the files give none
    this try), what the engine must do with it, and the runs that take it."""

    name: str
    make: Callable[[CaseMaker], Case | None]
    must_refuse: bool = False  # ``expected`` is None: the engine must apply nothing
    # The runs that take the kind: "bench" (``applydiff bench``), "stdlib" and "foreign" (the
    # corpora of ``benchmarks/accuracy.py``).
    corpora: frozenset[str] = frozenset({"bench", "stdlib", "foreign"})
    fuzzy: bool = False  # the outcome hinges on the fuzzy tier's similarity threshold
    noisy: bool = False  # the noise must change ``old``: it differs from every stretch of the file
    verbatim_ok: bool = False  # a noisy ``old`` may still occur in the file (copied mid-line)


class CaseMaker:
    """Makes cases of one kind from a shuffled walk over the source files."""

    def __init__(self, kind: Kind, seed: int, files: list[str]) -> None:
        self.spec = kind
        self.kind = kind.name
        self.rng = random.Random(f"applydiff-corpus/{seed}/{kind.name}")
        self.files = files

    def make(self) -> Case | None:
        return self.spec.make(self)

    # -- picking ----------------------------------------------------------------------------
    def source(self, exclude: str = "") -> Source | None:
        path = self.rng.choice(self.files)
        return None if path == exclude else load(path)

    def block_at(
        self, lines: list[str], n: int, *, at_end: bool = False, lang: Lang = PY
    ) -> tuple[int, int]:
        size = self.rng.randint(MIN_BLOCK, MAX_BLOCK)
        if n < size + 2:
            return -1, size
        start = n - size if at_end else self.rng.randrange(0, n - size + 1)
        return (start, size) if good_block(lines[start : start + size], lang) else (-1, size)

    def other_line(self, block: list[str], edit: Edit) -> int | None:
        """A random line of ``block`` that the edit leaves alone and that has text enough to
        misquote (None when there is none)."""
        spots = [i for i, x in enumerate(block) if i != edit.at and len(x.strip()) >= 4]
        return self.rng.choice(spots) if spots else None

    def case(
        self,
        src: Source,
        lines: list[str],
        start: int,
        block: list[str],
        edit: Edit,
        noise: Noise,
        *,
        note: str = "",
        refuse: bool = False,
        hint: int | None = None,
        eol: str = "\n",
        final_newline: bool | None = None,
    ) -> Case | None:
        """Assemble and check a case: ``lines`` is the file as the engine sees it (with
        ``eol`` line endings), ``block`` the lines the model meant (at ``start``, unless
        ``refuse``); the model writes ``\n``."""
        edited, origin = edit.apply(block)
        if edited == block:
            return None
        old_lines = noise.render(block, list(range(len(block))), old=True)
        new_lines = noise.render(edited, origin)
        if final_newline is None:
            final_newline = self.rng.random() < 0.8
        tail = "\n" if final_newline else ""
        if start + len(block) == len(lines) and self.kind != "trailing_newline_missing":
            tail = ""  # the block ends a file without a final newline; so do old and new
        old, new = "\n".join(old_lines) + tail, "\n".join(new_lines) + tail
        text = "\n".join(lines)
        if old == new:
            return None
        if self.spec.noisy and old_lines == block:
            return None  # the noise changed nothing
        if self.spec.noisy and not self.spec.verbatim_ok and old in text:
            return None  # still verbatim in the file (a selection copied mid-line is, by design)
        expected = None
        if not refuse:
            expected = "\n".join(lines[:start] + edited + lines[start + len(block) :])
        if eol != "\n":
            text = text.replace("\n", eol)
            expected = expected.replace("\n", eol) if expected is not None else None
        parts = [edit.describe()] + ([note] if note else [])
        return Case(
            self.kind,
            src.path,
            text,
            old,
            new,
            hint,
            expected,
            line=0 if refuse else start + 1,
            note="; ".join(parts),
        )

    def plain(self, *, at_end: bool = False) -> tuple[Source, int, list[str]] | None:
        """A source and a good block in it that is unique (as text and as loose keys)."""
        src = self.source()
        if src is None:
            return None
        start, size = self.block_at(src.lines, src.n, at_end=at_end, lang=src.lang)
        if start < 0:
            return None
        if not self.unique_in(src, start, size):
            return None
        return src, start, src.lines[start : start + size]

    @staticmethod
    def unique_in(src: Source, start: int, size: int) -> bool:
        """``unique`` for a block of the file as loaded (with its cached keys)."""
        block = src.lines[start : start + size]
        if occurrences(src.text, "\n".join(block)) != 1:
            return False
        return occurrences(src.haystack, haystack(src.keys[start : start + size])) == 1
