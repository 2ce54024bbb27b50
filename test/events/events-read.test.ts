import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { testDialects } from '../helpers/databases.js';
import { useTestApp, type TestResponse } from '../helpers/app.js';
import { createEvent, createOrganizer, createOrganizerId, createTerm, createVenue } from '../helpers/factories.js';
import { TRANSCRIPT_ORGANIZER, TRANSCRIPT_VENUE } from '../helpers/fixtures.js';

const BASE = 'http://127.0.0.1:8080';
const DAY = { start_date: '2026-12-21 18:00:00', end_date: '2026-12-21 20:00:00' };

// Response bodies are arbitrary JSON by nature.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const NOT_ACCESSIBLE = {
  code: 'event-not-accessible',
  message: 'The requested event is not accessible',
  data: { status: 403 },
};
const NO_LONGER = {
  code: 'event-no-longer-available',
  message: 'This event is no longer available',
  data: { status: 403 },
};
const PROTECTED = {
  code: 'event-password-protected',
  message: 'The requested event is not accessible without a password',
  data: { status: 403 },
};
const INVALID_ID = {
  code: 'rest-invalid-event-id',
  message: 'The specified ID is not a valid event.',
  data: { status: 400 },
};

function assertError(res: TestResponse, status: number, body: Json, label = ''): void {
  assert.equal(res.status, status, `${label} ${res.text}`);
  assert.deepEqual(res.json, body, label);
}

/** TEC's json_ld key order (tec-live-transcript.md §3, GET /events/{id}). */
const JSON_LD_KEYS = [
  '@context',
  '@type',
  'name',
  'description',
  'url',
  'eventAttendanceMode',
  'eventStatus',
  'startDate',
  'endDate',
  'location',
  'organizer',
  'offers',
  'performer',
];

