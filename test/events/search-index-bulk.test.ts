import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sql } from 'kysely';
import { withBulkSearchIndexing } from '../../src/db/dialect.js';
import { testDialects, useMigratedDatabase } from '../helpers/databases.js';

// A bulk load (the seed command) changes how SQLite's trigram index buffers and merges while it runs;
// whatever happens, the server's writes afterwards must find the index's settings as they were:
// FTS5's 1 MB buffer, and merges 16 segments at a time (migration 0010) rather than FTS5's 4.

for (const dialect of await testDialects()) {
  describe(`bulk search indexing [${dialect}]`, () => {
    const database = useMigratedDatabase(dialect);

    /** FTS5's settings as stored (`search_fts_config`); none on PostgreSQL. */
    const settings = async () => {
      if (dialect === 'postgres') return {};
      const { rows } = await sql<{
        k: string;
        v: number;
      }>`SELECT k, v FROM search_fts_config WHERE k IN ('hashsize', 'automerge')`.execute(database.handle().db);
      return Object.fromEntries(rows.map((row) => [row.k, row.v]));
    };
    const serverSettings = dialect === 'sqlite' ? { hashsize: 1_048_576, automerge: 16 } : {};

    // First: the later tests store both settings.
    it('merges 16 segments at a time once migrated', async () => {
      assert.deepEqual(await settings(), dialect === 'sqlite' ? { automerge: 16 } : {});
    });

    it('buffers more and merges later during the load, then restores the settings and returns its result', async () => {
      let during: Record<string, number> = {};
      const result = await withBulkSearchIndexing(database.handle().db, async () => {
        during = await settings();
        return 42;
      });
      assert.equal(result, 42);
      if (dialect === 'sqlite') assert.deepEqual(during, { hashsize: 64 * 1_048_576, automerge: 0 });
      assert.deepEqual(await settings(), serverSettings);
    });

    it('restores the settings when the load fails, and the failure reaches the caller', async () => {
      await assert.rejects(
        withBulkSearchIndexing(database.handle().db, async () => {
          throw new Error('load failed');
        }),
        /load failed/,
      );
      assert.deepEqual(await settings(), serverSettings);
    });
  });
}
