"""What a model may touch: paths inside the root only, outside the ignore rules.

Every path, relative or absolute, is resolved against the root with ``..`` and symlinks
followed; anything that ends outside is ``path_denied``, and so are NUL bytes, drive-letter
paths and ``~``. ``.git/`` and applydiff's own ``.applydiff/`` are always off limits; the rest
comes from the ignore file (gitignore syntax). A file under an ignored directory stays ignored
even if a later ``!rule`` names it, as in git.
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path

import pathspec

from .errors import IO_ERROR, PATH_DENIED, EditError
from .text import split_lines

STATE_DIR = ".applydiff"
# Directories a path may go down. Real trees stay far below it (a deep Java package is some
# 15); past it a path is an attack or a slip, refused before any walk (Linux's PATH_MAX,
# 4,096 bytes, allows some 2,000 levels of one-letter names).
MAX_DEPTH = 128
ALWAYS = (".git/", f"{STATE_DIR}/")
_DRIVE = re.compile(r"^[A-Za-z]:([\\/]|$)")


def denied(path: str, why: str) -> EditError:
    return EditError(f"{path!r} is not allowed: {why}", code=PATH_DENIED, path=path)


def _too_deep(path: str, depth: int) -> EditError:
    return denied(
        path[:200] + ("..." if len(path) > 200 else ""),
        f"it is {depth} levels deep, past the limit of {MAX_DEPTH}",
    )


MAX_IGNORE_BYTES = 1 << 20


def _ignore_rules(path: Path) -> bytes:
    """The ignore file's bytes (none when it is missing or a directory). It may be a link
    (it is only read), but it must end at a regular file: a FIFO would block the open."""
    try:
        st = path.stat()
    except (FileNotFoundError, NotADirectoryError):
        return b""
    except OSError as e:
        raise EditError(f"cannot read {path.name}: {e.strerror}", code=IO_ERROR) from None
    if stat.S_ISDIR(st.st_mode):
        return b""
    if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_IGNORE_BYTES:
        raise EditError(
            f"{path.name} is not a regular file of at most {MAX_IGNORE_BYTES} bytes; "
            "applydiff reads its ignore rules from one",
            code=IO_ERROR,
        )
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as e:
        raise EditError(f"cannot read {path.name}: {e.strerror}", code=IO_ERROR) from None
    with os.fdopen(fd, "rb") as f:
        return f.read(MAX_IGNORE_BYTES)


class Policy:
    """Resolves model paths against ``root`` and refuses the ones it must not touch."""

    def __init__(self, root: Path, ignore_file: str | None = ".applydiffignore") -> None:
        self.root = Path(os.path.realpath(root))
        lines: list[str] = []
        self.ignore_file = ignore_file
        if ignore_file:
            rules = _ignore_rules(self.root / ignore_file).decode("utf-8", "replace")
            # Lines end at LF, CRLF or a lone CR; a form feed or U+2028 inside a pattern is
            # part of it (str.splitlines would break there).
            lines = [line.rstrip("\r\n") for line in split_lines(rules, cr=True)]
        self.spec = pathspec.GitIgnoreSpec.from_lines(lines)

    def resolve(self, path: str) -> tuple[str, Path]:
        """``(key, real path)``: the path relative to the root (POSIX form, the identity of
        the file in results) and where it really is on disk."""
        if not isinstance(path, str) or not path.strip():
            raise denied(str(path), "the path is empty")
        if "\x00" in path:
            raise denied(path, "the path holds a NUL byte")
        if path.startswith("~"):
            raise denied(path, "'~' paths are outside the project; use a path relative to it")
        if _DRIVE.match(path) or path.startswith("\\\\"):
            raise denied(path, "drive-letter and UNC paths are outside the project")
        raw = Path(path.replace("\\", "/"))
        if len(raw.parts) > 4 * MAX_DEPTH:  # not even resolved: `..` could not bring it back
            raise _too_deep(path, len(raw.parts))
        joined = raw if raw.is_absolute() else self.root / raw
        real = Path(os.path.realpath(joined))
        try:
            rel = real.relative_to(self.root)
        except ValueError:
            raise denied(path, f"it resolves outside the project root {self.root}") from None
        key = rel.as_posix()
        if key in ("", "."):
            raise denied(path, "it is the project root itself, not a file")
        if len(rel.parts) > MAX_DEPTH:
            raise _too_deep(path, len(rel.parts))
        self.check_rules(path, key)
        return key, real

    def check_rules(self, path: str, key: str) -> None:
        parts = key.split("/")
        lowered = [p.lower() for p in parts]
        for rule in ALWAYS:
            # Any component: a submodule's ".git" file too; any case, for case-insensitive
            # file systems.
            if rule.rstrip("/") in lowered:
                raise denied(path, f"'{rule}' is always off limits")
        if self.ignore_file and key == self.ignore_file:
            raise denied(path, "the ignore rules themselves are not the model's to change")
        # Directories first: nothing under an ignored directory can be re-included.
        for depth in range(1, len(parts)):
            self._check(path, "/".join(parts[:depth]) + "/")
        self._check(path, key)

    def allowed(self, key: str, is_dir: bool = False) -> bool:
        """Whether the model may see ``key`` (a listing hides what it may not touch)."""
        try:
            self.check_rules(key, key)
            if is_dir:
                self._check(key, key + "/")
        except EditError:
            return False
        return True

    def _check(self, path: str, candidate: str) -> None:
        result = self.spec.check_file(candidate)
        if result.include and result.index is not None:
            rule = self.spec.patterns[result.index].pattern
            raise denied(path, f"it matches the rule {rule!r} in {self.ignore_file}")
