-- Orders schema: customers, orders, order lines, and the totals trigger.

CREATE TABLE customers (
    id          BIGSERIAL PRIMARY KEY,
    email       TEXT NOT NULL UNIQUE,
    full_name   TEXT NOT NULL,
    created_at  TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE TYPE order_status AS ENUM ('pending', 'paid', 'shipped', 'cancelled');

CREATE TABLE orders (
    id           BIGSERIAL PRIMARY KEY,
    customer_id  BIGINT NOT NULL REFERENCES customers (id),
    status       order_status NOT NULL DEFAULT 'pending',
    subtotal     NUMERIC(12, 2) NOT NULL DEFAULT 0,
    shipping     NUMERIC(12, 2) NOT NULL DEFAULT 0,
    total        NUMERIC(12, 2) NOT NULL DEFAULT 0,
    created_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at   TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE TABLE order_lines (
    id          BIGSERIAL PRIMARY KEY,
    order_id    BIGINT NOT NULL REFERENCES orders (id) ON DELETE CASCADE,
    sku         TEXT NOT NULL,
    quantity    INTEGER NOT NULL CHECK (quantity > 0),
    unit_price  NUMERIC(12, 2) NOT NULL CHECK (unit_price >= 0)
);

CREATE INDEX orders_customer_id_idx ON orders (customer_id);
CREATE INDEX order_lines_order_id_idx ON order_lines (order_id);
CREATE INDEX orders_status_created_at_idx ON orders (status, created_at);

CREATE OR REPLACE FUNCTION recompute_order_totals() RETURNS TRIGGER AS $$
DECLARE
    target_id BIGINT;
BEGIN
    target_id := COALESCE(NEW.order_id, OLD.order_id);
    UPDATE orders
    SET subtotal = COALESCE((
            SELECT SUM(quantity * unit_price)
            FROM order_lines
            WHERE order_id = target_id
        ), 0),
        updated_at = now()
    WHERE id = target_id;
    UPDATE orders
    SET total = subtotal + shipping
    WHERE id = target_id;
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER order_lines_totals
AFTER INSERT OR UPDATE OR DELETE ON order_lines
FOR EACH ROW EXECUTE FUNCTION recompute_order_totals();

CREATE OR REPLACE FUNCTION touch_updated_at() RETURNS TRIGGER AS $$
BEGIN
    NEW.updated_at := now();
    RETURN NEW;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER orders_touch_updated_at
BEFORE UPDATE ON orders
FOR EACH ROW EXECUTE FUNCTION touch_updated_at();

CREATE VIEW customer_order_stats AS
SELECT
    c.id AS customer_id,
    c.email,
    COUNT(o.id) AS order_count,
    COALESCE(SUM(o.total), 0) AS lifetime_value,
    MAX(o.created_at) AS last_order_at
FROM customers c
LEFT JOIN orders o ON o.customer_id = c.id AND o.status <> 'cancelled'
GROUP BY c.id, c.email;
