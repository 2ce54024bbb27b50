import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';

/**
 * Conditional requests and the change feed (API.md §21).
 *
 * `revision` and `changed_at` on posts and terms move on every committed change of the item,
 * derived ones included (a term's `count`): ETags and `Last-Modified` are built from them, so they
 * agree across processes and restarts without rendering. Terms get `modified_at`, their last change
 * of their own (the `modified_after` filter; no key in their representation).
 *
 * `changes` is the feed: one row per committed change of an item, numbered by `sync_state.position`,
 * which every writer bumps in its transaction just before it commits, so numbers follow commit
 * order. The states before and after decide who sees a row (§21.1). `epoch` changes when the
 * database is restored (§25.5): tokens of another epoch are refused.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of ['posts', 'terms']) {
    await db.schema
      .alterTable(table)
      .addColumn('revision', 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.alterTable(table).addColumn('changed_at', 'bigint').execute();
  }
  await db.schema.alterTable('terms').addColumn('modified_at', 'bigint').execute();
  await sql`UPDATE terms SET modified_at = created_at`.execute(db);
  await db.schema
    .createTable('changes')
    .addColumn('seq', 'bigint', (c) => c.primaryKey())
    .addColumn('item_type', 'text', (c) => c.notNull())
    .addColumn('item_id', 'bigint', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('changed_at_ms', 'bigint', (c) => c.notNull())
    .addColumn('before_status', 'text')
    .addColumn('before_author', 'bigint')
    .addColumn('after_status', 'text')
    .addColumn('after_author', 'bigint')
    .execute();
  await db.schema.createIndex('changes_changed_at').on('changes').column('changed_at_ms').execute();
  await db.schema
    .createTable('sync_state')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('position', 'bigint', (c) => c.notNull())
    .addColumn('epoch', 'text', (c) => c.notNull())
    .execute();
  const epoch = randomUUID();
  await sql`INSERT INTO sync_state (id, position, epoch) VALUES (1, 0, ${epoch})`.execute(db);
}
