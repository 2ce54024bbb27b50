import { sql } from 'kysely';
import { dialectOfExecutor, idTable, inList, listParameter } from '../../../db/dialect.js';
import type { Executor } from '../../../db/schema.js';
import { plannedOccurrenceId } from '../../../db/planned-ids.js';

/**
 * `hide_from_listings` on a series' own row: bit 0 is the user's flag, and SERIES_ROW marks the
 * row of a series, which expanded lists never show (API.md §20.2). Lists already ask for
 * `hide_from_listings = 0` on the columns their indexes lead with, so keeping series out costs nothing.
 */
export const SERIES_ROW = 2;
export const userHidden = (stored: number) => (stored & 1) === 1;

/** An occurrence as stored: its id, original start and what series edits must know of it. */
export interface StoredOccurrence {
  id: number;
  recurrence_id: string;
  start_utc: number;
  end_utc: number;
  status: string;
  overrides: string | null;
  timezone: string;
}

export async function occurrencesOf(db: Executor, seriesId: number): Promise<StoredOccurrence[]> {
  return db
    .selectFrom('events')
    .innerJoin('posts', 'posts.id', 'events.post_id')
    .select([
      'events.post_id as id',
      'events.recurrence_id',
      'events.start_utc',
      'events.end_utc',
      'posts.status',
      'events.overrides',
      'events.timezone',
    ])
    .where('events.series_id', '=', seriesId)
    .orderBy('events.start_utc')
    .orderBy('events.post_id')
    .execute()
    .then((rows) => rows.map((row) => ({ ...row, recurrence_id: row.recurrence_id ?? '' })));
}

/** The series' lines and times, read inside the write. */
export async function seriesRow(db: Executor, seriesId: number) {
  return db
    .selectFrom('events')
    .select(['post_id', 'recurrence', 'excluded', 'start_utc', 'end_utc', 'timezone', 'all_day', 'materialised_until'])
    .where('post_id', '=', seriesId)
    .executeTakeFirst();
}

/** What a write of any event must know of its place in a series. */
export async function seriesColumns(db: Executor, id: number) {
  return db
    .selectFrom('events')
    .select(['recurrence', 'series_id', 'recurrence_id', 'overrides', 'hide_from_listings'])
    .where('post_id', '=', id)
    .executeTakeFirst();
}

async function setOverrides(db: Executor, id: number, change: (current: Set<string>) => void): Promise<void> {
  const row = await db.selectFrom('events').select('overrides').where('post_id', '=', id).executeTakeFirst();
  const current = new Set((row?.overrides ?? '').split('|').filter((name) => name !== ''));
  change(current);
  await db
    .updateTable('events')
    .set({ overrides: current.size > 0 ? `|${[...current].sort().join('|')}|` : null })
    .where('post_id', '=', id)
    .execute();
}

/**
 * Records the fields an occurrence now overrides (`|title|venue|`, API.md §20.3); `trash` marks
 * one trashed on its own, which stays trashed when its series is restored.
 */
export async function addOverrides(db: Executor, id: number, names: readonly string[]): Promise<void> {
  if (names.length > 0) await setOverrides(db, id, (current) => names.forEach((name) => current.add(name)));
}

export async function removeOverride(db: Executor, id: number, name: string): Promise<void> {
  await setOverrides(db, id, (current) => current.delete(name));
}

/** Excludes a deleted occurrence's original start from its series for good (API.md §20.3 `force=true`). */
export async function excludeFromSeries(db: Executor, seriesId: number, recurrenceId: string): Promise<void> {
  const row = await db.selectFrom('events').select('excluded').where('post_id', '=', seriesId).executeTakeFirst();
  const excluded = new Set(JSON.parse(row?.excluded ?? '[]') as string[]);
  excluded.add(recurrenceId);
  await db
    .updateTable('events')
    .set({ excluded: JSON.stringify([...excluded].sort()) })
    .where('post_id', '=', seriesId)
    .execute();
}

/** Series whose occurrences stop before `until` (the horizon moved on since they were expanded). */
export async function seriesBehind(db: Executor, until: number, limit: number): Promise<number[]> {
  const rows = await db
    .selectFrom('events')
    .select('post_id')
    .where('recurrence', 'is not', null)
    .where('materialised_until', '<', until)
    .orderBy('post_id')
    .limit(limit)
    .execute();
  return rows.map((row) => row.post_id);
}

export interface OccurrenceTimes {
  start_utc: number;
  end_utc: number;
  start_key: number;
  end_key: number;
  recurrence_id: string;
}

