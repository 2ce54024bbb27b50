import { sql, type Kysely } from 'kysely';

/**
 * Event lists filter on visibility (status, author) and sort by start. Copies of the post's status
 * and author on the events row let one covering index serve the whole default list without a join
 * or a sort, on both dialects (SQLite's planner otherwise starts from posts and sorts every row).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('events')
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('publish'))
    .execute();
  await db.schema
    .alterTable('events')
    .addColumn('author_id', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await sql`UPDATE events SET status = (SELECT posts.status FROM posts WHERE posts.id = events.post_id), author_id = (SELECT posts.author_id FROM posts WHERE posts.id = events.post_id)`.execute(
    db,
  );
  await db.schema
    .createIndex('events_listing')
    .on('events')
    .columns(['status', 'hide_from_listings', 'start_key', 'end_key', 'post_id'])
    .execute();
  await db.schema
    .createIndex('events_listing_any')
    .on('events')
    .columns(['hide_from_listings', 'start_key', 'end_key', 'post_id'])
    .execute();
  await db.schema.dropIndex('events_start').execute();
}
