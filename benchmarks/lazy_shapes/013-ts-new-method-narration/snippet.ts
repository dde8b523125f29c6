// ...existing code
  delete(key: K): boolean {
    return this.entries.delete(key);
  }

  // New method: check for a live entry without counting a hit or a miss
  has(key: K): boolean {
    const entry = this.entries.get(key);
    return entry !== undefined && entry.expiresAt > this.clock();
  }

  clear(): void {
// ...existing code
