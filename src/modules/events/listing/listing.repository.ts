import { expressionBuilder, sql, type Expression, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { Caller } from '../../../auth/caller.js';
import { callerCan } from '../../../auth/caller.js';
import type { Database, Executor } from '../../../db/schema.js';
import { containsIgnoringCase, idTable, mayContain } from '../../../db/dialect.js';
import { translatedColumn } from '../../../db/translations.js';
import type { Languages } from '../../linked/linked.repository.js';
import { visibleTo } from '../../posts/posts.repository.js';

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
  /** Lists events hidden from listings too (`context=edit`, API.md §18, for copies of a calendar). */
  includeHidden?: boolean;
  /** Leaves out password-protected events (iCalendar feeds, API.md §19: what any subscriber may see in full). */
  unprotected?: boolean;
  /**
   * `expand=false` (API.md §20.2): occurrences stand for their series, each series once, placed at
   * its first matching occurrence; filters still apply to the occurrences.
   */
  collapse?: boolean;
  /** Only this series' occurrences, those hidden from listings included (GET /events/{id}/occurrences, API.md §20.2). */
  seriesId?: number;
  /** A superset of the result already narrowed in memory (search/candidates.ts); every condition still applies. */
  candidateIds?: readonly number[];
  /** Last modified at or after / before these instants (API.md §21). */
  modifiedMin?: number;
  modifiedBefore?: number;
  /** Another order than start then id ascending (`orderby`, `order`, API.md §21). */
  order?: { by: 'start' | 'modified'; desc: boolean };
}

/** The post's last modification, read from the event row's own post. */
const MODIFIED = sql<number>`(SELECT p.modified_at FROM posts p WHERE p.id = events.post_id)`;

/** Whether the caller may edit the event in `posts` (API.md §4), as SQL: such callers see protected text. */
function editableBy(caller: Caller | null): Expression<SqlBool> {
  if (!caller || !callerCan(caller, 'edit_own_posts')) return sql<SqlBool>`1 = 0`;
  if (callerCan(caller, 'edit_others_posts')) return sql<SqlBool>`1 = 1`;
  const own = sql<SqlBool>`events.author_id = ${caller.userId}`;
  return callerCan(caller, 'edit_own_published_posts')
    ? own
    : sql<SqlBool>`(${own} AND events.status NOT IN ('publish', 'future'))`;
}

/**
 * `search` (API.md §10): every word in the title, excerpt or description; `-word` in none. The
 * excerpt and description of a protected event the caller has not unlocked are never searched (§18).
 */
