"""Issue 15, items 1, 2, 3 and 5: chat answers as real models write them.

Each test is an answer in the shape seen in real transcripts, applied to a file: the bytes
that come back, or the refusal and the line it names.
"""

from __future__ import annotations

import pytest

from applydiff import Workspace, feedback, parse
from applydiff.engine import apply_ops
from applydiff.errors import FormatInvalid

APP = "def greet(name):\n    return 'hi ' + name\n\n\ndef main():\n    greet('x')\n"
SEARCH = "<<<<<<< SEARCH\n    return 'hi ' + name\n=======\n    return f'hello {name}'\n"
GREETED = APP.replace("'hi ' + name", "f'hello {name}'")


def applied(answer: str, files: dict[str, str]) -> dict[str, str | None]:
    cs = apply_ops(parse(answer), files)
    assert cs.ok, [e.error.message for e in cs.errors]
    return cs.texts()


# -- item 1: other fences --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("opener", "closer"),
    [
        ("<source>python", "</source>"),
        ("<source>", "</source>"),
        ("<code>", "</code>"),
        ('<code lang="python">', "</code>"),
        ("<pre>", "</pre>"),
        ("<codeblock>", "</codeblock>"),
        ("<sourcecode>python", "</sourcecode>"),
        ("<SOURCE>python", "</SOURCE>"),
        ("````python", "````"),
        ("`````", "`````"),
    ],
)
def test_search_replace_in_other_fences(opener, closer):
    answer = f"I'll update the greeting.\n\napp.py\n{opener}\n{SEARCH}>>>>>>> REPLACE\n{closer}\n"
    assert applied(answer, {"app.py": APP}) == {"app.py": GREETED}


def test_aider_transcript_with_two_source_fences():
    answer = (
        "app.py\n<source>python\n" + SEARCH + ">>>>>>> REPLACE\n</source>\n\n"
        "Then the caller:\n\nmain.py\n<source>python\n<<<<<<< SEARCH\nrun()\n=======\n"
        "run(debug=True)\n>>>>>>> REPLACE\n</source>\n"
    )
    out = applied(answer, {"app.py": APP, "main.py": "run()\n"})
    assert out == {"app.py": GREETED, "main.py": "run(debug=True)\n"}


def test_tag_fence_without_a_path_is_refused_naming_the_line():
    answer = "Here it is:\n<source>python\n" + SEARCH + ">>>>>>> REPLACE\n</source>\n"
    with pytest.raises(FormatInvalid) as e:
        parse(answer)
    assert e.value.line == 3 and "names no file" in e.value.message


def test_lazy_snippet_in_a_four_backtick_fence():
    answer = (
        "app.py\n````python\ndef greet(name):\n    return 'hey ' + name\n"
        "# ... existing code ...\n````\n"
    )
    (op,) = parse(answer)
    assert (type(op).__name__, op.path) == ("Lazy", "app.py")
    assert applied(answer, {"app.py": APP}) == {"app.py": APP.replace("'hi '", "'hey '")}


# -- item 2: divider slips -------------------------------------------------------------------


def test_replace_closed_by_divider_then_a_corrected_retry():
    answer = (
        "app.py\n```python\n" + SEARCH + "=======\n```\n\nOops, let me redo that.\n\n"
        "app.py\n```python\n<<<<<<< SEARCH\n    return 'hi ' + name\n=======\n"
        "    return f'hey {name}'\n>>>>>>> REPLACE\n```\n"
    )
    ops = parse(answer)
    assert len(ops) == 1 and "gave way to this retry" in ops[0].slips[-1]
    cs = apply_ops(ops, {"app.py": APP})
    assert cs.texts() == {"app.py": APP.replace("'hi ' + name", "f'hey {name}'")}


def test_replace_closed_by_divider_at_the_end_of_the_answer():
    answer = "app.py\n```python\n" + SEARCH + "=======\n```\n\nThat should do it.\n"
    cs = apply_ops(parse(answer), {"app.py": APP})
    assert cs.texts() == {"app.py": GREETED}
    assert "line 7: '=======' was read as the end of the block" in cs.reports[0].notes[0]
    assert cs.reports[0].to_dict()["notes"] == list(cs.reports[0].notes)


