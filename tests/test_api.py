"""The public API of ``import applydiff``: one list of names, loaded on first use, and the
same names stated for type checkers."""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
from pathlib import Path

import applydiff

INIT = Path(applydiff.__file__)


def _type_checking_imports() -> dict[str, str]:
    """name -> module, from the ``if TYPE_CHECKING:`` block of ``__init__.py``."""
    tree = ast.parse(INIT.read_text(encoding="utf-8"))
    block = next(
        n
        for n in tree.body
        if isinstance(n, ast.If) and isinstance(n.test, ast.Name) and n.test.id == "TYPE_CHECKING"
    )
    out = {}
    for node in block.body:
        assert isinstance(node, ast.ImportFrom) and node.level == 1 and node.module
        for alias in node.names:
            out[alias.name] = node.module
    return out


def test_all_is_the_one_list_and_type_checkers_see_the_same_names():
    assert applydiff.__all__ == sorted([*applydiff._EXPORTS, "__version__"])
    assert _type_checking_imports() == applydiff._EXPORTS


def test_every_name_loads_from_the_module_that_defines_it():
    for name, module in applydiff._EXPORTS.items():
        value = getattr(applydiff, name)
        assert value is getattr(importlib.import_module(f"applydiff.{module}"), name)
    assert sorted(dir(applydiff)) == applydiff.__all__


def test_import_applydiff_loads_only_its_version():
    code = (
        "import sys, applydiff; print(sorted(m for m in sys.modules if m.startswith('applydiff.')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "['applydiff.version']"


def test_the_version_is_the_projects():
    import tomllib

    project = tomllib.loads((INIT.parents[2] / "pyproject.toml").read_text(encoding="utf-8"))
    assert applydiff.__version__ == project["project"]["version"]


def test_the_package_says_it_is_typed():
    assert (INIT.parent / "py.typed").is_file()
