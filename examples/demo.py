"""Apply a model's noisy edits to the example project, in memory, and show what happened.

Run: python examples/demo.py
"""

from __future__ import annotations

import difflib
from pathlib import Path

import applydiff
from applydiff import Replace

ROOT = Path(__file__).parent / "project"

# What a model wrote: 2-space indentation where the file uses 4, an ASCII "x" where the file
# has "×", a misspelled context line, and LF lines for a CRLF file.
EDITS = [
    Replace(
        "shop/cart.py",
        old='''def total(self) -> float:
  """Sum of price x quantity over all items."""
  return sum(i.price * i.quantity for i in self.items)
''',
        new='''def total(self, discount: float = 0.0) -> float:
  """Sum of price x quantity over all items, less a discount."""
  return sum(i.price * i.quantity for i in self.items) * (1 - discount)
''',
    ),
    Replace(
        "shop/cart.py",
        old="""    def add(self, item: Item) -> None:
        for existing in self.itmes:
            if existing.name == item.name:
""",
        new="""    def add(self, item: Item) -> None:
        if item.quantity <= 0:
            raise ValueError("quantity must be positive")
        for existing in self.itmes:
            if existing.name == item.name:
""",
    ),
    Replace("README.txt", "Run the tests with pytest.\n", "Run the tests with: pytest -q\n"),
]


def main() -> None:
    files = {
        p.relative_to(ROOT).as_posix(): p.read_bytes().decode("utf-8") for p in ROOT.rglob("*.*")
    }
    result = applydiff.apply_ops(EDITS, files)
    for r in result.reports:
        print(
            f"edit {r.index}: {r.path} lines {r.start_line}-{r.end_line}: "
            f"tier {r.tier}, confidence {r.confidence:.2f}"
        )
    for e in result.errors:
        print(f"edit {e.index}: {e.path}: {e.code}: {e.error.message}")
    for change in result.changes:
        before = (change.before or "").splitlines(keepends=True)
        after = (change.after or "").splitlines(keepends=True)
        diff = difflib.unified_diff(before, after, f"a/{change.path}", f"b/{change.path}")
        print("".join(diff).replace("\r", "\\r"))


if __name__ == "__main__":
    main()
