import type { Db } from '../../db/schema.js';
import * as repo from './events.repository.js';

/**
 * What public event lists filter on, kept in memory: published, listed events in list order (start
 * and end keys), their terms, and per searched word the events whose text may contain it. A search
 * narrowed by dates and terms then finds its few candidates without reading any text, and the exact
 * rules run in SQL on those alone (events.list.ts). Without it a common word costs a scan of every
 * event in the window (issue "benchmark harness": `filtered`).
 *
 * A snapshot belongs to one data version. Once data has stopped changing for as long as a build
 * takes, it is rebuilt in the background, in chunks so that requests keep flowing; while writes keep
 * coming no build is wasted on data about to change, and lists are answered from SQL as before.
 */
export class EventCandidates {
  private snapshot: Snapshot | undefined;
  private pending: Promise<void> | undefined;
  private lastBuildMs = 0;
  /** The newest data version seen by a search, and since when. */
  private seen = { version: '', since: 0 };

  constructor(
    private readonly db: Db,
    private readonly onError: (error: unknown) => void,
  ) {}

  /**
   * The listed, published events that may match, in list order; undefined when no snapshot of
   * `version` is ready or the filter is too broad for candidates to help.
   */
  async find(version: string, query: CandidateQuery): Promise<number[] | undefined> {
    const snapshot = this.snapshot;
    if (snapshot?.version !== version) {
      if (this.seen.version !== version) this.seen = { version, since: Date.now() };
      else if (Date.now() - this.seen.since >= Math.max(QUIET_MS, this.lastBuildMs)) void this.rebuild(version);
      return undefined;
    }
    try {
      const words = await Promise.all(query.words.map((word) => snapshot.wordBits(word)));
      return snapshot.select(query, words.filter((bits): bits is Bits => bits !== undefined));
    } catch (error) {
      this.onError(error);
      return undefined;
    }
  }

  /** Makes a snapshot of `version` current now, without waiting for quiet (start-up warming, tests). */
  async prepare(version: string): Promise<void> {
    await this.pending;
    if (this.snapshot?.version !== version) await this.rebuild(version);
  }

  private rebuild(version: string): Promise<void> {
    if (this.pending) return this.pending;
    const started = Date.now();
    this.pending = Snapshot.build(this.db, version)
      .then((snapshot) => {
        this.snapshot = snapshot;
      })
      .catch(this.onError)
      .finally(() => {
        this.pending = undefined;
        this.lastBuildMs = Date.now() - started;
      });
    return this.pending;
  }
}

export interface CandidateQuery {
  startMin?: number;
  startAfter?: number;
  startBefore?: number;
  endMax?: number;
  endBefore?: number;
  endAfter?: number;
  /** Each set: the event has at least one of these terms. */
  termSets: readonly (readonly number[])[];
  /** Words that must all occur (lower-cased). */
  words: readonly string[];
}

/** More candidates than this and the exact query over them would cost what the plain query costs. */
const MAX_CANDIDATES = 20_000;
const CHUNK = 20_000;
/** Data must stay unchanged at least this long (or as long as the last build took) before a build. */
const QUIET_MS = 250;
const WORDS_KEPT = 64;

/** A set of post ids as bits. */
type Bits = Uint8Array;
const hasBit = (bits: Bits, id: number) => (bits[id >> 3] ?? 0) & (1 << (id & 7));

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

class Snapshot {
  private readonly words = new Map<string, Promise<Bits | undefined>>();

  private constructor(
    readonly version: string,
    private readonly db: Db,
    private readonly ids: Int32Array,
    private readonly starts: Float64Array,
    private readonly ends: Float64Array,
    /** Terms of event `id` are termIds[termStart[id] .. termStart[id + 1]). */
    private readonly termStart: Int32Array,
    private readonly termIds: Int32Array,
  ) {}

  /** Reads the data of `version` (read before any of it, so the snapshot is never older than its version). */
  static async build(db: Db, version: string): Promise<Snapshot> {
    const ids: number[] = [];
    const starts: number[] = [];
    const ends: number[] = [];
    for (let after: repo.ListedEvent | undefined; ; ) {
      const rows = await repo.listedEventsAfter(db, after, CHUNK);
      for (const row of rows) {
        ids.push(row.post_id);
        starts.push(row.start_key);
        ends.push(row.end_key);
      }
      if (rows.length < CHUNK) break;
      after = rows[rows.length - 1];
      await nextTurn();
    }
    const maxId = ids.reduce((max, id) => Math.max(max, id), 0);
    const { termStart, termIds } = await Snapshot.readTerms(db, maxId);
    return new Snapshot(version, db, Int32Array.from(ids), Float64Array.from(starts), Float64Array.from(ends), termStart, termIds);
  }

