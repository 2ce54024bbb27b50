import { sql } from 'kysely';
import { idTable, inList, listParameter } from '../../../db/dialect.js';
import type { Executor } from '../../../db/schema.js';

/**
 * `hide_from_listings` on a series' own row: bit 0 is the user's flag, and SERIES_ROW marks the
 * row of a series, which expanded lists never show (API.md §20.2). Lists already ask for
 * `hide_from_listings = 0` on the columns their indexes lead with, so keeping series out costs nothing.
 */
export const SERIES_ROW = 2;
export const userHidden = (stored: number) => (stored & 1) === 1;

/** `overrides` of an occurrence trashed on its own (DELETE, API.md §20.3): it stays out when its series is restored. */
export const TRASHED_ALONE = '|trash|';

/** An occurrence as stored: its id, original start and what series edits must know of it. */
export interface StoredOccurrence {
  id: number;
  recurrence_id: string;
  start_utc: number;
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

/** Records the field groups an occurrence now overrides (`|title|venue|`, API.md §20.3). */
export async function addOverrides(db: Executor, id: number, names: readonly string[]): Promise<void> {
  const row = await db.selectFrom('events').select('overrides').where('post_id', '=', id).executeTakeFirst();
  const current = new Set((row?.overrides ?? '').split('|').filter((name) => name !== ''));
  for (const name of names) current.add(name);
  await db
    .updateTable('events')
    .set({ overrides: current.size > 0 ? `|${[...current].sort().join('|')}|` : null })
    .where('post_id', '=', id)
    .execute();
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
  const { id } = await sql<{ id: number }>`
    INSERT INTO posts (type, author_id, status, slug, title, description, excerpt, password, lang, parent_id, image_id, published_at, modified_at)
    SELECT type, author_id, status, '', title, description, excerpt, password, lang, parent_id, image_id, published_at, modified_at
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

export async function updateOccurrenceTimes(db: Executor, id: number, times: OccurrenceTimes): Promise<void> {
  await db.updateTable('events').set(times).where('post_id', '=', id).execute();
}

/** Deletes occurrences for good (their links, translations and search text go with their posts). */
export async function deleteOccurrences(db: Executor, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  const list = listParameter(db, ids);
  await db
    .deleteFrom('search_documents')
    .where(inList(db, 'post_id', list))
    .execute();
  await db
    .deleteFrom('event_terms')
    .where(inList(db, 'event_id', list))
    .execute();
  await db
    .deleteFrom('event_organizers')
    .where(inList(db, 'event_id', list))
    .execute();
  await db
    .deleteFrom('post_translations')
    .where(inList(db, 'post_id', list))
    .execute();
  await db
    .deleteFrom('events')
    .where(inList(db, 'post_id', list))
    .execute();
  await db
    .deleteFrom('posts')
    .where(inList(db, 'id', list))
    .execute();
}

/**
 * Copies what occurrences share with their series (API.md §20.2: everything but their times and
 * ids) onto `ids`: post fields, event fields, translations, terms, organizers and search text.
 * Occurrences trashed on their own keep their status (they are the series' exclusions, §20.3).
 */
export async function copyShared(db: Executor, seriesId: number, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  const list = listParameter(db, ids);
  const targets = inList(db, 'id', list);
  const trashedAlone = sql`EXISTS (SELECT 1 FROM events o WHERE o.post_id = posts.id AND o.overrides LIKE '%|trash|%')`;
  const s = (column: string) => sql`(SELECT ${sql.ref(`s.${column}`)} FROM posts s WHERE s.id = ${seriesId})`;
  await sql`UPDATE posts SET
      author_id = ${s('author_id')}, title = ${s('title')}, description = ${s('description')},
      excerpt = ${s('excerpt')}, password = ${s('password')}, lang = ${s('lang')}, parent_id = ${s('parent_id')},
      image_id = ${s('image_id')}, published_at = ${s('published_at')}, modified_at = ${s('modified_at')},
      status = CASE WHEN ${trashedAlone} THEN status ELSE ${s('status')} END,
      status_before_trash = CASE WHEN ${trashedAlone} THEN status_before_trash ELSE ${s('status_before_trash')} END
    WHERE ${targets}`.execute(db);
  const e = (column: string) => sql`(SELECT ${sql.ref(`s.${column}`)} FROM events s WHERE s.post_id = ${seriesId})`;
  const eventTargets = inList(db, 'post_id', list);
  await sql`UPDATE events SET
      timezone = ${e('timezone')}, all_day = ${e('all_day')}, cost = ${e('cost')},
      currency_symbol = ${e('currency_symbol')}, currency_code = ${e('currency_code')},
      currency_position = ${e('currency_position')}, website = ${e('website')}, show_map = ${e('show_map')},
      show_map_link = ${e('show_map_link')}, hide_from_listings = ${e('hide_from_listings')} - ${SERIES_ROW},
      sticky = ${e('sticky')}, featured = ${e('featured')}, venue_id = ${e('venue_id')},
      author_id = ${e('author_id')}, ical_sequence = ${e('ical_sequence')},
      status = (SELECT p.status FROM posts p WHERE p.id = events.post_id)
    WHERE ${eventTargets}`.execute(db);
  for (const [table, column] of [
    ['post_translations', 'post_id'],
    ['event_terms', 'event_id'],
    ['event_organizers', 'event_id'],
    ['search_documents', 'post_id'],
  ] as const)
    await db
      .deleteFrom(table)
      .where(inList(db, column, list))
      .execute();
  const each = idTable(db, ids, 'o');
  await sql`INSERT INTO post_translations (post_id, lang, title, description, excerpt)
    SELECT o.value, t.lang, t.title, t.description, t.excerpt FROM ${each} CROSS JOIN post_translations t
    WHERE t.post_id = ${seriesId}`.execute(db);
  await sql`INSERT INTO event_terms (event_id, term_id, position)
    SELECT o.value, t.term_id, t.position FROM ${each} CROSS JOIN event_terms t WHERE t.event_id = ${seriesId}`.execute(
    db,
  );
  await sql`INSERT INTO event_organizers (event_id, organizer_id, position)
    SELECT o.value, t.organizer_id, t.position FROM ${each} CROSS JOIN event_organizers t
    WHERE t.event_id = ${seriesId}`.execute(db);
  await sql`INSERT INTO search_documents (post_id, body, exact)
    SELECT o.value, t.body, t.exact FROM ${each} CROSS JOIN search_documents t WHERE t.post_id = ${seriesId}`.execute(
    db,
  );
}

export async function markMaterialised(db: Executor, seriesId: number, until: number): Promise<void> {
  await db.updateTable('events').set({ materialised_until: until }).where('post_id', '=', seriesId).execute();
}
