import { sql, type Expression, type Selectable, type SqlBool } from 'kysely';
import type { Caller } from '../../auth/caller.js';
import { callerCan } from '../../auth/caller.js';
import type { EventsTable, Executor } from '../../db/schema.js';
import { columnSlots, compiledOnce, type Slots } from '../../db/compiled.js';
import type { OffThreadReader } from '../../db/off-thread.js';
import { containsIgnoringCase, dialectOfExecutor, documentsContaining, listParameter, idTable, inList, mayContain } from '../../db/dialect.js';
import { translatedColumn } from '../../db/translations.js';
import type { ImageRow } from '../images/images.js';
import type { Languages } from '../linked/linked.repository.js';
import { postColumns, visibleTo } from '../posts/posts.repository.js';

/** An event with its translatable text resolved for the request language. */
export interface EventRow extends ImageRow, Omit<EventColumns, 'start_key' | 'end_key'> {
  id: number;
  slug: string;
  lang: string;
  password: string;
  parent_id: number;
  published_at: number;
  modified_at: number;
  title: string;
  description: string;
  excerpt: string;
  /** Linked term and organizer ids, in link order. */
  term_ids: number[];
  organizer_ids: number[];
}

type EventRowWithoutLinks = Omit<EventRow, 'term_ids' | 'organizer_ids'>;

function selectEvents(db: Executor, { lang, defaultLang }: Languages) {
  return db
    .selectFrom('posts')
    .innerJoin('events', 'events.post_id', 'posts.id')
    .leftJoin('post_translations as tr_req', (join) => join.onRef('tr_req.post_id', '=', 'posts.id').on('tr_req.lang', '=', lang))
    .leftJoin('post_translations as tr_def', (join) => join.onRef('tr_def.post_id', '=', 'posts.id').on('tr_def.lang', '=', defaultLang))
    .leftJoin('images', 'images.id', 'posts.image_id')
    .select([
      ...postColumns(lang, defaultLang),
      'posts.parent_id',
      'events.start_utc',
      'events.end_utc',
      'events.timezone',
      'events.all_day',
      'events.cost',
      'events.currency_symbol',
      'events.currency_code',
      'events.currency_position',
      'events.website',
      'events.show_map',
      'events.show_map_link',
      'events.hide_from_listings',
      'events.sticky',
      'events.featured',
      'events.venue_id',
    ]);
}

const commaSeparated = (ids: string | null) => (ids ? ids.split(',').map(Number) : []);
/** PostgreSQL: an event's link ids in `table`, in link order, comma-separated (null without links). */
const pgLinkedIds = (table: 'event_terms' | 'event_organizers', column: 'term_id' | 'organizer_id') =>
  sql<string | null>`(SELECT string_agg(${sql.ref(column)}::text, ',' ORDER BY position, ${sql.ref(column)}) FROM ${sql.table(table)} WHERE event_id = posts.id)`;

type RowsByIdsSlots = Slots<[lang: Languages['lang'], defaultLang: Languages['defaultLang'], ids: unknown]>;
const eventRowsByIds = compiledOnce((db, slot: RowsByIdsSlots) => selectEvents(db, { lang: slot(0), defaultLang: slot(1) }).where(inList(db, 'posts.id', slot(2))));
const eventRowsWithLinksByIds = compiledOnce((db, slot: RowsByIdsSlots) =>
  selectEvents(db, { lang: slot(0), defaultLang: slot(1) })
    .select([pgLinkedIds('event_terms', 'term_id').as('term_ids'), pgLinkedIds('event_organizers', 'organizer_id').as('organizer_ids')])
    .where(inList(db, 'posts.id', slot(2))),
);
const termLinksByIds = compiledOnce((db, slot: Slots<[ids: unknown]>) =>
  db.selectFrom('event_terms').select(['event_id', 'term_id as id']).where(inList(db, 'event_id', slot(0))).orderBy('event_id').orderBy('position').orderBy('term_id'),
);
const organizerLinksByIds = compiledOnce((db, slot: Slots<[ids: unknown]>) =>
  db.selectFrom('event_organizers').select(['event_id', 'organizer_id as id']).where(inList(db, 'event_id', slot(0))).orderBy('event_id').orderBy('position').orderBy('organizer_id'),
);

