import type { Kysely } from 'kysely';

/**
 * The listing indexes carry `series_id` too, so that lists grouped by series (`expand=false`, the
 * iCalendar feeds) are read from the index alone: they had read every event row of the window for
 * its series (a year of 100,000 events: ~80 → ~30 ms per query, docs/performance-log.md).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const indexes = {
    events_listing: ['status', 'hide_from_listings', 'start_key', 'end_key', 'post_id', 'series_id'],
    events_listing_any: ['hide_from_listings', 'start_key', 'end_key', 'post_id', 'series_id'],
  };
  for (const [name, columns] of Object.entries(indexes)) {
    await db.schema.dropIndex(name).execute();
    await db.schema.createIndex(name).on('events').columns(columns).execute();
  }
}
