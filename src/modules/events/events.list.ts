import type { DateTime, Zone } from 'luxon';
import { invalidParam, invalidParams, type ParamProblem } from '../../errors.js';
import type { RequestContext } from '../../http/context.js';
import { formatSecondsInZone } from '../../http/dates.js';
import { parsePositiveInteger } from '../../http/params.js';
import { zoneOf } from '../../http/timezones.js';
import { ApiError } from '../../errors.js';
import { languages } from '../linked/linked.service.js';
import * as posts from '../posts/posts.repository.js';
import type { PostStatus } from '../posts/posts.rules.js';
import * as termsRepo from '../terms/terms.repository.js';
import { CATEGORIES, TAGS, type Taxonomy } from '../terms/taxonomies.js';
import * as repo from './events.repository.js';
import { parseSearchTerms } from './events.search.js';
import { viewerKey } from '../posts/posts.viewer.js';

export interface EventListInput {
  page: number;
  per_page: number;
  start_date?: DateTime;
  end_date?: DateTime;
  starts_before?: DateTime;
  starts_after?: DateTime;
  ends_before?: DateTime;
  ends_after?: DateTime;
  strict_dates: boolean;
  search?: string;
  categories?: string[];
  tags?: string[];
  venue?: number[];
  organizer?: number[];
  featured?: boolean;
  status?: PostStatus[];
  geoloc?: boolean;
  geoloc_lat?: number | null;
  geoloc_lng?: number | null;
  geoloc_radius?: number;
  include?: number[];
  post_parent?: number;
  password?: string;
}

/** The date bounds in effect (site-zone wall clock), for the query and for `rest_url` (API.md §18). */
export interface EffectiveBounds {
  start_date?: DateTime;
  end_date?: DateTime;
  starts_before?: DateTime;
  starts_after?: DateTime;
  ends_before?: DateTime;
  ends_after?: DateTime;
}

export interface EventPage {
  ids: number[];
  total: number;
  bounds: EffectiveBounds;
}

const RELATIVE = ['starts_before', 'starts_after', 'ends_before', 'ends_after'] as const;

/**
 * The date window of API.md §10: without any date parameter, events starting from the beginning of
 * yesterday and ending by the end of the day 24 months ahead (site zone); `start_date` rounds down to
 * its day and the others up to the end of theirs unless `strict_dates`; any `starts_*`/`ends_*`
 * drops the default bound it does not give; `include` ignores dates.
 */
export function effectiveBounds(ctx: RequestContext, input: EventListInput): EffectiveBounds {
  if (input.include) return {};
  const zone = zoneOf(ctx.config.siteTimezone);
  const startOfDay = (dt: DateTime) => (input.strict_dates ? dt : dayEdge(dt, zone, 'start'));
  const endOfDay = (dt: DateTime) => (input.strict_dates ? dt : dayEdge(dt, zone, 'end'));
  const relative = RELATIVE.some((name) => input[name] !== undefined);
  const window = relative ? undefined : defaultWindow(ctx);
  const bounds: EffectiveBounds = {
    start_date: input.start_date ? startOfDay(input.start_date) : window?.start,
    end_date: input.end_date ? endOfDay(input.end_date) : window?.end,
  };
  for (const name of RELATIVE) if (input[name]) bounds[name] = endOfDay(input[name]!).setZone(zone);
  if (bounds.start_date) bounds.start_date = bounds.start_date.setZone(zone);
  if (bounds.end_date) bounds.end_date = bounds.end_date.setZone(zone);
  return bounds;
}

const dayEdges = new Map<string, DateTime>();

/**
 * The first or last second of the day of `dt` in `zone`, remembered: lists ask for the same few
 * days again and again, and Luxon's zone arithmetic was a twentieth of a filtered list's time.
 */
function dayEdge(dt: DateTime, zone: Zone, edge: 'start' | 'end'): DateTime {
  const key = `${edge}|${zone.name}|${dt.toMillis()}`;
  let rounded = dayEdges.get(key);
  if (!rounded) {
    const local = dt.setZone(zone);
    rounded = edge === 'start' ? local.startOf('day') : local.endOf('day').set({ millisecond: 0 });
    if (dayEdges.size >= 1_000) dayEdges.clear();
    dayEdges.set(key, rounded);
  }
  return rounded;
}

