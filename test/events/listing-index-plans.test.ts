import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sql, type RawBuilder } from 'kysely';
import { connect } from '../../src/db/connect.js';
import { updatePlannerStatistics } from '../../src/db/dialect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { createTestDatabase } from '../helpers/databases.js';
import { insertEvent } from '../helpers/factories.js';

/** SQLite's plan of `query` on a migrated database of 300 events without series, after ANALYZE. */
async function planOf(query: RawBuilder<unknown>): Promise<string> {
  const database = await createTestDatabase('sqlite');
  const handle = connect(database.url);
  try {
    await migrateToLatest(handle.db, handle.dialect);
    for (let i = 0; i < 300; i++) await insertEvent(handle.db);
    await updatePlannerStatistics(handle.db);
    const plan = await sql<{ detail: string }>`EXPLAIN QUERY PLAN ${query}`.execute(handle.db);
    return plan.rows.map((row) => row.detail).join('; ');
  } finally {
    await handle.close();
    await database.drop();
  }
}

describe('listing lookups read indexes [sqlite]', () => {
  // SQLite's ANALYZE counts the NULLs of a column as one value: on a site without series, the whole
  // index looked like one value and `include=` scanned every event for occurrences (migration 0021).
  it('after the statistics of a bulk load, the lookup by series_id still uses the events_series index', async () => {
    const details = await planOf(sql`SELECT post_id FROM events WHERE series_id IN (1, 2)`);
    assert.match(details, /USING (COVERING )?INDEX events_series/, details);
  });

  // Migration 0022: lists grouped by series (`expand=false`, iCalendar feeds) had read every event
  // row of their window for its series_id.
  it('a list grouped by series reads the listing index alone', async () => {
    const details = await planOf(sql`SELECT COALESCE(series_id, post_id) AS id, MIN(start_key) FROM events
      WHERE status = 'publish' AND hide_from_listings = 0 AND start_key >= 0 AND end_key <= 4102444800
      GROUP BY 1`);
    assert.match(details, /USING COVERING INDEX events_listing\b/, details);
  });

  // Migration 0023: a list of events ending after an instant read every event that started before
  // it, back to the first; the longest event's length now bounds the starts from below.
  it('a list of events ending after an instant reads a bounded range of starts', async () => {
    const details = await planOf(sql`SELECT post_id FROM events
      WHERE status = 'publish' AND hide_from_listings = 0 AND end_key > 1000
        AND start_key > 1000 - (SELECT d.end_key - d.start_key FROM events d ORDER BY d.end_key - d.start_key DESC LIMIT 1)
      ORDER BY start_key, post_id`);
    assert.match(
      details,
      /SEARCH events USING (COVERING )?INDEX events_listing \(status=\? AND hide_from_listings=\? AND start_key>\?\)/,
      details,
    );
    assert.match(details, /SCAN d USING (COVERING )?INDEX events_duration/, details);
  });
});
