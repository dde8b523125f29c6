"""rename_in_file: `calc_reorder_qty` is `reorder_quantity` everywhere in inventory/stock.py.

Rules: stock.py parses, holds no name `calc_reorder_qty` (definition, use or attribute),
defines `reorder_quantity` at the top level, and is the original module with exactly that
rename applied (compared as ASTs, so formatting may differ); every other file, including
reports.py with its unrelated `_calc_reorder_qty`, is byte-identical; no file added or removed.
"""

from __future__ import annotations

import ast
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent
BEFORE = HERE / "before"
if str(HERE.parent) not in sys.path:
    sys.path.insert(0, str(HERE.parent))
import task_checks  # noqa: E402

TARGET = "inventory/stock.py"
OLD, NEW = "calc_reorder_qty", "reorder_quantity"


def _first_difference(got: ast.Module, want: ast.Module) -> str:
    for i, (a, b) in enumerate(zip(got.body, want.body, strict=False)):
        if ast.dump(a) != ast.dump(b):
            return f"first at the top-level statement on line {a.lineno} (statement {i + 1})"
    return f"{len(got.body)} top-level statements where {len(want.body)} were expected"


class _Rename(ast.NodeTransformer):
    def visit_Name(self, node: ast.Name) -> ast.Name:
        if node.id == OLD:
            node.id = NEW
        return node

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.FunctionDef:
        if node.name == OLD:
            node.name = NEW
        self.generic_visit(node)
        return node


def _check(root: pathlib.Path) -> list[str]:
    problems: list[str] = []
    tree = task_checks.tree(root)
    module = task_checks.parse(tree, TARGET, problems)
    if module is not None:
        stale = sorted(
            {
                node.lineno
                for node in ast.walk(module)
                if (isinstance(node, ast.Name) and node.id == OLD)
                or (isinstance(node, ast.Attribute) and node.attr == OLD)
                or (isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name == OLD)
            }
        )
        if stale:
            lines = ", ".join(map(str, stale))
            problems.append(f"{TARGET} still uses the old name {OLD} on line(s) {lines}")
        if not any(isinstance(n, ast.FunctionDef) and n.name == NEW for n in module.body):
            problems.append(f"{TARGET} defines no top-level function {NEW}")
        if not problems:
            source = (BEFORE / TARGET).read_text(encoding="utf-8")
            want = _Rename().visit(ast.parse(source))
            if ast.dump(module) != ast.dump(want):
                problems.append(
                    f"{TARGET} differs from the original by more than the rename: "
                    + _first_difference(module, want)
                )
    task_checks.others_unchanged(tree, BEFORE, {TARGET}, problems)
    return problems


def check(root: pathlib.Path) -> list[str]:
    """Problems with the tree at root (empty: the task is done)."""
    return task_checks.never_raise(_check, root)