let lastWindow: { key: string; start: DateTime; end: DateTime } | undefined;

/** The default window of the site-zone day of "now", computed once a day (most lists use it). */
function defaultWindow(ctx: RequestContext): { start: DateTime; end: DateTime } {
  const zone = zoneOf(ctx.config.siteTimezone);
  const key = `${ctx.config.siteTimezone}|${formatSecondsInZone(Math.floor(ctx.now.toSeconds()), zone, ctx.config.siteTimezone).slice(0, 10)}`;
  if (lastWindow?.key !== key) {
    const today = ctx.now.setZone(zone);
    lastWindow = { key, start: today.minus({ days: 1 }).startOf('day'), end: today.plus({ months: 24 }).endOf('day').set({ millisecond: 0 }) };
  }
  return lastWindow;
}

const instant = (dt: DateTime | undefined) => (dt ? Math.floor(dt.toSeconds()) : undefined);

/**
 * Term filters: slugs or ids of existing terms (else 400); a category brings its descendants.
 * Resolved once per distinct list of references and language until data changes.
 */
async function termFilter(ctx: RequestContext, taxonomy: Taxonomy, refs: string[], name: string, problems: Map<string, ParamProblem>): Promise<number[]> {
  const key = `terms|${taxonomy.key}|${ctx.lang}|${JSON.stringify(refs)}`;
  const version = await ctx.dataVersion();
  const cached = ctx.app.caches.idLists.get(key, version);
  if (cached) return cached;
  const ids = await resolveTerms(ctx, taxonomy, refs, name, problems);
  if (!problems.has(name)) ctx.app.caches.idLists.set(key, version, ids);
  return ids;
}

async function resolveTerms(ctx: RequestContext, taxonomy: Taxonomy, refs: string[], name: string, problems: Map<string, ParamProblem>): Promise<number[]> {
  const ids = refs.map((r) => parsePositiveInteger(r)).filter((id): id is number => id !== undefined);
  const known = await termsRepo.existingTermIds(ctx.db, taxonomy.key, ids);
  const bySlug = await termsRepo.termIdsBySlugs(ctx.db, taxonomy.key, refs.filter((r) => parsePositiveInteger(r) === undefined), languages(ctx));
  const resolved: number[] = [];
  const unknown: string[] = [];
  for (const ref of refs) {
    const id = parsePositiveInteger(ref) ?? bySlug.get(ref);
    if (id !== undefined && (bySlug.has(ref) || known.has(id))) resolved.push(id);
    else unknown.push(ref);
  }
  if (unknown.length > 0) problems.set(name, { message: 'unknown_term', vars: { value: unknown.join(', ') } });
  if (!taxonomy.hierarchical) return resolved;
  const tree = await termsRepo.slugPaths(ctx.db, taxonomy.key);
  const withDescendants = new Set(resolved);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [id, node] of tree) {
      if (!withDescendants.has(id) && withDescendants.has(node.parent)) {
        withDescendants.add(id);
        grew = true;
      }
    }
  }
  return [...withDescendants];
}

async function postsFilter(ctx: RequestContext, type: string, ids: number[] | undefined, name: string, problems: Map<string, ParamProblem>): Promise<void> {
  if (!ids) return;
  const known = await repo.existingPostIds(ctx.db, type, ids);
  if (ids.some((id) => !known.has(id))) problems.set(name, { message: 'invalid_parameter' });
}

