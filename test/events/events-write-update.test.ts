import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { testDialects } from '../helpers/databases.js';
import { DEFAULT_NOW, useTestApp, type TestApi, type TestResponse } from '../helpers/app.js';
import { createEvent, createOrganizer, createTerm, createVenue } from '../helpers/factories.js';

const BASE = 'http://127.0.0.1:8080';
const LATER = new Date('2026-11-22T10:15:30Z');
const LATER_STAMP = '2026-11-22 10:15:30';

// Response bodies are arbitrary JSON by nature.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const DAY = { start_date: '2026-12-21 18:00:00', end_date: '2026-12-21 20:00:00' };

function assertInvalidParam(res: TestResponse, param: string, label = ''): void {
  assert.equal(res.status, 400, `${label} ${res.text}`);
  assert.equal(res.json.code, 'rest_invalid_param', label);
  assert.ok(Object.hasOwn(res.json.data.params, param), `${label}: params should name ${param}: ${res.text}`);
}

function withoutJsonLd(event: Json): Json {
  const { json_ld: _ignored, ...rest } = event;
  const strip = (o: Json) => {
    if (!o || Array.isArray(o)) return o;
    const { json_ld: _x, ...r } = o;
    return r;
  };
  return { ...rest, venue: strip(rest.venue), organizer: rest.organizer.map(strip) };
}

async function at<T>(api: TestApi, when: Date, action: () => Promise<T>): Promise<T> {
  api.now = when;
  try {
    return await action();
  } finally {
    api.now = DEFAULT_NOW;
  }
}

interface Fixture {
  event: Json;
  venue: Json;
  otherVenue: Json;
  o1: Json;
  o2: Json;
  c1: Json;
  c2: Json;
  t1: Json;
  t2: Json;
}

let sequence = 0;

/** An event with every field set, and spare linked items to switch to. */
async function fullEvent(api: TestApi, extra: Record<string, unknown> = {}): Promise<Fixture> {
  sequence += 1;
  const n = sequence;
  const venue = await createVenue(api, { venue: `Hall ${n}`, city: 'Springfield' });
  const otherVenue = await createVenue(api, { venue: `Other hall ${n}` });
  const o1 = await createOrganizer(api, { organizer: `Organizer ${n}a` });
  const o2 = await createOrganizer(api, { organizer: `Organizer ${n}b` });
  const c1 = await createTerm(api, 'categories', { name: `Cat ${n}a` });
  const c2 = await createTerm(api, 'categories', { name: `Cat ${n}b` });
  const t1 = await createTerm(api, 'tags', { name: `tag ${n}a` });
  const t2 = await createTerm(api, 'tags', { name: `tag ${n}b` });
  const event = await createEvent(api, {
    title: `Full event ${n}`,
    description: 'A full description',
    excerpt: 'A full excerpt',
    timezone: 'America/New_York',
    ...DAY,
    venue: venue.id,
    organizer: [o1.id, o2.id],
    categories: [c1.id, c2.id],
    tags: [t1.id, t2.id],
    cost: '15$',
    website: 'https://example.org/full',
    show_map: true,
    show_map_link: true,
    sticky: true,
    featured: true,
    image: `https://example.org/images/full-${n}.png`,
    status: 'publish',
    ...extra,
  });
  return { event, venue, otherVenue, o1, o2, c1, c2, t1, t2 };
}

async function termCount(api: TestApi, taxonomy: 'categories' | 'tags', id: number): Promise<number> {
  const res = await api.get(`/${taxonomy}/${id}`);
  assert.equal(res.status, 200, res.text);
  return res.json.count;
}

