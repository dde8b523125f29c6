"""rename_in_file: `calc_reorder_qty` is `reorder_quantity` everywhere in inventory/stock.py.

Rules: stock.py parses, holds no name `calc_reorder_qty` (definition, use or attribute),
defines `reorder_quantity` at the top level, and is the original module with exactly that
rename applied (compared as ASTs, so formatting may differ); every other file, including
reports.py with its unrelated `_calc_reorder_qty`, is byte-identical; no file added or removed.
"""

from __future__ import annotations

import ast
import pathlib

HERE = pathlib.Path(__file__).resolve().parent
BEFORE = HERE / "before"
SKIP = {".applydiff", "__pycache__", ".pytest_cache", ".git"}

TARGET = "inventory/stock.py"
OLD, NEW = "calc_reorder_qty", "reorder_quantity"


def _tree(root: pathlib.Path) -> dict[str, bytes]:
    """Every file under root (relative POSIX path -> bytes), caches left out."""
    out: dict[str, bytes] = {}
    if not root.is_dir():
        return out
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root)
        if any(part in SKIP for part in rel.parts) or path.suffix == ".pyc" or not path.is_file():
            continue
        try:
            out[rel.as_posix()] = path.read_bytes()
        except OSError:
            continue
    return out


def _parse(tree: dict[str, bytes], rel: str, problems: list[str]) -> ast.Module | None:
    data = tree.get(rel)
    if data is None:
        problems.append(f"{rel} is missing")
        return None
    try:
        return ast.parse(data.decode("utf-8"), filename=rel)
    except UnicodeDecodeError:
        problems.append(f"{rel} is not valid UTF-8")
    except (SyntaxError, ValueError) as e:
        problems.append(f"{rel} does not parse: {e}")
    return None


def _others_unchanged(
    tree: dict[str, bytes],
    edited: set[str],
    problems: list[str],
    added: frozenset[str] = frozenset(),
) -> None:
    before = _tree(BEFORE)
    for rel, data in before.items():
        if rel in edited:
            continue
        if rel not in tree:
            problems.append(f"{rel} is missing; the task does not remove it")
        elif tree[rel] != data:
            problems.append(f"{rel} was changed; the task leaves it as it was")
    for rel in sorted(set(tree) - set(before) - added):
        problems.append(f"{rel} is a new file; the task adds none")


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
    tree = _tree(root)
    module = _parse(tree, TARGET, problems)
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
    _others_unchanged(tree, {TARGET}, problems)
    return problems


def check(root: pathlib.Path) -> list[str]:
    """Problems with the tree at root (empty: the task is done)."""
    try:
        return _check(pathlib.Path(root))
    except Exception as e:  # a checker reports, it never raises
        return [f"the checker could not examine the tree: {type(e).__name__}: {e}"]
