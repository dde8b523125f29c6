"""What a model is told: the rules of the tools, and how to write edits as text.

- :func:`tool_rules` is the instruction text for the tool modes (the MCP server's
  ``instructions``, the edit loop's system prompt).
- :data:`TEXT_MODES` are the modes where the model writes its edits in its answer instead of
  calling tools (for endpoints or models without tool calls); :func:`text_instructions`
  teaches one of them, with an example.
"""

from __future__ import annotations

_RULES = """applydiff edits files in {root} for you, safely.
Rules:
- Read a file with read_file before editing it: edits are matched against what you read, and
  an edit to a file you have not read is refused (not_read).{find}
- The text you search for must match one place only; copy it from read_file (without the
  line numbers) and add surrounding lines if it is not unique.{replace_all}{file_id}
- Several edits in one call apply in order, each seeing the previous ones, and all or none:
  if one fails, nothing is written, and the error says why and what to send next.
- To change most of a file, send the whole file with write_file.{review}"""

_FIND_NOTE = "\n- find_files lists the files matching a glob, or the lines holding a text."
_REPLACE_ALL_NOTE = " Set replace_all to change every\n  occurrence."
_FILE_ID_NOTE = (
    "\n- Pass the file_id from read_file so an edit never lands on a version you did not see."
)
# The modes whose edit tool has replace_all, and those whose edit tool takes no file_id.
_REPLACE_ALL_MODES = ("search_replace_multi", "search_replace")
_NO_FILE_ID_MODES = ("patch",)

_REVIEW_NOTE = (
    "\n- Review mode: your changes are kept pending for a person to accept; read_file shows "
    "them (status=pending_output) and later edits build on them."
)


_COMPAT_RULES = """applydiff edits files in {root} for you, safely, with the tools you know.
- An edit's text must fit one place in the file; if it fits several, or none for sure, nothing
  is written and the error says why and what to send next (usually one more line of context).
- The edits of one call apply in order, all or none.{review}"""


def tool_rules(
    root: object, *, review: bool = False, compat: str | None = None, mode: str | None = None
) -> str:
    """The rules every tool mode follows, for ``root`` (a compat dialect's tools have no
    read_file or file_id to teach: only the rules they share). With ``mode``, only the
    fields its tools have are named (replace_all, file_id) and find_files is taught."""
    if compat:
        return _COMPAT_RULES.format(root=root, review=_REVIEW_NOTE if review else "")
    return _RULES.format(
        root=root,
        review=_REVIEW_NOTE if review else "",
        find=_FIND_NOTE if mode is not None else "",
        replace_all=_REPLACE_ALL_NOTE if mode is None or mode in _REPLACE_ALL_MODES else "",
        file_id=_FILE_ID_NOTE if mode not in _NO_FILE_ID_MODES else "",
    )


_TEXT_COMMON = """Edit the files by writing edits in your answer, in the format below; nothing
else in your answer is applied. Copy the lines you replace exactly from the files as shown
(without the line numbers), with enough lines to match one place only. All edits of an answer
apply in order, all or none: if one fails, nothing is written and you get the reason. When the
task is done, answer without any edit."""

TEXT_MODES: dict[str, str] = {
    "text:search_replace": """Format: SEARCH/REPLACE blocks. The file's path alone on a line, then:
```
<<<<<<< SEARCH
the lines to replace, copied exactly
=======
the new lines
>>>>>>> REPLACE
```
An empty SEARCH section creates a new file with the REPLACE text. Example:
src/app.py
```
<<<<<<< SEARCH
def run():
    return 1
=======
def run():
    return 2
>>>>>>> REPLACE
```""",
    "text:udiff": """Format: a unified diff in a ```diff fence, with --- and +++ lines naming the
file and @@ lines before each hunk; context lines start with a space, removed lines with -,
added lines with +. Line numbers in @@ may be left out. Example:
```diff
--- a/src/app.py
+++ b/src/app.py
@@ def run():
 def run():
-    return 1
+    return 2
```""",
    "text:apply_patch": """Format: a patch between *** Begin Patch and *** End Patch:
*** Update File: PATH, then an optional @@ line quoting a def or class header, then context
lines starting with a space, removed lines with -, added lines with +; *** Add File: PATH with
every line starting with +; *** Delete File: PATH. Example:
*** Begin Patch
*** Update File: src/app.py
@@ def run():
-    return 1
+    return 2
*** End Patch""",
    "text:lazy": """Format: for each file, its path alone on a line, then a fenced block with
only the parts that change. Write a comment line such as "# ... existing code ..." (in the
file's comment syntax: // for C-like files, <!-- --> for HTML) wherever unchanged code is
left out. Begin and end each changed part with an unchanged line copied from the file, so its
place is unique; to delete lines, show the lines around them without them. To create a
file, write its path, then a fenced block holding <<<<<<< SEARCH, =======, the whole content
and >>>>>>> REPLACE (an empty SEARCH part). Example:
src/app.py
```python
# ... existing code ...
def run():
    return 2


def stop():
# ... existing code ...
```""",
}


def text_instructions(mode: str) -> str:
    """The instructions for a text mode (raises ``ValueError`` for an unknown one)."""
    if mode not in TEXT_MODES:
        raise ValueError(f"unknown text mode {mode!r}; expected one of {tuple(TEXT_MODES)}")
    return _TEXT_COMMON.replace("\n", " ") + "\n\n" + TEXT_MODES[mode]
