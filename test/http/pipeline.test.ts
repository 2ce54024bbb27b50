import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { testDialects } from '../helpers/databases.js';
import { useTestApp } from '../helpers/app.js';

for (const dialect of await testDialects()) {
  describe(`request pipeline [${dialect}]`, () => {
    const t = useTestApp(dialect);

    it('an unknown path or an unserved method is 404 rest_no_route', async () => {
      for (const [method, path] of [
        ['GET', '/nothing-here'],
        ['DELETE', '/categories'],
        ['GET', '/categories/12/extra'],
        ['GET', '/calendar/events/v2/categories'],
      ]) {
        const res = await t.api.request(method, path);
        assert.equal(res.status, 404, `${method} ${path}`);
        assert.equal(res.json.code, 'rest_no_route');
        assert.equal(res.json.data.status, 404);
      }
    });

    it('OPTIONS answers with Allow and the route description', async () => {
      const res = await t.api.request('OPTIONS', '/categories/5');
      assert.equal(res.status, 200);
      assert.equal(res.headers.allow, 'GET, POST, PUT, PATCH, DELETE, OPTIONS');
      assert.deepEqual(res.json.methods, ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);
      const list = await t.api.request('OPTIONS', '/tags');
      assert.equal(list.headers.allow, 'GET, POST, OPTIONS');
    });

    it('HEAD is served for reads, and a trailing slash reaches the same route', async () => {
      const head = await t.api.request('HEAD', '/categories');
      assert.equal(head.status, 200);
      assert.equal(head.text, '');
      const slash = await t.api.get('/categories/');
      assert.equal(slash.status, 200);
      assert.ok('categories' in slash.json);
    });

    it('a body over 1 MiB is 413 rest_payload_too_large', async () => {
      const res = await t.api.post(
        '/tags',
        { name: 'big', description: 'x'.repeat(1024 * 1024 + 10) },
        { as: 'editor' },
      );
      assert.equal(res.status, 413);
      assert.equal(res.json.code, 'rest_payload_too_large');
      assert.equal(res.json.data.status, 413);
    });

    it('unknown parameters are ignored and the body wins over the query string', async () => {
      const res = await t.api.post(
        '/tags?name=FromQuery&colour=blue',
        { name: 'FromBody', flavour: 'none' },
        { as: 'editor' },
      );
      assert.equal(res.status, 201, res.text);
      assert.equal(res.json.name, 'FromBody');
      const fromQuery = await t.api.post('/tags?name=OnlyQuery', undefined, { as: 'editor' });
      assert.equal(fromQuery.json.name, 'OnlyQuery');
    });

    it('responses are standard JSON: slashes and non-ASCII characters are not escaped', async () => {
      const res = await t.api.post('/tags', { name: 'Café/Bar ✓' }, { as: 'editor' });
      assert.ok(res.text.includes('"name":"Café/Bar ✓"'));
      assert.ok(res.text.includes('"self":"http://127.0.0.1:8080/calendar/events/v1/tags/'));
    });

    it('Content-Language follows i18n_language or the path segment; an invalid code is 400', async () => {
      assert.equal((await t.api.get('/tags')).headers['content-language'], 'en');
      assert.equal(
        (await t.api.get('/tags', { query: { i18n_language: 'pt-br' } })).headers['content-language'],
        'pt-br',
      );
      assert.equal((await t.api.get('/de/calendar/events/v1/tags')).headers['content-language'], 'de');
      const both = await t.api.get('/de/calendar/events/v1/tags', { query: { i18n_language: 'fr' } });
      assert.equal(both.headers['content-language'], 'fr');
      const invalid = await t.api.get('/tags', { query: { i18n_language: 'xx' } });
      assert.equal(invalid.status, 400);
      assert.equal(invalid.json.code, 'rest_invalid_param');
      assert.ok('i18n_language' in invalid.json.data.params);
      assert.equal((await t.api.get('/xx/calendar/events/v1/tags')).status, 404);
    });

    it('error messages are translated while codes stay the same', async () => {
      const res = await t.api.get('/categories/999999', { query: { i18n_language: 'fr' } });
      assert.equal(res.status, 404);
      assert.equal(res.json.code, 'rest_term_invalid');
      assert.notEqual(res.json.message, 'Term does not exist.');
      const de = await t.api.get('/de/calendar/events/v1/nothing');
      assert.equal(de.json.code, 'rest_no_route');
      assert.notEqual(de.json.message, 'No route was found matching the URL and request method.');
    });
  });
}

describe('request pipeline: configuration and failures', () => {
  it('serves under BASE_PATH (also when a proxy strips it) and emits URLs with it', async () => {
    const config = loadConfig({
      DATABASE_URL: 'sqlite::memory:',
      BASE_PATH: '/wp-json',
      PUBLIC_URL: 'https://cal.example.org',
      LOG_LEVEL: 'silent',
    });
    const app = await buildApp(config, { logger: false });
    try {
      const res = await app.inject({ url: '/wp-json/calendar/events/v1/tags' });
      assert.equal(res.statusCode, 200);
      assert.equal(JSON.parse(res.body).rest_url, 'https://cal.example.org/wp-json/calendar/events/v1/tags/');
      const lang = await app.inject({ url: '/wp-json/fr/calendar/events/v1/tags' });
      assert.equal(JSON.parse(lang.body).rest_url, 'https://cal.example.org/wp-json/fr/calendar/events/v1/tags/');
    } finally {
      await app.close();
    }
  });

  it('an unexpected failure is a generic 500 without internal details', async () => {
    const config = loadConfig({ DATABASE_URL: 'sqlite::memory:', LOG_LEVEL: 'silent' });
    const app = await buildApp(config, { logger: false });
    app.get('/calendar/events/v1/boom', async () => {
      throw new Error('secret internal detail');
    });
    try {
      const res = await app.inject({ url: '/calendar/events/v1/boom' });
      assert.equal(res.statusCode, 500);
      const body = JSON.parse(res.body);
      assert.equal(body.code, 'rest_internal_error');
      assert.equal(body.data.status, 500);
      assert.ok(!res.body.includes('secret internal detail'));
    } finally {
      await app.close();
    }
  });

  it('/health says whether the search candidates are built yet', async () => {
    const app = await buildApp(loadConfig({ DATABASE_URL: 'sqlite::memory:', LOG_LEVEL: 'silent' }), { logger: false });
    try {
      const health = async () => JSON.parse((await app.inject({ url: '/health' })).body);
      assert.deepEqual(await health(), { status: 'ok', search_index: 'building' });
      await app.calendar.events.prepare();
      assert.deepEqual(await health(), { status: 'ok', search_index: 'ready' });
    } finally {
      await app.close();
    }
  });

  it('bad configuration stops with a message naming the variable', () => {
    for (const [name, value] of [
      ['PORT', 'eighty'],
      ['SITE_TIMEZONE', 'Mars/Olympus'],
      ['DEFAULT_LANGUAGE', 'xx'],
      ['DATABASE_URL', 'mysql://x'],
      ['MAX_PER_PAGE', '0'],
      ['PUBLIC_URL', 'not a url'],
      ['LOG_LEVEL', 'loud'],
    ]) {
      assert.throws(
        () => loadConfig({ [name]: value }),
        (error: Error) => error.message.includes(name),
        name,
      );
    }
    assert.equal(loadConfig({}).databaseUrl, 'sqlite:data/calendar.db');
    assert.equal(loadConfig({ PORT: '9000', HOST: '0.0.0.0' }).publicUrl, 'http://0.0.0.0:9000');
  });
});
