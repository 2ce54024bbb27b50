import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import { containsIgnoringCase } from '../../db/dialect.js';
import type { Caller } from '../../auth/caller.js';
import type { Database, Executor } from '../../db/schema.js';
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
  /** Its revision and last change, Unix seconds (what the ETags of the events showing it are made of). */
  revision: number;
  changed_at: number;
  title: string;
  description: string;
  excerpt: string;
  details: LinkedDetails;
}

/** Detail columns of a venue or organizer by name: which ones depends on the kind (LinkedKind.detailColumns). */
export type LinkedDetails = Record<string, string | number | null>;

export interface Languages {
  lang: Language;
  defaultLang: Language;
}

/** The kind's detail table, joined as `d`: its columns differ per kind, so only the key is typed. */
function detailTable(kind: LinkedKind) {
  return sql<{ post_id: number }>`${sql.table(kind.table)}`.as('d');
}

/** A detail column of the `d` table, selected as `d_<column>` (clear of the post's own columns). */
function detailColumn(column: string) {
  return sql.ref<string | number | null>(`d.${column}`).as(`d_${column}`);
}

function selectLinked(db: Executor, kind: LinkedKind, { lang, defaultLang }: Languages) {
  return db
    .selectFrom('posts')
    .innerJoin(detailTable(kind), 'd.post_id', 'posts.id')
    .leftJoin('post_translations as tr_req', (join) =>
      join.onRef('tr_req.post_id', '=', 'posts.id').on('tr_req.lang', '=', lang),
    )
    .leftJoin('post_translations as tr_def', (join) =>
      join.onRef('tr_def.post_id', '=', 'posts.id').on('tr_def.lang', '=', defaultLang),
    )
    .leftJoin('images', 'images.id', 'posts.image_id')
    .select([...postColumns(lang, defaultLang), ...kind.detailColumns.map(detailColumn)])
    .where('posts.type', '=', kind.type);
}

type SelectedLinked = Awaited<ReturnType<ReturnType<typeof selectLinked>['executeTakeFirstOrThrow']>>;

function toRow(kind: LinkedKind, raw: SelectedLinked): LinkedRow {
  const details: LinkedDetails = {};
  for (const column of kind.detailColumns) details[column] = raw[`d_${column}`];
  return { ...raw, details };
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
  return new Map(rows.map((raw) => [raw.id, toRow(kind, raw)]));
}

export interface LinkedFilter {
  caller: Caller | null;
  statuses?: readonly string[];
  /** Words of `search`: one field must contain all of them (TEC §9). */
  words?: readonly string[];
  eventId?: number;
  hasEvents?: boolean;
  upcomingSince?: number;
  /** Last modified at or after / before these instants (API.md §21). */
  modifiedMin?: number;
  modifiedBefore?: number;
}

/** Events linked to the venue or organizer of the outer query's `posts` row. */
function linkedEvents(kind: LinkedKind, eb: ExpressionBuilder<Database, 'posts'>) {
  return kind.type === 'venue'
    ? eb
        .selectFrom('events as le')
        .innerJoin('posts as lp', 'lp.id', 'le.post_id')
        .whereRef('le.venue_id', '=', 'posts.id')
    : eb
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
    ...kind.searchColumns.map((column) => sql.ref<string>(`d.${column}`)),
  ];
  const perField = fields.map((field) =>
    sql.join(
      words.map((word) => containsIgnoringCase(db, field, word)),
      sql` AND `,
    ),
  );
  return sql<SqlBool>`(${sql.join(
    perField.map((clause) => sql`(${clause})`),
    sql` OR `,
  )})`;
}