/**
 * A new occurrence: a copy of its series' post (without a slug: the series owns it) and event row
 * with its own times. Links, translations and search text follow with copyShared.
 */
export async function insertOccurrence(db: Executor, seriesId: number, times: OccurrenceTimes): Promise<number> {
  const planned = plannedOccurrenceId(times.recurrence_id);
  const { id } = await sql<{ id: number }>`
    INSERT INTO posts (${sql.raw(planned === undefined ? '' : 'id, ')}type, author_id, status, slug, title, description, excerpt, password, lang, parent_id, image_id, published_at, modified_at)
    SELECT ${planned === undefined ? sql.raw('') : sql`${planned}, `}type, author_id, status, '', title, description, excerpt, password, lang, parent_id, image_id, published_at, modified_at
    FROM posts WHERE id = ${seriesId}
    RETURNING id`
    .execute(db)
    .then((result) => result.rows[0]);
  await sql`
    INSERT INTO events (post_id, start_utc, end_utc, start_key, end_key, timezone, all_day, cost, currency_symbol,
      currency_code, currency_position, website, show_map, show_map_link, hide_from_listings, sticky, featured,
      venue_id, status, author_id, ical_uid, ical_sequence, created_at, series_id, recurrence_id)
    SELECT ${id}, ${times.start_utc}, ${times.end_utc}, ${times.start_key}, ${times.end_key}, timezone, all_day, cost,
      currency_symbol, currency_code, currency_position, website, show_map, show_map_link, hide_from_listings - ${SERIES_ROW},
      sticky, featured, venue_id, status, author_id, NULL, ical_sequence, created_at, post_id, ${times.recurrence_id}
    FROM events WHERE post_id = ${seriesId}`.execute(db);
  return Number(id);
}

export async function updateOccurrenceTimes(db: Executor, id: number, times: Partial<OccurrenceTimes>): Promise<void> {
  await db.updateTable('events').set(times).where('post_id', '=', id).execute();
}

const TIMES_BATCH = 1000;

/**
 * New times for many occurrences (a series edit moving them all): one statement per thousand,
 * the rows sent as one JSON parameter, instead of a round trip per occurrence on PostgreSQL.
 */
export async function updateOccurrencesTimes(
  db: Executor,
  rows: readonly ({ id: number } & OccurrenceTimes)[],
): Promise<void> {
  for (let from = 0; from < rows.length; from += TIMES_BATCH) {
    const json = JSON.stringify(rows.slice(from, from + TIMES_BATCH));
    const source =
      dialectOfExecutor(db) === 'postgres'
        ? sql`jsonb_to_recordset(${json}::jsonb) AS v(id bigint, start_utc bigint, end_utc bigint, start_key bigint, end_key bigint, recurrence_id text)`
        : sql`(SELECT value ->> '$.id' AS id, value ->> '$.start_utc' AS start_utc, value ->> '$.end_utc' AS end_utc,
            value ->> '$.start_key' AS start_key, value ->> '$.end_key' AS end_key, value ->> '$.recurrence_id' AS recurrence_id
            FROM json_each(${json})) AS v`;
    await sql`UPDATE events SET start_utc = v.start_utc, end_utc = v.end_utc, start_key = v.start_key,
      end_key = v.end_key, recurrence_id = v.recurrence_id FROM ${source} WHERE events.post_id = v.id`.execute(db);
  }
}

/** The rows of an occurrence, by table and its id column, in the order they can be deleted. */
const OCCURRENCE_ROWS = [
  ['search_documents', 'post_id'],
  ['event_terms', 'event_id'],
  ['event_organizers', 'event_id'],
  ['post_translations', 'post_id'],
  ['events', 'post_id'],
  ['posts', 'id'],
] as const;

/** Deletes occurrences for good (their links, translations and search text go with their posts). */
export async function deleteOccurrences(db: Executor, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  const list = listParameter(db, ids);
  for (const [table, column] of OCCURRENCE_ROWS)
    await db
      .deleteFrom(table)
      .where(inList(db, column, list))
      .execute();
}

/** Post and event columns an occurrence shares with its series, by the write field that overrides them (API.md §20.3). */
const POST_COLUMNS: Record<string, readonly string[]> = {
  title: ['title'],
  description: ['description'],
  excerpt: ['excerpt'],
  image: ['image_id'],
  date: ['published_at'],
  date_utc: ['published_at'],
  post_parent: ['parent_id'],
  '': ['author_id', 'password', 'lang', 'modified_at'],
};
const EVENT_COLUMNS: Record<string, readonly string[]> = {
  cost: ['cost', 'currency_symbol', 'currency_code', 'currency_position'],
  website: ['website'],
  show_map: ['show_map'],
  show_map_link: ['show_map_link'],
  sticky: ['sticky'],
  featured: ['featured'],
  venue: ['venue_id'],
  all_day: ['all_day'],
  '': ['timezone', 'author_id', 'ical_sequence'],
};

