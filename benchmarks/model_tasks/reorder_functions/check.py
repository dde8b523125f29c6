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

HERE = pathlib.Path(__file__).resolve().parent
BEFORE = HERE / "before"
SKIP = {".applydiff", "__pycache__", ".pytest_cache", ".git"}

TARGET = "pipeline/steps.py"
FIRST, SECOND = "parse_record", "write_report"
ORDER = ["read_csv", "clean_row", SECOND, "group_by_day", FIRST]


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


def _functions(module: ast.Module) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    return [n for n in module.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)]


def _segment(lines: list[str], node: ast.FunctionDef | ast.AsyncFunctionDef) -> str:
    start = min([d.lineno for d in node.decorator_list] + [node.lineno])
    return "".join(lines[start - 1 : node.end_lineno])


def _swapped(module: ast.Module) -> list[str]:
    body = list(module.body)
    where = {n.name: i for i, n in enumerate(body) if isinstance(n, ast.FunctionDef)}
    i, j = where[FIRST], where[SECOND]
    body[i], body[j] = body[j], body[i]
    return [ast.dump(n) for n in body]


def _check(root: pathlib.Path) -> list[str]:
    problems: list[str] = []
    tree = _tree(root)
    source = (BEFORE / TARGET).read_text(encoding="utf-8")
    module = _parse(tree, TARGET, problems)
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
            elif _segment(got_lines, got[func.name]) != _segment(want_lines, func):
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
    _others_unchanged(tree, {TARGET}, problems)
    return problems


def check(root: pathlib.Path) -> list[str]:
    """Problems with the tree at root (empty: the task is done)."""
    try:
        return _check(pathlib.Path(root))
    except Exception as e:  # a checker reports, it never raises
        return [f"the checker could not examine the tree: {type(e).__name__}: {e}"]
