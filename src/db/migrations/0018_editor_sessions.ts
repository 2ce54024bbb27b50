import type { Kysely } from 'kysely';

/**
 * Sessions of the editor at /admin/ (API.md §23.2). A session holds the hash of its cookie token,
 * never the token; it belongs to the application password it was opened with, so revoking that
 * password or deleting the user ends it (the lookup joins both). `csrf` is the session's form token.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('editor_sessions')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('app_password_id', 'integer', (c) => c.notNull())
    .addColumn('csrf', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('seen_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('editor_sessions_app_password').on('editor_sessions').column('app_password_id').execute();
}
