import type { Kysely } from 'kysely';

/** Term slugs per language (API.md §15: term slugs match in the request language, with fallback). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('term_translations').addColumn('slug', 'text').execute();
  await db.schema.createIndex('term_translations_slug').on('term_translations').columns(['slug']).execute();
}
