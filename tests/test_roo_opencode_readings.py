"""Two readings other tools' own tests expect (issue 28, item 6): Roo Code's search text with
copied line numbers on some lines only (or bars without numbers), and OpenCode's whole-line
replacement of a line whose blanks differ inside the part it rewrites."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from applydiff import NoMatch
from applydiff.match import replace_with_matches
from applydiff.match.numbered import Partly, strip_some_numbers

JS = "function f() {\n    return x;\n}\n\nfunction g() {\n    return x;\n}\n"


def replaced(text: str, old: str, new: str) -> tuple[str, str]:
    out, matches = replace_with_matches(text, old, new, report=True)
    return out, matches[0].tier


# -- line numbers on some lines only -------------------------------------------------------------


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # numbered on some lines, each number its place in the block, in both
        ("1 | function f() {\n    return x;\n3 | }", "1 | function f() {\n    return y;\n3 | }"),
        # numbered on some lines in the search text only
        ("1 | function f() {\n    return x;\n3 | }", "function f() {\n    return y;\n}"),
        # bars without numbers on every line
        ("| function f() {\n|     return x;\n| }", "| function f() {\n|     return y;\n| }"),
        # a read's own bar form, an arrow
        ("   1| function f() {\n    return x;\n   3→}", "function f() {\n    return y;\n}"),
    ],
    ids=["numbers in both", "numbers in search", "bars only", "mixed forms"],
)
def test_prefixes_on_some_lines_are_read_as_the_file_lines(old, new):
    out, tier = replaced(JS, old, new)
    assert out == "function f() {\n    return y;\n}\n\nfunction g() {\n    return x;\n}\n"
    assert tier == "line_numbers"


def test_the_numbers_on_some_lines_pick_the_place_of_a_repeated_block():
    out, tier = replaced(JS, "    return x;\n7 | }", "    return z;\n7 | }")
    assert out == "function f() {\n    return x;\n}\n\nfunction g() {\n    return z;\n}\n"
    assert tier == "line_numbers"


def test_a_number_out_of_its_place_in_the_block_is_not_stripped():
    with pytest.raises(NoMatch) as e:
        replaced(JS, "1 | function f() {\n    return x;\n2 | }", "function f() {\n}")
    assert e.value.message.startswith("the search text was not found (any tier)")


def test_bars_on_some_lines_only_without_numbers_are_not_read():
    assert strip_some_numbers("| function f() {\n    return x;\n| }") is None
    assert strip_some_numbers("| a |\n\n| b |") == Partly("a |\n\nb |", None, True)


def test_a_file_whose_lines_start_with_bars_is_matched_as_it_is():
    text = "match x with\n| Some y -> y\n| None -> 0\n"
    out, tier = replaced(text, "| Some y -> y\n| None -> 0\n", "| Some y -> y + 1\n| None -> 0\n")
    assert (out, tier) == ("match x with\n| Some y -> y + 1\n| None -> 0\n", "exact")


def test_a_replacement_keeps_bars_when_the_search_text_had_numbers_only():
    text = "rows = [\n    1,\n]\n"
    out, tier = replaced(text, "1 | rows = [\n    1,\n3 | ]", "rows = [\n    1,\n]\n| table |")
    assert (out, tier) == ("rows = [\n    1,\n]\n| table |\n", "line_numbers")


def test_numbers_come_off_the_replacement_lines_that_have_them():
    """Every search line numbered, the model's added line not: before, the numbered lines
    were written into the file with their numbers."""
    text = "def f():\n    a = 1\n    b = 2\n    return a + b\n"
    old = "2 |     a = 1\n3 |     b = 2\n"
    out, tier = replaced(text, old, "2 |     a = 1\n    c = 0\n3 |     b = 2\n")
    assert out == "def f():\n    a = 1\n    c = 0\n    b = 2\n    return a + b\n"
    assert tier == "line_numbers"


LINES = st.lists(
    st.sampled_from(["def f(x):", "    y = x + 1", "", "    return y", "z = [1, 2]", "# note"]),
    min_size=1,
    max_size=6,
)


@given(LINES, st.integers(1, 9000), st.data())
def test_strip_some_numbers_undoes_numbers_on_any_lines(lines, start, data):
    """Numbers on any non-empty set of lines, each the number of its place, come off; the
    number of the first line is the block's."""
    marked = data.draw(st.sets(st.integers(0, len(lines) - 1), min_size=1))
    shape = data.draw(st.sampled_from(["{n} | {x}", "{n:>6}| {x}", "{n:>5}→{x}"]))
    text = "\n".join(
        shape.format(n=start + i, x=x) if i in marked else x for i, x in enumerate(lines)
    )
    assert strip_some_numbers(text) == Partly("\n".join(lines), start, False)


# -- a whole-line replacement of a line whose blanks differ ---------------------------------------


@pytest.mark.parametrize(
    "line",
    ["if\t(  condition\t) {", "if\t \t( \tcondition\t )\t{", "if (  condition ) {"],
)
def test_the_replacement_line_is_the_answer_when_only_blanks_differ(line):
    text = f"x = 1\n{line}\n  go();\n}}\n"
    out, tier = replaced(text, "if ( condition ) {", "if (newCondition) {")
    assert out == "x = 1\nif (newCondition) {\n  go();\n}\n"
    assert tier == "whitespace"


def test_the_replacement_line_keeps_the_file_indentation():
    text = "function f() {\n\tif\t(  ready\t) {\n\t\tgo();\n\t}\n}\n"
    out, _ = replaced(text, "    if ( ready ) {\n", "    if (ready && !done) {\n")
    assert out == "function f() {\n\tif (ready && !done) {\n\t\tgo();\n\t}\n}\n"


def test_a_line_that_differs_in_more_than_blanks_is_still_refused():
    text = "x = 1\nif\t(  condition2\t) {\n}\n"
    with pytest.raises(NoMatch):
        replaced(text, "if ( condition ) {\n}\n", "if (newCondition) {\n}\n")
