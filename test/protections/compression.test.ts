import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { NS, useTestApp } from '../helpers/app.js';
import { testDialects } from '../helpers/databases.js';
import { createEventIds } from '../helpers/factories.js';

for (const dialect of await testDialects()) {
  describe(`response compression [${dialect}]`, () => {
    const t = useTestApp(dialect);
    const get = async (url: string, headers: Record<string, string> = {}) => {
      const res = await t.api.app.inject({ method: 'GET', url, headers });
      return { status: res.statusCode, headers: res.headers, body: res.rawPayload };
    };
    let identity: Buffer;

    before(async () => {
      await createEventIds(t.api, 3, { description: '<p>A description long enough to matter.</p>'.repeat(10) });
      identity = (await get(`${NS}/events`)).body;
      assert.ok(identity.length > 1024, 'the list is over 1 KB');
    });

    it('without Accept-Encoding a response is sent as it is, and says it varies by Accept-Encoding', async () => {
      const res = await get(`${NS}/events`);
      assert.equal(res.headers['content-encoding'], undefined);
      assert.equal(res.headers.vary, 'Accept-Encoding');
      assert.equal(Number(res.headers['content-length']), res.body.length);
      assert.equal(JSON.parse(res.body.toString()).events.length, 3);
    });

    it('gzip and brotli as the client ranks them (brotli on a tie)', async () => {
      const cases: [string, string | undefined][] = [
        ['gzip', 'gzip'],
        ['gzip, deflate, br', 'br'],
        ['br;q=0, gzip', 'gzip'],
        ['br;q=0.5, gzip;q=0.8', 'gzip'],
        ['*', 'br'],
        ['gzip;q=0, *;q=0.1', 'br'],
        ['identity', undefined],
        ['deflate', undefined],
        ['br;q=0, gzip;q=0', undefined],
      ];
      for (const [acceptEncoding, expected] of cases) {
        const res = await get(`${NS}/events?search=a&s=${encodeURIComponent(acceptEncoding)}`, {
          'accept-encoding': acceptEncoding,
        });
        assert.equal(res.status, 200);
        assert.equal(res.headers['content-encoding'], expected, acceptEncoding);
        assert.equal(Number(res.headers['content-length']), res.body.length, acceptEncoding);
      }
    });

    it('the compressed bytes decompress to the response sent to clients that do not compress', async () => {
      const gzipped = await get(`${NS}/events`, { 'accept-encoding': 'gzip' });
      assert.equal(gzipped.headers['content-encoding'], 'gzip');
      assert.ok(gzipped.body.length < identity.length / 2);
      assert.deepEqual(gunzipSync(gzipped.body), identity);
      const brotli = await get(`${NS}/events`, { 'accept-encoding': 'br' });
      assert.equal(brotli.headers['content-encoding'], 'br');
      assert.deepEqual(brotliDecompressSync(brotli.body), identity);
    });

    it('responses of 1 KB or less are not compressed', async () => {
      for (const url of ['/health', `${NS}/events/999999`]) {
        const res = await get(url, { 'accept-encoding': 'gzip, br' });
        assert.equal(res.headers['content-encoding'], undefined, url);
        assert.equal(res.headers.vary, undefined, url);
      }
    });
  });
}
