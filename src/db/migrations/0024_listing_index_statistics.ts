import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connect.js';
import type { Database } from '../schema.js';
import { updatePlannerStatistics } from '../dialect.js';

/**
 * Planner statistics for the indexes 0022 rebuilt and 0023 added. On SQLite a dropped index takes
 * its statistics with it, and a new one has none until ANALYZE: the planner then guessed, and
 * `mixed` at 100,000 events cost 1.1 → 1.5–1.7 ms of CPU per request (docs/performance-log.md).
 * A SQLite database whose events were never analysed (a new or small one) is left so.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  if (dialect === 'sqlite' && !(await eventsAnalysed(db))) return;
  await updatePlannerStatistics(db as unknown as Kysely<Database>);
}

async function eventsAnalysed(db: Kysely<unknown>): Promise<boolean> {
  const table = await sql<{ n: number }>`SELECT COUNT(*) AS n FROM sqlite_master WHERE name = 'sqlite_stat1'`.execute(
    db,
  );
  if (Number(table.rows[0]?.n ?? 0) === 0) return false;
  const rows = await sql<{ n: number }>`SELECT COUNT(*) AS n FROM sqlite_stat1 WHERE tbl = 'events'`.execute(db);
  return Number(rows.rows[0]?.n ?? 0) > 0;
}
