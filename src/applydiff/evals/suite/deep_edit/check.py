"""deep_edit: `rental_late_fee` (line ~2,354 of ledger/rules.py) gets 3 grace days, 20.00/day.

Rules: rules.py parses; every line before and after `rental_late_fee` is byte-identical to the
original (same line numbers, line endings included), and the function occupies exactly the
lines in between; inside it, every original line other than the grace-period test and the
daily-fee line is still there, verbatim and in order; executed in a fresh interpreter it
returns the specified fee for a table of returns (0 up to 3 days late, 20.00 per day after,
capped at the deposit); other files byte-identical, none added or removed.
"""

from __future__ import annotations

import ast
import json
import pathlib
import sys
from decimal import Decimal, InvalidOperation

HERE = pathlib.Path(__file__).resolve().parent
BEFORE = HERE / "before"
if str(HERE.parent) not in sys.path:
    sys.path.insert(0, str(HERE.parent))
import task_checks  # noqa: E402

TARGET = "ledger/rules.py"
FUNC = "rental_late_fee"
EDITED_LINES = {"    if days_late <= 2:\n", '    fee = Decimal("15.00") * days_late\n'}

# (deposit, days booked, days after the start it came back) -> fee; the rental starts
# 2024-01-01, so it is due back on day `booked`.
CASES = [
    ["500.00", 5, 5, "0"],
    ["500.00", 5, 2, "0"],
    ["500.00", 5, 7, "0"],
    ["500.00", 5, 8, "0"],
    ["500.00", 5, 9, "80.00"],
    ["500.00", 5, 11, "120.00"],
    ["500.00", 5, 30, "500.00"],
    ["500.00", 5, 45, "500.00"],
    ["50.00", 1, 5, "50.00"],
    ["1000.00", 1, 5, "80.00"],
    ["1000.00", 0, 10, "200.00"],
]

# Executes rules.py (argv[1]) and prints str(fee) for each case in argv[2].
PROBE = r"""
import json, sys, types
from datetime import date, timedelta
from decimal import Decimal

path = sys.argv[1]
module = types.ModuleType("rules_under_test")
sys.modules[module.__name__] = module  # dataclasses look their module up
ns = module.__dict__
with open(path, encoding="utf-8") as f:
    exec(compile(f.read(), path, "exec"), ns)
start = date(2024, 1, 1)
out = []
for deposit, booked, back in json.loads(sys.argv[2]):
    rental = ns["Rental"]("R-1", Decimal(deposit), start, days_booked=booked)
    try:
        out.append(str(ns["rental_late_fee"](rental, start + timedelta(days=back))))
    except Exception as e:
        out.append(f"raised {type(e).__name__}: {e}")
print(json.dumps(out))
"""


def _same(got: str, want: str) -> bool:
    try:
        return Decimal(got) == Decimal(want)
    except (InvalidOperation, TypeError, ValueError):
        return False


def _check(root: pathlib.Path) -> list[str]:
    problems: list[str] = []
    tree = task_checks.tree(root)
    data = (BEFORE / TARGET).read_bytes()
    want_lines = data.decode("utf-8").splitlines(keepends=True)
    func = next(
        n for n in ast.parse(data).body if isinstance(n, ast.FunctionDef) and n.name == FUNC
    )
    start, end = func.lineno, func.end_lineno or func.lineno
    module = task_checks.parse(tree, TARGET, problems)
    if module is not None:
        lines = tree[TARGET].decode("utf-8").splitlines(keepends=True)
        head, tail = want_lines[: start - 1], want_lines[end:]
        if lines[: start - 1] != head:
            first = next(
                (i + 1 for i, (a, b) in enumerate(zip(lines, head, strict=False)) if a != b),
                min(len(lines), len(head)) + 1,
            )
            problems.append(f"{TARGET}: line {first} changed (before {FUNC}, line {start})")
        if len(lines) < len(head) + len(tail) or (tail and lines[len(lines) - len(tail) :] != tail):
            problems.append(
                f"{TARGET}: the {len(tail)} lines after {FUNC} are not all unchanged "
                f"(the file has {len(lines)} lines, the original {len(want_lines)})"
            )
        if not problems:
            found = [
                n
                for n in module.body
                if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef) and n.name == FUNC
            ]
            new_end = len(lines) - len(tail)
            if len(found) != 1 or found[0].lineno != start or found[0].end_lineno != new_end:
                problems.append(
                    f"{TARGET}: lines {start}-{new_end}, between the unchanged parts, should be "
                    f"exactly the definition of {FUNC} (a line was added or removed around it)"
                )
            else:
                body = iter(lines[start - 1 : new_end])
                for line in want_lines[start - 1 : end]:
                    if line not in EDITED_LINES and line not in body:  # in order: consumes
                        problems.append(f"{TARGET}: the line {line.strip()!r} of {FUNC} changed")
                        break
        if not problems:
            cases = [case[:3] for case in CASES]
            got, why = task_checks.probe(PROBE, str(root / TARGET), json.dumps(cases))
            if got is None:
                problems.append(f"executing {TARGET} {why}")
            else:
                for (deposit, booked, back, want), out in zip(CASES, got, strict=False):
                    if not _same(out, want):
                        problems.append(
                            f"{FUNC}: deposit {deposit}, booked {booked} days, back after {back} "
                            f"days: got {out}, expected {want}"
                        )
    task_checks.others_unchanged(tree, BEFORE, {TARGET}, problems)
    return problems


def check(root: pathlib.Path) -> list[str]:
    """Problems with the tree at root (empty: the task is done)."""
    return task_checks.never_raise(_check, root)
