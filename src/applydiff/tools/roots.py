"""Several allowed directories (an MCP client's roots): each a tool layer, a call routed to one.

The filesystem dialect's server may work in several directories, as the reference server does
with the roots its client names. Each directory is a root of its own (its policy, session and
lock: :class:`~applydiff.tools.ToolLayer`), and a call goes to the layer whose root holds the
paths it names: an absolute path to the root it lies under, a relative one to the first
root's. A call whose paths lie under no allowed directory, or under two, is ``path_denied``
before any layer sees it; inside a layer the path policy still applies (ignore rules,
``.git``, links out of the root).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

from ..errors import PATH_DENIED, EditError
from .base_layer import ToolResult, tool_error
from .layer import ToolLayer

# The fields of the filesystem dialect's tools that name paths.
_PATH_FIELDS = ("path", "source", "destination")


def root_paths(uris: Sequence[str]) -> list[Path]:
    """The directories among ``file://`` URIs (real paths, in order, each once); any other
    URI, and a path that is not a directory, is left out."""
    out: list[Path] = []
    for uri in uris:
        parsed = urlparse(uri)
        if parsed.scheme != "file" or parsed.netloc not in ("", "localhost"):
            continue
        path = Path(os.path.realpath(unquote(parsed.path)))
        if path.is_dir() and path not in out:
            out.append(path)
    return out


class RootedLayers:
    """The tool layers of the allowed directories; ``make`` opens the layer of one."""

    def __init__(self, root: str | os.PathLike[str], make: Callable[[Path], ToolLayer]) -> None:
        self.make = make
        first = make(Path(root))
        self.layers: dict[Path, ToolLayer] = {first.ws.root: first}
        self.roots: list[Path] = [first.ws.root]  # (the layer allows its root already)

    @property
    def primary(self) -> ToolLayer:
        return self.layers[self.roots[0]]

    def set_roots(self, roots: Sequence[Path]) -> None:
        """Make ``roots`` the allowed directories (the first one the base of relative paths);
        with none, nothing changes. Layers of directories no longer allowed are closed."""
        if not roots:
            return
        keys = []
        for root in roots:
            real = Path(os.path.realpath(root))
            if real not in self.layers:
                self.layers[real] = self.make(real)
            keys.append(real)
        self.roots = keys
        for root in list(self.layers):
            if root not in self.roots:
                self.layers.pop(root).close()
        for layer in self.layers.values():
            layer.allowed = list(self.roots)

    def close(self) -> None:
        for layer in self.layers.values():
            layer.close()

    def handle_tool_call(self, name: str, arguments: dict[str, Any]) -> ToolResult:
        if len(self.roots) == 1:
            return self.primary.handle_tool_call(name, arguments)
        if name == "read_multiple_files" and isinstance(arguments.get("paths"), list):
            return self._read_many(arguments["paths"])
        named = [arguments[f] for f in _PATH_FIELDS if isinstance(arguments.get(f), str)]
        try:
            homes = {self._home(p) for p in named}
        except EditError as e:
            return tool_error(f"{name}: {e.message}", e)
        if len(homes) > 1:
            message = f"{name}: the paths lie under different allowed directories"
            return tool_error(message, EditError(message, code=PATH_DENIED))
        root = homes.pop() if homes else self.roots[0]
        args = dict(arguments)
        for f in _PATH_FIELDS:
            if isinstance(args.get(f), str):
                args[f] = self._for_layer(args[f], root)
        return self.layers[root].handle_tool_call(name, args)

    def _read_many(self, paths: list[Any]) -> ToolResult:
        """read_multiple_files across roots: each path read by its root's layer."""
        texts, files = [], []
        for path in paths:
            try:
                root = self._home(path) if isinstance(path, str) else self.roots[0]
            except EditError as e:
                texts.append(f"{path}: Error - {e.message}")
                files.append({"path": path, "error": e.code})
                continue
            got = self.layers[root].handle_tool_call(
                "read_multiple_files", {"paths": [self._for_layer(path, root)]}
            )
            if got.is_error:
                return got
            texts.append(got.text)
            files += got.result.get("files", [])
        return ToolResult("\n---\n".join(texts), False, {"files": files})

    def _home(self, path: str) -> Path:
        """The allowed directory ``path`` lies under (a relative path: under the first
        one's); ``path_denied`` when none."""
        raw = path.strip() or "."
        real = Path(os.path.realpath(raw if os.path.isabs(raw) else self.roots[0] / raw))
        for root in sorted(self.roots, key=lambda r: len(r.parts), reverse=True):
            if real == root or root in real.parents:
                return root
        allowed = ", ".join(str(r) for r in self.roots)
        raise EditError(
            f"{path} is outside the allowed directories ({allowed})", code=PATH_DENIED, path=path
        )

    def _for_layer(self, path: str, root: Path) -> str:
        """``path`` as the layer of ``root`` reads it: a relative path that belongs to
        another root than the first becomes absolute."""
        if os.path.isabs(path) or root == self.roots[0]:
            return path
        return os.path.realpath(self.roots[0] / path)
