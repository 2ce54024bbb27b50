import type { Kysely } from 'kysely';
import type { Dialect } from '../connect.js';

/**
 * One row counting committed writes. Every API process reads it before serving a cached response
 * and bumps it after each write, so caches are invalidated across processes at once (PostgreSQL;
 * SQLite uses its own `PRAGMA data_version`, see changes/data-version.ts).
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect !== 'postgres') return;
  await db.schema
    .createTable('cache_state')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('version', 'bigint', (c) => c.notNull())
    .execute();
  await (db as Kysely<{ cache_state: { id: number; version: number } }>)
    .insertInto('cache_state')
    .values({ id: 1, version: 0 })
    .execute();
}
