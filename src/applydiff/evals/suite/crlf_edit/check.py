"""crlf_edit: three setting changes in app/settings.py, a file with CRLF line endings.

Rules: every line of settings.py still ends in CRLF (no bare LF, no bare CR, CRLF at the end);
it parses; executed in a fresh interpreter, `DATABASE` has the keys host, port, name, user,
connect_timeout in that order, port is an int read from DB_PORT (5432 when unset, 6543 when
DB_PORT=6543), connect_timeout is 10, host and user still follow DB_HOST and DB_USER,
CACHE_TTL_SECONDS is 900, and DEBUG, ALLOWED_HOSTS, LOG_LEVEL and database_url() are as
before; every statement other than the DATABASE and CACHE_TTL_SECONDS assignments is unchanged
(AST); other files (LF) byte-identical, none added or removed.
"""

from __future__ import annotations

import ast
import os
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent
BEFORE = HERE / "before"
if str(HERE.parent) not in sys.path:
    sys.path.insert(0, str(HERE.parent))
import task_checks  # noqa: E402

TARGET = "app/settings.py"
CHANGED = {"DATABASE", "CACHE_TTL_SECONDS"}
ENV_KEYS = {"DB_HOST", "DB_PORT", "DB_USER", "REPORTS_DEBUG"}

# Executes settings.py (argv[1]) and prints the settings the task is about.
PROBE = r"""
import json, sys

path = sys.argv[1]
ns = {"__name__": "settings_under_test"}
with open(path, encoding="utf-8") as f:
    exec(compile(f.read(), path, "exec"), ns)
db = ns["DATABASE"]
print(json.dumps({
    "DATABASE keys": list(db),
    "DATABASE": db,
    "type of port": type(db.get("port")).__name__,
    "CACHE_TTL_SECONDS": ns["CACHE_TTL_SECONDS"],
    "DEBUG": ns["DEBUG"],
    "ALLOWED_HOSTS": ns["ALLOWED_HOSTS"],
    "LOG_LEVEL": ns["LOG_LEVEL"],
    "database_url()": ns["database_url"](),
}, default=repr))
"""

KEYS = ["host", "port", "name", "user", "connect_timeout"]
COMMON = {
    "DATABASE keys": KEYS,
    "type of port": "int",
    "CACHE_TTL_SECONDS": 900,
    "DEBUG": False,
    "ALLOWED_HOSTS": ["reports.example.com", "reports.internal"],
    "LOG_LEVEL": "INFO",
}
RUNS = [
    (
        {},
        COMMON
        | {
            "DATABASE": dict(zip(KEYS, ["localhost", 5432, "reports", "reports", 10], strict=True)),
            "database_url()": "postgresql://reports@localhost:5432/reports",
        },
    ),
    (
        {"DB_PORT": "6543", "DB_HOST": "db.internal", "DB_USER": "alice"},
        COMMON
        | {
            "DATABASE": dict(zip(KEYS, ["db.internal", 6543, "reports", "alice", 10], strict=True)),
            "database_url()": "postgresql://alice@db.internal:6543/reports",
        },
    ),
]


def _line_ending_problems(data: bytes) -> list[str]:
    pieces = data.split(b"\n")
    bare_lf = [i + 1 for i, piece in enumerate(pieces[:-1]) if not piece.endswith(b"\r")]
    last = len(pieces) - 1
    bare_cr = [i + 1 for i, p in enumerate(pieces) if b"\r" in (p if i == last else p[:-1])]
    problems = []
    if bare_lf:
        shown = ", ".join(map(str, bare_lf[:10])) + (" ..." if len(bare_lf) > 10 else "")
        problems.append(
            f"{TARGET}: {len(bare_lf)} line(s) end in LF instead of CRLF (line {shown})"
        )
    if bare_cr:
        problems.append(f"{TARGET}: a bare CR on line(s) {', '.join(map(str, bare_cr))}")
    if pieces[-1]:
        problems.append(f"{TARGET}: the last line does not end in CRLF")
    return problems


def _assigned(node: ast.stmt) -> set[str]:
    if isinstance(node, ast.Assign):
        return {t.id for t in node.targets if isinstance(t, ast.Name)}
    if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
        return {node.target.id}
    return set()


def _check(root: pathlib.Path) -> list[str]:
    problems: list[str] = []
    tree = task_checks.tree(root)
    data = tree.get(TARGET)
    if data is not None:
        problems += _line_ending_problems(data)
    module = task_checks.parse(tree, TARGET, problems)
    if module is not None:
        original = ast.parse((BEFORE / TARGET).read_text(encoding="utf-8"))
        rest = [ast.dump(n) for n in module.body if not _assigned(n) & CHANGED]
        want = [ast.dump(n) for n in original.body if not _assigned(n) & CHANGED]
        if rest != want:
            problems.append(f"{TARGET} changed outside the DATABASE and CACHE_TTL_SECONDS settings")
        for name in sorted(CHANGED):
            count = sum(1 for n in module.body if name in _assigned(n))
            if count != 1:
                problems.append(f"{TARGET} assigns {name} {count} times at the top level")
        base_env = {k: v for k, v in os.environ.items() if k not in ENV_KEYS}
        for env, want_values in RUNS:
            got, why = task_checks.probe(PROBE, str(root / TARGET), env=base_env | env)
            shown = " ".join(f"{k}={v}" for k, v in env.items()) or "no DB_* variables"
            if got is None:
                problems.append(f"executing {TARGET} with {shown} {why}")
                continue
            for key, value in want_values.items():
                if got.get(key) != value:
                    problems.append(f"with {shown}: {key} is {got.get(key)!r}, expected {value!r}")
    task_checks.others_unchanged(tree, BEFORE, {TARGET}, problems)
    return problems


def check(root: pathlib.Path) -> list[str]:
    """Problems with the tree at root (empty: the task is done)."""
    return task_checks.never_raise(_check, root)
