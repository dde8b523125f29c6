"""How well a file's language is read from its content (``applydiff.match.sniff``), on this
machine's files of known extensions: a confusion table (the extension's language, the
language read, files), for the paths whose extension says nothing.

Usage::

    PYTHONPATH=src python benchmarks/sniff.py [--per 300]
"""

from __future__ import annotations

import argparse
import glob
import sys
from collections import Counter

from applydiff.match.sniff import extension_from_content

SOURCES = (
    ("py", f"{sys.prefix}/lib/python3*/**/*.py"),
    ("c", "/usr/include/**/*.h"),
    ("css", "/usr/share/doc/**/*.css"),
    ("html", "/usr/share/doc/**/*.html"),
    ("ts", "/usr/lib/node_modules/**/*.js"),
    ("go", "/usr/share/doc/**/*.go"),
    ("rs", "/root/.rustup/**/*.rs"),
)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--per", type=int, default=300, help="files per language at most")
    args = ap.parse_args()
    table: Counter[tuple[str, str]] = Counter()
    for ext, pattern in SOURCES:
        for path in sorted(glob.glob(pattern, recursive=True))[: args.per]:
            try:
                with open(path, encoding="utf-8", errors="replace") as f:
                    got = extension_from_content(f.read())
            except OSError:
                continue
            table[ext, "tsx" if got == "tsx" and ext == "ts" else str(got)] += 1
    print("| language | read as | files |\n|---|---|---|")
    for (ext, got), n in sorted(table.items()):
        print(f"| {ext} | {got} | {n} |")
    wrong = sum(n for (ext, got), n in table.items() if got not in (ext, "None", "tsx"))
    total = sum(table.values())
    print(
        f"\nread as another language: {wrong} of {total}; unknown: "
        f"{sum(n for (_, got), n in table.items() if got == 'None')}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
