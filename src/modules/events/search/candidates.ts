import { dropOldest } from '../../../domain/collections.js';
import type { DataVersion } from '../../../changes/data-version.js';
import type { OffThreadReader } from '../../../db/off-thread.js';
import type { Db } from '../../../db/schema.js';
import * as repo from './search.repository.js';

/**
 * What public event lists filter on, kept in memory: published, listed events in list order (start
 * and end keys), their terms, and per searched word the events whose text may contain it. A search
 * narrowed by dates and terms then finds its few candidates without reading any text, and the exact
 * rules run in SQL on those alone (listing/accelerated.ts). Without it a common word costs a scan of every
 * event in the window (issue "benchmark harness": `filtered`).
 *
 * Candidates only need to be a superset of the answer. So a snapshot stays usable while this
 * process writes: every event it creates, updates or deletes afterwards is read again (keys, terms,
 * whether it is listed) and judged on those in memory; the ones that pass become candidates. The
 * snapshot is rebuilt in the background once such events are many. A change by another process
 * (seen through the data version) makes it unusable: it is rebuilt once data has stopped changing
 * for as long as a build takes, and searches meanwhile are answered from SQL alone.
 */
export class EventCandidates {
  private current: InUse | undefined;
  private pending: Promise<void> | undefined;
  /** Events written since the build in progress began reading: the recent events of the snapshot it makes. */
  private building: Set<number> | undefined;
  private lastBuildMs = 0;
  /** The newest data version seen by a search, and since when. */
  private seen = { version: '', since: 0 };
  /** Recent events as lists see them now (null: not listed), read once after their latest write. */
  private readonly written = new Map<number, repo.ListedEventWithTerms | null>();
  /** Recent events not read since their latest write. */
  private readonly unread = new Set<number>();
  /** Counts `changed` calls: a read of written events is kept only if none came in meanwhile. */
  private writes = 0;

  constructor(
    private readonly db: Db,
    private readonly versions: DataVersion,
    private readonly onError: (error: unknown) => void,
    private readonly options: CandidateOptions = {},
  ) {}

  /** Whether a snapshot has been built (the first one is built when the server starts). */
  get ready(): boolean {
    return this.current !== undefined;
  }

  /** Records an event this process wrote, once its transaction has committed. */
  changed(eventId: number): void {
    this.writes += 1;
    this.written.delete(eventId);
    if (!this.current && !this.building) return;
    this.current?.recent.add(eventId);
    this.building?.add(eventId);
    this.unread.add(eventId);
    // Writes without searches in between: rather than keep them all, start afresh on the next search.
    if (this.current && this.current.recent.size > MAX_RECENT_KEPT && !this.pending) {
      this.current = undefined;
      this.written.clear();
      this.unread.clear();
    }
  }

  /**
   * The listed, published events that may match, split into those known to match (in list order,
   * with their start keys) and those the exact query must check; undefined when no usable snapshot
   * is ready or the filter is too broad for candidates to help.
   */
  async find(version: string, query: CandidateQuery): Promise<Candidates | undefined> {
    const inUse = await this.usable(version);
    if (!inUse) return undefined;
    // Each recent event costs every search a check in memory, and the exact query when it passes.
    if (inUse.recent.size > (this.options.maxRecent ?? MAX_RECENT)) void this.rebuild(version);
    try {
      const { snapshot } = inUse;
      const [words, excluded, written] = await Promise.all([
        snapshot.wordSets(query.words),
        snapshot.wordSets(query.excluded),
        this.writtenEvents(inUse.recent),
      ]);
      return snapshot.select(query, words, excluded, written);
    } catch (error) {
      this.onError(error);
      return undefined;
    }
  }

  /**
   * The listed, published events of a filter without words (`query.words` empty), counted in memory,
   * and the events written since the snapshot that the exact query must check; undefined unless a
   * snapshot is usable now (a build is not waited for: it takes longer than a count in SQL).
   */
  async count(version: string, query: CandidateQuery): Promise<{ known: number; unsure: number[] } | undefined> {
    const inUse = this.current;
    if (!inUse || !this.versions.localSince(inUse.snapshot.version, version)) return undefined;
    if (inUse.recent.size > (this.options.maxRecent ?? MAX_RECENT)) void this.rebuild(version);
    try {
      return inUse.snapshot.count(query, await this.writtenEvents(inUse.recent));
    } catch (error) {
      this.onError(error);
      return undefined;
    }
  }

