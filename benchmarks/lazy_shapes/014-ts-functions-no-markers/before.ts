/**
 * A small in-memory cache with per-entry time to live, used by the API client
 * to avoid refetching the same resources within a page view.
 */

export type Clock = () => number;

export interface CacheOptions {
  ttlMs: number;
  maxEntries: number;
  clock?: Clock;
}

interface Entry<V> {
  value: V;
  expiresAt: number;
}

export const DEFAULT_OPTIONS: CacheOptions = {
  ttlMs: 60_000,
  maxEntries: 500,
};

export class TtlCache<K, V> {
  private readonly entries = new Map<K, Entry<V>>();
  private readonly clock: Clock;
  private hits = 0;
  private misses = 0;

  constructor(private readonly options: CacheOptions = DEFAULT_OPTIONS) {
    this.clock = options.clock ?? Date.now;
  }

  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) {
      this.misses++;
      return undefined;
    }
    if (entry.expiresAt <= this.clock()) {
      this.entries.delete(key);
      this.misses++;
      return undefined;
    }
    this.hits++;
    return entry.value;
  }

  set(key: K, value: V, ttlMs = this.options.ttlMs): void {
    if (this.entries.size >= this.options.maxEntries && !this.entries.has(key)) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) {
        this.entries.delete(oldest.value);
      }
    }
    this.entries.set(key, { value, expiresAt: this.clock() + ttlMs });
  }

  delete(key: K): boolean {
    return this.entries.delete(key);
  }

  clear(): void {
    this.entries.clear();
    this.hits = 0;
    this.misses = 0;
  }

  get size(): number {
    return this.entries.size;
  }

  stats(): { hits: number; misses: number; ratio: number } {
    const total = this.hits + this.misses;
    return { hits: this.hits, misses: this.misses, ratio: total === 0 ? 0 : this.hits / total };
  }
}

export function cacheKey(method: string, url: string, body?: unknown): string {
  const suffix = body === undefined ? "" : `:${JSON.stringify(body)}`;
  return `${method.toUpperCase()} ${url}${suffix}`;
}

export async function cached<V>(
  cache: TtlCache<string, V>,
  key: string,
  load: () => Promise<V>,
): Promise<V> {
  const hit = cache.get(key);
  if (hit !== undefined) {
    return hit;
  }
  const value = await load();
  cache.set(key, value);
  return value;
}
