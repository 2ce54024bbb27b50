import { LruCache, type VersionedCache } from './lru.js';

/**
 * Which responses the response cache takes in: a response is kept from the second time its key is
 * asked for, and only in place of an entry asked for less often (or stale). Most searches are asked
 * for once; and when a workload asks for more distinct pages than the cache holds, as the
 * benchmark's 5,760 `filtered` searches do, least-recently-used replacement copied every page in and
 * evicted it again before its next request, so each hit cost many copies and much garbage. Kept
 * entries are then the most asked for; counts are halved every `agingPeriod` requests so that what
 * was popular once gives way.
 */
export class FrequencyAdmission {
  /** Per key, its count as of the end of `period` (halved once for every period since, when read). */
  private readonly asked: LruCache<{ count: number; period: number }>;
  private requests = 0;
  private period = 0;

  constructor(
    keysCounted: number,
    private readonly agingPeriod: number,
  ) {
    this.asked = new LruCache(keysCounted, keysCounted);
  }

  /** Counts a request for `key`; returns how often it was asked for, this time included. */
  record(key: string): number {
    if (++this.requests % this.agingPeriod === 0) this.period += 1;
    const entry = this.asked.peek(key);
    if (!entry) {
      this.asked.set(key, { count: 1, period: this.period });
      return 1;
    }
    entry.count = this.timesAsked(entry) + 1;
    entry.period = this.period;
    this.asked.set(key, entry);
    return entry.count;
  }

  /** Whether a response of `size` for `key`, asked for `times`, goes into `cache` at `version`. */
  admits<V>(cache: VersionedCache<V>, key: string, size: number, version: string, times: number): boolean {
    if (times < 2) return false;
    const victim = cache.currentVictim(key, size, version);
    if (victim === undefined) return true;
    const counted = this.asked.peek(victim);
    return counted === undefined || times > this.timesAsked(counted);
  }

  private timesAsked(entry: { count: number; period: number }): number {
    return entry.count >> Math.min(31, this.period - entry.period);
  }
}
