import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sql } from 'kysely';
import { connect } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { findEvent, findEvents } from '../../src/modules/events/events.repository.js';
import { createTestDatabase, testDialects } from '../helpers/databases.js';
import { insertEvent } from '../helpers/factories.js';

const LANGUAGES = { lang: 'en', defaultLang: 'en' } as const;

// Plan caching is PostgreSQL's: SQLite prepares each statement once and never plans it again.
for (const dialect of (await testDialects()).filter((d) => d === 'postgres')) {
  describe(`reading an event by id reuses one plan [${dialect}]`, () => {
    it('after its first executions, the named statement runs a generic plan instead of being planned again', async () => {
      const database = await createTestDatabase(dialect);
      const handle = connect(database.url);
      try {
        await migrateToLatest(handle.db, handle.dialect);
        const ids = [await insertEvent(handle.db), await insertEvent(handle.db)];
        for (let i = 0; i < 12; i++) assert.equal((await findEvent(handle.db, ids[i % 2], LANGUAGES))?.id, ids[i % 2]);
        assert.deepEqual((await findEvents(handle.db, ids, LANGUAGES)).map((row) => row.id), ids, 'several ids are read by the other statement');
        // Sequential queries run on the pool's one idle connection, whose prepared statements these are.
        const { rows } = await sql<{ generic_plans: string; custom_plans: string }>`
          SELECT generic_plans, custom_plans FROM pg_prepared_statements
          WHERE statement LIKE '%string_agg%' AND statement LIKE '%"posts"."id" = $%' AND statement NOT LIKE '%pg_prepared_statements%'`.execute(handle.db);
        assert.equal(rows.length, 1, 'one statement reads an event by id');
        assert.ok(Number(rows[0].generic_plans) >= 6, `generic plans: ${rows[0].generic_plans}, custom plans: ${rows[0].custom_plans}`);
        assert.ok(Number(rows[0].custom_plans) <= 6, `custom plans: ${rows[0].custom_plans}`);
      } finally {
        await handle.close();
        await database.drop();
      }
    });
  });
}
