-- ... existing tables ...

CREATE TABLE orders (
    id           BIGSERIAL PRIMARY KEY,
    customer_id  BIGINT NOT NULL REFERENCES customers (id),
    status       order_status NOT NULL DEFAULT 'pending',
    subtotal     NUMERIC(12, 2) NOT NULL DEFAULT 0,
    shipping     NUMERIC(12, 2) NOT NULL DEFAULT 0,
    discount     NUMERIC(12, 2) NOT NULL DEFAULT 0,
    total        NUMERIC(12, 2) NOT NULL DEFAULT 0,
    currency     CHAR(3) NOT NULL DEFAULT 'USD',
    created_at   TIMESTAMPTZ NOT NULL DEFAULT now(),
    updated_at   TIMESTAMPTZ NOT NULL DEFAULT now()
);

-- ... existing tables ...