/** The columns no overridden field sets (a column may belong to two fields: `date` and `date_utc`). */
function columnsKept(groups: Record<string, readonly string[]>, overridden: ReadonlySet<string>): string[] {
  const skipped = new Set(Object.entries(groups).flatMap(([field, columns]) => (overridden.has(field) ? columns : [])));
  return [...new Set(Object.values(groups).flat())].filter((column) => !skipped.has(column));
}

/**
 * Copies what occurrences share with their series (API.md §20.2: everything but their times and
 * ids) onto `ids`: post fields, event fields, translations, terms, organizers and search text,
 * except what `overridden` names (the fields an override was given, §20.3). Occurrences trashed
 * on their own keep their status (they are the series' exclusions).
 */
export async function copyShared(
  db: Executor,
  seriesId: number,
  ids: readonly number[],
  overridden: ReadonlySet<string> = new Set(),
): Promise<void> {
  if (ids.length === 0) return;
  const list = listParameter(db, ids);
  const trashedAlone = sql`EXISTS (SELECT 1 FROM events o WHERE o.post_id = posts.id AND o.overrides LIKE '%|trash|%')`;
  const s = (column: string) => sql`(SELECT ${sql.ref(`s.${column}`)} FROM posts s WHERE s.id = ${seriesId})`;
  const postSets = columnsKept(POST_COLUMNS, overridden).map((c) => sql`${sql.ref(c)} = ${s(c)}`);
  await sql`UPDATE posts SET ${sql.join(postSets)},
      status = CASE WHEN ${trashedAlone} THEN status ELSE ${s('status')} END,
      status_before_trash = CASE WHEN ${trashedAlone} THEN status_before_trash ELSE ${s('status_before_trash')} END
    WHERE ${inList(db, 'id', list)}`.execute(db);
  const e = (column: string) => sql`(SELECT ${sql.ref(`s.${column}`)} FROM events s WHERE s.post_id = ${seriesId})`;
  const eventSets = columnsKept(EVENT_COLUMNS, overridden).map((c) => sql`${sql.ref(c)} = ${e(c)}`);
  // The user's flag of hide_from_listings, without the series' own mark.
  if (!overridden.has('hide_from_listings'))
    eventSets.push(sql`hide_from_listings = ${e('hide_from_listings')} - ${SERIES_ROW}`);
  await sql`UPDATE events SET ${sql.join(eventSets)},
      status = (SELECT p.status FROM posts p WHERE p.id = events.post_id)
    WHERE ${inList(db, 'post_id', list)}`.execute(db);
  const text = !['title', 'description', 'excerpt'].some((field) => overridden.has(field));
  const each = idTable(db, ids, 'o');
  const copies = [
    text && {
      table: 'post_translations',
      key: 'post_id',
      insert: sql`INSERT INTO post_translations (post_id, lang, title, description, excerpt)
        SELECT o.value, t.lang, t.title, t.description, t.excerpt FROM ${each} CROSS JOIN post_translations t
        WHERE t.post_id = ${seriesId}`,
    },
    !overridden.has('categories') &&
      !overridden.has('tags') && {
        table: 'event_terms',
        key: 'event_id',
        insert: sql`INSERT INTO event_terms (event_id, term_id, position)
          SELECT o.value, t.term_id, t.position FROM ${each} CROSS JOIN event_terms t WHERE t.event_id = ${seriesId}`,
      },
    !overridden.has('organizer') && {
      table: 'event_organizers',
      key: 'event_id',
      insert: sql`INSERT INTO event_organizers (event_id, organizer_id, position)
        SELECT o.value, t.organizer_id, t.position FROM ${each} CROSS JOIN event_organizers t
        WHERE t.event_id = ${seriesId}`,
    },
    text && {
      table: 'search_documents',
      key: 'post_id',
      insert: sql`INSERT INTO search_documents (post_id, body, exact)
        SELECT o.value, t.body, t.exact FROM ${each} CROSS JOIN search_documents t WHERE t.post_id = ${seriesId}`,
    },
  ] as const;
  for (const copy of copies) {
    if (!copy) continue;
    await sql`DELETE FROM ${sql.table(copy.table)} WHERE ${inList(db, copy.key, list)}`.execute(db);
    await copy.insert.execute(db);
  }
}

