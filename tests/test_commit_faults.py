"""Fault injection: kill the process at every step of a multi-file commit; after recovery
every file is all old or all new, and all files together are old or new."""

from __future__ import annotations

import os
import random
import shutil
import sys
from pathlib import Path

import pytest

from applydiff import Delete, Move, Replace, Write, commit
from applydiff.workspace import Workspace

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")

TRIALS = 1000


def snapshot(root: Path) -> dict[str, object]:
    out: dict[str, object] = {}
    for p in sorted(root.rglob("*")):
        rel = p.relative_to(root).as_posix()
        if rel.split("/")[0] == ".applydiff":
            continue
        if p.is_dir():
            out[rel + "/"] = "dir"
        else:
            out[rel] = (p.read_bytes(), p.stat().st_mode & 0o777)
    return out


def random_tree(rng: random.Random, root: Path) -> None:
    for k in range(rng.randint(3, 7)):
        sub = rng.choice(["", "src/", "src/pkg/", "docs/"])
        eol = rng.choice(["\n", "\r\n"])
        lines = [f"line {j} of file {k}: {rng.random():.6f}" for j in range(rng.randint(3, 30))]
        path = root / f"{sub}f{k}.txt"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(eol.join(lines).encode() + (eol.encode() if rng.random() < 0.8 else b""))
        path.chmod(rng.choice([0o644, 0o600, 0o755]))


def random_ops(rng: random.Random, root: Path) -> list:
    files = sorted(p.relative_to(root).as_posix() for p in root.rglob("*.txt"))
    rng.shuffle(files)
    ops: list = []
    for path in files[: rng.randint(1, len(files))]:
        text = (root / path).read_bytes().decode()
        lines = text.replace("\r\n", "\n").split("\n")
        what = rng.choice(["edit", "edit", "delete", "move"])
        if what == "edit":
            line = rng.choice([x for x in lines if x])
            ops.append(Replace(path, line, line + " (edited)"))
        elif what == "delete":
            ops.append(Delete(path))
        else:
            ops.append(Move(path, f"moved/{rng.randint(0, 99)}/{Path(path).name}"))
    ops.append(Write(f"new/deep/n{rng.randint(0, 999)}.txt", "brand new\n"))
    return ops


def run_crashing_at(root: Path, ops: list, step: int) -> None:
    pid = os.fork()
    if pid == 0:  # child: apply, dying at the chosen step
        count = 0

        def hook(name: str) -> None:
            nonlocal count
            count += 1
            if count == step:
                os._exit(17)

        commit.crash_hook = hook
        try:
            Workspace(root).apply(ops)
        finally:
            os._exit(0)
    _, status = os.waitpid(pid, 0)
    assert os.WIFEXITED(status), status


def count_steps(root: Path, ops: list) -> int:
    names: list[str] = []
    commit.crash_hook = names.append
    try:
        result = Workspace(root).apply(ops)
    finally:
        commit.crash_hook = None
    assert result.ok, result.errors
    return len(names)


@pytest.mark.slow
def test_every_crash_point_leaves_all_old_or_all_new(tmp_path):
    rng = random.Random(20261122)
    trials = 0
    outcomes = {"old": 0, "new": 0}
    tree = 0
    while trials < TRIALS:
        tree += 1
        base = tmp_path / f"base{tree}"
        base.mkdir()
        random_tree(rng, base)
        ops = random_ops(rng, base)
        old = snapshot(base)
        done = tmp_path / f"done{tree}"
        shutil.copytree(base, done, symlinks=True)
        steps = count_steps(done, ops)
        new = snapshot(done)
        assert new != old
        for step in range(1, steps + 2):
            root = tmp_path / f"t{tree}_{step}"
            shutil.copytree(base, root, symlinks=True)
            sys.stdout.flush()
            run_crashing_at(root, ops, step)
            Workspace(root)  # opening the root recovers
            after = snapshot(root)
            assert after in (old, new), f"tree {tree}, crash at step {step}"
            outcomes["old" if after == old else "new"] += 1
            leftovers = [p.name for p in root.rglob("*applydiff-*")]
            assert leftovers == [], leftovers
            assert list((root / ".applydiff").glob("journal-*")) == []
            shutil.rmtree(root)
            trials += 1
    # Both sides of the commit point were hit many times.
    assert outcomes["old"] > 100 and outcomes["new"] > 100, outcomes
    print(f"\nfault injection: {trials} trials over {tree} trees: {outcomes}")
