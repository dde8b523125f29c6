"""Lazy snippets as models write them, by shape: a hand-made corpus (issue 17).

Each case is a directory under ``benchmarks/lazy_shapes/``: ``before.<ext>`` (the file),
``snippet.<ext>`` (what the model wrote, without the chat fence), ``after.<ext>`` (the file a
careful reader makes of it; absent when no reader could place the snippet for sure, and the
merge must refuse), optionally ``after_keep_narration.<ext>`` (the file when the comments
that narrate the edit are kept), and ``case.toml``::

    shape = 1            # 1..8, "refuse" or "plain" (see SHAPES)
    lang = "tsx"         # one of LANGS
    path = "src/components/Button.tsx"   # the path the model named; its extension is the files'
    note = "one line: what the case tests"
    narration = true     # optional: the snippet holds narration comments
    full_rewrite = true  # optional (shape 5): the snippet is the whole new file

Files are read as bytes and decoded as UTF-8, so line endings and a missing final newline
are part of the expected text.

A merge (``Merge``) takes the path, the file and the snippet and returns the merged text, or
raises :class:`~applydiff.errors.EditError` when it refuses. :func:`run` measures one on the
cases; :func:`engine_merge` is the merge the engine runs for a ``Lazy`` op.
"""

from __future__ import annotations

import time
import tomllib
import traceback
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from ..engine import apply_ops
from ..errors import EditError
from ..ir import Lazy
from . import outcome

# The directory of the cases in a source checkout.
ROOT = Path(__file__).resolve().parents[3] / "benchmarks" / "lazy_shapes"

SHAPES: dict[int | str, str] = {
    1: "segment opening and closing a block, placed by common closers",
    2: "whole definition with changed or new members",
    3: "new imports at the top, without an anchor",
    4: "leading comment lines of new code",
    5: "definitions without markers, or the whole file",
    6: "stylesheets, SQL and templates",
    7: "narration comments",
    8: "a blank line before a marker",
    "refuse": "must be refused",
    "plain": "plain marker-delimited segments",
}
LANGS = (
    "tsx",
    "jsx",
    "ts",
    "js",
    "css",
    "scss",
    "rust",
    "go",
    "java",
    "c",
    "python",
    "sql",
    "vue",
    "html",
    "yaml",
    "markdown",
)
REQUIRED_KEYS = ("shape", "lang", "path", "note")
OPTIONAL_KEYS = ("narration", "full_rewrite")

# What a merge did with a case.
OUTCOMES = ("correct", "correct_refusal", "refused", "whitespace_off", "misapplied", "crashed")
WRONG = ("whitespace_off", "misapplied", "crashed")

Merge = Callable[[str, str, str], str]


class CaseError(ValueError):
    """A case directory that cannot be read as a case."""


@dataclass(frozen=True)
class Case:
    """One case, read from its directory (``id`` is the directory's name)."""

    id: str
    dir: Path
    shape: int | str
    lang: str
    path: str
    note: str
    before: str
    snippet: str
    after: str | None
    after_keep_narration: str | None = None
    narration: bool = False
    full_rewrite: bool = False

    @property
    def ext(self) -> str:
        return _ext(self.path)

    @property
    def must_refuse(self) -> bool:
        return self.after is None

    def expected(self, keep_narration: bool = False) -> str | None:
        """The text the file must hold afterwards (None: the merge must refuse)."""
        if keep_narration and self.after_keep_narration is not None:
            return self.after_keep_narration
        return self.after


@dataclass(frozen=True)
class Outcome:
    """What a merge did with a case: one of OUTCOMES, the time it took, the error's message
    (refused, crashed: the traceback) and the text it returned when that was wrong."""

    case: Case
    outcome: str
    seconds: float
    error: str = ""
    actual: str | None = None

    @property
    def wrong(self) -> bool:
        return self.outcome in WRONG


def _ext(path: str) -> str:
    name = path.rsplit("/", 1)[-1]
    return name.rsplit(".", 1)[-1] if "." in name else ""


def _read(path: Path) -> str:
    return path.read_bytes().decode("utf-8")


def load_case(directory: Path) -> Case:
    """The case in ``directory``; raises :class:`CaseError` when it cannot be read."""
    toml_path = directory / "case.toml"
    if not toml_path.is_file():
        raise CaseError(f"{directory.name}: no case.toml")
    try:
        meta = tomllib.loads(_read(toml_path))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise CaseError(f"{directory.name}: case.toml: {e}") from e
    for key in REQUIRED_KEYS:
        if key not in meta:
            raise CaseError(f"{directory.name}: case.toml has no {key!r}")
    path = meta["path"]
    if not isinstance(path, str) or not _ext(path):
        raise CaseError(f"{directory.name}: path {path!r} has no extension")
    ext = _ext(path)

    def optional(name: str) -> str | None:
        f = directory / f"{name}.{ext}"
        return _read(f) if f.is_file() else None

    before, snippet = optional("before"), optional("snippet")
    if before is None or snippet is None:
        raise CaseError(f"{directory.name}: before.{ext} and snippet.{ext} are both required")
    return Case(
        id=directory.name,
        dir=directory,
        shape=meta["shape"],
        lang=meta["lang"],
        path=path,
        note=meta["note"],
        before=before,
        snippet=snippet,
        after=optional("after"),
        after_keep_narration=optional("after_keep_narration"),
        narration=meta.get("narration", False),
        full_rewrite=meta.get("full_rewrite", False),
    )


