"""Lazy snippets in brace languages: each wrong-merge shape the brace corpus found, and the
shapes it must place, with the exact bytes merged or the refusal.

The corpus is ``applydiff.bench.lazy_brace`` (``benchmarks/lazy.py --brace``); a small run of
it is checked here too: nothing misapplied, nothing whitespace-off.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from collections import Counter
from pathlib import Path

import pytest

from applydiff import Ambiguous, EditError, Lazy, apply_ops
from applydiff.bench import lazy_brace
from applydiff.match.lazy import merge_snippet as merge


def lines(*xs: str) -> str:
    return "".join(x + "\n" for x in xs)


def refused(text: str, snippet: str) -> EditError:
    with pytest.raises(EditError) as info:
        merge(text, snippet)
    return info.value


# -- a new line that is a common line of the file, before a "}" --------------------------------
CSS = lines(
    ".a {",
    "  width: 19px;",
    "  color: inherit;",
    "}",
    "",
    ".b {",
    "  padding: 0;",
    "  color: inherit;",
    "  display: flex;",
    "}",
)


def test_a_head_lengthened_by_a_common_new_line_is_not_a_place():
    # Meant: two properties added to .a. Read by its longest head ("color: inherit;" and
    # "display: flex;", as .b has them) it went into .b instead; either fits.
    snippet = lines(
        "/* ... existing code ... */",
        "  color: inherit;",
        "  display: flex;",
        "  font-size: 11px;",
        "}",
        "/* ... existing code ... */",
    )
    error = refused(CSS, snippet)
    assert isinstance(error, Ambiguous)
    assert "but as well lines 3-4" in error.message


def test_the_same_snippet_with_a_telling_line_before_it_merges():
    snippet = lines(
        "/* ... existing code ... */",
        "  width: 19px;",
        "  color: inherit;",
        "  display: flex;",
        "  font-size: 11px;",
        "}",
        "/* ... existing code ... */",
    )
    new, _ = merge(CSS, snippet)
    assert new == CSS.replace(
        "  color: inherit;\n}\n\n.b",
        "  color: inherit;\n  display: flex;\n  font-size: 11px;\n}\n\n.b",
    )


# -- a blank line at the tail's start that may end the new lines -------------------------------
HEADER = lines(
    "class Trace {",
    "  int size;",
    "};",
    "",
    "/// Load a trace from a file.",
    "/// |Filename|.",
    "int loadFile(const char *name);",
    "",
    "/// Load a trace from a file.",
    "/// DataExtractor.",
    "int loadData(const void *data);",
)


def test_a_tail_that_reaches_further_only_through_a_blank_line_is_refused():
    # Meant: a function inserted after "};". The blank line and the comment after it stand
    # together only at the second comment, so the longest tail deleted the first
    # declaration; the comment alone stands at both.
    snippet = lines(
        "// ... existing code ...",
        "};",
        "",
        "static int extra(int v) {",
        "  return v + 1;",
        "}",
        "",
        "/// Load a trace from a file.",
    )
    error = refused(HEADER, snippet)
    assert isinstance(error, Ambiguous)
    assert "at 2 places below its first lines" in error.message


def test_a_tail_whose_first_line_may_be_new_is_not_read_further_down():
    # Meant: "display: flex;" added after "width: 9px;". Its last two lines stand together
    # further down, so the longest tail deleted the three lines between; its last line alone
    # stands right below the head.
    css = lines(
        ".a {",
        "  font-size: 1px;",
        "  width: 9px;",
        "  padding: 0;",
        "  border: none;",
        "  margin: 0;",
        "  display: flex;",
        "  padding: 0;",
        "}",
    )
    snippet = lines(
        "/* ... existing code ... */",
        "  width: 9px;",
        "  display: flex;",
        "  padding: 0;",
        "/* ... existing code ... */",
    )
    error = refused(css, snippet)
    assert isinstance(error, Ambiguous)
    assert "(lines 4, 8)" in error.message


def test_a_deletion_before_a_tail_that_repeats_its_last_line_still_merges():
    css = lines(
        ".a {",
        "  box-sizing: border-box;",
        "  display: flex;",
        "  padding: 0;",
        "}",
        "",
        ".b {",
        "  padding: 0;",
        "}",
    )
    snippet = lines(
        "  box-sizing: border-box;",
        "  display: flex;",
        "}",
        "",
        ".b {",
        "  padding: 0;",
        "/* ... existing code ... */",
    )
    new, _ = merge(css, snippet)
    assert new == css.replace("  display: flex;\n  padding: 0;\n", "  display: flex;\n")


def test_a_head_whose_last_line_may_be_new_before_its_twin_is_refused():
    # Meant: "display: flex;" and "margin-top" added before the rule's first "display: flex;"
    # (three of them after). Read with the new "display: flex;" as the file's, one went.
    css = lines(
        ".a {",
        "  box-sizing: border-box;",
        "  font-size: 3px;",
        "  display: flex;",
        "  display: flex;",
        "}",
    )
    snippet = lines(
        "/* ... existing code ... */",
        "  font-size: 3px;",
        "  display: flex;",
        "  margin-top: 72px;",
        "  display: flex;",
        "/* ... existing code ... */",
    )
    error = refused(css, snippet)
    assert isinstance(error, Ambiguous)
    assert "as well lines 3-4 with its first 1 there and the rest new" in error.message


GUARDS = lines(
    "class A {",
    "    int f(Object total) {",
    "        if (total == null) {",
    "            return 0;",
    "        }",
    "        switch (total) {",
    "            default:",
    "                break;",
    "        }",
    "        if (total == null) {",
    "            return;",
    "        }",
    "        entry.add(count);",
    "    }",
    "}",
)


@pytest.mark.parametrize("after", ["        entry.add(count);", "        try {"])
def test_a_block_after_a_closing_brace_changed_or_added_is_refused(after):
    # Meant: a new guard added after the second one. Read from the "}" above that guard, the
    # snippet changed its "return;" instead; read from the guard's own "}", it adds a block.
    text = (
        GUARDS if "entry" in after else GUARDS.replace("        entry", after + "\n        entry")
    )
    snippet = lines(
        "// ... existing code ...",
        "        }",
        "        if (total == null) {",
        "            return null;",
        "        }",
        after,
        "// ... existing code ...",
    )
    error = refused(text, snippet)
    assert isinstance(error, Ambiguous)
    assert "changing some, and as well lines 12-13" in error.message


def test_a_block_after_another_closing_brace_read_as_a_change_is_refused():
    # Meant: the guard added after the first loop's switch, before its "return;". From the
    # second loop's "}" (followed there by a guard like it), it changed that guard instead.
    java = lines(
        "class A {",
        "    void f(int x) {",
        "        for (int i = 0; i < x; i++) {",
        "            switch (x) {",
        "                default:",
        "                    break;",
        "            }",
        "            return;",
        "        }",
        "        for (int i = 0; i < x; i++) {",
        "            switch (x) {",
        "                default:",
        "                    break;",
        "            }",
        "            if (buffer == null) {",
        "                return item;",
        "            }",
        "            return token;",
        "        }",
        "    }",
        "}",
    )
    snippet = lines(
        "                    // ...existing code...",
        "            }",
        "            if (buffer == null) {",
        "                return null;",
        "            }",
        "            return;",
        "        // ...existing code...",
    )
    error = refused(java, snippet)
    assert isinstance(error, Ambiguous)
    assert "changing some, and as well lines 7-8" in error.message


# -- tabs retyped as spaces --------------------------------------------------------------------
GO = lines(
    "package main",
    "",
    "type socketContext struct {",
    "\tmutex sync.Mutex",
    "\tlast  time.Time",
    "}",
    "",
    "func (sc *socketContext) Done() {",
    "\tsc.mutex.Lock()",
    "\tdefer sc.mutex.Unlock()",
    "\tsc.last = time.Now()",
    "\tsc.WaitGroup.Done()",
    "}",
    "",
    "func main() {",
    "\trun()",
    "}",
)


def test_a_retyped_segment_held_by_an_unindented_line_is_not_inserted_beside_itself():
    # Only "func ... {" was in the file as written: the retyped lines after it were taken
    # for new ones and inserted, the old ones kept below them.
    snippet = lines(
        "// ... existing code ...",
        "func (sc *socketContext) Done() {",
        "    sc.mutex.Lock()",
        "    defer sc.mutex.Release()",
        "    sc.last = time.Now()",
        "// ... existing code ...",
    )
    new, _ = merge(GO, snippet)
    assert new == GO.replace("sc.mutex.Unlock()", "sc.mutex.Release()")


def test_a_retyped_segment_after_a_one_space_comment_line_keeps_the_tabs():
    c = lines(
        "/**",
        " * struct mmc_ioc_multi_cmd - multi command information",
        " */",
        "struct mmc_ioc_multi_cmd {",
        "\t__u64 num_of_cmds;",
        "\tstruct mmc_ioc_cmd cmds[];",
        "};",
        "",
        "#define MMC_IOC_CMD 0",
    )
    snippet = lines(
        " */",
        "struct mmc_ioc_multi_cmd {",
        "    __u64 num_of_cmds;",
        "    struct mmc_ioc_cmd commands[];",
        "// ... existing code ...",
    )
    new, _ = merge(c, snippet)
    assert new == c.replace("cmds[]", "commands[]")


def test_a_segment_retyped_in_part_is_not_inserted_beside_itself():
    # One line copied with its tab, the next ones retyped: read exactly, the retyped ones
    # were added after the copied one, the file's kept below them.
    go = lines("func f() {", "\ta := 1", "\tb := 2", "\tc := 3", "}", "", "func g() {}")
    snippet = lines("// ...", "func f() {", "\ta := 1", "    b := 2", "    c := 4", "// ...")
    new, _ = merge(go, snippet)
    assert new == go.replace("c := 3", "c := 4")


def test_a_new_line_with_a_tab_in_a_space_indented_block_is_written_as_given():
    # The header indents with spaces, its functions with tabs: a new line written with
    # spaces then a tab beside lines copied as they are was taken for a retyped segment and
    # re-indented.
    c = lines(
        "typedef struct Stubs {",
        "    int magic;",
        "    void (*reserved29)(void);",
        "    void (*reserved30)(void);",
        "    void (*reserved31)(void);",
        "} Stubs;",
        "",
        "static int f(int object)",
        "{",
        "\tif (object)",
        "\t\treturn 1;",
        "\t}",
        "\treturn 0;",
        "}",
    )
    added = ["    if (object == NULL) {", "    \treturn -1;", "    }"]
    snippet = lines(
        "typedef struct Stubs {",
        "    /* ... existing code ... */",
        "    void (*reserved30)(void);",
        *added,
        "    void (*reserved31)(void);",
        "    /* ... existing code ... */",
        "} Stubs;",
        "/* ... existing code ... */",
    )
    new, _ = merge(c, snippet)
    assert new == c.replace(
        "(void);\n    void (*reserved31)", "(void);\n" + lines(*added) + "    void (*reserved31)"
    )


def test_a_whole_function_retyped_keeps_the_files_tabs_on_lines_it_did_not_change():
    snippet = lines(
        "// ... existing code ...",
        "func (sc *socketContext) Done() {",
        "    sc.mutex.Lock()",
        "    defer sc.mutex.Unlock()",
        "    if sc.closed {",
        "        return",
        "    }",
        "    sc.last = time.Now()",
        "    sc.WaitGroup.Done()",
        "}",
        "// ... existing code ...",
    )
    new, _ = merge(GO, snippet)
    added = "\tif sc.closed {\n\t\treturn\n\t}\n"
    assert new == GO.replace("\tsc.last = time.Now()\n", added + "\tsc.last = time.Now()\n")


def test_a_new_line_in_tab_and_space_alignment_takes_its_neighbours_bytes():
    # GNU style: a level is two columns, a tab eight. The new line is written as the line
    # beside it is, "\t\t  ", not as a shift of columns would render it.
    c = lines(
        "static int",
        "copy_out (char *buffer, int len)",
        "{",
        "  __try",
        "\t{",
        "\t  fill (buffer, len);",
        "\t}",
        "  __catch(...)",
        "\t{",
        "\t  release (buffer, len);",
        "\t  __throw_exception_again;",
        "\t}",
        "  return 0;",
        "}",
    )
    snippet = lines(
        "  /* ... existing code ... */",
        "  __catch(...)",
        "    {",
        "      release (buffer, len);",
        "      log_failure (len);",
        "      __throw_exception_again;",
        "    }",
        "  /* ... existing code ... */",
    )
    new, _ = merge(c, snippet)
    assert new == c.replace("\t  __throw", "\t  log_failure (len);\n\t  __throw")


# -- whitespace-only lines -----------------------------------------------------------------------
def test_a_new_blank_line_is_not_given_the_spaces_of_the_files_blank_line_below():
    cpp = lines(
        "class Builder {",
        "    struct Node {",
        "        const char *s;",
        "    };",
        "    ",
        "    virtual Node *createNode(int i);",
        "};",
    )
    snippet = lines(
        "    // ... existing code ...",
        "    };",
        "",
        "    static int details(int value) {",
        "        return value + 1;",
        "    }",
        "    ",
        "    virtual Node *createNode(int i);",
    )
    new, _ = merge(cpp, snippet)
    member = "\n    static int details(int value) {\n        return value + 1;\n    }\n"
    assert new == cpp.replace("    };\n", "    };\n" + member)


# -- blocks shown whole, "}" tails -------------------------------------------------------------
C_SWITCHES = lines(
    "int a(int x) {",
    "\tswitch (x) {",
    "\t\tcase 1:",
    "\t\t\tcount++;",
    "\t\t\tbreak;",
    "\t\tdefault:",
    "\t\t\tbreak;",
    "\t}",
    "\treturn 0;",
    "}",
    "",
    "int b(int cache) {",
    "\tswitch (cache) {",
    "\t\tcase 2:",
    "\t\t\tname += 0;",
    "\t\t\tbreak;",
    "\t\tdefault:",
    "\t\t\tbreak;",
    "\t}",
    "\treturn 0;",
    "}",
)


def test_a_block_shown_whole_ends_at_its_own_closing_line():
    # Its last lines ("break;", "default:", "break;", "}") close every switch of the file:
    # the block the head opens ends at the first line back at its level.
    snippet = lines(
        "/* ... existing code ... */",
        "\tswitch (cache) {",
        "\t\tcase 2:",
        "\t\t\tname += 6;",
        "\t\t\tbreak;",
        "\t\tdefault:",
        "\t\t\tbreak;",
        "\t}",
        "/* ... existing code ... */",
    )
    new, _ = merge(C_SWITCHES, snippet)
    assert new == C_SWITCHES.replace("name += 0;", "name += 6;")


def test_a_block_shown_whole_without_its_one_line_deletes_that_line():
    go = lines(
        "func (s Socket) listen() error {",
        "\tif err := s.mkdir(); err != nil {",
        "\t\treturn err",
        "\t}",
        "\treturn nil",
        "}",
    )
    snippet = lines("// ...", "\tif err := s.mkdir(); err != nil {", "\t}", "// ...")
    new, _ = merge(go, snippet)
    assert new == go.replace("\t\treturn err\n", "")


def test_a_block_shown_with_a_few_of_its_lines_is_not_emptied():
    js = lines("function a() {", "  if (x) {", "    go();", "  }", "  return 1;", "}")
    snippet = lines("// ...", "function a() {", "  stop();", "}", "// ...")
    assert isinstance(refused(js, snippet), Ambiguous)


# -- one "}" alone, or two ---------------------------------------------------------------------
JAVA = lines(
    "public class Store {",
    "    public int load(int key) {",
    "        for (int i = 0; i < key; i++) {",
    "            count++;",
    "        }",
    "        return key;",
    "    }",
    "",
    "    public int save(int key) {",
    "        for (int i = 0; i < key; i++) {",
    "            total += i;",
    "        }",
    "        log(key);",
    "        return queue;",
    "    }",
    "}",
)


def test_a_block_shown_by_its_header_and_its_closing_brace_merges():
    snippet = lines(
        "// ... existing code ...",
        "    public int save(int key) {",
        "        // ... existing code ...",
        "            total += i;",
        "        }",
        "        log(key, 2);",
        "        return queue;",
        "        // ... existing code ...",
        "    }",
        "// ... existing code ...",
    )
    new, _ = merge(JAVA, snippet)
    assert new == JAVA.replace("log(key);", "log(key, 2);")


def test_two_closing_braces_alone_are_refused_they_may_show_a_deletion():
    # Meant: "return key;" deleted between the two braces around it. Placed where the two
    # stand together, the snippet changed nothing there and the deletion was lost.
    snippet = lines("// ... existing code ...", "        }", "    }", "// ... existing code ...")
    assert isinstance(refused(JAVA, snippet), EditError)


def test_html_closing_tags_alone_are_refused_too():
    page = lines(
        "<section>",
        "  <div>",
        "    <p>One</p>",
        "  </div>",
        "  <br>",
        "</section>",
        "<section>",
        "  <div>",
        "    <p>Two</p>",
        "  </div>",
        "</section>",
    )
    snippet = lines("<!-- ... -->", "  </div>", "</section>", "<!-- ... -->")
    assert isinstance(refused(page, snippet), EditError)


def test_the_public_api_applies_a_brace_snippet():
    snippet = lines(
        "// ... existing code ...",
        "    public int load(int key) {",
        "        for (int i = 0; i < key; i++) {",
        "            count += 2;",
        "// ... existing code ...",
    )
    result = apply_ops([Lazy("Store.java", snippet)], {"Store.java": JAVA})
    assert result.ok
    assert result.texts() == {"Store.java": JAVA.replace("count++;", "count += 2;")}


# -- the corpus --------------------------------------------------------------------------------
@pytest.mark.slow
def test_a_small_brace_corpus_run_has_nothing_wrong():
    cases = lazy_brace.generate(160, seed=7)
    assert len(cases) == 160
    assert {c.lang for c in cases} == set(lazy_brace.LANGS)
    wrong = []
    for case in cases:
        try:
            out, _ = merge(case.text, case.snippet)
        except EditError:
            continue
        if out != case.expected:
            wrong.append(case.path)
    assert wrong == []


@pytest.mark.slow
def test_the_brace_corpus_is_deterministic_by_seed():
    a = lazy_brace.generate(24, seed=3)
    b = lazy_brace.generate(24, seed=3)
    assert [(c.path, c.snippet, c.expected) for c in a] == [
        (c.path, c.snippet, c.expected) for c in b
    ]
    assert [c.snippet for c in lazy_brace.generate(24, seed=4)] != [c.snippet for c in a]


@pytest.mark.slow
def test_the_benchmark_script_runs_the_brace_corpus(tmp_path, capsys, monkeypatch):
    """benchmarks/lazy.py --brace: a table by language, nothing wrong, the JSON per case."""
    path = Path(__file__).resolve().parent.parent / "benchmarks" / "lazy.py"
    spec = importlib.util.spec_from_file_location("lazy_bench_brace", path)
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, script)  # dataclasses look their module up
    spec.loader.exec_module(script)
    out = tmp_path / "brace.json"
    code = script.main(["--brace", "--cases", "48", "--seed", "2", "--json", str(out)])
    text = capsys.readouterr().out
    data = json.loads(out.read_text())
    outcomes = Counter(r["outcome"] for r in data["results"])
    assert code == 0 and data["corpus"] == "brace"
    assert sum(outcomes.values()) == 48 and set(outcomes) <= {"correct", "refused"}
    assert {r["lang"] for r in data["results"]} == set(lazy_brace.LANGS)
    assert "## Seed 2, by language" in text
    for lang in lazy_brace.LANGS:
        row = next(x for x in text.splitlines() if x.startswith(f"| {lang} | 6 | "))
        cells = [x.strip() for x in row.split("|")[2:8]]
        assert cells[3:6] == ["0", "0", "0"]  # misapplied, whitespace-off, crashed


def test_a_retyped_snippet_keeps_the_blank_line_the_model_wrote_with_the_files_bytes():
    # The file's blank line holds a space; the model, retyping tabs as spaces, shows a new
    # blank line before the new function and the file's (with its space) after it.
    text = "struct a {\n\tint x;\n\tint z;\n}; \n \n/* B */\nint y;\n"
    snippet = (
        "struct a {\n    int x;\n    int z;\n}; \n\nstatic int f(int v) {\n    return v;\n}\n"
        " \n/* B */\n// ... existing code ...\n"
    )
    assert merge(text, snippet)[0] == (
        "struct a {\n\tint x;\n\tint z;\n}; \n\nstatic int f(int v) {\n\treturn v;\n}\n"
        " \n/* B */\nint y;\n"
    )
