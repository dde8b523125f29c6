"""Anchors: cheap substring probes that find every place a tolerant tier could match.

A *run* is a maximal stretch of characters that no normalization of the ladder touches (no
blanks, quotes, backslashes or dashes). If a file line equals a search line under any of the
line-level normalizations, every run of the search line is a substring of the file line, so
the lines holding a run's occurrences are a complete set of candidates. ``str.find`` over the
raw text finds them at close to memory speed.
"""

from __future__ import annotations

import re

_RUN = re.compile(r"[^\s'\"`\\\u2010-\u2015\u2212\u2018-\u201f\u2032\u2033\-]+")

# Stop collecting a probe's hits past this many: a rarer probe will do better.
COMMON = 64


def runs(line: str) -> list[str]:
    return _RUN.findall(line)


def probes(lines: list[str], limit: int) -> list[tuple[int, str]]:
    """Up to ``limit`` (line index, run) pairs, longest first, one per distinct line."""
    best: dict[str, tuple[int, str]] = {}
    for k, line in enumerate(lines):
        found = runs(line)
        if not found:
            continue
        run = max(found, key=len)
        if run not in best or len(run) > len(best[run][1]):
            best.setdefault(run, (k, run))
    ranked = sorted(best.values(), key=lambda kr: (-len(kr[1]), kr[0]))
    return ranked[:limit]
