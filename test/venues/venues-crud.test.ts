import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TRANSCRIPT_VENUE } from '../helpers/fixtures.js';
import { testDialects } from '../helpers/databases.js';
import { DEFAULT_NOW, useTestApp } from '../helpers/app.js';
import { insertEvent } from '../helpers/factories.js';

const BASE = 'http://127.0.0.1:8080';
const STAMP = '2026-11-21 08:37:48';

for (const dialect of await testDialects()) {
  describe(`venues: create, read, update, delete [${dialect}]`, () => {
    const t = useTestApp(dialect);

    it("the transcript create request gives TEC's body: key order, omitted empties, defaults", async () => {
      const res = await t.api.post('/venues', TRANSCRIPT_VENUE, { as: 'administrator' });
      assert.equal(res.status, 201, res.text);
      const admin = await t.api.user('administrator');
      const id = res.json.id;
      assert.deepEqual(res.json, {
        id,
        author: String(admin.id),
        status: 'publish',
        date: STAMP,
        date_utc: STAMP,
        modified: STAMP,
        modified_utc: STAMP,
        url: `${BASE}/venue/transcript-hall/`,
        venue: 'Transcript Hall',
        description: '<p>A venue made for the transcript.</p>',
        slug: 'transcript-hall',
        address: '1 Main Street',
        city: 'Springfield',
        country: 'United States',
        state: 'IL',
        zip: '62701',
        phone: '+1 555 0100',
        website: 'https://example.org/hall',
        stateprovince: 'IL',
        show_map: true,
        show_map_link: true,
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
        'venue',
        'description',
        'slug',
        'address',
        'city',
        'country',
        'state',
        'zip',
        'phone',
        'website',
        'stateprovince',
        'show_map',
        'show_map_link',
        'global_id',
        'global_id_lineage',
      ]);
    });

    it('single reads add json_ld (schema.org Place) before the flags', async () => {
      const created = await t.api.post('/venues', { ...TRANSCRIPT_VENUE, venue: 'LD Hall' }, { as: 'editor' });
      const res = await t.api.get(`/venues/${created.json.id}`);
      assert.equal(res.status, 200);
      const keys = Object.keys(res.json);
      assert.equal(keys[keys.indexOf('json_ld') + 1], 'show_map');
      assert.deepEqual(res.json.json_ld, {
        '@type': 'Place',
        name: 'LD Hall',
        description: 'A venue made for the transcript.',
        url: `${BASE}/venue/ld-hall/`,
        address: {
          '@type': 'PostalAddress',
          streetAddress: '1 Main Street',
          addressLocality: 'Springfield',
          addressRegion: 'IL',
          postalCode: '62701',
          addressCountry: 'United States',
        },
        telephone: '+1 555 0100',
        sameAs: 'https://example.org/hall',
      });
      const bySlug = await t.api.get('/venues/by-slug/ld-hall');
      assert.deepEqual(bySlug.json, res.json);
    });

    it('stateprovince defaults to the state in the US and to the province elsewhere; geo coordinates are kept', async () => {
      const canada = await t.api.post(
        '/venues',
        { venue: 'Parliament Hill', country: 'Canada', province: 'ON', geo_lat: 45.4236, geo_lng: '-75.7009' },
        { as: 'editor' },
      );
      assert.equal(canada.json.stateprovince, 'ON');
      assert.equal(canada.json.geo_lat, 45.4236);
      assert.equal(canada.json.geo_lng, -75.7009);
      const single = await t.api.get(`/venues/${canada.json.id}`);
      assert.deepEqual(single.json.json_ld.geo, { '@type': 'GeoCoordinates', latitude: 45.4236, longitude: -75.7009 });
      const flags = await t.api.post(
        '/venues',
        { venue: 'No map', show_map: 'false', show_map_link: false },
        { as: 'editor' },
      );
      assert.equal(flags.json.show_map, false);
      assert.equal(flags.json.show_map_link, false);
    });

    it('a venue created twice with the same name in any case returns the same id with 201', async () => {
      const first = await t.api.post(
        '/venues',
        { venue: 'A venue', description: 'A venue description' },
        { as: 'editor' },
      );
      for (const body of [
        { venue: 'A venue', description: 'A venue description' },
        { venue: 'A VENUE' },
        { venue: 'a venue', description: 'a venue description' },
      ]) {
        const again = await t.api.post('/venues', body, { as: 'editor' });
        assert.equal(again.status, 201);
        assert.equal(again.json.id, first.json.id, JSON.stringify(body));
      }
      const otherDescription = await t.api.post(
        '/venues',
        { venue: 'A venue', description: 'Something else' },
        { as: 'editor' },
      );
      assert.notEqual(otherDescription.json.id, first.json.id);
      assert.equal(otherDescription.json.slug, 'a-venue-2');
    });

    it('bad input is rejected with the contract error and creates nothing', async () => {
      const cases: [Record<string, unknown>, string, string][] = [
        [{ venue: '' }, 'rest_invalid_param', 'venue'],
        [{ venue: 'Bad site', website: 'not a url' }, 'rest_invalid_param', 'website'],
        [{ venue: 'Bad site', website: 'javascript:alert(1)' }, 'rest_invalid_param', 'website'],
        [{ venue: 'Bad lat', geo_lat: 123 }, 'rest_invalid_param', 'geo_lat'],
        [{ venue: 'Bad lng', geo_lng: -181 }, 'rest_invalid_param', 'geo_lng'],
        [{ venue: 'Bad status', status: 'kinda_thinking_about_it' }, 'rest_invalid_param', 'status'],
        [{ venue: 'Bad date', date: 'foo' }, 'rest_invalid_param', 'date'],
        [{ venue: 'Bad author', author: 999999 }, 'rest_invalid_param', 'author'],
        [{ venue: 'Bad author', author: 'foo' }, 'rest_invalid_param', 'author'],
        [{ description: 'no name' }, 'rest_missing_callback_param', 'venue'],
      ];
      for (const [body, code, param] of cases) {
        const res = await t.api.post('/venues', body, { as: 'editor' });
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.equal(res.json.code, code);
        const params = Array.isArray(res.json.data.params) ? res.json.data.params : Object.keys(res.json.data.params);
        assert.deepEqual(params, [param]);
      }
      const list = await t.api.get('/venues', { query: { search: 'bad' }, as: 'editor' });
      assert.equal(list.json.total, 0);
    });

    it('a partial update changes only the sent fields (city only)', async () => {
      const created = await t.api.post(
        '/venues',
        { ...TRANSCRIPT_VENUE, venue: 'Partial Hall', latitude: 1 },
        { as: 'editor' },
      );
      t.api.now = new Date(DEFAULT_NOW.getTime() + 3_600_000);
      try {
        const res = await t.api.post(`/venues/${created.json.id}`, { city: 'Shelbyville' }, { as: 'editor' });
        assert.equal(res.status, 200, res.text);
        assert.deepEqual(res.json, {
          ...created.json,
          city: 'Shelbyville',
          modified: '2026-11-21 09:37:48',
          modified_utc: '2026-11-21 09:37:48',
        });
      } finally {
        t.api.now = DEFAULT_NOW;
      }
      for (const method of ['put', 'patch'] as const) {
        const res = await t.api[method](`/venues/${created.json.id}`, { phone: `${method} phone` }, { as: 'editor' });
        assert.equal(res.json.phone, `${method} phone`);
        assert.equal(res.json.city, 'Shelbyville');
      }
    });

    it('empty values clear optional fields, which then disappear from the object', async () => {
      const created = await t.api.post('/venues', { ...TRANSCRIPT_VENUE, venue: 'Clearable' }, { as: 'editor' });
      const res = await t.api.patch(
        `/venues/${created.json.id}`,
        { address: '', city: '', website: '', show_map: 'false' },
        { as: 'editor' },
      );
      assert.equal(res.status, 200);
      assert.equal('address' in res.json, false);
      assert.equal('city' in res.json, false);
      assert.equal('website' in res.json, false);
      assert.equal(res.json.show_map, false);
      assert.equal(res.json.zip, '62701');
    });

    it('bad input on update changes nothing', async () => {
      const created = await t.api.post('/venues', { venue: 'Stable', city: 'Here' }, { as: 'editor' });
      for (const body of [{ venue: '' }, { website: 'nope' }, { geo_lat: 123 }, { city: 'There', geo_lat: 123 }]) {
        const res = await t.api.patch(`/venues/${created.json.id}`, body, { as: 'editor' });
        assert.equal(res.status, 400, JSON.stringify(body));
      }
      const after = await t.api.get(`/venues/${created.json.id}`, { as: 'editor' });
      assert.equal(after.json.city, 'Here');
      assert.equal(after.json.venue, 'Stable');
    });

    it('unknown ids and slugs are 404 venue-not-found on every route', async () => {
      const expected = {
        code: 'venue-not-found',
        message: 'The requested venue does not exist.',
        data: { status: 404 },
      };
      for (const [method, path] of [
        ['GET', '/venues/999999'],
        ['PATCH', '/venues/999999'],
        ['DELETE', '/venues/999999'],
        ['GET', '/venues/by-slug/no-such-venue'],
        ['PUT', '/venues/by-slug/no-such-venue'],
        ['DELETE', '/venues/by-slug/no-such-venue'],
      ]) {
        const res = await t.api.request(
          method,
          path,
          method === 'GET' || method === 'DELETE' ? undefined : { city: 'x' },
          { as: 'editor' },
        );
        assert.equal(res.status, 404, `${method} ${path}`);
        assert.deepEqual(res.json, expected);
      }
      const organizer = await t.api.post('/organizers', { organizer: 'Not a venue' }, { as: 'editor' });
      assert.equal((await t.api.get(`/venues/${organizer.json.id}`)).status, 404);
      assert.equal((await t.api.get('/venues/abc')).json.code, 'rest_no_route');
    });

    it('by-slug updates find the item by the path slug and rename it with a body slug', async () => {
      const created = await t.api.post('/venues', { venue: 'Slug Hall' }, { as: 'editor' });
      const res = await t.api.patch(
        '/venues/by-slug/slug-hall',
        { slug: 'renamed-hall', city: 'Paris' },
        { as: 'editor' },
      );
      assert.equal(res.status, 200, res.text);
      assert.equal(res.json.id, created.json.id);
      assert.equal(res.json.slug, 'renamed-hall');
      assert.equal(res.json.url, `${BASE}/venue/renamed-hall/`);
      assert.equal((await t.api.get('/venues/by-slug/slug-hall')).status, 404);
      assert.equal((await t.api.get('/venues/by-slug/renamed-hall')).json.city, 'Paris');
    });

    it('delete trashes, unlinks events, answers 410 the second time; force=true deletes for editors', async () => {
      const created = await t.api.post('/venues', { venue: 'Trash Hall' }, { as: 'editor' });
      const eventId = await insertEvent(t.api.db, { venueId: created.json.id });
      const res = await t.api.delete(`/venues/${created.json.id}`, { as: 'editor' });
      assert.equal(res.status, 200);
      assert.equal(res.json.status, 'trash');
      assert.equal(res.json.slug, 'trash-hall__trashed');
      assert.equal(res.json.url, `${BASE}/?post_type=tribe_venue&p=${created.json.id}`);
      const event = await t.api.db
        .selectFrom('events')
        .select('venue_id')
        .where('post_id', '=', eventId)
        .executeTakeFirstOrThrow();
      assert.equal(event.venue_id, null);
      const again = await t.api.delete(`/venues/${created.json.id}`, { as: 'editor' });
      assert.equal(again.status, 410);
      assert.deepEqual(again.json, {
        code: 'venue-is-in-trash',
        message: 'The venue is already trashed',
        data: { status: 410 },
      });
      assert.equal((await t.api.get(`/venues/${created.json.id}`)).status, 403);
      assert.equal((await t.api.get(`/venues/${created.json.id}`, { as: 'editor' })).status, 200);
      const forced = await t.api.delete(`/venues/${created.json.id}`, { as: 'editor', query: { force: 'true' } });
      assert.equal(forced.status, 200);
      assert.equal(forced.json.id, created.json.id);
      assert.equal((await t.api.get(`/venues/${created.json.id}`, { as: 'editor' })).status, 404);
    });

    it('force=true needs an editor; an author trashing their own venue with force is 403', async () => {
      const created = await t.api.post('/venues', { venue: 'Author Hall' }, { as: 'author' });
      const forced = await t.api.delete(`/venues/${created.json.id}`, { as: 'author', query: { force: 'true' } });
      assert.equal(forced.status, 403);
      const trashed = await t.api.delete(`/venues/${created.json.id}`, { as: 'author' });
      assert.equal(trashed.status, 200);
    });

    it('updating a trashed venue keeps it in the trash unless status says otherwise', async () => {
      const created = await t.api.post('/venues', { venue: 'Phoenix' }, { as: 'editor' });
      await t.api.delete(`/venues/${created.json.id}`, { as: 'editor' });
      const edited = await t.api.patch(`/venues/${created.json.id}`, { city: 'Ashes' }, { as: 'editor' });
      assert.equal(edited.json.status, 'trash');
      assert.equal(edited.json.slug, 'phoenix__trashed');
      const restored = await t.api.patch(`/venues/${created.json.id}`, { status: 'publish' }, { as: 'editor' });
      assert.equal(restored.json.status, 'publish');
      assert.equal(restored.json.slug, 'phoenix');
    });

    it("drafts keep an empty slug until published; contributors' publish becomes pending", async () => {
      const draft = await t.api.post('/venues', { venue: 'Draft Hall', status: 'draft' }, { as: 'editor' });
      assert.equal(draft.json.status, 'draft');
      assert.equal('slug' in draft.json, false);
      assert.equal(draft.json.url, `${BASE}/?post_type=tribe_venue&p=${draft.json.id}`);
      const published = await t.api.patch(`/venues/${draft.json.id}`, { status: 'publish' }, { as: 'editor' });
      assert.equal(published.json.slug, 'draft-hall');
      const pending = await t.api.post(
        '/venues',
        { venue: 'Contributed Hall', status: 'publish' },
        { as: 'contributor' },
      );
      assert.equal(pending.json.status, 'pending');
      const defaulted = await t.api.post('/venues', { venue: 'Contributed Hall 2' }, { as: 'contributor' });
      assert.equal(defaulted.json.status, 'draft');
      assert.equal((await t.api.get(`/venues/${pending.json.id}`)).status, 403);
      assert.equal((await t.api.get(`/venues/${pending.json.id}`)).json.code, 'venue-not-accessible');
      assert.equal((await t.api.get(`/venues/${pending.json.id}`, { as: 'contributor' })).status, 200);
      assert.equal((await t.api.get(`/venues/${pending.json.id}`, { as: 'editor' })).status, 200);
    });

    it('post fields: author, publication dates (site zone and UTC) and status', async () => {
      const author = await t.api.user('author');
      const res = await t.api.post(
        '/venues',
        {
          venue: 'Dated Hall',
          author: author.id,
          date_utc: '2026-11-22 09:00:00',
          description: 'Venue description',
          status: 'draft',
        },
        { as: 'editor' },
      );
      assert.equal(res.status, 201, res.text);
      assert.equal(res.json.author, String(author.id));
      assert.equal(res.json.date_utc, '2026-11-22 09:00:00');
      assert.equal(res.json.description, '<p>Venue description</p>');
      assert.equal(res.json.status, 'draft');
      const stolen = await t.api.post('/venues', { venue: 'Not mine', author: author.id }, { as: 'contributor' });
      assert.equal(stolen.status, 403);
    });

    it('images are referenced by URL (for uploaders) or id; contributors cannot add URLs', async () => {
      const withUrl = await t.api.post(
        '/venues',
        { venue: 'Pictured', image: 'https://example.org/images/hall.JPG' },
        { as: 'editor' },
      );
      assert.equal(withUrl.status, 201, withUrl.text);
      assert.deepEqual(withUrl.json.image, {
        url: 'https://example.org/images/hall.JPG',
        id: withUrl.json.image.id,
        extension: 'jpg',
      });
      const byId = await t.api.post(
        '/venues',
        { venue: 'Pictured too', image: withUrl.json.image.id },
        { as: 'contributor' },
      );
      assert.equal(byId.json.image.id, withUrl.json.image.id);
      for (const image of [
        'https://example.org/images/other.png',
        'not-an-image',
        'https://example.org/page.html',
        999999,
      ]) {
        const denied = await t.api.post(
          '/venues',
          { venue: `Denied ${image}`, image },
          { as: image === 'https://example.org/images/other.png' ? 'contributor' : 'editor' },
        );
        assert.equal(denied.status, 400, String(image));
        assert.deepEqual(Object.keys(denied.json.data.params), ['image']);
      }
      const removed = await t.api.patch(`/venues/${withUrl.json.id}`, { image: '' }, { as: 'editor' });
      assert.equal('image' in removed.json, false);
    });

    it('slugs stay unique under concurrent creates', async () => {
      const results = await Promise.all(
        ['Busy Hall', 'Busy  Hall!', 'busy-hall'].map((venue, i) =>
          t.api.post('/venues', { venue, description: `variant ${i}` }, { as: 'editor' }),
        ),
      );
      const slugs = results.map((r) => r.json.slug).sort();
      assert.deepEqual(slugs, ['busy-hall', 'busy-hall-2', 'busy-hall-3']);
    });
  });
}
