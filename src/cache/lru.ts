import { LRUCache } from 'lru-cache';

/**
 * A map bounded by entry count and by the total size of its values, dropping the least recently
 * used entries first (lru-cache): our own "second chance" map scanned from its oldest slot on every
 * eviction, over the holes earlier deletions leave in a JavaScript Map, several times slower.
 */
export class LruCache<V extends object | string | number | boolean | bigint | symbol> {
  private readonly entries: LRUCache<string, V>;

  constructor(maxEntries: number, maxBytes: number, sizeOf: (value: V) => number = () => 1) {
    // A value larger than maxBytes is not kept, and the older value under its key is dropped.
    this.entries = new LRUCache<string, V>({
      max: maxEntries,
      maxSize: maxBytes,
      sizeCalculation: (value) => Math.max(1, sizeOf(value)),
    });
  }

  get(key: string): V | undefined {
    return this.entries.get(key);
  }

  set(key: string, value: V): void {
    this.entries.set(key, value);
  }

  /** The value under `key`, without counting a use. */
  peek(key: string): V | undefined {
    return this.entries.peek(key);
  }

  delete(key: string): void {
    this.entries.delete(key);
  }

  /** The key of the entry that a value of `size` would evict first; undefined when it fits beside the others. */
  evictedBy(size: number): string | undefined {
    const { entries } = this;
    if (entries.size < entries.max && entries.calculatedSize + Math.max(1, size) <= entries.maxSize) return undefined;
    return entries.rkeys().next().value ?? undefined;
  }

  get size(): number {
    return this.entries.size;
  }

  /** The keys held, most recently used first. */
  keys(): string[] {
    return [...this.entries.keys()];
  }
}

/** Cached values stamped with the data version they were computed under. */
export class VersionedCache<V> {
  private readonly lru: LruCache<{ version: string; value: V }>;
  private readonly inFlight = new Map<string, Promise<V>>();

  constructor(maxEntries: number, maxBytes: number, sizeOf: (value: V) => number = () => 1) {
    this.lru = new LruCache(maxEntries, maxBytes, (entry) => sizeOf(entry.value));
  }

  /**
   * The value stored under `version`; or one stored under an older version that `stillValid`
   * accepts, which is then stamped with `version` so that the next read checks nothing.
   */
  get(key: string, version: string, stillValid?: (storedUnder: string, value: V) => boolean): V | undefined {
    return this.carried(key, version, (storedUnder, value) => (stillValid?.(storedUnder, value) ? value : undefined));
  }

  /**
   * The value stored under `version`; or what `carry` makes of one stored under an older version
   * (undefined: it cannot be carried over), then stored under `version` so that the next read
   * checks nothing.
   */
  carried(key: string, version: string, carry: (storedUnder: string, value: V) => V | undefined): V | undefined {
    const entry = this.lru.get(key);
    if (!entry) return undefined;
    if (entry.version === version) return entry.value;
    const value = carry(entry.version, entry.value);
    if (value === undefined) return undefined;
    if (value === entry.value) entry.version = version;
    // Set again, so that the size is counted anew.
    else this.lru.set(key, { version, value });
    return value;
  }

  set(key: string, version: string, value: V): void {
    this.lru.set(key, { version, value });
  }

  /** The keys held (for a check of every entry, not for requests). */
  keys(): string[] {
    return this.lru.keys();
  }

  delete(key: string): void {
    this.lru.delete(key);
  }

  /** Whether a value of any version is under `key`, without counting a use. */
  has(key: string): boolean {
    return this.lru.peek(key) !== undefined;
  }

  /**
   * The key of the entry that setting `key` to a value of `size` would evict first, if that entry
   * is still current at `version`; undefined when nothing current would go (a value already under
   * `key` is replaced).
   */
  currentVictim(key: string, size: number, version: string): string | undefined {
    if (this.lru.peek(key) !== undefined) return undefined;
    const victim = this.lru.evictedBy(size);
    return victim !== undefined && this.lru.peek(victim)?.version === version ? victim : undefined;
  }

  /**
   * The value under `version`, computed and kept when missing. Callers asking for the same key and
   * version while it is being computed share that computation: after a write, concurrent list
   * requests on PostgreSQL had each counted the same events.
   */
  async computed(key: string, version: string, compute: () => Promise<V>): Promise<V> {
    const cached = this.get(key, version);
    if (cached !== undefined) return cached;
    const flight = `${version}|${key}`;
    let pending = this.inFlight.get(flight);
    if (!pending) {
      pending = (async () => {
        try {
          const value = await compute();
          this.set(key, version, value);
          return value;
        } finally {
          this.inFlight.delete(flight);
        }
      })();
      this.inFlight.set(flight, pending);
    }
    return pending;
  }
}

/**
 * A cache that keeps nothing: every read misses and every computation runs. What the service uses
 * in place of each cache when ACCELERATION=off, so that the plain path is the one taken.
 */
export class PassThroughCache<V> extends VersionedCache<V> {
  constructor() {
    super(1, 1);
  }

  override get(): V | undefined {
    return undefined;
  }

  override carried(): V | undefined {
    return undefined;
  }

  override set(): void {}

  override has(): boolean {
    return false;
  }

  override keys(): string[] {
    return [];
  }

  override currentVictim(): string | undefined {
    return undefined;
  }

  override async computed(_key: string, _version: string, compute: () => Promise<V>): Promise<V> {
    return compute();
  }
}