def test_replace_closed_by_divider_then_another_edit_keeps_both():
    answer = (
        "app.py\n" + SEARCH + "=======\n\n<<<<<<< SEARCH\n    greet('x')\n=======\n"
        "    greet('y')\n>>>>>>> REPLACE\n"
    )
    out = applied(answer, {"app.py": APP})
    assert out == {"app.py": GREETED.replace("'x'", "'y'")}


def test_divider_followed_by_text_then_a_block_is_still_refused():
    # The text after the second '=======' may be replacement lines: no one reading.
    answer = "app.py\n" + SEARCH + "=======\n    more()\n<<<<<<< SEARCH\na\n=======\nb\n"
    with pytest.raises(FormatInvalid) as e:
        parse(answer + ">>>>>>> REPLACE\n")
    assert e.value.line == 8 and "opens a new '<<<<<<< SEARCH'" in e.value.message


def test_double_divider_before_replace_writes_no_marker():
    answer = "app.py\n```python\n" + SEARCH + "=======\n>>>>>>> REPLACE\n```\n"
    cs = apply_ops(parse(answer), {"app.py": APP})
    assert cs.texts() == {"app.py": GREETED}
    assert cs.reports[0].notes == (
        "line 7: a second '=======' was read as a stray divider, not a line of the file",
    )


def test_divider_written_twice_in_a_row():
    answer = (
        "app.py\n<<<<<<< SEARCH\n    return 'hi ' + name\n=======\n=======\n"
        "    return f'hello {name}'\n>>>>>>> REPLACE\n"
    )
    assert applied(answer, {"app.py": APP}) == {"app.py": GREETED}


def test_double_divider_in_a_file_with_divider_lines_is_refused():
    # The file holds '=======' lines: the second divider may be one of them, so the file
    # cannot tell and the block is refused, naming the line.
    text = "<<<<<<< HEAD\na = 1\n=======\na = 2\n>>>>>>> other\nb = 1\n"
    answer = "f.py\n<<<<<<< SEARCH\nb = 1\n=======\nb = 2\n=======\n>>>>>>> REPLACE\n"
    cs = apply_ops(parse(answer), {"f.py": text})
    assert [e.code for e in cs.errors] == ["format_invalid"]
    message = cs.errors[0].error.message
    assert "line 6: a second '=======' was read as a stray divider" in message
    assert "backslash" in message


def test_divider_that_may_be_content_the_file_decides():
    # In a Markdown file with '=======' underlines, 'Intro' alone and 'Intro\n=======' both
    # match: refused, not guessed. The same block in a file without such lines is a slip.
    answer = "doc.md\n<<<<<<< SEARCH\nIntro\n=======\n=======\nPreface\n>>>>>>> REPLACE\n"
    cs = apply_ops(parse(answer), {"doc.md": "Intro\n=======\n\nBody\n"})
    assert [e.code for e in cs.errors] == ["format_invalid"]
    assert "line 5: a second '=======' was read as a stray divider" in cs.errors[0].error.message
    cs = apply_ops(parse(answer), {"doc.md": "Intro\n\nBody\n"})
    assert cs.texts() == {"doc.md": "Preface\n\nBody\n"}


def test_heading_underline_before_replace_stays_a_line_of_the_file():
    answer = (
        "doc.rst\n<<<<<<< SEARCH\nIntro text.\n=======\nIntro text.\n\nUsage\n=======\n"
        ">>>>>>> REPLACE\n"
    )
    cs = apply_ops(parse(answer), {"doc.rst": "Intro text.\n"})
    assert cs.texts() == {"doc.rst": "Intro text.\n\nUsage\n=======\n"}
    assert cs.reports[0].notes == () and "notes" not in cs.reports[0].to_dict()


@pytest.mark.parametrize(
    ("head", "tail"),
    [
        ("<<<<<<< SEARCH>", ">>>>>>> REPLACE"),
        ("<<<<<<< SEARCH", ">>>>>>> REPLACE<"),
        ("<<<<<<< SEARCH<", ">>>>>>> REPLACE>"),
        ("<<<<<<< SEARCH >", ">>>>>>> REPLACE <"),
    ],
)
def test_stray_character_after_a_marker(head, tail):
    answer = f"app.py\n```python\n{head}\n{SEARCH.split(chr(10), 1)[1]}{tail}\n```\n"
    cs = apply_ops(parse(answer), {"app.py": APP})
    assert cs.texts() == {"app.py": GREETED}
    notes = cs.reports[0].notes
    assert len(notes) == (head[-1] in "<>") + (tail[-1] in "<>")
    assert all("stray character" in note for note in notes)


