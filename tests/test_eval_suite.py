"""The model task suite ships inside the package (``applydiff/evals/suite``): found through
importlib.resources, whatever the current directory, not in the checkout's benchmarks/."""

from __future__ import annotations

import importlib.resources
import subprocess
import sys
from pathlib import Path

import pytest

import applydiff
from applydiff import names
from applydiff.evals import tasks

SHIPPED = set(names.TASKS)  # the one list of the shipped tasks' names


def test_the_suite_is_package_data():
    suite = tasks.default_suite()
    package = Path(applydiff.__file__).resolve().parent
    assert suite.resolve() == package / "evals" / "suite"
    assert suite.resolve() == Path(str(importlib.resources.files("applydiff.evals") / "suite"))
    assert "benchmarks" not in suite.resolve().relative_to(package.parent).parts


def test_the_shipped_task_names():
    names = tasks.shipped_task_names()
    assert names == sorted(names) and set(names) == SHIPPED


def test_the_shipped_suite_loads_from_any_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
):
    monkeypatch.chdir(tmp_path)  # no checkout here: the suite comes from the package
    loaded = tasks.load_suite(tasks.default_suite())
    assert [t.name for t in loaded] == tasks.shipped_task_names()
    package = Path(applydiff.__file__).resolve().parent
    for task in loaded:
        assert task.before.resolve().is_relative_to(package / "evals" / "suite")
        assert task.prompt and task.check(task.before)  # the starting tree is not done


def test_eval_models_help_lists_the_shipped_tasks():
    out = subprocess.run(
        [sys.executable, "-m", "applydiff", "eval-models", "--help"],
        capture_output=True,
        text=True,
        check=True,
        env={"COLUMNS": "1000", "PATH": "/usr/bin:/bin"},
    ).stdout
    listed = out.split("all of the shipped suite: ", 1)[1].split(")", 1)[0]
    assert listed.split(", ") == tasks.shipped_task_names()
    assert "rename_in_file" in listed
