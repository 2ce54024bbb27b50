import { sql, type Selectable } from 'kysely';
import type { EventsTable, Executor } from '../../db/schema.js';
import { columnSlots, compiledOnce, type Slots } from '../../db/compiled.js';
import { dialectOfExecutor, listParameter, inList } from '../../db/dialect.js';
import type { ImageRow } from '../images/images.js';
import type { Languages } from '../linked/linked.repository.js';
import { postColumns } from '../posts/posts.repository.js';
import { searchDocument } from './search/documents.js';
import { mayShareDates, onLocalDate, recurrenceIdDate } from '../../domain/recurrence/ids.js';
import { occurrencesOf, type StoredOccurrence } from './series/series.repository.js';
import type { CountState } from './term-counts.js';
import type { ListedState } from '../../changes/change-set.js';
import type { ScheduleState } from '../ical/ical.repository.js';

/** An event with its translatable text resolved for the request language. */
export interface EventRow extends ImageRow, Omit<EventColumns, 'start_key' | 'end_key'> {
  id: number;
  slug: string;
  status_before_trash: string | null;
  lang: string;
  password: string;
  parent_id: number;
  published_at: number;
  modified_at: number;
  /** Its revision and last change, Unix seconds (its ETag is made of them, modules/sync/validators.ts). */
  revision: number;
  changed_at: number;
  title: string;
  description: string;
  excerpt: string;
  /** An occurrence's series slug and iCalendar UID (null for other events). */
  series_slug: string | null;
  series_ical_uid: string | null;
  /** An occurrence's series' lines (JSON; null for other events). */
  series_recurrence: string | null;
  /** An occurrence's series' revision and last change (null for other events). */
  series_revision: number | null;
  series_changed_at: number | null;
  /** An occurrence's rank among its series' occurrences on the local date of its original start (1 for other events). */
  date_rank: number;
  /** Linked term and organizer ids, in link order. */
  term_ids: number[];
  organizer_ids: number[];
}

function selectEvents(db: Executor, { lang, defaultLang }: Languages) {
  return (
    db
      .selectFrom('posts')
      .innerJoin('events', 'events.post_id', 'posts.id')
      .leftJoin('post_translations as tr_req', (join) =>
        join.onRef('tr_req.post_id', '=', 'posts.id').on('tr_req.lang', '=', lang),
      )
      .leftJoin('post_translations as tr_def', (join) =>
        join.onRef('tr_def.post_id', '=', 'posts.id').on('tr_def.lang', '=', defaultLang),
      )
      .leftJoin('images', 'images.id', 'posts.image_id')
      // An occurrence shows its series' slug and iCalendar UID (API.md §20.2, §19.2).
      .leftJoin('posts as series_post', 'series_post.id', 'events.series_id')
      .leftJoin('events as series_event', 'series_event.post_id', 'events.series_id')
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
        'events.ical_uid',
        'events.ical_sequence',
        'events.created_at',
        'events.recurrence',
        'events.materialised_until',
        'events.excluded',
        'events.series_id',
        'events.recurrence_id',
        'events.overrides',
        'series_post.slug as series_slug',
        'series_event.ical_uid as series_ical_uid',
        // Whether an occurrence can share its date with another (rankedOnDates).
        'series_event.recurrence as series_recurrence',
        'series_post.revision as series_revision',
        sql<number | null>`COALESCE(series_post.changed_at, series_post.modified_at)`.as('series_changed_at'),
      ])
  );
}

const commaSeparated = (ids: string | null) => (ids ? ids.split(',').map(Number) : []);
/**
 * An event's link ids in `table`, in link order, comma-separated (null without links): one
 * subquery, the aggregate each dialect spells its own way.
 */
function linkedIdsOf(db: Executor, table: 'event_terms' | 'event_organizers', column: 'term_id' | 'organizer_id') {
  const order = sql`ORDER BY position, ${sql.ref(column)}`;
  const ids =
    dialectOfExecutor(db) === 'postgres'
      ? sql`string_agg(${sql.ref(column)}::text, ',' ${order})`
      : sql`group_concat(${sql.ref(column)}, ',' ${order})`;
  return sql<string | null>`(SELECT ${ids} FROM ${sql.table(table)} WHERE event_id = events.post_id)`;
}

