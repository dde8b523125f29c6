"""Search text copied with a numbered read's line numbers (issue 15, item 4)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

import applydiff
from applydiff import NoMatch, Workspace
from applydiff.match import replace_with_matches
from applydiff.match.numbered import strip_numbers

FILE = (
    "def f():\n    a = 1\n    b = 2\n    return a + b\n\n\n"
    "def g():\n    a = 1\n    b = 2\n    return a - b\n"
)


def replaced(old: str, new: str, text: str = FILE) -> tuple[str, str, int | None]:
    out, matches = replace_with_matches(text, old, new, report=True)
    return out, matches[0].tier, matches[0].start_line


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # applydiff's read_file, numbers in both
        ("   8|     a = 1\n   9|     b = 2\n", "   8|     a = 1\n   9|     b = 3\n"),
        # 'N | text', numbers in the search only
        ("8 |     a = 1\n9 |     b = 2\n", "    a = 1\n    b = 3\n"),
        # cat -n
        ("     8\t    a = 1\n     9\t    b = 2\n", "     8\t    a = 1\n     9\t    b = 3\n"),
        # an arrow
        ("     8→    a = 1\n     9→    b = 2\n", "    a = 1\n    b = 3\n"),
    ],
    ids=["read_file", "bar", "cat-n", "arrow"],
)
def test_numbers_are_stripped_and_pick_the_place(old, new):
    out, tier, line = replaced(old, new)
    assert out == FILE.replace("b = 2\n    return a - b", "b = 3\n    return a - b")
    assert (tier, line) == ("line_numbers", 8)


def test_blank_lines_may_lose_their_numbers():
    old = "   4|     return a + b\n\n   6|\n   7| def g():\n"
    out, tier, line = replaced(old, "    return a + b\n\n\ndef h():\n")
    assert out == FILE.replace("def g", "def h")
    assert (tier, line) == ("line_numbers", 4)


def test_numbers_that_do_not_count_the_lines_are_not_stripped():
    with pytest.raises(NoMatch):
        replaced("   2|     a = 1\n   4|     b = 2\n", "    a = 5\n")


def test_a_file_whose_lines_start_with_numbers_is_matched_as_it_is():
    text = "1 | one\n2 | two\n3 | three\none\ntwo\n"
    out, tier, _ = replaced("1 | one\n2 | two\n", "1 | uno\n2 | two\n", text)
    assert out == "1 | uno\n2 | two\n3 | three\none\ntwo\n"
    assert tier == "exact"


def test_a_response_with_numbered_search_text_lands_on_disk(tmp_path):
    (tmp_path / "m.py").write_bytes(FILE.replace("\n", "\r\n").encode())
    answer = (
        "m.py\n```python\n<<<<<<< SEARCH\n   9|     b = 2\n  10|     return a - b\n=======\n"
        "   9|     b = 2\n  10|     return b - a\n>>>>>>> REPLACE\n```\n"
    )
    result = Workspace(tmp_path).apply(answer)
    assert result.ok, result.errors
    expected = FILE.replace("return a - b", "return b - a").replace("\n", "\r\n")
    assert (tmp_path / "m.py").read_bytes() == expected.encode()
    assert [e["tier"] for e in result.edits] == ["line_numbers"]


def test_the_tier_is_named_in_the_ladder_after_the_literal_tiers():
    tiers = list(applydiff.TIERS)
    assert tiers.index("line_numbers") == tiers.index("characters") + 1


@given(
    st.lists(st.text(alphabet="ab \t|→1", max_size=8), min_size=1, max_size=6),
    st.integers(1, 5000),
    st.sampled_from(["{n:>4}| {x}", "{n} | {x}", "{n:>6}\t{x}", "{n:>5}→{x}"]),
)
def test_strip_numbers_undoes_each_numbered_read(lines, start, shape):
    numbered = "\n".join(shape.format(n=start + i, x=x) for i, x in enumerate(lines))
    assert strip_numbers(numbered, consecutive=True) == ("\n".join(lines), start)