  /**
   * The recent events as lists see them now: those not read since their latest write are read, the
   * others are known. Nothing is copied per search: copying the recent events into a new set,
   * array and map for every search had cost much of `mixed`'s time and garbage at a million
   * events (docs/performance-log.md). An event written again meanwhile, or dropped by a
   * newer snapshot, reads as unknown, which only sends it to the exact query.
   */
  private async writtenEvents(recent: ReadonlySet<number>): Promise<WrittenEvents> {
    const unread = [...this.unread].filter((id) => recent.has(id));
    if (unread.length === 0) return { ids: recent, state: (id) => this.written.get(id) };
    const writesBefore = this.writes;
    const rows = new Map((await repo.listedEventsByIds(this.db, unread)).map((row) => [row.post_id, row]));
    const fresh = new Map(unread.map((id) => [id, rows.get(id) ?? null]));
    // A write that came in during the read may have changed what was read: use it this once only.
    if (this.writes === writesBefore) {
      for (const [id, event] of fresh) {
        this.written.set(id, event);
        this.unread.delete(id);
      }
    }
    return { ids: recent, state: (id) => (fresh.has(id) ? fresh.get(id) : this.written.get(id)) };
  }

  /** Makes a snapshot usable at `version` now, without waiting for quiet (start-up warming, tests). */
  async prepare(version: string): Promise<void> {
    await this.pending;
    if (!this.current || !this.versions.localSince(this.current.snapshot.version, version)) await this.rebuild(version);
  }

  /** The snapshot usable at `version`: the current one, or one being built (the first, or after quiet). */
  private async usable(version: string): Promise<InUse | undefined> {
    const isUsable = (inUse: InUse | undefined) =>
      inUse !== undefined && this.versions.localSince(inUse.snapshot.version, version);
    if (isUsable(this.current)) return this.current;
    if (this.seen.version !== version) this.seen = { version, since: Date.now() };
    const quiet = Date.now() - this.seen.since >= Math.max(QUIET_MS, this.lastBuildMs);
    if (!this.pending && (!this.current || quiet)) void this.rebuild(version);
    if (!this.pending) return undefined;
    await this.pending;
    return isUsable(this.current) ? this.current : undefined;
  }

  private rebuild(version: string): Promise<void> {
    if (this.pending) return this.pending;
    const started = Date.now();
    const building = new Set<number>();
    this.building = building;
    this.pending = Snapshot.build(this.db, this.options.offThread, version)
      .then((snapshot) => {
        this.current = { snapshot, recent: building };
        for (const id of this.written.keys()) if (!building.has(id)) this.written.delete(id);
        for (const id of this.unread) if (!building.has(id)) this.unread.delete(id);
      })
      .catch(this.onError)
      .finally(() => {
        this.building = undefined;
        this.pending = undefined;
        this.lastBuildMs = Date.now() - started;
      });
    return this.pending;
  }
}

/** A snapshot in use, and the events this process wrote since its data was read (replaced, never emptied, by a rebuild). */
interface InUse {
  snapshot: Snapshot;
  recent: Set<number>;
}

export interface CandidateOptions {
  /** Where word sets are read on SQLite files, so that a common word does not stall the server. */
  offThread?: OffThreadReader;
  /** Events written since the snapshot (each judged by every search) that start a rebuild in the background. */
  maxRecent?: number;
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
  /** Words that must all occur, and words that must not (lower-cased). */
  words: readonly string[];
  excluded: readonly string[];
  /**
   * Whether the conditions above are the whole filter and every word is one a search document
   * answers alone (see listing/accelerated.ts); otherwise every candidate is checked.
   */
  complete: boolean;
  /** The reader has not unlocked protected events: only their titles are searched (API.md §18). */
  lockedTitleOnly?: boolean;
}

export interface Candidates {
  /** Events known to match, in list order, and their start keys. */
  matching: { ids: number[]; keys: number[] };
  /** Events the exact query must check. */
  unsure: number[];
}

/** More unsure candidates than this and the exact query over them would cost what the plain query costs. */
const MAX_UNSURE = 20_000;
const CHUNK = 5_000;
const MAX_RECENT_KEPT = 100_000;
const MAX_RECENT = 2_000;
/** After another process's write, data must stay unchanged this long (or as long as the last build took) before a build. */
const QUIET_MS = 250;
const WORDS_KEPT = 64;
const TERM_SETS_KEPT = 64;
const PLAIN_ASCII = /^\p{ASCII}*$/u;
const MAX_UINT16 = 0xffff;