type RowsByIdsSlots = Slots<[lang: Languages['lang'], defaultLang: Languages['defaultLang'], ids: unknown]>;
const eventRowsByIds = compiledOnce((db, slot: RowsByIdsSlots) =>
  selectEvents(db, { lang: slot(0), defaultLang: slot(1) }).where(inList(db, 'posts.id', slot(2))),
);
const eventRowsWithLinksByIds = compiledOnce((db, slot: RowsByIdsSlots) =>
  selectEvents(db, { lang: slot(0), defaultLang: slot(1) })
    .select([
      linkedIdsOf(db, 'event_terms', 'term_id').as('term_ids'),
      linkedIdsOf(db, 'event_organizers', 'organizer_id').as('organizer_ids'),
    ])
    .where(inList(db, 'posts.id', slot(2))),
);
const termLinksByIds = compiledOnce((db, slot: Slots<[ids: unknown]>) =>
  db
    .selectFrom('event_terms')
    .select(['event_id', 'term_id as id'])
    .where(inList(db, 'event_id', slot(0)))
    .orderBy('event_id')
    .orderBy('position')
    .orderBy('term_id'),
);
const organizerLinksByIds = compiledOnce((db, slot: Slots<[ids: unknown]>) =>
  db
    .selectFrom('event_organizers')
    .select(['event_id', 'organizer_id as id'])
    .where(inList(db, 'event_id', slot(0)))
    .orderBy('event_id')
    .orderBy('position')
    .orderBy('organizer_id'),
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
async function eventsWithLinks(
  db: Executor,
  { lang, defaultLang }: Languages,
  ids: readonly number[],
): Promise<EventRow[]> {
  const idList = listParameter(db, ids);
  if (dialectOfExecutor(db) === 'postgres') {
    const rows = await eventRowsWithLinksByIds(db, [lang, defaultLang, idList]);
    return rankedOnDates(
      db,
      rows.map((row) => ({
        ...row,
        term_ids: commaSeparated(row.term_ids),
        organizer_ids: commaSeparated(row.organizer_ids),
        date_rank: 1,
      })),
    );
  }
  const [rows, terms, organizers] = await Promise.all([
    eventRowsByIds(db, [lang, defaultLang, idList]),
    termLinksByIds(db, [idList]),
    organizerLinksByIds(db, [idList]),
  ]);
  const [termsOf, organizersOf] = [groupedIds(terms), groupedIds(organizers)];
  return rankedOnDates(
    db,
    rows.map((row) => ({
      ...row,
      term_ids: termsOf.get(row.id) ?? [],
      organizer_ids: organizersOf.get(row.id) ?? [],
      date_rank: 1,
    })),
  );
}

/**
 * `rows` with the `date_rank` of each occurrence whose series has lines that can start two
 * occurrences on one date (mayShareDates; the others are 1st on theirs), counted among the series'
 * occurrences as `/events/by-slug/{slug}/{date}/{n}` counts them, one read per series.
 */
async function rankedOnDates(db: Executor, rows: EventRow[]): Promise<EventRow[]> {
  const ofSeries = new Map<number, Promise<StoredOccurrence[]>>();
  for (const row of rows) {
    const { series_id: seriesId, recurrence_id: recurrenceId, series_recurrence: lines } = row;
    if (seriesId === null || recurrenceId === null || lines === null || !mayShareDates(lines)) continue;
    const occurrences = ofSeries.get(seriesId) ?? occurrencesOf(db, seriesId);
    ofSeries.set(seriesId, occurrences);
    const onDate = onLocalDate(await occurrences, recurrenceIdDate(recurrenceId, row.timezone));
    row.date_rank = onDate.findIndex((o) => o.id === row.id) + 1 || 1;
  }
  return rows;
}

/** The term ids of each event of `idList` (a list parameter: listParameter), in link order. */
export async function termIdsOfEvents(db: Executor, idList: unknown): Promise<Map<number, number[]>> {
  return groupedIds(await termLinksByIds(db, [idList]));
}

export async function findEvent(db: Executor, id: number, languages: Languages): Promise<EventRow | undefined> {
  return (await eventsWithLinks(db, languages, [id]))[0];
}

/** Full rows of the given events, in the order of `ids`. */
export async function findEvents(db: Executor, ids: readonly number[], languages: Languages): Promise<EventRow[]> {
  if (ids.length === 0) return [];
  const rows = await eventsWithLinks(db, languages, ids);
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.map((id) => byId.get(id)).filter((row): row is EventRow => row !== undefined);
}

/**
 * An event's own columns as stored (all of them on insert), derived from the table's schema; the
 * import's stamp is the import's own (modules/import/import.repository.ts).
 */
export type EventColumns = Omit<Selectable<EventsTable>, 'post_id' | 'ical_import_stamp'>;

const EVENT_COLUMNS = [
  'start_utc',
  'end_utc',
  'start_key',
  'end_key',
  'timezone',
  'all_day',
  'cost',
  'currency_symbol',
  'currency_code',
  'currency_position',
  'website',
  'show_map',
  'show_map_link',
  'hide_from_listings',
  'sticky',
  'featured',
  'venue_id',
  'status',
  'author_id',
  'ical_uid',
  'ical_sequence',
  'created_at',
  'recurrence',
  'materialised_until',
  'excluded',
  'series_id',
  'recurrence_id',
  'overrides',
] as const satisfies readonly (keyof EventColumns)[];
const insertEventRow = compiledOnce((db, slot: Slots<[postId: number, ...columns: unknown[]]>) =>
  db
    .insertInto('events')
    .values({ post_id: slot(0), ...columnSlots<EventColumns, (typeof EVENT_COLUMNS)[number]>(EVENT_COLUMNS, slot, 1) }),
);

export async function insertEventColumns(db: Executor, postId: number, columns: EventColumns): Promise<void> {
  await insertEventRow(db, [postId, ...EVENT_COLUMNS.map((column) => columns[column])]);
}

const eventTimesRow = compiledOnce((db, slot: Slots<[postId: number]>) =>
  db.selectFrom('events').select(['start_utc', 'end_utc', 'timezone', 'all_day']).where('post_id', '=', slot(0)),
);

/** The stored times of an event (an update that sends some keeps the others). */
export async function eventTimes(
  db: Executor,
  postId: number,
): Promise<Pick<EventColumns, 'start_utc' | 'end_utc' | 'timezone' | 'all_day'> | undefined> {
  return (await eventTimesRow(db, [postId]))[0];
}

export async function updateEventColumns(db: Executor, postId: number, columns: Partial<EventColumns>): Promise<void> {
  if (Object.keys(columns).length === 0) return;
  await db.updateTable('events').set(columns).where('post_id', '=', postId).execute();
}

/** Replaces the event's organizers; `fresh`: the event was inserted in this transaction, so it has none. */
export async function setOrganizers(
  db: Executor,
  eventId: number,
  organizerIds: readonly number[],
  fresh = false,
): Promise<void> {
  if (!fresh) await db.deleteFrom('event_organizers').where('event_id', '=', eventId).execute();
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

const deleteEventTerms = compiledOnce((db, slot: Slots<[eventId: number, termIds: unknown]>) =>
  db
    .deleteFrom('event_terms')
    .where('event_id', '=', slot(0))
    .where(inList(db, 'term_id', slot(1))),
);

const insertEventTerm = compiledOnce((db, slot: Slots<[eventId: number, termId: number, position: number]>) =>
  db.insertInto('event_terms').values({ event_id: slot(0), term_id: slot(1), position: slot(2) }),
);

/**
 * Replaces the event's terms of one taxonomy (compiled once: most event writes set terms); `fresh`:
 * the event was inserted in this transaction, so it has none to replace.
 */
export async function setTerms(
  db: Executor,
  eventId: number,
  taxonomy: string,
  termIds: readonly number[],
  fresh = false,
): Promise<void> {
  const previous = fresh ? [] : await eventTermIdsOfTaxonomy(db, [eventId, taxonomy]);
  if (previous.length > 0)
    await deleteEventTerms(db, [
      eventId,
      listParameter(
        db,
        previous.map((r) => r.term_id),
      ),
    ]);
  const unique = [...new Set(termIds)];
  for (const [position, termId] of unique.entries()) await insertEventTerm(db, [eventId, termId, position]);
}

/** Existing post ids of a type among `ids`. */
export async function existingPostIds(db: Executor, type: string, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('posts')
    .select('id')
    .where('type', '=', type)
    .where('id', 'in', [...ids])
    .execute();
  return new Set(rows.map((r) => r.id));
}

/** All-day events' sort keys depend on the site zone: recomputed when it changes (see events.service). */
export async function allDayEvents(
  db: Executor,
): Promise<{ post_id: number; start_utc: number; end_utc: number; timezone: string }[]> {
  return db
    .selectFrom('events')
    .select(['post_id', 'start_utc', 'end_utc', 'timezone'])
    .where('all_day', '=', 1)
    .execute();
}

const lockedPost = compiledOnce((db, slot: Slots<[postId: number]>) =>
  db.selectFrom('posts').select('id').where('id', '=', slot(0)).forUpdate(),
);

/**
 * Locks the event's post row on PostgreSQL, so that concurrent writers of it apply their count
 * changes one after the other (SQLite runs one write transaction at a time).
 */
export async function lockEventPost(db: Executor, eventId: number): Promise<void> {
  if (dialectOfExecutor(db) === 'postgres') await lockedPost(db, [eventId]);
}

/** The event's own text and password, with each translation's text (null where it has none). */
const textsOfPost = compiledOnce((db, slot: Slots<[postId: number]>) =>
  db
    .selectFrom('posts')
    .leftJoin('post_translations', 'post_translations.post_id', 'posts.id')
    .select([
      'posts.title',
      'posts.excerpt',
      'posts.description',
      'posts.password',
      'post_translations.lang',
      'post_translations.title as translated_title',
      'post_translations.excerpt as translated_excerpt',
      'post_translations.description as translated_description',
    ])
    .where('posts.id', '=', slot(0))
    .orderBy('post_translations.lang'),
);
const upsertSearchDocument = compiledOnce((db, slot: Slots<[postId: number, body: string, exact: number]>) =>
  db
    .insertInto('search_documents')
    .values({ post_id: slot(0), body: slot(1), exact: slot(2) })
    .onConflict((conflict) => conflict.column('post_id').doUpdateSet({ body: slot(1), exact: slot(2) })),
);

/** Rebuilds the event's search document from every stored version of its text (on every event write: compiled once). */
export async function refreshSearchDocument(db: Executor, eventId: number): Promise<void> {
  const rows = await textsOfPost(db, [eventId]);
  const [post] = rows;
  if (!post) return;
  const translations = rows
    .filter((row) => row.lang !== null)
    .map((row) => ({
      title: row.translated_title,
      excerpt: row.translated_excerpt,
      description: row.translated_description,
    }));
  const { body, exact } = searchDocument([post, ...translations], post.password);
  await upsertSearchDocument(db, [eventId, body, exact]);
}

/** Title, excerpt and description of every translation, one line each (null without translations). */
function translatedTextOf(db: Executor) {
  const line = sql`COALESCE(title, '') || ${'\n'} || COALESCE(excerpt, '') || ${'\n'} || COALESCE(description, '')`;
  const lines =
    dialectOfExecutor(db) === 'postgres' ? sql`string_agg(${line}, ${'\n'})` : sql`group_concat(${line}, ${'\n'})`;
  return sql<string | null>`(SELECT ${lines} FROM post_translations WHERE post_id = events.post_id)`;
}

const writeStateColumns = compiledOnce((db, slot: Slots<[eventId: number]>) =>
  db
    .selectFrom('events')
    .innerJoin('posts', 'posts.id', 'events.post_id')
    .select([
      'events.status',
      'events.author_id',
      'events.start_key',
      'events.end_key',
      'events.hide_from_listings',
      'events.series_id',
      'events.featured',
      'events.venue_id',
      'events.start_utc',
      'events.end_utc',
      'events.all_day',
      'events.timezone',
      'posts.status as post_status',
      'posts.parent_id',
      'posts.password',
      'posts.title',
      'posts.excerpt',
      'posts.description',
      linkedIdsOf(db, 'event_terms', 'term_id').as('term_ids'),
      linkedIdsOf(db, 'event_organizers', 'organizer_id').as('organizer_ids'),
      translatedTextOf(db).as('translated_text'),
    ])
    .where('events.post_id', '=', slot(0)),
);

/** The event's state inside a write, read in one statement before the write and once after it. */
export interface EventWriteState {
  /** As lists select it (listing/matches.ts). */
  listed: ListedState;
  /** What its terms' published counts depend on (API.md §12). */
  count: CountState;
  /** What its iCalendar SEQUENCE follows (API.md §19.1). */
  schedule: ScheduleState;
}

/** An event that counts for no term: unpublished, gone or not yet there. */
export const NOT_COUNTED: CountState = { published: false, termIds: [] };

/** The event's state in a write, or null when it is not there. */
export async function eventWriteState(db: Executor, eventId: number): Promise<EventWriteState | null> {
  const [row] = await writeStateColumns(db, [eventId]);
  if (!row) return null;
  const termIds = commaSeparated(row.term_ids);
  const own = `${row.title}\n${row.excerpt}\n${row.description}`;
  const text = row.translated_text === null ? own : `${own}\n${row.translated_text}`;
  return {
    listed: {
      status: row.status,
      author_id: row.author_id,
      start_key: row.start_key,
      end_key: row.end_key,
      hidden: row.hide_from_listings !== 0,
      series_id: row.series_id,
      parent_id: row.parent_id,
      featured: row.featured !== 0,
      venue_id: row.venue_id,
      organizer_ids: commaSeparated(row.organizer_ids),
      term_ids: termIds,
      protected: row.password !== '',
      text: text.toLowerCase(),
    },
    // A series counts once, as one post: its occurrences never count (API.md §20.2).
    count: row.series_id !== null ? NOT_COUNTED : { published: row.post_status === 'publish', termIds },
    schedule: {
      start_utc: row.start_utc,
      end_utc: row.end_utc,
      all_day: row.all_day,
      timezone: row.timezone,
      status: row.status,
      venue_id: row.venue_id,
    },
  };
}
