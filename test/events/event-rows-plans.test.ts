import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sql } from 'kysely';
import { connect, type DatabaseHandle } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { findEvent, findEvents } from '../../src/modules/events/events.repository.js';
import { findPostIdBySlug } from '../../src/modules/posts/posts.repository.js';
import { createTestDatabase, testDialects } from '../helpers/databases.js';
import { insertEvent } from '../helpers/factories.js';

const LANGUAGES = { lang: 'en', defaultLang: 'en' } as const;

// Plan caching is PostgreSQL's: SQLite prepares each statement once and never plans it again.
for (const dialect of (await testDialects()).filter((d) => d === 'postgres')) {
  describe(`reading events by ids or by slug reuses one plan [${dialect}]`, () => {
    /** Plans of the named statements whose SQL contains every fragment (this query's own excepted). */
    async function plansOf(
      handle: DatabaseHandle,
      ...fragments: string[]
    ): Promise<{ generic: number; custom: number }[]> {
      const { rows } = await sql<{ statement: string; generic_plans: string; custom_plans: string }>`
        SELECT statement, generic_plans, custom_plans FROM pg_prepared_statements`.execute(handle.db);
      return rows
        .filter(
          (row) =>
            !row.statement.includes('pg_prepared_statements') &&
            fragments.every((fragment) => row.statement.includes(fragment)),
        )
        .map((row) => ({ generic: Number(row.generic_plans), custom: Number(row.custom_plans) }));
    }

    /** Runs `use` on a fresh, migrated database, dropped afterwards. */
    async function onFreshDatabase(use: (handle: DatabaseHandle) => Promise<void>): Promise<void> {
      const database = await createTestDatabase(dialect);
      const handle = connect(database.url);
      try {
        await migrateToLatest(handle.db, handle.dialect);
        await use(handle);
      } finally {
        await handle.close();
        await database.drop();
      }
    }

    it('events read by ids: after its first executions, the statement runs a generic plan instead of being planned again', () =>
      onFreshDatabase(async (handle) => {
        const ids = [await insertEvent(handle.db), await insertEvent(handle.db), await insertEvent(handle.db)];
        for (let i = 0; i < 12; i++) {
          const wanted = ids.slice(0, 1 + (i % 3));
          assert.deepEqual(
            (await findEvents(handle.db, wanted, LANGUAGES)).map((row) => row.id),
            wanted,
          );
        }
        assert.equal(
          (await findEvent(handle.db, ids[0], LANGUAGES))?.id,
          ids[0],
          'one id is read by the same statement',
        );
        // Sequential queries run on the pool's one idle connection, whose prepared statements these are.
        const byIds = await plansOf(handle, 'string_agg', '"posts"."id" = ANY');
        assert.equal(byIds.length, 1, 'one statement reads events by ids, however many');
        assert.ok(byIds[0].generic >= 8 && byIds[0].custom <= 5, `by ids: ${JSON.stringify(byIds[0])}`);
      }));

    it('a slug lookup names the partial index predicate literally, so its generic plan uses the index', () =>
      onFreshDatabase(async (handle) => {
        const id = await insertEvent(handle.db);
        const { slug } = await handle.db
          .selectFrom('posts')
          .select('slug')
          .where('id', '=', id)
          .executeTakeFirstOrThrow();
        // Enough posts that a plan without the index (a scan) costs more than one with it.
        await sql`INSERT INTO posts (type, author_id, status, slug, title, lang, published_at, modified_at)
          SELECT 'event', 0, 'publish', 'filler-' || n, 'Filler', 'en', 0, 0 FROM generate_series(1, 5000) AS n`.execute(
          handle.db,
        );
        await sql`ANALYZE posts`.execute(handle.db);
        for (let i = 0; i < 12; i++)
          assert.equal(
            await findPostIdBySlug(handle.db, 'event', i % 2 ? slug : 'no-such-slug'),
            i % 2 ? id : undefined,
          );
        const bySlug = await plansOf(handle, '"slug" = $2');
        assert.equal(bySlug.length, 1, 'one statement looks a slug up');
        assert.ok(bySlug[0].generic >= 6 && bySlug[0].custom <= 6, `by slug: ${JSON.stringify(bySlug[0])}`);
      }));
  });
}
