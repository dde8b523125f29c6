"""The hand-made corpus of lazy snippets by shape (benchmarks/lazy_shapes, issue 17).

Every case directory must be well formed, and no case may be merged wrong through the engine:
a refusal is allowed (the merge does not place every shape yet), a misapplied,
whitespace-off or crashed merge is not, but for the cases listed in KNOWN_MISAPPLIED.
"""

from __future__ import annotations

from collections import Counter, defaultdict

import pytest

from applydiff.bench import lazy_shapes
from applydiff.bench.lazy_shapes import (
    LANGS,
    SHAPES,
    Case,
    classify,
    engine_merge,
    engine_merge_keeping_narration,
    load,
    problems,
    run,
    run_case,
)
from applydiff.errors import EditError

# Cases today's merge gets wrong (misapplied or whitespace-off), by id. Real defects, listed
# so that the test stays exact: when a fix makes one of them right (or makes another one
# wrong), this set must be updated.
KNOWN_MISAPPLIED: set[str] = set()
# The same, for the narration cases merged with the narration kept (against
# after_keep_narration).
KNOWN_MISAPPLIED_KEEPING_NARRATION: set[str] = set()

CASES = load()


def ids(cases: list[Case]) -> list[str]:
    return [c.id for c in cases]


def test_corpus_size_and_spread() -> None:
    assert len(CASES) >= 80
    assert len({c.id for c in CASES}) == len(CASES)
    assert len({c.id.split("-", 1)[0] for c in CASES}) == len(CASES), "numbers are unique"
    langs_by_shape: dict[int | str, set[str]] = defaultdict(set)
    for c in CASES:
        langs_by_shape[c.shape].add(c.lang)
    for shape in SHAPES:
        assert len(langs_by_shape[shape]) >= 3, f"shape {shape} in fewer than 3 languages"
    assert {c.lang for c in CASES} == set(LANGS)
    by_shape = Counter(c.shape for c in CASES)
    assert 0.08 <= by_shape["refuse"] / len(CASES) <= 0.15
    assert 0.08 <= by_shape["plain"] / len(CASES) <= 0.15
    assert any(c.full_rewrite for c in CASES)


@pytest.mark.parametrize("case", CASES, ids=ids(CASES))
def test_case_is_well_formed(case: Case) -> None:
    assert problems(case) == []
    assert case.before.strip() and case.snippet.strip()
    assert 40 <= len(case.before.splitlines()) <= 250, "files are 40-250 lines"


def test_no_case_is_merged_wrong() -> None:
    outcomes = run(CASES)
    crashed = [(o.case.id, o.error) for o in outcomes if o.outcome == "crashed"]
    assert crashed == []
    wrong = {o.case.id for o in outcomes if o.wrong}
    assert wrong == KNOWN_MISAPPLIED
    must_refuse = {c.id for c in CASES if c.must_refuse}
    assert {o.case.id for o in outcomes if o.outcome == "correct_refusal"} == must_refuse


def test_narration_kept_is_not_merged_wrong() -> None:
    cases = [c for c in CASES if c.narration]
    assert len(cases) >= 3
    outcomes = run(cases, engine_merge_keeping_narration, keep_narration=True)
    assert [o.case.id for o in outcomes if o.outcome == "crashed"] == []
    assert {o.case.id for o in outcomes if o.wrong} == KNOWN_MISAPPLIED_KEEPING_NARRATION


# -- the harness ----------------------------------------------------------------------------


def test_classify() -> None:
    assert classify("a\n", "a\n") == "correct"
    assert classify("a b\n", "a  b\n") == "whitespace_off"
    assert classify("a\n", "a\r\n") == "whitespace_off"
    assert classify("a\n", "b\n") == "misapplied"
    assert classify(None, "a\n") == "misapplied"
    assert classify("a\n", None) == "refused"
    assert classify(None, None) == "correct_refusal"


def test_run_case_outcomes() -> None:
    case = next(c for c in CASES if not c.must_refuse)
    assert case.after is not None

    def returns(text: str) -> lazy_shapes.Merge:
        return lambda path, before, snippet: text

    def refuses(path: str, before: str, snippet: str) -> str:
        raise EditError("cannot place it")

    def crashes(path: str, before: str, snippet: str) -> str:
        raise KeyError("bug")

    assert run_case(case, returns(case.after)).outcome == "correct"
    assert run_case(case, returns(case.after + "\n")).outcome == "whitespace_off"
    assert run_case(case, returns(case.before)).outcome == "misapplied"
    refused = run_case(case, refuses)
    assert (refused.outcome, refused.error) == ("refused", "cannot place it")
    crashed = run_case(case, crashes)
    assert crashed.outcome == "crashed" and "KeyError" in crashed.error


def test_engine_merge_passes_the_path() -> None:
    # The path's extension picks the language: a Python file's narration comment (one that
    # labels the change) is left out, so the engine saw the path.
    before = "".join(f"def f{k}():\n    return {k}\n\n\n" for k in range(3))
    snippet = "# ... existing code ...\ndef f1():\n    # Updated: return 10 instead of 1\n"
    snippet += "    return 10\n# ... existing code ...\n"
    merged = engine_merge("pkg/mod.py", before, snippet)
    assert "return 10" in merged and "Updated:" not in merged
    with pytest.raises(EditError):
        engine_merge("pkg/mod.py", before, "# ... existing code ...\nnot in the file\n")
