"""How much of an answer the parsers read: past these, the answer is refused as ``too_large``
before any file is matched or written (issue 28).

An answer is what a model wrote, or what an MCP client or a batch record sends in its name.
The bounds sit far above any real answer, so that only a flood (100,000 tiny blocks, 20 MB
of fence lines) meets them, and each refusal names the limit it met.
"""

from __future__ import annotations

from ..errors import TOO_LARGE, EditError

# Twice the largest file the store reads whole (``store.DEFAULT_MAX_FILE_BYTES``, 16 MiB):
# room for such a file written out in any format (a diff adds a character a line, JSON
# escapes), and a batch record (64 MiB) holds it with its files. Characters, not bytes:
# ``len`` costs nothing, and an ASCII answer has as many of each.
MAX_ANSWER_CHARS = 32 * 1024 * 1024
# Edits an answer may hold. Models write tens of edits in one answer and rarely a few hundred;
# 10,000 is far past that, and it keeps what the engine is handed (each edit is a search of
# its file) and the objects parsing makes bounded, whatever the answer's size.
MAX_OPS = 10_000


def check_size(text: str) -> None:
    """Refuse an answer longer than :data:`MAX_ANSWER_CHARS` before reading any of it."""
    if len(text) > MAX_ANSWER_CHARS:
        raise EditError(
            f"the answer holds {len(text):,} characters, over the limit of "
            f"{MAX_ANSWER_CHARS:,} (MAX_ANSWER_CHARS), so it was not read and nothing was "
            "applied; send the edits in smaller answers",
            code=TOO_LARGE,
        )


def check_count(count: int, line: int | None = None) -> None:
    """Refuse an answer once it holds more than :data:`MAX_OPS` edits (``count``: those read
    so far; ``line``: where the block that passed the limit starts), before any is matched."""
    if count > MAX_OPS:
        where = f"at the block at line {line:,}" if line is not None else "there"
        raise EditError(
            f"the answer holds more than {MAX_OPS:,} edits, the limit (MAX_OPS): reading "
            f"stopped {where} and nothing was applied; send the edits in smaller answers",
            code=TOO_LARGE,
        )
