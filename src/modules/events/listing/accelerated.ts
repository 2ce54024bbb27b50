import type { DataVersion } from '../../../changes/data-version.js';
import type { Writes } from '../../../changes/writes.js';
import type { Config } from '../../../config.js';
import type { Db } from '../../../db/schema.js';
import type { RequestContext } from '../../../http/context.js';
import type { VersionedCache } from '../../../cache/lru.js';
import { languages } from '../../linked/linked.service.js';
import type { Languages } from '../../linked/linked.repository.js';
import * as posts from '../../posts/posts.repository.js';
import { viewerKey } from '../../posts/posts.viewer.js';
import * as repo from './listing.repository.js';
import { mergeInListOrder, type EventCandidates } from '../search/candidates.js';
import type { EventListing } from './listing.js';
import type { PlainListing } from './plain.js';
import { idArray, isWhole, patchable, patched, type KeptList, type PatchableList } from './kept-lists.js';
import { countMoved, unmovedBy } from './matches.js';

/** What the accelerated listing keeps between requests, all stamped with the data version. */
export interface ListingState {
  readonly db: Db;
  readonly config: Config;
  readonly plain: PlainListing;
  /** In-memory narrowing of public searches and counts (search/candidates.ts). */
  readonly candidates: EventCandidates;
  /** Totals per filter and reader, and how often each list was read (the "hot" rule). */
  readonly counts: VersionedCache<KeptCount>;
  readonly eventLists: VersionedCache<KeptList>;
  /** What tells which writes a kept entry has outlived, and how they moved events (matches.ts). */
  readonly versions: DataVersion;
  readonly writes: Writes;
}

/**
 * A count kept between requests. `exact`: it counted the writes published under its version and no
 * other (Writes.mark), so the events later writes move in and out of its list adjust it; otherwise
 * it is only kept while no write moves an event it may count.
 */
export interface KeptCount {
  n: number;
  exact: boolean;
  /** What a list total counted (hit counters have none): carried over and reconciled by it. */
  of?: { filter: repo.EventFilter; languages: Languages };
}

/**
 * The plain listing, accelerated: `total` counted once per distinct filter and reader until data
 * changes (in memory for public lists), searches narrowed in memory, and searches and lists read
 * again and again kept (whole, or their first pages) so that each page is a slice. What it cannot
 * answer goes to `plain`.
 */
export function acceleratedListing(state: ListingState): EventListing {
  return {
    async page(ctx, filter, page, perPage) {
      // A search reads the matching rows anyway, and a list of moderate size that is read again and
      // again is cheap to keep: one query gives the whole ordered set, its size is the total and each
      // page is a slice, until data changes. Other lists are read a page at a time with a cached count.
      // A list grouped by series is counted and paged by one read of its window, the first time.
      let first: { ids: number[]; total: number } | undefined;
      const counter =
        filter.collapse && !filter.include
          ? async () => (first = await state.plain.page(ctx, filter, page, perPage)).total
          : undefined;
      const total = filter.search ? undefined : await countOnce(ctx, state, filter, counter);
      if (first) return first;
      if (total === undefined || (await keepsPage(ctx, state, filter, total, page * perPage)))
        return keptPage(ctx, state, filter, page, perPage, total);
      return { ids: await state.plain.ids(ctx, filter, perPage, (page - 1) * perPage), total };
    },
  };
}

/**
 * A list is kept once read, since the last write, as often as reading it whole costs in pages: a
 * whole list reads every row, a page a few. A fixed count of four rebuilt the largest lists after every
 * write when writes are frequent (docs/performance-log.md, "Figures moved from code comments").
 */
const hotAfter = (total: number) => Math.max(4, Math.ceil(total / 1_000));

/**
 * Whether the page ending at the `end`th event of a list of `total` is read from a kept list: a
 * whole one, or of a longer list that writes patch, its head (the first pages), once hot.
 */
async function keepsPage(
  ctx: RequestContext,
  state: ListingState,
  filter: repo.EventFilter,
  total: number,
  end: number,
): Promise<boolean> {
  // Lists up to keptListMax events are kept whole (100,000 ids: under a megabyte). Of a longer list
  // (a site's default window once series add their occurrences), the pages readers page through.
  const { keptListMax, keptListHead } = state.config;
  if (total <= keptListMax) return isHot(ctx, state, filter, total);
  return patchable(filter) && end <= keptListHead && isHot(ctx, state, filter, keptListHead);
}

async function isHot(
  ctx: RequestContext,
  state: ListingState,
  filter: repo.EventFilter,
  total: number,
): Promise<boolean> {
  const key = `hits|${filterKey(ctx, filter)}`;
  const version = await ctx.dataVersion();
  // A list patched in place stays as hot as it was.
  const carry = patchable(filter) ? keptOver<KeptCount>(state, version) : unmoved<KeptCount>(state, filter, version);
  const hits = (state.counts.carried(key, version, carry)?.n ?? 0) + 1;
  state.counts.set(key, version, { n: hits, exact: false });
  return hits >= hotAfter(total);
}

