"""The model task suite: a directory per task with its prompt, starting tree and checker.

``<suite>/<task>/task.json`` (``prompt``, ``description``), ``before/`` (the tree the model
starts from), ``check.py`` (``check(root) -> list[str]``: the problems left, none when the
task is done) and, for the suite's own tests, ``expected/`` and ``answer.md``.

applydiff ships a suite as package data (``applydiff/evals/suite``, ``default_suite()``), so
``applydiff eval-models`` runs from an installed wheel; ``--suite DIR`` names another.
"""

from __future__ import annotations

import importlib.resources
import importlib.util
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

Checker = Callable[[Path], list[str]]

SUITE_PACKAGE, SUITE_DIR = "applydiff.evals", "suite"  # where the shipped suite is


@dataclass(frozen=True)
class Task:
    name: str
    prompt: str
    description: str
    before: Path
    checker: Checker

    def check(self, root: Path) -> list[str]:
        """The problems left in ``root`` (a checker that fails is one problem)."""
        try:
            problems = self.checker(root)
        except Exception as e:  # a checker must not take the run down with it
            return [f"the checker of {self.name} failed: {type(e).__name__}: {e}"]
        return [str(p) for p in problems]


def default_suite() -> Path:
    """The suite shipped in the package; raises ``FileNotFoundError`` when the package is not
    on the file system (imported from a zip), where the checkers cannot be loaded by path."""
    suite = importlib.resources.files(SUITE_PACKAGE) / SUITE_DIR
    if not isinstance(suite, Path) or not suite.is_dir():
        raise FileNotFoundError(
            f"the task suite shipped with applydiff is not a directory ({suite}); pass --suite DIR"
        )
    return suite


def task_dirs(suite: Path) -> dict[str, Path]:
    """The tasks of ``suite`` by name (its directories with a task.json), sorted."""
    return {d.name: d for d in sorted(suite.iterdir()) if (d / "task.json").is_file()}


def shipped_task_names() -> list[str]:
    """The names of the tasks in the suite shipped with applydiff, sorted."""
    return list(task_dirs(default_suite()))


def load_suite(suite: Path, names: list[str] | None = None) -> list[Task]:
    """The tasks of ``suite`` (all, or ``names`` in that order); ``ValueError`` names an
    unknown or broken task."""
    found = task_dirs(suite)
    if not found:
        raise ValueError(f"{suite} holds no task (directories with a task.json)")
    chosen = names or sorted(found)
    unknown = [n for n in chosen if n not in found]
    if unknown:
        raise ValueError(f"unknown task(s) {', '.join(unknown)}; the suite has {', '.join(found)}")
    return [load_task(found[n]) for n in chosen]


def load_task(path: Path) -> Task:
    try:
        meta = json.loads((path / "task.json").read_text(encoding="utf-8"))
        prompt = meta["prompt"]
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise ValueError(f"{path / 'task.json'} is not a task ({e})") from None
    if not (path / "before").is_dir():
        raise ValueError(f"{path} has no before/ tree")
    spec = importlib.util.spec_from_file_location(f"applydiff_task_{path.name}", path / "check.py")
    if spec is None or spec.loader is None or not (path / "check.py").is_file():
        raise ValueError(f"{path} has no check.py")
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except Exception as e:
        raise ValueError(f"{path / 'check.py'} does not load: {type(e).__name__}: {e}") from None
    checker = getattr(module, "check", None)
    if not callable(checker):
        raise ValueError(f"{path / 'check.py'} defines no check(root)")
    return Task(path.name, str(prompt), str(meta.get("description", "")), path / "before", checker)
