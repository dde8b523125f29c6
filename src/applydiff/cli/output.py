"""How a result reads on the command line: the diff preview on stdout (a patch file when
redirected), the edits, errors and warnings on stderr, and ``--stat``/``--numstat`` in git
apply's formats."""

from __future__ import annotations

import dataclasses
import re
from typing import TYPE_CHECKING, Any

from ..text import line_texts
from .base import IO

if TYPE_CHECKING:
    from ..results import Result


def show_diff(io: IO, result: Result) -> None:
    """Every changed file's diff on stdout: byte for byte when it is not a terminal
    without colour, line by line styled otherwise."""
    out = io.out
    for _path, diff in result.diffs():
        if not out.color and not out.terminal:
            out.write(diff)
            continue
        # The diff's lines as its own newlines end them (a form feed or U+2028 in a line
        # is the line's).
        for line in line_texts(diff, cr=False):
            out.line(line, _diff_style(line))


def _diff_style(line: str) -> str | None:
    if line.startswith(("+++", "---", "diff ", "rename ", "similarity ", "new file", "deleted")):
        return "bold"
    if line.startswith("+"):
        return "green"
    if line.startswith("-"):
        return "red"
    if line.startswith("@@"):
        return "cyan"
    return None


def show_edits(io: IO, result: Result) -> None:
    """One line per applied edit: where it landed, by which tier, how sure (stderr)."""
    for r in result.edits:
        lines = f" lines {r.start_line}-{r.end_line}" if r.start_line else ""
        io.err.line(f"edit {r.index}: {r.path}{lines}: {r.label} ({r.confidence:.2f})")


def error_line(e: Any) -> tuple[str, str]:
    """``(code, the rest)`` of an error's line: ``no_match a.py (edit 1, answer line 12):
    message``; the answer line is where the failed edit's block starts."""
    where = []
    if e.get("index") is not None:
        where.append(f"edit {e['index']}")
    answer_line = e.get("answer_line")
    if answer_line is not None:
        where.append(f"answer line {answer_line}")
    place = " ".join(
        x for x in (e.get("path") or "", f"({', '.join(where)})" if where else "") if x
    )
    return e["code"], (f" {place}: " if place else ": ") + str(e.get("message", ""))


def show_errors(io: IO, result: Result) -> None:
    for e in result.errors:
        code, rest = error_line(e)
        if io.err.color:
            io.err.line(code, "bold red", end="")
            io.err.line(rest)
        else:
            io.err.line(code + rest)


# The engine's advice is written for a model and its tools; a person at the command line
# gets the same advice in the words of this command's flags.
_FOR_PERSON = [
    (re.compile(r"\bgive a line hint\b"), "pick the place with --line N (the line it starts at)"),
    (re.compile(r"\bset replace_all to\b"), "pass --replace-all to"),
    (
        re.compile(r"; to create it, use write_file"),
        "; to create it, the answer must hold the whole file (a new-file diff, or an empty SEARCH)",
    ),
    (re.compile(r"\bread it with read_file first\b"), "read it first"),
    (re.compile(r"\buse write_file\b"), "write the whole file"),
]


def for_person(result: Result) -> Result:
    """``result`` with its errors' advice in the command line's words (``--line N``,
    ``--replace-all``) instead of a model's tools' (a line hint, ``replace_all``,
    ``write_file``)."""
    for k, e in enumerate(result.errors):
        message = e.message
        for pattern, words in _FOR_PERSON:
            message = pattern.sub(words, message)
        if message != e.message:
            result.errors[k] = dataclasses.replace(e, message=message)
    return result


def show_warnings(io: IO, result: Result) -> None:
    for w in result.warnings:
        io.err.line(f"warning: {w}", "yellow")


# -- --stat and --numstat, as git apply prints them ------------------------------------------
def file_stats(result: Result) -> list[dict[str, Any]]:
    """Per changed file: ``path`` (a renamed file's new one, as ``git apply --stat`` names it;
    ``from`` holds the old), lines ``added``, ``deleted``, counted from the result's diffs."""
    renamed = {f.path: f.to for f in result.files if f.to is not None}
    stats = []
    for path, diff in result.diffs():
        added = deleted = 0
        in_hunk = False
        for line in line_texts(diff, cr=False):
            if line.startswith("@@"):
                in_hunk = True
            elif not in_hunk:
                continue
            elif line.startswith("+"):
                added += 1
            elif line.startswith("-"):
                deleted += 1
        entry: dict[str, Any] = {"path": renamed.get(path, path), "added": added}
        entry["deleted"] = deleted
        if path in renamed:
            entry["from"] = path
        stats.append(entry)
    return stats


def quote_path(path: str) -> str:
    """A path as git writes it: in double quotes with C escapes when it holds a quote, a
    backslash, a control character or a byte past ASCII."""
    if all(32 <= ord(c) < 127 and c not in '"\\' for c in path):
        return path
    escapes = {
        "\a": "\\a",
        "\b": "\\b",
        "\t": "\\t",
        "\n": "\\n",
        "\v": "\\v",
        "\f": "\\f",
        "\r": "\\r",
        '"': '\\"',
        "\\": "\\\\",
    }
    out = []
    for c in path:
        if c in escapes:
            out.append(escapes[c])
        elif 32 <= ord(c) < 127:
            out.append(c)
        else:
            out.extend(f"\\{b:03o}" for b in c.encode("utf-8", "surrogateescape"))
    return '"' + "".join(out) + '"'


def numstat(stats: list[dict[str, Any]]) -> str:
    """``added<TAB>deleted<TAB>path`` per file."""
    return "".join(f"{s['added']}\t{s['deleted']}\t{quote_path(s['path'])}\n" for s in stats)


def diffstat(stats: list[dict[str, Any]]) -> str:
    """git apply --stat: `` name | count +++--`` per file (names past 50 columns shortened
    with ``...``, the bar scaled to fit 70 columns), then the summary line."""
    names = [quote_path(s["path"]) for s in stats]
    width = min(max((len(n) for n in names), default=0), 50)
    most = max((s["added"] + s["deleted"] for s in stats), default=0)
    bar = 70 - width if width + most > 70 else most
    lines = []
    for name, s in zip(names, stats, strict=True):
        if len(name) > width:
            cut = len(name) + 3 - width
            slash = name.find("/", cut)
            name = "..." + name[slash if slash >= 0 else cut :]
        add, dele = s["added"], s["deleted"]
        plus, minus = add, dele
        if most > 0:
            total = ((add + dele) * bar + most // 2) // most
            plus = (add * bar + most // 2) // most
            minus = total - plus
        lines.append(f" {name:<{width}} |{add + dele:5d} {'+' * plus}{'-' * minus}\n")
    return "".join(lines) + stat_summary(stats)


def stat_summary(stats: list[dict[str, Any]]) -> str:
    files = len(stats)
    if not files:
        return " 0 files changed\n"
    added = sum(s["added"] for s in stats)
    deleted = sum(s["deleted"] for s in stats)
    text = f" {files} file{'s' if files != 1 else ''} changed"
    if added or not deleted:
        text += f", {added} insertion{'s' if added != 1 else ''}(+)"
    if deleted or not added:
        text += f", {deleted} deletion{'s' if deleted != 1 else ''}(-)"
    return text + "\n"
