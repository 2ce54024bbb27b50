import { SqliteAdapter, sql, type AliasedRawBuilder, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import type { Dialect } from './connect.js';
import type { Executor } from './schema.js';
import { containsPattern } from './translations.js';

/** The dialect behind a database handle or transaction. */
export function dialectOfExecutor(db: Executor): Dialect {
  return db.getExecutor().adapter instanceof SqliteAdapter ? 'sqlite' : 'postgres';
}

const ASCII = /^\p{ASCII}*$/u;

/**
 * `text` contains `word` (already lower-cased), ignoring case. PostgreSQL folds with its native
 * lower(). SQLite's LIKE already ignores ASCII case, which is all an ASCII word needs, so the
 * Unicode lower() (a JavaScript function on SQLite, db/connect.ts) runs only for other words.
 */
export function containsIgnoringCase(
  db: Executor,
  text: Expression<string> | RawBuilder<string>,
  word: string,
): RawBuilder<SqlBool> {
  const pattern = containsPattern(word);
  if (dialectOfExecutor(db) === 'sqlite' && ASCII.test(word)) return sql<SqlBool>`${text} LIKE ${pattern} ESCAPE '\\'`;
  return sql<SqlBool>`lower(${text}) LIKE ${pattern} ESCAPE '\\'`;
}

/**
 * The ids of the search documents that contain `word` somewhere (any language, any field), as a
 * subquery: a cheap, index-backed necessary condition for words of three characters or more
 * (migration 0006); undefined for shorter words, which the index cannot narrow.
 */
export function documentsContaining(db: Executor, word: string): RawBuilder<{ post_id: number }> | undefined {
  if ([...word].length < 3) return undefined;
  if (dialectOfExecutor(db) === 'sqlite') {
    const phrase = `"${word.replace(/"/g, '""')}"`;
    return sql`SELECT rowid AS post_id FROM search_fts WHERE search_fts MATCH ${phrase}`;
  }
  return sql`SELECT post_id FROM search_documents WHERE lower(body) LIKE ${containsPattern(word)} ESCAPE '\\'`;
}

/** SQLite FTS5's own defaults (fts5_config.c), for settings its config table does not hold. */
const SEARCH_INDEX_DEFAULTS = { hashsize: 1_048_576, automerge: 4 };
type SearchIndexSettings = typeof SEARCH_INDEX_DEFAULTS;
const BULK_SEARCH_INDEXING: SearchIndexSettings = { hashsize: 64 * 1_048_576, automerge: 0 };

/** The settings the index writes with now (migration 0010 stores `automerge`). */
async function searchIndexSettings(db: Executor): Promise<SearchIndexSettings> {
  const { rows } = await sql<{
    k: keyof SearchIndexSettings;
    v: number;
  }>`SELECT k, v FROM search_fts_config WHERE k IN ('hashsize', 'automerge')`.execute(db);
  return { ...SEARCH_INDEX_DEFAULTS, ...Object.fromEntries(rows.map((row) => [row.k, row.v])) };
}

async function setSearchIndexSettings(db: Executor, settings: SearchIndexSettings): Promise<void> {
  // Literals: FTS5 refuses these settings bound as parameters (better-sqlite3 binds numbers as reals).
  for (const [name, value] of Object.entries(settings)) {
    await sql`INSERT INTO search_fts(search_fts, rank) VALUES (${name}, ${sql.raw(String(value))})`.execute(db);
  }
}

/**
 * Runs a bulk load with SQLite's trigram index buffering 64 MB of new entries instead of 1 MB and
 * not merging segments as it goes (compactSearchIndex merges them once at the end); the settings
 * from before are back afterwards, even if the load fails. Seeding 50,000 events: 15.4 → 12.2 s, of
 * which the search documents' inserts 7.9 → 4.8 s. PostgreSQL's index needs nothing.
 */
export async function withBulkSearchIndexing<T>(db: Executor, load: () => Promise<T>): Promise<T> {
  if (dialectOfExecutor(db) !== 'sqlite') return load();
  const settings = await searchIndexSettings(db);
  await setSearchIndexSettings(db, BULK_SEARCH_INDEXING);
  try {
    return await load();
  } finally {
    await setSearchIndexSettings(db, settings);
  }
}

/**
 * After a bulk load, merges SQLite's trigram index into one segment. Left as the load wrote it, the
 * next few thousand writes each carried a share of that merge (in-process, 100,000 seeded events:
 * 1.1–1.2 ms per commit for the first 4,000 writes, 0.55–0.65 ms once merged). PostgreSQL's index
 * needs nothing.
 */
export async function compactSearchIndex(db: Executor): Promise<void> {
  if (dialectOfExecutor(db) === 'sqlite') await sql`INSERT INTO search_fts(search_fts) VALUES ('optimize')`.execute(db);
}

/**
 * Fresh planner statistics after a bulk load, so both planners pick the listing indexes right away.
 * SQLite keeps only ANALYZE's per-index averages (`sqlite_stat1`), not its value samples
 * (`sqlite_stat4`): with samples, a statement whose plan could depend on a bound value is compiled
 * again on every execution, whatever the value (a term lookup by slug: 20–31 µs instead of 3–5).
 */
export async function updatePlannerStatistics(db: Executor): Promise<void> {
  await sql`ANALYZE`.execute(db);
  if (dialectOfExecutor(db) !== 'sqlite') return;
  const samples = await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE name = 'sqlite_stat4'`.execute(db);
  if (samples.rows.length === 0) return;
  await sql`DELETE FROM sqlite_stat4`.execute(db);
  // Reloads the statistics the connection planned with.
  await sql`ANALYZE sqlite_schema`.execute(db);
}

/** `postId` is among the documents that may contain `word` (see documentsContaining). */
export function mayContain(
  db: Executor,
  postId: Expression<number> | RawBuilder<number>,
  word: string,
): RawBuilder<SqlBool> | undefined {
  const documents = documentsContaining(db, word);
  return documents && sql<SqlBool>`${postId} IN (${documents})`;
}

/** How a list of ids or texts travels as one query parameter (idTable, inList): JSON on SQLite, an array on PostgreSQL. */
export function listParameter(db: Executor, values: readonly number[] | readonly string[]): unknown {
  return dialectOfExecutor(db) === 'sqlite' ? JSON.stringify(values) : [...values];
}

/**
 * `ids` as a one-column table `alias(value)`, sent as one parameter however many there are. Put
 * first in a CROSS JOIN it drives the query on SQLite: one primary-key lookup per id.
 */
export function idTable(
  db: Executor,
  ids: readonly number[],
  alias: string,
): AliasedRawBuilder<{ value: number }, string> {
  return listRows<number>(db, listParameter(db, ids), 'bigint').as(alias);
}

type ListType = 'bigint' | 'text';

function listRows<T>(db: Executor, parameter: unknown, type: ListType): RawBuilder<{ value: T }> {
  if (dialectOfExecutor(db) === 'sqlite') return sql<{ value: T }>`(SELECT value FROM json_each(${parameter}))`;
  return sql<{ value: T }>`(SELECT unnest(${pgArray(parameter, type)}) AS value)`;
}

/**
 * PostgreSQL: the list behind a subquery, so that the planner estimates its length alike whether
 * it plans for these values or for any. Handed the array itself, a plan for the actual ids always
 * looked cheaper than the generic one, so PostgreSQL planned such a statement anew at every
 * execution: 1.2 ms for a page of event rows that a generic plan reads in 0.5 ms.
 */
function pgArray(parameter: unknown, type: ListType): RawBuilder<unknown[]> {
  return sql<unknown[]>`ARRAY(SELECT unnest(${parameter}::${sql.raw(type)}[]))`;
}

/** `column` is in the list `parameter` (listParameter) of ids or texts: the same SQL for lists of any length. */
export function inList(
  db: Executor,
  column: string,
  parameter: unknown,
  type: ListType = 'bigint',
): RawBuilder<SqlBool> {
  if (dialectOfExecutor(db) === 'postgres') return sql<SqlBool>`${sql.ref(column)} = ANY(${pgArray(parameter, type)})`;
  return sql<SqlBool>`${sql.ref(column)} IN ${listRows(db, parameter, type)}`;
}
