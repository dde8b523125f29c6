"""No input makes any parser raise anything but EditError."""

from __future__ import annotations

import contextlib
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from applydiff import FORMATS, EditError, parse

# Fragments of every dialect, shuffled into arbitrary responses.
PIECES = [
    "<<<<<<< SEARCH",
    "=======",
    ">>>>>>> REPLACE",
    ":start_line:3",
    ":end_line:x",
    "-------",
    "\\=======",
    "```",
    "```python",
    "src/a.py",
    "**b.py**",
    ">>> file: c.py",
    ">>> file: d.py | mode=replace | fuzz=0.9",
    ">>> file: | fuzz=abc",
    "--- from",
    "--- to",
    "<",
    "--- a/e.py",
    "+++ b/e.py",
    "--- /dev/null",
    "+++ /dev/null",
    "diff --git a/f.py b/g.py",
    "rename from f.py",
    "rename to g.py",
    "@@ -1,2 +1,3 @@",
    "@@ @@",
    "@@",
    "\\ No newline at end of file",
    "*** Begin Patch",
    "*** End Patch",
    "*** Add File: h.txt",
    "*** Update File: i.py",
    "*** Delete File: j.py",
    "*** Move to: k.py",
    "*** End of File",
    "*** Bogus File: l.py",
    " context",
    "-removed",
    "+added",
    "",
    "prose line here",
    '{"name": "write_file", "arguments": {"path": "m", "content": "n"}}',
    '[{"name": "edit_file", "arguments": "{bad"}]',
    "```json",
]

responses = st.lists(st.one_of(st.sampled_from(PIECES), st.text(max_size=20)), max_size=40).map(
    "\n".join
)


@pytest.mark.slow
@settings(max_examples=1500, deadline=None)
@given(responses, st.sampled_from(["auto", *FORMATS]), st.one_of(st.none(), st.just("p.py")))
def test_parsers_raise_only_edit_errors(text, fmt, path):
    try:
        ops = parse(text, fmt, path=path)
    except EditError as e:
        assert e.code in {"format_invalid", "write_conflict"} and e.message
    else:
        assert isinstance(ops, list)


@pytest.mark.slow
@settings(max_examples=500, deadline=None)
@given(
    st.recursive(
        st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=10)),
        lambda inner: st.one_of(
            st.lists(inner, max_size=4),
            st.dictionaries(
                st.sampled_from(
                    [
                        "name",
                        "arguments",
                        "input",
                        "path",
                        "content",
                        "edits",
                        "old_string",
                        "new_string",
                        "changes",
                        "start",
                        "end",
                        "diff",
                        "function",
                        "tool_calls",
                        "replace_all",
                        "file_id",
                        "type",
                    ]
                ),
                inner,
                max_size=5,
            ),
        ),
        max_leaves=20,
    )
)
def test_tool_call_json_raises_only_edit_errors(value):
    try:
        parse(json.dumps(value), "tool_calls")
    except EditError as e:
        assert e.code in {"format_invalid", "write_conflict"}


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=400))
def test_arbitrary_text_raises_only_edit_errors(text):
    with contextlib.suppress(EditError):
        parse(text)