function groupedIds(links: readonly { event_id: number; id: number }[]): Map<number, number[]> {
  const byEvent = new Map<number, number[]>();
  for (const link of links) byEvent.set(link.event_id, [...(byEvent.get(link.event_id) ?? []), link.id]);
  return byEvent;
}

/**
 * Events' rows with their link ids. PostgreSQL brings the ids in the same round trip; SQLite, in
 * process, reads them with two indexed queries, cheaper there than per-row ordered aggregates.
 */
async function eventsWithLinks(db: Executor, { lang, defaultLang }: Languages, ids: readonly number[]): Promise<EventRow[]> {
  const idList = listParameter(db, ids);
  if (dialectOfExecutor(db) === 'postgres') {
    const rows = await eventRowsWithLinksByIds(db, [lang, defaultLang, idList]);
    return rows.map((row) => ({ ...(row as unknown as EventRowWithoutLinks), term_ids: commaSeparated(row.term_ids), organizer_ids: commaSeparated(row.organizer_ids) }));
  }
  const [rows, terms, organizers] = await Promise.all([eventRowsByIds(db, [lang, defaultLang, idList]), termLinksByIds(db, [idList]), organizerLinksByIds(db, [idList])]);
  const [termsOf, organizersOf] = [groupedIds(terms), groupedIds(organizers)];
  return (rows as unknown as EventRowWithoutLinks[]).map((row) => ({ ...row, term_ids: termsOf.get(row.id) ?? [], organizer_ids: organizersOf.get(row.id) ?? [] }));
}

export async function findEvent(db: Executor, id: number, languages: Languages): Promise<EventRow | undefined> {
  return (await eventsWithLinks(db, languages, [id]))[0];
}

export interface SearchTerms {
  include: string[];
  exclude: string[];
}

export interface EventFilter {
  caller: Caller | null;
  statuses?: readonly string[];
  startMin?: number;
  startBefore?: number;
  startAfter?: number;
  endMax?: number;
  endBefore?: number;
  endAfter?: number;
  search?: SearchTerms;
  password?: string;
  categoryIds?: number[];
  tagIds?: number[];
  venueIds?: number[];
  organizerIds?: number[];
  featured?: boolean;
  parentId?: number;
  include?: number[];
  geoloc?: boolean;
  near?: { lat: number; lng: number; radiusKm: number };
  /** A superset of the result already narrowed in memory (events.candidates.ts); every condition still applies. */
  candidateIds?: readonly number[];
}

/** Whether the caller may edit the event in `posts` (API.md §4), as SQL: such callers see protected text. */
function editableBy(caller: Caller | null): Expression<SqlBool> {
  if (!caller || !callerCan(caller, 'edit_own_posts')) return sql<SqlBool>`1 = 0`;
  if (callerCan(caller, 'edit_others_posts')) return sql<SqlBool>`1 = 1`;
  const own = sql<SqlBool>`events.author_id = ${caller.userId}`;
  return callerCan(caller, 'edit_own_published_posts') ? own : sql<SqlBool>`(${own} AND events.status NOT IN ('publish', 'future'))`;
}

/**
 * `search` (API.md §10): every word in the title, excerpt or description; `-word` in none. The
 * excerpt and description of a protected event the caller has not unlocked are never searched (§18).
 */
