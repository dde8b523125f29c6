"""The engines compared: applydiff, an exact-and-unique baseline, and peers when installed.

Every engine is ``apply(text, old, new, hint_line) -> new text`` and raises :class:`Refused`
when it does not apply the edit. Peers are used as their projects ship them:

- ``aider``: aider-chat's ``replace_most_similar_chunk`` (exact, then whitespace-tolerant
  matching, then ``...`` elisions), the search/replace step of its editblock coder;
- ``dmp``: diff-match-patch, ``patch_make(old, new)`` then ``patch_apply`` on the file, with
  default settings except ``Match_Distance`` raised to the file's length: a patch made from the
  block alone says nothing about where the block is, so it must be allowed to look anywhere.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

Apply = Callable[[str, str, str, "int | None"], str]


class Refused(Exception):
    """The engine did not apply the edit (it said so, or returned nothing)."""


@dataclass(frozen=True)
class Engine:
    name: str
    description: str
    apply: Apply
    version: str = ""


def _applydiff() -> Engine:
    from ..errors import EditError
    from ..match import replace
    from ..version import __version__

    def apply(text: str, old: str, new: str, hint: int | None) -> str:
        try:
            return replace(text, old, new, hint_line=hint)
        except EditError as e:
            raise Refused(e.code) from None

    return Engine("applydiff", "applydiff.replace (the matching ladder)", apply, __version__)


def _exact() -> Engine:
    def apply(text: str, old: str, new: str, hint: int | None) -> str:
        if not old or text.count(old) != 1:
            raise Refused("not found exactly once")
        return text.replace(old, new, 1)

    return Engine("exact", "the search text byte for byte, once (str.replace)", apply)


def _aider() -> Engine:
    from importlib.metadata import version

    from aider.coders.editblock_coder import (  # type: ignore[import-not-found]
        replace_most_similar_chunk,
    )

    def apply(text: str, old: str, new: str, hint: int | None) -> str:
        out = replace_most_similar_chunk(text, old, new)
        if not out:
            raise Refused("no match")
        return out

    return Engine("aider", "aider's replace_most_similar_chunk", apply, version("aider-chat"))


def _dmp() -> Engine:
    from importlib.metadata import version

    from diff_match_patch import diff_match_patch  # type: ignore[import-untyped]

    def apply(text: str, old: str, new: str, hint: int | None) -> str:
        dmp = diff_match_patch()
        dmp.Match_Distance = max(1000, len(text))
        patches = dmp.patch_make(old, new)
        out, applied = dmp.patch_apply(patches, text)
        if not all(applied):
            raise Refused(f"{applied.count(False)} of {len(applied)} patch hunks failed")
        return out

    return Engine(
        "dmp", "diff-match-patch patch_make + patch_apply", apply, version("diff-match-patch")
    )


FACTORIES: dict[str, Callable[[], Engine]] = {
    "applydiff": _applydiff,
    "exact": _exact,
    "aider": _aider,
    "dmp": _dmp,
}
ENGINES = tuple(FACTORIES)


def load(name: str) -> Engine:
    """The engine called ``name``; ImportError when its package is not installed."""
    return FACTORIES[name]()


def available(names: list[str]) -> tuple[list[str], list[str]]:
    """The engines of ``names`` that can run here, and a note for each that cannot."""
    ok, notes = [], []
    for name in names:
        if name not in FACTORIES:
            raise ValueError(f"unknown engine {name!r}; engines: {', '.join(ENGINES)}")
        try:
            load(name)
        except ImportError as e:
            extra = {"aider": "aider-chat", "dmp": "diff-match-patch"}.get(name, name)
            notes.append(f"{name}: skipped, not installed ({e.name or e}); pip install {extra}")
            continue
        ok.append(name)
    return ok, notes
