import React, { useState } from "react";
import { useNavigate } from "react-router-dom";
import { useCart } from "../hooks/useCart";
import { formatPrice } from "../utils/money";
import { submitOrder } from "../api/orders";

const SHIPPING_OPTIONS = [
  { id: "standard", label: "Standard (5-7 days)", price: 499 },
  { id: "express", label: "Express (2 days)", price: 1299 },
];

function CartLine({ item, onQuantityChange }) {
  return (
    <li className="cart-line">
      <img src={item.image} alt="" width={48} height={48} />
      <span className="cart-line__name">{item.name}</span>
      <input
        type="number"
        min={1}
        value={item.quantity}
        onChange={(e) => onQuantityChange(item.id, Number(e.target.value))}
      />
      <span className="cart-line__price">{formatPrice(item.price * item.quantity)}</span>
    </li>
  );
}

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
          {option.label} - {formatPrice(option.price)}
        </label>
      ))}
    </fieldset>
  );
}

function Summary({ subtotal, shipping }) {
  const total = subtotal + shipping;
  return (
    <dl className="summary">
      <dt>Subtotal</dt>
      <dd>{formatPrice(subtotal)}</dd>
      <dt>Shipping</dt>
      <dd>{formatPrice(shipping)}</dd>
      <dt>Total</dt>
      <dd className="summary__total">{formatPrice(total)}</dd>
    </dl>
  );
}

export default function Checkout() {
  const navigate = useNavigate();
  const { items, updateQuantity, clear } = useCart();
  const [shippingId, setShippingId] = useState("standard");
  const [submitting, setSubmitting] = useState(false);
  const [error, setError] = useState(null);

  const subtotal = items.reduce((sum, item) => sum + item.price * item.quantity, 0);
  const shipping = SHIPPING_OPTIONS.find((o) => o.id === shippingId).price;

  async function handleSubmit(event) {
    event.preventDefault();
    if (!items.every((item) => item.quantity > 0)) {
      setError("Every item needs a quantity of at least 1.");
      return;
    }
    setSubmitting(true);
    setError(null);
    try {
      const order = await submitOrder({ items, shippingId });
      clear();
      navigate(`/orders/${order.id}`);
    } catch (err) {
      setError(err.message);
    } finally {
      setSubmitting(false);
    }
  }

  if (items.length === 0) {
    return <p className="empty-cart">Your cart is empty.</p>;
  }

  return (
    <form className="checkout" onSubmit={handleSubmit}>
      <ul className="cart">
        {items.map((item) => (
          <CartLine key={item.id} item={item} onQuantityChange={updateQuantity} />
        ))}
      </ul>
      <ShippingPicker value={shippingId} onChange={setShippingId} />
      <Summary subtotal={subtotal} shipping={shipping} />
      {error && <p className="error">{error}</p>}
      <button type="submit" disabled={submitting}>
        {submitting ? "Placing order..." : "Place order"}
      </button>
    </form>
  );
}