/** Events written since the snapshot: their ids, and each as lists see it (null: not listed), or undefined when unknown. */
interface WrittenEvents {
  ids: ReadonlySet<number>;
  state(id: number): repo.ListedEventWithTerms | null | undefined;
}

/** A set of post ids as bits. */
type Bits = Uint8Array;
const hasBit = (bits: Bits, id: number) => (bits[id >> 3] ?? 0) & (1 << (id & 7));

/**
 * Events that may match one condition (a word, a set of terms), as bits by position in list order,
 * 32 to a number, so that a window's candidates are the AND of a few thousand numbers at a million
 * events. Bits by id are only a step in making one: kept beside it, they doubled its memory.
 */
type EventSet = Uint32Array;
const hasPosition = (set: EventSet, position: number) => set[position >> 5] & (1 << (position & 31));

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The positions in list order of the listed events having each term: term `t`'s are
 * `positions[start[t] .. start[t + 1])`. A term set's events are then read from its terms' own
 * positions, not from a pass over every listed event's links (docs/performance-log.md).
 */
interface TermPositions {
  start: Int32Array;
  positions: Int32Array;
}

/** Listed events gone through between two turns of the event loop while term positions are made. */
const EVENTS_PER_TURN = 100_000;

/** Term positions (TermPositions) from each event's terms, in two passes that let requests in between. */
async function termPositions(
  listed: Int32Array,
  termStart: Int32Array,
  termIds: Uint16Array | Int32Array,
  maxTermId: number,
): Promise<TermPositions> {
  const eachLink = async (visit: (term: number, position: number) => void) => {
    for (let i = 0; i < listed.length; i++) {
      for (let t = termStart[listed[i]]; t < termStart[listed[i] + 1]; t++) visit(termIds[t], i);
      if (i % EVENTS_PER_TURN === EVENTS_PER_TURN - 1) await nextTurn();
    }
  };
  const start = new Int32Array(maxTermId + 2);
  await eachLink((term) => start[term + 1]++);
  for (let term = 0; term <= maxTermId; term++) start[term + 1] += start[term];
  const positions = new Int32Array(start[maxTermId + 1]);
  const next = start.slice(0, maxTermId + 1);
  await eachLink((term, position) => (positions[next[term]++] = position));
  return { start, positions };
}

class Snapshot {
  private readonly words = new Map<string, Promise<EventSet | undefined>>();
  /** Per distinct set of terms, the events having one of them (see eventsWithAnyTerm). */
  private readonly termSets = new Map<string, EventSet>();

  private constructor(
    readonly version: string,
    private readonly db: Db,
    private readonly offThread: OffThreadReader | undefined,
    private readonly ids: Int32Array,
    private readonly starts: Float64Array,
    private readonly ends: Float64Array,
    /** The largest listed event id. */
    private readonly maxId: number,
    private readonly byTerm: TermPositions,
    /** Events whose search document alone does not answer a word (migration 0007). */
    private readonly inexact: Bits,
    /** Lower-cased plain-ASCII titles of protected events without translations (see lockedTitleMatches). */
    private readonly lockedTitles: ReadonlyMap<number, string>,
  ) {}

