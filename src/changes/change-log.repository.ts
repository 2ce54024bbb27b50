import { sql } from 'kysely';
import type { Executor } from '../db/schema.js';
import type { ReadState } from './change-set.js';

/** A change-feed row as written and read (API.md §21.1). */
export interface ChangeRow {
  seq: number;
  item_type: string;
  item_id: number;
  action: string;
  changed_at_ms: number;
  before_status: string | null;
  before_author: number | null;
  after_status: string | null;
  after_author: number | null;
}

/**
 * Moves the revision (ETags) and change time (Last-Modified) of the posts and terms a write changed,
 * and returns who may read each of those posts now (those that still exist): the change feed's
 * state after the write, without a second statement.
 */
export async function bumpRevisions(
  trx: Executor,
  postIds: readonly number[],
  termIds: readonly number[],
  now: number,
): Promise<Map<number, ReadState>> {
  const rows =
    postIds.length === 0
      ? []
      : await trx
          .updateTable('posts')
          .set({ revision: sql`revision + 1`, changed_at: now })
          .where('id', 'in', [...postIds])
          .returning(['id', 'status', 'author_id'])
          .execute();
  if (termIds.length > 0)
    await trx
      .updateTable('terms')
      .set({ revision: sql`revision + 1`, changed_at: now })
      .where('id', 'in', [...termIds])
      .execute();
  return statesById(rows);
}

/**
 * A category's `url` holds its ancestors' slugs: when a category changes, its descendants'
 * representations may change too, so their revisions move with it. Returns the descendants.
 */
export async function bumpDescendantRevisions(
  trx: Executor,
  termIds: readonly number[],
  now: number,
): Promise<number[]> {
  if (termIds.length === 0) return [];
  const { rows } = await sql<{ id: number }>`
    WITH RECURSIVE descendants(id) AS (
      SELECT id FROM terms WHERE parent_id IN (${sql.join(termIds)})
      UNION SELECT terms.id FROM terms JOIN descendants ON terms.parent_id = descendants.id
    )
    UPDATE terms SET revision = revision + 1, changed_at = ${now} WHERE id IN (SELECT id FROM descendants)
    RETURNING id`.execute(trx);
  return rows.map((row) => Number(row.id));
}

/** The last change of a term's own (its `modified_after`), unlike changes of its count. */
export async function touchTerms(trx: Executor, termIds: readonly number[], now: number): Promise<void> {
  if (termIds.length === 0) return;
  await trx
    .updateTable('terms')
    .set({ modified_at: now })
    .where('id', 'in', [...termIds])
    .execute();
}

/** Who may read each of these posts now (those that still exist). */
export async function readStates(trx: Executor, postIds: readonly number[]): Promise<Map<number, ReadState>> {
  if (postIds.length === 0) return new Map();
  const rows = await trx
    .selectFrom('posts')
    .select(['id', 'status', 'author_id'])
    .where('id', 'in', [...postIds])
    .execute();
  return statesById(rows);
}

function statesById(rows: readonly { id: number; status: string; author_id: number }[]): Map<number, ReadState> {
  return new Map(rows.map((row) => [Number(row.id), { status: row.status, author_id: row.author_id }]));
}

/**
 * Reserves the next `count` change numbers and returns the last. The row stays locked until the
 * transaction ends, so a later writer gets its numbers only after this one has committed or rolled
 * back: numbers follow commit order (PostgreSQL; SQLite runs one write transaction at a time).
 */
export async function reservePositions(trx: Executor, count: number): Promise<number> {
  const row = await trx
    .updateTable('sync_state')
    .set({ position: sql`position + ${count}` })
    .where('id', '=', 1)
    .returning('position')
    .executeTakeFirstOrThrow();
  return Number(row.position);
}

export async function insertChanges(trx: Executor, rows: readonly ChangeRow[]): Promise<void> {
  if (rows.length > 0)
    await trx
      .insertInto('changes')
      .values([...rows])
      .execute();
}

export async function syncState(db: Executor): Promise<{ position: number; epoch: string }> {
  const row = await db
    .selectFrom('sync_state')
    .select(['position', 'epoch'])
    .where('id', '=', 1)
    .executeTakeFirstOrThrow();
  return { position: Number(row.position), epoch: row.epoch };
}

/**
 * Changes after `after`, oldest first, that a reader may need: those whose state before or after
 * was published, plus (for `author`) its own items; every change when `author` is 'all'. The
 * caller's exact rights are applied to the rows returned (changes.feed.ts).
 */
export async function changesAfter(
  db: Executor,
  after: number,
  limit: number,
  reader: 'all' | 'public' | number,
): Promise<ChangeRow[]> {
  let query = db.selectFrom('changes').selectAll().where('seq', '>', after);
  if (reader !== 'all')
    query = query.where((eb) =>
      eb.or([
        eb('after_status', '=', 'publish'),
        eb('before_status', '=', 'publish'),
        ...(typeof reader === 'number' ? [eb('after_author', '=', reader), eb('before_author', '=', reader)] : []),
      ]),
    );
  const rows = await query.orderBy('seq').limit(limit).execute();
  return rows.map((row) => ({ ...row, seq: Number(row.seq), item_id: Number(row.item_id) }));
}

/** Forgets changes older than the retention period (tokens that could need them are refused). */
export async function purgeChanges(db: Executor, beforeMs: number): Promise<void> {
  await db.deleteFrom('changes').where('changed_at_ms', '<', beforeMs).execute();
}

export async function newEpoch(db: Executor, epoch: string): Promise<void> {
  await db.updateTable('sync_state').set({ epoch }).where('id', '=', 1).execute();
}
