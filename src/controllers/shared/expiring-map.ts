/**
 * A bounded map whose entries expire: per-object and per-zone caches of a controller that has
 * no delete hook for every way an object can go (an Orphan deletion, a finalizer removed by
 * hand). An entry is dropped when read after its expiry, expired entries are swept when the
 * map is full, and past `maxEntries` the entry written longest ago goes, so the map never
 * holds more than `maxEntries` whatever happens to the objects it describes.
 */

/** Options of {@link ExpiringMap}. */
export interface ExpiringMapOptions {
  /** Most entries kept (older ones are evicted). */
  maxEntries: number;
  /** Clock in ms (a monotonic one where the caller has it). */
  now: () => number;
}

interface Entry<V> {
  value: V;
  expiresAt: number;
}

/** See the module comment. */
export class ExpiringMap<V> {
  private readonly entries = new Map<string, Entry<V>>();

  constructor(private readonly options: ExpiringMapOptions) {
    if (!(options.maxEntries >= 1)) throw new Error('cannot build an ExpiringMap: maxEntries < 1');
  }

  /** The value of `key`, or undefined when absent or expired (an expired entry is dropped). */
  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.options.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry.value;
  }

  /** Stores `value` for `ttlMs`; a full map first sweeps expired entries, then evicts the oldest. */
  set(key: string, value: V, ttlMs: number): void {
    this.entries.delete(key);
    if (this.entries.size >= this.options.maxEntries) this.sweep();
    while (this.entries.size >= this.options.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
    this.entries.set(key, { value, expiresAt: this.options.now() + ttlMs });
  }

  /** Drops `key`; true when it was there. */
  delete(key: string): boolean {
    return this.entries.delete(key);
  }

  /** Entries held, expired ones not yet swept included (tests, memory checks). */
  get size(): number {
    return this.entries.size;
  }

  private sweep(): void {
    const now = this.options.now();
    for (const [key, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(key);
  }
}
