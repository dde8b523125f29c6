# ... existing code ...


# Rows with a blank SKU are exports of deleted products; they carry no stock
# and would fail the unique index, so they are dropped before syncing.
def valid_rows(rows):
    for row in rows:
        if row["sku"].strip():
            yield row


def sync(conn, products, dry_run=False):
    # ... existing code ...

# ... existing code ...
    products = [parse_row(row) for row in valid_rows(read_rows(args.csv))]
# ... existing code ...