export async function markMaterialised(db: Executor, seriesId: number, until: number): Promise<void> {
  await db.updateTable('events').set({ materialised_until: until }).where('post_id', '=', seriesId).execute();
}

/** Occurrences of these series that differ from them: overrides and those trashed on their own (iCalendar export). */
export async function exceptionsOf(
  db: Executor,
  seriesIds: readonly number[],
): Promise<{ id: number; series_id: number; recurrence_id: string; status: string; overrides: string }[]> {
  if (seriesIds.length === 0) return [];
  const rows = await db
    .selectFrom('events')
    .select(['post_id as id', 'series_id', 'recurrence_id', 'status', 'overrides'])
    .where(inList(db, 'series_id', listParameter(db, seriesIds)))
    .where('overrides', 'is not', null)
    .orderBy('start_utc')
    .orderBy('post_id')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    series_id: Number(row.series_id),
    recurrence_id: row.recurrence_id ?? '',
    status: row.status,
    overrides: row.overrides ?? '',
  }));
}

/**
 * A new series as a copy of `seriesId` (API.md §20.3 `scope=following`): its post with `slug`, its
 * event row with its own times, lines, UID and creation time, and its shared fields (copyShared).
 */
export async function insertSeriesCopy(
  db: Executor,
  seriesId: number,
  fields: {
    slug: string;
    start_utc: number;
    end_utc: number;
    start_key: number;
    end_key: number;
    recurrence: string;
    ical_uid: string;
    created_at: number;
  },
): Promise<number> {
  const { id } = await sql<{ id: number }>`
    INSERT INTO posts (type, author_id, status, slug, title, description, excerpt, password, lang, parent_id, image_id, published_at, modified_at)
    SELECT type, author_id, status, ${fields.slug}, title, description, excerpt, password, lang, parent_id, image_id, published_at, modified_at
    FROM posts WHERE id = ${seriesId}
    RETURNING id`
    .execute(db)
    .then((result) => result.rows[0]);
  await sql`
    INSERT INTO events (post_id, start_utc, end_utc, start_key, end_key, timezone, all_day, cost, currency_symbol,
      currency_code, currency_position, website, show_map, show_map_link, hide_from_listings, sticky, featured,
      venue_id, status, author_id, ical_uid, ical_sequence, created_at, recurrence, excluded)
    SELECT ${id}, ${fields.start_utc}, ${fields.end_utc}, ${fields.start_key}, ${fields.end_key}, timezone, all_day, cost,
      currency_symbol, currency_code, currency_position, website, show_map, show_map_link, hide_from_listings,
      sticky, featured, venue_id, status, author_id, ${fields.ical_uid}, 0, ${fields.created_at}, ${fields.recurrence},
      excluded
    FROM events WHERE post_id = ${seriesId}`.execute(db);
  const each = idTable(db, [Number(id)], 'o');
  for (const copy of [
    sql`INSERT INTO post_translations (post_id, lang, title, description, excerpt)
      SELECT o.value, t.lang, t.title, t.description, t.excerpt FROM ${each} CROSS JOIN post_translations t WHERE t.post_id = ${seriesId}`,
    sql`INSERT INTO event_terms (event_id, term_id, position)
      SELECT o.value, t.term_id, t.position FROM ${each} CROSS JOIN event_terms t WHERE t.event_id = ${seriesId}`,
    sql`INSERT INTO event_organizers (event_id, organizer_id, position)
      SELECT o.value, t.organizer_id, t.position FROM ${each} CROSS JOIN event_organizers t WHERE t.event_id = ${seriesId}`,
    sql`INSERT INTO search_documents (post_id, body, exact)
      SELECT o.value, t.body, t.exact FROM ${each} CROSS JOIN search_documents t WHERE t.post_id = ${seriesId}`,
  ])
    await copy.execute(db);
  return Number(id);
}

/** Moves a series' occurrences from `from` (an original start) on to another series, ids and overrides kept. */
export async function moveOccurrences(db: Executor, seriesId: number, from: string, to: number): Promise<number[]> {
  const moved = await db
    .updateTable('events')
    .set({ series_id: to })
    .where('series_id', '=', seriesId)
    .where('recurrence_id', '>=', from)
    .returning('post_id')
    .execute();
  return moved.map((row) => row.post_id);
}

export async function setRecurrence(db: Executor, seriesId: number, lines: readonly string[]): Promise<void> {
  await db
    .updateTable('events')
    .set({ recurrence: JSON.stringify(lines) })
    .where('post_id', '=', seriesId)
    .execute();
}
