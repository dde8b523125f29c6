"""The model task suite (src/applydiff/evals/suite): every task is well formed, its reference
answer applies with applydiff to exactly the expected tree, and its checker tells a correct
tree from a wrong or broken one without raising."""

from __future__ import annotations

import functools
import importlib.util
import json
import shutil
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from applydiff import Workspace
from applydiff.evals.tasks import default_suite

SUITE = default_suite()
TASKS = sorted(p for p in SUITE.iterdir() if p.is_dir() and (p / "task.json").is_file())
IDS = [t.name for t in TASKS]
REQUIRED = {
    "rename_in_file",
    "add_parameter",
    "insert_function",
    "delete_block",
    "reorder_functions",
    "crlf_edit",
    "deep_edit",
}
IGNORED = {".applydiff", "__pycache__"}

Check = Callable[[Path], list[str]]


@functools.cache
def load_check(task: Path) -> Check:
    spec = importlib.util.spec_from_file_location(f"model_task_{task.name}", task / "check.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    saved, sys.dont_write_bytecode = sys.dont_write_bytecode, True  # no __pycache__ in the suite
    try:
        spec.loader.exec_module(module)
    finally:
        sys.dont_write_bytecode = saved
    return module.check


def tree_bytes(root: Path) -> dict[str, bytes]:
    """Every file under root, by relative POSIX path (the workspace's own state left out)."""
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and not IGNORED & set(p.relative_to(root).parts)
    }


def copy(src: Path, dst: Path) -> Path:
    shutil.copytree(src, dst, ignore=shutil.ignore_patterns(*IGNORED))
    return dst


def run_check(task: Path, root: Path) -> list[str]:
    problems = load_check(task)(root)
    assert isinstance(problems, list)
    assert all(isinstance(p, str) and p for p in problems), problems
    return problems


# -- the suite as a whole ----------------------------------------------------------------------
def test_suite_collects_the_required_tasks():
    assert len(TASKS) >= 7, IDS
    assert set(IDS) >= REQUIRED, REQUIRED - set(IDS)


def test_every_directory_in_the_suite_is_a_complete_task():
    for entry in SUITE.iterdir():
        if not entry.is_dir() or entry.name.startswith((".", "_")):
            continue
        for part in ("task.json", "answer.md", "check.py"):
            assert (entry / part).is_file(), f"{entry.name} has no {part}"
        for part in ("before", "expected"):
            assert (entry / part).is_dir(), f"{entry.name} has no {part}/"


def test_git_stores_the_suite_byte_exact():
    lines = (SUITE / ".gitattributes").read_text(encoding="utf-8").splitlines()
    assert "* -text" in lines


def test_the_crlf_file_has_crlf_on_every_line():
    for tree in ("before", "expected"):
        data = (SUITE / "crlf_edit" / tree / "app" / "settings.py").read_bytes()
        assert data.endswith(b"\r\n")
        assert data.count(b"\n") == data.count(b"\r\n") == data.count(b"\r")


def test_the_deep_edit_is_deep_in_a_large_file():
    rel = Path("ledger") / "rules.py"
    before = (SUITE / "deep_edit" / "before" / rel).read_text(encoding="utf-8").splitlines()
    after = (SUITE / "deep_edit" / "expected" / rel).read_text(encoding="utf-8").splitlines()
    assert 2800 <= len(before) == len(after) <= 3300
    changed = [i + 1 for i, (a, b) in enumerate(zip(before, after, strict=True)) if a != b]
    assert changed and all(2300 <= n <= 2500 for n in changed), changed


