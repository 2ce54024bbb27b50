import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { brotliDecompressSync } from 'node:zlib';
import { NS, useTestApp } from '../helpers/app.js';
import { testDialects } from '../helpers/databases.js';
import { createEventIds } from '../helpers/factories.js';

// The response cache keeps compressed bytes (plugins/compression.ts, response-cache.ts); it exists
// only with acceleration on, so this lives with the accelerators' own tests.
for (const dialect of await testDialects()) {
  describe(`compressed responses in the response cache [${dialect}]`, () => {
    const t = useTestApp(dialect);
    const get = async (url: string, headers: Record<string, string> = {}) => {
      const res = await t.api.app.inject({ method: 'GET', url, headers });
      return { status: res.statusCode, headers: res.headers, body: res.rawPayload };
    };

    before(async () => {
      await createEventIds(t.api, 3, { description: '<p>A description long enough to matter.</p>'.repeat(10) });
    });

    it('a cached response is kept compressed: a hit is sent in the encoding asked for, compressed once', async () => {
      const url = `${NS}/events?per_page=3`;
      const responses = [];
      for (let i = 0; i < 3; i++) responses.push(await get(url, { 'accept-encoding': 'br' }));
      const [, miss, hit] = responses;
      assert.equal(miss.headers['x-calendar-cache'], 'miss');
      assert.equal(hit.headers['x-calendar-cache'], 'hit');
      assert.equal(hit.headers['content-encoding'], 'br');
      assert.equal(hit.headers.vary, 'Accept-Encoding');
      assert.deepEqual(hit.body, miss.body, 'the very bytes kept');
      const plain = await get(url);
      assert.equal(plain.headers['x-calendar-cache'], 'miss', 'another encoding is another entry');
      assert.equal(plain.headers['content-encoding'], undefined);
      assert.deepEqual(brotliDecompressSync(hit.body), plain.body);
      const gzipped = await get(url, { 'accept-encoding': 'gzip' });
      assert.equal(gzipped.headers['content-encoding'], 'gzip');
    });
  });
}
