import { sql, type Kysely } from 'kysely';

/**
 * What an iCalendar feed asks besides its events (API.md §19.1): the latest modification anywhere
 * (its Last-Modified), read by an index instead of a scan of every post; and which events are
 * password-protected (feeds leave them out), a few rows of their own index instead of a look at each
 * listed event's post row. At 100,000 events the scan took ~160 ms and the count of a year's feed
 * ~250 ms of a 2,000-event feed (docs/performance-log.md).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('posts_modified_at').on('posts').column('modified_at').execute();
  await db.schema
    .createIndex('posts_protected')
    .on('posts')
    .column('id')
    .where(sql.ref('password'), '<>', '')
    .execute();
}
