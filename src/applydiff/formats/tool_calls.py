"""Tool calls as JSON: what function-calling models send.

A response is one call or a list of calls, each ``{"name", "arguments"}`` (arguments as an
object or as a JSON string), or in the OpenAI (``{"type": "function", "function": {...}}``,
``{"tool_calls": [...]}``) or Anthropic (``{"type": "tool_use", "name", "input"}``) shapes.

Tools: ``write_file(path, content)``; ``edit_file`` in three schemas — ``edits[]`` (each
``old_string``, ``new_string``, optional ``path``, ``replace_all``, ``file_id``), single
(``path``, ``old_string``, ``new_string``, ``replace_all``), anchored (``path``,
``changes[{start[], end[]?, content[]}]``) — each with an optional ``file_id``;
the fast-apply ``edit_file(target_file, instructions, code_edit)`` (a lazy snippet) and the
MCP filesystem server's ``edit_file(path, edits[{oldText, newText}], dryRun)``;
``diff_edit(path, diff)`` and ``apply_diff(path, diff)`` carrying SEARCH/REPLACE text;
``apply_patch(input)``. Arguments are validated: a missing or mistyped field is
``format_invalid`` naming the field.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from typing import Any

from .. import names
from ..errors import FormatInvalid
from ..ir import Anchored, Lazy, Op, Replace, Write
from .limits import check_count

# Text-carrying tools are parsed by the text formats; detect.py passes this in to avoid a
# circular import.
TextParser = Callable[[str, str, str | None, bool], list[Op]]

TOOLS = names.EDIT_TOOLS


def decode(text: str) -> Any:
    """``json.loads``, except that JSON nested deeper than the decoder's recursion limit, or
    holding an integer longer than int() reads, is ``format_invalid`` (a RecursionError or a
    plain ValueError would escape every caller's error handling)."""
    try:
        return json.loads(text)
    except RecursionError:
        raise FormatInvalid(
            "the JSON is nested too deeply to read (arrays or objects more than about 1,000 "
            "levels deep)",
            expected="tool calls whose arguments nest a few levels deep",
        ) from None
    except json.JSONDecodeError:
        raise
    except ValueError:  # int() refuses more than sys.get_int_max_str_digits() digits
        raise FormatInvalid(
            f"the JSON holds an integer of more than {sys.get_int_max_str_digits()} digits, "
            "too long to read",
            expected="tool calls whose numbers are of a usual size",
        ) from None


def looks_like_calls(value: Any) -> bool:
    """Whether decoded JSON has the shape of one or more tool calls."""
    calls = _unwrap(value)
    return bool(calls) and all(isinstance(c, dict) and _name(c) is not None for c in calls)


def parse_calls(value: Any, text_parser: TextParser) -> list[Op]:
    calls = _unwrap(value)
    if not calls:
        raise FormatInvalid(
            'no tool call found: expected {"name": ..., "arguments": {...}} or a list of them',
            expected="a tool call",
        )
    ops: list[Op] = []
    for k, call in enumerate(calls, 1):
        if not isinstance(call, dict):
            raise FormatInvalid(f"tool call {k} is not an object", expected="an object")
        name = _name(call)
        if name is None:
            raise FormatInvalid(f"tool call {k} has no name", expected="a 'name' field")
        args = _arguments(call, name, k)
        ops.extend(_call(name, args, Where(name, k), text_parser))
        check_count(len(ops))
    return ops


class Where:
    """Names the field an error is about: ``edit_file (call 2): edits[1].new_string``."""

    def __init__(self, tool: str, call: int, prefix: str = "") -> None:
        self.tool, self.call, self.prefix = tool, call, prefix

    def at(self, prefix: str) -> Where:
        return Where(self.tool, self.call, prefix)

    def name(self, key: str) -> str:
        return f"{self.prefix}{key}"

    def error(self, key: str, problem: str, expected: str) -> FormatInvalid:
        return FormatInvalid(
            f"{self.tool} (call {self.call}): {problem} '{self.name(key)}'",
            expected=expected,
        )


def _unwrap(value: Any) -> list[Any]:
    if isinstance(value, dict):
        if isinstance(value.get("tool_calls"), list):
            return value["tool_calls"]
        if isinstance(value.get("content"), list) and "role" in value:
            return [c for c in value["content"] if isinstance(c, dict) and "input" in c]
        return [value]
    if isinstance(value, list):
        return value
    return []


def _name(call: dict[str, Any]) -> str | None:
    fn = call.get("function")
    name = fn.get("name") if isinstance(fn, dict) else call.get("name", call.get("tool"))
    return name if isinstance(name, str) and name else None


def _arguments(call: dict[str, Any], name: str, k: int) -> dict[str, Any]:
    fn = call.get("function")
    raw: Any = None
    if isinstance(fn, dict):
        raw = fn.get("arguments")
    else:
        for key in ("arguments", "input", "parameters", "args"):
            if key in call:
                raw = call[key]
                break
    if isinstance(raw, str):
        try:
            raw = decode(raw)
        except json.JSONDecodeError as e:
            raise FormatInvalid(
                f"{name} (call {k}): the arguments are not valid JSON ({e.msg} at "
                f"line {e.lineno} column {e.colno})",
                expected="a JSON object of arguments",
            ) from None
    if not isinstance(raw, dict):
        raise FormatInvalid(
            f"{name} (call {k}): the arguments must be an object",
            expected="a JSON object of arguments",
        )
    return raw


def _str(args: dict[str, Any], key: str, w: Where, *aliases: str, required: bool = True) -> Any:
    for k in (key, *aliases):
        if k in args:
            value = args[k]
            if not isinstance(value, str):
                raise w.error(k, f"expected a string, got {type(value).__name__}, in", "a string")
            return value
    if required:
        raise w.error(key, "missing field", f"a string field '{w.name(key)}'")
    return None


def _bool(args: dict[str, Any], key: str, w: Where) -> bool:
    value = args.get(key, False)
    if not isinstance(value, bool):
        raise w.error(key, f"expected true or false, got {type(value).__name__}, in", "a boolean")
    return value


def _lines(args: dict[str, Any], key: str, w: Where, *, required: bool = True) -> Any:
    if key not in args:
        if required:
            raise w.error(key, "missing field", f"a list of lines '{w.name(key)}'")
        return None
    value = args[key]
    if isinstance(value, str):
        value = value.split("\n")
    if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
        raise w.error(key, "expected a list of strings (lines) in", "a list of strings")
    return tuple(value)


def _call(name: str, args: dict[str, Any], w: Where, text_parser: TextParser) -> list[Op]:
    file_id = _str(args, "file_id", w, required=False)
    if name == "write_file":
        path = _str(args, "path", w, "file_path")
        return [Write(path, _str(args, "content", w), file_id=file_id)]
    if name == "edit_file":
        return _edit_file(args, w, file_id)
    if name in ("diff_edit", "apply_diff"):
        path = _str(args, "path", w, "file_path")
        diff = _str(args, "diff", w)
        ops = text_parser(diff, "search_replace", path, name == "apply_diff")
        if not ops:
            raise w.error("diff", "no SEARCH/REPLACE block found in", "'<<<<<<< SEARCH' blocks")
        if file_id:
            ops = [_with_id(op, file_id) for op in ops]
        return ops
    if name == "apply_patch":
        patch = _str(args, "input", w, "patch")
        ops = text_parser(patch, "apply_patch", None, False)
        if not ops:
            raise w.error("input", "no '*** Begin Patch' found in", "an apply_patch patch")
        return ops
    raise FormatInvalid(
        f"unknown tool {name!r} (call {w.call}); the edit tools are {', '.join(TOOLS)}",
        expected="one of " + ", ".join(TOOLS),
    )


# The spellings of an edit's two texts: ours, Anthropic's, the MCP filesystem server's.
_EDIT_KEYS = (("old_string", "new_string"), ("old_str", "new_str"), ("oldText", "newText"))


def _edit_file(args: dict[str, Any], w: Where, file_id: str | None) -> list[Op]:
    shapes = [k for k in ("code_edit", "edits", "changes", "old_string", "old_str") if k in args]
    if len(shapes) > 1:
        raise FormatInvalid(
            f"edit_file (call {w.call}): give one of {', '.join(map(repr, shapes))}, not "
            "several: each is a whole edit of its own",
            expected="one edit shape per call",
        )
    if "code_edit" in args:  # the fast-apply schema: a lazy snippet
        path = _str(args, "target_file", w, "path", "file_path")
        return [
            Lazy(
                path,
                _str(args, "code_edit", w),
                instructions=_str(args, "instructions", w, "instruction", required=False),
                file_id=file_id,
            )
        ]
    if "edits" in args:
        edits = args["edits"]
        if not isinstance(edits, list) or not edits:
            raise w.error("edits", "expected a non-empty list of edits in", "a list of edits")
        check_count(len(edits))  # each is one edit: refused before any is read
        top_path = _str(args, "path", w, "file_path", required=False)
        ops: list[Op] = []
        for k, edit in enumerate(edits):
            we = w.at(f"edits[{k}].")
            if not isinstance(edit, dict):
                raise w.error(f"edits[{k}]", "expected an object in", "an edit object")
            # An edit without a path (or with an empty one) is for the call's path, if any.
            own = _str(edit, "path", we, "file_path", required=top_path is None)
            path = own if own or top_path is None else top_path
            # Name a missing field as the edit's own spelling does (oldText -> newText).
            style = next(
                (i for i, keys in enumerate(_EDIT_KEYS) if keys[0] in edit or keys[1] in edit), 0
            )
            spellings = [k for pair in _EDIT_KEYS for k in pair if k in edit]
            if len(spellings) > 2 or len({k for k in spellings if k.startswith("old")}) > 1:
                raise w.error(
                    f"edits[{k}]",
                    f"the same text given twice ({', '.join(spellings)}) in",
                    "one spelling: old_string/new_string, old_str/new_str or oldText/newText",
                )
            old_key, new_key = _EDIT_KEYS[style]
            old_aliases = [k[0] for k in _EDIT_KEYS if k[0] != old_key]
            new_aliases = [k[1] for k in _EDIT_KEYS if k[1] != new_key]
            ops.append(
                Replace(
                    path,
                    _str(edit, old_key, we, *old_aliases),
                    _str(edit, new_key, we, *new_aliases),
                    replace_all=_bool(edit, "replace_all", we),
                    file_id=_str(edit, "file_id", we, required=False) or file_id,
                )
            )
        return ops
    path = _str(args, "path", w, "file_path")
    if "changes" in args:
        changes = args["changes"]
        if not isinstance(changes, list) or not changes:
            raise w.error("changes", "expected a non-empty list of changes in", "a list")
        check_count(len(changes))
        out: list[Op] = []
        for k, change in enumerate(changes):
            wc = w.at(f"changes[{k}].")
            if not isinstance(change, dict):
                raise w.error(f"changes[{k}]", "expected an object in", "a change object")
            out.append(
                Anchored(
                    path,
                    _lines(change, "start", wc),
                    _lines(change, "content", wc),
                    end=_lines(change, "end", wc, required=False) or None,
                    file_id=file_id,
                )
            )
        return out
    if "old_string" in args or "new_string" in args or "old_str" in args:
        return [
            Replace(
                path,
                _str(args, "old_string", w, "old_str"),
                _str(args, "new_string", w, "new_str"),
                replace_all=_bool(args, "replace_all", w),
                file_id=file_id,
            )
        ]
    raise FormatInvalid(
        f"edit_file (call {w.call}): expected 'edits' (a list of old_string/new_string edits), "
        "'old_string' and 'new_string', or 'changes' (anchored start/end/content)",
        expected="edits[], old_string/new_string, or changes[]",
    )


def _with_id(op: Op, file_id: str) -> Op:
    from dataclasses import replace

    return replace(op, file_id=file_id) if op.file_id is None else op
