import { sql, type Kysely } from 'kysely';

/**
 * Occurrences by their series, in an index of the rows that have one. On a site with few series the
 * planner's statistics counted every other row (series_id NULL) as one value of the whole index, and
 * it scanned the table instead: `include=` read every event (~8 ms at 100,000 events) to find the
 * occurrences of the ids it names (docs/performance-log.md).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('events_series').execute();
  await db.schema
    .createIndex('events_series')
    .on('events')
    .columns(['series_id', 'recurrence_id'])
    .where(sql.ref('series_id'), 'is not', null)
    .execute();
}
