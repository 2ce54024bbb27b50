import assert from 'node:assert/strict';
import { METHODS } from 'node:http';
import { before, describe, it } from 'node:test';
import fc from 'fast-check';
import { testDialects } from '../helpers/databases.js';
import { NS, useTestApp, type TestApi } from '../helpers/app.js';
import { createEventId, createOrganizerId, createTermId, createVenueId } from '../helpers/factories.js';

/**
 * Property-based fuzzing of bad requests (issue 23): thousands of generated requests that the
 * contract must refuse, sent as an administrator (so an accepted one would write). Every answer is
 * a 4xx in the contract's envelope, and the database is exactly as before. On failure fast-check
 * prints the seed and the smallest failing request; FUZZ_SEED replays one run.
 */

const RUNS = 2_500;

interface FuzzRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
}

const COLLECTIONS = ['/events', '/venues', '/organizers', '/categories', '/tags'] as const;
const BY_SLUG = ['/events/by-slug', '/venues/by-slug', '/organizers/by-slug'] as const;
const WRITE_METHODS = ['POST', 'PUT', 'PATCH'] as const;

const VALID_EVENT = { title: 'Fuzzed', start_date: '2027-05-01 10:00:00', end_date: '2027-05-01 12:00:00' };
/** A valid create body per collection: any request carrying one that is accepted would write. */
const VALID_BODY: Record<(typeof COLLECTIONS)[number], Record<string, unknown>> = {
  '/events': VALID_EVENT,
  '/venues': { venue: 'Fuzzed hall' },
  '/organizers': { organizer: 'Fuzzed org' },
  '/categories': { name: 'Fuzzed category' },
  '/tags': { name: 'Fuzzed tag' },
};
const NAME_FIELD: Record<(typeof COLLECTIONS)[number], string> = {
  '/events': 'title',
  '/venues': 'venue',
  '/organizers': 'organizer',
  '/categories': 'name',
  '/tags': 'name',
};

const json = (method: string, url: string, body: unknown): FuzzRequest => ({
  method,
  url,
  headers: { 'content-type': 'application/json' },
  payload: JSON.stringify(body),
});

const collection = fc.constantFrom(...COLLECTIONS);
const anyMethod = fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE');
const text = fc.string({ maxLength: 20 });
/** Text with a NUL character somewhere in it. */
const withNul = fc.tuple(text, text).map(([a, b]) => `${a}\u0000${b}`);

/** Ids no JSON client can carry exactly: 2^53 and beyond, up to 40 digits. */
const hugeId = fc.bigInt({ min: 2n ** 53n, max: 10n ** 40n }).map(String);

/** Strings no date parser reads ("x" starts no form of API.md §6), and readable dates outside years 1–9999. */
const badDate = fc.oneof(
  text.map((s) => `x${s}`),
  fc.integer({ min: 8_000, max: 1_000_000_000 }).map((n) => `+${n} years`),
  fc.integer({ min: 3_000_000, max: 900_000_000 }).map((n) => `${n} days ago`),
  fc.integer({ min: 10_000, max: 99_999 }).map((y) => `${y}-01-01`),
  fc.constantFrom('0000-01-01', '0000-12-31 23:59:59', '253402300800', '999999999999', '2026-02-30', '25:00'),
);

/** A path segment with broken percent-encoding. */
const badEncoding = fc
  .tuple(fc.stringMatching(/^[a-z0-9-]{0,10}$/), fc.constantFrom('%', '%G1', '%ZZ', '%E0%A4', '%C3', '%F0%9F%98', '%%'))
  .map(([slug, broken]) => `${slug}${broken}`);

/** Methods that no route serves (HEAD and OPTIONS are served everywhere). */
const SERVED = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
// (Names outside http.METHODS never reach Fastify: Node's parser refuses them, see errors.test.ts.)
const oddMethod = fc.constantFrom(...METHODS.filter((m) => !SERVED.has(m)));

const readable = (type: string) =>
  /^(application\/json|application\/x-www-form-urlencoded|multipart\/form-data)(\s*;|$)/i.test(type.trim());
const unreadableType = fc
  .oneof(
    fc.constantFrom(
      'text/plain',
      'application/xml',
      'text/html',
      'application/json, text/plain',
      'application/json-patch+json',
      'application/jsonx',
      'json',
      ';',
      'application/x-www-form-urlencoded, application/json',
    ),
    fc.stringMatching(/^[a-z]{1,10}\/[a-z0-9.+-]{1,16}(;[a-z]=[a-z0-9]{1,5})?$/),
  )
  .filter((type) => !readable(type));

