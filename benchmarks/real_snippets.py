"""Lazy snippets that models really wrote (or other tools ship as fixtures), merged by the
engine and checked against the merged file their source records.

Nothing of the sources is in this repository: each is read at run time from a directory given
on the command line (a checkout, or the part of one extracted with ``git archive``):

* ``--continue DIR``: the lazy-apply test examples of the Continue IDE extension
  (``core/edit/lazy/test-examples/*.diff`` of ``continuedev/continue``; a pull request's
  larger set reads the same way). Each file is the original, the snippet and the expected
  result as a whole-file line diff (``+ `` added, ``- `` removed), cut by ``---`` lines. Those
  sections lose their trailing whitespace, so lines are compared as that project's test does
  (whitespace-only lines as empty, no final newline). A file whose diff does not give back its
  original is counted ``unreadable``, not merged.
* ``--morph DIR``: ``morphllm/coding-agent-bench``: five frontier models wrote ``edit_file``
  snippets (``code_edit``) for edits to eight real files; the merged file is what Morph's
  ``morph-v3-large`` made of it (``workspace/<model>/<file>/<query>_morph_*``), judged right by
  a model in 376 of 380 records. Runs where the model made more than one edit are skipped
  (only the last file is kept). Morph's outputs often lack the final newline their original
  has: that newline is put back before comparing (counted in the table's notes).
* ``--kortix DIR``: ``kortix-ai/fast-apply``'s evaluation example (``example_input.xml``,
  ``example_output.xml`` anywhere under DIR): the raw fast-apply call, with no path (the
  language is read from the content).

Each case is merged as the engine applies a ``Lazy`` op, and ends as ``correct`` (the
expected file), ``whitespace_off`` (the expected file but for whitespace: as wrong as
misapplied), ``reference_beyond`` (the merge kept the original's lines at every place where it
differs, and the reference wrote lines there that the snippet does not have: the reference
changed what nobody asked for; or the merge wrote a snippet line as the model wrote it where
the reference wrote it otherwise, much alike: the reference corrected the model's slip),
``misapplied`` (anything else), ``refused`` (an ``EditError``) or ``crashed``.
The expected files are another tool's or model's merge, not a person's: ``--show misapplied``
prints each difference so that it can be judged.

Usage::

    PYTHONPATH=src python benchmarks/real_snippets.py --continue DIR [--morph DIR]
        [--kortix DIR] [--show OUTCOME] [--json PATH] [--repeat N]

Prints a Markdown table per source and language (and the hand-written shapes corpus beside
them, ``benchmarks/lazy_shapes``), with the median milliseconds of a merge. Exits 1 when a
case crashed.
"""

from __future__ import annotations

import argparse
import difflib
import json
import re
import statistics
import sys
import time
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from applydiff.bench import lazy_shapes
from applydiff.bench.lazy_shapes import engine_merge
from applydiff.errors import EditError

COLUMNS = ("correct", "whitespace_off", "reference_beyond", "misapplied", "refused", "crashed")


@dataclass
class Case:
    source: str
    name: str
    path: str  # the path the merge is told (its extension picks the language)
    original: str
    snippet: str
    expected: str
    compare: Callable[[str], str] = lambda x: x  # how both sides are read before comparing
    notes: list[str] = field(default_factory=list)

    @property
    def lang(self) -> str:
        suffix = Path(self.path).suffix.lstrip(".")
        return suffix or "(none)"


@dataclass
class Outcome:
    case: Case
    outcome: str
    seconds: float
    detail: str = ""


# --- Continue's test examples ------------------------------------------------------------


def _continue_form(text: str) -> str:
    """A text as Continue's test compares it: whitespace-only lines empty, no trailing
    whitespace at the end."""
    return "\n".join("" if not x.strip() else x for x in text.split("\n")).rstrip()


def continue_cases(root: Path, source: str) -> tuple[list[Case], list[str]]:
    cases: list[Case] = []
    unreadable: list[str] = []
    for f in sorted(root.rglob("*.diff")):
        parts = f.read_text(encoding="utf-8").split("\n---\n")
        if len(parts) != 3:
            unreadable.append(f"{f.name}: {len(parts)} sections, not 3")
            continue
        original, snippet, result = (re.sub(r"^\n+", "", p).rstrip() for p in parts)
        lines = result.split("\n")
        expected = [x[2:] if x.startswith("+ ") else x for x in lines if not x.startswith("- ")]
        back = [x[2:] if x.startswith("- ") else x for x in lines if not x.startswith("+ ")]
        if _continue_form("\n".join(back)) != _continue_form(original):
            unreadable.append(f"{f.name}: its diff does not give back its original")
            continue
        name = f.name.removesuffix(".diff")
        cases.append(
            Case(
                source,
                name,
                name,
                original + "\n",
                snippet + "\n",
                "\n".join(expected) + "\n",
                _continue_form,
            )
        )
    return cases, unreadable


# --- Morph's coding-agent-bench ------------------------------------------------------------