  /**
   * Reads the data of `version` (read before any of it, so the snapshot is never older than its
   * version), into typed arrays sized by a count first: grown from JavaScript arrays, they had
   * raised the peak memory of a build (docs/performance-log.md).
   */
  static async build(db: Db, offThread: OffThreadReader | undefined, version: string): Promise<Snapshot> {
    const expected = await repo.countListedEvents(db);
    const ids = new Filling(new Int32Array(expected));
    const starts = new Filling(new Float64Array(expected));
    const ends = new Filling(new Float64Array(expected));
    for (let after: repo.ListedEvent | undefined; ;) {
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
    const listed = ids.filled();
    const maxId = listed.reduce((max, id) => Math.max(max, id), 0);
    const { termStart, termIds, maxTermId } = await Snapshot.readTerms(db, maxId);
    const byTerm = await termPositions(listed, termStart, termIds, maxTermId);
    const inexactRows = await repo.inexactSearchDocuments(db);
    const inexact = toBits(
      inexactRows.map((row) => row.post_id),
      maxId,
    );
    const lockedTitles = new Map(
      inexactRows.flatMap((row) =>
        row.locked_title !== null && PLAIN_ASCII.test(row.locked_title)
          ? [[row.post_id, row.locked_title.toLowerCase()] as const]
          : [],
      ),
    );
    return new Snapshot(
      version,
      db,
      offThread,
      listed,
      starts.filled(),
      ends.filled(),
      maxId,
      byTerm,
      inexact,
      lockedTitles,
    );
  }

  /** Every event's terms, grouped by event id (the links come in event order). */
  private static async readTerms(
    db: Db,
    maxId: number,
  ): Promise<{ termStart: Int32Array; termIds: Uint16Array | Int32Array; maxTermId: number }> {
    const termStart = new Int32Array(maxId + 2);
    const stats = await repo.eventTermLinkStats(db);
    // Most sites' term ids fit 16 bits, and then this, a snapshot's largest array (2.8 million links
    // at a million events), takes half the memory; a larger id written meanwhile widens it.
    let termIds: Filling<Uint16Array | Int32Array> = new Filling(
      stats.maxTermId <= MAX_UINT16 ? new Uint16Array(stats.links) : new Int32Array(stats.links),
    );
    let nextEvent = 0;
    let maxTermId = 0;
    for (let after: { event_id: number; term_id: number } | undefined; ;) {
      const rows = await repo.eventTermsAfter(db, after, CHUNK);
      for (const { event_id: eventId, term_id: termId } of rows) {
        if (eventId > maxId) continue;
        while (nextEvent <= eventId) termStart[nextEvent++] = termIds.length;
        if (termId > MAX_UINT16) termIds = termIds.widened();
        termIds.push(termId);
        maxTermId = Math.max(maxTermId, termId);
      }
      if (rows.length < CHUNK) break;
      after = rows[rows.length - 1];
      await nextTurn();
    }
    while (nextEvent <= maxId + 1) termStart[nextEvent++] = termIds.length;
    return { termStart, termIds: termIds.filled(), maxTermId };
  }

  /** Per word, the events whose text may contain it; words too short to narrow are left out. */
  async wordSets(words: readonly string[]): Promise<EventSet[]> {
    const sets = await Promise.all(words.map((word) => this.wordSet(word)));
    return sets.filter((set): set is EventSet => set !== undefined);
  }

  private wordSet(word: string): Promise<EventSet | undefined> {
    let set = this.words.get(word);
    if (!set) {
      set = repo.eventsThatMayContain(this.db, word, this.offThread).then((ids) => ids && this.toEventSet(ids));
      // A failed read is not kept: the next request tries again.
      set.catch(() => this.words.delete(word));
      if (this.words.size >= WORDS_KEPT) dropOldest(this.words);
      this.words.set(word, set);
    }
    return set;
  }

  private toEventSet(ids: ArrayLike<number>): EventSet {
    return this.byPosition(toBits(ids, this.maxId + 2));
  }

  select(
    query: CandidateQuery,
    words: readonly EventSet[],
    excluded: readonly EventSet[],
    written: WrittenEvents,
  ): Candidates | undefined {
    const { ids, starts } = this;
    // Known to match only if every word could be looked up; events written since go to the exact query if their keys and terms fit.
    const decisive = query.complete && words.length === query.words.length && excluded.length === query.excluded.length;
    const matching: Candidates['matching'] = { ids: [], keys: [] };
    const { known, unsure } = judgeWritten(written, query);
    const complete = this.eachInWindow(query, words, written, (i) => {
      const id = ids[i];
      const known = !decisive
        ? undefined
        : hasBit(this.inexact, id)
          ? this.lockedTitleMatches(id, query)
          : !excluded.some((set) => hasPosition(set, i));
      if (known === undefined) return unsure.push(id) <= MAX_UNSURE;
      if (known) {
        matching.ids.push(id);
        matching.keys.push(starts[i]);
      }
      return true;
    });
    // Written events come in the order they were written.
    known.sort((x, y) => x.key - y.key || x.id - y.id);
    return complete ? { matching: mergeInListOrder(matching, known), unsure } : undefined;
  }

  /** How many events of a filter without words the snapshot knows to match, and the written ones to check (see EventCandidates.count). */
  count(query: CandidateQuery, written: WrittenEvents): { known: number; unsure: number[] } {
    const { known, unsure } = judgeWritten(written, query);
    let n = known.length;
    this.eachInWindow(query, [], written, () => {
      n += 1;
      return true;
    });
    return { known: n, unsure };
  }

  /**
   * Visits, in list order, the position of each event in the query's dates having every word of
   * `words` and a term of every set, written events left out, until `visit` returns false (then
   * false). 32 positions at a time: walking the rarest word's events instead, one by one, was a
   * fifth of `filtered`'s time at a million events.
   */
  private eachInWindow(
    query: CandidateQuery,
    words: readonly EventSet[],
    written: WrittenEvents,
    visit: (position: number) => boolean,
  ): boolean {
    const { ids, starts, ends } = this;
    const { floor, ceiling } = startRange(query);
    const { low: endLow, high: endHigh } = endRange(query);
    const sets = [...words, ...query.termSets.map((terms) => this.eventsWithAnyTerm(terms))];
    const first = firstIndex(starts, (start) => start < floor);
    const end = firstIndex(starts, (start) => start <= ceiling);
    for (let block = first >> 5; first < end && block <= (end - 1) >> 5; block++) {
      let candidates = windowMask(block, first, end);
      for (const set of sets) candidates &= set[block];
      while (candidates !== 0) {
        const i = (block << 5) + 31 - Math.clz32(candidates & -candidates);
        candidates &= candidates - 1;
        if (ends[i] < endLow || ends[i] > endHigh) continue;
        if (written.ids.size > 0 && written.ids.has(ids[i])) continue;
        if (!visit(i)) return false;
      }
    }
    return true;
  }

  /**
   * For a reader who has not unlocked it, a protected event matches by its title alone (API.md
   * §18); known here when that title is plain ASCII and has no translation, so that lower-casing
   * and LIKE agree on both dialects. Undefined: the exact query must check it.
   */
  private lockedTitleMatches(id: number, query: CandidateQuery): boolean | undefined {
    const title = query.lockedTitleOnly ? this.lockedTitles.get(id) : undefined;
    if (title === undefined) return undefined;
    return query.words.every((word) => title.includes(word)) && !query.excluded.some((word) => title.includes(word));
  }

  /** The events having at least one of `terms`, kept per distinct set: from each term's positions in list order. */
  private eventsWithAnyTerm(terms: readonly number[]): EventSet {
    const key = [...terms].sort((a, b) => a - b).join(',');
    let set = this.termSets.get(key);
    if (!set) {
      const { start, positions } = this.byTerm;
      set = new Uint32Array((this.ids.length >> 5) + 1);
      for (const term of terms) {
        if (term >= start.length - 1) continue;
        for (let p = start[term]; p < start[term + 1]; p++) set[positions[p] >> 5] |= 1 << (positions[p] & 31);
      }
      if (this.termSets.size >= TERM_SETS_KEPT) dropOldest(this.termSets);
      this.termSets.set(key, set);
    }
    return set;
  }

  /** The listed events among `bits`, as bits by position in list order. */
  private byPosition(bits: Bits): Uint32Array {
    const { ids } = this;
    const at = new Uint32Array((ids.length >> 5) + 1);
    for (let i = 0; i < ids.length; i++) if (hasBit(bits, ids[i])) at[i >> 5] |= 1 << (i & 31);
    return at;
  }
}

/** The start keys a query admits, inclusive (an event ends after it starts, so end limits cap the start too). */
function startRange(query: CandidateQuery): { floor: number; ceiling: number } {
  return {
    floor: Math.max(query.startMin ?? -Infinity, query.startAfter !== undefined ? query.startAfter + 1 : -Infinity),
    ceiling: Math.min(
      query.startBefore !== undefined ? query.startBefore - 1 : Infinity,
      query.endMax ?? Infinity,
      query.endBefore !== undefined ? query.endBefore - 1 : Infinity,
    ),
  };
}

/** The end keys a query admits, inclusive (keys are whole seconds). */
function endRange(query: CandidateQuery): { low: number; high: number } {
  return {
    low: query.endAfter !== undefined ? query.endAfter + 1 : -Infinity,
    high: Math.min(query.endMax ?? Infinity, query.endBefore !== undefined ? query.endBefore - 1 : Infinity),
  };
}

/** The bits of block `block` (positions 32 × block to 32 × block + 31) that lie in [first, end). */
function windowMask(block: number, first: number, end: number): number {
  const low = block << 5;
  let mask = -1;
  if (first > low) mask &= -1 << (first - low);
  if (end < low + 32) mask &= (1 << (end - low)) - 1;
  return mask;
}

/**
 * Written events whose keys and terms fit the query, split into those known to match and those
 * the exact query must check: unknown ones, and those whose words cannot be told
 * from their text here. Judging the words in memory spares every search after a write the exact
 * query over the events written since the snapshot (docs/performance-log.md).
 */
function judgeWritten(
  written: WrittenEvents,
  query: CandidateQuery,
): { known: { id: number; key: number }[]; unsure: number[] } {
  const known: { id: number; key: number }[] = [];
  const unsure: number[] = [];
  if (written.ids.size === 0) return { known, unsure };
  const { floor, ceiling } = startRange(query);
  const { low, high } = endRange(query);
  const termSets = query.termSets.map((set) => new Set(set));
  const fits = (event: repo.ListedEventWithTerms) =>
    event.start_key >= floor &&
    event.start_key <= ceiling &&
    event.end_key >= low &&
    event.end_key <= high &&
    termSets.every((set) => event.term_ids.some((id) => set.has(id)));
  for (const id of written.ids) {
    const event = written.state(id);
    if (event === null || (event !== undefined && !fits(event))) continue;
    const matches = event && wordsMatch(event, query);
    if (matches === undefined) unsure.push(id);
    else if (matches) known.push({ id, key: event.start_key });
  }
  return { known, unsure };
}

/** Whether a written event that fits the query's keys and terms has its words; undefined when that cannot be told here. */
function wordsMatch(event: repo.ListedEventWithTerms, query: CandidateQuery): boolean | undefined {
  if (!query.complete) return undefined;
  if (query.words.length === 0 && query.excluded.length === 0) return true;
  const { text } = event;
  if (text === undefined) return undefined;
  return query.words.every((word) => text.includes(word)) && !query.excluded.some((word) => text.includes(word));
}

/** Events in list order, by (start key, id), with other events merged in where they go (`b`, also in list order). */
export function mergeInListOrder(
  a: Candidates['matching'],
  b: readonly { id: number; key: number }[],
): Candidates['matching'] {
  if (b.length === 0) return a;
  const merged: Candidates['matching'] = { ids: [], keys: [] };
  let i = 0;
  let j = 0;
  while (i < a.ids.length || j < b.length) {
    const takeA =
      j >= b.length || (i < a.ids.length && (a.keys[i] < b[j].key || (a.keys[i] === b[j].key && a.ids[i] < b[j].id)));
    merged.ids.push(takeA ? a.ids[i] : b[j].id);
    merged.keys.push(takeA ? a.keys[i++] : b[j++].key);
  }
  return merged;
}

/** The first index of ascending `values` whose value is no longer `before` (all those before it are). */
function firstIndex(values: ArrayLike<number>, before: (value: number) => boolean): number {
  let low = 0;
  let high = values.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (before(values[middle])) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** Ids as bits, for ids up to `size` (larger ones cannot be listed events). */
function toBits(ids: ArrayLike<number>, size: number): Bits {
  const bits = new Uint8Array((size >> 3) + 1);
  for (let k = 0; k < ids.length; k++) if (ids[k] <= size) bits[ids[k] >> 3] |= 1 << (ids[k] & 7);
  return bits;
}

/**
 * A typed array filled in order, made for the count read before; grown only if more values come
 * (this process wrote meanwhile), and cut to the values given if fewer did.
 */
export class Filling<T extends Uint16Array | Int32Array | Float64Array> {
  length = 0;

  constructor(private array: T) {}

  push(value: number): void {
    if (this.length === this.array.length) this.grow();
    this.array[this.length++] = value;
  }

  filled(): T {
    return (this.length === this.array.length ? this.array : this.array.slice(0, this.length)) as T;
  }

  /** This filling if its array holds any 32-bit integer, else its values so far in one of 32-bit integers (same capacity). */
  widened(): Filling<T | Int32Array> {
    if (!(this.array instanceof Uint16Array)) return this;
    const wide = new Filling(new Int32Array(this.array.length));
    for (let i = 0; i < this.length; i++) wide.push(this.array[i]);
    return wide;
  }

  private grow(): void {
    const grown = new (this.array.constructor as new (length: number) => T)(
      Math.max(1024, Math.ceil(this.array.length * 1.25)),
    );
    grown.set(this.array);
    this.array = grown;
  }
}