for (const dialect of await testDialects()) {
  describe(`events: partial updates [${dialect}]`, () => {
    const t = useTestApp(dialect);

    for (const method of ['post', 'put', 'patch'] as const) {
      it(`${method.toUpperCase()} with a lone title changes the title and modified* only`, async () => {
        const { event, c1, t1 } = await fullEvent(t.api);
        const before = (await t.api.get(`/events/${event.id}`, { as: 'administrator' })).json;
        const res = await at(t.api, LATER, () =>
          t.api[method](`/events/${event.id}`, { title: `Renamed by ${method}` }, { as: 'administrator' }),
        );
        assert.equal(res.status, 200, res.text);
        const expected = {
          ...withoutJsonLd(before),
          title: `Renamed by ${method}`,
          modified: LATER_STAMP,
          modified_utc: LATER_STAMP,
        };
        assert.deepEqual(res.json, expected);
        assert.deepEqual(Object.keys(res.json), Object.keys(expected));
        // Spelled out: what TEC would have reset.
        assert.equal(res.json.status, 'publish');
        assert.equal(res.json.date, '2026-11-21 08:37:48');
        assert.equal(res.json.timezone, 'America/New_York');
        assert.equal(res.json.start_date, '2026-12-21 18:00:00');
        assert.equal(res.json.utc_start_date, '2026-12-21 23:00:00');
        assert.equal(res.json.website, 'https://example.org/full');
        assert.deepEqual(
          [res.json.show_map, res.json.show_map_link, res.json.sticky, res.json.featured],
          [true, true, true, true],
        );
        assert.equal(res.json.organizer.length, 2);
        assert.equal(res.json.cost, '15$');
        assert.equal(res.json.slug, event.slug, 'a new title does not rename the slug');
        assert.notEqual(res.json.image, false);
        assert.equal(await termCount(t.api, 'categories', c1.id), 1);
        assert.equal(await termCount(t.api, 'tags', t1.id), 1);
        const after = await t.api.get(`/events/${event.id}`);
        assert.deepEqual(withoutJsonLd(after.json), res.json);
      });
    }

    it('an empty update body changes nothing but modified*', async () => {
      const { event } = await fullEvent(t.api);
      const res = await at(t.api, LATER, () => t.api.patch(`/events/${event.id}`, {}, { as: 'editor' }));
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.json, { ...event, modified: LATER_STAMP, modified_utc: LATER_STAMP });
    });

    it('UE-02: every sent field changes, with the dates read in the event zone', async () => {
      const { event } = await fullEvent(t.api);
      const res = await t.api.post(
        `/events/${event.id}`,
        {
          title: 'An event',
          description: 'An event content',
          excerpt: 'An event excerpt',
          start_date: '2026-11-22 09:00:00',
          end_date: '2026-11-22 11:00:00',
        },
        { as: 'administrator' },
      );
      assert.equal(res.status, 200, res.text);
      assert.equal(res.json.title, 'An event');
      assert.equal(res.json.description, '<p>An event content</p>');
      assert.equal(res.json.excerpt, '<p>An event excerpt</p>');
      assert.deepEqual(
        [res.json.start_date, res.json.end_date, res.json.utc_start_date, res.json.utc_end_date],
        ['2026-11-22 09:00:00', '2026-11-22 11:00:00', '2026-11-22 14:00:00', '2026-11-22 16:00:00'],
      );
      assert.equal(res.json.id, event.id);
    });

    it('a lone start_date or end_date changes only that bound', async () => {
      const { event } = await fullEvent(t.api, { timezone: 'UTC' });
      const start = await t.api.patch(
        `/events/${event.id}`,
        { start_date: '2026-12-21 19:00:00' },
        { as: 'administrator' },
      );
      assert.equal(start.status, 200, start.text);
      assert.deepEqual(
        [start.json.start_date, start.json.end_date, start.json.utc_start_date, start.json.utc_end_date],
        ['2026-12-21 19:00:00', '2026-12-21 20:00:00', '2026-12-21 19:00:00', '2026-12-21 20:00:00'],
      );
      const end = await t.api.patch(
        `/events/${event.id}`,
        { end_date: '2026-12-21 22:30:00' },
        { as: 'administrator' },
      );
      assert.deepEqual(
        [end.json.start_date, end.json.end_date, end.json.utc_end_date],
        ['2026-12-21 19:00:00', '2026-12-21 22:30:00', '2026-12-21 22:30:00'],
      );
      assert.deepEqual(end.json.end_date_details, {
        year: '2026',
        month: '12',
        day: '21',
        hour: '22',
        minutes: '30',
        seconds: '00',
      });
      const equal = await t.api.patch(
        `/events/${event.id}`,
        { end_date: '2026-12-21 19:00:00' },
        { as: 'administrator' },
      );
      assert.equal(equal.status, 200, 'end equal to start is allowed');
      assert.equal(equal.json.end_date, '2026-12-21 19:00:00');
    });

    it('a lone bound that would put the end before the start is 400 naming end_date and changes nothing', async () => {
      const { event } = await fullEvent(t.api, { timezone: 'UTC' });
      const before = (await t.api.get(`/events/${event.id}`)).json;
      const cases: Record<string, unknown>[] = [
        { start_date: '2026-12-21 23:00:00' },
        { end_date: '2026-12-21 17:00:00' },
        { title: 'Should not stick', end_date: '2026-12-20 20:00:00' },
        { start_date: '2026-12-22 18:00:00', end_date: '2026-12-22 17:59:59' },
        { timezone: 'Europe/Paris', start_date: '2026-12-21T20:30:00Z' },
      ];
      for (const body of cases) {
        const res = await at(t.api, LATER, () => t.api.put(`/events/${event.id}`, body, { as: 'administrator' }));
        assert.equal(res.status, 400, `${JSON.stringify(body)}: ${res.text}`);
        assert.equal(res.json.code, 'rest_invalid_param');
        assert.deepEqual(Object.keys(res.json.data.params), ['end_date'], JSON.stringify(body));
        assert.equal(res.json.message, 'Invalid parameter(s): end_date');
      }
      const after = await t.api.get(`/events/${event.id}`);
      assert.deepEqual(after.json, before);
    });

    it('UE-05: a new timezone keeps the wall-clock times; with dates they are read in the new zone', async () => {
      const { event } = await fullEvent(t.api, { timezone: 'UTC' });
      const paris = await t.api.post(`/events/${event.id}`, { timezone: 'Europe/Paris' }, { as: 'administrator' });
      assert.equal(paris.status, 200, paris.text);
      assert.deepEqual(
        [
          paris.json.timezone,
          paris.json.timezone_abbr,
          paris.json.start_date,
          paris.json.end_date,
          paris.json.utc_start_date,
          paris.json.utc_end_date,
        ],
        [
          'Europe/Paris',
          'CET',
          '2026-12-21 18:00:00',
          '2026-12-21 20:00:00',
          '2026-12-21 17:00:00',
          '2026-12-21 19:00:00',
        ],
      );
      const offset = await t.api.post(`/events/${event.id}`, { timezone: 'UTC+2' }, { as: 'administrator' });
      assert.deepEqual(
        [offset.json.timezone, offset.json.timezone_abbr, offset.json.start_date, offset.json.utc_start_date],
        ['UTC+2', 'UTC+2', '2026-12-21 18:00:00', '2026-12-21 16:00:00'],
      );
      const hk = await t.api.post(
        `/events/${event.id}`,
        { timezone: 'Asia/Hong_Kong', start_date: '2018-01-01 4pm', end_date: '2018-01-01 5pm' },
        { as: 'administrator' },
      );
      assert.deepEqual(
        [hk.json.start_date, hk.json.end_date, hk.json.utc_start_date, hk.json.utc_end_date],
        ['2018-01-01 16:00:00', '2018-01-01 17:00:00', '2018-01-01 08:00:00', '2018-01-01 09:00:00'],
      );
      const again = await t.api.post(
        `/events/${event.id}`,
        { timezone: 'Europe/Paris', start_date: '2018-01-01 4pm', end_date: '2018-01-01 5pm' },
        { as: 'administrator' },
      );
      assert.deepEqual(
        [again.json.timezone, again.json.start_date, again.json.utc_start_date, again.json.utc_end_date],
        ['Europe/Paris', '2018-01-01 16:00:00', '2018-01-01 15:00:00', '2018-01-01 16:00:00'],
      );
      const mixed = await t.api.post(
        `/events/${event.id}`,
        { timezone: 'America/New_York', start_date: '2018-01-01 10:00:00' },
        { as: 'administrator' },
      );
      assert.deepEqual(
        [mixed.json.start_date, mixed.json.end_date, mixed.json.utc_start_date, mixed.json.utc_end_date],
        ['2018-01-01 10:00:00', '2018-01-01 17:00:00', '2018-01-01 15:00:00', '2018-01-01 22:00:00'],
      );
      const instant = await t.api.post(
        `/events/${event.id}`,
        { end_date: '2018-01-01T23:00:00+01:00' },
        { as: 'administrator' },
      );
      assert.deepEqual(
        [instant.json.end_date, instant.json.utc_end_date],
        ['2018-01-01 17:00:00', '2018-01-01 22:00:00'],
        'an offset is converted as an instant',
      );
      assertInvalidParam(
        await t.api.post(`/events/${event.id}`, { timezone: 'Nowhere/Special' }, { as: 'administrator' }),
        'timezone',
      );
    });

    it('UE-12 / UE-13: all_day toggles snap to whole days; turning it off keeps the stored times', async () => {
      const { event } = await fullEvent(t.api, { timezone: 'America/New_York' });
      const on = await t.api.patch(`/events/${event.id}`, { all_day: true }, { as: 'administrator' });
      assert.equal(on.status, 200, on.text);
      assert.deepEqual(
        [on.json.all_day, on.json.start_date, on.json.end_date, on.json.utc_start_date, on.json.utc_end_date],
        [true, '2026-12-21 00:00:00', '2026-12-21 23:59:59', '2026-12-21 05:00:00', '2026-12-22 04:59:59'],
      );
      const title = await t.api.patch(`/events/${event.id}`, { title: 'Still all day' }, { as: 'administrator' });
      assert.equal(title.json.all_day, true, 'an update without all_day keeps it');
      const lone = await t.api.patch(
        `/events/${event.id}`,
        { end_date: '2026-12-23 10:00:00' },
        { as: 'administrator' },
      );
      assert.deepEqual(
        [lone.json.all_day, lone.json.start_date, lone.json.end_date],
        [true, '2026-12-21 00:00:00', '2026-12-23 23:59:59'],
      );
      const off = await t.api.patch(`/events/${event.id}`, { all_day: false }, { as: 'administrator' });
      assert.deepEqual(
        [off.json.all_day, off.json.start_date, off.json.end_date],
        [false, '2026-12-21 00:00:00', '2026-12-23 23:59:59'],
      );
      const timed = await t.api.patch(
        `/events/${event.id}`,
        { start_date: 'tomorrow 9am', end_date: 'tomorrow 11am' },
        { as: 'administrator' },
      );
      assert.deepEqual(
        [timed.json.all_day, timed.json.start_date, timed.json.end_date],
        [false, '2026-11-22 09:00:00', '2026-11-22 11:00:00'],
        'tomorrow in New York (now 03:37 EST on 21 Nov) is 22 Nov',
      );
      assert.deepEqual(
        [timed.json.utc_start_date, timed.json.utc_end_date],
        ['2026-11-22 14:00:00', '2026-11-22 16:00:00'],
      );
    });

    it('venue: null, 0, "", "0" and [] unlink the venue; an id or an inline object replaces it; omitted keeps it', async () => {
      const { event, venue, otherVenue } = await fullEvent(t.api);
      for (const empty of [null, 0, '', '0', []]) {
        const link = await t.api.post(`/events/${event.id}`, { venue: venue.id }, { as: 'administrator' });
        assert.equal(link.json.venue.id, venue.id);
        const res = await t.api.post(`/events/${event.id}`, { venue: empty }, { as: 'administrator' });
        assert.equal(res.status, 200, `${JSON.stringify(empty)}: ${res.text}`);
        assert.deepEqual(res.json.venue, [], JSON.stringify(empty));
        assert.deepEqual((await t.api.get(`/events/${event.id}`)).json.venue, [], JSON.stringify(empty));
      }
      const other = await t.api.put(`/events/${event.id}`, { venue: { id: otherVenue.id } }, { as: 'administrator' });
      assert.equal(other.json.venue.id, otherVenue.id);
      const kept = await t.api.put(`/events/${event.id}`, { title: 'Venue kept' }, { as: 'administrator' });
      assert.equal(kept.json.venue.id, otherVenue.id);
      const inline = await t.api.put(
        `/events/${event.id}`,
        { venue: { venue: 'Inline update hall', city: 'Pretoria', country: 'South Africa', province: 'Gauteng' } },
        { as: 'administrator' },
      );
      assert.equal(inline.status, 200, inline.text);
      assert.equal(inline.json.venue.venue, 'Inline update hall');
      assert.equal(inline.json.venue.stateprovince, 'Gauteng');
      assertInvalidParam(await t.api.put(`/events/${event.id}`, { venue: 999999 }, { as: 'administrator' }), 'venue');
      assert.equal((await t.api.get(`/events/${event.id}`)).json.venue.venue, 'Inline update hall');
    });

    it('UE-27..UE-33: organizers are replaced in the order sent; [] removes them all; omitted keeps them', async () => {
      const { event, o1, o2 } = await fullEvent(t.api);
      const swapped = await t.api.patch(`/events/${event.id}`, { organizer: [o2.id, o1.id] }, { as: 'administrator' });
      assert.deepEqual(
        swapped.json.organizer.map((o: Json) => o.id),
        [o2.id, o1.id],
      );
      const one = await t.api.patch(`/events/${event.id}`, { organizer: o1.id }, { as: 'administrator' });
      assert.deepEqual(
        one.json.organizer.map((o: Json) => o.id),
        [o1.id],
      );
      const mixed = await t.api.patch(
        `/events/${event.id}`,
        { organizer: [{ organizer: 'New inline org' }, { id: o2.id }] },
        { as: 'administrator' },
      );
      assert.deepEqual(
        mixed.json.organizer.map((o: Json) => o.organizer),
        ['New inline org', o2.organizer],
      );
      const kept = await t.api.patch(`/events/${event.id}`, { title: 'Organizers kept' }, { as: 'administrator' });
      assert.equal(kept.json.organizer.length, 2);
      const none = await t.api.patch(`/events/${event.id}`, { organizer: [] }, { as: 'administrator' });
      assert.equal(none.status, 200, none.text);
      assert.deepEqual(none.json.organizer, []);
      assert.deepEqual((await t.api.get(`/events/${event.id}`)).json.organizer, []);
      assertInvalidParam(
        await t.api.patch(`/events/${event.id}`, { organizer: [o1.id, 999999] }, { as: 'administrator' }),
        'organizer',
      );
      assert.deepEqual((await t.api.get(`/events/${event.id}`)).json.organizer, []);
    });

    it('UE-35..UE-42: categories and tags sent replace the set; [] and "" remove all; counts follow', async () => {
      const { event, c1, c2, t1, t2 } = await fullEvent(t.api);
      const replaced = await t.api.post(`/events/${event.id}`, { categories: [c2.id] }, { as: 'administrator' });
      assert.deepEqual(
        replaced.json.categories.map((c: Json) => c.id),
        [c2.id],
      );
      assert.deepEqual(
        replaced.json.tags.map((c: Json) => c.id),
        [t1.id, t2.id],
        'tags untouched when not sent',
      );
      assert.equal(await termCount(t.api, 'categories', c1.id), 0);
      assert.equal(await termCount(t.api, 'categories', c2.id), 1);
      const bySlug = await t.api.post(
        `/events/${event.id}`,
        { categories: [c1.slug, c2.id], tags: t2.slug },
        { as: 'administrator' },
      );
      assert.deepEqual(
        bySlug.json.categories.map((c: Json) => c.id),
        [c1.id, c2.id],
      );
      assert.deepEqual(
        bySlug.json.tags.map((c: Json) => c.id),
        [t2.id],
      );
      const created = await t.api.post(
        `/events/${event.id}`,
        { categories: [c1.id, 'Brand new on update'] },
        { as: 'editor' },
      );
      assert.deepEqual(
        created.json.categories.map((c: Json) => c.name),
        [c1.name, 'Brand new on update'],
      );
      const emptyArray = await t.api.post(`/events/${event.id}`, { categories: [] }, { as: 'administrator' });
      assert.deepEqual(emptyArray.json.categories, []);
      assert.equal(await termCount(t.api, 'categories', c1.id), 0);
      const emptyString = await t.api.post(`/events/${event.id}`, { tags: '' }, { as: 'administrator' });
      assert.deepEqual(emptyString.json.tags, []);
      assert.equal(await termCount(t.api, 'tags', t2.id), 0);
      const contributorEvent = await t.api.post(
        '/events',
        { title: 'Contributor own', ...DAY, slug: 'contributor-own' },
        { as: 'contributor' },
      );
      const denied = await t.api.post(
        `/events/${contributorEvent.json.id}`,
        { categories: ['Not allowed for contributors'] },
        { as: 'contributor' },
      );
      assertInvalidParam(denied, 'categories');
      const terms = await t.api.db
        .selectFrom('terms')
        .select('id')
        .where('name', '=', 'Not allowed for contributors')
        .execute();
      assert.equal(terms.length, 0);
    });

    it('cost, website, flags, image and password change only when sent, and can be cleared', async () => {
      const { event } = await fullEvent(t.api);
      const cost = await t.api.patch(`/events/${event.id}`, { cost: ['0', '30'] }, { as: 'administrator' });
      assert.equal(cost.json.cost, 'Free – $30');
      assert.deepEqual(cost.json.cost_details, {
        currency_symbol: '',
        currency_code: '',
        currency_position: '',
        values: ['0', '30'],
      });
      const noCost = await t.api.patch(`/events/${event.id}`, { cost: '' }, { as: 'administrator' });
      assert.equal(noCost.json.cost, '');
      assert.deepEqual(noCost.json.cost_details.values, []);
      const website = await t.api.patch(`/events/${event.id}`, { website: '' }, { as: 'administrator' });
      assert.equal(website.json.website, '');
      const flags = await t.api.patch(
        `/events/${event.id}`,
        { featured: false, hide_from_listings: true },
        { as: 'administrator' },
      );
      assert.deepEqual(
        [
          flags.json.show_map,
          flags.json.show_map_link,
          flags.json.hide_from_listings,
          flags.json.sticky,
          flags.json.featured,
        ],
        [true, true, true, true, false],
      );
      const image = await t.api.patch(`/events/${event.id}`, { image: '' }, { as: 'administrator' });
      assert.equal(image.json.image, false);
      const password = await t.api.patch(`/events/${event.id}`, { password: 'letmein' }, { as: 'administrator' });
      assert.equal(password.status, 200);
      assert.equal((await t.api.get(`/events/${event.id}`)).json.code, 'event-password-protected');
      await t.api.patch(`/events/${event.id}`, { title: 'Still protected' }, { as: 'administrator' });
      assert.equal((await t.api.get(`/events/${event.id}`)).status, 403);
      await t.api.patch(`/events/${event.id}`, { password: '' }, { as: 'administrator' });
      assert.equal((await t.api.get(`/events/${event.id}`)).status, 200);
    });

    it('UE-07: bad values are 400 naming them and change nothing (atomic)', async () => {
      const { event } = await fullEvent(t.api);
      const before = (await t.api.get(`/events/${event.id}`)).json;
      const cases: [Record<string, unknown>, string][] = [
        [{ title: 'Nope', author: 999999 }, 'author'],
        [{ title: 'Nope', date: 'foo' }, 'date'],
        [{ title: 'Nope', date_utc: 'foo' }, 'date_utc'],
        [{ title: 'Nope', website: 'foo' }, 'website'],
        [{ title: '' }, 'title'],
        [{ title: 'Nope', start_date: 'not-a-date' }, 'start_date'],
        [{ title: 'Nope', status: 'bogus' }, 'status'],
        [{ title: 'Nope', venue: { website: 'http://example.com' } }, 'venue'],
        [{ title: 'Nope', organizer: [{ organizer: 'Half made' }, 999999] }, 'organizer'],
        [{ title: 'Nope', categories: [999999] }, 'categories'],
        [{ title: 'Nope', post_parent: event.id }, 'post_parent'],
        [{ title: 'Nope', image: 'not an image' }, 'image'],
      ];
      for (const [body, param] of cases)
        assertInvalidParam(
          await t.api.post(`/events/${event.id}`, body, { as: 'administrator' }),
          param,
          JSON.stringify(body),
        );
      assert.deepEqual((await t.api.get(`/events/${event.id}`)).json, before);
      const count = await t.api.db.selectFrom('posts').select('id').where('title', '=', 'Half made').execute();
      assert.equal(count.length, 0);
    });

    it('UE-08 / UE-09 / UE-10: author, date and date_utc can be changed', async () => {
      const { event } = await fullEvent(t.api);
      const author = await t.api.user('author');
      const res = await t.api.post(
        `/events/${event.id}`,
        { author: author.id, date: '2026-01-05 14:23:36' },
        { as: 'administrator' },
      );
      assert.equal(res.status, 200, res.text);
      assert.equal(res.json.author, String(author.id));
      assert.equal(res.json.date, '2026-01-05 14:23:36');
      assert.equal(res.json.date_utc, '2026-01-05 14:23:36');
      assert.equal(res.json.status, 'publish');
      const gmt = await t.api.post(`/events/${event.id}`, { date_utc: '2026-02-01 10:00:00' }, { as: 'administrator' });
      assert.equal(gmt.json.date_utc, '2026-02-01 10:00:00');
    });

    it('slug in the body renames (unique); the old slug no longer finds the event', async () => {
      const { event } = await fullEvent(t.api);
      const taken = await fullEvent(t.api);
      const res = await t.api.post(`/events/${event.id}`, { slug: 'An Interesting Event' }, { as: 'administrator' });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.json.slug, 'an-interesting-event');
      assert.equal(res.json.url, `${BASE}/event/an-interesting-event/`);
      assert.equal((await t.api.get(`/events/by-slug/${event.slug}`)).status, 404);
      assert.equal((await t.api.get('/events/by-slug/an-interesting-event')).json.id, event.id);
      const clash = await t.api.post(`/events/${event.id}`, { slug: taken.event.slug }, { as: 'administrator' });
      assert.equal(clash.json.slug, `${taken.event.slug}-2`);
      assertInvalidParam(await t.api.post(`/events/${event.id}`, { slug: '' }, { as: 'administrator' }), 'slug');
    });

    it('updating a trashed event keeps it in the trash unless status is sent', async () => {
      const { event } = await fullEvent(t.api);
      const trashed = await t.api.delete(`/events/${event.id}`, { as: 'administrator' });
      assert.equal(trashed.json.status, 'trash');
      const res = await t.api.post(`/events/${event.id}`, { title: 'Edited in the trash' }, { as: 'administrator' });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.json.status, 'trash');
      assert.equal(res.json.slug, `${event.slug}__trashed`);
      assert.equal(res.json.title, 'Edited in the trash');
      assert.equal((await t.api.get(`/events/${event.id}`)).json.code, 'event-no-longer-available');
      const restored = await t.api.post(`/events/${event.id}`, { status: 'publish' }, { as: 'administrator' });
      assert.equal(restored.status, 200, restored.text);
      assert.equal(restored.json.status, 'publish');
      assert.equal(restored.json.slug, event.slug);
      assert.equal(restored.json.url, `${BASE}/event/${event.slug}/`);
      assert.equal((await t.api.get(`/events/${event.id}`)).status, 200);
    });

    it('restoring from the trash when the slug was taken meanwhile gives a unique slug', async () => {
      const old = await t.api.post('/events', { title: 'Reused Name', ...DAY }, { as: 'administrator' });
      await t.api.delete(`/events/${old.json.id}`, { as: 'administrator' });
      const taker = await t.api.post('/events', { title: 'Reused Name', ...DAY }, { as: 'administrator' });
      assert.equal(taker.json.slug, 'reused-name');
      const restored = await t.api.patch(`/events/${old.json.id}`, { status: 'publish' }, { as: 'administrator' });
      assert.equal(restored.status, 200, restored.text);
      assert.equal(restored.json.slug, 'reused-name-2');
      assert.equal((await t.api.get('/events/by-slug/reused-name')).json.id, taker.json.id);
      assert.equal((await t.api.get('/events/by-slug/reused-name-2')).json.id, old.json.id);
    });

    it('description and excerpt may be cleared with ""; HTML is sanitised on update', async () => {
      const { event } = await fullEvent(t.api);
      const cleared = await t.api.patch(
        `/events/${event.id}`,
        { description: '', excerpt: '' },
        { as: 'administrator' },
      );
      assert.equal(cleared.status, 200, cleared.text);
      assert.deepEqual([cleared.json.description, cleared.json.excerpt], ['', '']);
      const dirty = await t.api.patch(
        `/events/${event.id}`,
        { description: '<p onclick="steal()">Hi <script>alert(1)</script><a href="javascript:alert(1)">there</a></p>' },
        { as: 'administrator' },
      );
      assert.doesNotMatch(dirty.json.description, /script|onclick|javascript:/);
      assert.match(dirty.json.description, /Hi/);
    });

    it('a draft updated without status stays a draft (and keeps its empty slug); publishing gives it one', async () => {
      const draft = await t.api.post(
        '/events',
        { title: 'Quiet Draft', ...DAY, status: 'draft' },
        { as: 'administrator' },
      );
      assert.equal(draft.json.slug, '');
      const res = await t.api.post(`/events/${draft.json.id}`, { title: 'Quiet Draft Edited' }, { as: 'editor' });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.json.status, 'draft');
      assert.equal(res.json.slug, '');
      assert.equal(res.json.url, `${BASE}/?post_type=tribe_events&p=${draft.json.id}`);
      const published = await t.api.post(`/events/${draft.json.id}`, { status: 'publish' }, { as: 'editor' });
      assert.equal(published.json.status, 'publish');
      assert.equal(published.json.slug, 'quiet-draft-edited');
      assert.equal(published.json.url, `${BASE}/event/quiet-draft-edited/`);
    });

    it('UEU-05: a draft updated with status future and a future date is scheduled for that date', async () => {
      const draft = await t.api.post(
        '/events',
        { title: 'To schedule', ...DAY, status: 'draft' },
        { as: 'administrator' },
      );
      const res = await t.api.post(
        `/events/${draft.json.id}`,
        { status: 'future', date: '2026-12-21 08:37:48' },
        { as: 'administrator' },
      );
      assert.equal(res.status, 200, res.text);
      assert.equal(res.json.status, 'future');
      assert.equal(res.json.date, '2026-12-21 08:37:48');
      assert.equal(res.json.date_utc, '2026-12-21 08:37:48');
      assert.equal((await t.api.get(`/events/${draft.json.id}`)).json.code, 'event-not-accessible');
    });

    it('UE-06: an unknown id is 404 rest-event-not-found on POST, PUT and PATCH', async () => {
      for (const method of ['post', 'put', 'patch'] as const) {
        const res = await t.api[method]('/events/999999', { title: 'Ghost', ...DAY }, { as: 'administrator' });
        assert.equal(res.status, 404, method);
        assert.deepEqual(res.json, {
          code: 'rest-event-not-found',
          message: 'Event with ID 999999 does not exist.',
          data: { status: 404 },
        });
      }
      const venue = await t.api.post('/venues', { venue: 'Not editable as event' }, { as: 'administrator' });
      const wrongType = await t.api.post(`/events/${venue.json.id}`, { title: 'Nope' }, { as: 'administrator' });
      assert.equal(wrongType.status, 400);
      assert.deepEqual(wrongType.json, {
        code: 'rest-invalid-event-id',
        message: 'The specified ID is not a valid event.',
        data: { status: 400 },
      });
      assert.equal((await t.api.get(`/venues/${venue.json.id}`)).json.venue, 'Not editable as event');
    });

    it('update by slug: the path slug finds the event, a body slug renames it', async () => {
      const { event } = await fullEvent(t.api);
      const res = await t.api.patch(
        `/events/by-slug/${event.slug}`,
        { title: 'Edited by slug' },
        { as: 'administrator' },
      );
      assert.equal(res.status, 200, res.text);
      assert.equal(res.json.id, event.id);
      assert.equal(res.json.title, 'Edited by slug');
      assert.equal(res.json.slug, event.slug);
      assert.equal(res.json.organizer.length, 2, 'partial by slug too');
      const renamed = await t.api.put(
        `/events/by-slug/${event.slug}`,
        { slug: 'renamed-by-slug' },
        { as: 'administrator' },
      );
      assert.equal(renamed.status, 200, renamed.text);
      assert.equal(renamed.json.id, event.id);
      assert.equal(renamed.json.slug, 'renamed-by-slug');
      assert.equal((await t.api.get('/events/by-slug/renamed-by-slug')).json.id, event.id);
      const missing = await t.api.post('/events/by-slug/no-such-event', { title: 'Ghost' }, { as: 'administrator' });
      assert.equal(missing.status, 404);
      assert.deepEqual(missing.json, {
        code: 'rest-event-not-found',
        message: 'Event with slug no-such-event does not exist.',
        data: { status: 404 },
      });
    });
  });
}
