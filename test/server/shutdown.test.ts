import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { startServer } from '../../bench/server.js';
import { createTestDatabase } from '../helpers/databases.js';

describe('the server process', () => {
  it('reports its search candidates built, serves the namespace index and stops cleanly on SIGTERM (exit code 0)', async () => {
    const database = await createTestDatabase('sqlite');
    after(() => database.drop());
    const server = await startServer(database.url, { cache: true });
    try {
      const health = await fetch(`${server.origin}/health`);
      assert.deepEqual(
        await health.json(),
        { status: 'ok', search_index: 'ready' },
        'started: the search candidates are built',
      );
      const index = await fetch(`${server.origin}/calendar/events/v1/`);
      assert.equal(index.status, 200);
      assert.equal(((await index.json()) as { namespace: string }).namespace, 'calendar/events/v1');
      const doc = await fetch(`${server.origin}/calendar/events/v1/doc`);
      assert.equal(((await doc.json()) as { openapi: string }).openapi, '3.1.0');
    } finally {
      await server.stop();
    }
    assert.equal(server.process.exitCode, 0);
  });
});
