"""Realistic records for ``applydiff batch``, from the bench corpus: ``applydiff bench --emit-batch
N``, the batch tests and ``benchmarks/batch.py``.

A record holds 1-3 edits (half have one, 30% two, 20% three), each in its own file of 200 to
2,000 lines of this machine's sources (the standard library's Python, and the corpus's foreign
files: C headers, npm's JavaScript, C sources, Perl, CSS and HTML). Each edit is a corpus case
(``corpus.TABLE``), drawn by a *mix* (``MIXES``): ``realistic`` (the default) has 70% copied
exactly, 25% with one of the noise kinds the file's corpus runs and 5% of a kind the engine must
refuse (models copy most search text right; whitespace, typos and elisions make the rest);
``noisy`` has 40%, 50% and 10%, a stress test of the fuzzy tiers. The answer is written in one
format per record: SEARCH/REPLACE blocks (35%), a unified diff (20%, always when an edit needs
its line number), codex's apply_patch (15%), ``edit_file`` tool calls as JSON (20%) and
``apply_diff`` tool calls carrying SEARCH/REPLACE text (10%). ``expected`` is the files as the
intended edits leave them; with an edit that must be refused it is ``{}`` (nothing may change:
the engine applies an answer all or nothing).

Records are combinations drawn from a pool of cases made once (``pool`` cases, by default about
as many as records, at most 1,500), so making a million records costs the pool and a little
assembly each. Everything is deterministic for a seed.
"""

from __future__ import annotations

import difflib
import json
import os
import random
import sysconfig
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from .case_maker import Case
from .corpus import FOREIGN_KINDS, KIND_BY_NAME, STDLIB_KINDS, Generator
from .sources import FOREIGN, source_files

MIN_LINES, MAX_LINES = 200, 2000  # a record's files
EDITS = ((1, 0.5), (2, 0.3), (3, 0.2))  # edits per record, and how often
# mix -> (share of edits copied exactly, with noise); the rest must be refused
MIXES = {"realistic": (0.7, 0.25), "noisy": (0.4, 0.5)}
FORMATS = (  # the answer's format, and how often
    ("search_replace", 0.35),
    ("unified", 0.2),
    ("apply_patch", 0.15),
    ("edit_file", 0.2),
    ("apply_diff", 0.1),
)
MAX_POOL = 1500
_TRIES = 60  # attempts per case the pool asks a kind for


@dataclass(frozen=True)
class Edit:
    """A corpus case, with the path its record names the file by."""

    case: Case
    path: str

    @property
    def refuse(self) -> bool:
        return self.case.expected is None


def _sized(paths: list[str]) -> list[str]:
    """The files whose size could hold 200-2,000 lines (by their bytes, without reading
    them: a case on a file outside the range is dropped when made)."""
    out = []
    for p in paths:
        try:
            size = os.stat(p).st_size
        except OSError:
            continue
        if MIN_LINES * 8 <= size <= MAX_LINES * 80:
            out.append(p)
    return out


def _relative(path: str) -> str:
    """The path a record names a source file by: under the standard library's folder, or the
    absolute path without its leading slash."""
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    p = Path(path)
    if p.is_relative_to(stdlib):
        return "lib/" + p.relative_to(stdlib).as_posix()
    return p.as_posix().lstrip("/")


def _kind_weights(kinds: tuple[str, ...], mix: str) -> list[tuple[str, float]]:
    if mix not in MIXES:
        raise ValueError(f"unknown mix {mix!r}; mixes: {', '.join(MIXES)}")
    exact, noise = MIXES[mix]
    noisy = [k for k in kinds if k != "exact" and not KIND_BY_NAME[k].must_refuse]
    refused = [k for k in kinds if KIND_BY_NAME[k].must_refuse]
    out = [("exact", exact)]
    out += [(k, noise / len(noisy)) for k in noisy]
    out += [(k, (1 - exact - noise) / len(refused)) for k in refused]
    return out


def case_pool(size: int, seed: int = 0, mix: str = "realistic") -> list[Edit]:
    """``size`` cases (about; half from each corpus) on files of 200-2,000 lines."""
    pool: list[Edit] = []
    for corpus, kinds in ((None, STDLIB_KINDS), (FOREIGN, FOREIGN_KINDS)):
        paths = _sized(source_files(corpus))
        if not paths:
            continue
        for kind, weight in _kind_weights(kinds, mix):
            want = max(1, round(size / 2 * weight))
            cases = Generator(kind, seed, paths).take(
                want,
                want * _TRIES,
                lambda c: MIN_LINES <= c.text.count("\n") + 1 <= MAX_LINES + 1,
            )
            pool += [Edit(case, _relative(case.path)) for case in cases]
    if not pool:
        raise ValueError("no source files of 200-2,000 lines found to make records from")
    return pool


