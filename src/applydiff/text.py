"""Text facts shared by every layer: line terminators, the dominant one, and file ids.

Lines end at ``\\n`` and ``\\r\\n``, and at a lone ``\\r`` in a file whose lines end that way
(old Mac files: :func:`cr_ends_lines`); in other files a lone ``\\r`` is content. Nothing else
ends a line: ``str.splitlines`` also splits at form feeds, ``\\x0b``, ``\\x1c``-``\\x1e``,
``\\x85`` and U+2028/2029, which would misplace edits and lose bytes, so it is never used on
file text. :func:`split_lines` is the one splitter; :func:`to_lf` gives the form matching works
on (every terminator one LF), consistent with it.
"""

from __future__ import annotations

import hashlib
import re

LF = "\n"
CRLF = "\r\n"
CR = "\r"

# A line ended by LF, CRLF or a lone CR, or a last line without a terminator.
_CR_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+")


def cr_ends_lines(text: str) -> bool:
    """Whether a lone CR ends lines of ``text``: more lines end with one than with LF (or
    CRLF). Otherwise a lone CR is content.

    >>> cr_ends_lines("a\\rb\\r"), cr_ends_lines("a\\rb\\n")
    (True, False)
    """
    if CR not in text:
        return False
    lone = text.count(CR) - text.count(CRLF)
    return lone > text.count(LF)


def to_lf(text: str, cr: bool = False) -> str:
    """``text`` with every CRLF turned into LF (the form all matching works on), and every
    lone CR too when ``cr`` (a file whose lines end with CR, see :func:`cr_ends_lines`)."""
    if CR not in text:
        return text
    text = text.replace(CRLF, LF)
    return text.replace(CR, LF) if cr else text


def split_lines(text: str, cr: bool | None = None) -> list[str]:
    """Lines with their own terminators kept; ``"".join(split_lines(t)) == t``. A lone CR
    ends a line when ``cr`` (by default: when it ends the text's lines, see
    :func:`cr_ends_lines`).

    >>> split_lines("a\\r\\nb\\nc\\x0cd\\u2028e")
    ['a\\r\\n', 'b\\n', 'c\\x0cd\\u2028e']
    >>> split_lines("a\\rb\\rc")
    ['a\\r', 'b\\r', 'c']
    """
    if not text:
        return []
    if cr is None:
        cr = cr_ends_lines(text)
    if cr:
        return _CR_LINE.findall(text)
    parts = text.split(LF)
    out = [p + LF for p in parts[:-1]]
    if parts[-1]:
        out.append(parts[-1])
    return out


def line_texts(text: str, cr: bool | None = None) -> list[str]:
    """The lines :func:`split_lines` finds, without their terminators.

    >>> line_texts("a\\r\\nb\\x85c\\n")
    ['a', 'b\\x85c']
    """
    if not text:
        return []
    lines = to_lf(text, cr_ends_lines(text) if cr is None else cr).split(LF)
    if not lines[-1]:
        lines.pop()
    return lines


def count_lines(text: str, cr: bool | None = None) -> int:
    """``len(split_lines(text, cr))``, without building the lines."""
    if not text:
        return 0
    if cr is None:
        cr = cr_ends_lines(text)
    ends = text.count(LF)
    if cr:
        ends += text.count(CR) - text.count(CRLF)
    return ends + (0 if ends_line(text, cr) else 1)


def line_growth(before: str, after: str, start: int, end: int) -> int | None:
    """``count_lines(after) - count_lines(before)`` counted over the changed part alone, when
    ``after`` is ``before`` with only ``before[start:end]`` replaced (checked: the rest is
    compared, which costs far less than counting the lines of a whole file); None when it is
    not, or a text holds a CR (which may or may not end lines)."""
    tail = len(before) - end
    if not 0 <= start <= end <= len(before) or len(after) - tail < start:
        return None
    if CR in before or CR in after:
        return None
    if not (after.startswith(before[:start]) and after.endswith(before[end:])):
        return None
    grown = after.count(LF, start, len(after) - tail) - before.count(LF, start, end)
    # count_lines' last line without a terminator, on either side
    return grown + (bool(after) and not ends_line(after)) - (bool(before) and not ends_line(before))


