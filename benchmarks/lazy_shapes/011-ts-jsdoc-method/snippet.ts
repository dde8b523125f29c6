  // ... existing code ...

  /**
   * Moves every line of `other` into this cart, adding up quantities of
   * products both carts hold. `other` is left empty.
   */
  mergeFrom(other: Cart): void {
    for (const line of other.items) {
      this.add(line.product, line.quantity);
    }
    other.clear();
  }

  clear(): void {
  // ... existing code ...
