"""new_test_file: tests/test_median.py tests `median` from mathx/stats.py.

Rules: tests/test_median.py exists and parses; it imports median from mathx.stats (any import
form); at least one test function (top-level `test_*`, or a `test_*` method of a `Test*`
class) calls median; ValueError appears (the empty-sequence case); when pytest is installed,
running the new module with it passes (without pytest that step is skipped); every existing
file is byte-identical and no other file is added.
"""

from __future__ import annotations

import ast
import importlib.util
import os
import pathlib
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent
BEFORE = HERE / "before"
if str(HERE.parent) not in sys.path:
    sys.path.insert(0, str(HERE.parent))
import task_checks  # noqa: E402

PYTEST_SECONDS = 60

TARGET = "tests/test_median.py"
FUNC, MODULE = "median", "mathx.stats"


def _tests(module: ast.Module) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    funcs = ast.FunctionDef | ast.AsyncFunctionDef
    found = [n for n in module.body if isinstance(n, funcs) and n.name.startswith("test")]
    for cls in module.body:
        if isinstance(cls, ast.ClassDef) and cls.name.startswith("Test"):
            found += [n for n in cls.body if isinstance(n, funcs) and n.name.startswith("test")]
    return found


def _median_names(module: ast.Module) -> tuple[set[str], bool]:
    """Local names bound to median, and whether mathx.stats is imported in any form."""
    names: set[str] = set()
    imported = False
    for node in ast.walk(module):
        if isinstance(node, ast.ImportFrom) and node.module == MODULE:
            imported = True
            names |= {a.asname or a.name for a in node.names if a.name == FUNC}
        elif isinstance(node, ast.ImportFrom) and node.module == "mathx":
            imported |= any(a.name == "stats" for a in node.names)
        elif isinstance(node, ast.Import):
            imported |= any(a.name == MODULE for a in node.names)
    return names, imported


def _calls_median(func: ast.AST, names: set[str]) -> bool:
    for node in ast.walk(func):
        if isinstance(node, ast.Call):
            f = node.func
            if (isinstance(f, ast.Name) and f.id in names) or (
                isinstance(f, ast.Attribute) and f.attr == FUNC
            ):
                return True
    return False


def _run_pytest(root: pathlib.Path) -> str | None:
    """None when the module's tests pass (or pytest is not installed), else what went wrong."""
    if importlib.util.find_spec("pytest") is None:
        return None
    env = dict(os.environ)
    env.update(
        PYTHONDONTWRITEBYTECODE="1",
        PYTEST_DISABLE_PLUGIN_AUTOLOAD="1",
        PYTHONPATH=str(root.resolve()),
    )
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", TARGET]
    try:
        done = subprocess.run(
            command, cwd=root, env=env, capture_output=True, text=True, timeout=PYTEST_SECONDS
        )
    except subprocess.TimeoutExpired:
        return f"pytest did not finish within {PYTEST_SECONDS} s"
    except OSError as e:
        return f"pytest could not be run: {e}"
    if done.returncode == 0:
        return None
    lines = [line for line in done.stdout.splitlines() if line.strip()]
    failed = [line for line in lines if line.startswith(("FAILED", "ERROR"))][:3]
    summary = "; ".join([*failed, lines[-1]] if lines else [done.stderr.strip()])
    return f"pytest {TARGET} exits with {done.returncode}: {summary}"


def _check(root: pathlib.Path) -> list[str]:
    problems: list[str] = []
    tree = task_checks.tree(root)
    module = task_checks.parse(tree, TARGET, problems)
    if module is not None:
        tests = _tests(module)
        names, imported = _median_names(module)
        if not imported:
            problems.append(f"{TARGET} does not import {FUNC} from {MODULE}")
        if not tests:
            problems.append(f"{TARGET} defines no test function")
        elif not any(_calls_median(t, names) for t in tests):
            problems.append(f"no test function in {TARGET} calls {FUNC}")
        if not any(isinstance(n, ast.Name) and n.id == "ValueError" for n in ast.walk(module)):
            problems.append(f"{TARGET} never checks that an empty sequence raises ValueError")
        if not problems:
            failed = _run_pytest(root)
            if failed:
                problems.append(failed)
    task_checks.others_unchanged(tree, BEFORE, set(), problems, added=frozenset({TARGET}))
    return problems


def check(root: pathlib.Path) -> list[str]:
    """Problems with the tree at root (empty: the task is done)."""
    return task_checks.never_raise(_check, root)
