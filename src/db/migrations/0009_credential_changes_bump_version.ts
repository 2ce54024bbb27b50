import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connect.js';

/**
 * Servers cache the application passwords they have found (users.service.ts) under the data version.
 * Any change to users or application passwords, by the CLI or by hand, bumps that version in the same
 * transaction, so no server accepts a revoked password or an old role once the change is committed.
 * (SQLite needs nothing: its `PRAGMA data_version` moves whenever another connection commits.)
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect !== 'postgres') return;
  await sql`
    CREATE FUNCTION bump_cache_version() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      UPDATE cache_state SET version = version + 1 WHERE id = 1;
      RETURN NULL;
    END
    $$`.execute(db);
  for (const table of ['users', 'app_passwords']) {
    await sql`CREATE TRIGGER ${sql.id(`${table}_bump_cache_version`)} AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON ${sql.table(table)} FOR EACH STATEMENT EXECUTE FUNCTION bump_cache_version()`.execute(
      db,
    );
  }
}
