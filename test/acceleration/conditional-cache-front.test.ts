import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { startServer } from '../../bench/server.js';
import { createTestDatabase } from '../helpers/databases.js';

const AUTH = `Basic ${Buffer.from('admin:bench-admin-password').toString('base64')}`;

describe('conditional reads answered by the response cache in front of the server', () => {
  it('a kept response is answered 304 to a client holding its ETag (single items and lists)', async () => {
    const database = await createTestDatabase('sqlite');
    after(() => database.drop());
    const server = await startServer(database.url, { cache: true });
    try {
      const api = `${server.origin}/calendar/events/v1`;
      const created = await fetch(`${api}/events`, {
        method: 'POST',
        headers: { authorization: AUTH, 'content-type': 'application/json' },
        body: JSON.stringify({ title: 'Front', start_date: '2030-01-01 10:00:00', end_date: '2030-01-01 11:00:00' }),
      });
      assert.equal(created.status, 201);
      const { id } = (await created.json()) as { id: number };
      for (const path of [`/events/${id}`, '/events?start_date=2029-12-01']) {
        // Read until the cache keeps it (its admission asks for a second request).
        let etag = '';
        let hit = false;
        for (let i = 0; i < 4 && !hit; i++) {
          const res = await fetch(`${api}${path}`);
          etag = res.headers.get('etag') ?? '';
          hit = res.headers.get('x-calendar-cache') === 'hit';
          await res.arrayBuffer();
        }
        assert.ok(hit, `${path} is served from the cache`);
        const conditional = await fetch(`${api}${path}`, { headers: { 'if-none-match': etag } });
        assert.equal(conditional.status, 304, path);
        assert.equal(conditional.headers.get('etag'), etag);
        assert.equal(await conditional.text(), '');
        const other = await fetch(`${api}${path}`, { headers: { 'if-none-match': '"other"' } });
        assert.equal(other.status, 200);
        await other.arrayBuffer();
      }
    } finally {
      await server.stop();
    }
  });
});
