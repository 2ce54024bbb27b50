import assert from 'node:assert/strict';
import { connect as connectSocket } from 'node:net';
import { describe, it } from 'node:test';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { testDialects } from '../helpers/databases.js';
import { NS, useTestApp, type TestApi, type TestResponse } from '../helpers/app.js';
import { createEventId, createOrganizerId, createVenueId } from '../helpers/factories.js';

const EVENT = { title: 'Concert', start_date: '2027-03-01 20:00:00', end_date: '2027-03-01 22:00:00' };

function assertEnvelope(
  res: TestResponse | { status: number; json: TestResponse['json'] },
  status: number,
  code: string,
  what = '',
) {
  assert.equal(res.status, status, `${what}: ${JSON.stringify(res.json)}`);
  assert.equal(res.json.code, code);
  assert.equal(typeof res.json.message, 'string');
  assert.equal(res.json.data.status, status);
}

/** A request with a raw body and Content-Type, as the test helper's JSON requests cannot send. */
async function raw(api: TestApi, method: string, url: string, payload?: string, headers: Record<string, string> = {}) {
  const res = await api.app.inject({ method: method as never, url, payload, headers });
  let json: TestResponse['json'];
  try {
    json = JSON.parse(res.body);
  } catch {
    json = undefined;
  }
  return { status: res.statusCode, headers: res.headers, json };
}

