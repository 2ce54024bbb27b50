import { sql, type Kysely } from 'kysely';

/**
 * The in-memory search candidates read the few events whose search document is not exact
 * (migration 0007) when they are built: a partial index keeps that from scanning every document.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX search_documents_inexact ON search_documents (post_id) WHERE exact = 0`.execute(db);
}