for (const dialect of await testDialects()) {
  describe(`events: single reads, check order (API.md §14) [${dialect}]`, () => {
    const t = useTestApp(dialect);

    it('an unknown id is 404 rest-event-not-found with the exact message, whoever asks', async () => {
      for (const as of ['anonymous', 'subscriber', 'administrator'] as const) {
        assertError(
          await t.api.get('/events/999999', { as }),
          404,
          { code: 'rest-event-not-found', message: 'Event with ID 999999 does not exist.', data: { status: 404 } },
          as,
        );
      }
      assertError(await t.api.get('/events/0'), 404, {
        code: 'rest-event-not-found',
        message: 'Event with ID 0 does not exist.',
        data: { status: 404 },
      });
    });

    it('a venue or organizer id is 400 rest-invalid-event-id', async () => {
      const venue = await createVenue(t.api, { venue: 'Venue, not event' });
      const organizer = await createOrganizer(t.api, { organizer: 'Organizer, not event' });
      assertError(await t.api.get(`/events/${venue.id}`), 400, INVALID_ID, 'venue');
      assertError(await t.api.get(`/events/${organizer.id}`, { as: 'administrator' }), 400, INVALID_ID, 'organizer');
    });

    it('a non-digit id is no route', async () => {
      for (const path of ['/events/abc', '/events/-1', '/events/12abc']) {
        assertError(
          await t.api.get(path),
          404,
          {
            code: 'rest_no_route',
            message: 'No route was found matching the URL and request method.',
            data: { status: 404 },
          },
          path,
        );
      }
    });

    it('a trashed event is 403 event-no-longer-available for everybody, administrators included', async () => {
      const author = await t.api.user('author');
      const event = await createEvent(t.api, { ...DAY, title: 'Soon trashed' }, 'author');
      assert.equal(event.author, String(author.id));
      assert.equal((await t.api.delete(`/events/${event.id}`, { as: 'author' })).status, 200);
      for (const as of ['anonymous', 'subscriber', 'author', 'editor', 'administrator'] as const) {
        assertError(await t.api.get(`/events/${event.id}`, { as }), 403, NO_LONGER, as);
        assertError(
          await t.api.get(`/events/${event.id}`, { as, query: { password: 'whatever' } }),
          403,
          NO_LONGER,
          as,
        );
      }
      // By its (trashed) slug the same check applies; the old slug no longer exists.
      assertError(await t.api.get(`/events/by-slug/${event.slug}__trashed`, { as: 'administrator' }), 403, NO_LONGER);
      assertError(await t.api.get(`/events/by-slug/${event.slug}`), 404, {
        code: 'rest-event-not-found',
        message: `Event with slug ${event.slug} does not exist.`,
        data: { status: 404 },
      });
    });

    it('draft, pending, private and scheduled events: 403 event-not-accessible unless editor or the author', async () => {
      const owner = await t.api.otherUser('author', 'read-owner');
      const stranger = await t.api.otherUser('author', 'read-stranger');
      const cases: [string, Record<string, unknown>][] = [
        ['draft', { status: 'draft' }],
        ['pending', { status: 'pending' }],
        ['private', { status: 'private' }],
        ['future', { status: 'publish', date: '2027-01-01 10:00:00' }],
      ];
      for (const [expected, body] of cases) {
        const event = await createEvent(
          t.api,
          { ...DAY, title: `Hidden ${expected}`, slug: `hidden-${expected}`, ...body },
          { authorization: owner.header },
        );
        assert.equal(event.status, expected);
        for (const as of ['anonymous', 'subscriber', 'contributor', { authorization: stranger.header }] as const) {
          assertError(
            await t.api.get(`/events/${event.id}`, { as }),
            403,
            NOT_ACCESSIBLE,
            `${expected} as ${JSON.stringify(as)}`,
          );
          assertError(
            await t.api.get(`/events/by-slug/hidden-${expected}`, { as }),
            403,
            NOT_ACCESSIBLE,
            `${expected} by slug as ${JSON.stringify(as)}`,
          );
        }
        for (const as of ['editor', 'administrator', { authorization: owner.header }] as const) {
          const res = await t.api.get(`/events/${event.id}`, { as });
          assert.equal(res.status, 200, `${expected} as ${JSON.stringify(as)}: ${res.text}`);
          assert.equal(res.json.status, expected);
          assert.equal(res.json.id, event.id);
          const bySlug = await t.api.get(`/events/by-slug/hidden-${expected}`, { as });
          assert.equal(bySlug.status, 200, `${expected} by slug`);
          assert.equal(bySlug.json.id, event.id);
        }
      }
      const contributorOwn = await createEvent(
        t.api,
        { ...DAY, title: 'Contributor pending', status: 'publish' },
        'contributor',
      );
      assert.equal(contributorOwn.status, 'pending');
      assert.equal((await t.api.get(`/events/${contributorOwn.id}`, { as: 'contributor' })).status, 200);
      assertError(
        await t.api.get(`/events/${contributorOwn.id}`, { as: { authorization: stranger.header } }),
        403,
        NOT_ACCESSIBLE,
      );
    });

    it('password-protected: 403 without or with a wrong password, 200 with the right one (with json_ld) or for those who may edit', async () => {
      const owner = await t.api.otherUser('author', 'pw-owner');
      const stranger = await t.api.otherUser('author', 'pw-stranger');
      const event = await createEvent(
        t.api,
        { ...DAY, title: 'Protected show', description: 'Secret details', cost: '12', password: 'p4ss word' },
        { authorization: owner.header },
      );
      for (const as of ['anonymous', 'subscriber', 'contributor', { authorization: stranger.header }] as const) {
        assertError(
          await t.api.get(`/events/${event.id}`, { as }),
          403,
          PROTECTED,
          `no password as ${JSON.stringify(as)}`,
        );
        assertError(
          await t.api.get(`/events/${event.id}`, { as, query: { password: 'wrong' } }),
          403,
          PROTECTED,
          `wrong password as ${JSON.stringify(as)}`,
        );
        assertError(
          await t.api.get(`/events/${event.id}`, { as, query: { password: 'P4SS WORD' } }),
          403,
          PROTECTED,
          'the comparison is exact',
        );
      }
      const unlocked = await t.api.get(`/events/${event.id}`, { query: { password: 'p4ss word' } });
      assert.equal(unlocked.status, 200, unlocked.text);
      assert.equal(unlocked.json.description, '<p>Secret details</p>');
      assert.equal(unlocked.json.cost, '$12');
      assert.equal(unlocked.json.json_ld['@type'], 'Event');
      assert.equal(unlocked.json.json_ld.offers.price, '12');
      const bySlug = await t.api.get(`/events/by-slug/${event.slug}`, { query: { password: 'p4ss word' } });
      assert.equal(bySlug.status, 200);
      assert.deepEqual(bySlug.json, unlocked.json);
      assertError(await t.api.get(`/events/by-slug/${event.slug}`), 403, PROTECTED, 'by slug');
      for (const as of ['editor', 'administrator', { authorization: owner.header }] as const) {
        const res = await t.api.get(`/events/${event.id}`, { as });
        assert.equal(res.status, 200, `${JSON.stringify(as)}: ${res.text}`);
        assert.equal(res.json.description, '<p>Secret details</p>');
        assert.ok(res.json.json_ld);
      }
    });

    it('the checks run in order: a draft with a password is not-accessible (not password-protected) for anonymous', async () => {
      const event = await createEvent(t.api, { ...DAY, title: 'Draft and protected', status: 'draft', password: 'pw' });
      assertError(await t.api.get(`/events/${event.id}`, { query: { password: 'pw' } }), 403, NOT_ACCESSIBLE);
      assertError(await t.api.get(`/events/${event.id}`), 403, NOT_ACCESSIBLE);
      assert.equal((await t.api.get(`/events/${event.id}`, { as: 'editor' })).status, 200);
    });

    it('by slug: unknown slug is 404 with the slug message; a venue slug is not an event', async () => {
      assertError(await t.api.get('/events/by-slug/no-such-event'), 404, {
        code: 'rest-event-not-found',
        message: 'Event with slug no-such-event does not exist.',
        data: { status: 404 },
      });
      await createVenue(t.api, { venue: 'Slug Venue' });
      assertError(await t.api.get('/events/by-slug/slug-venue'), 404, {
        code: 'rest-event-not-found',
        message: 'Event with slug slug-venue does not exist.',
        data: { status: 404 },
      });
      assertError(await t.api.get('/events/by-slug/'), 404, {
        code: 'rest_no_route',
        message: 'No route was found matching the URL and request method.',
        data: { status: 404 },
      });
      const event = await createEvent(t.api, { ...DAY, title: 'Slug Read' });
      const res = await t.api.get('/events/by-slug/slug-read');
      assert.equal(res.status, 200);
      assert.deepEqual(res.json, (await t.api.get(`/events/${event.id}`)).json);
    });

    it('by slug, read again after the slug changed: the old slug is 404 and the new one answers at once', async () => {
      const event = await createEvent(t.api, { ...DAY, title: 'Slug Before' });
      for (let read = 0; read < 2; read++)
        assert.equal((await t.api.get('/events/by-slug/slug-before', { as: 'editor' })).json.id, event.id);
      assert.equal((await t.api.patch(`/events/${event.id}`, { slug: 'slug-after' }, { as: 'editor' })).status, 200);
      assertError(await t.api.get('/events/by-slug/slug-before', { as: 'editor' }), 404, {
        code: 'rest-event-not-found',
        message: 'Event with slug slug-before does not exist.',
        data: { status: 404 },
      });
      assert.equal((await t.api.get('/events/by-slug/slug-after', { as: 'editor' })).json.id, event.id);
      assert.equal((await t.api.delete(`/events/${event.id}`, { as: 'editor' })).status, 200);
      assert.equal(
        (await t.api.get('/events/by-slug/slug-after', { as: 'editor' })).status,
        404,
        'trashed: the slug is gone with it',
      );
    });
  });

  describe(`events: json_ld and embedded objects [${dialect}]`, () => {
    const t = useTestApp(dialect);

    async function transcriptEvent(
      title: string,
      extra: Record<string, unknown> = {},
    ): Promise<{ event: Json; venue: Json; organizer: Json }> {
      const venue = await createVenue(t.api, { ...TRANSCRIPT_VENUE, venue: `${title} Hall` });
      const organizer = await createOrganizer(t.api, { ...TRANSCRIPT_ORGANIZER, organizer: `${title} Org` });
      const event = await createEvent(t.api, {
        ...DAY,
        title,
        description: '<p>An evening concert.</p>',
        excerpt: 'Evening concert',
        timezone: 'UTC',
        venue: venue.id,
        organizer: [organizer.id],
        cost: '10',
        website: 'https://example.org/concert',
        featured: true,
        ...extra,
      });
      return { event, venue, organizer };
    }

    it('a single read adds a schema.org Event json_ld at the end, with location, organizer, offers and ISO dates', async () => {
      const { event, venue, organizer } = await transcriptEvent('LD Concert');
      const res = await t.api.get(`/events/${event.id}`);
      assert.equal(res.status, 200);
      const keys = Object.keys(res.json);
      assert.equal(keys[keys.length - 1], 'json_ld');
      assert.deepEqual(keys.slice(-9, -1), [
        'custom_fields',
        'ical_uid',
        'ical_url',
        'is_recurring',
        'series_id',
        'recurrence_id',
        'recurrence',
        'occurrences_url',
      ]);
      const ld = res.json.json_ld;
      assert.deepEqual(Object.keys(ld), JSON_LD_KEYS);
      const url = `${BASE}/event/ld-concert/`;
      assert.deepEqual(
        { ...ld, location: undefined, organizer: undefined },
        {
          '@context': 'http://schema.org',
          '@type': 'Event',
          name: 'LD Concert',
          description: 'Evening concert',
          url,
          eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
          eventStatus: 'https://schema.org/EventScheduled',
          startDate: '2026-12-21T18:00:00+00:00',
          endDate: '2026-12-21T20:00:00+00:00',
          location: undefined,
          organizer: undefined,
          offers: {
            '@type': 'Offer',
            price: '10',
            priceCurrency: 'USD',
            url,
            category: 'primary',
            availability: 'inStock',
            validFrom: '2026-11-21T00:00:00+00:00',
          },
          performer: 'Organization',
        },
      );
      assert.equal(ld.location['@type'], 'Place');
      assert.equal(ld.location.name, venue.venue);
      assert.deepEqual(ld.location.address, {
        '@type': 'PostalAddress',
        streetAddress: '1 Main Street',
        addressLocality: 'Springfield',
        addressRegion: 'IL',
        postalCode: '62701',
        addressCountry: 'United States',
      });
      assert.equal(ld.location.telephone, '+1 555 0100');
      assert.equal(ld.location.sameAs, 'https://example.org/hall');
      assert.deepEqual(ld.location, res.json.venue.json_ld);
      assert.deepEqual(ld.organizer, {
        '@type': 'Person',
        name: organizer.organizer,
        description: 'Organizer made for the transcript.',
        url: 'https://example.org/org',
        telephone: '+1 555 0199',
        email: 'org@example.org',
        sameAs: 'https://example.org/org',
      });
      assert.deepEqual(ld.organizer, res.json.organizer[0].json_ld);
      const bySlug = await t.api.get('/events/by-slug/ld-concert');
      assert.deepEqual(bySlug.json, res.json);
    });

    it('json_ld without cost, venue or organizer has no offers, location or organizer; New York dates carry -05:00', async () => {
      const event = await createEvent(t.api, { ...DAY, title: 'Bare LD', timezone: 'America/New_York' });
      const ld = (await t.api.get(`/events/${event.id}`)).json.json_ld;
      assert.deepEqual(Object.keys(ld), [
        '@context',
        '@type',
        'name',
        'description',
        'url',
        'eventAttendanceMode',
        'eventStatus',
        'startDate',
        'endDate',
        'performer',
      ]);
      assert.equal(ld.startDate, '2026-12-21T18:00:00-05:00');
      assert.equal(ld.endDate, '2026-12-21T20:00:00-05:00');
      const free = await createEvent(t.api, { ...DAY, title: 'Free LD', cost: 'Free' });
      assert.equal((await t.api.get(`/events/${free.id}`)).json.json_ld.offers.price, '0');
    });

    it("embedded venue and organizers carry json_ld on single reads only, at TEC's position", async () => {
      const { event } = await transcriptEvent('Embedded LD');
      const single = (await t.api.get(`/events/${event.id}`)).json;
      const venueKeys = Object.keys(single.venue);
      assert.deepEqual(venueKeys.slice(venueKeys.indexOf('json_ld')), [
        'json_ld',
        'show_map',
        'show_map_link',
        'global_id',
        'global_id_lineage',
      ]);
      const organizerKeys = Object.keys(single.organizer[0]);
      assert.deepEqual(organizerKeys.slice(organizerKeys.indexOf('json_ld')), [
        'json_ld',
        'global_id',
        'global_id_lineage',
      ]);
      assert.equal(single.venue.json_ld['@type'], 'Place');
      assert.equal(single.organizer[0].json_ld['@type'], 'Person');

      const list = await t.api.get('/events', { query: { include: event.id } });
      assert.equal(list.status, 200);
      const listed = list.json.events[0];
      assert.equal(listed.id, event.id);
      assert.equal('json_ld' in listed, false);
      assert.equal('json_ld' in listed.venue, false);
      assert.equal('json_ld' in listed.organizer[0], false);
      const { json_ld: _ld, ...singleWithout } = single;
      const strip = ({ json_ld: _x, ...rest }: Json) => rest;
      assert.deepEqual(listed, {
        ...singleWithout,
        venue: strip(single.venue),
        organizer: single.organizer.map(strip),
      });

      for (const res of [
        event,
        (await t.api.patch(`/events/${event.id}`, { title: 'Embedded LD 2' }, { as: 'administrator' })).json,
      ]) {
        assert.equal('json_ld' in res, false);
        assert.equal('json_ld' in res.venue, false);
        assert.equal('json_ld' in res.organizer[0], false);
      }
    });

    it('readers never see, embedded in an event, a venue or organizer they may not read themselves (API.md §4)', async () => {
      const draftVenue = await createVenue(t.api, {
        venue: 'Unannounced venue',
        status: 'draft',
        address: 'Secret street 1',
      });
      const privateOrganizer = await createOrganizer(t.api, {
        organizer: 'Private org',
        status: 'private',
        email: 'hidden@example.org',
      });
      const trashedVenue = await createVenue(t.api, { venue: 'Demolished venue', address: 'Gone avenue 9' });
      assert.equal((await t.api.delete(`/venues/${trashedVenue.id}`, { as: 'administrator' })).status, 200);
      assert.equal(
        (await t.api.get(`/venues/${draftVenue.id}`, { as: 'author' })).status,
        403,
        'the author cannot read the draft venue',
      );
      assert.equal((await t.api.get(`/organizers/${privateOrganizer.id}`)).status, 403);
      const attempts: [Record<string, unknown>, string, string][] = [
        [{ venue: draftVenue.id }, 'venue', 'Secret street 1'],
        [{ organizer: [privateOrganizer.id] }, 'organizer', 'hidden@example.org'],
        [{ venue: trashedVenue.id }, 'venue', 'Gone avenue 9'],
      ];
      for (const [link, param, secret] of attempts) {
        const res = await t.api.post('/events', { title: `Leak attempt ${param}`, ...DAY, ...link }, { as: 'author' });
        if (res.status !== 201) {
          // Refusing the link is one way to keep the secret.
          assert.equal(res.status, 400, res.text);
          assert.ok(Object.hasOwn(res.json.data.params, param), res.text);
          continue;
        }
        assert.equal(res.text.includes(secret), false, `the author's create response leaks ${secret}`);
        for (const as of ['anonymous', 'subscriber'] as const) {
          const single = await t.api.get(`/events/${res.json.id}`, { as });
          assert.equal(single.status, 200);
          assert.equal(single.text.includes(secret), false, `${as} reads ${secret} through the event`);
          const list = await t.api.get('/events', { as, query: { include: res.json.id } });
          assert.equal(list.text.includes(secret), false, `${as} lists ${secret} through the event`);
        }
      }
    });

    it('a trashed venue disappears from the event (venue [])', async () => {
      const { event, venue } = await transcriptEvent('Lost venue');
      assert.equal((await t.api.delete(`/venues/${venue.id}`, { as: 'administrator' })).status, 200);
      const res = await t.api.get(`/events/${event.id}`);
      assert.deepEqual(res.json.venue, []);
      assert.equal('location' in res.json.json_ld, false);
    });
  });

  describe(`events: term counts [${dialect}]`, () => {
    const t = useTestApp(dialect);

    async function categoryCount(
      id: number,
    ): Promise<{ single: number; listed: number | undefined; listedByDefault: boolean }> {
      const single = await t.api.get(`/categories/${id}`);
      const all = await t.api.get('/categories', { query: { hide_empty: 'false', per_page: 50 } });
      const byDefault = await t.api.get('/categories', { query: { per_page: 50 } });
      return {
        single: single.json.count,
        listed: all.json.categories.find((c: Json) => c.id === id)?.count,
        listedByDefault: byDefault.json.categories.some((c: Json) => c.id === id),
      };
    }

    it('count (embedded and in /categories, /tags) reflects published events only', async () => {
      const cat = await createTerm(t.api, 'categories', { name: 'Counted' });
      const tag = await createTerm(t.api, 'tags', { name: 'counted-tag' });
      assert.deepEqual(await categoryCount(cat.id), { single: 0, listed: 0, listedByDefault: false });

      const draft = await createEvent(t.api, {
        ...DAY,
        title: 'Draft counted',
        status: 'draft',
        categories: [cat.id],
        tags: [tag.id],
      });
      assert.equal(draft.categories[0].count, 0);
      assert.equal(draft.tags[0].count, 0);
      await createEvent(t.api, { ...DAY, title: 'Private counted', status: 'private', categories: [cat.id] });
      await createEvent(t.api, { ...DAY, title: 'Pending counted', categories: [cat.id] }, 'contributor');
      assert.deepEqual(await categoryCount(cat.id), { single: 0, listed: 0, listedByDefault: false });

      const published = await t.api.post(`/events/${draft.id}`, { status: 'publish' }, { as: 'administrator' });
      assert.equal(published.json.categories[0].count, 1);
      assert.equal(published.json.tags[0].count, 1);
      assert.deepEqual(await categoryCount(cat.id), { single: 1, listed: 1, listedByDefault: true });
      const tags = await t.api.get('/tags', { query: { slug: 'counted-tag' } });
      assert.equal(tags.json.tags[0].count, 1);

      const second = await createEvent(t.api, { ...DAY, title: 'Second counted', categories: [cat.id] });
      assert.equal(second.categories[0].count, 2);
      assert.equal((await t.api.get(`/events/${draft.id}`)).json.categories[0].count, 2, 'embedded counts are current');

      await t.api.delete(`/events/${second.id}`, { as: 'administrator' });
      assert.equal((await categoryCount(cat.id)).single, 1, 'trashed events do not count');
      await t.api.post(`/events/${second.id}`, { status: 'publish' }, { as: 'administrator' });
      assert.equal((await categoryCount(cat.id)).single, 2, 'restored events count again');
      await t.api.post(`/events/${second.id}`, { status: 'draft' }, { as: 'administrator' });
      assert.equal((await categoryCount(cat.id)).single, 1, 'unpublished events stop counting');
      await t.api.delete(`/events/${draft.id}`, { as: 'administrator', query: { force: 'true' } });
      assert.deepEqual(await categoryCount(cat.id), { single: 0, listed: 0, listedByDefault: false });
      assert.equal(
        (await t.api.get('/tags', { query: { slug: 'counted-tag', hide_empty: 'false' } })).json.tags[0].count,
        0,
      );
    });
  });
}

