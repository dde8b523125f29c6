"""Uniqueness, hints, replace_all, errors and line endings."""

from __future__ import annotations

import pytest

from applydiff import Ambiguous, EditError, FormatInvalid, NoMatch, locate, replace

TWICE = "def f():\n    return 1\n\n\ndef g():\n    return 1\n"


def test_two_exact_matches_are_ambiguous_with_their_lines():
    with pytest.raises(Ambiguous) as e:
        replace(TWICE, "    return 1\n", "    return 2\n")
    err = e.value
    assert (err.code, err.lines, err.tier) == ("ambiguous", [2, 6], "exact")
    assert "2 places" in err.message and "replace_all" in err.message
    assert err.to_dict() == {
        "code": "ambiguous",
        "message": err.message,
        "lines": [2, 6],
        "tier": "exact",
    }


def test_ambiguity_is_decided_in_the_first_tier_that_finds_anything():
    # Two matches at the indentation tier: never resolved by looking further down the ladder.
    with pytest.raises(Ambiguous) as e:
        replace(TWICE, "return 1\n", "return 2\n")  # exact mid-line: 2 hits
    assert e.value.tier == "exact"
    with pytest.raises(Ambiguous) as e:
        replace(TWICE, "  return 1  \n", "  return 2\n")
    assert e.value.tier == "trailing_whitespace" or e.value.tier == "indentation"


def test_hint_picks_the_nearest():
    assert replace(TWICE, "    return 1\n", "    return 2\n", hint_line=6) == TWICE.replace(
        "g():\n    return 1", "g():\n    return 2"
    )
    assert locate(TWICE, "    return 1\n", hint_line=1).start_line == 2


def test_hint_that_is_not_clearly_nearer_stays_ambiguous():
    with pytest.raises(Ambiguous):
        replace(TWICE, "    return 1\n", "    return 2\n", hint_line=4)


def test_hint_never_makes_text_match():
    with pytest.raises(NoMatch):
        replace(TWICE, "    return 3\n", "    return 2\n", hint_line=2)


def test_hint_orders_fuzzy_ties():
    text = (
        "def first(items):\n    for item in items:\n        process(item)\n    return None\n\n"
        "def second(items):\n    for item in items:\n        process(item)\n    return None\n"
    )
    old = "    for itme in items:\n        process(item)\n    return None\n"
    with pytest.raises(Ambiguous) as e:
        replace(text, old, old.replace("process", "handle"))
    assert e.value.tier == "fuzzy" and e.value.lines == [2, 7]
    out = replace(text, old, old.replace("process", "handle"), hint_line=7)
    assert out == text[: text.index("def second")] + text[text.index("def second") :].replace(
        "process", "handle"
    )


def test_replace_all_changes_every_exact_occurrence():
    assert replace(TWICE, "return 1", "return 0", replace_all=True) == TWICE.replace(
        "return 1", "return 0"
    )


def test_replace_all_is_exact_only():
    with pytest.raises(NoMatch) as e:
        replace(TWICE, "return  1", "return 0", replace_all=True)
    assert "replace_all" in e.value.message


def test_replace_all_non_overlapping_like_str_replace():
    assert replace("aaaa", "aa", "b", replace_all=True) == "bb"


def test_no_match_reports_closest_regions():
    text = "".join(f"line number {i} of the file\n" for i in range(1, 40))
    old = "line number 12 of the fiel\nline number 13 of teh file\nline numbr 14 of the file\n"
    with pytest.raises(NoMatch) as e:
        locate(text, old, threshold=0.99)
    err = e.value
    assert err.code == "no_match"
    assert (err.closest[0].start_line, err.closest[0].end_line) == (12, 14)
    assert 0.85 < err.closest[0].similarity < 0.99
    assert err.closest[0].text.startswith("line number 12 of the file\n")
    assert "closest: lines 12-14" in err.message


def test_no_match_when_nothing_resembles():
    with pytest.raises(NoMatch) as e:
        locate(TWICE, "class Unrelated(Base):\n    attribute = 'value'\n")
    assert e.value.closest == [] and "nothing in the file resembles it" in e.value.message


def test_empty_search_text():
    assert replace("", "", "new file\n") == "new file\n"
    with pytest.raises(FormatInvalid) as e:
        replace("x\n", "", "y\n")
    assert e.value.code == "format_invalid"
    with pytest.raises(FormatInvalid):
        locate("x\n", "")


def test_all_errors_are_edit_errors_with_codes():
    for exc in (NoMatch("m"), Ambiguous("m", lines=[1], tier="exact"), FormatInvalid("m")):
        assert isinstance(exc, EditError)
    with pytest.raises(ValueError):
        EditError("m", code="not_a_code")


def test_threshold_is_validated():
    with pytest.raises(ValueError):
        locate("abc", "abc", threshold=1.5)


# -- line endings ------------------------------------------------------------------------
def test_crlf_file_lf_edit_keeps_crlf():
    text = "a\r\nb\r\nc\r\n"
    assert replace(text, "b\n", "B\nX\n") == "a\r\nB\r\nX\r\nc\r\n"
    m = locate(text, "b\nc\n")
    assert (m.tier, m.start_line, m.end_line) == ("exact", 2, 3)
    assert text[m.start : m.end] == "b\r\nc\r\n"


def test_mixed_endings_keep_each_untouched_lines_terminator():
    text = "one\r\ntwo\nthree\r\nfour\n"
    # CRLF is dominant (2 of 4 is a tie -> LF); make it 3 of 5.
    text = "zero\r\n" + text
    out = replace(text, "two\nthree\n", "two\nTHREE\nextra\n")
    assert out == "zero\r\none\r\ntwo\nTHREE\r\nextra\r\nfour\n"


def test_crlf_in_model_text_is_normalized():
    assert replace("a\nb\n", "a\r\nb\r\n", "a\r\nc\r\n") == "a\nc\n"


def test_line_tier_on_crlf_file():
    text = "def f():\r\n    if x:\r\n        y()\r\n"
    out = replace(text, "if x:\n    y()\n", "if x:\n    y()\n    z()\n")
    assert out == "def f():\r\n    if x:\r\n        y()\r\n        z()\r\n"


def test_no_final_newline_is_preserved():
    assert replace("a\nb\nc", "b\nc\n", "B\nC\n") == "a\nB\nC"
    assert replace("a\nb\nc", "  c\n", "") == "a\nb"
    assert replace("a\nb\nc", "c\n", "c\nd\n") == "a\nb\nc\nd"


def test_final_newline_present_stays():
    assert replace("a\nb\n", "  b", "  B\n  C") == "a\nB\nC\n"


def test_lone_cr_is_content():
    text = "a\rb\nc\n"
    assert replace(text, "a\rb\n", "x\n") == "x\nc\n"


def test_blank_edge_lines_of_search_are_matched_when_present():
    text = "a = 1\n\n\ndef f():\n    pass\n\n\nb = 2\n"
    # The model quotes the blank lines around f and deletes them with it.
    assert replace(text, "\n\ndef f():\n  pass\n\n\n", "\n") == "a = 1\n\nb = 2\n"
    # Absent blank lines in the file are not required.
    assert replace("x\ndef f():\n    pass\n", "\ndef f():\n  pass\n", "\ndef g():\n  pass\n") == (
        "x\ndef g():\n    pass\n"
    )