function searchCondition(db: Executor, terms: SearchTerms, filter: EventFilter, languages: Languages): Expression<SqlBool> {
  const title = translatedColumn('posts', 'title', languages.lang, languages.defaultLang);
  const excerpt = translatedColumn('posts', 'excerpt', languages.lang, languages.defaultLang);
  const description = translatedColumn('posts', 'description', languages.lang, languages.defaultLang);
  // Never NULL: a NULL here would turn `NOT matches` into NULL and let `-word` probe hidden text.
  const unlocked = sql<SqlBool>`(posts.password = '' OR posts.password = ${filter.password ?? ''} OR ${editableBy(filter.caller)})`;
  const matches = (word: string) =>
    sql<SqlBool>`(${containsIgnoringCase(db, title, word)} OR (${unlocked} AND (${containsIgnoringCase(db, excerpt, word)} OR ${containsIgnoringCase(db, description, word)})))`;
  const clauses = [...terms.include.map(matches), ...terms.exclude.map((word) => sql<SqlBool>`NOT ${matches(word)}`)];
  return sql<SqlBool>`(${sql.join(clauses, sql` AND `)})`;
}

function withTerm(ids: number[]): Expression<SqlBool> {
  return sql<SqlBool>`EXISTS (SELECT 1 FROM event_terms et WHERE et.event_id = events.post_id AND et.term_id IN (${sql.join(ids)}))`;
}

const hasSearch = (filter: EventFilter) => filter.search !== undefined && filter.search.include.length + filter.search.exclude.length > 0;

/** The events table, or only the given candidates' rows, looked up one by one instead of scanning an index range. */
function eventRows(db: Executor, filter: EventFilter) {
  if (!filter.candidateIds) return db.selectFrom('events');
  return db
    .selectFrom(idTable(db, filter.candidateIds, 'candidate'))
    .crossJoin('events')
    .where(sql<SqlBool>`events.post_id = candidate.value`) as unknown as ReturnType<typeof eventsTable>;
}

const eventsTable = (db: Executor) => db.selectFrom('events');

/** The conditions on the events table alone: they use the listing indexes (migration 0004). */
function eventConditions(db: Executor, filter: EventFilter) {
  let q = eventRows(db, filter).where(visibleTo('events', filter.caller, filter.statuses)).where('events.hide_from_listings', '=', 0);
  if (filter.startMin !== undefined) q = q.where('events.start_key', '>=', filter.startMin);
  if (filter.startBefore !== undefined) q = q.where('events.start_key', '<', filter.startBefore);
  if (filter.startAfter !== undefined) q = q.where('events.start_key', '>', filter.startAfter);
  if (filter.endMax !== undefined) q = q.where('events.end_key', '<=', filter.endMax);
  if (filter.endBefore !== undefined) q = q.where('events.end_key', '<', filter.endBefore);
  // No event ends before it starts: an upper bound on the end bounds the start, and so the index range.
  const startCeiling = Math.min(filter.endMax ?? Infinity, (filter.endBefore ?? Infinity) - 1);
  if (startCeiling !== Infinity) q = q.where('events.start_key', '<=', startCeiling);
  if (filter.endAfter !== undefined) q = q.where('events.end_key', '>', filter.endAfter);
  if (filter.categoryIds) q = q.where(withTerm(filter.categoryIds));
  if (filter.tagIds) q = q.where(withTerm(filter.tagIds));
  if (filter.venueIds) q = q.where('events.venue_id', 'in', filter.venueIds);
  if (filter.organizerIds) {
    const ids = filter.organizerIds;
    q = q.where(sql<SqlBool>`EXISTS (SELECT 1 FROM event_organizers eo WHERE eo.event_id = events.post_id AND eo.organizer_id IN (${sql.join(ids)}))`);
  }
  if (filter.featured !== undefined) q = q.where('events.featured', '=', filter.featured ? 1 : 0);
  if (filter.include) q = q.where('events.post_id', 'in', filter.include);
  // Candidates were narrowed by the same word index: applying it again would only cost.
  for (const word of filter.candidateIds ? [] : (filter.search?.include ?? [])) {
    const prefilter = mayContain(db, sql.ref('events.post_id'), word);
    if (prefilter) q = q.where(prefilter);
  }
  if (filter.geoloc) q = q.where(sql<SqlBool>`EXISTS (SELECT 1 FROM venues v WHERE v.post_id = events.venue_id AND v.geo_lat IS NOT NULL AND v.geo_lng IS NOT NULL)`);
  if (filter.near) {
    const { lat, lng, radiusKm } = filter.near;
    q = q.where(
      sql<SqlBool>`EXISTS (SELECT 1 FROM venues v WHERE v.post_id = events.venue_id AND v.geo_lat IS NOT NULL AND v.geo_lng IS NOT NULL AND calendar_distance_km(${lat}, ${lng}, v.geo_lat, v.geo_lng) <= ${radiusKm})`,
    );
  }
  return q;
}

