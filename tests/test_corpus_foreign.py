"""The accuracy corpus's issue-14 kinds and the foreign corpus: deterministic per seed, and each
kind's ``expected`` what the kind says, checked on small files written here (C with tabs and
form feeds, JavaScript). Nothing here runs the matcher's answers against ``expected``."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path

import pytest

from applydiff.bench.block_lines import ODD_BREAKS, is_code, lead
from applydiff.bench.case_maker import Case
from applydiff.bench.corpus import LINE_KINDS, Generator, generate
from applydiff.bench.intended_edit import Edit, names_in, new_statement
from applydiff.bench.langs import BRACE, CSS, PY, lang_of
from applydiff.bench.noise import ELISION_MARKER, Noise, misquote
from applydiff.bench.sources import FOREIGN, foreign_groups, handwritten, load, source_files

C_HEADER = (
    "/* Fixture header.  */\n#ifndef _FIXTURE_H\n#define _FIXTURE_H\t1\n\n"
    + "".join(
        f"/* Function {i}.  */\n"
        f"extern int fixture_call_{i} (struct thing_{i} *__restrict __buf,\n"
        f"\t\t\t     long int *__restrict __r{i}) __THROW;\n"
        f"#define FIXTURE_FLAG_{i}\t0x{i:04x}\t/* Flag {i}.  */\n"
        "typedef struct\n"
        "  {\n"
        f"    int\tfield_{i};\t\t/* Field {i}.  */\n"
        f"    char\t*name_{i};\n"
        f"  }} fixture_{i}_t;\n" + ("\f\n" if i % 3 == 2 else "\n")
        for i in range(16)
    )
    + "#endif /* fixture.h */\n"
)

JS = "'use strict'\n\n" + "".join(
    f"class Command{i} extends Base {{\n"
    f"  static name = 'cmd-{i}'\n"
    f"  static params = ['all', 'dry-run', 'json-{i}']\n\n"
    "  async exec (args) {\n"
    "    if (this.npm.silent) {\n"
    f"      return {i}\n"
    "    }\n"
    f"    const result{i} = await run{i}(args, {{ depth: {i} }})\n"
    f"    return result{i}\n"
    "  }\n"
    "}\n\n"
    for i in range(12)
)


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> str:
    root = tmp_path_factory.mktemp("foreign")
    (root / "fixture.h").write_text(C_HEADER, encoding="utf-8")
    (root / "command.js").write_text(JS, encoding="utf-8")
    return str(root / "*")


def block_of(case: Case) -> list[str]:
    """The lines of the file's block that the case meant."""
    lines = case.text.replace("\r", "\n").split("\n")
    n = len(case.old.rstrip("\n").split("\n"))
    return lines[case.line - 1 : case.line - 1 + n]


def joined(lines: list[str], old: str) -> str:
    return "\n".join(lines) + ("\n" if old.endswith("\n") else "")


def test_languages_by_extension(files: str) -> None:
    assert lang_of("x.py") is PY and lang_of("y.h") is BRACE
    assert lang_of("z.pm").name == "perl" and lang_of("a.CSS").name == "css"
    assert PY.remark("... existing code ...") == ELISION_MARKER
    assert CSS.remark("x") == "/* x */"
    src = load(files.replace("*", "fixture.h"))
    assert src is not None and src.lang is BRACE
    assert is_code("#define X 1", BRACE) and not is_code("#define X 1")
    assert not is_code(" * a comment", BRACE)
    assert names_in(["static int count_items (void)"], BRACE) == ["count_items"]
    rng = random.Random(0)
    assert new_statement(rng, "\t", ["x"], BRACE).endswith(";")


def test_misquote_shapes() -> None:
    rng = random.Random(3)
    seen = set()
    line = '    def __init__(self, files=None, inplace=False, backup="", *,'
    for _ in range(200):
        got = misquote(rng, line)
        if got is None:
            continue
        wrong, how = got
        assert wrong != line and lead(wrong) == lead(line)
        seen.add(how.split()[0])
    assert seen == {"typo", "space", "punct"}
    assert misquote(random.Random(0), "  ") is None


def test_deterministic_per_seed(files: str) -> None:
    kinds = [*LINE_KINDS, "exact", "elision", "tabs_spaces", "typo1"]
    a = generate(kinds, 3, seed=1, files=files)
    assert a == generate(kinds, 3, seed=1, files=files)
    assert a != generate(kinds, 3, seed=2, files=files)
    assert {c.kind for c in a} == set(kinds)
    # Case i of kind k is generate([k], i + 1, seed)[i].
    for kind in LINE_KINDS:
        assert generate([kind], 2, seed=1, files=files)[1] == [c for c in a if c.kind == kind][1]


