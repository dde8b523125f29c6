"""Edit cases for the benchmarks, built from real source files on this machine.

A case is what a model sends to change one line of a file it remembers imperfectly: a block of
5-20 lines of the file as ``old``, the same block with one line changed, inserted or deleted
as ``new``, both carrying the same *noise* (how the model's memory differs from the file), and
the exact text the file must hold afterwards, or ``None`` when the engine must refuse.

The intended edit is made on the block as the file holds it, so ``expected`` is known exactly:
lines the model did not change keep the file's bytes, changed lines come out in the file's
style. Everything is deterministic for a given seed and set of files.

Two sets of files: the standard library's Python (the default), and the *foreign* corpus
(``files="foreign"``: C headers, npm's JavaScript, C/C++, Perl, CSS/HTML, Go found on the
machine, ``sources.foreign_groups``). Lines the generator writes (new statements, comments,
elision markers) are in the file's language (``langs.Lang``). Some kinds put noise in ``old``
only (``LINE_KINDS``: a misquoted or cut line that ``new`` writes as the file has it).

``TABLE`` holds every kind once: the function that makes it, whether the engine must resolve
or refuse it, and the runs that take it; the tuples of kind names below are read from it.

>>> cases = generate(["exact"], 1, seed=0)
>>> cases[0].kind, cases[0].expected is not None
('exact', True)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from . import kinds_copied, kinds_noise, kinds_refused, kinds_twins
from .case_maker import Case, CaseMaker, Kind
from .sources import source_files

_LINE_RUNS = frozenset({"stdlib", "foreign"})  # the issue-14 kinds: not in ``applydiff bench``

# Every kind, in the order the reports list them: those ``applydiff bench`` runs that must
# resolve, those it runs that must be refused, then the noise on copied lines (issue 14).
TABLE: tuple[Kind, ...] = (
    Kind("exact", kinds_noise.exact),
    Kind("trailing_ws", kinds_noise.trailing_ws, noisy=True),
    Kind("dedented", kinds_noise.dedented, noisy=True),
    Kind("over_indented", kinds_noise.over_indented, noisy=True),
    Kind("tabs_spaces", kinds_noise.tabs_spaces, noisy=True),
    Kind(
        "first_line_unindented",
        kinds_noise.first_line_unindented,
        noisy=True,
        verbatim_ok=True,  # a selection that starts mid-line is in the file, by design
    ),
    Kind("truncated_boundary", kinds_noise.truncated_boundary, noisy=True),
    Kind("typo1", kinds_noise.typo1, noisy=True, fuzzy=True),
    Kind("typo2", kinds_noise.typo2, noisy=True, fuzzy=True),
    Kind("escaped_quotes", kinds_noise.escaped_quotes, noisy=True),
    Kind("smart_quotes", kinds_noise.smart_quotes, noisy=True),
    Kind("elision", kinds_noise.elision, noisy=True),
    Kind("crlf", kinds_noise.crlf),
    Kind("trailing_newline_missing", kinds_noise.trailing_newline_missing),
    Kind("duplicated_hint", kinds_twins.duplicated_hint),
    Kind("twins", kinds_twins.twins),
    Kind("typo3", kinds_noise.typo3, noisy=True, fuzzy=True),
    Kind("missing_line", kinds_noise.missing_line, noisy=True, fuzzy=True),
    Kind("extra_line", kinds_noise.extra_line, noisy=True, fuzzy=True),
    Kind("stale_line", kinds_noise.stale_line, noisy=True, fuzzy=True),
    Kind("short_block_typo", kinds_noise.short_block_typo, noisy=True, fuzzy=True),
    Kind("absent", kinds_refused.absent, must_refuse=True, fuzzy=True),
    Kind("hallucinated", kinds_refused.hallucinated, must_refuse=True, fuzzy=True),
    Kind("duplicated_no_hint", kinds_twins.duplicated_no_hint, must_refuse=True),
    Kind("hallucinated_light", kinds_refused.hallucinated_light, must_refuse=True, fuzzy=True),
    Kind("wrong_file", kinds_refused.wrong_file, must_refuse=True, fuzzy=True),
    Kind("misquote_fixed", kinds_copied.misquote_fixed, corpora=_LINE_RUNS, noisy=True),
    Kind(  # the standard library has no tabs
        "tabs_as_spaces", kinds_copied.tabs_as_spaces, corpora=frozenset({"foreign"}), noisy=True
    ),
    Kind("cut_first_line", kinds_copied.cut_first_line, corpora=_LINE_RUNS, noisy=True),
    Kind("cut_last_line", kinds_copied.cut_last_line, corpora=_LINE_RUNS, noisy=True),
    Kind("odd_line_breaks", kinds_copied.odd_line_breaks, corpora=_LINE_RUNS),
    Kind("cr_only", kinds_copied.cr_only, corpora=_LINE_RUNS),
)
KIND_BY_NAME = {k.name: k for k in TABLE}


def _names(*, corpus: str, must_refuse: bool | None = None) -> tuple[str, ...]:
    """The kinds ``corpus`` runs (those that must be refused, or resolved, only), in order."""
    return tuple(
        k.name for k in TABLE if corpus in k.corpora and must_refuse in (None, k.must_refuse)
    )


# Kinds the engine must resolve to ``expected``, and those it must refuse (``expected`` None).
RESOLVE_KINDS = _names(corpus="bench", must_refuse=False)
REFUSE_KINDS = _names(corpus="bench", must_refuse=True)
KINDS = RESOLVE_KINDS + REFUSE_KINDS  # the standard-library corpus of ``applydiff bench``
# Noise on the lines a model copies (issue 14); all must resolve. Kept apart from ``KINDS`` so
# that ``applydiff bench`` keeps its corpus; ``benchmarks/accuracy.py`` runs them too.
LINE_KINDS = tuple(k.name for k in TABLE if "bench" not in k.corpora)
ALL_KINDS = tuple(k.name for k in TABLE)
# What ``benchmarks/accuracy.py`` runs on each corpus.
STDLIB_KINDS = _names(corpus="stdlib")
FOREIGN_KINDS = _names(corpus="foreign")
# Kinds whose outcome hinges on the fuzzy tier's similarity threshold; the must-refuse ones
# list ``absent`` last, as the accuracy report always has.
FUZZY_KINDS = tuple(sorted((k.name for k in TABLE if k.fuzzy), key=lambda n: n == "absent"))
# Kinds whose ``old`` must differ from every stretch of the file (the noise changed something).
NOISY_KINDS = frozenset(k.name for k in TABLE if k.noisy)


class Generator(CaseMaker):
    """Makes cases of the kind named ``kind`` (one of ``ALL_KINDS``)."""

    def __init__(self, kind: str, seed: int, files: list[str]) -> None:
        if kind not in KIND_BY_NAME:
            raise ValueError(f"unknown kind {kind!r}; kinds: {', '.join(ALL_KINDS)}")
        super().__init__(KIND_BY_NAME[kind], seed, files)

    def take(self, want: int, tries: int, keep: Callable[[Case], bool] | None = None) -> list[Case]:
        """Up to ``want`` cases (those ``keep`` accepts), in at most ``tries`` attempts."""
        out: list[Case] = []
        for _ in range(tries):
            if len(out) == want:
                break
            case = self.make()
            if case is not None and (keep is None or keep(case)):
                out.append(case)
        return out


def generate(
    kinds: Iterable[str] = KINDS,
    per_kind: int = 200,
    seed: int = 0,
    files: str | None = None,
    *,
    max_tries: int = 400,
) -> list[Case]:
    """``per_kind`` cases of each kind (fewer when ``max_tries * per_kind`` attempts do not
    find enough), from the files ``source_files(files)`` lists."""
    paths = source_files(files)
    if not paths:
        raise ValueError(f"no source files match {files!r}")
    out: list[Case] = []
    for kind in kinds:
        out += Generator(kind, seed, paths).take(per_kind, per_kind * max_tries)
    return out
