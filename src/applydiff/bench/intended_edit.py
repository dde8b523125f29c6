"""The edit a case intends: one line of a block changed, added after it or removed, written
in the file's language and indentation."""

from __future__ import annotations

import keyword
import random
import re
from collections.abc import Iterable
from dataclasses import dataclass

from .block_lines import TAB, lead
from .langs import PY, Lang

_NUM = re.compile(r"(?<![\w.])\d+(?![\w.])")
_STR = re.compile(r"""(['"])([A-Za-z][A-Za-z0-9 _-]{0,30})\1""")
_NAME = re.compile(r"\b[A-Za-z_]\w{2,}\b")
_SKIP_NAMES = frozenset({"self", "cls", "None", "True", "False"})  # and ``Lang.reserved``


def names_in(lines: Iterable[str], lang: Lang = PY) -> list[str]:
    out = {m.group() for x in lines for m in _NAME.finditer(x)}
    return sorted(x for x in out if renamable(x, lang))


def renamable(name: str, lang: Lang = PY) -> bool:
    return not keyword.iskeyword(name) and name not in _SKIP_NAMES and name not in lang.reserved


def change_token(
    rng: random.Random,
    line: str,
    names: list[str],
    what: Iterable[str] = ("num", "str", "name"),
    lang: Lang = PY,
) -> str | None:
    """``line`` with one number, short string or identifier changed, as a model edit does
    (``what`` says which of those may change)."""
    allowed = set(what)
    spans: list[tuple[str, re.Match[str]]] = []
    if "num" in allowed:
        spans += [("num", m) for m in _NUM.finditer(line)]
    if "str" in allowed:
        spans += [("str", m) for m in _STR.finditer(line)]
    if "name" in allowed:
        spans += [("name", m) for m in _NAME.finditer(line) if renamable(m.group(), lang)]
    if not spans:
        return None
    what, m = rng.choice(spans)
    word = m.group()
    if what == "num":
        repl = str(int(word) + rng.randint(1, 9))
    elif what == "str":
        repl = m.group(1) + m.group(2) + rng.choice(["_v2", " (new)", "s"]) + m.group(1)
    else:
        others = [x for x in names if x != word]
        repl = rng.choice([word + "_new", "new_" + word, word + "2", *others[:1]])
        if others and rng.random() < 0.3:
            repl = rng.choice(others)
    out = line[: m.start()] + repl + line[m.end() :]
    return out if out != line else None


def new_statement(rng: random.Random, indent: str, names: list[str], lang: Lang = PY) -> str:
    name = rng.choice(names) if names else "value"
    n = rng.randint(2, 99)
    return indent + rng.choice([x.format(name=name, n=n) for x in lang.statements])


def deeper(indent: str, unit: str, tab: int = 4) -> str:
    """One level more: tabs first, then spaces, when the indentation has tabs (a tab counting
    ``tab`` columns), as an editor writes it."""
    if unit != TAB and TAB not in indent:
        return indent + unit
    cols = len(indent.expandtabs(tab)) + tab
    return TAB * (cols // tab) + " " * (cols % tab)


@dataclass(frozen=True)
class Edit:
    """One line of a block changed (``modify``), added after it (``insert``) or removed."""

    at: int
    op: str
    line: str = ""

    def apply(self, block: list[str]) -> tuple[list[str], list[int | None]]:
        """The edited block, and for each of its lines the block line it is (None: new)."""
        origin: list[int | None] = list(range(len(block)))
        lines = list(block)
        if self.op == "modify":
            lines[self.at], origin[self.at] = self.line, None
        elif self.op == "insert":
            lines.insert(self.at + 1, self.line)
            origin.insert(self.at + 1, None)
        else:
            del lines[self.at], origin[self.at]
        return lines, origin

    def describe(self) -> str:
        return f"{self.op} block line {self.at + 1}"


def make_edit(
    rng: random.Random,
    block: list[str],
    unit: str,
    exclude: Iterable[int] = (),
    tab: int = 4,
    *,
    ends: bool = False,
    lang: Lang = PY,
) -> Edit | None:
    """An edit to a non-blank middle line of ``block`` (the first or last too when ``ends``);
    ``unit`` is one indentation level of the file, ``tab`` the columns a tab stands for, new
    lines are written in ``lang``."""
    skip = set(exclude)
    lo, hi = (0, len(block)) if ends else (1, len(block) - 1)
    spots = [i for i in range(lo, hi) if block[i].strip() and i not in skip]
    if not spots:
        return None
    at = rng.choice(spots)
    names = names_in(block, lang)
    op = rng.choices(["modify", "insert", "delete"], [6, 2, 2])[0]
    if op == "modify":
        line = change_token(rng, block[at], names, lang=lang)
        return None if line is None else Edit(at, op, line)
    if op == "insert":
        indent = lead(block[at])
        if block[at].rstrip().endswith(lang.opens):
            indent = deeper(indent, unit, tab)
        return Edit(at, op, new_statement(rng, indent, names, lang))
    return Edit(at, op)
