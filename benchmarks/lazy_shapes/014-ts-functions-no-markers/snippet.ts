export function cacheKey(method: string, url: string, body?: unknown): string {
  const suffix = body === undefined ? "" : `:${JSON.stringify(body)}`;
  return `${method.toUpperCase()} ${url.replace(/\/+$/, "")}${suffix}`;
}

export async function cached<V>(
  cache: TtlCache<string, V>,
  key: string,
  load: () => Promise<V>,
  ttlMs?: number,
): Promise<V> {
  const hit = cache.get(key);
  if (hit !== undefined) {
    return hit;
  }
  const value = await load();
  cache.set(key, value, ttlMs);
  return value;
}
