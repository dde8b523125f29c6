"""Command line entry point: python -m pipeline.run sales.csv > report.csv"""

from __future__ import annotations

import sys
from pathlib import Path

from .steps import clean_row, group_by_day, parse_record, read_csv, write_report


def main(argv: list[str]) -> int:
    rows = read_csv(Path(argv[0]).read_text(encoding="utf-8"))
    records = [parse_record(clean_row(row)) for row in rows]
    sys.stdout.write(write_report(group_by_day(records)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
