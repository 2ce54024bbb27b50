import { SqliteAdapter, sql, type AliasedRawBuilder, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import type { Dialect } from './connect.js';
import type { Executor } from './schema.js';
import { containsPattern } from './translations.js';

/** The dialect behind a database handle or transaction. */
export function dialectOfExecutor(db: Executor): Dialect {
  return db.getExecutor().adapter instanceof SqliteAdapter ? 'sqlite' : 'postgres';
}

const ASCII = /^[\x00-\x7f]*$/;

/**
 * `text` contains `word` (already lower-cased), ignoring case. PostgreSQL folds with its native
 * lower(). SQLite's LIKE already ignores ASCII case, which is all an ASCII word needs, so the
 * Unicode lower() (a JavaScript function on SQLite, db/connect.ts) runs only for other words.
 */
export function containsIgnoringCase(db: Executor, text: Expression<string> | RawBuilder<string>, word: string): RawBuilder<SqlBool> {
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

/** `postId` is among the documents that may contain `word` (see documentsContaining). */
export function mayContain(db: Executor, postId: Expression<number> | RawBuilder<number>, word: string): RawBuilder<SqlBool> | undefined {
  const documents = documentsContaining(db, word);
  return documents && sql<SqlBool>`${postId} IN (${documents})`;
}

/** How an id list travels as one query parameter (idTable, inIdList): JSON on SQLite, an array on PostgreSQL. */
export function idListParameter(db: Executor, ids: readonly number[]): unknown {
  return dialectOfExecutor(db) === 'sqlite' ? JSON.stringify(ids) : [...ids];
}

/**
 * `ids` as a one-column table `alias(value)`, sent as one parameter however many there are. Put
 * first in a CROSS JOIN it drives the query on SQLite: one primary-key lookup per id.
 */
export function idTable(db: Executor, ids: readonly number[], alias: string): AliasedRawBuilder<{ value: number }, string> {
  return idRows(db, idListParameter(db, ids)).as(alias);
}

function idRows(db: Executor, parameter: unknown): RawBuilder<{ value: number }> {
  if (dialectOfExecutor(db) === 'sqlite') return sql<{ value: number }>`(SELECT value FROM json_each(${parameter}))`;
  return sql<{ value: number }>`(SELECT unnest(${parameter}::bigint[]) AS value)`;
}

/**
 * `column` is in the id list `parameter` (idListParameter): the same SQL for lists of any length.
 * On PostgreSQL `= ANY(array)`, whose generic plan costs about what a page of ids costs, so a named
 * statement stops being planned anew at every execution (an `unnest` subquery kept it re-planned:
 * 1.2–1.7 ms of planning for an event's row).
 */
export function inIdList(db: Executor, column: string, parameter: unknown): RawBuilder<SqlBool> {
  if (dialectOfExecutor(db) === 'postgres') return sql<SqlBool>`${sql.ref(column)} = ANY(${parameter}::bigint[])`;
  return sql<SqlBool>`${sql.ref(column)} IN ${idRows(db, parameter)}`;
}
