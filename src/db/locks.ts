import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { dialectOfExecutor } from './dialect.js';
import type { Executor } from './schema.js';

/** A 64-bit advisory lock key for a text key (a collision only makes two unrelated writers wait for each other). */
function advisoryKey(key: string): string {
  return createHash('sha1').update(key).digest().readBigInt64BE(0).toString();
}

/**
 * Makes the other writers that ask for the same key wait until this transaction has ended, for
 * check-then-insert rules no constraint can express (the next free slug, reuse of a venue by
 * name). PostgreSQL: a transaction-scoped advisory lock; once it is granted, the next statement
 * sees what the previous holder committed (READ COMMITTED). SQLite needs nothing: a process's
 * transactions already run one at a time on its one connection.
 */
export async function lockUntilCommit(trx: Executor, key: string): Promise<void> {
  if (dialectOfExecutor(trx) !== 'postgres') return;
  await sql`SELECT pg_advisory_xact_lock(${advisoryKey(key)}::bigint)`.execute(trx);
}
