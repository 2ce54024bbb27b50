import type { Kysely } from 'kysely';

/**
 * Who may edit a trashed post depends on its status before the trash (WordPress keeps it as
 * `_wp_trash_meta_status`): a contributor may not edit or delete its own post once published, even
 * from the trash. Posts already in the trash have none and count as unpublished, as in WordPress.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('posts').addColumn('status_before_trash', 'text').execute();
}