# -- every task --------------------------------------------------------------------------------
@pytest.mark.parametrize("task", TASKS, ids=IDS)
def test_task_json_has_prompt_and_description(task: Path):
    data = json.loads((task / "task.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    for key in ("prompt", "description"):
        assert isinstance(data.get(key), str) and data[key].strip(), key
    assert "\n" not in data["description"]


@pytest.mark.parametrize("task", TASKS, ids=IDS)
def test_before_tree_gives_some_context(task: Path):
    assert 2 <= len(tree_bytes(task / "before")) <= 5


@pytest.mark.parametrize("task", TASKS, ids=IDS)
def test_check_rejects_the_starting_tree(task: Path):
    assert run_check(task, task / "before")


@pytest.mark.parametrize("task", TASKS, ids=IDS)
def test_check_accepts_the_expected_tree(task: Path):
    assert run_check(task, task / "expected") == []


@pytest.mark.parametrize("task", TASKS, ids=IDS)
def test_reference_answer_applies_to_exactly_the_expected_tree(task: Path, tmp_path: Path):
    tree = copy(task / "before", tmp_path / "tree")
    answer = (task / "answer.md").read_text(encoding="utf-8")
    result = Workspace(tree).apply(answer)
    assert result.ok, result.errors
    got, want = tree_bytes(tree), tree_bytes(task / "expected")
    assert sorted(got) == sorted(want)
    assert [path for path in want if got[path] != want[path]] == []
    assert run_check(task, tree) == []


@pytest.mark.parametrize("task", TASKS, ids=IDS)
def test_check_reports_a_broken_tree_instead_of_raising(task: Path, tmp_path: Path):
    empty = tmp_path / "empty"
    empty.mkdir()
    assert run_check(task, empty)
    assert run_check(task, tmp_path / "does-not-exist")
    broken = copy(task / "expected", tmp_path / "broken")
    for path in broken.rglob("*"):
        if path.suffix == ".py":
            path.write_text("def broken(:\n    pass\n", encoding="utf-8")
        elif path.is_file():
            path.write_bytes(b"\xff\xfe\x00 not text \x00")
    assert run_check(task, broken)
    undecodable = copy(task / "expected", tmp_path / "undecodable")
    for path in undecodable.rglob("*.py"):
        path.write_bytes(b"\xff\xfe\x00\x80")
    assert run_check(task, undecodable)


# -- deliberately wrong results ----------------------------------------------------------------
def edit(
    rel: str, old: str | bytes, new: str | bytes, *, every: bool = False
) -> Callable[[Path], None]:
    """A mutation: replace old (found exactly once, or anywhere with every) in one file."""

    def mutate(root: Path) -> None:
        path = root / rel
        data = path.read_bytes()
        a = old.encode() if isinstance(old, str) else old
        b = new.encode() if isinstance(new, str) else new
        if every:
            assert a in data, f"{old!r} is not in {rel}"
        else:
            assert data.count(a) == 1, f"{old!r} is not in {rel} exactly once"
        path.write_bytes(data.replace(a, b))

    return mutate


def from_before(task: str, rel: str) -> Callable[[Path], None]:
    """A mutation: the file as it was before the task (the change not made)."""

    def mutate(root: Path) -> None:
        shutil.copyfile(SUITE / task / "before" / rel, root / rel)

    return mutate


def add_file(rel: str, text: str) -> Callable[[Path], None]:
    def mutate(root: Path) -> None:
        (root / rel).write_text(text, encoding="utf-8")

    return mutate


SLUG_NEW = (
    'def collapse_hyphens(text: str) -> str:\n    return re.sub(r"-{2,}", "-", text).strip("-")\n'
)
WRONG = [
    (
        "rename_in_file",
        "the unrelated helper in reports.py renamed too",
        edit("inventory/reports.py", "_calc_reorder_qty", "_reorder_quantity", every=True),
    ),
    (
        "rename_in_file",
        "one use left under the old name",
        edit(
            "inventory/stock.py", "lambda item: reorder_quantity", "lambda item: calc_reorder_qty"
        ),
    ),
    (
        "rename_in_file",
        "an alias kept under the old name",
        edit(
            "inventory/stock.py",
            "\n\nSTRATEGIES",
            "\n\ncalc_reorder_qty = reorder_quantity\n\nSTRATEGIES",
        ),
    ),
    (
        "add_parameter",
        "a caller not updated",
        edit("notify/alerts.py", 'minutes late.\\n", attempts=5)', 'minutes late.\\n")'),
    ),
    (
        "add_parameter",
        "a caller passing the wrong value",
        edit("notify/alerts.py", "body=body, attempts=5", "body=body, attempts=3"),
    ),
    (
        "add_parameter",
        "the loop still tries three times",
        edit("notify/mailer.py", "range(1, attempts + 1)", "range(1, 4)"),
    ),
    (
        "insert_function",
        "inserted after slugify instead of after strip_accents",
        lambda root: (
            edit("textutils/slug.py", SLUG_NEW + "\n\n", "")(root),
            edit("textutils/slug.py", "def truncate", SLUG_NEW + "\n\ndef truncate")(root),
        ),
    ),
    (
        "insert_function",
        "hyphens at the ends not stripped",
        edit("textutils/slug.py", 'r"-{2,}", "-", text).strip("-")', 'r"-{2,}", "-", text)'),
    ),
    (
        "insert_function",
        "an existing function changed too",
        edit("textutils/slug.py", "max_length: int = 60", "max_length: int = 80"),
    ),
    (
        "delete_block",
        "the warnings import left behind",
        edit("geometry/shapes.py", "import math\n", "import math\nimport warnings\n"),
    ),
    (
        "delete_block",
        "a neighbour's text changed",
        edit(
            "geometry/shapes.py",
            "return 2 * math.pi * self.radius",
            "return math.tau * self.radius",
        ),
    ),
    (
        "delete_block",
        "the class not deleted",
        from_before("delete_block", "geometry/shapes.py"),
    ),
    (
        "reorder_functions",
        "functions not swapped",
        from_before("reorder_functions", "pipeline/steps.py"),
    ),
    (
        "reorder_functions",
        "a comment in a moved function lost",
        edit("pipeline/steps.py", "    # group_by_day already sorted the days.\n", ""),
    ),
    (
        "crlf_edit",
        "CRLF turned into LF",
        edit("app/settings.py", b"\r\n", b"\n", every=True),
    ),
    (
        "crlf_edit",
        "the new line written with LF",
        edit("app/settings.py", b'"connect_timeout": 10,\r\n', b'"connect_timeout": 10,\n'),
    ),
    (
        "crlf_edit",
        "the port read as a string",
        edit(
            "app/settings.py",
            'int(os.environ.get("DB_PORT", "5432"))',
            'os.environ.get("DB_PORT", "5432")',
        ),
    ),
    (
        "crlf_edit",
        "an LF file converted to CRLF",
        edit("app/db.py", b"\n", b"\r\n", every=True),
    ),
    (
        "deep_edit",
        "the invoice late fee changed as well",
        edit("ledger/rules.py", "    if days_late <= 14:", "    if days_late <= 30:"),
    ),
    (
        "deep_edit",
        "only the grace period changed",
        edit("ledger/rules.py", 'fee = Decimal("20.00")', 'fee = Decimal("15.00")'),
    ),
    (
        "deep_edit",
        "a blank line added far from the edit",
        edit("ledger/rules.py", "CENT = Decimal", "\nCENT = Decimal"),
    ),
    (
        "new_test_file",
        "no test calls median",
        add_file("tests/test_median.py", "def test_nothing():\n    assert True\n"),
    ),
    (
        "new_test_file",
        "the function under test changed",
        edit("mathx/stats.py", "return ordered[middle]\n", "return float(ordered[middle])\n"),
    ),
]


def test_wrong_trees_cover_the_required_tasks():
    names = {name for name, _, _ in WRONG}
    assert names >= REQUIRED
    assert names <= set(IDS)


@pytest.mark.parametrize(
    ("name", "what", "mutate"), WRONG, ids=[f"{name}: {what}" for name, what, _ in WRONG]
)
def test_check_rejects_a_wrong_tree(
    name: str, what: str, mutate: Callable[[Path], object], tmp_path: Path
):
    task = SUITE / name
    tree = copy(task / "expected", tmp_path / "wrong")
    before = tree_bytes(tree)
    mutate(tree)
    assert tree_bytes(tree) != before, "the mutation changed nothing"
    assert run_check(task, tree), what
