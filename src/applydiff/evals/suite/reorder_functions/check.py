"""reorder_functions: `parse_record` and `write_report` trade places in pipeline/steps.py.

Rules: steps.py parses; its top-level functions come in the order read_csv, clean_row,
write_report, group_by_day, parse_record; each function's source text (decorators included)
is byte-identical to the original; the module is the original with those two swapped (AST);
the file's non-blank lines are the original's, as a multiset (nothing added, lost or edited,
comments included); other files byte-identical, none added or removed.
"""

from __future__ import annotations

import ast
import collections
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent
BEFORE = HERE / "before"
if str(HERE.parent) not in sys.path:
    sys.path.insert(0, str(HERE.parent))
import task_checks  # noqa: E402

TARGET = "pipeline/steps.py"
FIRST, SECOND = "parse_record", "write_report"
ORDER = ["read_csv", "clean_row", SECOND, "group_by_day", FIRST]


def _functions(module: ast.Module) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    return [n for n in module.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]


def _swapped(module: ast.Module) -> list[str]:
    body = list(module.body)
    where = {n.name: i for i, n in enumerate(body) if isinstance(n, ast.FunctionDef)}
    i, j = where[FIRST], where[SECOND]
    body[i], body[j] = body[j], body[i]
    return [ast.dump(n) for n in body]


def _check(root: pathlib.Path) -> list[str]:
    problems: list[str] = []
    tree = task_checks.tree(root)
    source = (BEFORE / TARGET).read_text(encoding="utf-8")
    module = task_checks.parse(tree, TARGET, problems)
    if module is not None:
        text = tree[TARGET].decode("utf-8")
        original = ast.parse(source)
        names = [f.name for f in _functions(module)]
        if names != ORDER:
            problems.append(
                f"{TARGET}: the functions are in the order {', '.join(names)}; "
                f"expected {', '.join(ORDER)}"
            )
        got = {f.name: f for f in _functions(module)}
        want_lines, got_lines = source.splitlines(keepends=True), text.splitlines(keepends=True)
        for func in _functions(original):
            if func.name not in got:
                problems.append(f"{TARGET}: function {func.name} is missing")
            elif task_checks.segment(got_lines, got[func.name]) != task_checks.segment(
                want_lines, func
            ):
                problems.append(f"{TARGET}: the text of {func.name} changed")
        if not problems and [ast.dump(n) for n in module.body] != _swapped(original):
            problems.append(f"{TARGET} changed beyond swapping {FIRST} and {SECOND}")
        before_lines = collections.Counter(line for line in source.splitlines() if line.strip())
        after_lines = collections.Counter(line for line in text.splitlines() if line.strip())
        if before_lines != after_lines:
            extra = sorted((after_lines - before_lines).elements())
            lost = sorted((before_lines - after_lines).elements())
            problems.append(
                f"{TARGET}: lines were added ({len(extra)}) or lost ({len(lost)}), "
                f"e.g. {(extra or lost)[0].strip()!r}"
            )
    task_checks.others_unchanged(tree, BEFORE, {TARGET}, problems)
    return problems


def check(root: pathlib.Path) -> list[str]:
    """Problems with the tree at root (empty: the task is done)."""
    return task_checks.never_raise(_check, root)
