import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { startServer } from '../../bench/server.js';
import { createTestDatabase } from '../helpers/databases.js';

describe('the server process', () => {
  it('serves the namespace index and stops cleanly on SIGTERM (exit code 0)', async () => {
    const database = await createTestDatabase('sqlite');
    after(() => database.drop());
    const server = await startServer(database.url, { cache: true });
    try {
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
