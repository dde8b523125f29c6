import { Money, addMoney, multiplyMoney, zeroMoney } from "../lib/money";
import { Product } from "../models/product";
import { CartStorage } from "./storage";

export interface CartLine {
  product: Product;
  quantity: number;
}

export interface Coupon {
  code: string;
  percentOff: number;
  minimumSubtotal?: Money;
}

export class CartError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CartError";
  }
}

export class Cart {
  private lines = new Map<string, CartLine>();
  private coupon: Coupon | null = null;

  constructor(
    private readonly storage: CartStorage,
    private readonly currency: string = "USD",
  ) {}

  static async restore(storage: CartStorage): Promise<Cart> {
    const cart = new Cart(storage);
    const saved = await storage.load();
    for (const line of saved) {
      cart.lines.set(line.product.id, line);
    }
    return cart;
  }

  get items(): CartLine[] {
    return Array.from(this.lines.values());
  }

  get isEmpty(): boolean {
    return this.lines.size === 0;
  }

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
    this.persist();
  }

  remove(productId: string): void {
    if (!this.lines.delete(productId)) {
      throw new CartError(`No line for product ${productId}`);
    }
    this.persist();
  }

  setQuantity(productId: string, quantity: number): void {
    const line = this.lines.get(productId);
    if (!line) {
      throw new CartError(`No line for product ${productId}`);
    }
    if (quantity === 0) {
      this.remove(productId);
      return;
    }
    line.quantity = quantity;
    this.persist();
  }

  subtotal(): Money {
    return this.items.reduce(
      (sum, line) => addMoney(sum, multiplyMoney(line.product.price, line.quantity)),
      zeroMoney(this.currency),
    );
  }

  total(): Money {
    const subtotal = this.subtotal();
    if (!this.coupon) {
      return subtotal;
    }
    return multiplyMoney(subtotal, 1 - this.coupon.percentOff / 100);
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

export function lineCount(cart: Cart): number {
  return cart.items.reduce((count, line) => count + line.quantity, 0);
}

export function describeCart(cart: Cart): string {
  if (cart.isEmpty) {
    return "Your cart is empty";
  }
  const count = lineCount(cart);
  return `${count} item${count === 1 ? "" : "s"} in your cart`;
}
