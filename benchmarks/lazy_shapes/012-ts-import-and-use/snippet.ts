import { track } from "./tracking";

// ... existing code ...

  add(product: Product, quantity = 1): void {
    if (quantity <= 0) {
      throw new CartError(`Quantity must be positive, got ${quantity}`);
    }
    const existing = this.lines.get(product.id);
    if (existing) {
      existing.quantity += quantity;
    } else {
      this.lines.set(product.id, { product, quantity });
    }
    track("cart_add", { productId: product.id, quantity });
    this.persist();
  }

// ... existing code ...