def test_slipped_head_that_opens_nothing_is_prose():
    assert parse("Markers look like <<<<<<< SEARCH> in the docs.\n<<<<<<< SEARCH>\n") == []


def test_slipped_tail_then_a_real_tail_is_content_as_before():
    answer = "f.txt\n<<<<<<< SEARCH\na\n=======\n>>>>>>> REPLACE<\n>>>>>>> REPLACE\n"
    (op,) = parse(answer)
    assert op.old == "a\n" and op.new == ">>>>>>> REPLACE<\n" and op.slips == ()


# -- item 3: quoted transcript text ----------------------------------------------------------


def test_quoted_failed_block_is_not_an_edit():
    answer = (
        "The tool said:\n\n> SearchReplaceNoExactMatch: this block failed\n> app.py\n"
        "> <<<<<<< SEARCH\n>     return 'hi' + name\n> =======\n"
        ">     return 'hello' + name\n> >>>>>>> REPLACE\n\nSo I did nothing.\n"
    )
    assert parse(answer) == []


def test_quoted_without_space_is_not_an_edit():
    answer = (
        ">app.py\n><<<<<<< SEARCH\n>    return 'hi ' + name\n>=======\n"
        ">    return 'hey'\n>>>>>>>> REPLACE\n"
    )
    assert parse(answer) == []


def test_quoted_echo_then_the_corrected_block():
    answer = (
        "> app.py\n> <<<<<<< SEARCH\n>     return 'hi' + name\n>\n> =======\n"
        ">     return 'x'\n> >>>>>>> REPLACE\n\nThe search text was off; here it is again:\n\n"
        "app.py\n```python\n" + SEARCH + ">>>>>>> REPLACE\n```\n"
    )
    assert applied(answer, {"app.py": APP}) == {"app.py": GREETED}


# -- item 5: over-escaping -------------------------------------------------------------------

JS = "const msg = `Hello ${user.name}, you have ${count} items`;\nlog(msg);\n"


def test_escaped_template_literal_in_search_and_replace():
    answer = (
        "ui.js\n<<<<<<< SEARCH\n"
        "const msg = \\`Hello \\${user.name}, you have \\${count} items\\`;\n"
        "=======\nconst msg = \\`Hi \\${user.name}: \\${count} items\\`;\n>>>>>>> REPLACE\n"
    )
    out = applied(answer, {"ui.js": JS})
    assert out == {"ui.js": "const msg = `Hi ${user.name}: ${count} items`;\nlog(msg);\n"}


def test_escaped_dollar_that_the_file_holds_stays():
    sh = 'echo "cost: \\$5"\necho done\n'
    answer = 'run.sh\n<<<<<<< SEARCH\necho "cost: \\$5"\n=======\necho "cost: \\$6"\n'
    answer += ">>>>>>> REPLACE\n"
    assert applied(answer, {"run.sh": sh}) == {"run.sh": 'echo "cost: \\$6"\necho done\n'}


def test_escaped_conflict_markers_with_branch_names():
    text = "a = 1\n<<<<<<< HEAD\nb = 1\n=======\nb = 2\n>>>>>>> feature-x\nc = 1\n"
    answer = (
        "m.py\n<<<<<<< SEARCH\n\\<<<<<<< HEAD\nb = 1\n\\=======\nb = 2\n\\>>>>>>> feature-x\n"
        "=======\nb = 2\n>>>>>>> REPLACE\n"
    )
    assert applied(answer, {"m.py": text}) == {"m.py": "a = 1\nb = 2\nc = 1\n"}


def test_the_feedback_says_what_was_read_as_meant(tmp_path):
    (tmp_path / "app.py").write_text(APP, encoding="utf-8")
    body = SEARCH.split("\n", 1)[1]
    answer = f"app.py\n```python\n<<<<<<< SEARCH>\n{body}>>>>>>> REPLACE\n```\n"
    ws = Workspace(tmp_path)
    result = ws.apply(answer)
    assert result.ok
    text = feedback.report(result, ws)
    note = result.edits[0].notes[0]
    assert "stray character" in note
    assert f"\n    read as meant: {note}" in text