const notJson = fc
  .oneof(
    text.map((s) => `{${s}`),
    text.map((s) => `{"title": ${s}`),
    fc.constantFrom('{', '[', '{"a":}', "{'a': 1}", '{"a": 1,}', 'undefined', 'NaN', '[1, 2', '{"title":"x"}}'),
  )
  .filter((body) => {
    try {
      JSON.parse(body);
      return false;
    } catch {
      return true;
    }
  });

/** A value of the wrong type for a required title or name. */
const wrongName = fc.oneof(
  fc.integer(),
  fc.boolean(),
  fc.constant(''),
  fc.constant('   '),
  fc.constant('<b></b>'),
  fc.array(text, { maxLength: 3 }),
  fc.object({ maxDepth: 1 }),
);

function arbitraries(ids: { event: number; venue: number }): fc.Arbitrary<FuzzRequest> {
  return fc.oneof(
    // Ids beyond the integer range on every item route and method.
    fc.tuple(anyMethod, collection, hugeId).map(([method, path, id]) => json(method, `${NS}${path}/${id}`, {})),
    // NUL characters in path slugs, query values, parameter names and body strings.
    fc.tuple(anyMethod, fc.constantFrom(...BY_SLUG), withNul).map(([method, path, slug]) => ({
      method,
      url: `${NS}${path}/${encodeURIComponent(slug)}`,
      headers: {},
    })),
    fc
      .tuple(collection, fc.constantFrom('search', 'slug', 'status', 'page', 'anything'), withNul)
      .map(([path, name, value]) => ({
        method: 'GET',
        url: `${NS}${path}?${name}=${encodeURIComponent(value)}`,
        headers: {},
      })),
    fc
      .tuple(collection, withNul)
      .map(([path, value]) => json('POST', `${NS}${path}`, { ...VALID_BODY[path], [NAME_FIELD[path]]: value })),
    fc
      .tuple(collection, withNul, text)
      .map(([path, key, value]) => json('POST', `${NS}${path}`, { ...VALID_BODY[path], [key]: value })),
    fc
      .tuple(fc.constantFrom(...WRITE_METHODS), withNul)
      .map(([method, value]) => json(method, `${NS}/events/${ids.event}`, { description: value })),
    // Dates no parser reads, or outside years 1–9999, in list filters and writes.
    fc
      .tuple(
        fc.constantFrom('start_date', 'end_date', 'starts_before', 'starts_after', 'ends_before', 'ends_after'),
        badDate,
      )
      .map(([name, value]) => ({
        method: 'GET',
        url: `${NS}/events?${name}=${encodeURIComponent(value)}`,
        headers: {},
      })),
    fc
      .tuple(fc.constantFrom('start_date', 'end_date'), badDate)
      .map(([name, value]) => json('POST', `${NS}/events`, { ...VALID_EVENT, [name]: value })),
    fc
      .tuple(fc.constantFrom(...WRITE_METHODS), fc.constantFrom('start_date', 'end_date', 'date', 'date_utc'), badDate)
      .map(([method, name, value]) => json(method, `${NS}/events/${ids.event}`, { [name]: value })),
    fc
      .tuple(fc.constantFrom('/venues', '/organizers'), badDate)
      .map(([path, value]) => json('POST', `${NS}${path}`, { ...VALID_BODY[path], date: value })),
    // Bodies that are not JSON, and JSON of the wrong types.
    fc.tuple(fc.constantFrom(...WRITE_METHODS), collection, notJson).map(([method, path, payload]) => ({
      method: 'POST',
      url: method === 'POST' ? `${NS}${path}` : `${NS}/events/${ids.event}`,
      headers: { 'content-type': 'application/json' },
      payload,
    })),
    fc
      .tuple(collection, wrongName)
      .map(([path, value]) => json('POST', `${NS}${path}`, { ...VALID_BODY[path], [NAME_FIELD[path]]: value })),
    fc
      .tuple(fc.constantFrom('venue', 'organizer'), fc.oneof(hugeId.map(Number), fc.constant(true), fc.constant({})))
      .map(([name, value]) => json('POST', `${NS}/events`, { ...VALID_EVENT, [name]: value })),
    fc
      .tuple(fc.constantFrom('include', 'venue', 'organizer', 'categories', 'page', 'per_page'), hugeId)
      .map(([name, value]) => ({ method: 'GET', url: `${NS}/events?${name}=${value}`, headers: {} })),
    // Valid bodies under Content-Types the contract does not read (or none at all).
    fc.tuple(collection, unreadableType).map(([path, type]) => ({
      method: 'POST',
      url: `${NS}${path}`,
      headers: { 'content-type': type },
      payload: JSON.stringify(VALID_BODY[path]),
    })),
    collection.map((path) => ({ method: 'POST', url: `${NS}${path}`, headers: {}, payload: 'title=Fuzzed' })),
    // Broken percent-encoding in the path, with or without a language segment.
    fc
      .tuple(anyMethod, fc.constantFrom(...BY_SLUG), badEncoding, fc.constantFrom('', '/fr', '/pt-br'))
      .map(([method, path, slug, lang]) => ({ method, url: `${lang}${NS}${path}/${slug}`, headers: {} })),
    // Methods no route serves, on every route, with or without a body.
    fc
      .tuple(oddMethod, fc.constantFrom('', ...COLLECTIONS, `/events/${ids.event}`, `/venues/${ids.venue}`, '/doc'))
      .map(([method, path]) => json(method, `${NS}${path}`, VALID_EVENT)),
    // Over-long strings: titles and names, path segments.
    fc
      .tuple(collection, fc.integer({ min: 401, max: 3_000 }), fc.constantFrom('a', 'é', '字', '😀', 'ab '))
      .map(([path, length, unit]) =>
        json('POST', `${NS}${path}`, {
          ...VALID_BODY[path],
          [NAME_FIELD[path]]: unit.repeat(length),
        }),
      ),
    fc
      .tuple(fc.constantFrom(...BY_SLUG), fc.integer({ min: 2_401, max: 6_000 }))
      .map(([path, length]) => ({ method: 'GET', url: `${NS}${path}/${'x'.repeat(length)}`, headers: {} })),
  );
}