def test_misquote_fixed_expected(files: str) -> None:
    cases = generate(["misquote_fixed"], 8, seed=0, files=files)
    assert len(cases) == 8
    for case in cases:
        block = block_of(case)
        old = case.old.rstrip("\n").split("\n")
        wrong = [i for i, (x, y) in enumerate(zip(old, block, strict=True)) if x != y]
        assert len(wrong) == 1  # one misquoted line, and new writes it as the file has it
        assert block[wrong[0]] in case.new.split("\n")
        assert case.expected == case.text.replace(joined(block, case.old), case.new, 1)
        assert case.old not in case.text


def test_tabs_as_spaces_expected(files: str) -> None:
    cases = generate(["tabs_as_spaces"], 8, seed=0, files=files)
    assert len(cases) == 8
    for case in cases:
        assert "\t" not in case.old + case.new
        width = int(case.note.split("tab width ")[1].split(";")[0])
        lines, block = case.text.split("\n"), block_of(case)
        assert case.old == joined([x.expandtabs(width) for x in block], case.old)
        assert case.expected is not None
        after = case.expected.split("\n")
        edited = after[case.line - 1 : case.line - 1 + len(case.new.rstrip("\n").split("\n"))]
        # The model's new block is the expected block retyped; every line of it that the model
        # did not change is the file's line, tabs and all.
        assert case.new == joined([x.expandtabs(width) for x in edited], case.new)
        assert sum("\t" in x for x in edited) >= sum("\t" in x for x in block) - 1
        unchanged = [x for x in edited if x in block]
        assert len(unchanged) >= len(edited) - 1
        assert after[: case.line - 1] == lines[: case.line - 1]


def test_cut_lines_expected(files: str) -> None:
    for kind, at in (("cut_first_line", 0), ("cut_last_line", -1)):
        cases = generate([kind], 6, seed=0, files=files)
        assert len(cases) == 6
        for case in cases:
            block = block_of(case)
            old, new = case.old.rstrip("\n").split("\n"), case.new.rstrip("\n").split("\n")
            cut, full = old[at], block[at]
            assert full.startswith(cut) and len(cut) < len(full.rstrip())
            assert new[at] == full  # new holds the file's full line
            rest = slice(1, None) if at == 0 else slice(None, -1)
            assert old[rest] == block[rest]
            assert case.expected == case.text.replace(joined(block, case.old), case.new, 1)


def test_odd_line_breaks_expected(files: str) -> None:
    cases = generate(["odd_line_breaks"], 12, seed=0, files=files)
    assert len(cases) == 12
    assert any("the file's own" in c.note for c in cases)
    assert any("put in" in c.note for c in cases)
    for case in cases:
        block = block_of(case)
        assert any(ch in x for x in block for ch in ODD_BREAKS)
        assert "\r" not in case.text
        if case.note.endswith("model: verbatim"):
            assert case.old in case.text
            assert case.expected == case.text.replace(case.old, case.new, 1)
        # The file's odd characters outside the block stay where they were.
        assert case.expected is not None
        outside = case.text.split("\n")[: case.line - 1]
        assert case.expected.split("\n")[: case.line - 1] == outside


def test_cr_only_expected(files: str) -> None:
    cases = generate(["cr_only"], 6, seed=0, files=files)
    assert len(cases) == 6
    for case in cases:
        assert "\n" not in case.text and "\r" in case.text
        assert "\r" not in case.old + case.new
        assert case.expected is not None and "\n" not in case.expected
        lf = case.text.replace("\r", "\n")
        assert case.expected == lf.replace(case.old, case.new, 1).replace("\n", "\r")


