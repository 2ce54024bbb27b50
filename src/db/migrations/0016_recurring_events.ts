import type { Kysely } from 'kysely';

/**
 * Recurring events (API.md §20). A series is an event with `recurrence` lines; each occurrence is
 * an event of its own (its own post id, so ids are stable and never reused: both dialects'
 * sequences never hand out a deleted id) pointing at its series with its original start. Lists
 * then need no change to find occurrences by every filter; a series' own row is kept out of
 * expanded lists through `hide_from_listings` (events.series.ts explains the encoding), which the
 * listing indexes already lead with.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  // Series: the lines as sent (JSON array), and the instant up to which occurrences were made.
  await db.schema.alterTable('events').addColumn('recurrence', 'text').execute();
  await db.schema.alterTable('events').addColumn('materialised_until', 'bigint').execute();
  // Series: the recurrence ids of occurrences deleted for good one by one, which stay excluded (§20.3).
  await db.schema.alterTable('events').addColumn('excluded', 'text').execute();
  // Occurrences: their series, their original start (`recurrence_id`) and the fields overridden (`|title|venue|`).
  await db.schema.alterTable('events').addColumn('series_id', 'bigint').execute();
  await db.schema.alterTable('events').addColumn('recurrence_id', 'text').execute();
  await db.schema.alterTable('events').addColumn('overrides', 'text').execute();
  await db.schema.createIndex('events_series').on('events').columns(['series_id', 'recurrence_id']).execute();
}
