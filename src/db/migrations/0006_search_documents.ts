import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../connect.js';

/**
 * Word search index for events (API.md §10 `search`, issue "benchmark harness"): one document per
 * event holding every version of its searchable text (original and translations). It only narrows
 * the candidates — a trigram index answers "contains this substring" for words of three or more
 * characters — and the exact per-language rule is still applied to them. SQLite uses an FTS5
 * trigram table kept in sync by triggers; PostgreSQL a pg_trgm GIN index.
 */
export async function up(db: Kysely<unknown>, dialect: Dialect): Promise<void> {
  await db.schema
    .createTable('search_documents')
    .addColumn('post_id', 'bigint', (c) => c.primaryKey().references('posts.id').onDelete('cascade'))
    .addColumn('body', 'text', (c) => c.notNull())
    .execute();
  if (dialect === 'sqlite') {
    await sql`CREATE VIRTUAL TABLE search_fts USING fts5(body, content='search_documents', content_rowid='post_id', tokenize='trigram case_sensitive 0')`.execute(
      db,
    );
    await sql`CREATE TRIGGER search_documents_ai AFTER INSERT ON search_documents BEGIN INSERT INTO search_fts(rowid, body) VALUES (new.post_id, new.body); END`.execute(
      db,
    );
    await sql`CREATE TRIGGER search_documents_ad AFTER DELETE ON search_documents BEGIN INSERT INTO search_fts(search_fts, rowid, body) VALUES ('delete', old.post_id, old.body); END`.execute(
      db,
    );
    await sql`CREATE TRIGGER search_documents_au AFTER UPDATE ON search_documents BEGIN INSERT INTO search_fts(search_fts, rowid, body) VALUES ('delete', old.post_id, old.body); INSERT INTO search_fts(rowid, body) VALUES (new.post_id, new.body); END`.execute(
      db,
    );
  } else {
    await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db);
    await sql`CREATE INDEX search_documents_trgm ON search_documents USING gin (lower(body) gin_trgm_ops)`.execute(db);
  }
  // Existing events get their original text now; translations join their document on the next write.
  await sql`INSERT INTO search_documents (post_id, body) SELECT id, title || ' ' || excerpt || ' ' || description FROM posts WHERE type = 'event'`.execute(
    db,
  );
}
