def parse_row(row):
    return Product(
        sku=row["sku"].strip(),
        name=row["name"].strip(),
        price_cents=round(float(row["price"]) * 100),
        stock=int(row["stock"]),
    )


def chunked(items, size):
    for start in range(0, len(items), size):
        yield items[start : start + size]


# ... existing code ...
