"""The shape of the code, checked: no two modules import each other, no module reaches into
another's private names, and no file text is split with ``str.splitlines`` (it breaks lines
at form feeds, U+2028 and other characters that are not line breaks to applydiff)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[1] / "src"
PACKAGE = SRC / "applydiff"


def _is_module(path: Path) -> bool:
    """A module of the package: every folder down to it is a package (package data, as the
    model task suite's example trees, is not)."""
    folder = path.parent
    while folder != SRC:
        if not (folder / "__init__.py").is_file():
            return False
        folder = folder.parent
    return True


def _modules() -> dict[str, Path]:
    out: dict[str, Path] = {}
    for path in sorted(p for p in PACKAGE.rglob("*.py") if _is_module(p)):
        parts = path.relative_to(SRC).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


MODULES = _modules()
TREES = {name: ast.parse(path.read_text(encoding="utf-8")) for name, path in MODULES.items()}


def _imports(name: str) -> Iterator[tuple[str, str | None, int]]:
    """``(module imported, name imported from it or None, line)`` for every import of the
    project's own modules, wherever it stands (in a function or under TYPE_CHECKING too)."""
    is_package = MODULES[name].name == "__init__.py"
    here = name.split(".") if is_package else name.split(".")[:-1]
    for node in ast.walk(TREES[name]):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = here[: len(here) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            for alias in node.names:
                yield target, alias.name, node.lineno
        elif isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, None, node.lineno


def _graph() -> dict[str, set[str]]:
    edges: dict[str, set[str]] = {name: set() for name in MODULES}
    for name in MODULES:
        for target, imported, _ in _imports(name):
            full = f"{target}.{imported}" if imported else target
            if full in MODULES:
                edges[name].add(full)  # `from . import x`: the submodule x
            elif target in MODULES:
                edges[name].add(target)
    return edges


def _cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return found


def test_no_two_modules_import_each_other():
    assert _cycles(_graph()) == []


def test_the_cycle_check_finds_a_cycle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_no_module_imports_another_modules_private_names():
    found = []
    for name in MODULES:
        for target, imported, line in _imports(name):
            if not target.startswith("applydiff") or imported is None:
                continue
            if imported.startswith("_") and not imported.startswith("__"):
                found.append(f"{MODULES[name].relative_to(SRC)}:{line}: {target}.{imported}")
    assert found == []


def _private_reaches(tree: ast.AST) -> Iterator[tuple[int, str]]:
    """``obj._name`` where obj is not ``self`` or ``cls``: reaching into another object.
    (``other``, in a comparison of two instances of one class, is the class's own.)"""
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute):
            continue
        attr = node.attr
        if not attr.startswith("_") or attr.startswith("__"):
            continue
        owner = node.value
        if isinstance(owner, ast.Name) and owner.id in ("self", "cls", "other"):
            continue
        yield node.lineno, ast.unparse(node)


# A third-party SDK's private API, used only where no public one exists (each use says why in
# a comment beside it).
SDK_PRIVATE = {
    "server._lowlevel_server",
}


def test_no_module_reaches_into_private_attributes():
    found = []
    for name, tree in TREES.items():
        for line, text in _private_reaches(tree):
            if text in SDK_PRIVATE:
                continue
            found.append(f"{MODULES[name].relative_to(SRC)}:{line}: {text}")
    assert found == []


def test_the_reach_check_sees_a_reach():
    tree = ast.parse("self._a\ncls._b\nother._t\nws._disk(p)\nx.__class__\nf()._c\n")
    assert sorted(t for _, t in _private_reaches(tree)) == ["f()._c", "ws._disk"]


def test_no_str_splitlines_in_src():
    """Every split of text into lines goes through ``text.split_lines`` (or splits at
    ``\\n`` where the format says so): ``str.splitlines`` breaks at ``\\f``, ``\\x85``, U+2028."""
    found = []
    for name, tree in TREES.items():
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "splitlines"
            ):
                found.append(f"{MODULES[name].relative_to(SRC)}:{node.lineno}")
    assert found == []


@pytest.mark.parametrize("name", sorted(MODULES))
def test_every_module_says_its_job(name):
    doc = ast.get_docstring(TREES[name])
    assert doc and doc.strip(), f"{name} has no module docstring"


# The layers of docs/ARCHITECTURE.md, from the bottom up: a module imports only from its own
# layer and the ones before it. (A module is in the layer of its longest matching prefix.)
LAYERS = [
    ("contract", ["errors", "ir", "text", "version", "json_view", "names"]),
    ("matching", ["match"]),
    (
        "lazy snippets",
        [
            "match.lazy",
            "match.outline",
            "match.structural",
            "match.narration",
            "match.diff_snippet",
            "match.sniff",
            "match.snippet_merge",
            "match.verify_merge",
            "match.merged_bytes",
        ],
    ),
    ("formats", ["formats"]),
    ("engine", ["engine", "region", "problems"]),
    ("store", ["store", "policy", "fsio", "commit", "session", "recovery", "gitindex"]),
    ("results", ["results"]),
    ("review", ["review", "merge3"]),
    ("workspace", ["workspace"]),
    ("beside", ["feedback", "prompts", "progress"]),
    ("tools", ["tools", "compat"]),
    ("model loop", ["llm", "merge_model", "loop", "evals"]),
    ("benchmarks", ["bench"]),
    ("batch", ["batch", "batch_arguments"]),
    ("front doors", ["cli", "apply_patch_cli", "mcp_server", "__main__", ""]),
]


def _layer(module: str) -> int:
    name = module.removeprefix("applydiff").removeprefix(".")
    best, length = -1, -1
    for k, (_, prefixes) in enumerate(LAYERS):
        for p in prefixes:
            if (name == p or name.startswith(p + ".") or p == "") and len(p) > length:
                best, length = k, len(p)
    return best


def test_imports_point_down_the_layers():
    up = []
    for name, targets in _graph().items():
        for target in targets:
            if name != "applydiff" and _layer(target) > _layer(name):
                up.append(f"{name} ({LAYERS[_layer(name)][0]}) imports {target}")
    assert up == []


def test_every_module_has_a_layer():
    assert all(_layer(name) >= 0 for name in MODULES)
    assert LAYERS[_layer("applydiff.match.lazy.heads")][0] == "lazy snippets"
    assert LAYERS[_layer("applydiff.match.fuzzy")][0] == "matching"