for (const dialect of await testDialects()) {
  describe(`events: lists assembled from cached parts (API.md §8, §9) [${dialect}]`, () => {
    const t = useTestApp(dialect);

    it('list an event exactly as its write presents it, with none, one or several of each embedded object, before and after caching', async () => {
      const venue = await createVenue(t.api, { venue: 'Parts Hall' });
      const organizers = await Promise.all(
        ['Parts One', 'Parts Two'].map((name) => createOrganizerId(t.api, { organizer: name })),
      );
      const created = [
        await createEvent(t.api, { ...DAY, title: 'Parts bare' }),
        await createEvent(t.api, {
          ...DAY,
          title: 'Parts full',
          venue: venue.id,
          organizer: organizers,
          categories: ['Parts A', 'Parts B'],
          tags: ['parts-x', 'parts-y', 'parts-z'],
        }),
        await createEvent(t.api, {
          ...DAY,
          title: 'Parts one each',
          venue: venue.id,
          organizer: [organizers[1]],
          categories: ['Parts C'],
          tags: ['parts-w'],
        }),
      ];
      assert.deepEqual(
        created[1].tags.map((tag: Json) => tag.name),
        ['parts-x', 'parts-y', 'parts-z'],
      );
      const query = { include: created.map((event) => event.id).join(','), per_page: 10 };
      const first = await t.api.get('/events', { query });
      const again = await t.api.get('/events', { query });
      assert.equal(first.status, 200, first.text);
      assert.equal(again.text, first.text, 'the cached parts give the same bytes');
      const byId = new Map(first.json.events.map((event: Json) => [event.id, event]));
      for (const event of created) assert.deepEqual(byId.get(event.id), event, event.title);
    });
  });
}
