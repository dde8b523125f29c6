"""Plain-text reports over stock snapshots (rows as read from the nightly CSV export)."""

from __future__ import annotations


def _calc_reorder_qty(row: dict[str, str]) -> int:
    # The export already holds the buyer's manual override, when there is one.
    override = row.get("reorder_override", "").strip()
    return int(override) if override else int(row["suggested_qty"])


def reorder_lines(rows: list[dict[str, str]]) -> list[str]:
    lines = []
    for row in rows:
        qty = _calc_reorder_qty(row)
        if qty > 0:
            lines.append(f"{row['sku']:<12} {qty:>6}")
    return lines


def render(rows: list[dict[str, str]]) -> str:
    body = reorder_lines(rows)
    header = f"{'SKU':<12} {'QTY':>6}"
    return "\n".join([header, "-" * len(header), *body]) + "\n"