/**
 * The filtered set. Without `search` or `post_parent` it is the events table alone, so lists are
 * ordered index ranges that stop after one page. Those two filters need the posts rows (with their
 * long descriptions): the candidates are then narrowed on the events table first and materialised,
 * so that only their posts rows are read — both planners would otherwise read every row of the window.
 */
function filtered(db: Executor, filter: EventFilter, languages: Languages) {
  const base = eventConditions(db, filter);
  if (!hasSearch(filter) && filter.parentId === undefined) return base;
  const candidates = base.select(['events.post_id', 'events.start_key', 'events.status', 'events.author_id']);
  let q = db
    .with((cte) => cte('candidates').materialized(), () => candidates)
    .selectFrom('candidates as events')
    .innerJoin('posts', 'posts.id', 'events.post_id')
    .leftJoin('post_translations as tr_req', (join) => join.onRef('tr_req.post_id', '=', 'events.post_id').on('tr_req.lang', '=', languages.lang))
    .leftJoin('post_translations as tr_def', (join) => join.onRef('tr_def.post_id', '=', 'events.post_id').on('tr_def.lang', '=', languages.defaultLang)) as unknown as typeof base;
  if (filter.parentId !== undefined) q = q.where(sql<SqlBool>`posts.parent_id = ${filter.parentId}`);
  if (hasSearch(filter)) q = q.where(searchCondition(db, filter.search!, filter, languages));
  return q;
}

/**
 * Ids of the filtered set in list order (start, then id; `include`: as listed): one page, or with
 * `limit` undefined all of them.
 */
export async function listEventIds(db: Executor, filter: EventFilter, languages: Languages, limit?: number, offset = 0): Promise<number[]> {
  let q = filtered(db, filter, languages).select('events.post_id as id');
  if (filter.include) {
    const cases = sql.join(filter.include.map((id, i) => sql`WHEN ${id} THEN ${i}`), sql` `);
    q = q.orderBy(sql`CASE events.post_id ${cases} END`).orderBy('events.post_id');
  } else {
    q = q.orderBy('events.start_key').orderBy('events.post_id');
  }
  if (limit !== undefined) q = q.limit(limit).offset(offset);
  return (await q.execute()).map((row) => row.id);
}

/** The filtered set in list order with each event's start key (for merging with other ordered ids). */
export async function listEventKeys(db: Executor, filter: EventFilter, languages: Languages): Promise<{ id: number; key: number }[]> {
  return filtered(db, filter, languages).select(['events.post_id as id', 'events.start_key as key']).orderBy('events.start_key').orderBy('events.post_id').execute();
}

