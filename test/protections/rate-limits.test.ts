import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DEFAULT_NOW, NS, useTestApp, type TestResponse } from '../helpers/app.js';
import { testDialects } from '../helpers/databases.js';

const LIMITS = {
  RATE_LIMIT_PER_MINUTE: '5',
  RATE_LIMIT_WRITES_PER_MINUTE: '2',
  RATE_LIMIT_FAILED_AUTH_PER_MINUTE: '2',
  // app.inject connects from 127.0.0.1: as a trusted proxy, each test names its own client.
  TRUST_PROXY: '127.0.0.1',
};

let lastClient = 0;
/** A client address of its own (X-Forwarded-For through the trusted proxy), so budgets do not mix. */
const client = () => ({ 'x-forwarded-for': `203.0.113.${++lastClient}` });

/** DEFAULT_NOW is 48 s into its minute: windows are aligned on the clock. */
const SECONDS_LEFT = '12';

function assertTooMany(res: TestResponse): void {
  assert.equal(res.status, 429);
  assert.equal(res.json.code, 'rest_too_many_requests');
  assert.equal(res.json.message, `Too many requests; retry in ${SECONDS_LEFT} seconds.`);
  assert.deepEqual(res.json.data, { status: 429 });
  assert.equal(res.headers['retry-after'], SECONDS_LEFT);
  assert.equal(res.headers['ratelimit-remaining'], '0');
}

for (const dialect of await testDialects()) {
  describe(`rate limits (API.md §25.1) [${dialect}]`, () => {
    const t = useTestApp(dialect, { env: LIMITS });

    it('anonymous requests per client IP: RateLimit-* count down, the sixth in a minute is 429 with Retry-After', async () => {
      const headers = client();
      for (let i = 0; i < 5; i++) {
        const res = await t.api.get('/events', { headers });
        assert.equal(res.status, 200);
        assert.equal(res.headers['ratelimit-limit'], '5');
        assert.equal(res.headers['ratelimit-remaining'], String(4 - i));
        assert.equal(res.headers['ratelimit-reset'], SECONDS_LEFT);
      }
      assertTooMany(await t.api.get('/events', { headers }));
      const unknown = await t.api.get('/fr/calendar/events/v1/nothing-here', { headers });
      assert.equal(unknown.status, 429, 'checked before routing decides anything');
      assert.equal(unknown.json.message, 'Trop de requêtes ; réessayez dans 12 secondes.');
      assert.equal(
        (await t.api.get('/events', { headers: client() })).status,
        200,
        'another client has its own budget',
      );
    });

    it('a new minute brings a new budget', async () => {
      const headers = client();
      for (let i = 0; i < 5; i++) await t.api.get('/venues', { headers });
      assertTooMany(await t.api.get('/venues', { headers }));
      t.api.now = new Date(DEFAULT_NOW.getTime() + 12_000);
      try {
        const res = await t.api.get('/venues', { headers });
        assert.equal(res.status, 200);
        assert.equal(res.headers['ratelimit-remaining'], '4');
        assert.equal(res.headers['ratelimit-reset'], '60');
      } finally {
        t.api.now = DEFAULT_NOW;
      }
    });

    it('response-cache hits are counted like any request', async () => {
      const headers = client();
      const cached: unknown[] = [];
      for (let i = 0; i < 5; i++) {
        const res = await t.api.get('/categories', { headers });
        assert.equal(res.status, 200);
        cached.push(res.headers['x-calendar-cache']);
      }
      if (t.api.config.acceleration) assert.ok(cached.includes('hit'), 'some of them were hits');
      assertTooMany(await t.api.get('/categories', { headers }));
    });

    it('authenticated writes per user: the third write in a minute is 429 and changes nothing', async () => {
      const editor = { as: 'editor' as const, headers: client() };
      assert.equal((await t.api.post('/categories', { name: 'Throttled one' }, editor)).status, 201);
      const second = await t.api.post('/categories', { name: 'Throttled two' }, editor);
      assert.equal(second.status, 201);
      assert.equal(second.headers['ratelimit-limit'], '2');
      assert.equal(second.headers['ratelimit-remaining'], '0');
      assertTooMany(await t.api.post('/categories', { name: 'Throttled three' }, editor));
      // Per user, whatever the address.
      assertTooMany(await t.api.post('/categories', { name: 'Throttled three' }, { as: 'editor', headers: client() }));
      const listed = await t.api.get('/categories', {
        as: 'editor',
        headers: client(),
        query: { hide_empty: false, search: 'Throttled' },
      });
      assert.equal(listed.status, 200, 'reads have a budget of their own');
      assert.equal(listed.headers['ratelimit-limit'], '5');
      assert.deepEqual(listed.json.categories.map((c: { name: string }) => c.name).sort(), [
        'Throttled one',
        'Throttled two',
      ]);
      const author = await t.api.post('/categories', { name: 'Throttled three' }, { as: 'author', headers: client() });
      assert.equal(author.status, 201, 'another user has a budget of its own');
    });

    it('authenticated reads per user: the sixth is 429', async () => {
      await t.api.user('contributor');
      for (let i = 0; i < 5; i++) {
        assert.equal((await t.api.get('/tags', { as: 'contributor', headers: client() })).status, 200);
      }
      assertTooMany(await t.api.get('/tags', { as: 'contributor', headers: client() }));
      assert.equal(
        (await t.api.get('/tags', { headers: client() })).status,
        200,
        'anonymous clients are counted apart',
      );
    });

    it('failed authentications per IP: further failing attempts get 429, valid credentials from that IP still work', async () => {
      const headers = client();
      const wrong = { authorization: `Basic ${Buffer.from('subscriber-user:wrong-password').toString('base64')}` };
      for (let i = 0; i < 2; i++) {
        const res = await t.api.get('/events', { as: wrong, headers });
        assert.equal(res.status, 401);
        assert.equal(res.json.code, 'incorrect_password');
      }
      assertTooMany(await t.api.get('/events', { as: wrong, headers }));
      assertTooMany(await t.api.get('/events', { as: { authorization: 'Bearer nonsense' }, headers }));
      const valid = await t.api.get('/events', { as: 'subscriber', headers });
      assert.equal(valid.status, 200);
      assert.equal(valid.headers['ratelimit-remaining'], '4', 'counted against the user, not the failures');
      assert.equal((await t.api.get('/events', { as: wrong, headers: client() })).status, 401, 'per IP');
    });

    it('/health, /ready, /metrics and CORS preflights are exempt', async () => {
      const headers = client();
      for (let i = 0; i < 5; i++) await t.api.get('/events', { headers });
      assertTooMany(await t.api.get('/events', { headers }));
      for (const path of ['/health', '/ready', '/metrics']) {
        const res = await t.api.get(path, { raw: true, headers });
        assert.equal(res.status, 200, path);
        assert.equal(res.headers['ratelimit-limit'], undefined, path);
      }
      const preflight = await t.api.request('OPTIONS', `${NS}/events`, undefined, {
        headers: { ...headers, origin: 'https://app.example', 'access-control-request-method': 'GET' },
      });
      assert.equal(preflight.status, 204);
    });
  });
}

describe('rate limits are off by default', () => {
  const t = useTestApp('sqlite');

  it('sends no RateLimit-* headers and never 429', async () => {
    for (let i = 0; i < 20; i++) {
      const res = await t.api.get('/events');
      assert.equal(res.status, 200);
      assert.equal(res.headers['ratelimit-limit'], undefined);
    }
  });
});
