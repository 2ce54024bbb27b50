import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { NS, useTestApp, type TestApi, type TestResponse } from '../helpers/app.js';

// CORS decides on headers alone: one dialect is enough.

const LISTED = 'https://app.example';
const OTHER = 'https://elsewhere.example';
const EXPOSED =
  'X-WP-Total, X-WP-TotalPages, X-TEC-Total, X-TEC-TotalPages, Link, ETag, Last-Modified, Retry-After, ' +
  'RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset';

function preflight(api: TestApi, origin: string, path = `${NS}/events`): Promise<TestResponse> {
  return api.request('OPTIONS', path, undefined, {
    raw: true,
    headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization' },
  });
}

function corsHeaders(res: TestResponse): Record<string, unknown> {
  return Object.fromEntries(Object.entries(res.headers).filter(([name]) => name.startsWith('access-control-')));
}

describe('CORS with a list of origins (API.md §25.2)', () => {
  const t = useTestApp('sqlite', { env: { CORS_ORIGINS: `${LISTED}, https://other-app.example` } });

  it('a preflight from a listed origin is 204 with the allowed methods, headers and max age', async () => {
    const res = await preflight(t.api, LISTED);
    assert.equal(res.status, 204);
    assert.equal(res.text, '');
    assert.deepEqual(corsHeaders(res), {
      'access-control-allow-origin': LISTED,
      'access-control-allow-methods': 'GET, HEAD, POST, PUT, PATCH, DELETE',
      'access-control-allow-headers':
        'Authorization, Content-Type, If-Match, If-None-Match, If-Modified-Since, If-Unmodified-Since',
      'access-control-max-age': '600',
    });
    assert.equal(res.headers.vary, 'Origin');
  });

  it('a preflight from an unlisted origin is 204 without Access-Control-* headers, also on unknown paths', async () => {
    const res = await preflight(t.api, OTHER);
    assert.equal(res.status, 204);
    assert.deepEqual(corsHeaders(res), {});
    assert.equal((await preflight(t.api, LISTED, `${NS}/no-such-route`)).status, 204);
  });

  it('a listed origin may read responses, authenticated ones and errors included', async () => {
    for (const res of [
      await t.api.get('/events', { headers: { origin: LISTED } }),
      await t.api.get('/events', { as: 'editor', headers: { origin: LISTED } }),
      await t.api.post('/events', {}, { headers: { origin: LISTED } }),
      await t.api.get('/events', { as: { authorization: 'Bearer wrong' }, headers: { origin: LISTED } }),
    ]) {
      assert.deepEqual(corsHeaders(res), {
        'access-control-allow-origin': LISTED,
        'access-control-expose-headers': EXPOSED,
      });
      assert.match(String(res.headers.vary), /^Origin\b/);
    }
  });

  it('an unlisted origin, or none, gets no Access-Control-* headers, and every response varies by Origin', async () => {
    for (const res of [await t.api.get('/events', { headers: { origin: OTHER } }), await t.api.get('/events')]) {
      assert.equal(res.status, 200);
      assert.deepEqual(corsHeaders(res), {});
      assert.match(String(res.headers.vary), /^Origin\b/);
    }
  });

  it('/admin/ never sends CORS headers', async () => {
    for (const path of ['/admin/', '/admin/events', '/fr/admin/']) {
      const res = await t.api.get(path, { raw: true, headers: { origin: LISTED } });
      assert.deepEqual(corsHeaders(res), {}, path);
      assert.equal(res.headers.vary, undefined, path);
      assert.deepEqual(corsHeaders(await preflight(t.api, LISTED, path)), {}, path);
    }
  });

  it('OPTIONS without Access-Control-Request-Method answers with Allow as before (API.md §1)', async () => {
    const res = await t.api.request('OPTIONS', `${NS}/events`, undefined, { headers: { origin: LISTED } });
    assert.equal(res.status, 200);
    assert.match(String(res.headers.allow), /GET/);
    assert.equal(res.headers['access-control-allow-origin'], LISTED);
  });
});

describe('CORS with CORS_ORIGINS=* (API.md §25.2)', () => {
  const t = useTestApp('sqlite', { env: { CORS_ORIGINS: '*' } });

  it('anonymous GET and HEAD get Access-Control-Allow-Origin: *', async () => {
    for (const method of ['GET', 'HEAD']) {
      const res = await t.api.request(method, '/events', undefined, { headers: { origin: OTHER } });
      assert.equal(res.status, 200);
      assert.deepEqual(corsHeaders(res), {
        'access-control-allow-origin': '*',
        'access-control-expose-headers': EXPOSED,
      });
      assert.equal(res.headers.vary, undefined);
    }
  });

  it('authenticated requests and writes get no CORS headers', async () => {
    assert.deepEqual(corsHeaders(await t.api.get('/events', { as: 'editor', headers: { origin: OTHER } })), {});
    assert.deepEqual(corsHeaders(await t.api.post('/events', {}, { headers: { origin: OTHER } })), {});
  });

  it('preflights allow GET and HEAD with the conditional headers only', async () => {
    const res = await preflight(t.api, OTHER);
    assert.equal(res.status, 204);
    assert.deepEqual(corsHeaders(res), {
      'access-control-allow-origin': '*',
      'access-control-allow-methods': 'GET, HEAD',
      'access-control-allow-headers': 'If-None-Match, If-Modified-Since',
      'access-control-max-age': '600',
    });
  });
});

describe('CORS is off by default', () => {
  const t = useTestApp('sqlite');

  it('sends no CORS headers, and preflights are 204 without them', async () => {
    const res = await t.api.get('/events', { headers: { origin: LISTED } });
    assert.deepEqual(corsHeaders(res), {});
    assert.equal(res.headers.vary, undefined);
    const answer = await preflight(t.api, LISTED);
    assert.equal(answer.status, 204);
    assert.deepEqual(corsHeaders(answer), {});
  });
});