export async function countEvents(db: Executor, filter: EventFilter, languages: Languages): Promise<number> {
  const row = await filtered(db, filter, languages)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Full rows of the given events, in the order of `ids`. */
export async function findEvents(db: Executor, ids: readonly number[], languages: Languages): Promise<EventRow[]> {
  if (ids.length === 0) return [];
  const rows = await eventsWithLinks(db, languages, ids);
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.map((id) => byId.get(id)).filter((row): row is EventRow => row !== undefined);
}

/** An event's own columns as stored (all of them on insert), derived from the table's schema. */
export type EventColumns = Omit<Selectable<EventsTable>, 'post_id'>;

const EVENT_COLUMNS = [
  'start_utc', 'end_utc', 'start_key', 'end_key', 'timezone', 'all_day', 'cost', 'currency_symbol', 'currency_code', 'currency_position',
  'website', 'show_map', 'show_map_link', 'hide_from_listings', 'sticky', 'featured', 'venue_id', 'status', 'author_id',
] as const satisfies readonly (keyof EventColumns)[];
const insertEventRow = compiledOnce((db, slot: Slots<[postId: number, ...columns: unknown[]]>) =>
  db.insertInto('events').values({ post_id: slot(0), ...columnSlots<EventColumns, (typeof EVENT_COLUMNS)[number]>(EVENT_COLUMNS, slot, 1) }),
);

export async function insertEventColumns(db: Executor, postId: number, columns: EventColumns): Promise<void> {
  await insertEventRow(db, [postId, ...EVENT_COLUMNS.map((column) => columns[column])]);
}

export async function updateEventColumns(db: Executor, postId: number, columns: Partial<EventColumns>): Promise<void> {
  if (Object.keys(columns).length === 0) return;
  await db.updateTable('events').set(columns).where('post_id', '=', postId).execute();
}

export async function setOrganizers(db: Executor, eventId: number, organizerIds: readonly number[]): Promise<void> {
  await db.deleteFrom('event_organizers').where('event_id', '=', eventId).execute();
  const unique = [...new Set(organizerIds)];
  if (unique.length === 0) return;
  await db
    .insertInto('event_organizers')
    .values(unique.map((organizerId, position) => ({ event_id: eventId, organizer_id: organizerId, position })))
    .execute();
}

const eventTermIdsOfTaxonomy = compiledOnce((db, slot: Slots<[eventId: number, taxonomy: string]>) =>
  db
    .selectFrom('event_terms')
    .innerJoin('terms', 'terms.id', 'event_terms.term_id')
    .select('event_terms.term_id')
    .where('event_terms.event_id', '=', slot(0))
    .where('terms.taxonomy', '=', slot(1)),
);

const deleteEventTerms = compiledOnce((db, slot: Slots<[eventId: number, termIds: unknown]>) => db.deleteFrom('event_terms').where('event_id', '=', slot(0)).where(inList(db, 'term_id', slot(1))));

const insertEventTerm = compiledOnce((db, slot: Slots<[eventId: number, termId: number, position: number]>) =>
  db.insertInto('event_terms').values({ event_id: slot(0), term_id: slot(1), position: slot(2) }),
);

/** Replaces the event's terms of one taxonomy (compiled once: most event writes set terms). */
export async function setTerms(db: Executor, eventId: number, taxonomy: string, termIds: readonly number[]): Promise<void> {
  const previous = await eventTermIdsOfTaxonomy(db, [eventId, taxonomy]);
  if (previous.length > 0) await deleteEventTerms(db, [eventId, listParameter(db, previous.map((r) => r.term_id))]);
  const unique = [...new Set(termIds)];
  for (const [position, termId] of unique.entries()) await insertEventTerm(db, [eventId, termId, position]);
}

const termIdsOfEventRows = compiledOnce((db, slot: Slots<[eventId: number]>) => db.selectFrom('event_terms').select('term_id').where('event_id', '=', slot(0)));

export async function termIdsOfEvent(db: Executor, eventId: number): Promise<number[]> {
  return (await termIdsOfEventRows(db, [eventId])).map((r) => r.term_id);
}

/** Existing post ids of a type among `ids`. */
export async function existingPostIds(db: Executor, type: string, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom('posts').select('id').where('type', '=', type).where('id', 'in', [...ids]).execute();
  return new Set(rows.map((r) => r.id));
}

/** All-day events' sort keys depend on the site zone: recomputed when it changes (see events.service). */
export async function allDayEvents(db: Executor): Promise<{ post_id: number; start_utc: number; end_utc: number; timezone: string }[]> {
  return db.selectFrom('events').select(['post_id', 'start_utc', 'end_utc', 'timezone']).where('all_day', '=', 1).execute();
}

/** What term counts depend on: whether the event is published, and its terms. */
export interface CountState {
  published: boolean;
  termIds: number[];
}

const postStatus = compiledOnce((db, slot: Slots<[postId: number]>) => db.selectFrom('posts').select('status').where('id', '=', slot(0)));
const lockedPostStatus = compiledOnce((db, slot: Slots<[postId: number]>) => db.selectFrom('posts').select('status').where('id', '=', slot(0)).forUpdate());

/**
 * The event's count state inside a write's transaction. On PostgreSQL the post row is locked so
 * concurrent writers of the same event apply their count changes one after the other.
 */
export async function countState(db: Executor, eventId: number, lock: boolean): Promise<CountState> {
  const [post] = await (lock ? lockedPostStatus : postStatus)(db, [eventId]);
  return { published: post?.status === 'publish', termIds: post ? await termIdsOfEvent(db, eventId) : [] };
}

/** Per-term change of the published-event count between two states of one event. */
export function countDeltas(before: CountState, after: CountState): Map<number, number> {
  const deltas = new Map<number, number>();
  if (before.published) for (const id of before.termIds) deltas.set(id, (deltas.get(id) ?? 0) - 1);
  if (after.published) for (const id of after.termIds) deltas.set(id, (deltas.get(id) ?? 0) + 1);
  return deltas;
}

/** One version of an event's text; a translation may leave fields to the original (null). */
interface SearchableText {
  title: string | null;
  excerpt: string | null;
  description: string | null;
}

const ASCII = /^[\x00-\x7f]*$/;

/**
 * An event's search document: every version of its text in one body (migration 0006), and whether
 * the body alone answers a search word (migration 0007): one version, no password, plain ASCII.
 */
export function searchDocument(versions: readonly SearchableText[], password: string): { body: string; exact: number } {
  const body = versions.flatMap((text) => [text.title, text.excerpt, text.description]).filter((part) => part).join(' ');
  return { body, exact: password === '' && versions.length === 1 && ASCII.test(body) ? 1 : 0 };
}

const postText = compiledOnce((db, slot: Slots<[postId: number]>) => db.selectFrom('posts').select(['title', 'excerpt', 'description', 'password']).where('id', '=', slot(0)));
const translatedTexts = compiledOnce((db, slot: Slots<[postId: number]>) => db.selectFrom('post_translations').select(['title', 'excerpt', 'description']).where('post_id', '=', slot(0)));
const upsertSearchDocument = compiledOnce((db, slot: Slots<[postId: number, body: string, exact: number]>) =>
  db
    .insertInto('search_documents')
    .values({ post_id: slot(0), body: slot(1), exact: slot(2) })
    .onConflict((conflict) => conflict.column('post_id').doUpdateSet({ body: slot(1), exact: slot(2) })),
);

/** Rebuilds the event's search document from every stored version of its text (on every event write: compiled once). */
export async function refreshSearchDocument(db: Executor, eventId: number): Promise<void> {
  const [post] = await postText(db, [eventId]);
  if (!post) return;
  const translations = await translatedTexts(db, [eventId]);
  const { body, exact } = searchDocument([post, ...translations], post.password);
  await upsertSearchDocument(db, [eventId, body, exact]);
}

/**
 * Events whose search document alone does not answer a word (see searchDocument), with the title
 * of those that are protected and have no translation: a reader who has not unlocked them searches
 * that title alone (API.md §18).
 */
export async function inexactSearchDocuments(db: Executor): Promise<{ post_id: number; locked_title: string | null }[]> {
  // A literal, not a parameter: only then may the planners use the partial index (migration 0008).
  return db
    .selectFrom('search_documents')
    .innerJoin('posts', 'posts.id', 'search_documents.post_id')
    .select([
      'search_documents.post_id',
      sql<string | null>`CASE WHEN posts.password <> '' AND NOT EXISTS (SELECT 1 FROM post_translations t WHERE t.post_id = posts.id) THEN posts.title END`.as('locked_title'),
    ])
    .where(sql<SqlBool>`search_documents.exact = 0`)
    .execute();
}

/** A published, listed event as the in-memory candidate index keeps it (events.candidates.ts). */
export interface ListedEvent {
  post_id: number;
  start_key: number;
  end_key: number;
}

/** How many events lists show (published, listed): what a snapshot of them will hold. */
export async function countListedEvents(db: Executor): Promise<number> {
  const row = await db.selectFrom('events').select((eb) => eb.fn.countAll<number>().as('count')).where('status', '=', 'publish').where('hide_from_listings', '=', 0).executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Published events shown in lists, in list order, after the given one: the index reads them in chunks. */
export async function listedEventsAfter(db: Executor, after: ListedEvent | undefined, limit: number): Promise<ListedEvent[]> {
  let q = db
    .selectFrom('events')
    .select(['post_id', 'start_key', 'end_key'])
    .where('status', '=', 'publish')
    .where('hide_from_listings', '=', 0);
  if (after) q = q.where(sql<SqlBool>`(start_key, post_id) > (${after.start_key}, ${after.post_id})`);
  return q.orderBy('start_key').orderBy('post_id').limit(limit).execute();
}

/** A written event as the candidate index sees it: listed (published, shown in lists) with its keys and terms, or absent. */
export interface ListedEventWithTerms extends ListedEvent {
  term_ids: number[];
}

/** Which of the given events are listed, with their keys and terms (events.candidates.ts: events written since its snapshot). */
export async function listedEventsByIds(db: Executor, ids: readonly number[]): Promise<ListedEventWithTerms[]> {
  if (ids.length === 0) return [];
  const idList = listParameter(db, ids);
  const [rows, links] = await Promise.all([
    db.selectFrom('events').select(['post_id', 'start_key', 'end_key']).where('status', '=', 'publish').where('hide_from_listings', '=', 0).where(inList(db, 'post_id', idList)).execute(),
    termLinksByIds(db, [idList]),
  ]);
  const termsOf = groupedIds(links);
  return rows.map((row) => ({ ...row, term_ids: termsOf.get(row.post_id) ?? [] }));
}

/** How many event–term links there are, and the largest term id linked: how long a snapshot's term list is, and how wide its numbers. */
export async function eventTermLinkStats(db: Executor): Promise<{ links: number; maxTermId: number }> {
  const row = await db
    .selectFrom('event_terms')
    .select((eb) => [eb.fn.countAll<number>().as('links'), eb.fn.max('term_id').as('max_term_id')])
    .executeTakeFirstOrThrow();
  return { links: Number(row.links), maxTermId: Number(row.max_term_id ?? 0) };
}

/** Event–term links in (event, term) order after the given one. */
export async function eventTermsAfter(db: Executor, after: { event_id: number; term_id: number } | undefined, limit: number): Promise<{ event_id: number; term_id: number }[]> {
  let q = db.selectFrom('event_terms').select(['event_id', 'term_id']);
  if (after) q = q.where(sql<SqlBool>`(event_id, term_id) > (${after.event_id}, ${after.term_id})`);
  return q.orderBy('event_id').orderBy('term_id').limit(limit).execute();
}

/**
 * Events whose text may contain `word` (see db/dialect.ts), or undefined when the word is too
 * short to narrow; read on `offThread` when given (SQLite files).
 */
export async function eventsThatMayContain(db: Executor, word: string, offThread?: OffThreadReader): Promise<ArrayLike<number> | undefined> {
  const documents = documentsContaining(db, word);
  if (!documents) return undefined;
  if (offThread?.available) {
    const { sql: text, parameters } = documents.compile(db);
    return offThread.ids(text, parameters);
  }
  const { rows } = await documents.execute(db);
  return rows.map((row) => Number(row.post_id));
}
