import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Worker } from 'node:worker_threads';
import { testDialects } from '../helpers/databases.js';
import { useTestApp } from '../helpers/app.js';
import { createEventId } from '../helpers/factories.js';
import { connect } from '../../src/db/connect.js';
import { eventsThatMayContain } from '../../src/modules/events/search/search.repository.js';

// On SQLite files the events that may contain a searched word are read on a worker thread
// (src/db/off-thread.ts): the answer must be the one the server's own connection gives.

const sorted = (ids: ArrayLike<number> | undefined) => Array.from(ids ?? []).sort((a, b) => a - b);

for (const dialect of await testDialects()) {
  describe(`word search documents read off the main thread [${dialect}]`, () => {
    const t = useTestApp(dialect);

    it('give the same events as the connection; a failed read is an error; after three dead workers the connection reads', async () => {
      await t.api.clearContent();
      const create = (title: string) =>
        createEventId(
          t.api,
          { title, status: 'publish', start_date: '2027-05-01 19:00:00', end_date: '2027-05-01 21:00:00' },
          'editor',
        );
      const jazzNight = await create('Jazz night');
      await create('Blues evening');
      const lateJazz = await create('Late JAZZ');
      const handle = connect(t.api.config.databaseUrl);
      try {
        const onConnection = sorted(await eventsThatMayContain(handle.db, 'jazz'));
        assert.deepEqual(
          onConnection,
          [jazzNight, lateJazz].sort((a, b) => a - b),
        );
        if (dialect === 'postgres') {
          assert.equal(handle.offThread, undefined, 'PostgreSQL reads asynchronously anyway');
          return;
        }
        assert.ok(handle.offThread, 'a SQLite file has an off-thread reader');
        assert.deepEqual(sorted(await eventsThatMayContain(handle.db, 'jazz', handle.offThread)), onConnection);
        await assert.rejects(handle.offThread.ids('SELECT no_such_column FROM posts', []), /off-thread read failed/);
        assert.deepEqual(Array.from(await handle.offThread.ids('SELECT 7', [])), [7]);
        // A worker that dies fails its reads; after a few deaths the connection reads instead.
        const slow =
          'WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 20000000) SELECT count(*) FROM n';
        for (let death = 1; death <= 3; death++) {
          assert.ok(handle.offThread.available);
          const read = handle.offThread.ids(slow, []);
          await (handle.offThread as unknown as { worker: Worker }).worker.terminate();
          await assert.rejects(read, /exited/);
        }
        assert.equal(handle.offThread.available, false);
        assert.deepEqual(sorted(await eventsThatMayContain(handle.db, 'jazz', handle.offThread)), onConnection);
      } finally {
        await handle.close();
      }
    });
  });
}
