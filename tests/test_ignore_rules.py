"""Ignore rules are read line by line at LF, CRLF or a lone CR, never at the characters
``str.splitlines`` also breaks at: a form feed or U+2028 inside a rule stays in it."""

from __future__ import annotations

import pytest

from applydiff.policy import Policy


def _denied(policy: Policy, path: str) -> bool:
    return not policy.allowed(path)


@pytest.mark.parametrize("eol", ["\n", "\r\n", "\r"])
def test_rules_end_at_each_line_terminator(tmp_path, eol):
    (tmp_path / ".applydiffignore").write_bytes(eol.join(["build/", "*.lock", ""]).encode())
    policy = Policy(tmp_path)
    assert [_denied(policy, p) for p in ("build/x.py", "a.lock", "src/a.py")] == [
        True,
        True,
        False,
    ]


@pytest.mark.parametrize("odd", ["\x0c", "\u2028", "\x85"])
def test_an_odd_break_inside_a_rule_does_not_split_it(tmp_path, odd):
    (tmp_path / ".applydiffignore").write_text(f"secret{odd}x\n", encoding="utf-8")
    policy = Policy(tmp_path)
    # Split there, the rule would be 'secret' and 'x', and both files would be refused.
    assert not _denied(policy, "secret") and not _denied(policy, "x")