async function buildFilter(ctx: RequestContext, input: EventListInput, bounds: EffectiveBounds): Promise<repo.EventFilter> {
  if ((input.geoloc_lat == null) !== (input.geoloc_lng == null)) {
    throw invalidParam(input.geoloc_lat == null ? 'geoloc_lat' : 'geoloc_lng', { message: 'geoloc_pair' });
  }
  const problems = new Map<string, ParamProblem>();
  const categoryIds = input.categories ? await termFilter(ctx, CATEGORIES, input.categories, 'categories', problems) : undefined;
  const tagIds = input.tags ? await termFilter(ctx, TAGS, input.tags, 'tags', problems) : undefined;
  await postsFilter(ctx, 'venue', input.venue, 'venue', problems);
  await postsFilter(ctx, 'organizer', input.organizer, 'organizer', problems);
  if (input.post_parent !== undefined && (await posts.postType(ctx.db, input.post_parent)) !== 'event') {
    problems.set('post_parent', { message: 'unknown_event', vars: { value: input.post_parent } });
  }
  if (problems.size > 0) throw invalidParams(problems);
  return {
    caller: ctx.caller,
    statuses: input.status,
    startMin: instant(bounds.start_date),
    endMax: instant(bounds.end_date),
    startBefore: instant(bounds.starts_before),
    startAfter: instant(bounds.starts_after),
    endBefore: instant(bounds.ends_before),
    endAfter: instant(bounds.ends_after),
    search: input.search !== undefined ? parseSearchTerms(input.search) : undefined,
    password: input.password,
    categoryIds,
    tagIds,
    venueIds: input.venue,
    organizerIds: input.organizer,
    featured: input.featured,
    parentId: input.post_parent,
    include: input.include,
    geoloc: input.geoloc === true ? true : undefined,
    near: input.geoloc_lat != null && input.geoloc_lng != null ? { lat: input.geoloc_lat, lng: input.geoloc_lng, radiusKm: input.geoloc_radius ?? 25 } : undefined,
  };
}

/** GET /events (API.md §10): filtered, visible, ordered by start; 404 past the last page. */
export async function listEventPage(ctx: RequestContext, input: EventListInput): Promise<EventPage> {
  const bounds = effectiveBounds(ctx, input);
  const filter = await buildFilter(ctx, input, bounds);
  const langs = languages(ctx);
  // A search reads the matching rows anyway, and a list of moderate size that is read again and
  // again is cheap to keep: one query gives the whole ordered set, its size is the total and each
  // page is a slice, until data changes. Other lists are read a page at a time with a cached count.
  const total = filter.search ? undefined : await countOnce(ctx, filter);
  if (total === undefined || (total <= WHOLE_LIST_LIMIT && (await isHot(ctx, filter, total)))) {
    const list = await keptList(ctx, filter, input.page * input.per_page);
    const ids = Array.from(list.ids.subarray((input.page - 1) * input.per_page, input.page * input.per_page));
    if (ids.length === 0 && input.page > 1) throw new ApiError('event-archive-page-not-found');
    return { ids, total: list.total, bounds };
  }
  const ids = await repo.listEventIds(ctx.db, filter, langs, input.per_page, (input.page - 1) * input.per_page);
  if (ids.length === 0 && input.page > 1) throw new ApiError('event-archive-page-not-found');
  return { ids, total, bounds };
}

/** Lists up to this many events are kept whole (ids only: under a megabyte). */
const WHOLE_LIST_LIMIT = 100_000;
/**
 * …once read, since the last write, as often as reading them whole costs in pages: a whole list
 * reads every row (~25 ms for 100,000), a page a few (~0.3 ms). A fixed count of four rebuilt the
 * largest lists after every write when writes are frequent (bench `mixed`: 3.7 ms per request).
 */
const hotAfter = (total: number) => Math.max(4, Math.ceil(total / 1_000));

