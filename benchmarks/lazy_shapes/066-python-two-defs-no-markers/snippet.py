def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("csv", type=Path, help="the inventory export")
    parser.add_argument("--database", default="catalog.db")
    parser.add_argument("--dry-run", action="store_true")
    parser.add_argument("--limit", type=int, default=None, help="sync at most this many rows")
    parser.add_argument("-v", "--verbose", action="store_true")
    return parser.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.INFO)
    products = [parse_row(row) for row in read_rows(args.csv)]
    if args.limit is not None:
        products = products[: args.limit]
    with connect(args.database) as conn:
        created, updated = sync(conn, products, dry_run=args.dry_run)
    log.info("%d created, %d updated%s", created, updated, " (dry run)" if args.dry_run else "")
    return 0