def ends_line(text: str, cr: bool | None = None) -> bool:
    """Whether ``text`` ends with a line terminator (a lone CR counts when it ends lines)."""
    if text.endswith(LF):
        return True
    if not text.endswith(CR):
        return False
    return cr_ends_lines(text) if cr is None else cr


def dominant_eol(text: str) -> str:
    """The terminator most lines of ``text`` use: LF, CRLF, or CR in a file whose lines end
    with a lone CR (LF on a tie or when there is none)."""
    if CR not in text:
        return LF
    if cr_ends_lines(text):
        return CR
    crlf = text.count(CRLF)
    return CRLF if crlf > text.count(LF) - crlf else LF


def file_id(text: str) -> str:
    """A short content hash naming one version of a file's text (8 hex digits).

    >>> file_id("hello\\n")
    '95a7eba0'
    """
    data = text.encode("utf-8", "surrogatepass")
    return hashlib.blake2b(data, digest_size=4).hexdigest()


# -- decoding and encoding files ----------------------------------------------------------------
BOMS = (
    (b"\xff\xfe\x00\x00", "utf-32-le"),
    (b"\x00\x00\xfe\xff", "utf-32-be"),
    (b"\xef\xbb\xbf", "utf-8"),
    (b"\xff\xfe", "utf-16-le"),
    (b"\xfe\xff", "utf-16-be"),
)


class Encoding:
    """How a file's bytes became text, so the edited text can become bytes the same way.

    ``errors="surrogateescape"`` is UTF-8 text with a few invalid bytes: they become lone
    surrogates when decoded and the same bytes again when encoded.
    """

    __slots__ = ("bom", "errors", "name")

    def __init__(self, name: str, bom: bytes = b"", errors: str = "strict") -> None:
        self.name = name
        self.bom = bom
        self.errors = errors

    def label(self) -> str:
        if self.errors == "surrogateescape":
            return f"{self.name} (with invalid bytes kept)"
        return self.name + ("-bom" if self.bom and self.name == "utf-8" else "")

    def __repr__(self) -> str:
        return f"Encoding({self.label()!r})"

    def _key(self) -> tuple[str, bytes, str]:
        return (self.name, self.bom, self.errors)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Encoding) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())


UTF8 = Encoding("utf-8")


class Binary(ValueError):
    """The bytes are not text (they hold NUL bytes and no UTF-16/32 byte order mark)."""


def decode(data: bytes) -> tuple[str, Encoding]:
    """Text of a file: UTF-8 (with or without BOM), UTF-16/32 with a BOM, else Latin-1, which
    maps every byte to one character and back (lossless). NUL bytes without a BOM: Binary."""
    for bom, name in BOMS:
        if data.startswith(bom):
            try:
                return data[len(bom) :].decode(name), Encoding(name, bom)
            except UnicodeDecodeError as e:
                raise Binary(f"invalid {name} at byte {e.start + len(bom)}") from None
    if b"\x00" in data:
        raise Binary("it holds NUL bytes")
    try:
        return data.decode("utf-8"), UTF8
    except UnicodeDecodeError:
        pass
    # Mostly UTF-8 with a stray invalid byte: keep it UTF-8 (new text must not be written in
    # another encoding into the same file) and carry the bad bytes through unchanged.
    text = data.decode("utf-8", "surrogateescape")
    if any(c > "\x7f" and not "\udc80" <= c <= "\udcff" for c in text):
        return text, Encoding("utf-8", errors="surrogateescape")
    return data.decode("latin-1"), Encoding("latin-1")


def encode(text: str, enc: Encoding) -> bytes:
    """Bytes of ``text`` in ``enc``; UnicodeEncodeError when it holds what ``enc`` cannot."""
    return enc.bom + text.encode(enc.name, enc.errors)
