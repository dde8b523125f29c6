"""insert_function: `collapse_hyphens(text)` added to textutils/slug.py after `strip_accents`.

Rules: slug.py parses and defines `collapse_hyphens` once at the top level, after
`strip_accents` and before `slugify` with no other function or class between `strip_accents`
and it, taking exactly one positional parameter `text`; executed in a fresh interpreter it maps
a table of inputs to the specified outputs (runs of hyphens collapsed, hyphens stripped from
both ends, everything else kept); every original statement of slug.py is still there, unchanged
and in order (AST), and anything else added is only an import or a new module-level constant;
other files byte-identical, none added or removed.
"""

from __future__ import annotations

import ast
import json
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent
BEFORE = HERE / "before"
if str(HERE.parent) not in sys.path:
    sys.path.insert(0, str(HERE.parent))
import task_checks  # noqa: E402

TARGET = "textutils/slug.py"
NEW, AFTER, BEFORE_FUNC = "collapse_hyphens", "strip_accents", "slugify"

CASES = [
    ["a--b", "a-b"],
    ["--a---b--", "a-b"],
    ["a-b-c", "a-b-c"],
    ["-a-", "a"],
    ["a-", "a"],
    ["", ""],
    ["-", ""],
    ["----", ""],
    ["plain", "plain"],
    ["x - - y", "x - - y"],
    ["crème--brûlée", "crème-brûlée"],
    ["a\u2014\u2014b", "a\u2014\u2014b"],
    ["one--two---three----four", "one-two-three-four"],
]

# Executes slug.py (argv[1]) and prints [[input, output or error], ...] for the cases (argv[2]).
PROBE = r"""
import json, sys

path = sys.argv[1]
namespace = {"__name__": "slug_under_test"}
with open(path, encoding="utf-8") as f:
    exec(compile(f.read(), path, "exec"), namespace)
out = []
for text in json.loads(sys.argv[2]):
    try:
        out.append(namespace["collapse_hyphens"](text))
    except Exception as e:
        out.append(f"raised {type(e).__name__}: {e}")
print(json.dumps(out))
"""


def _defines(node: ast.stmt) -> bool:
    return isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef)


def _names(node: ast.stmt) -> list[str]:
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        return [node.name]
    if isinstance(node, ast.Assign | ast.AnnAssign):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        return [n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name)]
    return []


def _is_addition(node: ast.stmt, known: set[str]) -> bool:
    """An import, or a constant under a name the module did not have."""
    if isinstance(node, ast.Import | ast.ImportFrom):
        return True
    names = set(_names(node))
    return isinstance(node, ast.Assign | ast.AnnAssign) and bool(names) and not names & known


def _check_rest(module: ast.Module, original: ast.Module, problems: list[str]) -> None:
    """Every original statement present in order; extras only imports and new constants."""
    kept = [n for n in module.body if not (_defines(n) and n.name == NEW)]
    want = [ast.dump(n) for n in original.body]
    known = {name for n in original.body for name in _names(n)} | {NEW}
    i = 0
    for node in kept:
        if i < len(want) and ast.dump(node) == want[i]:
            i += 1
        elif _is_addition(node, known):
            continue
        else:
            what = f"def {node.name}" if _defines(node) else "this statement"
            problems.append(
                f"{TARGET} line {node.lineno}: {what} is not in the original module; apart "
                f"from adding {NEW}, the existing code must stay as it was"
            )
            return
    if i < len(want):
        missing = original.body[i]
        what = f"def {missing.name}" if _defines(missing) else f"line {missing.lineno}"
        problems.append(
            f"{TARGET}: the original statement {what} is missing, changed or out of order"
        )


def _check(root: pathlib.Path) -> list[str]:
    problems: list[str] = []
    tree = task_checks.tree(root)
    original = ast.parse((BEFORE / TARGET).read_text(encoding="utf-8"))
    module = task_checks.parse(tree, TARGET, problems)
    if module is not None:
        body = module.body
        index = {n.name: i for i, n in enumerate(body) if _defines(n)}
        funcs = [n for n in body if isinstance(n, ast.FunctionDef) and n.name == NEW]
        if len(funcs) != 1:
            problems.append(f"{TARGET} does not define {NEW} exactly once at the top level")
        else:
            func = funcs[0]
            args = func.args
            if (
                [a.arg for a in args.posonlyargs + args.args] != ["text"]
                or args.vararg
                or args.kwarg
                or args.kwonlyargs
                or args.defaults
            ):
                problems.append(f"{TARGET}: {NEW} must take exactly one parameter, text")
            at = body.index(func)
            if AFTER not in index or BEFORE_FUNC not in index:
                problems.append(f"{TARGET} lost {AFTER} or {BEFORE_FUNC}")
            elif not index[AFTER] < at < index[BEFORE_FUNC]:
                problems.append(f"{TARGET}: {NEW} is not placed between {AFTER} and {BEFORE_FUNC}")
            elif any(_defines(n) for n in body[index[AFTER] + 1 : at]):
                problems.append(f"{TARGET}: {NEW} does not directly follow {AFTER}")
        _check_rest(module, original, problems)
        if not problems:
            inputs = [case[0] for case in CASES]
            got, why = task_checks.probe(PROBE, str(root / TARGET), json.dumps(inputs))
            if got is None:
                problems.append(f"running {NEW} {why}")
            else:
                for (text, want), out in zip(CASES, got, strict=False):
                    if out != want:
                        problems.append(f"{NEW}({text!r}) returned {out!r}, expected {want!r}")
    task_checks.others_unchanged(tree, BEFORE, {TARGET}, problems)
    return problems


def check(root: pathlib.Path) -> list[str]:
    """Problems with the tree at root (empty: the task is done)."""
    return task_checks.never_raise(_check, root)