def test_hand_checked_examples(files: str) -> None:
    """Each kind's noise on a block written out by hand: old, new and expected as bytes."""
    path = files.replace("*", "fixture.h")
    src = load(path)
    assert src is not None
    start = src.lines.index("/* Function 1.  */")
    block = src.lines[start : start + 6]
    assert block[4] == "typedef struct"
    gen = Generator("misquote_fixed", 0, [path])
    before = "\n".join(src.lines[:start]) + "\n"
    after = "\n" + "\n".join(src.lines[start + 6 :])
    decl = "extern int fixture_call_1 (struct thing_1 *__restrict __buf,"
    args = "\t\t\t     long int *__restrict __r1) __THROW;"
    flag = "#define FIXTURE_FLAG_1\t0x0001\t/* Flag 1.  */"

    # misquote_fixed: a space moved in old's line 2, new has the file's line; the edit renames.
    edit = Edit(3, "modify", flag.replace("0x0001", "0x0011"))
    case = gen.case(src, src.lines, start, block, edit, Noise(search={1: decl.replace(" (", "( ")}))
    assert case is not None
    assert case.old.split("\n")[1] == "extern int fixture_call_1( struct thing_1 *__restrict __buf,"
    assert case.new.split("\n")[1] == decl
    want = ["/* Function 1.  */", decl, args, flag.replace("0x0001", "0x0011"), *block[4:]]
    assert case.expected == before + "\n".join(want) + after

    # tabs_as_spaces: tabs retyped at width 8 (alignment ones too); a new line at the
    # indentation of its neighbour gets the neighbour's bytes.
    gen = Generator("tabs_as_spaces", 0, [path])
    new_line = "\t\t\t     long int __extra;"
    case = gen.case(
        src, src.lines, start, block, Edit(2, "insert", new_line), Noise(lambda x: x.expandtabs(8))
    )
    assert case is not None
    assert case.old.split("\n")[2] == " " * 29 + "long int *__restrict __r1) __THROW;"
    assert case.old.split("\n")[3] == "#define FIXTURE_FLAG_1  0x0001  /* Flag 1.  */"
    assert case.new.split("\n")[3] == " " * 29 + "long int __extra;"
    assert case.expected == before + "\n".join([*block[:3], new_line, *block[3:]]) + after

    # cut_last_line: old's last line cut mid-line, new has it whole.
    gen = Generator("cut_last_line", 0, [path])
    edit = Edit(2, "modify", args.replace("__r1", "__r9"))
    noise = Noise(search={3: flag[:15]})
    case = gen.case(src, src.lines, start, block[:4], edit, noise, final_newline=True)
    assert case is not None and case.old.split("\n")[3] == "#define FIXTURE"
    assert case.new.split("\n")[3] == flag
    assert case.expected == before + "\n".join([*block[:2], edit.line, *block[3:]]) + after

    # cr_only: the file's lines end with CR, the model's with LF; expected keeps CR.
    gen = Generator("cr_only", 0, [path])
    case = gen.case(src, src.lines, start, block, edit, Noise(), eol="\r", final_newline=True)
    assert case is not None and "\r" not in case.old and case.old.count("\n") == 6
    want = before + "\n".join([*block[:2], edit.line, *block[3:]]) + after
    assert case.expected == want.replace("\n", "\r")

    # odd_line_breaks: the file's form feed line next to the block stays; U+2028 in a line the
    # model copies stays in the edited line.
    lines = list(src.lines)
    lines[start + 3] = flag + "\u2028"
    odd = lines[start : start + 6]
    gen = Generator("odd_line_breaks", 0, [path])
    edit = Edit(3, "modify", odd[3].replace("0x0001", "0x0002"))
    case = gen.case(src, lines, start, odd, edit, Noise(), final_newline=True)
    assert case is not None and "\u2028" in case.old and "\u2028" in case.new
    assert case.expected is not None
    assert "#define FIXTURE_FLAG_1\t0x0002\t/* Flag 1.  */\u2028\ntypedef" in case.expected
    assert case.expected.count("\f") == case.text.count("\f") == C_HEADER.count("\f")


@pytest.mark.slow
@pytest.mark.skipif(not Path("/usr/include/stdio.h").exists(), reason="no C headers here")
def test_foreign_files() -> None:
    groups = foreign_groups()
    assert len(groups["C headers"]) > 100
    paths = [p for ps in groups.values() for p in ps]
    assert len(paths) == len(set(paths))
    assert all(ps == sorted(ps) for ps in groups.values())
    assert source_files(FOREIGN) == sorted(paths)
    assert all(handwritten(p) for p in paths[:50])
    foreign_groups.cache_clear()
    assert foreign_groups() == groups


def test_accuracy_script_per_seed_table(files: str, capsys: pytest.CaptureFixture[str]) -> None:
    """benchmarks/accuracy.py on a few cases of two seeds: the per-seed table adds up (the
    outcomes themselves are the matcher's business, not this test's)."""
    path = Path(__file__).resolve().parent.parent / "benchmarks" / "accuracy.py"
    spec = importlib.util.spec_from_file_location("accuracy_bench_script", path)
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = script  # dataclasses look their module up
    try:
        spec.loader.exec_module(script)
        kinds = "cr_only,cut_first_line,absent"
        script.main(["--files", files, "--kinds", kinds, "--per-kind", "2", "--seeds", "0,1"])
    finally:
        del sys.modules[spec.name]
    out = capsys.readouterr().out
    assert "## Per kind and seed" in out and "| kind | must | seed 0 | seed 1 |" in out
    row = next(x for x in out.splitlines() if x.startswith("| cr_only | apply |"))
    for cell in row.split("|")[3:5]:
        cases, counts = cell.split(":")
        assert int(cases) == 2 == sum(int(x) for x in counts.split("/"))
    assert "| absent | refuse |" in out
