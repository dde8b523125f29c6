"""delete_block: `LegacyRect`, its banner, its `__all__` entry and `import warnings` are gone.

Rules: shapes.py parses; no class, name or string `LegacyRect` and no `warnings` import or use
is left; no line of the deprecation banner remains; the module is the original minus exactly
those four things (AST); the neighbouring classes Shape, Circle, Rectangle and Square keep
their exact source text, decorators included, in their original order; other files
byte-identical, none added or removed.
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

TARGET = "geometry/shapes.py"
GONE = "LegacyRect"
NEIGHBOURS = ["Shape", "Circle", "Rectangle", "Square"]
BANNER_MARK = "# Deprecated: kept for callers of the 1.x API"


def _imports_warnings(node: ast.AST) -> bool:
    if isinstance(node, ast.Import):
        return any(a.name == "warnings" or a.name.startswith("warnings.") for a in node.names)
    return isinstance(node, ast.ImportFrom) and node.module == "warnings"


def _classes(module: ast.Module) -> dict[str, ast.ClassDef]:
    return {n.name: n for n in module.body if isinstance(n, ast.ClassDef)}


def _banner(source: str) -> list[str]:
    """The banner's lines: the comment block that holds BANNER_MARK."""
    lines = source.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith(BANNER_MARK))
    start, end = at, at
    while start > 0 and lines[start - 1].startswith("#"):
        start -= 1
    while end + 1 < len(lines) and lines[end + 1].startswith("#"):
        end += 1
    return [line.strip() for line in lines[start : end + 1]]


def _expected(original: ast.Module) -> ast.Module:
    body = []
    for node in original.body:
        if isinstance(node, ast.ClassDef) and node.name == GONE:
            continue
        if isinstance(node, ast.Import) and [a.name for a in node.names] == ["warnings"]:
            continue
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.List):
            node.value.elts = [
                e for e in node.value.elts if not (isinstance(e, ast.Constant) and e.value == GONE)
            ]
        body.append(node)
    original.body = body
    return original


def _check(root: pathlib.Path) -> list[str]:
    problems: list[str] = []
    tree = task_checks.tree(root)
    source = (BEFORE / TARGET).read_text(encoding="utf-8")
    module = task_checks.parse(tree, TARGET, problems)
    if module is not None:
        text = tree[TARGET].decode("utf-8")
        found = []
        for node in ast.walk(module):
            line = getattr(node, "lineno", 0)
            if isinstance(node, ast.ClassDef) and node.name == GONE:
                found.append((line, f"class {GONE} is still defined"))
            elif (isinstance(node, ast.Name) and node.id == GONE) or (
                isinstance(node, ast.Constant) and node.value == GONE
            ):
                found.append((line, f"{GONE} is still referred to"))
            elif _imports_warnings(node):
                found.append((line, "warnings is still imported"))
        problems += [f"{TARGET} line {line}: {what}" for line, what in sorted(found)]
        banner = set(_banner(source))
        left = [i + 1 for i, line in enumerate(text.splitlines()) if line.strip() in banner]
        if left:
            lines = ", ".join(map(str, left))
            problems.append(f"{TARGET}: the deprecation banner is still there (line(s) {lines})")

        original = ast.parse(source)
        want_classes, got_classes = _classes(original), _classes(module)
        got_lines, want_lines = text.splitlines(keepends=True), source.splitlines(keepends=True)
        for name in NEIGHBOURS:
            if name not in got_classes:
                problems.append(f"{TARGET}: class {name} is missing")
            elif task_checks.segment(got_lines, got_classes[name]) != task_checks.segment(
                want_lines, want_classes[name]
            ):
                problems.append(f"{TARGET}: the text of class {name} changed")
        order = [n for n in got_classes if n in NEIGHBOURS]
        if order != [n for n in NEIGHBOURS if n in got_classes]:
            problems.append(f"{TARGET}: the remaining classes are no longer in their order")
        if not problems and ast.dump(module) != ast.dump(_expected(original)):
            problems.append(
                f"{TARGET} changed beyond removing {GONE}, its banner, its __all__ entry "
                "and the warnings import"
            )
    task_checks.others_unchanged(tree, BEFORE, {TARGET}, problems)
    return problems


def check(root: pathlib.Path) -> list[str]:
    """Problems with the tree at root (empty: the task is done)."""
    return task_checks.never_raise(_check, root)