def morph_cases(root: Path) -> tuple[list[Case], list[str]]:
    cases: list[Case] = []
    skipped: list[str] = []
    for log in sorted(root.glob("results/*/logs/detailed_*.json")):
        run_dir = log.parent.parent
        for rec in json.loads(log.read_text(encoding="utf-8")):
            if rec.get("method") != "morph":
                continue
            data = json.loads(rec["response_data"])
            calls = data.get("multi_turn_responses", [data])
            stem = Path(rec["file"]).name
            suffix = "single" if "multi_turn_responses" not in data else "multi"
            label = f"{rec['model']}/{stem}/{rec['query_id']}/{suffix}"
            if len(calls) != 1 or "code_edit" not in calls[0]:
                skipped.append(f"{label}: {len(calls)} edits (only the last file is kept)")
                continue
            original_path = root / "corpus" / stem
            merged_path = (
                run_dir
                / "workspace"
                / rec["model"]
                / Path(stem).stem
                / f"{rec['query_id']}_morph_{suffix}{Path(stem).suffix}"
            )
            if not original_path.exists() or not merged_path.exists():
                skipped.append(f"{label}: original or merged file missing")
                continue
            original = original_path.read_text(encoding="utf-8")
            expected = merged_path.read_text(encoding="utf-8")
            notes = []
            if original.endswith("\n") and not expected.endswith("\n"):
                expected += "\n"
                notes.append("final newline put back")
            cases.append(
                Case(
                    "morph",
                    label,
                    stem,  # the file's own name (a model's target_file may be garbled)
                    original,
                    calls[0]["code_edit"],
                    expected,
                    notes=notes,
                )
            )
    return cases, skipped


# --- Kortix's fast-apply example -----------------------------------------------------------


def _tag(text: str, name: str) -> str | None:
    m = re.search(rf"<{name}>\n?(.*?)</{name}>", text, re.S)
    return m.group(1) if m else None


def kortix_cases(root: Path) -> tuple[list[Case], list[str]]:
    cases: list[Case] = []
    skipped: list[str] = []
    for inp in sorted(root.rglob("example_input.xml")):
        out = inp.with_name("example_output.xml")
        text = inp.read_text(encoding="utf-8")
        original, update = _tag(text, "code"), _tag(text, "update")
        merged = _tag(out.read_text(encoding="utf-8"), "updated-code") if out.exists() else None
        if original is None or update is None or merged is None:
            skipped.append(f"{inp}: no <code>, <update> or <updated-code>")
            continue
        if original.endswith("\n") and not merged.endswith("\n"):
            merged += "\n"
        cases.append(Case("kortix", str(inp.parent.name), "snippet", original, update, merged))
    return cases, skipped


# --- running ---------------------------------------------------------------------------------


def run_case(case: Case) -> Outcome:
    start = time.perf_counter()
    try:
        merged = engine_merge(case.path, case.original, case.snippet)
    except EditError as e:
        return Outcome(case, "refused", time.perf_counter() - start, f"{e.code}: {e}")
    except Exception:  # an engine bug: counted, shown with --show crashed
        return Outcome(case, "crashed", time.perf_counter() - start, traceback.format_exc())
    seconds = time.perf_counter() - start
    got, want = case.compare(merged), case.compare(case.expected)
    if got == want:
        return Outcome(case, "correct", seconds)
    diff = "".join(
        difflib.unified_diff(
            want.splitlines(keepends=True),
            got.splitlines(keepends=True),
            "expected",
            "merged",
            n=1,
        )
    )
    if got.split() == want.split():
        kind = "whitespace_off"
    elif _reference_beyond(case, got, want):
        kind = "reference_beyond"
    else:
        kind = "misapplied"
    return Outcome(case, kind, seconds, diff)


def _corrects_the_snippet(theirs: list[str], ours: list[str], shown: set[str]) -> bool:
    """Line for line, the merge wrote the snippet's own lines and the reference wrote them
    otherwise, much alike (the model wrote ``"=\\")`` for ``"=")``, the reference fixed it)."""
    return (
        bool(ours)
        and len(theirs) == len(ours)
        and all(
            o in shown and t not in shown and difflib.SequenceMatcher(None, o, t).ratio() >= 0.8
            for t, o in zip(theirs, ours, strict=True)
        )
    )


