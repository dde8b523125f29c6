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
    SET total = GREATEST(subtotal + shipping, 0)
    WHERE id = target_id;
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;