def load(root: Path = ROOT) -> list[Case]:
    """Every case under ``root``, in the order of their directory names."""
    return [load_case(d) for d in sorted(root.iterdir()) if d.is_dir()]


def problems(case: Case) -> list[str]:
    """What is wrong with a case that loads: unknown keys or values, files that do not fit
    its shape, an expected text that is no edit."""
    out: list[str] = []
    meta = tomllib.loads(_read(case.dir / "case.toml"))
    unknown = set(meta) - set(REQUIRED_KEYS) - set(OPTIONAL_KEYS)
    if unknown:
        out.append(f"unknown keys in case.toml: {sorted(unknown)}")
    if case.shape not in SHAPES or isinstance(case.shape, bool):
        out.append(f"shape {case.shape!r} is not one of {list(SHAPES)}")
    if case.lang not in LANGS:
        out.append(f"lang {case.lang!r} is not one of {list(LANGS)}")
    if case.id.split("-", 2)[1:2] != [case.lang]:
        out.append(f"the directory name does not read '<NNN>-{case.lang}-<name>'")
    if not isinstance(case.note, str) or not case.note.strip() or "\n" in case.note:
        out.append("note must be one line")
    for key in OPTIONAL_KEYS:
        if not isinstance(meta.get(key, False), bool):
            out.append(f"{key} must be true or false")
    expected_files = {f"before.{case.ext}", f"snippet.{case.ext}", "case.toml"}
    if case.after is not None:
        expected_files.add(f"after.{case.ext}")
    if case.after_keep_narration is not None:
        expected_files.add(f"after_keep_narration.{case.ext}")
    stray = {f.name for f in case.dir.iterdir()} - expected_files
    if stray:
        out.append(f"files that are not part of a case: {sorted(stray)}")
    if (case.shape == "refuse") != (case.after is None):
        out.append("after is absent exactly when the shape is 'refuse'")
    if case.after is not None:
        if case.after == case.before:
            out.append("after is the same as before")
        if case.full_rewrite != (case.snippet == case.after):
            out.append("the snippet is the expected file exactly when full_rewrite is set")
    if case.full_rewrite and case.shape != 5:
        out.append("full_rewrite is a shape 5 case")
    if case.after_keep_narration is not None:
        if not case.narration:
            out.append("after_keep_narration without narration = true")
        if case.after_keep_narration == case.after:
            out.append("after_keep_narration is the same as after (leave it out)")
    if case.narration and case.shape != 7:
        out.append("narration = true is a shape 7 case")
    return out


def engine_merge(path: str, before: str, snippet: str, *, keep_narration: bool = False) -> str:
    """The file merged as the engine applies a ``Lazy`` op on ``path`` (the merge sees the
    path: its extension picks the language). Raises the op's ``EditError`` on refusal."""
    result = apply_ops([Lazy(path, snippet)], {path: before}, keep_narration=keep_narration)
    if result.errors:
        raise result.errors[0].error
    if len(result.changes) != 1 or result.changes[0].after is None:
        raise RuntimeError(f"the engine changed {result.summary()} for one Lazy op on {path}")
    return result.changes[0].after


def engine_merge_keeping_narration(path: str, before: str, snippet: str) -> str:
    """:func:`engine_merge` with the narration comments kept (``--keep-narration``)."""
    return engine_merge(path, before, snippet, keep_narration=True)


def classify(expected: str | None, actual: str | None) -> str:
    """The outcome of a merge that returned ``actual`` (None: it refused) where ``expected``
    is the right text (None: it must refuse): the bench's outcomes, a right refusal named
    apart from a right merge."""
    got = outcome.classify(expected, actual)
    return "correct_refusal" if got == "correct" and actual is None else got


def run_case(case: Case, merge: Merge = engine_merge, *, keep_narration: bool = False) -> Outcome:
    """One case through ``merge``; ``keep_narration`` checks against the text that keeps
    the narration (pass a merge that keeps it)."""
    expected = case.expected(keep_narration)
    t0 = time.perf_counter()
    try:
        actual = merge(case.path, case.before, case.snippet)
    except EditError as e:
        seconds = time.perf_counter() - t0
        return Outcome(case, classify(expected, None), seconds, error=e.message)
    except Exception:  # a bug in the merge: report it, do not stop the run
        seconds = time.perf_counter() - t0
        return Outcome(case, "crashed", seconds, error=traceback.format_exc())
    seconds = time.perf_counter() - t0
    outcome = classify(expected, actual)
    return Outcome(case, outcome, seconds, actual=None if outcome == "correct" else actual)


def run(
    cases: Iterable[Case], merge: Merge = engine_merge, *, keep_narration: bool = False
) -> list[Outcome]:
    """Every case through ``merge``, in order."""
    return [run_case(c, merge, keep_narration=keep_narration) for c in cases]


__all__ = [
    "LANGS",
    "OUTCOMES",
    "ROOT",
    "SHAPES",
    "WRONG",
    "Case",
    "CaseError",
    "Merge",
    "Outcome",
    "classify",
    "engine_merge",
    "engine_merge_keeping_narration",
    "load",
    "load_case",
    "problems",
    "run",
    "run_case",
]
