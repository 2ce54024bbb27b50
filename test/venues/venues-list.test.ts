import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { testDialects } from '../helpers/databases.js';
import { DEFAULT_NOW, useTestApp } from '../helpers/app.js';
import { createVenueId, insertEvent } from '../helpers/factories.js';
import { ids, sorted } from '../helpers/fixtures.js';

const API = 'http://127.0.0.1:8080/calendar/events/v1';
const NOW = Math.floor(DEFAULT_NOW.getTime() / 1000);

for (const dialect of await testDialects()) {
  describe(`GET /venues [${dialect}]`, () => {
    const t = useTestApp(dialect);
    beforeEach(() => t.api.clearContent());

    it('an empty list is 200 with totals 0 and the effective query in rest_url', async () => {
      const res = await t.api.get('/venues');
      assert.equal(res.status, 200);
      assert.deepEqual(res.json, {
        venues: [],
        rest_url: `${API}/venues/?page=1&per_page=10&status=publish`,
        total: 0,
        total_pages: 0,
      });
      assert.equal(res.headers['x-tec-total'], '0');
      assert.equal(res.headers['x-wp-totalpages'], '0');
    });

    it('orders by publication date descending, then id descending', async () => {
      const old = await createVenueId(t.api, { venue: 'Old', date: '2026-01-01 10:00:00' }, 'editor');
      const newer = await createVenueId(t.api, { venue: 'Newer', date: '2026-06-01 10:00:00' }, 'editor');
      const sameA = await createVenueId(t.api, { venue: 'Same A', date: '2026-03-01 10:00:00' }, 'editor');
      const sameB = await createVenueId(t.api, { venue: 'Same B', date: '2026-03-01 10:00:00' }, 'editor');
      assert.deepEqual(ids(await t.api.get('/venues')), [newer, sameB, sameA, old]);
    });

    it('paginates with links and headers; a page past the end is 404', async () => {
      for (let i = 0; i < 10; i++) await createVenueId(t.api, { venue: `Paged ${i}` }, 'editor');
      const first = await t.api.get('/venues', { query: { per_page: 4 } });
      assert.equal(first.json.total, 10);
      assert.equal(first.json.total_pages, 3);
      assert.equal(first.headers['x-tec-totalpages'], '3');
      assert.equal(first.json.rest_url, `${API}/venues/?page=1&per_page=4&status=publish`);
      assert.equal(first.json.next_rest_url, `${API}/venues/?page=2&per_page=4&status=publish`);
      assert.equal(first.json.previous_rest_url, undefined);
      assert.deepEqual(Object.keys(first.json), ['venues', 'rest_url', 'next_rest_url', 'total', 'total_pages']);
      const second = await t.api.get('/venues', { query: { per_page: 4, page: 2 } });
      assert.equal(second.json.previous_rest_url, `${API}/venues/?per_page=4&status=publish`);
      assert.equal(
        second.headers.link,
        `<${API}/venues/?per_page=4&status=publish>; rel="prev", <${API}/venues/?page=3&per_page=4&status=publish>; rel="next"`,
      );
      const third = await t.api.get('/venues', { query: { per_page: 4, page: 3 } });
      assert.equal(third.json.venues.length, 2);
      const all = new Set([...ids(first), ...ids(second), ...ids(third)]);
      assert.equal(all.size, 10);
      const beyond = await t.api.get('/venues', { query: { per_page: 4, page: 4 } });
      assert.equal(beyond.status, 404);
      assert.deepEqual(beyond.json, {
        code: 'venue-archive-page-not-found',
        message: 'The requested venue archive page does not exist',
        data: { status: 404 },
      });
      const clamped = await t.api.get('/venues', { query: { per_page: 100 } });
      assert.equal(clamped.json.venues.length, 10);
      assert.match(clamped.json.rest_url, /per_page=50/);
      for (const query of [{ page: 0 }, { page: 'foo' }, { per_page: -1 }, { per_page: 'foo bar' }]) {
        assert.equal((await t.api.get('/venues', { query })).status, 400, JSON.stringify(query));
      }
    });

    it('shows drafts to editors only; anonymous callers may ask for publish only', async () => {
      const published = await createVenueId(t.api, { venue: 'Public' }, 'editor');
      const draft = await createVenueId(t.api, { venue: 'Hidden', status: 'draft' }, 'editor');
      const pending = await createVenueId(t.api, { venue: 'Waiting', status: 'pending' }, 'editor');
      assert.deepEqual(ids(await t.api.get('/venues')), [published]);
      assert.deepEqual(sorted(ids(await t.api.get('/venues', { as: 'editor' }))), sorted([published, draft, pending]));
      assert.deepEqual(ids(await t.api.get('/venues', { query: { status: 'publish' } })), [published]);
      const denied = await t.api.get('/venues', { query: { status: 'publish, draft' } });
      assert.equal(denied.status, 400);
      assert.equal(denied.json.code, 'rest_invalid_param');
      const editor = await t.api.get('/venues', { query: { status: 'publish, draft' }, as: 'editor' });
      assert.deepEqual(sorted(ids(editor)), sorted([published, draft]));
      assert.match(editor.json.rest_url, /status=publish%2Cdraft/);
      const arrays = await t.api.get('/venues', {
        query: { 'status[]': ['publish', 'draft', 'pending'] },
        as: 'editor',
      });
      assert.equal(arrays.json.total, 3);
      for (const status of ['foo', 'foo, bar', 'foo, bar, publish']) {
        assert.equal((await t.api.get('/venues', { query: { status }, as: 'editor' })).status, 400, status);
      }
    });

    it('contributors see published venues and only their own unpublished ones', async () => {
      const published = await createVenueId(t.api, { venue: 'Everyone' }, 'editor');
      const mine = await createVenueId(t.api, { venue: 'Mine' }, 'contributor');
      const other = await t.api.otherUser('contributor', `other-${Date.now()}`);
      const theirs = await t.api.post('/venues', { venue: 'Theirs' }, { as: { authorization: other.header } });
      assert.equal(theirs.json.status, 'draft');
      assert.deepEqual(sorted(ids(await t.api.get('/venues', { as: 'contributor' }))), sorted([published, mine]));
      assert.deepEqual(ids(await t.api.get('/venues', { as: 'contributor', query: { status: 'draft' } })), [mine]);
    });

    it("search: one field must contain every word, case-insensitively (TEC's venue fields)", async () => {
      await createVenueId(
        t.api,
        {
          venue: 'Venue Foo',
          description: 'lorem dolor',
          excerpt: 'sed nunqua',
          address: '221b Baker Street',
          city: 'London',
          province: 'Greater London',
          state: 'England',
          stateprovince: 'England, Greater London',
          zip: '223345',
          phone: '111111',
        },
        'editor',
      );
      await createVenueId(
        t.api,
        {
          venue: 'Venue Bar',
          description: 'dolor sit',
          excerpt: 'altera via',
          address: '10, Piccadilly Circus',
          city: 'London',
          province: 'Greater London',
          state: 'England',
          stateprovince: 'England, Greater London',
          zip: '223345',
          phone: '22222222',
        },
        'editor',
      );
      await createVenueId(
        t.api,
        {
          venue: 'Venue Baz',
          description: 'sit nunqua',
          excerpt: 'Caesar docet',
          address: '100, Avenue du Temple',
          city: 'Paris',
          province: 'Ile de France',
          state: 'France',
          stateprovince: 'France, Ile de France',
          zip: '23443',
          phone: '3333333',
        },
        'editor',
      );
      const count = async (search: string) => (await t.api.get('/venues', { query: { search } })).json.total;
      const expectations: [string, number][] = [
        ['woo', 0],
        ['Venue', 3],
        ['Venue foo', 1],
        ['london', 2],
        ['3333333', 1],
        ['temple avenue', 1],
        ['greater london', 2],
        ['france', 1],
        ['france, ile de', 1],
        ['223345', 2],
        ['DOLOR', 2],
        ['nunqua', 2],
        ['foo baker', 0],
      ];
      for (const [search, expected] of expectations) assert.equal(await count(search), expected, search);
      const none = await t.api.get('/venues', { query: { search: 'woo' } });
      assert.deepEqual([none.json.venues, none.json.total, none.json.total_pages], [[], 0, 0]);
      assert.equal((await t.api.get('/venues', { query: { search: '' } })).status, 400);
    });

    it('search folds case beyond ASCII on both databases', async () => {
      const id = await createVenueId(t.api, { venue: 'Théâtre de l’ÉLYSÉE' }, 'editor');
      assert.deepEqual(ids(await t.api.get('/venues', { query: { search: 'élysée' } })), [id]);
      assert.deepEqual(ids(await t.api.get('/venues', { query: { search: 'THÉÂTRE' } })), [id]);
    });

    it("event filters by the event's venue; an unknown event is 400", async () => {
      const a = await createVenueId(t.api, { venue: 'A' }, 'editor');
      const b = await createVenueId(t.api, { venue: 'B' }, 'editor');
      const eventA = await insertEvent(t.api.db, { venueId: a });
      const eventB = await insertEvent(t.api.db, { venueId: b });
      const noVenue = await insertEvent(t.api.db, {});
      assert.deepEqual(ids(await t.api.get('/venues', { query: { event: eventA } })), [a]);
      assert.deepEqual(ids(await t.api.get('/venues', { query: { event: eventB } })), [b]);
      assert.equal((await t.api.get('/venues', { query: { event: noVenue } })).json.total, 0);
      assert.equal((await t.api.get('/venues', { query: { event: 999999 } })).status, 400);
      assert.equal((await t.api.get('/venues', { query: { event: a } })).status, 400);
    });

    it('has_events counts events that are neither drafts nor pending', async () => {
      const withDraft = await createVenueId(t.api, { venue: 'Draft event' }, 'editor');
      const withPending = await createVenueId(t.api, { venue: 'Pending event' }, 'editor');
      const withPublished = await createVenueId(t.api, { venue: 'Published event' }, 'editor');
      const empty = await createVenueId(t.api, { venue: 'No event' }, 'editor');
      await insertEvent(t.api.db, { venueId: withDraft, status: 'draft' });
      await insertEvent(t.api.db, { venueId: withPending, status: 'pending' });
      await insertEvent(t.api.db, { venueId: withPublished });
      assert.deepEqual(ids(await t.api.get('/venues', { query: { has_events: 'true' } })), [withPublished]);
      assert.deepEqual(
        sorted(ids(await t.api.get('/venues', { query: { has_events: 'false' } }))),
        sorted([withDraft, withPending, empty]),
      );
      const links = await t.api.get('/venues', { query: { has_events: '1', per_page: 1 } });
      assert.equal(links.json.rest_url, `${API}/venues/?page=1&per_page=1&has_events=1&status=publish`);
      assert.equal((await t.api.get('/venues', { query: { has_events: 'maybe' } })).status, 400);
    });

    it('only_with_upcoming keeps venues of events starting from now that the caller can see', async () => {
      const upcoming = await createVenueId(t.api, { venue: 'Upcoming' }, 'editor');
      const past = await createVenueId(t.api, { venue: 'Past' }, 'editor');
      const privateUpcoming = await createVenueId(t.api, { venue: 'Private upcoming' }, 'editor');
      const draftUpcoming = await createVenueId(t.api, { venue: 'Draft upcoming' }, 'editor');
      const hiddenUpcoming = await createVenueId(t.api, { venue: 'Hidden upcoming' }, 'editor');
      await insertEvent(t.api.db, { venueId: upcoming, start: NOW + 30 * 86_400 });
      await insertEvent(t.api.db, { venueId: past, start: NOW - 30 * 86_400 });
      await insertEvent(t.api.db, { venueId: privateUpcoming, start: NOW + 86_400, status: 'private' });
      await insertEvent(t.api.db, { venueId: draftUpcoming, start: NOW + 86_400, status: 'draft' });
      await insertEvent(t.api.db, { venueId: hiddenUpcoming, start: NOW + 86_400, hidden: true });
      assert.deepEqual(ids(await t.api.get('/venues', { query: { only_with_upcoming: 'true' } })), [upcoming]);
      assert.deepEqual(
        sorted(ids(await t.api.get('/venues', { query: { only_with_upcoming: 'true' }, as: 'editor' }))),
        sorted([upcoming, privateUpcoming, draftUpcoming]),
      );
      assert.equal((await t.api.get('/venues', { query: { only_with_upcoming: 'false' } })).json.total, 5);
    });

    it('links carry every filter, URL-encoded', async () => {
      await createVenueId(t.api, { venue: 'Jazz club one', city: 'Paris' }, 'editor');
      await createVenueId(t.api, { venue: 'Jazz club two', city: 'Paris' }, 'editor');
      const res = await t.api.get('/venues', { query: { search: 'jazz club', per_page: 1, i18n_language: 'de' } });
      assert.equal(
        res.json.next_rest_url,
        `${API}/venues/?page=2&per_page=1&search=jazz+club&status=publish&i18n_language=de`,
      );
      const next = await t.api.get(res.json.next_rest_url.replace('http://127.0.0.1:8080', ''));
      assert.equal(next.json.total, 2);
      assert.equal(next.json.venues[0].venue.startsWith('Jazz club'), true);
    });
  });
}
