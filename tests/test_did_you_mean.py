"""Did you mean (issue 18, item 5): an edit of a file that does not exist names the file
whose name is closest and the files that hold its search text, in the message and facts."""

from __future__ import annotations

from pathlib import Path

from applydiff import Delete, Replace, Workspace
from applydiff.feedback import report

HELPER = b"def slugify(text):\n    return text.lower().replace(' ', '-')\n"


def make(root: Path, files: dict[str, bytes], **kw) -> Workspace:
    for rel, data in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(data)
    return Workspace(root, **kw)


BLOCK = """src/util.py
<<<<<<< SEARCH
    return text.lower().replace(' ', '-')
=======
    return text.strip().lower().replace(' ', '-')
>>>>>>> REPLACE
"""


def test_closest_name_and_the_file_with_the_search_text(tmp_path):
    files = {
        "src/utils.py": b"import os\n",
        "src/helpers/utils.py": HELPER,
        "README.md": b"# x\n",
    }
    ws = make(tmp_path, files)
    result = ws.apply(BLOCK)
    [e] = result.errors
    assert (e.code, e.path) == ("no_match", "src/util.py")
    assert e.message == (
        "cannot edit src/util.py: the file does not exist; check the path; to create it, use "
        "write_file. Did you mean src/utils.py? The search text is in src/helpers/utils.py."
    )
    assert e.facts["did_you_mean"] == "src/utils.py"
    assert e.facts["search_text_in"] == ["src/helpers/utils.py"]
    assert e.to_dict()["did_you_mean"] == "src/utils.py"
    assert "Did you mean src/utils.py?" in report(result, ws)
    assert {p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*") if p.is_file()} == set(
        files
    )


def test_search_text_in_a_few_files_names_them_all(tmp_path):
    ws = make(tmp_path, {"a/x.py": HELPER, "b/x.py": HELPER, "zzz.txt": b"q\n"})
    [e] = ws.apply(BLOCK).errors
    assert e.facts["search_text_in"] == ["a/x.py", "b/x.py"]
    assert e.message.endswith(" The search text is in a/x.py and b/x.py.")
    assert "did_you_mean" not in e.facts  # no name is alike enough


def test_search_text_in_many_files_is_not_named(tmp_path):
    ws = make(tmp_path, {f"m{k}/x.py": HELPER for k in range(5)})
    [e] = ws.apply(BLOCK).errors
    assert "search_text_in" not in e.facts
    assert "The search text is in" not in e.message


def test_ignored_files_are_not_suggested(tmp_path):
    ws = make(
        tmp_path,
        {
            ".applydiffignore": b"secret/\n",
            "secret/util.py": HELPER,
            ".git/util.py": HELPER,
            "src/other.txt": b"x\n",
        },
    )
    [e] = ws.apply(BLOCK).errors
    assert "did_you_mean" not in e.facts and "search_text_in" not in e.facts
    assert e.message == (
        "cannot edit src/util.py: the file does not exist; check the path; to create it, use "
        "write_file"
    )


def test_delete_and_move_of_a_missing_file_get_the_name(tmp_path):
    ws = make(tmp_path, {"docs/guide.md": b"g\n"})
    [e] = ws.apply([Delete("docs/guid.md")]).errors
    assert e.facts["did_you_mean"] == "docs/guide.md"
    assert e.message.endswith("Did you mean docs/guide.md?")


def test_a_creation_is_not_a_missing_file(tmp_path):
    ws = make(tmp_path, {"src/utils.py": b"x\n"})
    result = ws.apply([Replace("src/util.py", "", "new\n")])
    assert result.ok and (tmp_path / "src/util.py").read_bytes() == b"new\n"


def test_the_scan_is_capped(tmp_path):
    from applydiff.store import TREE_SCAN_LIMIT

    assert TREE_SCAN_LIMIT == 20_000
    ws = make(tmp_path, {f"d{k:02}/f.py": b"x\n" for k in range(30)} | {"zz/util.py": HELPER})
    assert len(ws.tree_files()) == 31
    assert ws.tree_files(5) == [f"d{k:02}/f.py" for k in range(5)]


def test_a_shared_extension_alone_is_no_suggestion(tmp_path):
    # 'nope.txt' and 'keep.txt' share 6 of 8 characters, all of them the extension's and a 'e'.
    ws = make(tmp_path, {"keep.txt": b"k\n", "crlf.txt": b"c\n"})
    for missing in ("nope.txt", "f.txt"):
        answer = f"{missing}\n<<<<<<< SEARCH\nzzz\n=======\nyyy\n>>>>>>> REPLACE\n"
        [e] = ws.apply(answer).errors
        assert "did_you_mean" not in e.facts and "Did you mean" not in e.message
