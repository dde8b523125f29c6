function ShippingPicker({ value, onChange }) {
  return (
    <fieldset className="shipping">
      <legend>Shipping</legend>
      {SHIPPING_OPTIONS.map((option) => (
        <label key={option.id}>
          <input
            type="radio"
            name="shipping"
            value={option.id}
            checked={value === option.id}
            onChange={() => onChange(option.id)}
          />
          {option.label} - {option.price === 0 ? "Free" : formatPrice(option.price)}
        </label>
      ))}
    </fieldset>
  );
}

function DiscountRow({ discount }) {
  if (!discount) return null;
  return (
    <>
      <dt>Discount</dt>
      <dd className="summary__discount">-{formatPrice(discount)}</dd>
    </>
  );
}

function Summary({ subtotal, shipping, discount = 0 }) {
  const total = Math.max(0, subtotal - discount) + shipping;
  return (
    <dl className="summary">
      <dt>Subtotal</dt>
      <dd>{formatPrice(subtotal)}</dd>
      <DiscountRow discount={discount} />
      <dt>Shipping</dt>
      <dd>{formatPrice(shipping)}</dd>
      <dt>Total</dt>
      <dd className="summary__total">{formatPrice(total)}</dd>
    </dl>
  );
}
