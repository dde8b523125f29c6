"""The ladder's rule (issue 28): the first tier that finds the search text decides, and a tier
that finds it but cannot decide refuses; no later tier applies it."""

from __future__ import annotations

import json.decoder
import string
import textwrap
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from applydiff import EditError, NoMatch, Region, replace
from applydiff.match import DEFAULT_THRESHOLD, ladder
from applydiff.match.doc import Doc
from applydiff.match.search import Declined, Hit, Search

# -- the cases of the issue ---------------------------------------------------------------------

SUM = (
    "import os\n"
    "\n"
    "def compute_total(values):\n"
    "    total = 0\n"
    "    for v in values:\n"
    "        total += v\n"
    "    return total\n"
)


def test_lost_line_start_with_empty_replacement_is_refused_naming_both_readings():
    """Found once from the middle of 'total' with nothing to write: deleting from there
    would join '    t' to line 6, deleting lines 4-5 whole is the fuzzy tier's reading.
    The exact tier found it first and cannot decide, so neither is applied."""
    old = "otal = 0\n    for v in values:\n"
    with pytest.raises(NoMatch) as e:
        replace(SUM, old, "")
    msg = e.value.message
    assert msg.startswith("the search text reads two ways: as written, from the middle of line 4")
    assert "('total = 0') to the end of line 5" in msg
    assert "the replacement's first line is blank" in msg
    assert "and as whole lines (tier fuzzy) at lines 4-5" in msg
    assert "neither is applied" in msg
    assert e.value.closest == [Region(4, 5, 1.0, "    total = 0\n    for v in values:")]


def test_lost_line_start_with_whole_lines_found_elsewhere_is_refused():
    """A literal tier after the exact one finds the text as whole lines elsewhere (trailing
    blanks): before issue 28 it deleted lines 4-5."""
    text = "x_count = 0\ny = 1\nz = 2\ncount = 0  \ny = 1\n"
    with pytest.raises(NoMatch) as e:
        replace(text, "count = 0\ny = 1\n", "")
    msg = e.value.message
    assert "from the middle of line 1 ('x_count = 0') to the end of line 2" in msg
    assert "as whole lines (tier trailing_whitespace) at lines 4-5" in msg
    assert [(r.start_line, r.end_line) for r in e.value.closest] == [(1, 2), (4, 5)]


def test_replacement_written_whole_applies_only_where_the_exact_tier_found_it():
    """The replacement writes the first line's lost 'd' again: the whole lines at the place
    the exact tier found are meant, and a later tier may place them there only."""
    text = "def f(a):\n    return a\n\nef f(a):  \n    return a\n"
    with pytest.raises(NoMatch) as e:
        replace(text, "ef f(a):\n    return a\n", "def f(b):\n    return b\n")
    msg = e.value.message
    assert "as lines 1-2 whole, as it occurs once from the middle of line 1" in msg
    assert "starts with 'd' again" in msg
    assert "as whole lines (tier trailing_whitespace) at lines 4-5" in msg
    assert [(r.start_line, r.end_line) for r in e.value.closest] == [(1, 2), (4, 5)]
    # Nothing else reads it: the fuzzy tier places it at the lines the exact tier found.
    alone = "def f(a, scale):\n    return a * scale\n\nx = 1\n"
    got = replace(
        alone, "ef f(a, scale):\n    return a * scale\n", "def f(b, scale):\n    return b * scale\n"
    )
    assert got == "def f(b, scale):\n    return b * scale\n\nx = 1\n"


def test_found_once_from_mid_line_with_no_other_reading_keeps_its_refusal():
    text = "a = 1\nfoo_bar = 2\n\nb = 3\nc = 4\n"
    with pytest.raises(NoMatch) as e:
        replace(text, "oo_bar = 2\n\nb = 3\n", "")
    assert e.value.message.startswith("the search text occurs once, but starts in the middle")
    assert e.value.closest == [Region(2, 2, 1.0, "foo_bar = 2")]


def test_numbered_search_found_from_mid_line_is_refused_not_read_otherwise():
    """The line-numbers tier runs the literal tiers on the text without its numbers: the rule
    holds inside it too."""
    numbered = "4 | otal = 0\n5 |     for v in values:\n"
    with pytest.raises(NoMatch) as e:
        replace(SUM, numbered, "")
    assert "middle of line 4" in e.value.message


# -- the rule for every pair of tiers ------------------------------------------------------------

NAMES = ladder.TIER_NAMES
TEXT = "".join(f"line {i} = {i}\n" for i in range(1, 13))
DOC_LINES = TEXT.split("\n")[:-1]


def _pos(line: int) -> int:
    return sum(len(x) + 1 for x in DOC_LINES[:line])


PAIRS = [(k, j) for j in range(len(NAMES)) for k in range(j)]


