import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TRANSCRIPT_ORGANIZER } from '../helpers/fixtures.js';
import { testDialects } from '../helpers/databases.js';
import { DEFAULT_NOW, useTestApp, type TestApi } from '../helpers/app.js';
import { insertEvent } from '../helpers/factories.js';

const BASE = 'http://127.0.0.1:8080';
const STAMP = '2026-11-21 08:37:48';
const NOT_FOUND = {
  code: 'organizer-not-found',
  message: 'The requested organizer does not exist.',
  data: { status: 404 },
};

/** Organizer posts stored, whatever their status (to prove a rejected write created nothing). */
async function organizerCount(api: TestApi): Promise<number> {
  const row = await api.db
    .selectFrom('posts')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('type', '=', 'organizer')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The organizer ids of an event, in their stored order. */
async function eventOrganizerIds(api: TestApi, eventId: number): Promise<number[]> {
  const rows = await api.db
    .selectFrom('event_organizers')
    .select('organizer_id')
    .where('event_id', '=', eventId)
    .orderBy('position')
    .execute();
  return rows.map((row) => row.organizer_id);
}

for (const dialect of await testDialects()) {
  describe(`organizers: create, read, update, delete [${dialect}]`, () => {
    const t = useTestApp(dialect);

    it("the transcript create request gives TEC's body: exact keys in order, omitted empties", async () => {
      const res = await t.api.post('/organizers', TRANSCRIPT_ORGANIZER, { as: 'administrator' });
      assert.equal(res.status, 201, res.text);
      const admin = await t.api.user('administrator');
      const id = res.json.id;
      assert.equal(typeof id, 'number');
      assert.deepEqual(res.json, {
        id,
        author: String(admin.id),
        status: 'publish',
        date: STAMP,
        date_utc: STAMP,
        modified: STAMP,
        modified_utc: STAMP,
        url: `${BASE}/organizer/transcript-org/`,
        organizer: 'Transcript Org',
        description: '<p>Organizer made for the transcript.</p>',
        slug: 'transcript-org',
        phone: '+1 555 0199',
        website: 'https://example.org/org',
        email: 'org@example.org',
        global_id: `127.0.0.1?id=${id}`,
        global_id_lineage: [`127.0.0.1?id=${id}`],
      });
      assert.deepEqual(Object.keys(res.json), [
        'id',
        'author',
        'status',
        'date',
        'date_utc',
        'modified',
        'modified_utc',
        'url',
        'organizer',
        'description',
        'slug',
        'phone',
        'website',
        'email',
        'global_id',
        'global_id_lineage',
      ]);
      assert.match(String(res.headers['content-type']), /^application\/json; charset=utf-8/);
    });

    it('single reads add json_ld (schema.org Person, plain-text e-mail) right before global_id; by slug equals by id', async () => {
      const created = await t.api.post(
        '/organizers',
        { ...TRANSCRIPT_ORGANIZER, organizer: 'LD Org' },
        { as: 'editor' },
      );
      assert.equal(created.status, 201, created.text);
      assert.equal('json_ld' in created.json, false);
      const res = await t.api.get(`/organizers/${created.json.id}`);
      assert.equal(res.status, 200, res.text);
      const { json_ld: jsonLd, ...rest } = res.json;
      assert.deepEqual(rest, created.json);
      assert.deepEqual(jsonLd, {
        '@type': 'Person',
        name: 'LD Org',
        description: 'Organizer made for the transcript.',
        url: 'https://example.org/org',
        telephone: '+1 555 0199',
        email: 'org@example.org',
        sameAs: 'https://example.org/org',
      });
      const keys = Object.keys(res.json);
      assert.deepEqual(keys.slice(-4), ['email', 'json_ld', 'global_id', 'global_id_lineage']);
      const bySlug = await t.api.get('/organizers/by-slug/ld-org');
      assert.equal(bySlug.status, 200);
      assert.deepEqual(bySlug.json, res.json);
      assert.deepEqual(Object.keys(bySlug.json), keys);
    });

    it('json_ld leaves out what the organizer does not have', async () => {
      const created = await t.api.post('/organizers', { organizer: 'Bare Org' }, { as: 'editor' });
      assert.deepEqual(Object.keys(created.json), [
        'id',
        'author',
        'status',
        'date',
        'date_utc',
        'modified',
        'modified_utc',
        'url',
        'organizer',
        'slug',
        'global_id',
        'global_id_lineage',
      ]);
      const res = await t.api.get(`/organizers/${created.json.id}`);
      assert.deepEqual(res.json.json_ld, { '@type': 'Person', name: 'Bare Org' });
    });

    it('optional meta is echoed on create (OC-06)', async () => {
      const res = await t.api.post(
        '/organizers',
        { organizer: 'Meta Org', email: 'john@company.com', phone: 'Organizer phone', website: 'http://organizer.com' },
        { as: 'administrator' },
      );
      assert.equal(res.status, 201, res.text);
      assert.equal(res.json.organizer, 'Meta Org');
      assert.equal(res.json.email, 'john@company.com');
      assert.equal(res.json.phone, 'Organizer phone');
      assert.equal(res.json.website, 'http://organizer.com');
    });

    it('post fields: author, publication date, description and status are stored (OC-03)', async () => {
      const editor = await t.api.user('editor');
      const tomorrowNine = Date.UTC(2026, 10, 22, 9, 0, 0) / 1000;
      const res = await t.api.post(
        '/organizers',
        {
          organizer: 'Dated Org',
          author: editor.id,
          date: String(tomorrowNine),
          description: 'Organizer description',
          status: 'draft',
        },
        { as: 'administrator' },
      );
      assert.equal(res.status, 201, res.text);
      assert.equal(res.json.author, String(editor.id));
      assert.equal(res.json.date, '2026-11-22 09:00:00');
      assert.equal(res.json.date_utc, '2026-11-22 09:00:00');
      assert.equal(res.json.modified, STAMP);
      assert.equal(res.json.description, '<p>Organizer description</p>');
      assert.equal(res.json.status, 'draft');
      assert.equal('slug' in res.json, false);
      assert.equal(res.json.url, `${BASE}/?post_type=tribe_organizer&p=${res.json.id}`);
      const stored = await t.api.db
        .selectFrom('posts')
        .select(['status', 'author_id'])
        .where('id', '=', res.json.id)
        .executeTakeFirstOrThrow();
      assert.deepEqual(stored, { status: 'draft', author_id: editor.id });
    });

    it('anonymous callers may not create, update or delete (OC-01, OUP-01, OD-02)', async () => {
      const before = await organizerCount(t.api);
      const create = await t.api.post('/organizers', { organizer: 'A organizer' });
      assert.equal(create.status, 401);
      assert.deepEqual(create.json, {
        code: 'rest_forbidden',
        message: 'Sorry, you are not allowed to do that.',
        data: { status: 401 },
      });
      assert.equal(await organizerCount(t.api), before);
      const existing = await t.api.post('/organizers', { organizer: 'Guarded Org' }, { as: 'editor' });
      const update = await t.api.post(`/organizers/${existing.json.id}`, { organizer: 'Hacked' });
      assert.equal(update.status, 401);
      assert.equal(update.json.code, 'rest_forbidden');
      const remove = await t.api.delete(`/organizers/${existing.json.id}`);
      assert.equal(remove.status, 401);
      assert.equal(remove.json.code, 'rest_forbidden');
      const subscriber = await t.api.post('/organizers', { organizer: 'Subscribed' }, { as: 'subscriber' });
      assert.equal(subscriber.status, 403);
      assert.equal(subscriber.json.code, 'rest_forbidden');
      const after = await t.api.get(`/organizers/${existing.json.id}`);
      assert.equal(after.json.organizer, 'Guarded Org');
      assert.equal(after.json.status, 'publish');
    });

    it('an organizer created again with the same name (any case) and description returns the same id with 201 (OC-09)', async () => {
      const first = await t.api.post(
        '/organizers',
        { organizer: 'An organizer', description: 'An organizer description' },
        { as: 'administrator' },
      );
      assert.equal(first.status, 201);
      for (const body of [
        { organizer: 'An organizer', description: 'An organizer description' },
        { organizer: 'An organizer' },
        { organizer: 'an organizer', description: 'an organizer description' },
        { organizer: 'AN ORGANIZER' },
      ]) {
        const again = await t.api.post('/organizers', body, { as: 'administrator' });
        assert.equal(again.status, 201, JSON.stringify(body));
        assert.equal(again.json.id, first.json.id, JSON.stringify(body));
        assert.equal(again.json.organizer, 'An organizer');
      }
      const otherDescription = await t.api.post(
        '/organizers',
        { organizer: 'An organizer', description: 'Another description' },
        { as: 'administrator' },
      );
      assert.equal(otherDescription.status, 201);
      assert.notEqual(otherDescription.json.id, first.json.id);
      assert.equal(otherDescription.json.slug, 'an-organizer-2');
    });

    it('duplicate reuse matches on the name when no description is sent, whatever the contact fields (OC-10)', async () => {
      const full = {
        organizer: 'A organizer',
        phone: '11223344',
        email: 'doe@anizer.org',
        website: 'http://anizer.org',
      };
      const first = await t.api.post('/organizers', full, { as: 'administrator' });
      assert.equal(first.status, 201, first.text);
      const { phone: _phone, ...withoutPhone } = full;
      const { email: _email, ...withoutEmail } = full;
      for (const body of [
        full,
        withoutPhone,
        withoutEmail,
        { organizer: 'A organizer', website: 'http://anizer.org' },
      ]) {
        const again = await t.api.post('/organizers', body, { as: 'administrator' });
        assert.equal(again.status, 201, JSON.stringify(body));
        assert.equal(again.json.id, first.json.id, JSON.stringify(body));
      }
      const stored = await t.api.db
        .selectFrom('posts')
        .select('id')
        .where('type', '=', 'organizer')
        .where('title', '=', 'A organizer')
        .execute();
      assert.equal(stored.length, 1);
    });

    it('a trashed organizer is not reused by a create with its name', async () => {
      const first = await t.api.post('/organizers', { organizer: 'Recycled Org' }, { as: 'editor' });
      await t.api.delete(`/organizers/${first.json.id}`, { as: 'editor' });
      const again = await t.api.post('/organizers', { organizer: 'Recycled Org' }, { as: 'editor' });
      assert.equal(again.status, 201);
      assert.notEqual(again.json.id, first.json.id);
      assert.equal(again.json.status, 'publish');
      assert.equal(again.json.slug, 'recycled-org');
    });

    it('bad input is 400 naming the parameter and creates nothing (OC-04, OC-05)', async () => {
      const before = await organizerCount(t.api);
      const cases: [Record<string, unknown>, string, string][] = [
        [{ organizer: '' }, 'rest_invalid_param', 'organizer'],
        [{ description: 'no name' }, 'rest_missing_callback_param', 'organizer'],
        [{ organizer: 'Bad site', website: 'not a url' }, 'rest_invalid_param', 'website'],
        [{ organizer: 'Bad site', website: 'javascript:alert(1)' }, 'rest_invalid_param', 'website'],
        [{ organizer: 'Bad mail', email: 'not-an-email' }, 'rest_invalid_param', 'email'],
        [{ organizer: 'Bad mail', email: 'two words@example.org' }, 'rest_invalid_param', 'email'],
        [{ organizer: 'Bad status', status: 'kinda_thinking_about_it' }, 'rest_invalid_param', 'status'],
        [{ organizer: 'Bad date', date: 'foo' }, 'rest_invalid_param', 'date'],
        [{ organizer: 'Bad date', date_utc: 'foo' }, 'rest_invalid_param', 'date_utc'],
        [{ organizer: 'Bad author', author: 999999 }, 'rest_invalid_param', 'author'],
        [{ organizer: 'Bad author', author: 'foo' }, 'rest_invalid_param', 'author'],
      ];
      for (const [body, code, param] of cases) {
        const res = await t.api.post('/organizers', body, { as: 'administrator' });
        assert.equal(res.status, 400, `${JSON.stringify(body)}: ${res.text}`);
        assert.equal(res.json.code, code, JSON.stringify(body));
        assert.equal(res.json.data.status, 400);
        if (code === 'rest_missing_callback_param') {
          assert.deepEqual(res.json.data.params, [param]);
          assert.equal(res.json.message, `Missing parameter(s): ${param}`);
        } else {
          assert.deepEqual(Object.keys(res.json.data.params), [param], JSON.stringify(body));
          assert.equal(res.json.message, `Invalid parameter(s): ${param}`);
        }
      }
      assert.equal(await organizerCount(t.api), before);
    });

    it('bad input is 400 even for anonymous callers (validation before permissions)', async () => {
      const res = await t.api.post('/organizers', { organizer: '' });
      assert.equal(res.status, 400);
      assert.equal(res.json.code, 'rest_invalid_param');
      const missing = await t.api.post('/organizers', {});
      assert.equal(missing.status, 400);
      assert.equal(missing.json.code, 'rest_missing_callback_param');
    });

    it('a partial update changes only the sent field (phone only), with POST, PUT and PATCH', async () => {
      const created = await t.api.post(
        '/organizers',
        { ...TRANSCRIPT_ORGANIZER, organizer: 'Partial Org' },
        { as: 'editor' },
      );
      t.api.now = new Date(DEFAULT_NOW.getTime() + 3_600_000);
      try {
        const res = await t.api.post(`/organizers/${created.json.id}`, { phone: '+1 555 0200' }, { as: 'editor' });
        assert.equal(res.status, 200, res.text);
        assert.deepEqual(res.json, {
          ...created.json,
          phone: '+1 555 0200',
          modified: '2026-11-21 09:37:48',
          modified_utc: '2026-11-21 09:37:48',
        });
        assert.deepEqual(Object.keys(res.json), Object.keys(created.json));
      } finally {
        t.api.now = DEFAULT_NOW;
      }
      const put = await t.api.put(`/organizers/${created.json.id}`, { email: 'put@example.org' }, { as: 'editor' });
      assert.equal(put.status, 200);
      assert.equal(put.json.email, 'put@example.org');
      assert.equal(put.json.phone, '+1 555 0200');
      const patch = await t.api.patch(
        `/organizers/${created.json.id}`,
        { website: 'https://example.org/patched' },
        { as: 'editor' },
      );
      assert.equal(patch.status, 200);
      assert.equal(patch.json.website, 'https://example.org/patched');
      assert.equal(patch.json.email, 'put@example.org');
      assert.equal(patch.json.phone, '+1 555 0200');
      assert.equal(patch.json.description, '<p>Organizer made for the transcript.</p>');
      assert.equal(patch.json.organizer, 'Partial Org');
      assert.equal(patch.json.status, 'publish');
      assert.equal(patch.json.date, STAMP);
    });

    it('setting email, phone and website to "" removes those keys (OUP-07)', async () => {
      const created = await t.api.post(
        '/organizers',
        { ...TRANSCRIPT_ORGANIZER, organizer: 'Emptied Org' },
        { as: 'editor' },
      );
      const res = await t.api.post(
        `/organizers/${created.json.id}`,
        { email: '', phone: '', website: '' },
        { as: 'administrator' },
      );
      assert.equal(res.status, 200, res.text);
      assert.equal(res.json.organizer, 'Emptied Org');
      for (const key of ['email', 'phone', 'website']) assert.equal(key in res.json, false, key);
      assert.equal(res.json.description, '<p>Organizer made for the transcript.</p>');
      const read = await t.api.get(`/organizers/${created.json.id}`);
      for (const key of ['email', 'phone', 'website']) assert.equal(key in read.json, false, key);
      assert.deepEqual(read.json.json_ld, {
        '@type': 'Person',
        name: 'Emptied Org',
        description: 'Organizer made for the transcript.',
      });
    });

    it('updating only the name keeps email, phone and website (OUP-12)', async () => {
      const created = await t.api.post(
        '/organizers',
        { ...TRANSCRIPT_ORGANIZER, organizer: 'Named Org' },
        { as: 'editor' },
      );
      const res = await t.api.post(
        `/organizers/${created.json.id}`,
        { organizer: 'A organizer renamed' },
        { as: 'administrator' },
      );
      assert.equal(res.status, 200, res.text);
      assert.equal(res.json.organizer, 'A organizer renamed');
      assert.equal(res.json.email, 'org@example.org');
      assert.equal(res.json.phone, '+1 555 0199');
      assert.equal(res.json.website, 'https://example.org/org');
      assert.equal(res.json.slug, 'named-org');
    });

    it('bad input on update is 400 and changes nothing (OUP-04, OUP-05)', async () => {
      const created = await t.api.post('/organizers', { organizer: 'Stable Org', phone: '123' }, { as: 'editor' });
      const cases: [Record<string, unknown>, string][] = [
        [{ organizer: '' }, 'organizer'],
        [{ website: 'nope' }, 'website'],
        [{ email: 'not-an-email' }, 'email'],
        [{ phone: '456', email: 'not-an-email' }, 'email'],
        [{ status: 'kinda_thinking_about_it' }, 'status'],
        [{ author: 999999 }, 'author'],
        [{ date: 'foo' }, 'date'],
      ];
      for (const [body, param] of cases) {
        const res = await t.api.patch(`/organizers/${created.json.id}`, body, { as: 'editor' });
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.equal(res.json.code, 'rest_invalid_param');
        assert.deepEqual(Object.keys(res.json.data.params), [param], JSON.stringify(body));
      }
      const after = await t.api.get(`/organizers/${created.json.id}`);
      assert.deepEqual({ ...after.json, json_ld: undefined }, { ...created.json, json_ld: undefined });
    });

    it('post fields can be updated along with the organizer (OUP-03)', async () => {
      const created = await t.api.post('/organizers', { organizer: 'Fields Org', phone: '1' }, { as: 'administrator' });
      const editor = await t.api.user('editor');
      const res = await t.api.post(
        `/organizers/${created.json.id}`,
        {
          organizer: 'Fields Org',
          author: editor.id,
          date: '2026-11-22 09:00:00',
          description: 'Organizer description',
          status: 'draft',
        },
        { as: 'administrator' },
      );
      assert.equal(res.status, 200, res.text);
      assert.equal(res.json.author, String(editor.id));
      assert.equal(res.json.date, '2026-11-22 09:00:00');
      assert.equal(res.json.date_utc, '2026-11-22 09:00:00');
      assert.equal(res.json.description, '<p>Organizer description</p>');
      assert.equal(res.json.status, 'draft');
      assert.equal(res.json.phone, '1');
      const stored = await t.api.db
        .selectFrom('posts')
        .select(['status', 'author_id'])
        .where('id', '=', created.json.id)
        .executeTakeFirstOrThrow();
      assert.deepEqual(stored, { status: 'draft', author_id: editor.id });
      assert.equal((await t.api.get(`/organizers/${created.json.id}`)).status, 403);
    });

    it('trashing through an update (status trash) also removes the organizer from events', async () => {
      const created = await t.api.post('/organizers', { organizer: 'Update Trash Org' }, { as: 'editor' });
      const eventId = await insertEvent(t.api.db, { organizerIds: [created.json.id] });
      const res = await t.api.patch(`/organizers/${created.json.id}`, { status: 'trash' }, { as: 'editor' });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.json.status, 'trash');
      assert.equal(res.json.slug, 'update-trash-org__trashed');
      assert.deepEqual(await eventOrganizerIds(t.api, eventId), []);
      const again = await t.api.delete(`/organizers/${created.json.id}`, { as: 'editor' });
      assert.equal(again.status, 410);
      assert.equal(again.json.code, 'organizer-is-in-trash');
    });

    it('renaming an organizer to an existing name is allowed and both remain (OUP-11)', async () => {
      const one = await t.api.post('/organizers', { organizer: 'Organizer 1' }, { as: 'administrator' });
      const two = await t.api.post('/organizers', { organizer: 'Organizer 2' }, { as: 'administrator' });
      assert.notEqual(one.json.id, two.json.id);
      const res = await t.api.post(`/organizers/${two.json.id}`, { organizer: 'Organizer 1' }, { as: 'administrator' });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.json.id, two.json.id);
      assert.equal(res.json.organizer, 'Organizer 1');
      const first = await t.api.get(`/organizers/${one.json.id}`);
      const second = await t.api.get(`/organizers/${two.json.id}`);
      assert.equal(first.status, 200);
      assert.equal(second.status, 200);
      assert.equal(first.json.organizer, 'Organizer 1');
      assert.equal(second.json.organizer, 'Organizer 1');
      assert.equal(first.json.slug, 'organizer-1');
      assert.equal(second.json.slug, 'organizer-2');
    });

    it('updates by slug find the item by the path slug; a body slug renames it', async () => {
      const created = await t.api.post('/organizers', { organizer: 'Slug Org' }, { as: 'editor' });
      const res = await t.api.patch(
        '/organizers/by-slug/slug-org',
        { slug: 'renamed-org', phone: '777' },
        { as: 'editor' },
      );
      assert.equal(res.status, 200, res.text);
      assert.equal(res.json.id, created.json.id);
      assert.equal(res.json.slug, 'renamed-org');
      assert.equal(res.json.url, `${BASE}/organizer/renamed-org/`);
      assert.equal((await t.api.get('/organizers/by-slug/slug-org')).status, 404);
      const read = await t.api.get('/organizers/by-slug/renamed-org');
      assert.equal(read.json.phone, '777');
      assert.equal(read.json.organizer, 'Slug Org');
    });

    it('unknown ids and slugs are 404 organizer-not-found on GET, updates and DELETE (OG-03, OG-07, OD-01)', async () => {
      const routes: [string, string][] = [
        ['GET', '/organizers/999999'],
        ['POST', '/organizers/999999'],
        ['PUT', '/organizers/999999'],
        ['PATCH', '/organizers/999999'],
        ['DELETE', '/organizers/999999'],
        ['GET', '/organizers/by-slug/no-such-organizer'],
        ['POST', '/organizers/by-slug/no-such-organizer'],
        ['PATCH', '/organizers/by-slug/no-such-organizer'],
        ['DELETE', '/organizers/by-slug/no-such-organizer'],
      ];
      for (const [method, path] of routes) {
        const res = await t.api.request(
          method,
          path,
          method === 'GET' || method === 'DELETE' ? undefined : { phone: 'x' },
          { as: 'editor' },
        );
        assert.equal(res.status, 404, `${method} ${path}`);
        assert.deepEqual(res.json, NOT_FOUND, `${method} ${path}`);
      }
      // Not-found is reported before the permission check (API.md §18, TEC OD-01).
      const anonymous = await t.api.delete('/organizers/999999');
      assert.equal(anonymous.status, 404);
      assert.deepEqual(anonymous.json, NOT_FOUND);
      // An id naming another kind of post is not an organizer.
      const venue = await t.api.post('/venues', { venue: 'Not an organizer' }, { as: 'editor' });
      const asOrganizer = await t.api.get(`/organizers/${venue.json.id}`);
      assert.equal(asOrganizer.status, 404);
      assert.deepEqual(asOrganizer.json, NOT_FOUND);
      const eventId = await insertEvent(t.api.db, {});
      assert.deepEqual((await t.api.get(`/organizers/${eventId}`)).json, NOT_FOUND);
      // A non-digit id is no route (OG-02).
      for (const path of ['/organizers/foo', '/organizers/foo-bar']) {
        const res = await t.api.get(path);
        assert.equal(res.status, 404, path);
        assert.equal(res.json.code, 'rest_no_route', path);
      }
    });

    it('non-published organizers: anonymous 403 organizer-not-accessible, editors 200, by id and slug (OG-04/05, OG-08/09)', async () => {
      const draft = await t.api.post(
        '/organizers',
        { organizer: 'Draft Org', slug: 'draft-org', status: 'draft' },
        { as: 'editor' },
      );
      assert.equal(draft.json.status, 'draft');
      assert.equal(draft.json.slug, 'draft-org');
      for (const path of [`/organizers/${draft.json.id}`, '/organizers/by-slug/draft-org']) {
        const anonymous = await t.api.get(path);
        assert.equal(anonymous.status, 403, path);
        assert.deepEqual(anonymous.json, {
          code: 'organizer-not-accessible',
          message: 'The requested organizer is not accessible',
          data: { status: 403 },
        });
        const subscriber = await t.api.get(path, { as: 'subscriber' });
        assert.equal(subscriber.status, 403, path);
        assert.equal(subscriber.json.code, 'organizer-not-accessible');
        const editor = await t.api.get(path, { as: 'editor' });
        assert.equal(editor.status, 200, path);
        assert.equal(editor.json.id, draft.json.id);
        assert.equal(editor.json.status, 'draft');
      }
    });

    it('contributors create drafts or pending organizers and read only their own', async () => {
      const pending = await t.api.post(
        '/organizers',
        { organizer: 'Contributed Org', status: 'publish' },
        { as: 'contributor' },
      );
      assert.equal(pending.status, 201);
      assert.equal(pending.json.status, 'pending');
      const defaulted = await t.api.post('/organizers', { organizer: 'Contributed Org 2' }, { as: 'contributor' });
      assert.equal(defaulted.json.status, 'draft');
      assert.equal((await t.api.get(`/organizers/${pending.json.id}`, { as: 'contributor' })).status, 200);
      const other = await t.api.otherUser('contributor', 'org-contrib-other');
      const foreign = await t.api.get(`/organizers/${pending.json.id}`, { as: { authorization: other.header } });
      assert.equal(foreign.status, 403);
      assert.equal(foreign.json.code, 'organizer-not-accessible');
      const published = await t.api.patch(`/organizers/${defaulted.json.id}`, { status: 'publish' }, { as: 'editor' });
      assert.equal(published.json.status, 'publish');
      assert.equal(published.json.slug, 'contributed-org-2');
    });

    it('delete trashes the organizer, removes it from events, and answers 410 the second time (OD-03..05)', async () => {
      const created = await t.api.post('/organizers', { organizer: 'Trash Org', phone: '555' }, { as: 'editor' });
      const keeper = await t.api.post('/organizers', { organizer: 'Keeper Org' }, { as: 'editor' });
      const eventId = await insertEvent(t.api.db, { organizerIds: [created.json.id, keeper.json.id] });
      const soloEventId = await insertEvent(t.api.db, { organizerIds: [created.json.id] });
      assert.deepEqual(await eventOrganizerIds(t.api, eventId), [created.json.id, keeper.json.id]);

      const res = await t.api.delete(`/organizers/${created.json.id}`, { as: 'administrator' });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.json.id, created.json.id);
      assert.equal(res.json.status, 'trash');
      assert.equal(res.json.slug, 'trash-org__trashed');
      assert.equal(res.json.url, `${BASE}/?post_type=tribe_organizer&p=${created.json.id}`);
      assert.equal(res.json.organizer, 'Trash Org');
      assert.equal(res.json.phone, '555');
      assert.equal('json_ld' in res.json, false);
      assert.deepEqual(await eventOrganizerIds(t.api, eventId), [keeper.json.id]);
      assert.deepEqual(await eventOrganizerIds(t.api, soloEventId), []);

      const again = await t.api.delete(`/organizers/${created.json.id}`, { as: 'administrator' });
      assert.equal(again.status, 410);
      assert.deepEqual(again.json, {
        code: 'organizer-is-in-trash',
        message: 'The organizer is already trashed',
        data: { status: 410 },
      });

      const anonymous = await t.api.get(`/organizers/${created.json.id}`);
      assert.equal(anonymous.status, 403);
      assert.equal(anonymous.json.code, 'organizer-not-accessible');
      const editor = await t.api.get(`/organizers/${created.json.id}`, { as: 'editor' });
      assert.equal(editor.status, 200);
      assert.equal(editor.json.status, 'trash');
      assert.equal((await t.api.get('/organizers/by-slug/trash-org')).status, 404);
    });

    it('delete by slug trashes; the trashed slug then still finds it for a second, 410 delete', async () => {
      const created = await t.api.post('/organizers', { organizer: 'Slug Trash Org' }, { as: 'editor' });
      const res = await t.api.delete('/organizers/by-slug/slug-trash-org', { as: 'editor' });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.json.id, created.json.id);
      assert.equal(res.json.slug, 'slug-trash-org__trashed');
      const again = await t.api.delete('/organizers/by-slug/slug-trash-org__trashed', { as: 'editor' });
      assert.equal(again.status, 410);
      assert.equal(again.json.code, 'organizer-is-in-trash');
    });

    it('force=true by an editor deletes permanently and returns the last state; then 404', async () => {
      const created = await t.api.post(
        '/organizers',
        { organizer: 'Doomed Org', email: 'doomed@example.org' },
        { as: 'editor' },
      );
      const eventId = await insertEvent(t.api.db, { organizerIds: [created.json.id] });
      const forced = await t.api.delete(`/organizers/${created.json.id}`, { as: 'editor', query: { force: 'true' } });
      assert.equal(forced.status, 200, forced.text);
      assert.equal(forced.json.id, created.json.id);
      assert.equal(forced.json.organizer, 'Doomed Org');
      assert.equal(forced.json.email, 'doomed@example.org');
      assert.deepEqual(await eventOrganizerIds(t.api, eventId), []);
      for (const as of ['editor', 'anonymous'] as const) {
        const res = await t.api.get(`/organizers/${created.json.id}`, { as });
        assert.equal(res.status, 404, as);
        assert.deepEqual(res.json, NOT_FOUND);
      }
      const stored = await t.api.db.selectFrom('posts').select('id').where('id', '=', created.json.id).execute();
      assert.deepEqual(stored, []);
      assert.deepEqual((await t.api.delete(`/organizers/${created.json.id}`, { as: 'editor' })).json, NOT_FOUND);
    });

    it('force=true also removes an organizer that is already in the trash', async () => {
      const created = await t.api.post('/organizers', { organizer: 'Twice Doomed Org' }, { as: 'editor' });
      await t.api.delete(`/organizers/${created.json.id}`, { as: 'editor' });
      const forced = await t.api.delete(`/organizers/${created.json.id}`, {
        as: 'administrator',
        query: { force: 'true' },
      });
      assert.equal(forced.status, 200, forced.text);
      assert.equal(forced.json.status, 'trash');
      assert.equal((await t.api.get(`/organizers/${created.json.id}`, { as: 'editor' })).status, 404);
    });

    it('force=true needs an editor: an author forcing the delete of their own organizer gets 403 and nothing changes', async () => {
      const created = await t.api.post('/organizers', { organizer: 'Author Org' }, { as: 'author' });
      assert.equal(created.json.status, 'publish');
      const forced = await t.api.delete(`/organizers/${created.json.id}`, { as: 'author', query: { force: 'true' } });
      assert.equal(forced.status, 403);
      assert.equal(forced.json.code, 'rest_forbidden');
      assert.equal((await t.api.get(`/organizers/${created.json.id}`)).json.status, 'publish');
      const trashed = await t.api.delete(`/organizers/${created.json.id}`, { as: 'author' });
      assert.equal(trashed.status, 200);
      assert.equal(trashed.json.status, 'trash');
    });

    it('updating a trashed organizer keeps it in the trash unless status says otherwise', async () => {
      const created = await t.api.post('/organizers', { organizer: 'Phoenix Org' }, { as: 'editor' });
      await t.api.delete(`/organizers/${created.json.id}`, { as: 'editor' });
      const edited = await t.api.patch(`/organizers/${created.json.id}`, { phone: '42' }, { as: 'editor' });
      assert.equal(edited.status, 200);
      assert.equal(edited.json.status, 'trash');
      assert.equal(edited.json.slug, 'phoenix-org__trashed');
      assert.equal(edited.json.phone, '42');
      const restored = await t.api.patch(`/organizers/${created.json.id}`, { status: 'publish' }, { as: 'editor' });
      assert.equal(restored.json.status, 'publish');
      assert.equal(restored.json.slug, 'phoenix-org');
      assert.equal((await t.api.get('/organizers/by-slug/phoenix-org')).json.id, created.json.id);
    });

    it('images are set by URL or id and removed with "" (OC-07/08, OUP-08/09)', async () => {
      const withUrl = await t.api.post(
        '/organizers',
        { organizer: 'Pictured Org', image: 'https://example.org/images/org.png' },
        { as: 'editor' },
      );
      assert.equal(withUrl.status, 201, withUrl.text);
      assert.deepEqual(withUrl.json.image, {
        url: 'https://example.org/images/org.png',
        id: withUrl.json.image.id,
        extension: 'png',
      });
      assert.deepEqual(Object.keys(withUrl.json).slice(9, 11), ['slug', 'image']);
      const byId = await t.api.post(
        '/organizers',
        { organizer: 'Pictured Org 2', image: withUrl.json.image.id },
        { as: 'editor' },
      );
      assert.equal(byId.json.image.id, withUrl.json.image.id);
      const single = await t.api.get(`/organizers/${byId.json.id}`);
      assert.equal(single.json.json_ld.image, 'https://example.org/images/org.png');
      const removed = await t.api.patch(`/organizers/${byId.json.id}`, { image: '' }, { as: 'editor' });
      assert.equal('image' in removed.json, false);
    });

    // Names are plain text: `<Org>` is a tag and is stripped on write (API.md §18; kept before issue 23).
    it('descriptions are sanitised and names stripped of tags', async () => {
      const res = await t.api.post(
        '/organizers',
        { organizer: 'Tom & Jerry <Org>', description: '<p onclick="x()">Hi</p><script>alert(1)</script>' },
        { as: 'editor' },
      );
      assert.equal(res.status, 201, res.text);
      assert.equal(res.json.organizer, 'Tom & Jerry');
      assert.equal(res.json.description, '<p>Hi</p>');
      const single = await t.api.get(`/organizers/${res.json.id}`);
      assert.equal(single.json.json_ld.name, 'Tom & Jerry');
      assert.equal(single.json.json_ld.description, 'Hi');
    });
  });
}