function searchCondition(
  db: Executor,
  terms: SearchTerms,
  filter: EventFilter,
  languages: Languages,
): Expression<SqlBool> {
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

const hasSearch = (filter: EventFilter): filter is EventFilter & { search: SearchTerms } =>
  filter.search !== undefined && filter.search.include.length + filter.search.exclude.length > 0;

/** Typed conditions on and references to the `events` table, whichever query they end up in. */
const events = expressionBuilder<Database, 'events'>();

/** What the listing runs on the filtered set: its selections are ordered, paged and executed. */
interface RowsQuery<Row> {
  orderBy(expression: Expression<unknown>, direction?: 'asc' | 'desc'): RowsQuery<Row>;
  limit(limit: number): RowsQuery<Row>;
  offset(offset: number): RowsQuery<Row>;
  execute(): Promise<Row[]>;
  executeTakeFirstOrThrow(): Promise<Row>;
}

/**
 * The filtered set, selected as each caller needs it (building a selection runs nothing). Its query
 * has one of three shapes (see filtered), all reading like `SELECT … FROM events`: each shape makes
 * the selections, so callers get typed rows whatever the shape.
 */
interface FilteredSet {
  ids: RowsQuery<{ id: number }>;
  keys: RowsQuery<{ id: number; key: number }>;
  count: RowsQuery<{ n: number }>;
  /** Each row as its series (or itself) and start key: what `collapse` groups. */
  groups: Expression<{ id: number; key: number }>;
}

/** The filtered events rows, also as the candidates that filtered may join with their posts rows. */
interface EventRows extends FilteredSet {
  candidates: Expression<{
    post_id: number;
    start_key: number;
    status: string;
    author_id: number;
    series_id: number | null;
  }>;
}

const ID = events.ref('events.post_id').as('id');
const KEY = events.ref('events.start_key').as('key');
const COUNT = events.fn.countAll<number>().as('n');
const CANDIDATE = [
  events.ref('events.post_id').as('post_id'),
  events.ref('events.start_key').as('start_key'),
  events.ref('events.status').as('status'),
  events.ref('events.author_id').as('author_id'),
  events.ref('events.series_id').as('series_id'),
];
const GROUP = [sql<number>`COALESCE(events.series_id, events.post_id)`.as('id'), KEY];

/** The length of the longest event in keys, read from its index (migration 0023); 0 without events. */
const LONGEST = sql`COALESCE((SELECT d.end_key - d.start_key FROM events d ORDER BY d.end_key - d.start_key DESC LIMIT 1), 0)`;

/** The conditions on the events table alone: they use the listing indexes (migration 0004). */
function eventConditions(db: Executor, filter: EventFilter): Expression<SqlBool>[] {
  const conditions = [visibleTo('events', filter.caller, filter.statuses)];
  // A series' occurrences list its hidden ones too (API.md §20.2), as context=edit lists do (§18).
  if (filter.seriesId !== undefined) conditions.push(events('events.series_id', '=', filter.seriesId));
  else if (!filter.includeHidden) conditions.push(events('events.hide_from_listings', '=', 0));
  if (filter.startMin !== undefined) conditions.push(events('events.start_key', '>=', filter.startMin));
  if (filter.startBefore !== undefined) conditions.push(events('events.start_key', '<', filter.startBefore));
  if (filter.startAfter !== undefined) conditions.push(events('events.start_key', '>', filter.startAfter));
  if (filter.endMax !== undefined) conditions.push(events('events.end_key', '<=', filter.endMax));
  if (filter.endBefore !== undefined) conditions.push(events('events.end_key', '<', filter.endBefore));
  // No event ends before it starts: an upper bound on the end bounds the start, and so the index range.
  const startCeiling = Math.min(filter.endMax ?? Infinity, (filter.endBefore ?? Infinity) - 1);
  if (startCeiling !== Infinity) conditions.push(events('events.start_key', '<=', startCeiling));
  if (filter.endAfter !== undefined) {
    conditions.push(events('events.end_key', '>', filter.endAfter));
    // No event lasts longer than the longest (migration 0023): an event ending after the instant
    // started after it less that length, which bounds the index range from below too.
    conditions.push(sql<SqlBool>`events.start_key > ${filter.endAfter} - ${LONGEST}`);
  }
  if (filter.categoryIds) conditions.push(withTerm(filter.categoryIds));
  if (filter.tagIds) conditions.push(withTerm(filter.tagIds));
  if (filter.venueIds) conditions.push(events('events.venue_id', 'in', filter.venueIds));
  if (filter.organizerIds) {
    const ids = filter.organizerIds;
    conditions.push(
      sql<SqlBool>`EXISTS (SELECT 1 FROM event_organizers eo WHERE eo.event_id = events.post_id AND eo.organizer_id IN (${sql.join(ids)}))`,
    );
  }
  if (filter.featured !== undefined) conditions.push(events('events.featured', '=', filter.featured ? 1 : 0));
  // A series' id names its occurrences (API.md §20.2). One set of ids, each part read from its own
  // index: `post_id IN (…) OR series_id IN (…)` made both planners scan the whole window.
  if (filter.include) {
    const ids = sql.join(filter.include);
    conditions.push(
      sql<SqlBool>`events.post_id IN (SELECT o.post_id FROM events o WHERE o.post_id IN (${ids}) UNION ALL SELECT o.post_id FROM events o WHERE o.series_id IN (${ids}))`,
    );
  }
  // Candidates were narrowed by the same word index: applying it again would only cost.
  for (const word of filter.candidateIds ? [] : (filter.search?.include ?? [])) {
    const prefilter = mayContain(db, sql.ref('events.post_id'), word);
    if (prefilter) conditions.push(prefilter);
  }
  if (filter.unprotected)
    // The protected posts are read once, from their own index (posts_protected, migration 0020):
    // a look at each listed event's post row made counting a year of events ten times slower.
    conditions.push(sql<SqlBool>`events.post_id NOT IN (SELECT id FROM posts WHERE password <> '')`);
  if (filter.modifiedMin !== undefined) conditions.push(sql<SqlBool>`${MODIFIED} >= ${filter.modifiedMin}`);
  if (filter.modifiedBefore !== undefined) conditions.push(sql<SqlBool>`${MODIFIED} < ${filter.modifiedBefore}`);
  if (filter.geoloc)
    conditions.push(
      sql<SqlBool>`EXISTS (SELECT 1 FROM venues v WHERE v.post_id = events.venue_id AND v.geo_lat IS NOT NULL AND v.geo_lng IS NOT NULL)`,
    );
  if (filter.near) {
    const { lat, lng, radiusKm } = filter.near;
    conditions.push(
      sql<SqlBool>`EXISTS (SELECT 1 FROM venues v WHERE v.post_id = events.venue_id AND v.geo_lat IS NOT NULL AND v.geo_lng IS NOT NULL AND calendar_distance_km(${lat}, ${lng}, v.geo_lat, v.geo_lng) <= ${radiusKm})`,
    );
  }
  return conditions;
}

function whereAll<DB, TB extends keyof DB>(
  query: SelectQueryBuilder<DB, TB, object>,
  conditions: readonly Expression<SqlBool>[],
): SelectQueryBuilder<DB, TB, object> {
  return conditions.reduce((q, condition) => q.where(condition), query);
}

/**
 * The events table with the conditions, or only the given candidates' rows, looked up one by one
 * instead of scanning an index range.
 */
function eventRows(db: Executor, filter: EventFilter): EventRows {
  const conditions = eventConditions(db, filter);
  if (!filter.candidateIds) {
    const q = whereAll(db.selectFrom('events'), conditions);
    return {
      ids: q.select(ID),
      keys: q.select([ID, KEY]),
      count: q.select(COUNT),
      groups: q.select(GROUP),
      candidates: q.select(CANDIDATE),
    };
  }
  const q = whereAll(
    db
      .selectFrom(idTable(db, filter.candidateIds, 'candidate'))
      .crossJoin('events')
      .where(sql<SqlBool>`events.post_id = candidate.value`),
    conditions,
  );
  return {
    ids: q.select(ID),
    keys: q.select([ID, KEY]),
    count: q.select(COUNT),
    groups: q.select(GROUP),
    candidates: q.select(CANDIDATE),
  };
}

/**
 * The filtered set. Without `search` or `post_parent` it is the events table alone, so lists are
 * ordered index ranges that stop after one page. Those two filters need the posts rows (with their
 * long descriptions): the candidates are then narrowed on the events table first and materialised,
 * so that only their posts rows are read — both planners would otherwise read every row of the window.
 */
function filtered(db: Executor, filter: EventFilter, languages: Languages): FilteredSet {
  const rows = eventRows(db, filter);
  if (!hasSearch(filter) && filter.parentId === undefined) return rows;
  let q = db
    .with(
      (cte) => cte('candidates').materialized(),
      () => rows.candidates,
    )
    .selectFrom('candidates as events')
    .innerJoin('posts', 'posts.id', 'events.post_id')
    .leftJoin('post_translations as tr_req', (join) =>
      join.onRef('tr_req.post_id', '=', 'events.post_id').on('tr_req.lang', '=', languages.lang),
    )
    .leftJoin('post_translations as tr_def', (join) =>
      join.onRef('tr_def.post_id', '=', 'events.post_id').on('tr_def.lang', '=', languages.defaultLang),
    );
  // TEC Pro's meaning of post_parent for a series: its occurrences (API.md §20.2).
  if (filter.parentId !== undefined)
    q = q.where(sql<SqlBool>`(posts.parent_id = ${filter.parentId} OR events.series_id = ${filter.parentId})`);
  if (hasSearch(filter)) q = q.where(searchCondition(db, filter.search, filter, languages));
  return {
    ids: q.select(ID),
    keys: q.select([ID, KEY]),
    count: q.select(COUNT),
    groups: q.select([sql<number>`COALESCE(events.series_id, events.post_id)`.as('id'), KEY]),
  };
}

/**
 * Ids of the filtered set in list order (start, then id; `include`: as listed): one page, or with
 * `limit` undefined all of them.
 */
export async function listEventIds(
  db: Executor,
  filter: EventFilter,
  languages: Languages,
  limit?: number,
  offset = 0,
): Promise<number[]> {
  if (filter.collapse && !filter.include) {
    const page = limit === undefined ? sql`` : sql` LIMIT ${limit} OFFSET ${offset}`;
    const { rows } = await sql<{ id: number }>`SELECT id, MIN(key) AS key FROM (${
      filtered(db, filter, languages).groups
    }) g GROUP BY id ORDER BY key, id${page}`.execute(db);
    return rows.map((row) => Number(row.id));
  }
  const order = filter.include
    ? [
        sql`CASE COALESCE(events.series_id, events.post_id) ${sql.join(
          filter.include.map((id, i) => sql`WHEN ${id} THEN ${i}`),
          sql` `,
        )} END`,
        events.ref('events.start_key'),
        events.ref('events.post_id'),
      ]
    : [filter.order?.by === 'modified' ? MODIFIED : events.ref('events.start_key'), events.ref('events.post_id')];
  const direction = !filter.include && filter.order?.desc ? 'desc' : 'asc';
  const ordered = order.reduce((q, key) => q.orderBy(key, direction), filtered(db, filter, languages).ids);
  const rows = await (limit === undefined ? ordered : ordered.limit(limit).offset(offset)).execute();
  return rows.map((row) => row.id);
}

/** The filtered set in list order with each event's start key (for merging with other ordered ids). */
export async function listEventKeys(
  db: Executor,
  filter: EventFilter,
  languages: Languages,
  limit?: number,
): Promise<{ id: number; key: number }[]> {
  const ordered = filtered(db, filter, languages)
    .keys.orderBy(events.ref('events.start_key'))
    .orderBy(events.ref('events.post_id'));
  return (limit === undefined ? ordered : ordered.limit(limit)).execute();
}

/**
 * A page of a list grouped by series (`collapse`) with the number of groups, from one read of the
 * window (counting and paging each read all of it); undefined past the last page, which tells no total.
 */
export async function groupedPage(
  db: Executor,
  filter: EventFilter,
  languages: Languages,
  limit: number,
  offset: number,
): Promise<{ ids: number[]; total: number } | undefined> {
  const { rows } = await sql<{
    id: number;
    total: number;
  }>`SELECT id, MIN(key) AS key, COUNT(*) OVER () AS total FROM (${
    filtered(db, filter, languages).groups
  }) g GROUP BY id ORDER BY key, id LIMIT ${limit} OFFSET ${offset}`.execute(db);
  if (rows.length === 0) return undefined;
  return { ids: rows.map((row) => Number(row.id)), total: Number(rows[0].total) };
}

export async function countEvents(db: Executor, filter: EventFilter, languages: Languages): Promise<number> {
  if (filter.collapse && !filter.include) {
    const { rows } = await sql<{ n: number }>`SELECT COUNT(DISTINCT id) AS n FROM (${
      filtered(db, filter, languages).groups
    }) g`.execute(db);
    return Number(rows[0]?.n ?? 0);
  }
  const row = await filtered(db, filter, languages).count.executeTakeFirstOrThrow();
  return Number(row.n);
}