function filterKey(ctx: RequestContext, filter: repo.EventFilter): string {
  const { caller, ...rest } = filter;
  return `events|${viewerKey(caller)}|${ctx.lang}|${JSON.stringify(rest)}`;
}

/**
 * Of a search with more matches than this, only the first ones are kept (at least up to the page
 * asked for): at a million events one search can match thousands, and a few hundred such whole
 * results filled the id budget that tens of thousands of first pages fit in.
 */
const SEARCH_HEAD = 500;

/** The ids of page `page` of a kept list, copied out, and the list's total. */
function pageOf(list: KeptList, page: number, perPage: number, total: number | undefined): PageOfList {
  const ids = Array.from(list.ids.subarray((page - 1) * perPage, page * perPage));
  return { ids, total: list.head ? (total ?? list.total) : list.total };
}

interface PageOfList {
  ids: number[];
  total: number;
}

/**
 * A page of the kept list of `filter`, read or made. The page is copied out before anything else
 * runs (before this function returns): writes patch kept lists in place (kept-lists.ts).
 */
async function keptPage(
  ctx: RequestContext,
  state: ListingState,
  filter: repo.EventFilter,
  page: number,
  perPage: number,
  total: number | undefined,
): Promise<PageOfList> {
  const needed = page * perPage;
  const key = filterKey(ctx, filter);
  const version = await ctx.dataVersion();
  const cached = state.eventLists.carried(key, version, carriedList(state, filter, version));
  if (cached && (isWhole(cached) || cached.ids.length >= needed)) return pageOf(cached, page, perPage, total);
  if (patchable(filter)) {
    const head = total !== undefined && total > state.config.keptListMax;
    const limit = head ? state.config.keptListHead : undefined;
    const rows = await repo.listEventKeys(state.db, filter, languages(state, ctx), limit);
    const list: KeptList = {
      ids: idArray(rows.map((row) => row.id)),
      keys: Float64Array.from(rows, (row) => row.key),
      total: head ? total : rows.length,
      ...(head && { head: true }),
    };
    state.eventLists.set(key, version, list);
    return pageOf(list, page, perPage, total);
  }
  const found = (await publicSearch(ctx, state, filter, version)) ?? (await state.plain.ids(ctx, filter));
  // The head kept of a long search still holds the page asked for (`needed` ids).
  const kept = {
    ids: idArray(filter.search && found.length > SEARCH_HEAD ? found.slice(0, Math.max(SEARCH_HEAD, needed)) : found),
    total: found.length,
  };
  state.eventLists.set(key, version, kept);
  return pageOf(kept, page, perPage, total);
}

/**
 * Words a search document answers alone (search/candidates.ts, migration 0007): three or more
 * printable ASCII characters without a space, so neither case folding nor the joins between the
 * fields of a document can make it differ from the §10 rule.
 */
const DOCUMENT_WORD = /^[\x21-\x7e]{3,}$/;

/**
 * A public search, narrowed in memory first (search/candidates.ts): the events known to match are
 * taken as they are, the unsure ones go through the exact query, and both are merged in list order.
 */
async function publicSearch(
  ctx: RequestContext,
  state: ListingState,
  filter: repo.EventFilter,
  version: string,
): Promise<number[] | undefined> {
  // The candidates merge in start order and know nothing of modification times.
  if (!filter.search || filter.include || filter.order || !posts.seesPublishedOnly(filter.caller)) return undefined;
  // The candidates know no series (API.md §20.2).
  if (filter.collapse || filter.seriesId !== undefined) return undefined;
  const { include: words, exclude: excluded } = filter.search;
  const complete = onlyWhatCandidatesKnow(filter) && [...words, ...excluded].every((word) => DOCUMENT_WORD.test(word));
  const lockedTitleOnly = filter.caller === null && filter.password === undefined;
  const found = await state.candidates.find(version, {
    ...filter,
    termSets: termSetsOf(filter),
    words,
    excluded,
    complete,
    lockedTitleOnly,
  });
  if (!found) return undefined;
  const checked =
    found.unsure.length === 0
      ? []
      : await repo.listEventKeys(state.db, { ...filter, candidateIds: found.unsure }, languages(state, ctx));
  return mergeInListOrder(found.matching, checked).ids;
}

const termSetsOf = (filter: repo.EventFilter) =>
  [filter.categoryIds, filter.tagIds].filter((ids): ids is number[] => ids !== undefined);

/** Besides words, the filter asks only what the in-memory candidates know: dates and terms. */
const onlyWhatCandidatesKnow = (filter: repo.EventFilter) =>
  [
    filter.venueIds,
    filter.organizerIds,
    filter.featured,
    filter.parentId,
    filter.geoloc,
    filter.near,
    filter.unprotected,
    filter.modifiedMin,
    filter.modifiedBefore,
    filter.order,
    // The candidates know no series (API.md §20.2).
    filter.collapse,
    filter.seriesId,
  ].every((value) => value === undefined);

