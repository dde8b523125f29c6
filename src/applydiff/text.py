"""Text facts shared by every layer: line terminators, the dominant one, and file ids.

Only ``\\n`` and ``\\r\\n`` end a line. A lone ``\\r`` (or a form feed, or U+2028) is content:
``str.splitlines`` would split on those and lose bytes, so it is never used on file text.
"""

from __future__ import annotations

import hashlib

LF = "\n"
CRLF = "\r\n"


def to_lf(text: str) -> str:
    """``text`` with every CRLF turned into LF (the form all matching works on)."""
    return text.replace(CRLF, LF) if "\r" in text else text


def split_lines(text: str) -> list[str]:
    """Lines with their own terminators kept; ``"".join(split_lines(t)) == t``.

    >>> split_lines("a\\r\\nb\\nc")
    ['a\\r\\n', 'b\\n', 'c']
    """
    if not text:
        return []
    parts = text.split(LF)
    out = [p + LF for p in parts[:-1]]
    if parts[-1]:
        out.append(parts[-1])
    return out


def dominant_eol(text: str) -> str:
    """The terminator most lines of ``text`` use (LF on a tie or when there is none)."""
    if "\r" not in text:
        return LF
    crlf = text.count(CRLF)
    return CRLF if crlf > text.count(LF) - crlf else LF


def file_id(text: str) -> str:
    """A short content hash naming one version of a file's text (8 hex digits).

    >>> file_id("hello\\n")
    '95a7eba0'
    """
    data = text.encode("utf-8", "surrogatepass")
    return hashlib.blake2b(data, digest_size=4).hexdigest()
