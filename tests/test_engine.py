"""The engine: ordered, all-or-nothing application of an edit script to in-memory files."""

from __future__ import annotations

from applydiff import (
    Anchored,
    Delete,
    Move,
    Replace,
    Write,
    apply_ops,
    file_id,
)

FILES = {
    "app/main.py": "import util\n\n\ndef main():\n    util.run(1)\n",
    "app/util.py": "def run(n):\n    return n\n",
    "README.md": "# demo\r\n\r\nRun it.\r\n",
}


def test_sequential_edits_see_earlier_results_across_files():
    ops = [
        Replace("app/util.py", "def run(n):", "def run(n, verbose=False):"),
        Replace(
            "app/util.py",
            "def run(n, verbose=False):\n",
            "def run(n, verbose=False):\n    '''Run.'''\n",
        ),
        Replace("app/main.py", "util.run(1)", "util.run(1, verbose=True)"),
        Move("app/util.py", "app/lib/util.py"),
        Replace("app/lib/util.py", "return n", "return n * 2"),
    ]
    cs = apply_ops(ops, FILES)
    assert cs.ok and cs.errors == []
    assert cs.texts() == {
        "app/util.py": None,
        "app/lib/util.py": "def run(n, verbose=False):\n    '''Run.'''\n    return n * 2\n",
        "app/main.py": "import util\n\n\ndef main():\n    util.run(1, verbose=True)\n",
    }
    assert cs.summary() == [
        {"path": "app/util.py", "action": "moved", "to": "app/lib/util.py"},
        {"path": "app/main.py", "action": "modified"},
    ]
    assert [(r.index, r.kind, r.tier, r.start_line, r.end_line) for r in cs.reports] == [
        (0, "replace", "exact", 1, 1),
        (1, "replace", "exact", 1, 1),
        (2, "replace", "exact", 5, 5),
        (3, "move", None, None, None),
        (4, "replace", "exact", 3, 3),
    ]


def test_all_or_nothing_and_every_failure_reported():
    ops = [
        Replace("app/util.py", "return n", "return -n"),  # fine
        Replace("app/main.py", "util.walk(1)", "util.walk(2)"),  # no_match
        Write("new.txt", "x\n"),  # fine
        Replace("app/util.py", "return n", "return n + 1"),  # no_match after op 0
        Delete("missing.py"),  # no_match: does not exist
    ]
    cs = apply_ops(ops, FILES)
    assert not cs.ok
    assert cs.changes == [] and cs.texts() == {}
    assert [(e.index, e.path, e.code) for e in cs.errors] == [
        (1, "app/main.py", "no_match"),
        (3, "app/util.py", "no_match"),
        (4, "missing.py", "no_match"),
    ]
    assert "does not exist" in cs.errors[2].error.message
    assert cs.errors[0].to_dict()["index"] == 1


def test_write_twice_and_write_then_edit_are_write_conflicts():
    cs = apply_ops(
        [
            Write("a.txt", "1\n"),
            Write("a.txt", "2\n"),
            Replace("a.txt", "1", "3"),
            Replace("app/util.py", "return n", "return 0"),
            Write("app/util.py", "x\n"),
        ],
        FILES,
    )
    assert [(e.index, e.code) for e in cs.errors] == [
        (1, "write_conflict"),
        (2, "write_conflict"),
        (4, "write_conflict"),
    ]


def test_paths_are_normalized_for_identity():
    cs = apply_ops([Write("./a//b.txt", "1\n"), Write("a/b.txt", "2\n")], {})
    assert [e.code for e in cs.errors] == ["write_conflict"]


def test_empty_search_creates_a_file_and_refuses_on_existing():
    cs = apply_ops([Replace("new.py", "", "print(1)\n")], FILES)
    assert cs.ok and cs.texts() == {"new.py": "print(1)\n"}
    assert cs.summary() == [{"path": "new.py", "action": "added"}]
    cs = apply_ops([Replace("app/util.py", "", "print(1)\n")], FILES)
    assert [e.code for e in cs.errors] == ["format_invalid"]


def test_edit_missing_file_is_no_match_naming_write_file():
    cs = apply_ops([Replace("nope.py", "a", "b")], FILES)
    assert cs.errors[0].code == "no_match"
    assert "write_file" in cs.errors[0].error.message


def test_file_id_checked_against_current_or_start_of_response():
    util = FILES["app/util.py"]
    good = file_id(util)
    ops = [
        Replace("app/util.py", "return n", "return n + 1", file_id=good),
        # Same id on a second edit of the file in this response: still accepted.
        Replace("app/util.py", "def run(n):", "def run(n=0):", file_id=good),
    ]
    assert apply_ops(ops, FILES).ok
    cs = apply_ops([Replace("app/util.py", "return n", "return 1", file_id="deadbeef")], FILES)
    err = cs.errors[0]
    assert err.code == "file_id_mismatch"
    assert err.error.to_dict()["expected"] == "deadbeef"
    assert err.error.to_dict()["actual"] == good
    assert good in err.error.message


def test_delete_and_write_back_reports():
    cs = apply_ops([Delete("README.md"), Write("docs/x.md", "x")], FILES)
    assert cs.ok
    assert cs.summary() == [
        {"path": "README.md", "action": "deleted"},
        {"path": "docs/x.md", "action": "added"},
    ]


def test_move_onto_existing_path_overwrites():
    cs = apply_ops([Move("app/util.py", "app/main.py")], FILES)
    assert cs.ok
    assert cs.texts() == {"app/util.py": None, "app/main.py": FILES["app/util.py"]}
    assert cs.summary() == [{"path": "app/util.py", "action": "moved", "to": "app/main.py"}]


