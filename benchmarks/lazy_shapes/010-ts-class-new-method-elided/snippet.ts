export class Cart {
  private lines = new Map<string, CartLine>();
  private coupon: Coupon | null = null;

  // ... existing methods ...

  applyCoupon(coupon: Coupon): void {
    if (coupon.minimumSubtotal && this.subtotal().amount < coupon.minimumSubtotal.amount) {
      throw new CartError(`Coupon ${coupon.code} needs a larger subtotal`);
    }
    this.coupon = coupon;
    this.persist();
  }

  clear(): void {
    this.lines.clear();
    this.coupon = null;
    this.persist();
  }

  private persist(): void {
    void this.storage.save(this.items);
  }
}
