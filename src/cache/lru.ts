/**
 * A map bounded by entry count and by the total size of its values, evicting by "second chance"
 * (CLOCK): a read only marks its entry, and eviction gives marked entries one more round. Close to
 * least-recently-used, without moving the entry on every read (reads are the hot path).
 */
export class LruCache<V> {
  private readonly entries = new Map<string, { value: V; size: number; read: boolean }>();
  private bytes = 0;

  constructor(private readonly maxEntries: number, private readonly maxBytes: number, private readonly sizeOf: (value: V) => number = () => 1) {}

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    entry.read = true;
    return entry.value;
  }

  set(key: string, value: V): void {
    const size = this.sizeOf(value);
    if (size > this.maxBytes) return;
    const previous = this.entries.get(key);
    if (previous) {
      this.bytes -= previous.size;
      this.entries.delete(key);
    }
    this.entries.set(key, { value, size, read: false });
    this.bytes += size;
    while (this.entries.size > this.maxEntries || this.bytes > this.maxBytes) this.evictOne();
  }

  /** Drops the oldest entry not read since it was last passed over; read ones move to the back, unmarked. */
  private evictOne(): void {
    for (const [key, entry] of this.entries) {
      this.entries.delete(key);
      if (entry.read) {
        entry.read = false;
        this.entries.set(key, entry);
        continue;
      }
      this.bytes -= entry.size;
      return;
    }
  }

  get size(): number {
    return this.entries.size;
  }
}

/** Cached values stamped with the data version they were computed under. */
export class VersionedCache<V> {
  private readonly lru: LruCache<{ version: string; value: V }>;

  constructor(maxEntries: number, maxBytes: number, sizeOf: (value: V) => number = () => 1) {
    this.lru = new LruCache(maxEntries, maxBytes, (entry) => sizeOf(entry.value));
  }

  get(key: string, version: string): V | undefined {
    const entry = this.lru.get(key);
    return entry && entry.version === version ? entry.value : undefined;
  }

  set(key: string, version: string, value: V): void {
    this.lru.set(key, { version, value });
  }
}