function filtered(db: Executor, kind: LinkedKind, filter: LinkedFilter, languages: Languages) {
  let query = selectLinked(db, kind, languages).where(visibleTo('posts', filter.caller, filter.statuses));
  if (filter.words && filter.words.length > 0) query = query.where(searchCondition(db, kind, filter.words, languages));
  if (filter.eventId !== undefined) {
    const eventId = filter.eventId;
    query = query.where((eb) => eb.exists(linkedEvents(kind, eb).select('lp.id').where('lp.id', '=', eventId)));
  }
  if (filter.hasEvents !== undefined) {
    // Only drafts and pending events do not make an item "have events" (API.md §11, TEC §9).
    const countedEvents = (eb: ExpressionBuilder<Database, 'posts'>) =>
      eb.exists(linkedEvents(kind, eb).select('lp.id').where('lp.status', 'not in', ['draft', 'pending']));
    query = filter.hasEvents ? query.where(countedEvents) : query.where((eb) => eb.not(countedEvents(eb)));
  }
  if (filter.modifiedMin !== undefined) query = query.where('posts.modified_at', '>=', filter.modifiedMin);
  if (filter.modifiedBefore !== undefined) query = query.where('posts.modified_at', '<', filter.modifiedBefore);
  if (filter.upcomingSince !== undefined) {
    const since = filter.upcomingSince;
    query = query.where((eb) =>
      eb.exists(
        linkedEvents(kind, eb)
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
  return rows.map((row) => row.id);
}

export async function countLinked(
  db: Executor,
  kind: LinkedKind,
  filter: LinkedFilter,
  languages: Languages,
): Promise<number> {
  const row = await filtered(db, kind, filter, languages)
    .clearSelect()
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** An existing, non-trashed item with this name (case-insensitive) and, if given, description (TEC duplicate reuse). */
export async function findDuplicate(
  db: Executor,
  kind: LinkedKind,
  name: string,
  description: string | undefined,
  caller: Caller | null,
): Promise<number | undefined> {
  let query = db
    .selectFrom('posts')
    .select('posts.id')
    .where('posts.type', '=', kind.type)
    .where('posts.status', '<>', 'trash')
    .where(sql<SqlBool>`lower(posts.title) = ${name.toLowerCase()}`)
    .where(visibleTo('posts', caller, undefined));
  if (description !== undefined)
    query = query.where(sql<SqlBool>`lower(posts.description) = ${description.toLowerCase()}`);
  const row = await query.orderBy('posts.id').executeTakeFirst();
  return row?.id;
}

// The detail columns differ per kind, so these two writes name their table and columns at run time.
export async function insertDetails(
  db: Executor,
  kind: LinkedKind,
  postId: number,
  details: LinkedDetails,
): Promise<void> {
  const entries = Object.entries({ post_id: postId, ...details });
  const columns = sql.join(entries.map(([column]) => sql.ref(column)));
  const values = sql.join(entries.map(([, value]) => value));
  await sql`insert into ${sql.table(kind.table)} (${columns}) values (${values})`.execute(db);
}

export async function updateDetails(
  db: Executor,
  kind: LinkedKind,
  postId: number,
  details: LinkedDetails,
): Promise<void> {
  const entries = Object.entries(details);
  if (entries.length === 0) return;
  const assignments = sql.join(entries.map(([column, value]) => sql`${sql.ref(column)} = ${value}`));
  await sql`update ${sql.table(kind.table)} set ${assignments} where ${sql.ref('post_id')} = ${postId}`.execute(db);
}

/** Trashing or deleting a venue or organizer removes it from every event (API.md §13). */
/**
 * Removes the item's links from events, which are modified by it (API.md §21: their
 * `modified_utc` moves). Returns the events' ids.
 */
export async function unlinkFromEvents(
  db: Executor,
  kind: LinkedKind,
  postId: number,
  modifiedAt: number,
): Promise<number[]> {
  const linked =
    kind.type === 'venue'
      ? await db.selectFrom('events').select('post_id as id').where('venue_id', '=', postId).execute()
      : await db.selectFrom('event_organizers').select('event_id as id').where('organizer_id', '=', postId).execute();
  const ids = [...new Set(linked.map((row) => row.id))];
  if (ids.length === 0) return ids;
  if (kind.type === 'venue')
    await db.updateTable('events').set({ venue_id: null }).where('venue_id', '=', postId).execute();
  else await db.deleteFrom('event_organizers').where('organizer_id', '=', postId).execute();
  await db.updateTable('posts').set({ modified_at: modifiedAt }).where('id', 'in', ids).execute();
  return ids;
}