@pytest.mark.parametrize(("k", "j"), PAIRS, ids=[f"{NAMES[k]}>{NAMES[j]}" for k, j in PAIRS])
@settings(max_examples=25)
@given(whole_lines=st.booleans(), here=st.integers(0, 9), there=st.integers(0, 9))
def test_a_tier_that_finds_and_declines_lets_no_later_tier_apply(k, j, whole_lines, here, there):
    """For every pair of tiers k < j: tier k finds the text and declines, tier j finds a
    place. Nothing is applied, unless tier k read the text as the whole lines it spans and
    tier j places it exactly there; the refusal names both places."""
    declined = Declined(NAMES[k], _pos(here) + 2, _pos(here + 2), "why", whole_lines)
    hit = Hit(NAMES[j], 0.9, _pos(there), _pos(there + 2))

    def decline(s: Search) -> list[Hit]:
        s.decline(declined)
        return []

    def find(s: Search) -> list[Hit]:
        return [Hit(hit.tier, hit.confidence, hit.start, hit.end)]

    tiers = tuple(
        (name, decline if i == k else find if i == j else (lambda s: []))
        for i, name in enumerate(NAMES)
    )
    s = Search(Doc(TEXT), "ne 1 = 1\nline 2 = 2\n", threshold=DEFAULT_THRESHOLD)
    with mock.patch.object(ladder, "TIERS", tiers):
        if whole_lines and here == there:
            (got,) = ladder.find(s)
            assert (got.tier, got.start, got.end) == (NAMES[j], hit.start, hit.end)
            return
        with pytest.raises(NoMatch) as e:
            ladder.find(s)
    assert f"(tier {NAMES[j]}) at lines {there + 1}-{there + 2}" in e.value.message
    assert f"middle of line {here + 1}" in e.value.message


# -- the rule with the real tiers, on real files ---------------------------------------------

SOURCES = [Path(m.__file__).read_text(encoding="utf-8") for m in (textwrap, json.decoder, string)]


@contextmanager
def declines_seen() -> Iterator[list[tuple[int, Declined]]]:
    """The ladder's real tiers, each noting the first decline and which tier made it."""
    seen: list[tuple[int, Declined]] = []

    def watch(i: int, tier: ladder.Tier) -> ladder.Tier:
        def run(s: Search) -> list[Hit]:
            hits = tier(s)
            if s.declined is not None and not seen:
                seen.append((i, s.declined))
            return hits

        return run

    tiers = tuple((name, watch(i, tier)) for i, (name, tier) in enumerate(ladder.TIERS))
    with mock.patch.object(ladder, "TIERS", tiers):
        yield seen


def _cut(data: st.DataObject) -> tuple[str, str, str, int] | None:
    """A search text from inside a line of a real file to the end of a line below it, with a
    typo or not, the head of its first line, and the line's index."""
    text = data.draw(st.sampled_from(SOURCES))
    lines = text.split("\n")
    i = data.draw(st.integers(0, len(lines) - 5))
    line = lines[i]
    cuts = [c for c in range(1, len(line)) if line[:c].strip() and line[c:].strip()]
    if not cuts:
        return None
    c = data.draw(st.sampled_from(cuts))
    more = data.draw(st.integers(1, 3))
    quoted = [line[c:], *lines[i + 1 : i + 1 + more]]
    if data.draw(st.booleans()):  # a typo in the last line: a tolerant tier's reading
        last = quoted[-1]
        if len(last) > 4:
            quoted[-1] = last[:2] + last[3:]
    return text, "\n".join(quoted) + "\n", line[:c], i


REPLACEMENTS = ("empty", "blank first line", "head written again", "other")


@pytest.mark.slow
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), kind=st.sampled_from(REPLACEMENTS))
def test_with_the_real_tiers_a_decline_is_final(data, kind):
    """Whenever a tier declines, the ladder refuses, or (the declining tier read the text as
    whole lines) applies it at those lines and nowhere else."""
    got = _cut(data)
    assume(got is not None)
    assert got is not None
    text, old, head, _ = got
    body = old.split("\n", 1)[1]
    new = {
        "empty": "",
        "blank first line": "\n" + body,
        "head written again": head.lstrip() + old.split("\n", 1)[0] + "_x\n" + body,
        "other": "changed = 1\n" + body,
    }[kind]
    s = Search(Doc(text), old, threshold=DEFAULT_THRESHOLD)
    s.new = new
    with declines_seen() as seen:
        try:
            hits = ladder.find(s)
        except EditError:
            return
    if not seen:
        return
    _, declined = seen[0]
    assert declined.whole_lines, f"applied after tier {declined.tier} declined: {hits}"
    (hit,) = hits
    doc = s.doc
    span = (doc.line_no(hit.start), doc.line_no(hit.end - 1))
    assert span == (doc.line_no(declined.start), doc.line_no(declined.end - 1))


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_lost_line_start_with_nothing_to_write_is_never_applied(data):
    """Issue 28's 626 calls: a text found once from inside a line, ending on a line's end,
    replaced by nothing, is refused; before, the fuzzy tier deleted the whole lines in some."""
    got = _cut(data)
    assume(got is not None)
    assert got is not None
    text, old, _, i = got
    assume(text.count(old) == 1)
    with pytest.raises(EditError) as e:
        replace(text, old, "")
    assert f"line {i + 1} " in e.value.message or f"line {i + 1}," in e.value.message
