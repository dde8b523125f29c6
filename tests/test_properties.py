"""Properties of the matching engine, checked with hypothesis."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from applydiff import EditError, locate, replace

ALPHABET = "abcxyz019 _()=:,.\"'\t\n#"
texts = st.text(alphabet=ALPHABET, max_size=300)
small = st.text(alphabet=ALPHABET, min_size=1, max_size=40)

CODE_LINES = st.sampled_from(
    [
        "def f(x):",
        "return x + 1",
        "if x > 0:",
        "    y = compute(x)",
        "for item in items:",
        "total += item",
        "print('done')",
        "",
        "x = [1, 2, 3]",
        "while not ready():",
        "    wait(0.5)",
        'raise ValueError("bad value")',
        "# a comment about it",
        "class Thing(Base):",
        "pass",
    ]
)


def occurs_once(text: str, sub: str) -> bool:
    i = text.find(sub)
    return i >= 0 and text.find(sub, i + 1) < 0


def literal(text: str, i: int, old: str) -> bool:
    """Plain substring semantics hold unless the search text is whole lines (it ends with a
    newline): those must start at a line start, or after indentation only."""
    return not old.endswith("\n") or not text[text.rfind("\n", 0, i) + 1 : i].strip()


@pytest.mark.slow
@settings(max_examples=300, suppress_health_check=[HealthCheck.filter_too_much])
@given(texts, st.data())
def test_unique_substring_replace_equals_str_replace(text, data):
    assume(text)
    i = data.draw(st.integers(0, len(text) - 1))
    j = data.draw(st.integers(i + 1, len(text)))
    old = text[i:j]
    assume(occurs_once(text, old) and literal(text, i, old))
    new = data.draw(texts)
    if "\n" in new.rstrip("\n") and text[text.rfind("\n", 0, i) + 1 : i].isspace():
        return  # added lines after an indented hit take its indentation (tested elsewhere)
    assert replace(text, old, new) == text.replace(old, new, 1)


@pytest.mark.slow
@settings(max_examples=200, suppress_health_check=[HealthCheck.filter_too_much])
@given(texts, st.data())
def test_crlf_file_with_lf_edit_is_str_replace_in_crlf(text, data):
    assume("\n" in text)
    i = data.draw(st.integers(0, len(text) - 1))
    j = data.draw(st.integers(i + 1, len(text)))
    old = text[i:j]
    assume(occurs_once(text, old) and literal(text, i, old))
    new = data.draw(texts)
    if "\n" in new.rstrip("\n") and text[text.rfind("\n", 0, i) + 1 : i].isspace():
        return
    crlf = text.replace("\n", "\r\n")
    assert replace(crlf, old, new) == text.replace(old, new, 1).replace("\n", "\r\n")


@pytest.mark.slow
@settings(max_examples=300, suppress_health_check=[HealthCheck.filter_too_much])
@given(texts, st.data())
def test_relocating_the_replacement_finds_it_exactly(text, data):
    assume(text)
    i = data.draw(st.integers(0, len(text) - 1))
    j = data.draw(st.integers(i + 1, len(text)))
    old = text[i:j]
    assume(occurs_once(text, old) and literal(text, i, old))
    new = data.draw(small)
    assume("\n" not in new.rstrip("\n") or not text[text.rfind("\n", 0, i) + 1 : i].isspace())
    out = replace(text, old, new)
    assume(occurs_once(out, new) and literal(out, i, new))
    m = locate(out, new)
    assert (m.tier, m.confidence, m.start, m.end) == ("exact", 1.0, i, i + len(new))


@pytest.mark.slow
@settings(max_examples=300)
@given(
    st.lists(st.tuples(CODE_LINES, st.sampled_from(["\n", "\r\n"])), min_size=1, max_size=30),
    st.data(),
)
def test_replacing_a_block_with_itself_changes_no_byte(lines, data):
    """Whatever tier locates the block and whatever noise it carries, an edit whose new text
    equals its search text leaves the file exactly as it was."""
    text = "".join(a + b for a, b in lines)
    if data.draw(st.booleans()):
        text = text.rstrip("\r\n")  # no final newline
    i = data.draw(st.integers(0, len(lines) - 1))
    j = data.draw(st.integers(i + 1, len(lines)))
    block = [a for a, _ in lines[i:j]]
    noise = data.draw(st.sampled_from(["none", "dedent", "indent", "trailing", "tabs", "typo"]))
    if noise == "dedent":
        block = [x.lstrip() for x in block]
    elif noise == "indent":
        block = ["        " + x for x in block]
    elif noise == "trailing":
        block = [x + "  " for x in block]
    elif noise == "tabs":
        block = [x.replace("    ", "\t") for x in block]
    elif noise == "typo" and any(len(x) > 4 for x in block):
        k = next(k for k, x in enumerate(block) if len(x) > 4)
        block[k] = block[k][:2] + block[k][3] + block[k][2] + block[k][4:]
    old = "\n".join(block) + "\n"
    try:
        out = replace(text, old, old)
    except EditError:
        return
    assert out == text


@pytest.mark.slow
@settings(max_examples=300)
@given(
    st.lists(st.tuples(CODE_LINES, st.sampled_from(["\n", "\r\n"])), min_size=2, max_size=30),
    st.data(),
)
def test_editing_one_line_keeps_every_other_line_and_terminator(lines, data):
    text = "".join(a + b for a, b in lines)
    k = data.draw(st.integers(0, len(lines) - 1))
    target = lines[k][0]
    assume(target.strip() and sum(1 for a, _ in lines if a == target) == 1)
    old = target.strip() + "\n"
    assume(occurs_once(text, target.strip()))
    new = target.strip() + "  # edited\n"
    out = replace(text, old, new)
    expected = list(lines)
    expected[k] = (target + "  # edited", lines[k][1])
    assert out == "".join(a + b for a, b in expected)


@pytest.mark.slow
@settings(max_examples=500)
@given(
    st.text(max_size=200),
    st.text(max_size=80),
    st.text(max_size=80),
    st.one_of(st.none(), st.integers(-5, 50)),
    st.booleans(),
)
def test_arbitrary_input_raises_only_edit_errors(text, old, new, hint, replace_all):
    try:
        out = replace(text, old, new, hint_line=hint, replace_all=replace_all)
    except EditError as e:
        assert e.code in {"no_match", "ambiguous", "format_invalid"}
        assert e.message
    else:
        assert isinstance(out, str)


@pytest.mark.slow
@settings(max_examples=200, deadline=None)  # a shared machine's load made it flaky
@given(
    st.lists(CODE_LINES, min_size=3, max_size=25),
    st.integers(1, 12),
    st.data(),
)
def test_uniformly_indented_file_takes_unindented_edit(lines, width, data):
    assume(len(set(lines)) == len(lines))
    i = data.draw(st.integers(0, len(lines) - 2))
    j = data.draw(st.integers(i + 2, len(lines)))
    # Two non-blank lines: with one, "dedented" and "starts mid-line" read the same.
    assume(sum(1 for x in lines[i:j] if x.strip()) >= 2)
    pad = " " * width
    text = "".join((pad + x if x else x) + "\n" for x in lines)
    old = "".join(x + "\n" for x in lines[i:j])
    new = old + "extra_call()\n"
    expected_lines = [*lines[:j], "extra_call()", *lines[j:]]
    expected = "".join((pad + x if x else x) + "\n" for x in expected_lines)
    assert replace(text, old, new) == expected


@given(
    st.lists(st.sampled_from(["a\n", "\n", "bb\n", "c", "\r\n"]), max_size=30),
    st.integers(-5, 35),
    st.integers(0, 20),
)
def test_line_starts_are_pos_of_line_for_a_run_of_lines(pieces, lo, span):
    from applydiff.match.doc import Doc

    text = "".join(pieces)
    want = {line: Doc(text).pos_of_line(line) for line in range(lo, lo + span + 1)}
    assert Doc(text).line_starts(lo, lo + span) == {k: v for k, v in want.items() if v is not None}


@given(
    st.lists(st.sampled_from(["a b\n", "\n", "  \u201cq\u201d\n", "x", "\t\n"]), max_size=30),
    st.integers(0, 30),
    st.integers(0, 40),
    st.lists(st.tuples(st.integers(0, 35), st.integers(1, 12)), max_size=8),
)
def test_windows_read_from_a_run_are_the_windows_read_line_by_line(pieces, top, size, windows):
    from applydiff.match.doc import Doc
    from applydiff.match.search import Search

    doc = Doc("".join(pieces))
    read = Search(doc, "a b\n")
    walked = Search(doc, "a b\n")
    start = doc.pos_of_line(top)
    if start is not None:
        read.read_run(start, size)
    for line, count in windows:
        pos = doc.pos_of_line(line)
        if pos is not None:
            assert read.loose_span(pos, count) == walked.loose_span(pos, count)


@given(
    st.lists(st.sampled_from(["a b\n", "\n", "  \n", "cc", "\t\n"]), max_size=30),
    st.integers(0, 30),
    st.integers(1, 12),
)
def test_a_fuzzy_window_trimmed_of_blank_edge_lines_ends_where_its_last_line_ends(
    pieces, line, count
):
    from applydiff.match.doc import Doc
    from applydiff.match.fuzzy import _Scorer
    from applydiff.match.search import Search

    doc = Doc("".join(pieces))
    s = Search(doc, "a b\nx y z w\n")
    start = doc.pos_of_line(line)
    if start is None:
        return
    got = _Scorer(s).trimmed(start, count)
    lines = doc.lines_at(start, count)
    if lines is None:
        assert got is None
        return
    keys = [x.strip() for x in lines[0]]
    a, b = 0, count  # blank lines off the top, then off the bottom; one line stays
    while b - a > 1 and not keys[a]:
        a += 1
    while b - a > 1 and not keys[b - 1]:
        b -= 1
    top = doc.pos_of_line(line + a)
    assert top is not None
    assert got == (top, b - a, doc.lines_at(top, b - a)[1])