def _reference_beyond(case: Case, got: str, want: str) -> bool:
    """Every difference is a place where the merge kept the original's lines and the
    reference wrote lines there that the snippet does not have (Morph rewrites a comment's
    spacing, or adds code nobody asked for), or dropped lines that the snippet could not have
    deleted: a snippet deletes only between two lines it shows, and the merge's lines on one
    side of the place are not in the snippet."""
    shown = {x.strip() for x in case.compare(case.snippet).splitlines() if x.strip()}
    original = {x.strip() for x in case.compare(case.original).splitlines()}
    g, w = got.splitlines(), want.splitlines()

    def neighbour(j: int, step: int) -> str | None:
        while 0 <= j < len(g) and not g[j].strip():
            j += step
        return g[j].strip() if 0 <= j < len(g) else None

    opcodes = difflib.SequenceMatcher(None, w, g, autojunk=False).get_opcodes()
    for tag, i1, i2, j1, j2 in opcodes:
        if tag == "equal":
            continue
        theirs = [x.strip() for x in w[i1:i2] if x.strip()]
        ours = [x.strip() for x in g[j1:j2] if x.strip()]
        if _corrects_the_snippet(theirs, ours, shown):
            continue
        if any(x in shown for x in theirs) or any(x not in original for x in ours):
            return False
        if not theirs and all(
            x is None or x in shown for x in (neighbour(j1 - 1, -1), neighbour(j2, 1))
        ):
            return False  # a drop between two shown lines: the snippet may have meant it
    return True


def _timed(case: Case, repeat: int) -> Outcome:
    """``run_case``, its time the median of ``repeat`` runs."""
    runs = [run_case(case) for _ in range(max(1, repeat))]
    first = runs[0]
    first.seconds = statistics.median(o.seconds for o in runs)
    return first


def table(title: str, outcomes: list[Outcome], key: Callable[[Case], str]) -> Iterator[str]:
    groups: dict[str, list[Outcome]] = {}
    for o in outcomes:
        groups.setdefault(key(o.case), []).append(o)
    yield f"| {title} | cases | " + " | ".join(COLUMNS) + " | median ms |"
    yield "|" + "---|" * (len(COLUMNS) + 3)
    for name, group in [*sorted(groups.items()), ("**all**", outcomes)]:
        counts = " | ".join(str(sum(o.outcome == c for o in group)) for c in COLUMNS)
        ms = statistics.median(o.seconds for o in group) * 1000
        yield f"| {name} | {len(group)} | {counts} | {ms:.2f} |"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--continue", dest="continue_dir", type=Path, action="append", default=[])
    ap.add_argument("--morph", type=Path)
    ap.add_argument("--kortix", type=Path)
    ap.add_argument("--show", choices=COLUMNS)
    ap.add_argument("--only", help="cases whose name holds this text")
    ap.add_argument("--json", type=Path, help="write every case's outcome here")
    ap.add_argument(
        "--repeat",
        type=int,
        default=1,
        help="merge each case this many times; its time is the median (steadier figures)",
    )
    args = ap.parse_args(argv)
    cases: list[Case] = []
    notes: list[str] = []
    seen: set[str] = set()
    for k, d in enumerate(args.continue_dir):
        found, bad = continue_cases(d, "continue" if k == 0 else f"continue-{k + 1}")
        # A later directory adds the examples the earlier ones lack (a pull request's set
        # holds the main line's too).
        cases += [c for c in found if c.name not in seen]
        seen |= {c.name for c in found}
        notes += [f"continue: unreadable {x}" for x in bad]
    if args.morph:
        found, bad = morph_cases(args.morph)
        cases += found
        notes.append(f"morph: {len(bad)} records skipped (more than one edit, or files missing)")
    if args.kortix:
        found, bad = kortix_cases(args.kortix)
        cases += found
        notes += [f"kortix: skipped {x}" for x in bad]
    if not cases:
        ap.error("no case read: give --continue, --morph or --kortix a directory holding them")
    if args.only:
        cases = [c for c in cases if args.only in c.name]
    outcomes = [_timed(c, args.repeat) for c in cases]
    print("## Real snippets by source\n")
    print("\n".join(table("source", outcomes, lambda c: c.source)))
    print("\n## By source and language\n")
    print("\n".join(table("source / language", outcomes, lambda c: f"{c.source} {c.lang}")))
    shapes = lazy_shapes.run(lazy_shapes.load())
    print("\n## Beside them: the hand-written shapes corpus (benchmarks/lazy_shapes)\n")
    counts = {c: sum(o.outcome == c for o in shapes) for c in lazy_shapes.OUTCOMES}
    print(", ".join(f"{k} {v}" for k, v in counts.items()) + f" of {len(shapes)}")
    put_back = sum("final newline put back" in c.notes for c in cases)
    print(f"\nNotes: {put_back} expected files had their final newline put back.")
    for n in notes:
        print(f"- {n}")
    if args.show:
        for o in outcomes:
            if o.outcome == args.show:
                print(f"\n### {o.case.source} {o.case.name} ({o.case.path})\n")
                print(o.detail.rstrip())
    if args.json:
        rows = [
            {
                "source": o.case.source,
                "name": o.case.name,
                "path": o.case.path,
                "outcome": o.outcome,
                "ms": round(o.seconds * 1000, 3),
                "detail": o.detail,
            }
            for o in outcomes
        ]
        args.json.write_text(json.dumps(rows, indent=1), encoding="utf-8")
    return 1 if any(o.outcome == "crashed" for o in outcomes) else 0


if __name__ == "__main__":
    sys.exit(main())
