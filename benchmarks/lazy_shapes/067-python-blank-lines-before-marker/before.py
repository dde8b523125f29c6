#!/usr/bin/env python3
"""Sync the inventory CSV export into the catalog database."""

import argparse
import csv
import logging
import sys
from pathlib import Path

from catalog.db import connect
from catalog.models import Product

log = logging.getLogger("sync_inventory")

REQUIRED_COLUMNS = {"sku", "name", "price", "stock"}


def read_rows(path):
    with open(path, newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        missing = REQUIRED_COLUMNS - set(reader.fieldnames or [])
        if missing:
            raise ValueError(f"{path}: missing columns {sorted(missing)}")
        for row in reader:
            yield row


def parse_row(row):
    return Product(
        sku=row["sku"].strip(),
        name=row["name"].strip(),
        price_cents=round(float(row["price"]) * 100),
        stock=int(row["stock"]),
    )


def sync(conn, products, dry_run=False):
    created = updated = 0
    for product in products:
        existing = conn.get_product(product.sku)
        if existing is None:
            created += 1
            if not dry_run:
                conn.insert_product(product)
        elif existing != product:
            updated += 1
            if not dry_run:
                conn.update_product(product)
    if not dry_run:
        conn.commit()
    return created, updated


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("csv", type=Path, help="the inventory export")
    parser.add_argument("--database", default="catalog.db")
    parser.add_argument("--dry-run", action="store_true")
    parser.add_argument("-v", "--verbose", action="store_true")
    return parser.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO)
    products = [parse_row(row) for row in read_rows(args.csv)]
    with connect(args.database) as conn:
        created, updated = sync(conn, products, dry_run=args.dry_run)
    log.info("%d created, %d updated%s", created, updated, " (dry run)" if args.dry_run else "")
    return 0


if __name__ == "__main__":
    sys.exit(main())
