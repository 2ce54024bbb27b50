import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connect.js';

/**
 * `exact` marks search documents that answer a search word alone (search/candidates.ts): one text
 * version (no translations), no password, plain ASCII. For those, "the document contains the word"
 * is the §10 rule itself, so public searches need not read the event's text again. The FTS index
 * is now refreshed only when the body changes, not when this flag does.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await db.schema
    .alterTable('search_documents')
    .addColumn('exact', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  if (dialect === 'sqlite') {
    await sql`DROP TRIGGER search_documents_au`.execute(db);
    await sql`CREATE TRIGGER search_documents_au AFTER UPDATE OF body ON search_documents BEGIN INSERT INTO search_fts(search_fts, rowid, body) VALUES ('delete', old.post_id, old.body); INSERT INTO search_fts(rowid, body) VALUES (new.post_id, new.body); END`.execute(
      db,
    );
  }
  // Byte length equals character length exactly for ASCII text (UTF-8).
  const ascii =
    dialect === 'sqlite'
      ? sql`length(CAST(search_documents.body AS BLOB)) = length(search_documents.body)`
      : sql`octet_length(search_documents.body) = char_length(search_documents.body)`;
  await sql`UPDATE search_documents SET exact = 1
    WHERE ${ascii}
      AND EXISTS (SELECT 1 FROM posts WHERE posts.id = search_documents.post_id AND posts.password = '')
      AND NOT EXISTS (SELECT 1 FROM post_translations WHERE post_translations.post_id = search_documents.post_id)`.execute(
    db,
  );
}
