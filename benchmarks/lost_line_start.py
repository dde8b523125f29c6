"""Search texts that lost their first line's first characters (issue 28): each case is a
text that occurs once in a real file, starts in the middle of a word and ends at a line's
end, replaced by nothing. Quoted as written it would join the start of its first line to the
line after; read as whole lines it deletes them. The ladder's rule is that the first tier
that finds the text decides, so a tier after the exact one must not apply it: this counts,
per kind (one line, several lines), what the ladder answered.

Usage::

    PYTHONPATH=src python benchmarks/lost_line_start.py PATH... [--cases 626] [--seed 0]

Each PATH is a file or a directory (its ``*.py`` files, recursively).
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from pathlib import Path

from applydiff.errors import EditError
from applydiff.match import replace_with_matches

# Lines quoted after the first: one line alone, or up to three more.
MORE_LINES = (0, 1, 2, 3)


def files_under(paths: list[str]) -> list[Path]:
    out: list[Path] = []
    for p in map(Path, paths):
        out += sorted(p.rglob("*.py")) if p.is_dir() else [p]
    return out


def mid_word_case(text: str, rng: random.Random) -> str | None:
    """A search text from inside a word of a random line to the end of that line or of one
    up to three lines below, occurring once in ``text``; None when the pick does not fit."""
    lines = text.split("\n")
    i = rng.randrange(len(lines))
    line = lines[i]
    cuts = [c for c in range(1, len(line)) if line[c - 1].isalnum() and line[c].isalnum()]
    if not cuts:
        return None
    c = rng.choice(cuts)
    k = rng.choice(MORE_LINES)
    if i + k + 1 >= len(lines):
        return None
    old = "\n".join([line[c:], *lines[i + 1 : i + k + 1]]) + "\n"
    if text.count(old) != 1 or len(old.strip()) < 8:
        return None
    return old


def outcome(text: str, old: str) -> str:
    try:
        _, matches = replace_with_matches(text, old, "", report=True)
    except EditError as e:
        return f"refused/{e.code}"
    return f"applied/{matches[0].tier}" if matches else "applied/exact"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("paths", nargs="+", help="files or directories of Python files")
    ap.add_argument("--cases", type=int, default=626)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    files = files_under(args.paths)
    table: Counter[tuple[str, str]] = Counter()
    made = tries = 0
    while made < args.cases and tries < 100 * args.cases and files:
        tries += 1
        path = rng.choice(files)
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        old = mid_word_case(text.replace("\r\n", "\n"), rng)
        if old is None or "\r" in text:
            continue
        made += 1
        kind = "one line" if old.count("\n") == 1 else "several lines"
        table[kind, outcome(text, old)] += 1
    print("| kind | answer | cases |\n|---|---|--:|")
    for (kind, answer), n in sorted(table.items()):
        print(f"| {kind} | {answer} | {n} |")
    applied = sum(n for (_, answer), n in table.items() if answer.startswith("applied"))
    print(f"\napplied: {applied} of {made} cases ({len(files)} files)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
