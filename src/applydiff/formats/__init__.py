"""Read what a model wrote into one edit script (a list of ops).

>>> from applydiff import parse
>>> ops = parse("app.py\\n<<<<<<< SEARCH\\nx = 1\\n=======\\nx = 2\\n>>>>>>> REPLACE\\n")
>>> ops[0].path, ops[0].old, ops[0].new
('app.py', 'x = 1\\n', 'x = 2\\n')
"""

from __future__ import annotations

from ..errors import FORMAT_INVALID, EditError
from ..ir import Op, as_asked, write_conflicts
from .detect import FORMATS, parse_text

__all__ = ["FORMATS", "no_edit", "parse"]


def no_edit(what: str) -> EditError:
    """The error of a text (an ``answer``, a ``response``) that :func:`parse` found no edit
    in."""
    return EditError(f"the {what} holds no edit in any format applydiff reads", code=FORMAT_INVALID)


def parse(
    text: str,
    format: str = "auto",
    *,
    path: str | None = None,
    strip: int | None = None,
    reverse: bool = False,
    directory: str | None = None,
) -> list[Op]:
    """The ops in ``text``, in order.

    ``format`` is ``auto`` (every block of every format, in the order they appear) or one of
    :data:`FORMATS`. ``path`` names the file for blocks that name none (as the ``path``
    argument of an apply_diff tool call does). Malformed input raises
    :class:`~applydiff.FormatInvalid` with the line and what was expected; writing a path twice,
    or writing and editing it, raises :class:`~applydiff.WriteConflict`.

    As ``git apply`` takes them: ``strip`` leading path components come off every path a
    unified or git diff names (``-p N``; None: git's a/ and b/); ``reverse`` gives the ops
    that undo the answer (``-R``, :func:`~applydiff.ir.reverse_ops`: an op with no reverse
    is ``format_invalid``); ``directory`` goes before every path (``--directory``).
    """
    ops, refused = as_asked(
        parse_text(text, format, path, strip), reverse=reverse, directory=directory
    )
    if refused:
        raise refused[min(refused)]
    conflicts = write_conflicts(ops)
    if conflicts:
        raise conflicts[min(conflicts)]
    return ops
