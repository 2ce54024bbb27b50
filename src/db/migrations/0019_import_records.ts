import type { Kysely } from 'kysely';

/**
 * What `import:tec` wrote (API.md §24): one row per source item, keyed by the source's normalised
 * REST root, the kind of item and its id there. It makes a second run update instead of duplicate,
 * and lets an interrupted run continue: `local_id` is null while the item's write is under way, and
 * `fingerprint` is the hash of the source data last written, so unchanged items cost no write.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('import_records')
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('source_id', 'bigint', (c) => c.notNull())
    .addColumn('local_id', 'bigint')
    .addColumn('fingerprint', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('imported_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('import_records_pk', ['source', 'kind', 'source_id'])
    .execute();
  await db.schema.createIndex('import_records_local').on('import_records').columns(['kind', 'local_id']).execute();
}
