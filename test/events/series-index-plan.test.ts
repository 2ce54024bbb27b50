import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sql } from 'kysely';
import { connect } from '../../src/db/connect.js';
import { updatePlannerStatistics } from '../../src/db/dialect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { createTestDatabase } from '../helpers/databases.js';
import { insertEvent } from '../helpers/factories.js';

// SQLite's ANALYZE counts the NULLs of a column as one value: on a site without series, the whole
// index looked like one value and `include=` scanned every event for occurrences (migration 0021).
describe('occurrences by series on a site without series [sqlite]', () => {
  it('after the statistics of a bulk load, the lookup by series_id still uses the events_series index', async () => {
    const database = await createTestDatabase('sqlite');
    const handle = connect(database.url);
    try {
      await migrateToLatest(handle.db, handle.dialect);
      for (let i = 0; i < 300; i++) await insertEvent(handle.db);
      await updatePlannerStatistics(handle.db);
      const plan = await sql<{
        detail: string;
      }>`EXPLAIN QUERY PLAN SELECT post_id FROM events WHERE series_id IN (1, 2)`.execute(handle.db);
      const details = plan.rows.map((row) => row.detail).join('; ');
      assert.match(details, /USING (COVERING )?INDEX events_series/, details);
    } finally {
      await handle.close();
      await database.drop();
    }
  });
});