/** Every row of every content table, in a stable order: what "no state change" compares. */
async function snapshot(api: TestApi): Promise<string> {
  const tables = [
    'posts',
    'post_translations',
    'events',
    'venues',
    'organizers',
    'event_organizers',
    'event_terms',
    'terms',
    'term_translations',
    'images',
    'users',
    'app_passwords',
  ] as const;
  const rows: Record<string, unknown[]> = {};
  for (const table of tables) {
    const all = await api.db.selectFrom(table).selectAll().execute();
    rows[table] = all.map((row) => JSON.stringify(row)).sort();
  }
  return JSON.stringify(rows);
}

for (const dialect of await testDialects()) {
  describe(`fuzzed bad requests [${dialect}]`, () => {
    const t = useTestApp(dialect);
    const ids = { event: 0, venue: 0 };

    before(async () => {
      ids.venue = await createVenueId(t.api);
      const organizer = await createOrganizerId(t.api);
      const category = await createTermId(t.api, 'categories');
      const tag = await createTermId(t.api, 'tags');
      ids.event = await createEventId(t.api, {
        venue: ids.venue,
        organizer: [organizer],
        categories: [category],
        tags: [tag],
        start_date: '2026-12-01 10:00:00',
        end_date: '2026-12-01 12:00:00',
      });
    });

    it(`${RUNS} generated bad requests: each a 4xx in the envelope, and nothing changes`, async () => {
      const authorization = (await t.api.user('administrator')).header;
      const listings = async () =>
        Promise.all(COLLECTIONS.map(async (path) => (await t.api.get(path, { query: { hide_empty: false } })).text));
      const tablesBefore = await snapshot(t.api);
      const listingsBefore = await listings();
      const statuses = new Map<number, number>();
      const seed = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;
      await fc.assert(
        fc.asyncProperty(arbitraries(ids), async (request) => {
          const res = await t.api.app.inject({
            method: request.method as never,
            url: request.url,
            headers: { authorization, ...request.headers },
            payload: request.payload,
          });
          statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
          assert.ok(
            res.statusCode >= 400 && res.statusCode < 500,
            `status ${res.statusCode}: ${res.body.slice(0, 300)}`,
          );
          assert.match(String(res.headers['content-type']), /^application\/json/);
          const body = JSON.parse(res.body);
          assert.deepEqual(Object.keys(body), ['code', 'message', 'data'], res.body.slice(0, 300));
          assert.equal(typeof body.code, 'string');
          assert.equal(typeof body.message, 'string');
          assert.notEqual(body.message, '');
          assert.equal(body.data.status, res.statusCode);
          if (body.code === 'rest_invalid_param') assert.ok(Object.keys(body.data.params).length > 0);
        }),
        { numRuns: RUNS, ...(seed === undefined ? {} : { seed }) },
      );
      assert.equal(await snapshot(t.api), tablesBefore, 'a rejected request changed the database');
      assert.deepEqual(await listings(), listingsBefore, 'a rejected request changed a listing');
      assert.ok([...statuses.values()].reduce((a, b) => a + b, 0) >= RUNS);
    });
  });
}
