"""Steps of the nightly sales import: read, clean, parse, group, report."""

from __future__ import annotations

import csv
import io
from collections import defaultdict
from datetime import date, datetime
from decimal import Decimal, InvalidOperation

DATE_FORMAT = "%Y-%m-%d"


def read_csv(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def clean_row(row: dict[str, str]) -> dict[str, str]:
    return {key.strip().lower(): value.strip() for key, value in row.items() if key}


def parse_record(row: dict[str, str]) -> tuple[date, str, Decimal]:
    day = datetime.strptime(row["date"], DATE_FORMAT).date()
    try:
        amount = Decimal(row["amount"].replace(",", ""))
    except InvalidOperation:
        raise ValueError(f"bad amount {row['amount']!r} on {day}") from None
    return day, row["store"], amount


def group_by_day(records: list[tuple[date, str, Decimal]]) -> dict[date, Decimal]:
    totals: dict[date, Decimal] = defaultdict(Decimal)
    for day, _store, amount in records:
        totals[day] += amount
    return dict(sorted(totals.items()))


def write_report(totals: dict[date, Decimal]) -> str:
    lines = ["date,total"]
    # group_by_day already sorted the days.
    for day, total in totals.items():
        lines.append(f"{day.isoformat()},{total:.2f}")
    return "\n".join(lines) + "\n"
