import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { brotliDecompressSync } from 'node:zlib';
import { NS } from '../helpers/app.js';
import { testDialects } from '../helpers/databases.js';
import { rawGet, useListeningApp } from '../helpers/http.js';
import { createUser } from '../../src/modules/users/users.service.js';

const ORIGIN = 'https://app.example';

/**
 * Response-cache hits are answered by the HTTP server's front, before Fastify (plugins/
 * response-cache.ts): rate limits, CORS, compression and metrics must hold for them too.
 */
for (const dialect of await testDialects()) {
  describe(`protections on hits the cache front answers [${dialect}]`, () => {
    const server = useListeningApp(dialect, {
      RATE_LIMIT_PER_MINUTE: '6',
      TRUST_PROXY: '127.0.0.1',
      CORS_ORIGINS: ORIGIN,
    });
    const url = `${NS}/events`;

    before(async () => {
      const { password } = await createUser(server.app.calendar.db, 'front-editor', 'editor', 1_700_000_000);
      const authorization = `Basic ${Buffer.from(`front-editor:${password}`).toString('base64')}`;
      for (let i = 1; i <= 3; i++) {
        const res = await server.app.inject({
          method: 'POST',
          url,
          headers: { authorization, 'x-forwarded-for': '198.51.100.1' },
          payload: {
            title: `Front event ${i}`,
            start_date: `2026-12-0${i} 10:00`,
            end_date: `2026-12-0${i} 11:00`,
            description: '<p>Enough text to be worth compressing.</p>'.repeat(10),
          },
        });
        assert.equal(res.statusCode, 201);
      }
    });

    it('a hit is sent with the compressed bytes kept, CORS headers and its RateLimit-* count', async () => {
      const headers = { 'accept-encoding': 'gzip, deflate, br', origin: ORIGIN, 'x-forwarded-for': '198.51.100.2' };
      const responses = [];
      for (let i = 0; i < 3; i++) responses.push(await rawGet(server.origin, url, headers));
      const [, miss, hit] = responses;
      assert.equal(miss.headers['x-calendar-cache'], 'miss');
      assert.equal(hit.headers['x-calendar-cache'], 'hit');
      assert.equal(hit.headers['content-encoding'], 'br');
      assert.deepEqual(hit.body, miss.body);
      assert.equal(JSON.parse(brotliDecompressSync(hit.body).toString()).events.length, 3);
      assert.equal(Number(hit.headers['content-length']), hit.body.length);
      assert.equal(hit.headers.vary, 'Origin, Accept-Encoding');
      assert.equal(hit.headers['access-control-allow-origin'], ORIGIN);
      assert.match(String(hit.headers['access-control-expose-headers']), /RateLimit-Reset/);
      assert.equal(hit.headers['ratelimit-limit'], '6');
      assert.equal(hit.headers['ratelimit-remaining'], '3');
      assert.equal(hit.headers['ratelimit-reset'], '12');
    });

    it('every hit is counted: over budget, a cached read is 429', async () => {
      const headers = { 'x-forwarded-for': '198.51.100.3' };
      const seen: unknown[] = [];
      for (let i = 0; i < 6; i++) {
        const res = await rawGet(server.origin, url, headers);
        assert.equal(res.status, 200);
        assert.equal(res.headers['ratelimit-remaining'], String(5 - i));
        seen.push(res.headers['x-calendar-cache']);
      }
      assert.ok(seen.includes('hit'));
      const refused = await rawGet(server.origin, url, headers);
      assert.equal(refused.status, 429);
      assert.equal(JSON.parse(refused.body.toString()).code, 'rest_too_many_requests');
      assert.equal(refused.headers['retry-after'], '12');
      assert.equal(refused.headers['x-calendar-cache'], undefined);
    });

    it('hits appear in the metrics under their route', async () => {
      const metrics = (await rawGet(server.origin, '/metrics')).body.toString();
      const hits = Number(/^response_cache_requests_total\{result="hit"\} (\d+)$/m.exec(metrics)?.[1]);
      assert.ok(hits >= 2, metrics);
      const served = /^http_requests_total\{method="GET",route="\/calendar\/events\/v1\/events",status="200"\} (\d+)$/m;
      assert.equal(Number(served.exec(metrics)?.[1]), 9, 'three reads in the first test, six in the second');
    });
  });
}
