import { sql, type Kysely } from 'kysely';

/**
 * The longest event's length, read from an index: a list of events ending after an instant then
 * bounds the starts it scans (listing.repository.ts), where it read every event that started
 * before, back to the first (a month page at 100,000 events: ~8 → ~4 ms, docs/performance-log.md).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX events_duration ON events ((end_key - start_key))`.execute(db);
}
