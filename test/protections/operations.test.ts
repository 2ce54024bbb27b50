import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { useTestApp } from '../helpers/app.js';
import { createTestDatabase, testDialects } from '../helpers/databases.js';
import { listen } from '../helpers/http.js';

const TOKEN = 'metrics-token-for-tests';

for (const dialect of await testDialects()) {
  describe(`health, readiness and metrics (API.md §25.4) [${dialect}]`, () => {
    const t = useTestApp(dialect, { env: { METRICS_TOKEN: TOKEN } });
    const bearer = { authorization: `Bearer ${TOKEN}` };

    it('/health is 200 {"status":"ok"} (and the search index state), not stored by caches', async () => {
      const res = await t.api.get('/health', { raw: true });
      assert.equal(res.status, 200);
      assert.equal(res.json.status, 'ok');
      assert.match(res.json.search_index, /^(building|ready)$/);
      assert.equal(res.headers['cache-control'], 'no-store');
    });

    it('/ready is 200 {"status":"ok"} while the database answers', async () => {
      const res = await t.api.get('/ready', { raw: true });
      assert.equal(res.status, 200);
      assert.deepEqual(res.json, { status: 'ok' });
      assert.equal(res.headers['cache-control'], 'no-store');
    });

    it('none of them has a language form, and credentials are not looked at', async () => {
      for (const path of ['/fr/health', '/fr/ready', '/fr/metrics']) {
        assert.equal((await t.api.get(path, { raw: true })).status, 404, path);
      }
      const res = await t.api.get('/health', { raw: true, as: { authorization: 'Basic bm90OmdpdmVu' } });
      assert.equal(res.status, 200);
    });

    it('/metrics needs the METRICS_TOKEN bearer: without it or with another, 401 rest_forbidden', async () => {
      const attempts: Record<string, string>[] = [
        {},
        { authorization: 'Bearer wrong' },
        { authorization: `Basic ${TOKEN}` },
      ];
      for (const headers of attempts) {
        const res = await t.api.get('/metrics', { raw: true, headers });
        assert.equal(res.status, 401);
        assert.equal(res.json.code, 'rest_forbidden');
        assert.equal(res.headers['cache-control'], 'no-store');
      }
    });

    it('/metrics is Prometheus text with requests by route pattern, durations, cache, pool and process metrics', async () => {
      await t.api.get('/events/999999');
      await t.api.get('/nothing/here', { raw: true });
      for (let i = 0; i < 3; i++) await t.api.get('/venues');
      const res = await t.api.get('/metrics', { raw: true, headers: bearer });
      assert.equal(res.status, 200);
      assert.equal(res.headers['content-type'], 'text/plain; version=0.0.4; charset=utf-8');
      assert.equal(res.headers['cache-control'], 'no-store');
      const text = res.text;
      assert.match(
        text,
        /^http_requests_total\{method="GET",route="\/calendar\/events\/v1\/events\/:id",status="404"\} 1$/m,
      );
      assert.match(text, /^http_requests_total\{method="GET",route="unmatched",status="404"\} \d+$/m);
      assert.match(
        text,
        /^http_request_duration_seconds_bucket\{le="0.005",method="GET",route="\/calendar\/events\/v1\/venues"\} \d+$/m,
      );
      assert.match(
        text,
        /^http_request_duration_seconds_count\{method="GET",route="\/calendar\/events\/v1\/venues"\} 3$/m,
      );
      const cacheOn = t.api.config.acceleration;
      assert.match(text, new RegExp(`^response_cache_requests_total\\{result="hit"\\} ${cacheOn ? 1 : 0}$`, 'm'));
      assert.match(text, new RegExp(`^response_cache_requests_total\\{result="miss"\\} ${cacheOn ? 3 : 0}$`, 'm'));
      assert.match(text, /^db_pool_connections\{state="idle"\} \d+$/m);
      assert.match(text, /^db_pool_connections\{state="busy"\} 0$/m);
      assert.match(text, /^db_pool_waiting 0$/m);
      assert.match(text, /^webhook_deliveries_pending 0$/m);
      assert.match(text, /^process_cpu_seconds_total \d/m);
      assert.match(text, /^nodejs_heap_size_used_bytes \d/m);
      assert.doesNotMatch(text, new RegExp(TOKEN));
    });
  });

  describe(`/ready during a graceful shutdown [${dialect}]`, () => {
    it('answers 503 {"status":"unavailable"} once the shutdown has begun, while requests are still served', async () => {
      const database = await createTestDatabase(dialect);
      const app = await buildApp(loadConfig({ DATABASE_URL: database.url, LOG_LEVEL: 'silent' }), { logger: false });
      const during: { ready?: Response; events?: Response } = {};
      try {
        // preClose hooks run in order once close() begins, before the server stops accepting requests.
        app.addHook('preClose', async () => {
          during.ready = await fetch(`${origin}/ready`);
          during.events = await fetch(`${origin}/calendar/events/v1/events`);
        });
        const origin = await listen(app);
        const before = await fetch(`${origin}/ready`);
        assert.equal(before.status, 200);
        await app.close();
        assert.equal(during.ready?.status, 503);
        assert.deepEqual(await during.ready?.json(), { status: 'unavailable' });
        assert.equal(during.ready?.headers.get('cache-control'), 'no-store');
        assert.equal(during.events?.status, 200, 'in-flight and arriving requests are still answered');
      } finally {
        await app.close();
        await database.drop();
      }
    });
  });
}

describe('/metrics without METRICS_TOKEN', () => {
  const t = useTestApp('sqlite');

  it('is open', async () => {
    const res = await t.api.get('/metrics', { raw: true });
    assert.equal(res.status, 200);
    assert.match(res.text, /^# TYPE http_requests_total counter$/m);
  });
});
