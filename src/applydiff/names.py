"""The names the library checks and the command line lists: formats, diff modes, text modes,
schema dialects, drop-in dialects, the edit tools, merge prompts, shipped tasks.

Plain constants and no imports, so that ``applydiff --help`` lists them without importing
the modules that use them. Those modules take their names from here; where they hold more
than the names (prompts' texts, merge_model's prompts, the suite's task directories),
tests/test_cli_help.py keeps the two equal.
"""

# formats.detect: the formats an answer is read in.
FORMATS = (
    "search_replace",
    "apply_diff",
    "patch_block",
    "unified",
    "apply_patch",
    "tool_calls",
    "lazy",
)
# tools.profiles: the edit tool each mode offers is in the catalogue; "off" offers none.
MODES = (
    "search_replace_multi",
    "search_replace",
    "anchored",
    "diff_block",
    "apply_diff",
    "patch",
    "off",
)
# prompts.TEXT_MODES' keys: modes with no tools, whose rules the prompt states.
TEXT_MODES = ("text:search_replace", "text:udiff", "text:apply_patch", "text:lazy")
# tools.catalogue: the schema dialects.
DIALECTS = ("openai", "anthropic", "mcp")
# compat: the drop-in dialects of other servers.
COMPATS = ("filesystem", "fast-apply", "anthropic")
# formats.tool_calls: the tool calls that edit.
EDIT_TOOLS = ("write_file", "edit_file", "diff_edit", "apply_diff", "apply_patch")
# merge_model.PROMPTS' names.
MERGE_PROMPTS = ("fastapply", "morph")
# evals/suite: the tasks shipped with applydiff.
TASKS = (
    "add_parameter",
    "crlf_edit",
    "deep_edit",
    "delete_block",
    "insert_function",
    "new_test_file",
    "rename_in_file",
    "reorder_functions",
)
