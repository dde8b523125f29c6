"""A small command line over the rules: ledger late-fee rental|invoice DATE ..."""

from __future__ import annotations

import argparse
from datetime import date
from decimal import Decimal

from .rules import Invoice, Rental, invoice_late_fee, rental_late_fee


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="ledger")
    sub = parser.add_subparsers(dest="command", required=True)
    fee = sub.add_parser("late-fee", help="the late fee for one rental or invoice")
    fee.add_argument("kind", choices=["rental", "invoice"])
    fee.add_argument("start", type=date.fromisoformat, help="rental start or invoice due date")
    fee.add_argument("returned", type=date.fromisoformat, help="return or payment date")
    fee.add_argument("--days", type=int, default=1, help="days booked (rentals)")
    fee.add_argument("--deposit", type=Decimal, default=Decimal("200.00"))
    args = parser.parse_args(argv)
    if args.kind == "rental":
        rental = Rental("cli", args.deposit, args.start, days_booked=args.days)
        print(rental_late_fee(rental, args.returned))
    else:
        print(invoice_late_fee(Invoice("cli", Decimal("0"), args.start), args.returned))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
