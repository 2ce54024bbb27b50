import { sql } from 'kysely';
import { dialectOfExecutor, inList, listParameter } from '../../db/dialect.js';
import type { Executor } from '../../db/schema.js';

/** The kinds of item an import records, in the order they are imported (API.md §24). */
export type ImportKind = 'categories' | 'tags' | 'venues' | 'organizers' | 'events';

export interface ImportRecord {
  localId: number | null;
  fingerprint: string;
}

/** Every record of one source and kind, by source id (a whole site's are read once per run). */
export async function recordsOf(db: Executor, source: string, kind: ImportKind): Promise<Map<number, ImportRecord>> {
  const rows = await db
    .selectFrom('import_records')
    .select(['source_id', 'local_id', 'fingerprint'])
    .where('source', '=', source)
    .where('kind', '=', kind)
    .execute();
  return new Map(
    rows.map((row) => [
      Number(row.source_id),
      { localId: row.local_id === null ? null : Number(row.local_id), fingerprint: row.fingerprint },
    ]),
  );
}

/** Marks a first write as under way, so that a run interrupted during it can find its result. */
export async function reserve(db: Executor, source: string, kind: ImportKind, sourceId: number, at: number) {
  await db
    .insertInto('import_records')
    .values({ source, kind, source_id: sourceId, local_id: null, fingerprint: '', imported_at: at })
    .onConflict((oc) => oc.columns(['source', 'kind', 'source_id']).doNothing())
    .execute();
}

export async function complete(
  db: Executor,
  source: string,
  kind: ImportKind,
  sourceId: number,
  record: { localId: number; fingerprint: string },
  at: number,
): Promise<void> {
  await db
    .insertInto('import_records')
    .values({
      source,
      kind,
      source_id: sourceId,
      local_id: record.localId,
      fingerprint: record.fingerprint,
      imported_at: at,
    })
    .onConflict((oc) =>
      oc
        .columns(['source', 'kind', 'source_id'])
        .doUpdateSet({ local_id: record.localId, fingerprint: record.fingerprint, imported_at: at }),
    )
    .execute();
}

/** Whether a local item is the import of some source item (any source): such an item is never adopted for another. */
export async function isRecordedLocal(db: Executor, kind: ImportKind, localId: number): Promise<boolean> {
  const row = await db
    .selectFrom('import_records')
    .select('source_id')
    .where('kind', '=', kind)
    .where('local_id', '=', localId)
    .executeTakeFirst();
  return row !== undefined;
}

/** The local term of a taxonomy with this slug, in its original language. */
export async function termIdBySlug(
  db: Executor,
  taxonomy: 'category' | 'tag',
  slug: string,
): Promise<number | undefined> {
  const row = await db
    .selectFrom('terms')
    .select('id')
    .where('taxonomy', '=', taxonomy)
    .where('slug', '=', slug)
    .executeTakeFirst();
  return row?.id;
}

/** The first administrator (lowest id): imported items are theirs (API.md §24). */
export async function firstAdministrator(db: Executor): Promise<{ id: number; login: string } | undefined> {
  return db
    .selectFrom('users')
    .select(['id', 'login'])
    .where('role', '=', 'administrator')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
}

export interface IdHolder {
  id: number;
  type: string;
  slug: string;
  /** An occurrence's series. */
  seriesId: number | null;
}

/** The posts (any type, trashed included) that hold these ids. */
export async function postsWithIds(db: Executor, ids: readonly number[]): Promise<Map<number, IdHolder>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('posts')
    .leftJoin('events', 'events.post_id', 'posts.id')
    .select(['posts.id', 'posts.type', 'posts.slug', 'events.series_id'])
    .where(inList(db, 'posts.id', listParameter(db, ids)))
    .execute();
  return new Map(
    rows.map((row) => [
      Number(row.id),
      {
        id: Number(row.id),
        type: row.type,
        slug: row.slug,
        seriesId: row.series_id === null ? null : Number(row.series_id),
      },
    ]),
  );
}

/** The terms that hold these ids, their taxonomy as the type. */
export async function termsWithIds(db: Executor, ids: readonly number[]): Promise<Map<number, IdHolder>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('terms')
    .select(['id', 'taxonomy', 'slug'])
    .where(inList(db, 'id', listParameter(db, ids)))
    .execute();
  return new Map(
    rows.map((row) => [Number(row.id), { id: Number(row.id), type: row.taxonomy, slug: row.slug, seriesId: null }]),
  );
}

/**
 * Moves a table's id sequence to at least `highest`, so that the next id it gives is above it
 * (`--keep-ids`, API.md §24). Never moves it back.
 */
export async function raiseIdSequence(db: Executor, table: 'posts' | 'terms', highest: number): Promise<void> {
  if (highest <= 0) return;
  if (dialectOfExecutor(db) === 'postgres') {
    await sql`SELECT setval(pg_get_serial_sequence(${table}, 'id'), GREATEST(${highest}::bigint, nextval(pg_get_serial_sequence(${table}, 'id'))))`.execute(
      db,
    );
    return;
  }
  const updated = await sql`UPDATE sqlite_sequence SET seq = max(seq, ${highest}) WHERE name = ${table}`.execute(db);
  if (Number(updated.numAffectedRows ?? 0) === 0)
    await sql`INSERT INTO sqlite_sequence (name, seq) VALUES (${table}, ${highest})`.execute(db);
}

/** Whether an event here has this iCalendar UID (the column is unique). */
export async function icalUidTaken(db: Executor, uid: string): Promise<boolean> {
  const row = await db.selectFrom('events').select('post_id').where('ical_uid', '=', uid).executeTakeFirst();
  return row !== undefined;
}