/**
 * A public list without words counted in memory (search/candidates.ts), the events this process
 * wrote since the copy was made counted in SQL. After every write the count is taken again, and
 * in SQL the default window is slow to count at scale (docs/performance-log.md).
 */
async function publicCount(
  ctx: RequestContext,
  state: ListingState,
  filter: repo.EventFilter,
  version: string,
): Promise<number | undefined> {
  if (filter.search || filter.include || !posts.seesPublishedOnly(filter.caller) || !onlyWhatCandidatesKnow(filter))
    return undefined;
  const counted = await state.candidates.count(version, {
    ...filter,
    termSets: termSetsOf(filter),
    words: [],
    excluded: [],
    complete: true,
  });
  if (!counted) return undefined;
  const written =
    counted.unsure.length === 0
      ? []
      : await repo.listEventKeys(state.db, { ...filter, candidateIds: counted.unsure }, languages(state, ctx));
  return counted.known + written.length;
}

/**
 * `total` is counted once per distinct filter and reader (issue "benchmark harness"), then kept
 * across this process's writes: adjusted by the events they move in and out of the list, or, where
 * that cannot be told in memory, kept while they move none it may count (matches.ts).
 */
async function countOnce(
  ctx: RequestContext,
  state: ListingState,
  filter: repo.EventFilter,
  counter?: () => Promise<number>,
): Promise<number> {
  const version = await ctx.dataVersion();
  const key = filterKey(ctx, filter);
  const carried = state.counts.carried(key, version, carriedCount(state, version));
  if (carried) return carried.n;
  const counted = await state.counts.computed(key, version, async () => {
    const mark = state.writes.mark();
    const n = counter
      ? await counter()
      : ((await publicCount(ctx, state, filter, version)) ?? (await state.plain.count(ctx, filter)));
    return { n, exact: state.writes.settledSince(mark), of: { filter, languages: languages(state, ctx) } };
  });
  return counted.n;
}

/** What a reconciliation of the kept counts found (`POST /reconcile`, docs/api.md). */
export interface Reconciliation {
  checked: number;
  differences: number;
  details: { key: string; kept: number; counted: number }[];
}

/**
 * Counts every kept list total again in SQL, the plain way, and compares: a kept total that
 * differs is reported and dropped. Totals a write raced with are left for the next run.
 */
export async function reconcileCounts(state: ListingState): Promise<Reconciliation> {
  const found: Reconciliation = { checked: 0, differences: 0, details: [] };
  for (const key of state.counts.keys()) {
    const mark = state.writes.mark();
    const version = await state.versions.current();
    const kept = state.counts.carried(key, version, carriedCount(state, version));
    if (!kept?.of) continue;
    const counted = await repo.countEvents(state.db, kept.of.filter, kept.of.languages);
    if (!state.writes.settledSince(mark)) continue;
    found.checked += 1;
    if (counted === kept.n) continue;
    found.differences += 1;
    found.details.push({ key, kept: kept.n, counted });
    state.counts.delete(key);
  }
  return found;
}

/** Carries a kept total over to `version`: adjusted by the writes since if `exact`, else only if they moved none it may count. */
function carriedCount(state: ListingState, version: string) {
  return (storedUnder: string, count: KeptCount): KeptCount | undefined => {
    const writes = state.versions.movesSince(storedUnder, version);
    const filter = count.of?.filter;
    if (!writes || !filter) return undefined;
    let n = count.n;
    for (const moves of writes) {
      const moved = count.exact ? countMoved(filter, moves) : unmovedBy(filter, moves) ? 0 : undefined;
      if (moved === undefined) return undefined;
      n += moved;
    }
    return { ...count, n };
  };
}

/** Carries a kept entry over to `version` after any of this process's writes that said how they moved events. */
function keptOver<V>(state: ListingState, version: string) {
  return (storedUnder: string, value: V): V | undefined =>
    state.versions.movesSince(storedUnder, version) ? value : undefined;
}

/** Carries a kept list over to `version`: patched with the writes' moves when it can be, else only if they moved none it may hold. */
function carriedList(state: ListingState, filter: repo.EventFilter, version: string) {
  return (storedUnder: string, list: KeptList): KeptList | undefined => {
    const writes = state.versions.movesSince(storedUnder, version);
    if (!writes) return undefined;
    const { keys } = list;
    if (!keys || !(isWhole(list) || list.head) || !patchable(filter))
      return writes.every((moves) => unmovedBy(filter, moves)) ? list : undefined;
    let current: PatchableList = { ...list, keys };
    for (const moves of writes) for (const move of moves) current = patched(current, filter, move);
    return current.ids === list.ids ? list : current;
  };
}

/** Carries a kept entry of `filter` over to `version` if no write since moved an event it may hold. */
function unmoved<V>(state: ListingState, filter: repo.EventFilter, version: string) {
  return (storedUnder: string, value: V): V | undefined =>
    state.versions.movesSince(storedUnder, version)?.every((moves) => unmovedBy(filter, moves)) ? value : undefined;
}
