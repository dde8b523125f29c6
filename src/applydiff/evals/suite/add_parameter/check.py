"""add_parameter: `send_email(..., attempts: int = 3)`, and alerts.py passes `attempts=5`.

Rules: mailer.py parses; `send_email` takes `to, subject, body` and then `attempts` (positional
or keyword-only) annotated `int` with default 3; run with a fake SMTP relay that always fails,
it tries 3 times by default and exactly `attempts` times when given 1, 2 or 5, and a working
relay is tried once and returns True; the rest of mailer.py is unchanged (AST). In alerts.py
every one of the four `send_email` calls passes `attempts=5` (keyword, or a fourth positional
5) and with that argument taken out the module is the original (AST). Other files byte-identical,
none added or removed.
"""

from __future__ import annotations

import ast
import pathlib
import sys

HERE = pathlib.Path(__file__).resolve().parent
BEFORE = HERE / "before"
if str(HERE.parent) not in sys.path:
    sys.path.insert(0, str(HERE.parent))
import task_checks  # noqa: E402

MAILER = "notify/mailer.py"
ALERTS = "notify/alerts.py"
FUNC = "send_email"

# Runs mailer.py (argv[1]) against a fake relay; prints {case: [tries, returned]}.
PROBE = r"""
import json, logging, smtplib, sys, time

logging.disable(logging.CRITICAL)
tries = []


class Relay:
    fail = True

    def __init__(self, *args, **kwargs):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def send_message(self, msg, *args, **kwargs):
        tries.append(1)
        if Relay.fail:
            raise OSError("relay down")


smtplib.SMTP = Relay
time.sleep = lambda seconds: None
path = sys.argv[1]
namespace = {"__name__": "mailer_under_test"}
with open(path, encoding="utf-8") as f:
    exec(compile(f.read(), path, "exec"), namespace)
send = namespace["send_email"]
out = {}
for n in (None, 1, 2, 5):
    tries.clear()
    kwargs = {} if n is None else {"attempts": n}
    ok = send("ops@example.com", "subject", "body", **kwargs)
    out["no attempts argument" if n is None else f"attempts={n}"] = [len(tries), ok]
Relay.fail = False
tries.clear()
ok = send("ops@example.com", "subject", "body", attempts=5)
out["working relay, attempts=5"] = [len(tries), ok]
print(json.dumps(out))
"""
WANT = {
    "no attempts argument": [3, False],
    "attempts=1": [1, False],
    "attempts=2": [2, False],
    "attempts=5": [5, False],
    "working relay, attempts=5": [1, True],
}


def _without(module: ast.Module, name: str) -> list[str]:
    return [
        ast.dump(n)
        for n in module.body
        if not (isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef) and n.name == name)
    ]


def _check_signature(func: ast.FunctionDef, problems: list[str]) -> None:
    args = func.args
    names = [a.arg for a in args.args]
    if names[:3] != ["to", "subject", "body"]:
        problems.append(f"{MAILER}: {FUNC} no longer starts with the parameters to, subject, body")
        return
    defaults = dict(zip(names[len(names) - len(args.defaults) :], args.defaults, strict=True))
    for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True):
        defaults[a.arg] = d
    params = args.args[3:] + args.kwonlyargs
    found = [a for a in params if a.arg == "attempts"]
    if not found:
        problems.append(f"{MAILER}: {FUNC} has no parameter named attempts after body")
        return
    if params[0].arg != "attempts":
        problems.append(f"{MAILER}: attempts is not the parameter right after body")
    if len(params) != 1 or args.vararg or args.kwarg:
        problems.append(f"{MAILER}: {FUNC} gained parameters besides attempts")
    default = defaults.get("attempts")
    if not _is_int(default, 3):
        problems.append(f"{MAILER}: attempts does not default to 3")
    ann = found[0].annotation
    if not (isinstance(ann, ast.Name) and ann.id == "int"):
        problems.append(f"{MAILER}: attempts is not annotated as int")


def _is_int(node: ast.AST | None, value: int) -> bool:
    return isinstance(node, ast.Constant) and type(node.value) is int and node.value == value


def _is_call(node: ast.AST) -> bool:
    if not isinstance(node, ast.Call):
        return False
    f = node.func
    return (isinstance(f, ast.Name) and f.id == FUNC) or (
        isinstance(f, ast.Attribute) and f.attr == FUNC
    )


def _passes_five(call: ast.Call) -> bool:
    keyword = [k for k in call.keywords if k.arg == "attempts"]
    if keyword:
        return len(keyword) == 1 and _is_int(keyword[0].value, 5) and len(call.args) <= 3
    return len(call.args) == 4 and _is_int(call.args[3], 5)


class _DropAttempts(ast.NodeTransformer):
    def visit_Call(self, node: ast.Call) -> ast.Call:
        self.generic_visit(node)
        if _is_call(node):
            node.keywords = [k for k in node.keywords if k.arg != "attempts"]
            node.args = node.args[:3]
        return node


def _check(root: pathlib.Path) -> list[str]:
    problems: list[str] = []
    tree = task_checks.tree(root)
    original_mailer = ast.parse((BEFORE / MAILER).read_text(encoding="utf-8"))
    original_alerts = ast.parse((BEFORE / ALERTS).read_text(encoding="utf-8"))

    mailer = task_checks.parse(tree, MAILER, problems)
    if mailer is not None:
        funcs = [n for n in mailer.body if isinstance(n, ast.FunctionDef) and n.name == FUNC]
        if len(funcs) != 1:
            problems.append(f"{MAILER} does not define {FUNC} exactly once at the top level")
        else:
            _check_signature(funcs[0], problems)
        if _without(mailer, FUNC) != _without(original_mailer, FUNC):
            problems.append(f"{MAILER} changed outside {FUNC}")
        if not problems:
            got, why = task_checks.probe(PROBE, str(root / MAILER))
            if got is None:
                problems.append(f"running {FUNC} against a fake relay {why}")
            else:
                for case, want in WANT.items():
                    if got.get(case) != want:
                        problems.append(
                            f"{FUNC} ({case}) against a fake relay: got [attempts, returned] = "
                            f"{got.get(case)}, expected {want}"
                        )

    alerts = task_checks.parse(tree, ALERTS, problems)
    if alerts is not None:
        calls = [n for n in ast.walk(alerts) if _is_call(n)]
        want_calls = [n for n in ast.walk(original_alerts) if _is_call(n)]
        if len(calls) != len(want_calls):
            problems.append(
                f"{ALERTS} has {len(calls)} calls to {FUNC}; the original had {len(want_calls)}"
            )
        for call in sorted(calls, key=lambda c: c.lineno):
            if not _passes_five(call):
                problems.append(f"{ALERTS} line {call.lineno}: {FUNC} is not passed attempts=5")
        if ast.dump(_DropAttempts().visit(alerts)) != ast.dump(original_alerts):
            problems.append(f"{ALERTS} changed beyond passing attempts=5 to {FUNC}")

    task_checks.others_unchanged(tree, BEFORE, {MAILER, ALERTS}, problems)
    return problems


def check(root: pathlib.Path) -> list[str]:
    """Problems with the tree at root (empty: the task is done)."""
    return task_checks.never_raise(_check, root)
