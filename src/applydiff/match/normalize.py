"""Per-line normalizations used by the tolerant tiers, and the undo of character noise.

Every normalization here maps a line to a comparison key. None of them creates or removes a
character of an *anchor run* (see ``anchors.py``), which is what lets the anchors find every
candidate a tier could accept.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict

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
_ESCAPES = {"n": "\n", "t": "\t", "r": "", '"': '"', "'": "'", "\\": "\\", "`": "`"}
_ESCAPE = re.compile(r"\\(.)", re.DOTALL)


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
    """Undo one level of over-escaping: ``\\"`` -> ``"``, ``\\\\n`` -> newline, ``\\\\`` -> ``\\``.

    Unknown escapes keep their backslash.
    """
    if "\\" not in text:
        return text
    return _ESCAPE.sub(lambda m: _ESCAPES.get(m.group(1), m.group(0)), text)


class CharUndo:
    """Learns, from lines that matched after ``chars()``, which characters the model wrote in
    place of the file's, and rewrites new lines the same way.

    A mapping is used only when it is consistent: every time the model wrote ``a`` where the
    comparison needed it, the file held the same ``b``, and never ``a`` itself.
    """

    def __init__(self) -> None:
        self._seen: defaultdict[str, Counter[str]] = defaultdict(Counter)

    def learn(self, model_line: str, file_line: str) -> None:
        a_tokens = model_line.split()
        b_tokens = file_line.split()
        if len(a_tokens) != len(b_tokens):
            return
        for a_tok, b_tok in zip(a_tokens, b_tokens, strict=True):
            if len(a_tok) != len(b_tok):
                return
            for a, b in zip(a_tok, b_tok, strict=True):
                if a in CHAR_MAP or b in CHAR_MAP or a in "'\"-":
                    self._seen[a][b] += 1

    def mapping(self) -> dict[str, str]:
        out = {}
        for a, targets in self._seen.items():
            if len(targets) == 1:
                (b,) = targets
                if b != a:
                    out[a] = b
        return out

    def apply(self, line: str) -> str:
        table = self.mapping()
        return line.translate(str.maketrans(table)) if table else line
