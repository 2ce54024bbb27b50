import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connect.js';

/**
 * SQLite's trigram index writes each transaction's entries as a new segment and merges segments
 * level by level. FTS5 merges as soon as a level holds 4 (`automerge`); after a bulk load, whose
 * index is one large segment a few levels up, that large segment was rewritten again and again by
 * the writes that followed. Merging 16 at a time rewrites each entry half as often (measured in
 * docs/performance-log.md). Searches read more segments, on the worker thread mostly
 * (search/candidates.ts). The setting is stored in the index (`search_fts_config`), so it holds for
 * every connection. PostgreSQL's index needs nothing.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  // A literal: FTS5 refuses a bound value here (better-sqlite3 binds numbers as reals).
  if (dialect === 'sqlite') await sql`INSERT INTO search_fts(search_fts, rank) VALUES ('automerge', 16)`.execute(db);
}
