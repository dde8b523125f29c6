"""A whole merged file written by someone else (a merge model) turned into the file's own
bytes: lines it kept are the original's lines, byte for byte.

A model writes the file back as text: it ends lines with "\\n" whatever the file used, drops
trailing whitespace, may turn a tab into spaces. None of that is the edit. Each line the
merge kept (equal to an original line but for whitespace, where the alignment of the two
versions pairs them) is written as the original has it, terminator included, unless the
snippet shows the line exactly as the merge writes it, and not as the original has it: then
its whitespace is the edit (a block the snippet re-indents), and the merge's stands. Lines
the merge adds end as the file's lines end, and are written as the snippet wrote them when
the merge turned their indentation into other characters than the file's (tabs to spaces).
"""

from __future__ import annotations

from ..text import dominant_eol, split_lines, to_lf
from .diff import align_versions
from .normalize import collapse


def keep_file_bytes(original: str, merged: str, snippet: str) -> str:
    """``merged`` with the original's bytes on every line it kept (see the module)."""
    old = split_lines(original)
    old_bare = [x.rstrip("\r\n") for x in old]
    new = [x.rstrip("\r\n") for x in split_lines(to_lf(merged))]
    shown = {x.rstrip() for x in to_lf(snippet).split("\n") if x.strip()}
    # The snippet's own lines by their text, for a line the merge wrote with other
    # indentation characters than the file uses (spaces in a file indented with tabs).
    written: dict[str, str] = {}
    for x in to_lf(snippet).split("\n"):
        written.setdefault(collapse(x), x.rstrip())
    tabs = sum(x.startswith("\t") for x in old_bare) > sum(x.startswith(" ") for x in old_bare)
    eol = dominant_eol(original) if original else "\n"
    # A last line the merge adds ends as the file's last line ends (a model's answer often
    # loses the final newline; that is not the edit).
    final = original.endswith(("\n", "\r")) if original else merged.endswith(("\n", "\r"))
    out: list[str] = []
    copied = False
    for tag, i1, _, j1, j2 in align_versions(old_bare, new):
        for d in range(j2 - j1):
            line = new[j1 + d]
            before = old_bare[i1 + d] if tag == "equal" else None
            if before is not None and (
                before.rstrip() == line.rstrip()
                or line.rstrip() not in shown
                or before.rstrip() in shown
            ):
                out.append(old[i1 + d])
                copied = True
            else:
                out.append(_indented_as_file(line, written, tabs) + eol)
                copied = False
    if not out:
        return ""
    for k in range(len(out) - 1):  # an original last line with no terminator, now inside
        if not out[k].endswith(("\n", "\r")):
            out[k] += eol
    if not copied and not final:
        out[-1] = out[-1][: -len(eol)]
    return "".join(out)


def _indented_as_file(line: str, written: dict[str, str], tabs: bool) -> str:
    """A line the merge adds: as the snippet wrote it when the merge changed its indentation
    characters away from the file's (a model that turns tabs into spaces), else as is."""
    lead = line[: len(line) - len(line.lstrip(" \t"))]
    if not lead or ("\t" in lead) == tabs:
        return line
    mine = written.get(collapse(line))
    if mine is None or not mine.strip():
        return line
    theirs = mine[: len(mine) - len(mine.lstrip(" \t"))]
    return mine if theirs and ("\t" in theirs) == tabs else line


__all__ = ["keep_file_bytes"]
