/** A small least-recently-used map bounded by entry count and by the total size of its values. */
export class LruCache<V> {
  private readonly entries = new Map<string, { value: V; size: number }>();
  private bytes = 0;

  constructor(private readonly maxEntries: number, private readonly maxBytes: number, private readonly sizeOf: (value: V) => number = () => 1) {}

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
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
    this.entries.set(key, { value, size });
    this.bytes += size;
    while (this.entries.size > this.maxEntries || this.bytes > this.maxBytes) {
      const oldest = this.entries.keys().next().value as string;
      this.bytes -= this.entries.get(oldest)!.size;
      this.entries.delete(oldest);
    }
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
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