async function isHot(ctx: RequestContext, filter: repo.EventFilter, total: number): Promise<boolean> {
  const key = `hits|${filterKey(ctx, filter)}`;
  const version = await ctx.dataVersion();
  const hits = (ctx.app.caches.counts.get(key, version) ?? 0) + 1;
  ctx.app.caches.counts.set(key, version, hits);
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

/**
 * An event list in order as kept between requests: its first `ids` (all of them unless a long
 * search) of `total`. Ids are kept in a typed array: the garbage collector skips its contents,
 * whereas it visits every element of a JavaScript array in each full collection (2,000,000 ids,
 * the budget of kept lists, in 4,000 lists: a full collection 5.1–7.2 → 3.1–3.4 ms, 17 MB less).
 */
export interface KeptList {
  ids: Int32Array | Float64Array;
  total: number;
}

const INT32_MAX = 2 ** 31 - 1;

/** Ids as the smallest typed array that holds them exactly. */
function idArray(ids: readonly number[]): Int32Array | Float64Array {
  return ids.every((id) => id <= INT32_MAX) ? Int32Array.from(ids) : Float64Array.from(ids);
}

async function keptList(ctx: RequestContext, filter: repo.EventFilter, needed: number): Promise<KeptList> {
  const key = filterKey(ctx, filter);
  const version = await ctx.dataVersion();
  const cached = ctx.app.caches.eventLists.get(key, version);
  if (cached && (cached.ids.length === cached.total || cached.ids.length >= needed)) return cached;
  const found = (await publicSearch(ctx, filter, version)) ?? (await repo.listEventIds(ctx.db, filter, languages(ctx)));
  // The head kept of a long search still holds the page asked for (`needed` ids).
  const kept = { ids: idArray(filter.search && found.length > SEARCH_HEAD ? found.slice(0, Math.max(SEARCH_HEAD, needed)) : found), total: found.length };
  ctx.app.caches.eventLists.set(key, version, kept);
  return kept;
}

/**
 * Words a search document answers alone (events.candidates.ts, migration 0007): three or more
 * printable ASCII characters without a space, so neither case folding nor the joins between the
 * fields of a document can make it differ from the §10 rule.
 */
const DOCUMENT_WORD = /^[\x21-\x7e]{3,}$/;

/**
 * A public search, narrowed in memory first (events.candidates.ts): the events known to match are
 * taken as they are, the unsure ones go through the exact query, and both are merged in list order.
 */
async function publicSearch(ctx: RequestContext, filter: repo.EventFilter, version: string): Promise<number[] | undefined> {
  if (!filter.search || filter.include || !posts.seesPublishedOnly(filter.caller)) return undefined;
  const { include: words, exclude: excluded } = filter.search;
  const complete = onlyWhatCandidatesKnow(filter) && [...words, ...excluded].every((word) => DOCUMENT_WORD.test(word));
  const lockedTitleOnly = filter.caller === null && filter.password === undefined;
  const found = await ctx.app.eventCandidates.find(version, { ...filter, termSets: termSetsOf(filter), words, excluded, complete, lockedTitleOnly });
  if (!found) return undefined;
  const checked = found.unsure.length === 0 ? [] : await repo.listEventKeys(ctx.db, { ...filter, candidateIds: found.unsure }, languages(ctx));
  return mergeInListOrder(found.matching, checked);
}

const termSetsOf = (filter: repo.EventFilter) => [filter.categoryIds, filter.tagIds].filter((ids): ids is number[] => ids !== undefined);

/** Besides words, the filter asks only what the in-memory candidates know: dates and terms. */
const onlyWhatCandidatesKnow = (filter: repo.EventFilter) =>
  [filter.venueIds, filter.organizerIds, filter.featured, filter.parentId, filter.geoloc, filter.near].every((value) => value === undefined);

/**
 * A public list without words counted in memory (events.candidates.ts), the events this process
 * wrote since the copy was made counted in SQL. After every write the count is taken again: in SQL
 * the default window took 60–110 ms at a million events on SQLite, and 150–340 ms at 100,000 on
 * PostgreSQL.
 */
async function publicCount(ctx: RequestContext, filter: repo.EventFilter, version: string): Promise<number | undefined> {
  if (filter.search || filter.include || !posts.seesPublishedOnly(filter.caller) || !onlyWhatCandidatesKnow(filter)) return undefined;
  const counted = await ctx.app.eventCandidates.count(version, { ...filter, termSets: termSetsOf(filter), words: [], excluded: [], complete: true });
  if (!counted) return undefined;
  const written = counted.unsure.length === 0 ? [] : await repo.listEventKeys(ctx.db, { ...filter, candidateIds: counted.unsure }, languages(ctx));
  return counted.known + written.length;
}

/** Two lists ordered by (start key, id), merged. */
function mergeInListOrder(a: { ids: number[]; keys: number[] }, b: readonly { id: number; key: number }[]): number[] {
  const merged: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.ids.length || j < b.length) {
    const takeA = j >= b.length || (i < a.ids.length && (a.keys[i] < b[j].key || (a.keys[i] === b[j].key && a.ids[i] < b[j].id)));
    merged.push(takeA ? a.ids[i++] : b[j++].id);
  }
  return merged;
}

/** `total` is counted once per distinct filter and reader until data changes (issue "benchmark harness"). */
async function countOnce(ctx: RequestContext, filter: repo.EventFilter): Promise<number> {
  const version = await ctx.dataVersion();
  return ctx.app.caches.counts.computed(filterKey(ctx, filter), version, async () => (await publicCount(ctx, filter, version)) ?? repo.countEvents(ctx.db, filter, languages(ctx)));
}