def test_alternatives_keep_the_one_reading_that_matches():
    text = "a = 1\n=======\nb = 2\n"
    # Two ways to split a block with two ======= lines: only one search text is in the file.
    op = Replace(
        "x.txt",
        old="a = 1\n",
        new="=======\nb = 2\n",
        alternatives=(("a = 1\n=======\nb = 2\n", "c = 3\n"),),
    )
    cs = apply_ops([op], {"x.txt": text})
    assert [e.code for e in cs.errors] == ["format_invalid"]  # both readings match: refuse
    op = Replace(
        "x.txt",
        old="zzz\n",
        new="=======\nb = 2\n",
        alternatives=(("a = 1\n=======\nb = 2\n", "c = 3\n"),),
    )
    cs = apply_ops([op], {"x.txt": text})
    assert cs.ok and cs.texts() == {"x.txt": "c = 3\n"}


def test_errors_from_the_file_source_fail_only_that_op():
    from applydiff import EditError

    class Source(dict):
        def get(self, key, default=None):
            if key == "secret":
                raise EditError("outside the root", code="path_denied")
            return super().get(key, default)

    cs = apply_ops([Write("secret", "x"), Write("ok", "y")], Source())
    assert [(e.index, e.code, e.path) for e in cs.errors] == [(0, "path_denied", "secret")]


# -- anchored ops ---------------------------------------------------------------------------
CODE = "def f():\n    a = 1\n    b = 2\n    return a + b\n\n\ndef g():\n    return 0\n"


def test_anchored_start_only_replaces_start_lines():
    cs = apply_ops([Anchored("m.py", ("    a = 1",), ("    a = 10", "    c = 3"))], {"m.py": CODE})
    assert cs.texts()["m.py"] == CODE.replace("    a = 1\n", "    a = 10\n    c = 3\n")
    r = cs.reports[0]
    assert (r.kind, r.tier, r.start_line, r.end_line) == ("anchored", "exact", 2, 2)


def test_anchored_start_to_end():
    op = Anchored("m.py", ("def f():",), ("def f():", "    return 3"), end=("    return a + b",))
    cs = apply_ops([op], {"m.py": CODE})
    assert cs.texts()["m.py"] == "def f():\n    return 3\n\n\ndef g():\n    return 0\n"
    assert (cs.reports[0].start_line, cs.reports[0].end_line) == (1, 4)


def test_anchored_end_is_first_match_after_start():
    text = "x\nstart\nbody\nend\nmore\nend\n"
    op = Anchored("t", ("start",), ("new",), end=("end",))
    assert apply_ops([op], {"t": text}).texts()["t"] == "x\nnew\nmore\nend\n"


def test_anchored_comparisons_in_order_and_reindent():
    text = "class A:\n    def f(self):\n        return 1\n"
    op = Anchored("t", ("def f(self):   ",), ("def f(self, x):",))
    cs = apply_ops([op], {"t": text})
    assert cs.reports[0].tier == "trimmed"
    assert cs.texts()["t"] == "class A:\n    def f(self, x):\n        return 1\n"
    op = Anchored("t", ("    def f(self):  ",), ("    def f(self, y):",))
    cs = apply_ops([op], {"t": text})
    assert cs.reports[0].tier == "trailing_whitespace"


def test_anchored_must_be_unique_and_found():
    cs = apply_ops([Anchored("m.py", ("    return 0",), ("x",))], {"m.py": CODE + CODE})
    assert cs.errors[0].code == "ambiguous"
    assert cs.errors[0].error.lines == [8, 16]
    cs = apply_ops(
        [Anchored("m.py", ("    return 0",), ("x",), hint_line=15)], {"m.py": CODE + CODE}
    )
    assert cs.ok
    cs = apply_ops([Anchored("m.py", ("nope",), ("x",))], {"m.py": CODE})
    assert cs.errors[0].code == "no_match"
    cs = apply_ops([Anchored("m.py", ("def g():",), ("x",), end=("    a = 1",))], {"m.py": CODE})
    assert cs.errors[0].code == "no_match" and "end lines" in cs.errors[0].error.message


def test_anchored_keeps_crlf_of_unchanged_lines():
    text = "a\r\nb\r\nc\r\nd\r\n"
    op = Anchored("t", ("b",), ("b", "B2", "c"), end=("c",))
    assert apply_ops([op], {"t": text}).texts()["t"] == "a\r\nb\r\nB2\r\nc\r\nd\r\n"


SCOPED = "".join(f"line {i}\n" for i in range(1, 31)) + (
    "class A:\n    def f(self):\n        return 1\n    def g(self):\n        return 1\n"
)


def test_errors_below_a_scope_line_count_lines_from_the_top_of_the_file():
    # The search runs below `class A:` (line 31); the lines it reports are the file's own.
    miss = Replace("a.py", "        return 9\n", "        return 2\n", scope=("class A:",))
    cs = apply_ops([miss], {"a.py": SCOPED})
    err = cs.errors[0].error
    assert err.code == "no_match"
    assert [(r.start_line, r.end_line) for r in err.closest[:2]] == [(33, 33), (35, 35)]
    assert "closest: lines 33-33 (88% similar), lines 35-35 (88% similar)" in err.message
    # Below the previous edit of the same file, likewise.
    first = Replace("a.py", "    def f(self):\n", "    def f(self, x):\n")
    below = Replace("a.py", "        return 9\n", "        return 2\n", after_previous=True)
    cs = apply_ops([first, below], {"a.py": SCOPED})
    err = cs.errors[0].error
    assert [(r.start_line, r.end_line) for r in err.closest[:2]] == [(33, 33), (35, 35)]
