"""Per-line normalizations used by the tolerant tiers, and the undo of character noise.

Every normalization here maps a line to a comparison key. None of them creates or removes a
character of an *anchor run* (see ``anchors.py``), which is what lets the anchors find every
candidate a tier could accept.
"""

from __future__ import annotations

import re

# Unicode punctuation models emit for ASCII (or that files hold where models write ASCII).
CHAR_MAP = {
    "\u2018": "'",
    "\u2019": "'",
    "\u201a": "'",
    "\u201b": "'",
    "\u2032": "'",
    "\u201c": '"',
    "\u201d": '"',
    "\u201e": '"',
    "\u201f": '"',
    "\u2033": '"',
    "\u2010": "-",
    "\u2011": "-",
    "\u2012": "-",
    "\u2013": "-",
    "\u2014": "-",
    "\u2015": "-",
    "\u2212": "-",
    "\u00a0": " ",
    "\u2002": " ",
    "\u2003": " ",
    "\u2007": " ",
    "\u2009": " ",
    "\u200a": " ",
    "\u202f": " ",
}
_CHAR_TABLE = str.maketrans(CHAR_MAP)
# '\$' and '\`' are template-literal escapes a model doubles when it quotes JS or shell.
_ESCAPES = {"n": "\n", "t": "\t", "r": "", '"': '"', "'": "'", "\\": "\\", "`": "`", "$": "$"}
_ESCAPE = re.compile(r"\\(.)", re.DOTALL)
# A conflict marker escaped as the apply_diff dialect escapes its own ('\<<<<<<< HEAD',
# '\>>>>>>> feature-x'): the file holds the marker itself.
_MARKER = re.compile(r"^([ \t]*)\\(?=<{7}|>{7}|={7}|\|{7})", re.MULTILINE)


def rstrip(line: str) -> str:
    return line.rstrip(" \t\r\f\v")


def content(line: str) -> str:
    """The line without its indentation and trailing blanks."""
    return line.strip(" \t\r\f\v")


def collapse(line: str) -> str:
    """Runs of blanks (any whitespace) collapsed to one space, ends stripped."""
    return " ".join(line.split())


def chars(line: str) -> str:
    """Unicode punctuation (smart quotes, dashes, odd spaces) mapped to ASCII."""
    return line if line.isascii() else line.translate(_CHAR_TABLE)


def loose(line: str) -> str:
    """The most tolerant exact key: character-normalized, then blank-collapsed."""
    return collapse(chars(line))


def unescape(text: str) -> str:
    """Undo one level of over-escaping: ``\\"`` -> ``"``, ``\\\\n`` -> newline, ``\\\\`` -> ``\\``,
    ``\\$`` -> ``$``, and a backslash before a conflict marker at a line's start.

    Unknown escapes keep their backslash.
    """
    if "\\" not in text:
        return text
    text = _MARKER.sub(r"\1", text)
    return _ESCAPE.sub(lambda m: _ESCAPES.get(m.group(1), m.group(0)), text)


class CharUndo:
    """Learns, from line pairs that matched after ``chars()``, whether the model writes unicode
    punctuation (smart quotes, dashes) where the file has ASCII, and if so turns that
    punctuation back into ASCII in the model's new lines.

    Only that direction is undone for whole lines: a file holding ``don’t`` in a comment says
    nothing about the quotes of new code. Spans of an edited line that the model did not change
    keep the file's characters anyway (``inline.merge_line``).
    """

    def __init__(self) -> None:
        self._to_ascii = 0
        self._kept: set[str] = set()  # unicode characters the file itself holds there

    def learn(self, model_line: str, file_line: str) -> None:
        if model_line.isascii():
            return
        a_tokens = model_line.split()
        b_tokens = file_line.split()
        if len(a_tokens) != len(b_tokens):
            return
        for a_tok, b_tok in zip(a_tokens, b_tokens, strict=True):
            if len(a_tok) != len(b_tok):
                continue
            for a, b in zip(a_tok, b_tok, strict=True):
                if a in CHAR_MAP:
                    if b == a:
                        self._kept.add(a)
                    elif b == CHAR_MAP[a]:
                        self._to_ascii += 1

    def apply(self, line: str) -> str:
        if not self._to_ascii or line.isascii():
            return line
        return "".join(c if c in self._kept else CHAR_MAP.get(c, c) for c in line)