def _lines(text: str) -> list[str]:
    """The model's lines of a block (it writes LF; a last newline ends the last line)."""
    body = text[:-1] if text.endswith("\n") else text
    return body.split("\n")


def _search_replace(edits: list[Edit]) -> str:
    parts = ["Here are the changes:\n"]
    for e in edits:
        old, new = "\n".join(_lines(e.case.old)), "\n".join(_lines(e.case.new))
        parts.append(
            f"{e.path}\n```\n<<<<<<< SEARCH\n{old}\n=======\n{new}\n>>>>>>> REPLACE\n```\n"
        )
    return "\n".join(parts)


def _hunk_lines(case: Case) -> list[str]:
    old, new = _lines(case.old), _lines(case.new)
    out = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if op == "equal":
            out += [" " + x for x in old[i1:i2]]
        else:
            out += ["-" + x for x in old[i1:i2]]
            out += ["+" + x for x in new[j1:j2]]
    return out


def _unified(edits: list[Edit]) -> str:
    parts = []
    for e in edits:
        c = e.case
        start = c.hint_line or c.line or 1
        old, new = _lines(c.old), _lines(c.new)
        parts.append(
            f"--- a/{e.path}\n+++ b/{e.path}\n"
            f"@@ -{start},{len(old)} +{start},{len(new)} @@\n" + "\n".join(_hunk_lines(c)) + "\n"
        )
    return "```diff\n" + "".join(parts) + "```\n"


def _apply_patch(edits: list[Edit]) -> str:
    parts = ["*** Begin Patch\n"]
    for e in edits:
        parts.append(f"*** Update File: {e.path}\n@@\n" + "\n".join(_hunk_lines(e.case)) + "\n")
    parts.append("*** End Patch\n")
    return "".join(parts)


def _edit_file(edits: list[Edit]) -> list[dict[str, Any]]:
    return [
        {
            "name": "edit_file",
            "arguments": {"path": e.path, "old_string": e.case.old, "new_string": e.case.new},
        }
        for e in edits
    ]


def _apply_diff(edits: list[Edit]) -> list[dict[str, Any]]:
    calls = []
    for e in edits:
        old, new = "\n".join(_lines(e.case.old)), "\n".join(_lines(e.case.new))
        diff = f"<<<<<<< SEARCH\n{old}\n=======\n{new}\n>>>>>>> REPLACE\n"
        calls.append({"name": "apply_diff", "arguments": {"path": e.path, "diff": diff}})
    return calls


_WRITERS = {
    "search_replace": _search_replace,
    "unified": _unified,
    "apply_patch": _apply_patch,
    "edit_file": _edit_file,
    "apply_diff": _apply_diff,
}


def _pick(rng: random.Random, table: tuple[tuple[Any, float], ...]) -> Any:
    values, weights = zip(*table, strict=True)
    return rng.choices(values, weights)[0]


def record(rid: str, edits: list[Edit], fmt: str) -> dict[str, Any]:
    """The record of ``edits`` (on distinct paths) written in ``fmt``."""
    if any(e.case.hint_line is not None for e in edits):
        fmt = "unified"  # the edit is told apart from its twin by its line number only
    files = {e.path: e.case.text for e in edits}
    expected: dict[str, str | None] = {}
    if not any(e.refuse for e in edits):
        expected = {e.path: e.case.expected for e in edits}
    return {
        "id": rid,
        "files": files,
        "answer": _WRITERS[fmt](edits),
        "expected": expected,
        "meta": {"format": fmt, "kinds": [e.case.kind for e in edits]},
    }


def records(
    n: int, seed: int = 0, *, pool: int | None = None, mix: str = "realistic"
) -> Iterator[dict[str, Any]]:
    """``n`` records (ids ``"{seed}-{i}"``), made from a pool of ``pool`` cases."""
    if n <= 0:
        return
    cases = case_pool(pool or min(max(n, 60), MAX_POOL), seed, mix)
    rng = random.Random(f"applydiff-batch/{seed}")
    for i in range(n):
        count = _pick(rng, EDITS)
        chosen: list[Edit] = []
        for e in rng.sample(cases, min(len(cases), count * 3)):
            if len(chosen) == count:
                break
            if all(e.path != c.path for c in chosen):
                chosen.append(e)
        yield record(f"{seed}-{i}", chosen, _pick(rng, FORMATS))


def emit(
    n: int, seed: int, out: IO[str], *, pool: int | None = None, mix: str = "realistic"
) -> int:
    """Write ``n`` records as JSON Lines to ``out``; returns how many."""
    count = 0
    for rec in records(n, seed, pool=pool, mix=mix):
        out.write(json.dumps(rec, ensure_ascii=False))
        out.write("\n")
        count += 1
    return count
