import type { DatabaseHandle } from '../db/connect.js';
import { dataVersionOf, type DataVersion } from '../changes/data-version.js';
import type { LinkedRow } from '../modules/linked/linked.repository.js';
import type { TermRow } from '../modules/terms/terms.repository.js';
import type { KeptList } from '../modules/events/listing/accelerated.js';
import type { PostBase } from '../modules/posts/posts.repository.js';
import type { CredentialRow } from '../modules/users/users.repository.js';
import { PassThroughCache, VersionedCache } from './lru.js';

/** A response to an anonymous read, with every header it is sent with again (content length and `X-Calendar-Cache: hit` included). */
export interface CachedResponse {
  headers: Record<string, string>;
  body: Buffer;
}

/**
 * An item's rendered representation, kept as UTF-8 bytes so that a list is assembled by copying
 * bytes, without encoding the whole body again on every response. An event's JSON is kept in
 * parts: its own bytes, and the venue, organizer and term bytes it shares with other events (held
 * once, by reference), so the cache holds about twice as many events in the same memory.
 */
export interface Fragment {
  json: readonly Buffer[];
  /** The memory this fragment alone holds (its own parts and bookkeeping), which the cache budgets. */
  bytes: number;
  /** What decides whether a reader sees a protected item blanked (events only). */
  lock?: { password: string; author_id: number; status: string };
  /** The blanked representation of a protected item, for readers who have not unlocked it. */
  blanked?: Buffer;
  /** What it was rendered from (`changeKey`s): after this process's writes, it is reused until one of them names one of these. */
  depends?: readonly string[];
}

/** What a cache entry costs besides its bytes (key, entry, arrays), counted so the budget is honest. */
export const ENTRY_OVERHEAD = 512;

/** Bytes of a string in a buffer of their own: a slice of Node's shared pool would keep the whole 8 KB slab alive. */
export function ownBuffer(text: string): Buffer {
  const buffer = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
  buffer.write(text);
  return buffer;
}

/** Every cache of a process; all entries are stamped with the data version (see data-version.ts). */
export interface Caches {
  readonly version: DataVersion;
  /** Whole responses to anonymous reads; null when RESPONSE_CACHE=off. */
  readonly responses: VersionedCache<CachedResponse> | null;
  /** Rendered item representations, reused between requests until data changes. */
  readonly fragments: VersionedCache<Fragment>;
  /** List totals per filter, so `total` does not cost a full count on every page. */
  readonly counts: VersionedCache<number>;
  /** Venue, organizer and term rows embedded in many events, per language (cache/rows.ts). */
  readonly linkedRows: VersionedCache<LinkedRow>;
  readonly termRows: VersionedCache<TermRow>;
  /** Posts' base rows (type, status, author, password) that single reads check before rendering. */
  readonly postBases: VersionedCache<PostBase>;
  /** Post ids by type and slug, for reads by slug. */
  readonly slugIds: VersionedCache<number>;
  /** Resolved term filters, and whole venue and organizer lists. */
  readonly idLists: VersionedCache<number[]>;
  /** Ordered results of searches (the first pages of long ones) and of event lists of moderate size, so pages are slices. */
  readonly eventLists: VersionedCache<KeptList>;
  /** Application passwords found, by hash: on PostgreSQL a lookup is a round trip on every authenticated request. */
  readonly credentials: VersionedCache<CredentialRow>;
}

const MB = 1024 * 1024;

/**
 * The caches of a process. With `acceleration` off every one keeps nothing (PassThroughCache) and
 * there is no response cache: the service answers from the plain paths alone.
 */
export function createCaches(handle: DatabaseHandle, options: { acceleration: boolean; responseCache: boolean }): Caches {
  const kept = <V>(maxEntries: number, maxSize: number, sizeOf?: (value: V) => number): VersionedCache<V> =>
    options.acceleration ? new VersionedCache<V>(maxEntries, maxSize, sizeOf) : new PassThroughCache<V>();
  return {
    version: dataVersionOf(handle),
    responses: options.acceleration && options.responseCache ? new VersionedCache<CachedResponse>(5_000, 12 * MB, (r) => r.body.length) : null,
    fragments: kept<Fragment>(60_000, 64 * MB, (fragment) => fragment.bytes),
    counts: kept<number>(10_000, 10_000),
    linkedRows: kept<LinkedRow>(5_000, 5_000),
    termRows: kept<TermRow>(5_000, 5_000),
    postBases: kept<PostBase>(20_000, 20_000),
    slugIds: kept<number>(20_000, 20_000),
    idLists: kept<number[]>(1_000, 1_000_000, (ids) => ids.length),
    // Entries are many searches (a category, a word and a window give tens of ids at 100,000 events)
    // and a few whole lists; the id budget bounds the memory (docs/performance-log.md).
    eventLists: kept<KeptList>(20_000, 2_000_000, (list) => list.ids.length),
    credentials: kept<CredentialRow>(1_000, 1_000),
  };
}