for (const dialect of await testDialects()) {
  describe(`request errors in the contract's envelope [${dialect}]`, () => {
    const t = useTestApp(dialect);

    it('an id beyond 2^53 - 1 on an item route is 400 rest_invalid_param naming id', async () => {
      for (const path of ['/events', '/venues', '/organizers', '/categories', '/tags']) {
        for (const id of ['9007199254740992', '9223372036854775808', '99999999999999999999999']) {
          for (const method of ['GET', 'POST', 'DELETE']) {
            const res = await t.api.request(method, `${path}/${id}`, method === 'POST' ? {} : undefined, {
              as: 'administrator',
            });
            assertEnvelope(res, 400, 'rest_invalid_param');
            assert.deepEqual(Object.keys(res.json.data.params), ['id'], `${method} ${path}/${id}`);
          }
        }
      }
      // The largest exact id is still an id: not found.
      assertEnvelope(await t.api.get('/events/9007199254740991'), 404, 'rest-event-not-found');
    });

    it('a NUL character in a path, query or body string is 400 rest_invalid_param naming the parameter', async () => {
      const id = await createEventId(t.api);
      const cases: [string, string, unknown, string][] = [
        ['GET', '/events/by-slug/a%00b', undefined, 'slug'],
        ['GET', '/venues/by-slug/%00', undefined, 'slug'],
        ['GET', '/events?search=a%00b', undefined, 'search'],
        ['GET', '/categories?slug=x%00', undefined, 'slug'],
        ['GET', '/events?unknown_parameter=%00', undefined, 'unknown_parameter'],
        ['POST', '/events', { ...EVENT, title: 'a\u0000b' }, 'title'],
        ['POST', '/events', { ...EVENT, venue: { venue: 'Hall\u0000' } }, 'venue'],
        ['POST', `/events/${id}`, { description: '\u0000' }, 'description'],
        ['POST', '/tags', { name: 'x', 'na\u0000me': 'y' }, 'na\u0000me'],
      ];
      for (const [method, path, body, param] of cases) {
        const res = await t.api.request(method, path, body, { as: 'administrator' });
        assertEnvelope(res, 400, 'rest_invalid_param', `${method} ${path}`);
        assert.match(res.json.data.params[param], /NUL/, `${method} ${path}`);
      }
      const form = await t.api.request(
        'POST',
        '/organizers',
        { organizer: 'x\u0000y' },
        { as: 'administrator', form: true },
      );
      assertEnvelope(form, 400, 'rest_invalid_param');
    });

    it('a NUL in Basic credentials is 401 incorrect_password', async () => {
      const authorization = `Basic ${Buffer.from('administrator-user:a\u0000b').toString('base64')}`;
      const res = await t.api.get('/events', { as: { authorization } });
      assertEnvelope(res, 401, 'incorrect_password');
    });

    it('dates outside years 1–9999 are 400 with a reason saying so, in lists and writes', async () => {
      for (const value of ['+1000000 years', '-3000 years', '0000-01-01', '999999999999']) {
        const list = await t.api.get('/events', { query: { start_date: value } });
        assertEnvelope(list, 400, 'rest_invalid_param', value);
        assert.equal(list.json.data.params.start_date, 'The date must lie between the years 1 and 9999.', value);
        const create = await t.api.post('/events', { ...EVENT, end_date: value }, { as: 'administrator' });
        assertEnvelope(create, 400, 'rest_invalid_param');
        assert.equal(create.json.data.params.end_date, 'The date must lie between the years 1 and 9999.', value);
      }
      const venue = await t.api.post('/venues', { venue: 'Hall', date: '+1000000 years' }, { as: 'administrator' });
      assertEnvelope(venue, 400, 'rest_invalid_param');
    });

    it('QUERY and other methods no route serves are 404 rest_no_route, with or without a body', async () => {
      for (const method of ['QUERY', 'PROPFIND', 'TRACE', 'CONNECT', 'LINK']) {
        for (const headers of [{}, { 'content-type': 'application/json' }, { 'content-type': 'text/plain' }] as Record<
          string,
          string
        >[]) {
          const res = await raw(t.api, method, `${NS}/events`, method === 'TRACE' ? undefined : '{"a":', headers);
          assertEnvelope(res, 404, 'rest_no_route');
        }
      }
    });

    it('a body whose Content-Type the contract does not read is 415 rest_unsupported_media_type', async () => {
      const body = JSON.stringify(EVENT);
      const auth = (await t.api.user('administrator')).header;
      for (const type of ['application/json, text/plain', 'text/plain', 'application/xml', 'json', ';', 'a/b/c']) {
        const res = await raw(t.api, 'POST', `${NS}/events`, body, { 'content-type': type, authorization: auth });
        assertEnvelope(res, 415, 'rest_unsupported_media_type');
      }
      // No Content-Type at all, but a body.
      const untyped = await raw(t.api, 'POST', `${NS}/events`, body, { authorization: auth });
      assertEnvelope(untyped, 415, 'rest_unsupported_media_type');
      // An empty body of another type is no parameters, as before.
      const empty = await raw(t.api, 'POST', `${NS}/events`, '', { 'content-type': 'text/plain', authorization: auth });
      assertEnvelope(empty, 400, 'rest_missing_callback_param');
      // JSON with a charset is still JSON.
      const charset = await raw(t.api, 'POST', `${NS}/events`, body, {
        'content-type': 'application/json; charset=utf-8',
        authorization: auth,
      });
      assert.equal(charset.status, 201);
    });

    it('multipart/form-data bodies are read as forms', async () => {
      const auth = (await t.api.user('administrator')).header;
      const parts = Object.entries({ ...EVENT, title: 'Multipart concert' }).map(
        ([name, value]) => `--xyz\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
      );
      const res = await raw(t.api, 'POST', `${NS}/events`, `${parts.join('')}--xyz--\r\n`, {
        'content-type': 'multipart/form-data; boundary=xyz',
        authorization: auth,
      });
      assert.equal(res.status, 201);
      assert.equal(res.json.title, 'Multipart concert');
      const broken = await raw(t.api, 'POST', `${NS}/events`, 'not multipart', {
        'content-type': 'multipart/form-data; boundary=xyz',
        authorization: auth,
      });
      assertEnvelope(broken, 400, 'rest_bad_request');
    });

    it('bad percent-encoding and over-long path segments get the envelope, not the framework body', async () => {
      for (const path of [`${NS}/events/by-slug/%E0%A4%A`, `${NS}/venues/by-slug/%ZZ`, `/fr${NS}/events/by-slug/%`]) {
        const res = await raw(t.api, 'GET', path);
        assertEnvelope(res, 400, 'rest_bad_request');
        assert.equal(res.json.error, undefined);
      }
      const french = await raw(t.api, 'GET', `/fr${NS}/events/by-slug/%`);
      assert.equal(french.json.message, 'La requête est mal formée.');
      const long = await raw(t.api, 'GET', `${NS}/events/by-slug/${'a'.repeat(3000)}`);
      assertEnvelope(long, 414, 'rest_uri_too_long');
    });

    it('a 400-character title makes a slug of at most 200 characters whose URLs are served', async () => {
      const title = `${'Long title '.repeat(36)}abcd`;
      assert.equal(title.length, 400);
      const created = await t.api.post('/events', { ...EVENT, title }, { as: 'administrator' });
      assert.equal(created.status, 201);
      assert.equal(created.json.title, title);
      assert.ok(created.json.slug.length <= 200, `${created.json.slug.length}`);
      const again = await t.api.post('/events', { ...EVENT, title }, { as: 'administrator' });
      assert.ok(again.json.slug.length <= 200);
      assert.notEqual(again.json.slug, created.json.slug);
      assert.equal((await t.api.get(`/events/by-slug/${created.json.slug}`)).status, 200);
      const page = await t.api.app.inject({ url: new URL(created.json.url).pathname });
      assert.equal(page.statusCode, 200);
      const explicit = await t.api.post('/venues', { venue: 'Hall', slug: 'x'.repeat(300) }, { as: 'administrator' });
      assert.equal(explicit.json.slug, 'x'.repeat(200));
    });

    it('titles and names over 400 characters are 400 rest_invalid_param with a reason', async () => {
      const long = 'é'.repeat(401);
      const cases: [string, Record<string, unknown>, string][] = [
        ['/events', { ...EVENT, title: long }, 'title'],
        ['/venues', { venue: long }, 'venue'],
        ['/organizers', { organizer: long }, 'organizer'],
        ['/categories', { name: long }, 'name'],
        ['/tags', { name: long }, 'name'],
        ['/events', { ...EVENT, categories: [long] }, 'categories'],
      ];
      for (const [path, body, param] of cases) {
        const res = await t.api.post(path, body, { as: 'administrator' });
        assertEnvelope(res, 400, 'rest_invalid_param');
        assert.equal(res.json.data.params[param], `${param} must be at most 400 characters long.`, path);
      }
      const update = await t.api.post(
        `/venues/${await createVenueId(t.api)}`,
        { venue: long },
        { as: 'administrator' },
      );
      assertEnvelope(update, 400, 'rest_invalid_param');
    });

    it('bad dates, empty titles and unknown venue/organizer ids say why', async () => {
      const bad = await t.api.post(
        '/events',
        { title: '  ', start_date: 'someday', end_date: '2027-03-01' },
        { as: 'administrator' },
      );
      assertEnvelope(bad, 400, 'rest_invalid_param');
      assert.deepEqual(bad.json.data.params, {
        title: 'title must be a non-empty string.',
        start_date: 'The date is not in a supported format.',
      });
      const venue = await t.api.post('/events', { ...EVENT, venue: 987654 }, { as: 'administrator' });
      assertEnvelope(venue, 400, 'rest_invalid_param');
      assert.equal(venue.json.data.params.venue, 'venue 987654 does not exist.');
      const organizerId = await createOrganizerId(t.api);
      const organizer = await t.api.post(
        '/events',
        { ...EVENT, organizer: [organizerId, 987655] },
        { as: 'administrator' },
      );
      assert.equal(organizer.json.data.params.organizer, 'organizer 987655 does not exist.');
      const malformed = await t.api.post('/events', { ...EVENT, venue: [true] }, { as: 'administrator' });
      assert.equal(malformed.json.data.params.venue, 'venue must be an id, an object or a list of them.');
      const filter = await t.api.get('/events', { query: { venue: '987654' } });
      assert.equal(filter.json.data.params.venue, 'venue 987654 does not exist.');
      const list = await t.api.get('/events', { query: { include: 'a,b' } });
      assert.equal(list.json.data.params.include, 'include must be a list of ids.');
      const french = await t.api.get('/fr/calendar/events/v1/events', { query: { start_date: 'bientôt' } });
      assert.equal(french.json.data.params.start_date, "Le format de la date n'est pas pris en charge.");
    });

    it('titles and names are stored as plain text: tags stripped, & kept', async () => {
      const event = await t.api.post(
        '/events',
        { ...EVENT, title: '<b>Rock</b> & <i>Roll</i> <script>alert(1)</script>' },
        { as: 'contributor' },
      );
      assert.equal(event.status, 201);
      assert.equal(event.json.title, 'Rock & Roll');
      const encoded = await t.api.post('/venues', { venue: 'A &lt;b&gt;bold&lt;/b&gt; 1 < 2' }, { as: 'editor' });
      assert.equal(encoded.json.venue, 'A bold 1 < 2');
      const organizer = await t.api.post('/organizers', { organizer: 'Tom &amp; Jerry' }, { as: 'editor' });
      assert.equal(organizer.json.organizer, 'Tom & Jerry');
      const term = await t.api.post('/categories', { name: '<em>Jazz</em> & Blues' }, { as: 'editor' });
      assert.equal(term.json.name, 'Jazz & Blues');
      const empty = await t.api.post('/tags', { name: '<b></b>' }, { as: 'editor' });
      assertEnvelope(empty, 400, 'rest_invalid_param');
      const inline = await t.api.post('/events', { ...EVENT, venue: { venue: '<u>Hall</u>' } }, { as: 'editor' });
      assert.equal(inline.json.venue.venue, 'Hall');
      const update = await t.api.patch(`/events/${event.json.id}`, { title: '<h1>New</h1>' }, { as: 'editor' });
      assert.equal(update.json.title, 'New');
    });

    it('API 401s carry WWW-Authenticate: Bearer realm="calendar"; 403s and pages do not', async () => {
      const anonymous = await t.api.post('/categories', { name: 'Nope' });
      assertEnvelope(anonymous, 401, 'rest_forbidden');
      assert.equal(anonymous.headers['www-authenticate'], 'Bearer realm="calendar"');
      const wrong = await t.api.get('/events', { as: { authorization: 'Bearer wrong' } });
      assertEnvelope(wrong, 401, 'incorrect_password');
      assert.equal(wrong.headers['www-authenticate'], 'Bearer realm="calendar"');
      const forbidden = await t.api.post('/categories', { name: 'Nope' }, { as: 'subscriber' });
      assertEnvelope(forbidden, 403, 'rest_forbidden');
      assert.equal(forbidden.headers['www-authenticate'], undefined);
      const page = await t.api.get('/event/anything/', { raw: true, as: { authorization: 'Bearer wrong' } });
      assert.equal(page.status, 401);
      assert.equal(page.headers['www-authenticate'], undefined);
    });
  });
}

describe('errors of the HTTP layer itself', () => {
  /** Sends raw bytes to a listening app and returns the response text. */
  async function exchange(port: number, bytes: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const socket = connectSocket(port, '127.0.0.1');
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString()));
      socket.on('end', () => resolve(text));
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
      socket.write(bytes);
    });
  }

  function bodyOf(response: string) {
    return JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4));
  }

  it('headers too large (431) and malformed requests (400) are answered in the envelope', async () => {
    const app = await buildApp(loadConfig({ DATABASE_URL: 'sqlite::memory:', LOG_LEVEL: 'silent' }), { logger: false });
    try {
      await app.listen({ port: 0, host: '127.0.0.1' });
      const address = app.server.address();
      assert.ok(address !== null && typeof address === 'object');
      const large = await exchange(
        address.port,
        `GET ${NS}/events HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      );
      assert.match(large, /^HTTP\/1\.1 431 /);
      assert.deepEqual(bodyOf(large), {
        code: 'rest_headers_too_large',
        message: 'The request headers are too large.',
        data: { status: 431 },
      });
      const malformed = await exchange(address.port, 'NOT A REQUEST\r\n\r\n');
      assert.match(malformed, /^HTTP\/1\.1 400 /);
      assert.equal(bodyOf(malformed).code, 'rest_bad_request');
      assert.equal(bodyOf(malformed).data.status, 400);
    } finally {
      await app.close();
    }
  });
});
