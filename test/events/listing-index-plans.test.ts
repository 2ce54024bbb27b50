import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { connect } from '../../src/db/connect.js';
import { updatePlannerStatistics } from '../../src/db/dialect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import type { Executor } from '../../src/db/schema.js';
import { createTestDatabase } from '../helpers/databases.js';
import { insertEvent } from '../helpers/factories.js';
import * as listingStatistics from '../../src/db/migrations/0024_listing_index_statistics.js';

/** Runs `use` on a migrated SQLite database of `events` events without series, after ANALYZE, then drops it. */
async function withAnalysedDatabase<T>(events: number, use: (db: Executor) => Promise<T>): Promise<T> {
  const database = await createTestDatabase('sqlite');
  const handle = connect(database.url);
  try {
    await migrateToLatest(handle.db, handle.dialect);
    for (let i = 0; i < events; i++) await insertEvent(handle.db);
    await updatePlannerStatistics(handle.db);
    return await use(handle.db);
  } finally {
    await handle.close();
    await database.drop();
  }
}

/** SQLite's plan of `query` on an analysed database of 300 events. */
const planOf = (query: RawBuilder<unknown>) =>
  withAnalysedDatabase(300, async (db) => {
    const plan = await sql<{ detail: string }>`EXPLAIN QUERY PLAN ${query}`.execute(db);
    return plan.rows.map((row) => row.detail).join('; ');
  });

describe('listing lookups read indexes [sqlite]', () => {
  // Migration 0024: a rebuilt index had no statistics on an analysed database, and SQLite's
  // planner guessed (`mixed` cost a third more CPU per request).
  it('the rebuilt listing indexes get their statistics back on a database that had them', async () => {
    await withAnalysedDatabase(50, async (db) => {
      const analysed = async () =>
        (await sql<{ idx: string }>`SELECT idx FROM sqlite_stat1 WHERE tbl = 'events'`.execute(db)).rows.map(
          (row) => row.idx,
        );
      // What 0022 did to an analysed database: the index rebuilt, its statistics gone.
      await sql`DROP INDEX events_listing`.execute(db);
      await sql`CREATE INDEX events_listing ON events (status, hide_from_listings, start_key, end_key, post_id, series_id)`.execute(
        db,
      );
      assert.ok(!(await analysed()).includes('events_listing'));
      await listingStatistics.up(db as unknown as Kysely<unknown>, 'sqlite');
      assert.ok((await analysed()).includes('events_listing'), String(await analysed()));
    });
  });

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
