import { sql, type Expression, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import { containsIgnoringCase } from '../../db/dialect.js';
import type { Caller } from '../../auth/caller.js';
import type { Executor } from '../../db/schema.js';
import { translatedColumn } from '../../db/translations.js';
import type { Language } from '../../i18n/languages.js';
import type { ImageRow } from '../images/images.js';
import { postColumns, visibleTo } from '../posts/posts.repository.js';
import type { LinkedKind } from './linked.kind.js';

/** A venue or organizer with its translatable text resolved for the request language. */
export interface LinkedRow extends ImageRow {
  id: number;
  author_id: number;
  status: string;
  status_before_trash: string | null;
  slug: string;
  lang: string;
  password: string;
  published_at: number;
  modified_at: number;
  title: string;
  description: string;
  excerpt: string;
  details: Record<string, string | number | null>;
}

export interface Languages {
  lang: Language;
  defaultLang: Language;
}

// The detail table differs per kind, so these queries are built on an untyped view of the schema.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type LooseDb = Kysely<any>;

function selectLinked(db: Executor, kind: LinkedKind, { lang, defaultLang }: Languages) {
  return (db as unknown as LooseDb)
    .selectFrom('posts')
    .innerJoin(`${kind.table} as d`, 'd.post_id', 'posts.id')
    .leftJoin('post_translations as tr_req', (join) =>
      join.onRef('tr_req.post_id', '=', 'posts.id').on('tr_req.lang', '=', lang),
    )
    .leftJoin('post_translations as tr_def', (join) =>
      join.onRef('tr_def.post_id', '=', 'posts.id').on('tr_def.lang', '=', defaultLang),
    )
    .leftJoin('images', 'images.id', 'posts.image_id')
    .select([...postColumns(lang, defaultLang), ...kind.detailColumns.map((column) => `d.${column} as d_${column}`)])
    .where('posts.type', '=', kind.type);
}

function toRow(kind: LinkedKind, raw: Record<string, unknown>): LinkedRow {
  const details: Record<string, string | number | null> = {};
  for (const column of kind.detailColumns) details[column] = raw[`d_${column}`] as string | number | null;
  return { ...(raw as unknown as LinkedRow), details };
}

export async function findLinked(
  db: Executor,
  kind: LinkedKind,
  id: number,
  languages: Languages,
): Promise<LinkedRow | undefined> {
  const raw = await selectLinked(db, kind, languages).where('posts.id', '=', id).executeTakeFirst();
  return raw ? toRow(kind, raw) : undefined;
}

export async function findLinkedMany(
  db: Executor,
  kind: LinkedKind,
  ids: readonly number[],
  languages: Languages,
): Promise<Map<number, LinkedRow>> {
  if (ids.length === 0) return new Map();
  const rows = await selectLinked(db, kind, languages)
    .where('posts.id', 'in', [...ids])
    .execute();
  return new Map(rows.map((raw: Record<string, unknown>) => [raw.id as number, toRow(kind, raw)]));
}

export interface LinkedFilter {
  caller: Caller | null;
  statuses?: readonly string[];
  /** Words of `search`: one field must contain all of them (TEC §9). */
  words?: readonly string[];
  eventId?: number;
  hasEvents?: boolean;
  upcomingSince?: number;
}

/** Events linked to the item in `alias` (the venue or organizer post row). */
function linkedEvents(kind: LinkedKind, db: LooseDb) {
  return kind.type === 'venue'
    ? db
        .selectFrom('events as le')
        .innerJoin('posts as lp', 'lp.id', 'le.post_id')
        .whereRef('le.venue_id', '=', 'posts.id')
    : db
        .selectFrom('event_organizers as lo')
        .innerJoin('events as le', 'le.post_id', 'lo.event_id')
        .innerJoin('posts as lp', 'lp.id', 'lo.event_id')
        .whereRef('lo.organizer_id', '=', 'posts.id');
}

function searchCondition(
  db: Executor,
  kind: LinkedKind,
  words: readonly string[],
  languages: Languages,
): Expression<SqlBool> {
  const fields = [
    translatedColumn('posts', 'title', languages.lang, languages.defaultLang),
    translatedColumn('posts', 'description', languages.lang, languages.defaultLang),
    translatedColumn('posts', 'excerpt', languages.lang, languages.defaultLang),
    ...kind.searchColumns.map((column) => sql.ref(`d.${column}`)),
  ];
  const perField = fields.map((field) =>
    sql.join(
      words.map((word) => containsIgnoringCase(db, field as RawBuilder<string>, word)),
      sql` AND `,
    ),
  );
  return sql<SqlBool>`(${sql.join(
    perField.map((clause) => sql`(${clause})`),
    sql` OR `,
  )})`;
}

function filtered(db: Executor, kind: LinkedKind, filter: LinkedFilter, languages: Languages) {
  const loose = db as unknown as LooseDb;
  let query = selectLinked(db, kind, languages).where(visibleTo('posts', filter.caller, filter.statuses));
  if (filter.words && filter.words.length > 0) query = query.where(searchCondition(db, kind, filter.words, languages));
  if (filter.eventId !== undefined) {
    const eventId = filter.eventId;
    query = query.where((eb) => eb.exists(linkedEvents(kind, loose).select('lp.id').where('lp.id', '=', eventId)));
  }
  if (filter.hasEvents !== undefined) {
    // Only drafts and pending events do not make an item "have events" (API.md §11, TEC §9).
    const countedEvents = linkedEvents(kind, loose).select('lp.id').where('lp.status', 'not in', ['draft', 'pending']);
    query = filter.hasEvents
      ? query.where((eb) => eb.exists(countedEvents))
      : query.where((eb) => eb.not(eb.exists(countedEvents)));
  }
  if (filter.upcomingSince !== undefined) {
    const since = filter.upcomingSince;
    query = query.where((eb) =>
      eb.exists(
        linkedEvents(kind, loose)
          .select('lp.id')
          .where('le.start_utc', '>=', since)
          .where('le.hide_from_listings', '=', 0)
          .where(visibleTo('lp', filter.caller, undefined)),
      ),
    );
  }
  return query;
}

/** Ids of one page, newest publication first (API.md §11). */
export async function listLinkedIds(
  db: Executor,
  kind: LinkedKind,
  filter: LinkedFilter,
  languages: Languages,
  limit: number,
  offset: number,
): Promise<number[]> {
  const rows = await filtered(db, kind, filter, languages)
    .clearSelect()
    .select('posts.id')
    .orderBy('posts.published_at', 'desc')
    .orderBy('posts.id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
  return rows.map((row: { id: number }) => row.id);
}

export async function countLinked(
  db: Executor,
  kind: LinkedKind,
  filter: LinkedFilter,
  languages: Languages,
): Promise<number> {
  const row = await filtered(db, kind, filter, languages)
    .clearSelect()
    .select((eb: { fn: { countAll: () => { as: (n: string) => unknown } } }) => eb.fn.countAll().as('n') as never)
    .executeTakeFirstOrThrow();
  return Number((row as { n: number | string }).n);
}

/** An existing, non-trashed item with this name (case-insensitive) and, if given, description (TEC duplicate reuse). */
export async function findDuplicate(
  db: Executor,
  kind: LinkedKind,
  name: string,
  description: string | undefined,
  caller: Caller | null,
): Promise<number | undefined> {
  let query = (db as unknown as LooseDb)
    .selectFrom('posts')
    .select('posts.id')
    .where('posts.type', '=', kind.type)
    .where('posts.status', '<>', 'trash')
    .where(sql<SqlBool>`lower(posts.title) = ${name.toLowerCase()}`)
    .where(visibleTo('posts', caller, undefined));
  if (description !== undefined)
    query = query.where(sql<SqlBool>`lower(posts.description) = ${description.toLowerCase()}`);
  const row = await query.orderBy('posts.id').executeTakeFirst();
  return row?.id as number | undefined;
}

export async function insertDetails(
  db: Executor,
  kind: LinkedKind,
  postId: number,
  details: Record<string, unknown>,
): Promise<void> {
  await (db as unknown as LooseDb)
    .insertInto(kind.table)
    .values({ post_id: postId, ...details })
    .execute();
}

export async function updateDetails(
  db: Executor,
  kind: LinkedKind,
  postId: number,
  details: Record<string, unknown>,
): Promise<void> {
  if (Object.keys(details).length === 0) return;
  await (db as unknown as LooseDb).updateTable(kind.table).set(details).where('post_id', '=', postId).execute();
}

/** Trashing or deleting a venue or organizer removes it from every event (API.md §13). */
export async function unlinkFromEvents(db: Executor, kind: LinkedKind, postId: number): Promise<void> {
  if (kind.type === 'venue')
    await db.updateTable('events').set({ venue_id: null }).where('venue_id', '=', postId).execute();
  else await db.deleteFrom('event_organizers').where('organizer_id', '=', postId).execute();
}