  /** Every event's terms, grouped by event id (the links come in event order). */
  private static async readTerms(db: Db, maxId: number): Promise<{ termStart: Int32Array; termIds: Int32Array }> {
    const termStart = new Int32Array(maxId + 2);
    let termIds: Int32Array = new Int32Array(1024);
    let count = 0;
    let nextEvent = 0;
    for (let after: { event_id: number; term_id: number } | undefined; ; ) {
      const rows = await repo.eventTermsAfter(db, after, CHUNK);
      for (const { event_id: eventId, term_id: termId } of rows) {
        if (eventId > maxId) continue;
        while (nextEvent <= eventId) termStart[nextEvent++] = count;
        if (count === termIds.length) termIds = growInt32(termIds);
        termIds[count++] = termId;
      }
      if (rows.length < CHUNK) break;
      after = rows[rows.length - 1];
      await nextTurn();
    }
    while (nextEvent <= maxId + 1) termStart[nextEvent++] = count;
    return { termStart, termIds: termIds.slice(0, count) };
  }

  /** Events whose text may contain `word`, as bits; undefined when the word is too short to narrow. */
  wordBits(word: string): Promise<Bits | undefined> {
    let bits = this.words.get(word);
    if (!bits) {
      bits = repo.eventsThatMayContain(this.db, word).then((ids) => ids && this.toBits(ids));
      // A failed read is not kept: the next request tries again.
      bits.catch(() => this.words.delete(word));
      if (this.words.size >= WORDS_KEPT) this.words.delete(this.words.keys().next().value as string);
      this.words.set(word, bits);
    }
    return bits;
  }

  private toBits(ids: readonly number[]): Bits {
    const bits = new Uint8Array((this.termStart.length >> 3) + 1);
    for (const id of ids) if (id < this.termStart.length) bits[id >> 3] |= 1 << (id & 7);
    return bits;
  }

  select(query: CandidateQuery, words: readonly Bits[]): number[] | undefined {
    const { ids, starts, ends } = this;
    const ceiling = Math.min(query.startBefore !== undefined ? query.startBefore - 1 : Infinity, query.endMax ?? Infinity, query.endBefore !== undefined ? query.endBefore - 1 : Infinity);
    const floor = Math.max(query.startMin ?? -Infinity, query.startAfter !== undefined ? query.startAfter + 1 : -Infinity);
    const termSets = query.termSets.map((set) => new Set(set));
    const found: number[] = [];
    for (let i = this.firstAtOrAfter(floor); i < ids.length && starts[i] <= ceiling; i++) {
      const id = ids[i];
      if (query.endMax !== undefined && ends[i] > query.endMax) continue;
      if (query.endBefore !== undefined && ends[i] >= query.endBefore) continue;
      if (query.endAfter !== undefined && ends[i] <= query.endAfter) continue;
      if (!this.matches(id, words, termSets)) continue;
      if (found.push(id) > MAX_CANDIDATES) return undefined;
    }
    return found;
  }

  private matches(id: number, words: readonly Bits[], termSets: readonly ReadonlySet<number>[]): boolean {
    for (const bits of words) if (!hasBit(bits, id)) return false;
    for (const set of termSets) if (!this.hasAnyTerm(id, set)) return false;
    return true;
  }

  private hasAnyTerm(id: number, wanted: ReadonlySet<number>): boolean {
    for (let t = this.termStart[id]; t < this.termStart[id + 1]; t++) if (wanted.has(this.termIds[t])) return true;
    return false;
  }

  /** The first position whose start is at or after `key` (binary search). */
  private firstAtOrAfter(key: number): number {
    let low = 0;
    let high = this.starts.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (this.starts[middle] < key) low = middle + 1;
      else high = middle;
    }
    return low;
  }
}

function growInt32(array: Int32Array): Int32Array {
  const grown = new Int32Array(array.length * 2);
  grown.set(array);
  return grown;
}
