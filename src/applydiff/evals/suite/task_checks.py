"""Helpers shared by the tasks' check.py files (standard library only; not a task itself).

A check.py puts this directory on sys.path and imports this module, so it still loads by file
path alone. Helpers that compare with the original tree take the task's `before/` directory.
"""

from __future__ import annotations

import ast
import json
import pathlib
import subprocess
import sys
from collections.abc import Callable
from typing import Any

SKIP = {".applydiff", "__pycache__", ".pytest_cache", ".git"}
PROBE_SECONDS = 20


def tree(root: pathlib.Path) -> dict[str, bytes]:
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


def parse(files: dict[str, bytes], rel: str, problems: list[str]) -> ast.Module | None:
    """The module at rel in files, or None with the reason added to problems."""
    data = files.get(rel)
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


def others_unchanged(
    files: dict[str, bytes],
    before: pathlib.Path,
    edited: set[str],
    problems: list[str],
    added: frozenset[str] = frozenset(),
) -> None:
    """Every file of the before/ tree other than edited is byte-identical in files, none is
    missing, and none is new except those in added."""
    original = tree(before)
    for rel, data in original.items():
        if rel in edited:
            continue
        if rel not in files:
            problems.append(f"{rel} is missing; the task does not remove it")
        elif files[rel] != data:
            problems.append(f"{rel} was changed; the task leaves it as it was")
    for rel in sorted(set(files) - set(original) - added):
        problems.append(f"{rel} is a new file; the task adds none")


def probe(script: str, *args: str, env: dict[str, str] | None = None) -> tuple[Any, str]:
    """Run script in a fresh interpreter: (the JSON on its last output line, "") or (None, why)."""
    try:
        done = subprocess.run(
            [sys.executable, "-I", "-c", script, *args],
            capture_output=True,
            text=True,
            timeout=PROBE_SECONDS,
            env=env,
        )
    except subprocess.TimeoutExpired:
        return None, f"did not finish within {PROBE_SECONDS} s"
    except OSError as e:
        return None, f"could not be run: {e}"
    if done.returncode != 0:
        lines = done.stderr.strip().splitlines()
        return None, f"failed: {lines[-1] if lines else f'exit status {done.returncode}'}"
    try:
        return json.loads(done.stdout.strip().splitlines()[-1]), ""
    except (ValueError, IndexError):
        return None, "printed no result"


def segment(lines: list[str], node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> str:
    """The source text of a top-level definition, decorators included, from a file's lines."""
    start = min([d.lineno for d in node.decorator_list] + [node.lineno])
    return "".join(lines[start - 1 : node.end_lineno])


def never_raise(check: Callable[[pathlib.Path], list[str]], root: pathlib.Path) -> list[str]:
    """check(root) as a path, with an exception turned into a reported problem."""
    try:
        return check(pathlib.Path(root))
    except Exception as e:  # a checker reports, it never raises
        return [f"the checker could not examine the tree: {type(e).__name__}: {e}"]
