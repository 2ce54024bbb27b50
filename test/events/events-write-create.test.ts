import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TRANSCRIPT_VENUE, TRANSCRIPT_ORGANIZER } from '../helpers/fixtures.js';
import { testDialects } from '../helpers/databases.js';
import { DEFAULT_NOW, NS, useTestApp, type TestApi, type TestResponse } from '../helpers/app.js';

const BASE = 'http://127.0.0.1:8080';
const REST = `${BASE}${NS}`;
const STAMP = '2026-11-21 08:37:48';

/** TEC 6.17.2's 201 body for the transcript's POST /events (tec-live-transcript.md §3), byte for byte. */
const TEC_CREATE_RAW = String.raw`{"id":6,"global_id":"127.0.0.1?id=6","global_id_lineage":["127.0.0.1?id=6"],"author":"1","status":"publish","date":"2026-11-21 08:37:48","date_utc":"2026-11-21 08:37:48","modified":"2026-11-21 08:37:48","modified_utc":"2026-11-21 08:37:48","url":"http:\/\/127.0.0.1:8080\/event\/transcript-concert\/","rest_url":"http:\/\/127.0.0.1:8080\/wp-json\/tribe\/events\/v1\/events\/6","title":"Transcript Concert","description":"<p>An evening concert.<\/p>","excerpt":"<p>Evening concert<\/p>","slug":"transcript-concert","image":false,"all_day":false,"start_date":"2026-12-21 18:00:00","start_date_details":{"year":"2026","month":"12","day":"21","hour":"18","minutes":"00","seconds":"00"},"end_date":"2026-12-21 20:00:00","end_date_details":{"year":"2026","month":"12","day":"21","hour":"20","minutes":"00","seconds":"00"},"utc_start_date":"2026-12-21 18:00:00","utc_start_date_details":{"year":"2026","month":"12","day":"21","hour":"18","minutes":"00","seconds":"00"},"utc_end_date":"2026-12-21 20:00:00","utc_end_date_details":{"year":"2026","month":"12","day":"21","hour":"20","minutes":"00","seconds":"00"},"timezone":"UTC","timezone_abbr":"UTC","cost":"$10","cost_details":{"currency_symbol":"","currency_code":"","currency_position":"","values":["10"]},"website":"https:\/\/example.org\/concert","show_map":false,"show_map_link":false,"hide_from_listings":false,"sticky":false,"featured":true,"categories":[{"name":"Concerts","slug":"concerts","term_group":0,"term_taxonomy_id":2,"taxonomy":"tribe_events_cat","description":"Live music","parent":0,"count":1,"filter":"raw","id":2,"urls":{"self":"http:\/\/127.0.0.1:8080\/wp-json\/tribe\/events\/v1\/categories\/2","collection":"http:\/\/127.0.0.1:8080\/wp-json\/tribe\/events\/v1\/categories"}}],"tags":[{"name":"outdoor","slug":"outdoor","term_group":0,"term_taxonomy_id":3,"taxonomy":"post_tag","description":"","parent":0,"count":1,"filter":"raw","id":3,"urls":{"self":"http:\/\/127.0.0.1:8080\/wp-json\/tribe\/events\/v1\/tags\/3","collection":"http:\/\/127.0.0.1:8080\/wp-json\/tribe\/events\/v1\/tags"}}],"venue":{"id":4,"author":"1","status":"publish","date":"2026-11-21 08:37:48","date_utc":"2026-11-21 08:37:48","modified":"2026-11-21 08:37:48","modified_utc":"2026-11-21 08:37:48","url":"http:\/\/127.0.0.1:8080\/venue\/transcript-hall\/","venue":"Transcript Hall","description":"<p>A venue made for the transcript.<\/p>","slug":"transcript-hall","address":"1 Main Street","city":"Springfield","country":"United States","state":"IL","zip":"62701","phone":"+1 555 0100","website":"https:\/\/example.org\/hall","stateprovince":"IL","show_map":true,"show_map_link":true,"global_id":"127.0.0.1?id=4","global_id_lineage":["127.0.0.1?id=4"]},"organizer":[{"id":5,"author":"1","status":"publish","date":"2026-11-21 08:37:48","date_utc":"2026-11-21 08:37:48","modified":"2026-11-21 08:37:48","modified_utc":"2026-11-21 08:37:48","url":"http:\/\/127.0.0.1:8080\/organizer\/transcript-org\/","organizer":"Transcript Org","description":"<p>Organizer made for the transcript.<\/p>","slug":"transcript-org","phone":"+1 555 0199","website":"https:\/\/example.org\/org","email":"org@example.org","global_id":"127.0.0.1?id=5","global_id_lineage":["127.0.0.1?id=5"]}],"custom_fields":[]}`;

// Response bodies are arbitrary JSON by nature.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

/** Same keys in the same order (recursively) and the same JSON type at every leaf. */
function assertSameShape(actual: Json, expected: Json, path = '$'): void {
  if (Array.isArray(expected)) {
    assert.ok(Array.isArray(actual), `${path} should be an array, got ${JSON.stringify(actual)}`);
    assert.equal(actual.length, expected.length, `${path}: length`);
    expected.forEach((item, i) => assertSameShape(actual[i], item, `${path}[${i}]`));
    return;
  }
  if (expected !== null && typeof expected === 'object') {
    assert.ok(
      actual !== null && typeof actual === 'object' && !Array.isArray(actual),
      `${path} should be an object, got ${JSON.stringify(actual)}`,
    );
    assert.deepEqual(Object.keys(actual), Object.keys(expected), `${path}: keys and key order`);
    for (const key of Object.keys(expected)) assertSameShape(actual[key], expected[key], `${path}.${key}`);
    return;
  }
  const kind = (value: unknown) => (value === null ? 'null' : typeof value);
  assert.equal(kind(actual), kind(expected), `${path}: JSON type`);
}

function mapStrings(value: Json, map: (s: string) => string): Json {
  if (typeof value === 'string') return map(value);
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, map));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapStrings(v, map)]));
  return value;
}

interface TranscriptIds {
  event: number;
  /** Ours alone (API.md §19.2): a random UUID at our host, after TEC's keys. */
  icalUid: string;
  venue: number;
  organizer: number;
  category: number;
  tag: number;
  author: number;
}

/** TEC's body with our namespace and our ids (TEC's were event 6, venue 4, organizer 5, category 2, tag 3, author 1). */
function expectedFromTranscript(ids: TranscriptIds): Json {
  const tec = mapStrings(JSON.parse(TEC_CREATE_RAW), (s) =>
    s.replace('/wp-json/tribe/events/v1/', '/calendar/events/v1/'),
  );
  const gid = (id: number) => `127.0.0.1?id=${id}`;
  Object.assign(tec, {
    id: ids.event,
    global_id: gid(ids.event),
    global_id_lineage: [gid(ids.event)],
    author: String(ids.author),
    rest_url: `${REST}/events/${ids.event}`,
    ical_uid: ids.icalUid,
    ical_url: `http://127.0.0.1:8080/ical/events/${ids.event}.ics`,
    is_recurring: false,
    series_id: null,
    recurrence_id: null,
    recurrence: [],
    occurrences_url: null,
  });
  Object.assign(tec.categories[0], { term_taxonomy_id: ids.category, id: ids.category });
  tec.categories[0].urls.self = `${REST}/categories/${ids.category}`;
  Object.assign(tec.tags[0], { term_taxonomy_id: ids.tag, id: ids.tag });
  tec.tags[0].urls.self = `${REST}/tags/${ids.tag}`;
  Object.assign(tec.venue, {
    id: ids.venue,
    author: String(ids.author),
    global_id: gid(ids.venue),
    global_id_lineage: [gid(ids.venue)],
  });
  Object.assign(tec.organizer[0], {
    id: ids.organizer,
    author: String(ids.author),
    global_id: gid(ids.organizer),
    global_id_lineage: [gid(ids.organizer)],
  });
  return tec;
}

const UTC_DAY = { start_date: '2026-12-21 18:00:00', end_date: '2026-12-21 20:00:00' };

function details(date: string) {
  return {
    year: date.slice(0, 4),
    month: date.slice(5, 7),
    day: date.slice(8, 10),
    hour: date.slice(11, 13),
    minutes: date.slice(14, 16),
    seconds: date.slice(17, 19),
  };
}

function assertTimes(
  res: TestResponse,
  expected: { start: string; end: string; utcStart: string; utcEnd: string; timezone: string; abbr?: string },
  label = '',
): void {
  assert.equal(res.status, 201, `${label} ${res.text}`);
  const e = res.json;
  assert.equal(e.start_date, expected.start, `${label} start_date`);
  assert.equal(e.end_date, expected.end, `${label} end_date`);
  assert.equal(e.utc_start_date, expected.utcStart, `${label} utc_start_date`);
  assert.equal(e.utc_end_date, expected.utcEnd, `${label} utc_end_date`);
  assert.deepEqual(e.start_date_details, details(expected.start), `${label} start_date_details`);
  assert.deepEqual(e.end_date_details, details(expected.end), `${label} end_date_details`);
  assert.deepEqual(e.utc_start_date_details, details(expected.utcStart), `${label} utc_start_date_details`);
  assert.deepEqual(e.utc_end_date_details, details(expected.utcEnd), `${label} utc_end_date_details`);
  assert.equal(e.timezone, expected.timezone, `${label} timezone`);
  if (expected.abbr !== undefined) assert.equal(e.timezone_abbr, expected.abbr, `${label} timezone_abbr`);
}

async function postsTitled(api: TestApi, title: string): Promise<number> {
  return (await api.db.selectFrom('posts').select('id').where('title', '=', title).execute()).length;
}

async function termsNamed(api: TestApi, name: string): Promise<number> {
  return (await api.db.selectFrom('terms').select('id').where('name', '=', name).execute()).length;
}

function assertInvalidParam(res: TestResponse, param: string, label = ''): void {
  assert.equal(res.status, 400, `${label} ${res.text}`);
  assert.equal(res.json.code, 'rest_invalid_param', label);
  assert.equal(res.json.data.status, 400, label);
  assert.ok(Object.hasOwn(res.json.data.params, param), `${label}: params should name ${param}: ${res.text}`);
  assert.match(res.json.message, new RegExp(`^Invalid parameter\\(s\\): .*\\b${param}\\b`), label);
}

for (const dialect of await testDialects()) {
  describe(`events: create — the transcript flow [${dialect}]`, () => {
    const t = useTestApp(dialect);

    it("POST /events with the transcript body answers 201 with TEC's body: keys, key order, JSON types and values", async () => {
      const venue = await t.api.post('/venues', TRANSCRIPT_VENUE, { as: 'administrator' });
      assert.equal(venue.status, 201, venue.text);
      const organizer = await t.api.post('/organizers', TRANSCRIPT_ORGANIZER, { as: 'administrator' });
      assert.equal(organizer.status, 201, organizer.text);
      const category = await t.api.post(
        '/categories',
        { name: 'Concerts', description: 'Live music' },
        { as: 'administrator' },
      );
      assert.equal(category.status, 201, category.text);
      const tag = await t.api.post('/tags', { name: 'outdoor' }, { as: 'administrator' });
      assert.equal(tag.status, 201, tag.text);

      const res = await t.api.post(
        '/events',
        {
          title: 'Transcript Concert',
          description: '<p>An evening concert.</p>',
          excerpt: 'Evening concert',
          start_date: '2026-12-21 18:00:00',
          end_date: '2026-12-21 20:00:00',
          timezone: 'UTC',
          venue: venue.json.id,
          organizer: [organizer.json.id],
          categories: [category.json.id],
          tags: [tag.json.id],
          cost: '10',
          website: 'https://example.org/concert',
          featured: true,
          status: 'publish',
        },
        { as: 'administrator' },
      );
      assert.equal(res.status, 201, res.text);
      const admin = await t.api.user('administrator');
      const expected = expectedFromTranscript({
        event: res.json.id,
        icalUid: res.json.ical_uid,
        venue: venue.json.id,
        organizer: organizer.json.id,
        category: category.json.id,
        tag: tag.json.id,
        author: admin.id,
      });

      assertSameShape(res.json, expected);
      assert.deepEqual(res.json, expected);
      // Values independent of ids and host, spelled out so a wrong expectation cannot hide behind the transcript.
      const e = res.json;
      assert.match(e.ical_uid, /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}@127\.0\.0\.1$/);
      assert.equal(typeof e.id, 'number');
      assert.equal(e.author, String(admin.id));
      assert.equal(e.status, 'publish');
      assert.deepEqual([e.date, e.date_utc, e.modified, e.modified_utc], [STAMP, STAMP, STAMP, STAMP]);
      assert.equal(e.url, `${BASE}/event/transcript-concert/`);
      assert.equal(e.rest_url, `${BASE}/calendar/events/v1/events/${e.id}`);
      assert.equal(e.excerpt, '<p>Evening concert</p>');
      assert.equal(e.image, false);
      assert.equal(e.all_day, false);
      assert.equal(e.utc_start_date, '2026-12-21 18:00:00');
      assert.equal(e.timezone_abbr, 'UTC');
      assert.equal(e.cost, '$10');
      assert.deepEqual(e.cost_details, {
        currency_symbol: '',
        currency_code: '',
        currency_position: '',
        values: ['10'],
      });
      assert.deepEqual(
        [e.show_map, e.show_map_link, e.hide_from_listings, e.sticky, e.featured],
        [false, false, false, false, true],
      );
      assert.equal(e.categories[0].count, 1);
      assert.equal(e.tags[0].count, 1);
      assert.equal(e.categories[0].urls.collection, `${REST}/categories`);
      assert.deepEqual(e.custom_fields, []);
      assert.equal('json_ld' in e, false, 'create responses carry no json_ld');
      assert.equal('json_ld' in e.venue, false);
      assert.equal('json_ld' in e.organizer[0], false);
    });
  });

  describe(`events: create — dates and time zones in a New York site [${dialect}]`, () => {
    const t = useTestApp(dialect, { env: { SITE_TIMEZONE: 'America/New_York' } });

    it('CE-02: explicit wall-clock dates are read in the site zone; title, slug, description and excerpt as sent', async () => {
      const res = await t.api.post(
        '/events',
        {
          title: 'An event',
          slug: 'an-event',
          description: 'An event content',
          excerpt: 'An event excerpt',
          start_date: '2026-11-22 09:00:00',
          end_date: '2026-11-22 11:00:00',
        },
        { as: 'administrator' },
      );
      assertTimes(res, {
        start: '2026-11-22 09:00:00',
        end: '2026-11-22 11:00:00',
        utcStart: '2026-11-22 14:00:00',
        utcEnd: '2026-11-22 16:00:00',
        timezone: 'America/New_York',
        abbr: 'EST',
      });
      assert.equal(res.json.title, 'An event');
      assert.equal(res.json.slug, 'an-event');
      assert.equal(res.json.description, '<p>An event content</p>');
      assert.equal(res.json.excerpt, '<p>An event excerpt</p>');
      // date/modified are site-local wall-clock, *_utc in UTC.
      assert.equal(res.json.date, '2026-11-21 03:37:48');
      assert.equal(res.json.date_utc, STAMP);
    });

    it('CE-03: natural-language dates are read in the site zone (now = 2026-11-21 03:37:48 EST)', async () => {
      const rows: [string, string, string, string, string, string][] = [
        [
          'tomorrow 9am',
          'tomorrow 11am',
          '2026-11-22 09:00:00',
          '2026-11-22 11:00:00',
          '2026-11-22 14:00:00',
          '2026-11-22 16:00:00',
        ],
        [
          'tomorrow 11am',
          'tomorrow 1pm',
          '2026-11-22 11:00:00',
          '2026-11-22 13:00:00',
          '2026-11-22 16:00:00',
          '2026-11-22 18:00:00',
        ],
        [
          'next wednesday 4pm',
          'next wednesday 5pm',
          '2026-11-25 16:00:00',
          '2026-11-25 17:00:00',
          '2026-11-25 21:00:00',
          '2026-11-25 22:00:00',
        ],
        [
          '+1 week',
          '+1 week 4:30pm',
          '2026-11-28 03:37:48',
          '2026-11-28 16:30:00',
          '2026-11-28 08:37:48',
          '2026-11-28 21:30:00',
        ],
      ];
      for (const [startIn, endIn, start, end, utcStart, utcEnd] of rows) {
        const res = await t.api.post(
          '/events',
          { title: `NL ${startIn}`, start_date: startIn, end_date: endIn },
          { as: 'administrator' },
        );
        assertTimes(res, { start, end, utcStart, utcEnd, timezone: 'America/New_York', abbr: 'EST' }, startIn);
      }
    });

    it('CE-08 / CE-09: date is read in the site zone, date_utc in UTC; a future publication date schedules the event', async () => {
      const local = await t.api.post(
        '/events',
        { title: 'Post date', ...UTC_DAY, date: 'tomorrow 9am' },
        { as: 'administrator' },
      );
      assert.equal(local.status, 201, local.text);
      assert.equal(local.json.date, '2026-11-22 09:00:00');
      assert.equal(local.json.date_utc, '2026-11-22 14:00:00');
      assert.equal(local.json.status, 'future');
      const gmt = await t.api.post(
        '/events',
        { title: 'Post date GMT', ...UTC_DAY, date_utc: 'tomorrow 9am' },
        { as: 'administrator' },
      );
      assert.equal(gmt.status, 201, gmt.text);
      assert.equal(gmt.json.date_utc, '2026-11-22 09:00:00');
      assert.equal(gmt.json.date, '2026-11-22 04:00:00');
      const past = await t.api.post(
        '/events',
        { title: 'Back-dated', ...UTC_DAY, date: '2026-01-05 14:23:36' },
        { as: 'administrator' },
      );
      assert.equal(past.json.status, 'publish');
      assert.equal(past.json.date, '2026-01-05 14:23:36');
      assert.equal(past.json.date_utc, '2026-01-05 19:23:36');
    });

    it('CE-11: an all-day event on one day keeps 00:00:00–23:59:59 local and converts them to UTC', async () => {
      const res = await t.api.post(
        '/events',
        {
          title: 'All day',
          all_day: true,
          start_date: '2026-11-22 00:00:00',
          end_date: '2026-11-22 23:59:59',
          description: 'Whole day',
        },
        { as: 'administrator' },
      );
      assertTimes(res, {
        start: '2026-11-22 00:00:00',
        end: '2026-11-22 23:59:59',
        utcStart: '2026-11-22 05:00:00',
        utcEnd: '2026-11-23 04:59:59',
        timezone: 'America/New_York',
      });
      assert.equal(res.json.all_day, true);
    });

    it('CE-12: all_day snaps times to whole days and keeps multi-day spans', async () => {
      const res = await t.api.post(
        '/events',
        { title: 'Multi day', all_day: 'true', start_date: '2026-11-22 09:00:00', end_date: '2026-11-26 11:00:00' },
        { as: 'administrator' },
      );
      assertTimes(res, {
        start: '2026-11-22 00:00:00',
        end: '2026-11-26 23:59:59',
        utcStart: '2026-11-22 05:00:00',
        utcEnd: '2026-11-27 04:59:59',
        timezone: 'America/New_York',
      });
      assert.equal(res.json.all_day, true);
      const natural = await t.api.post(
        '/events',
        { title: 'All day natural', all_day: 1, start_date: 'tomorrow 9am', end_date: 'tomorrow 11am' },
        { as: 'administrator' },
      );
      assertTimes(natural, {
        start: '2026-11-22 00:00:00',
        end: '2026-11-22 23:59:59',
        utcStart: '2026-11-22 05:00:00',
        utcEnd: '2026-11-23 04:59:59',
        timezone: 'America/New_York',
      });
    });

    it('a date with an explicit offset is an instant, converted into the event zone (not its digits kept)', async () => {
      const paris = await t.api.post(
        '/events',
        {
          title: 'Offset Paris',
          timezone: 'Europe/Paris',
          start_date: '2026-12-21T18:00:00+02:00',
          end_date: '2026-12-21T20:00:00+02:00',
        },
        { as: 'administrator' },
      );
      assertTimes(paris, {
        start: '2026-12-21 17:00:00',
        end: '2026-12-21 19:00:00',
        utcStart: '2026-12-21 16:00:00',
        utcEnd: '2026-12-21 18:00:00',
        timezone: 'Europe/Paris',
        abbr: 'CET',
      });
      const zulu = await t.api.post(
        '/events',
        { title: 'Offset Z', start_date: '2026-12-21T18:00:00Z', end_date: '2026-12-21T20:00:00Z' },
        { as: 'administrator' },
      );
      assertTimes(zulu, {
        start: '2026-12-21 13:00:00',
        end: '2026-12-21 15:00:00',
        utcStart: '2026-12-21 18:00:00',
        utcEnd: '2026-12-21 20:00:00',
        timezone: 'America/New_York',
        abbr: 'EST',
      });
      const iso = await t.api.post(
        '/events',
        { title: 'ISO local', start_date: '2026-12-21T18:00:00', end_date: '2026-12-21T20:00' },
        { as: 'administrator' },
      );
      assertTimes(iso, {
        start: '2026-12-21 18:00:00',
        end: '2026-12-21 20:00:00',
        utcStart: '2026-12-21 23:00:00',
        utcEnd: '2026-12-22 01:00:00',
        timezone: 'America/New_York',
      });
    });

    it('Unix timestamps are UTC instants', async () => {
      const res = await t.api.post(
        '/events',
        { title: 'Timestamps', start_date: '1797876000', end_date: 1797883200 },
        { as: 'administrator' },
      );
      assertTimes(res, {
        start: '2026-12-21 13:00:00',
        end: '2026-12-21 15:00:00',
        utcStart: '2026-12-21 18:00:00',
        utcEnd: '2026-12-21 20:00:00',
        timezone: 'America/New_York',
      });
      const utc = await t.api.post(
        '/events',
        { title: 'Timestamps UTC', timezone: 'UTC', start_date: 1797876000, end_date: '1797883200' },
        { as: 'administrator' },
      );
      assertTimes(utc, {
        start: '2026-12-21 18:00:00',
        end: '2026-12-21 20:00:00',
        utcStart: '2026-12-21 18:00:00',
        utcEnd: '2026-12-21 20:00:00',
        timezone: 'UTC',
        abbr: 'UTC',
      });
    });

    it('daylight saving time: summer dates use EDT (-4), and a wall-clock time in the spring gap moves forward', async () => {
      const july = await t.api.post(
        '/events',
        { title: 'Fourth of July', start_date: '2026-07-04 21:00:00', end_date: '2026-07-04 23:00:00' },
        { as: 'administrator' },
      );
      assertTimes(july, {
        start: '2026-07-04 21:00:00',
        end: '2026-07-04 23:00:00',
        utcStart: '2026-07-05 01:00:00',
        utcEnd: '2026-07-05 03:00:00',
        timezone: 'America/New_York',
        abbr: 'EDT',
      });
      assert.equal((await t.api.get(`/events/${july.json.id}`)).json.json_ld.startDate, '2026-07-04T21:00:00-04:00');
      const gap = await t.api.post(
        '/events',
        { title: 'Spring gap', start_date: '2026-03-08 02:30:00', end_date: '2026-03-08 04:00:00' },
        { as: 'administrator' },
      );
      assertTimes(gap, {
        start: '2026-03-08 03:30:00',
        end: '2026-03-08 04:00:00',
        utcStart: '2026-03-08 07:30:00',
        utcEnd: '2026-03-08 08:00:00',
        timezone: 'America/New_York',
        abbr: 'EDT',
      });
    });

    it('json_ld dates carry the New York offset on single reads', async () => {
      const res = await t.api.post(
        '/events',
        { title: 'NY LD', start_date: '2026-12-21 18:00:00', end_date: '2026-12-21 20:00:00', cost: '0' },
        { as: 'administrator' },
      );
      const single = await t.api.get(`/events/${res.json.id}`);
      assert.equal(single.status, 200);
      assert.equal(single.json.json_ld.startDate, '2026-12-21T18:00:00-05:00');
      assert.equal(single.json.json_ld.endDate, '2026-12-21T20:00:00-05:00');
      assert.equal(single.json.json_ld.offers.price, '0');
      assert.equal(single.json.json_ld.offers.validFrom, '2026-11-21T00:00:00-05:00');
    });
  });

  describe(`events: create — explicit time zones in a Darwin site [${dialect}]`, () => {
    const t = useTestApp(dialect, { env: { SITE_TIMEZONE: 'Australia/Darwin' } });

    it('without timezone the site zone is used (now = 2026-11-21 18:07:48 ACST)', async () => {
      const res = await t.api.post(
        '/events',
        { title: 'Darwin', start_date: 'tomorrow 9am', end_date: 'tomorrow 11am' },
        { as: 'administrator' },
      );
      assertTimes(res, {
        start: '2026-11-22 09:00:00',
        end: '2026-11-22 11:00:00',
        utcStart: '2026-11-21 23:30:00',
        utcEnd: '2026-11-22 01:30:00',
        timezone: 'Australia/Darwin',
        abbr: 'ACST',
      });
    });

    it('CE-04: timezone decides how the dates are read, and utc_* follow it', async () => {
      const rows: [string, string, string, string, string, string, string, string][] = [
        [
          'America/New_York',
          'tomorrow 9am',
          'tomorrow 11am',
          '2026-11-22 09:00:00',
          '2026-11-22 11:00:00',
          '2026-11-22 14:00:00',
          '2026-11-22 16:00:00',
          'EST',
        ],
        [
          'UTC',
          'tomorrow 11am',
          'tomorrow 1pm',
          '2026-11-22 11:00:00',
          '2026-11-22 13:00:00',
          '2026-11-22 11:00:00',
          '2026-11-22 13:00:00',
          'UTC',
        ],
        [
          'Asia/Hong_Kong',
          '2018-01-01 4pm',
          '2018-01-01 5pm',
          '2018-01-01 16:00:00',
          '2018-01-01 17:00:00',
          '2018-01-01 08:00:00',
          '2018-01-01 09:00:00',
          '',
        ],
        [
          'Europe/Rome',
          'tomorrow 4pm',
          'next wednesday 5pm',
          '2026-11-22 16:00:00',
          '2026-11-25 17:00:00',
          '2026-11-22 15:00:00',
          '2026-11-25 16:00:00',
          'CET',
        ],
      ];
      for (const [timezone, startIn, endIn, start, end, utcStart, utcEnd, abbr] of rows) {
        const res = await t.api.post(
          '/events',
          { title: `TZ ${timezone}`, timezone, start_date: startIn, end_date: endIn },
          { as: 'administrator' },
        );
        assertTimes(res, { start, end, utcStart, utcEnd, timezone, ...(abbr ? { abbr } : {}) }, timezone);
      }
    });

    it('relative dates use "today" of the event zone, not of the site zone', async () => {
      // 15:00 UTC = 00:30 on 22 November in Darwin, still 21 November in UTC.
      t.api.now = new Date('2026-11-21T15:00:00Z');
      try {
        const res = await t.api.post(
          '/events',
          { title: 'Zone today', timezone: 'UTC', start_date: 'tomorrow 11am', end_date: 'tomorrow 1pm' },
          { as: 'administrator' },
        );
        assertTimes(res, {
          start: '2026-11-22 11:00:00',
          end: '2026-11-22 13:00:00',
          utcStart: '2026-11-22 11:00:00',
          utcEnd: '2026-11-22 13:00:00',
          timezone: 'UTC',
        });
      } finally {
        t.api.now = DEFAULT_NOW;
      }
    });

    it("timezone_abbr is the zone's tz-database abbreviation at the start, as TEC (PHP) reports it", async () => {
      const rows: [string, string][] = [
        ['Asia/Hong_Kong', 'HKT'],
        ['Asia/Tokyo', 'JST'],
        ['Europe/Moscow', 'MSK'],
        ['Australia/Sydney', 'AEDT'],
        ['America/Juneau', 'AKST'],
        ['Asia/Singapore', '+08'],
      ];
      const actual: [string, string][] = [];
      for (const [timezone] of rows) {
        const res = await t.api.post(
          '/events',
          { title: `Abbr ${timezone}`, timezone, ...UTC_DAY },
          { as: 'administrator' },
        );
        assert.equal(res.status, 201, res.text);
        actual.push([timezone, res.json.timezone_abbr]);
      }
      assert.deepEqual(actual, rows);
    });

    it('UTC±N zones are kept as given and are their own abbreviation', async () => {
      const plus = await t.api.post(
        '/events',
        { title: 'UTC plus two', timezone: 'UTC+2', ...UTC_DAY },
        { as: 'administrator' },
      );
      assertTimes(plus, {
        start: '2026-12-21 18:00:00',
        end: '2026-12-21 20:00:00',
        utcStart: '2026-12-21 16:00:00',
        utcEnd: '2026-12-21 18:00:00',
        timezone: 'UTC+2',
        abbr: 'UTC+2',
      });
      const minus = await t.api.post(
        '/events',
        { title: 'UTC minus five thirty', timezone: 'UTC-5:30', ...UTC_DAY },
        { as: 'administrator' },
      );
      assertTimes(minus, {
        start: '2026-12-21 18:00:00',
        end: '2026-12-21 20:00:00',
        utcStart: '2026-12-21 23:30:00',
        utcEnd: '2026-12-22 01:30:00',
        timezone: 'UTC-5:30',
        abbr: 'UTC-5:30',
      });
      const single = await t.api.get(`/events/${plus.json.id}`);
      assert.equal(single.json.json_ld.startDate, '2026-12-21T18:00:00+02:00');
    });
  });

  describe(`events: create — validation [${dialect}]`, () => {
    const t = useTestApp(dialect);
    const base = { title: 'Valid event', ...UTC_DAY };

    it('CE-05: a missing title is rest_missing_callback_param ["title"]', async () => {
      const res = await t.api.post('/events', UTC_DAY, { as: 'administrator' });
      assert.equal(res.status, 400);
      assert.deepEqual(res.json, {
        code: 'rest_missing_callback_param',
        message: 'Missing parameter(s): title',
        data: { status: 400, params: ['title'] },
      });
    });

    it('CE-05: missing start_date and end_date are listed in declaration order', async () => {
      const res = await t.api.post('/events', { title: 'No dates' }, { as: 'administrator' });
      assert.equal(res.status, 400);
      assert.deepEqual(res.json, {
        code: 'rest_missing_callback_param',
        message: 'Missing parameter(s): start_date, end_date',
        data: { status: 400, params: ['start_date', 'end_date'] },
      });
      const all = await t.api.post('/events', {}, { as: 'administrator' });
      assert.deepEqual(all.json.data.params, ['title', 'start_date', 'end_date']);
      assert.equal(await postsTitled(t.api, 'No dates'), 0);
    });

    it('CE-05: empty or unreadable required values are rest_invalid_param naming the parameter', async () => {
      const res = await t.api.post('/events', { ...base, start_date: 'not-a-date' }, { as: 'administrator' });
      assert.equal(res.status, 400);
      assert.equal(res.json.code, 'rest_invalid_param');
      assert.equal(res.json.message, 'Invalid parameter(s): start_date');
      assert.deepEqual(Object.keys(res.json.data.params), ['start_date']);
      const cases: [Record<string, unknown>, string][] = [
        [{ ...base, title: '' }, 'title'],
        [{ ...base, title: '   ' }, 'title'],
        [{ ...base, start_date: '' }, 'start_date'],
        [{ ...base, end_date: '' }, 'end_date'],
        [{ ...base, end_date: 'not a strtotime parsable string' }, 'end_date'],
        [{ ...base, start_date: '2026-02-31 10:00:00' }, 'start_date'],
      ];
      for (const [body, param] of cases)
        assertInvalidParam(await t.api.post('/events', body, { as: 'administrator' }), param, JSON.stringify(body));
      assert.equal(await postsTitled(t.api, 'Valid event'), 0);
    });

    it('CE-06: bad optional values are 400 naming them (author, date, date_utc, website, timezone, status, flags)', async () => {
      const cases: [Record<string, unknown>, string][] = [
        [{ ...base, author: 999999 }, 'author'],
        [{ ...base, author: '' }, 'author'],
        [{ ...base, date: 'foo' }, 'date'],
        [{ ...base, date_utc: 'foo' }, 'date_utc'],
        [{ ...base, website: 'foo' }, 'website'],
        [{ ...base, timezone: 'Mars/Olympus_Mons' }, 'timezone'],
        [{ ...base, timezone: 'UTC+99' }, 'timezone'],
        [{ ...base, status: 'kinda_published' }, 'status'],
        [{ ...base, featured: 'maybe' }, 'featured'],
        [{ ...base, all_day: 'sometimes' }, 'all_day'],
      ];
      for (const [body, param] of cases)
        assertInvalidParam(await t.api.post('/events', body, { as: 'administrator' }), param, JSON.stringify(body));
      assert.equal(await postsTitled(t.api, 'Valid event'), 0);
    });

    it('CE-07: author may be set to an existing user', async () => {
      const author = await t.api.user('author');
      const res = await t.api.post(
        '/events',
        { ...base, title: 'Authored', author: author.id },
        { as: 'administrator' },
      );
      assert.equal(res.status, 201, res.text);
      assert.equal(res.json.author, String(author.id));
    });

    it('CE-10: generated fields sent in the body are ignored', async () => {
      const sent: Record<string, unknown> = {
        url: 'http://example.com',
        rest_url: 'http://example.com/api/some/path/event',
        utc_start_date: 'foo',
        utc_start_date_details: 'foo',
        utc_end_date: 'foo',
        utc_end_date_details: 'foo',
        start_date_details: 'foo',
        end_date_details: 'foo',
        timezone_abbr: 'foo',
        cost_details: 'foo',
        global_id: 'evil.example?id=1',
        id: 424242,
      };
      for (const [key, value] of Object.entries(sent)) {
        const res = await t.api.post(
          '/events',
          { ...base, title: `Ignored ${key}`, date_utc: 'tomorrow 9am', [key]: value },
          { as: 'administrator' },
        );
        assert.equal(res.status, 201, `${key}: ${res.text}`);
        assert.notDeepEqual(res.json[key], value, key);
      }
      const one = await t.api.post('/events', { ...base, title: 'Ignored all', ...sent }, { as: 'administrator' });
      assert.equal(one.json.utc_start_date, '2026-12-21 18:00:00');
      assert.equal(one.json.timezone_abbr, 'UTC');
      assert.notEqual(one.json.id, 424242);
    });

    it('end before start is 400 naming end_date and creates nothing; end equal to start is fine', async () => {
      const res = await t.api.post(
        '/events',
        { title: 'Backwards', start_date: '2026-12-21 20:00:00', end_date: '2026-12-21 18:00:00' },
        { as: 'administrator' },
      );
      assert.equal(res.status, 400, res.text);
      assert.equal(res.json.code, 'rest_invalid_param');
      assert.equal(res.json.message, 'Invalid parameter(s): end_date');
      assert.deepEqual(Object.keys(res.json.data.params), ['end_date']);
      assert.equal(await postsTitled(t.api, 'Backwards'), 0);
      const allDay = await t.api.post(
        '/events',
        { title: 'Backwards days', all_day: true, start_date: '2026-12-22', end_date: '2026-12-21' },
        { as: 'administrator' },
      );
      assertInvalidParam(allDay, 'end_date');
      assert.equal(await postsTitled(t.api, 'Backwards days'), 0);
      const zones = await t.api.post(
        '/events',
        { title: 'Backwards offsets', start_date: '2026-12-21T18:00:00+00:00', end_date: '2026-12-21T19:00:00+02:00' },
        { as: 'administrator' },
      );
      assertInvalidParam(zones, 'end_date', 'offsets compared as instants');
      const instant = await t.api.post(
        '/events',
        { title: 'Instant', start_date: '2026-12-21 18:00:00', end_date: '2026-12-21 18:00:00' },
        { as: 'administrator' },
      );
      assert.equal(instant.status, 201, instant.text);
      assert.equal(instant.json.end_date, '2026-12-21 18:00:00');
      assert.equal(instant.json.utc_end_date, '2026-12-21 18:00:00');
    });

    it('form bodies and query parameters are accepted, with the JSON body winning; bad JSON is rest_invalid_json', async () => {
      const form = await t.api.post(
        '/events',
        { title: 'Form event', ...UTC_DAY, featured: '1', categories: 'Alpha,Beta', cost: '5', all_day: 'false' },
        { as: 'administrator', form: true },
      );
      assert.equal(form.status, 201, form.text);
      assert.deepEqual(
        [form.json.title, form.json.featured, form.json.all_day, form.json.cost],
        ['Form event', true, false, '$5'],
      );
      assert.deepEqual(
        form.json.categories.map((c: Json) => c.name),
        ['Alpha', 'Beta'],
      );
      const query = await t.api.post('/events', UTC_DAY, {
        as: 'administrator',
        query: { title: 'From the query', 'tags[]': ['q1', 'q2'] },
      });
      assert.equal(query.status, 201, query.text);
      assert.equal(query.json.title, 'From the query');
      assert.deepEqual(
        query.json.tags.map((c: Json) => c.name),
        ['q1', 'q2'],
      );
      const both = await t.api.post(
        '/events',
        { title: 'Body wins', ...UTC_DAY },
        { as: 'administrator', query: { title: 'Query loses' } },
      );
      assert.equal(both.json.title, 'Body wins');
      const bad = await t.api.post('/events', '{"title": "Broken",', { as: 'administrator' });
      assert.equal(bad.status, 400);
      assert.equal(bad.json.code, 'rest_invalid_json');
      assert.equal(bad.json.message, 'Invalid JSON body passed.');
      assert.equal(await postsTitled(t.api, 'Broken'), 0);
      const nullTitle = await t.api.post('/events', { title: null, ...UTC_DAY }, { as: 'administrator' });
      assert.deepEqual(nullTitle.json.data.params, ['title']);
    });

    it('descriptions are sanitised (no script, event handlers or javascript: URLs) and wrapped in <p>', async () => {
      const res = await t.api.post(
        '/events',
        {
          ...base,
          title: 'Sanitised',
          description:
            '<script>alert(1)</script><p onclick="steal()">Hi <a href="javascript:alert(1)">there</a> <a href="https://example.org/">ok</a></p>',
          excerpt: 'Plain <style>p{}</style>text',
        },
        { as: 'administrator' },
      );
      assert.equal(res.status, 201, res.text);
      assert.doesNotMatch(res.json.description, /script|onclick|javascript:|alert/);
      assert.match(res.json.description, /^<p>Hi <a>there<\/a> <a href="https:\/\/example.org\/">ok<\/a><\/p>$/);
      assert.doesNotMatch(res.json.excerpt, /style|p\{\}/);
      assert.match(res.json.excerpt, /^<p>Plain\s*text<\/p>$/);
    });

    it('anonymous is 401 and a subscriber 403 (rest_forbidden)', async () => {
      const anon = await t.api.post('/events', { ...base, title: 'Anon' });
      assert.equal(anon.status, 401);
      assert.deepEqual(anon.json, {
        code: 'rest_forbidden',
        message: 'Sorry, you are not allowed to do that.',
        data: { status: 401 },
      });
      const sub = await t.api.post('/events', { ...base, title: 'Sub' }, { as: 'subscriber' });
      assert.equal(sub.status, 403);
      assert.equal(sub.json.code, 'rest_forbidden');
      assert.equal(sub.json.data.status, 403);
      assert.equal(await postsTitled(t.api, 'Anon'), 0);
      assert.equal(await postsTitled(t.api, 'Sub'), 0);
    });
  });

  describe(`events: create — cost, flags, status, slug, website, password, parent, image [${dialect}]`, () => {
    const t = useTestApp(dialect);
    const base = { title: 'Field event', ...UTC_DAY };

    it("CE-19 / CE-20 and other cost forms give TEC's cost and cost_details", async () => {
      const rows: [unknown, string, Record<string, unknown>][] = [
        ['20$', '20$', { currency_symbol: '$', currency_code: '', currency_position: 'postfix', values: ['20'] }],
        [
          ['0$', '20$', '30$'],
          'Free – 30$',
          { currency_symbol: '$', currency_code: '', currency_position: 'postfix', values: ['0', '20', '30'] },
        ],
        ['0', 'Free', { currency_symbol: '', currency_code: '', currency_position: '', values: ['0'] }],
        ['10', '$10', { currency_symbol: '', currency_code: '', currency_position: '', values: ['10'] }],
        [25, '$25', { currency_symbol: '', currency_code: '', currency_position: '', values: ['25'] }],
        ['$10', '$10', { currency_symbol: '$', currency_code: '', currency_position: 'prefix', values: ['10'] }],
        [
          '€6.50 - €8.50',
          '€6.50 – €8.50',
          { currency_symbol: '€', currency_code: '', currency_position: 'prefix', values: ['6.5', '8.5'] },
        ],
        [
          ['30', '5', '12'],
          '$5 – $30',
          { currency_symbol: '', currency_code: '', currency_position: '', values: ['5', '12', '30'] },
        ],
        ['Donation', 'Donation', { currency_symbol: '', currency_code: '', currency_position: '', values: [] }],
        ['', '', { currency_symbol: '', currency_code: '', currency_position: '', values: [] }],
      ];
      for (const [cost, formatted, detailsExpected] of rows) {
        const res = await t.api.post('/events', { ...base, cost }, { as: 'administrator' });
        assert.equal(res.status, 201, `${JSON.stringify(cost)}: ${res.text}`);
        assert.equal(res.json.cost, formatted, JSON.stringify(cost));
        assert.deepEqual(res.json.cost_details, detailsExpected, JSON.stringify(cost));
        assert.deepEqual(Object.keys(res.json.cost_details), [
          'currency_symbol',
          'currency_code',
          'currency_position',
          'values',
        ]);
      }
      const none = await t.api.post('/events', base, { as: 'administrator' });
      assert.equal(none.json.cost, '');
      assert.deepEqual(none.json.cost_details.values, []);
    });

    it('CE-21 / website: echoed when set, "" when unset (no permalink fallback)', async () => {
      const set = await t.api.post('/events', { ...base, website: 'http://example.com' }, { as: 'administrator' });
      assert.equal(set.json.website, 'http://example.com');
      const unset = await t.api.post('/events', base, { as: 'administrator' });
      assert.equal(unset.json.website, '');
    });

    it('CE-23 / CE-24: presentation flags default to false and each can be set by editors and authors', async () => {
      const plain = await t.api.post('/events', base, { as: 'administrator' });
      assert.deepEqual(
        [
          plain.json.show_map,
          plain.json.show_map_link,
          plain.json.hide_from_listings,
          plain.json.sticky,
          plain.json.featured,
        ],
        [false, false, false, false, false],
      );
      for (const role of ['editor', 'author'] as const) {
        for (const flag of ['show_map', 'show_map_link', 'hide_from_listings', 'sticky', 'featured']) {
          const res = await t.api.post('/events', { ...base, [flag]: true }, { as: role });
          assert.equal(res.status, 201, res.text);
          assert.equal(res.json[flag], true, `${role} ${flag}`);
          for (const other of ['show_map', 'show_map_link', 'hide_from_listings', 'sticky', 'featured'].filter(
            (f) => f !== flag,
          ))
            assert.equal(res.json[other], false, `${role} ${flag} → ${other}`);
        }
      }
      const falsy = await t.api.post(
        '/events',
        { ...base, hide_from_listings: 'false', featured: 'yes', sticky: '0', show_map: 'on' },
        { as: 'editor' },
      );
      assert.deepEqual(
        [falsy.json.hide_from_listings, falsy.json.featured, falsy.json.sticky, falsy.json.show_map],
        [false, true, false, true],
      );
    });

    it('CE-25 / CE-26: status is scaled by role', async () => {
      const rows: [string, string | undefined, string][] = [
        ['contributor', 'publish', 'pending'],
        ['contributor', 'future', 'pending'],
        ['contributor', undefined, 'draft'],
        ['contributor', 'draft', 'draft'],
        ['contributor', 'pending', 'pending'],
        ['author', 'publish', 'publish'],
        ['author', undefined, 'publish'],
        ['author', 'draft', 'draft'],
        ['editor', 'publish', 'publish'],
        ['editor', 'private', 'private'],
        ['administrator', 'publish', 'publish'],
        ['administrator', undefined, 'publish'],
      ];
      for (const [role, status, expected] of rows) {
        const res = await t.api.post('/events', { ...base, ...(status ? { status } : {}) }, { as: role as 'author' });
        assert.equal(res.status, 201, `${role} ${status}: ${res.text}`);
        assert.equal(res.json.status, expected, `${role} asking ${status}`);
        assert.equal(res.json.author, String((await t.api.user(role as 'author')).id));
      }
    });

    it('slugs are generated from the title, folded, unique by -2/-3; drafts without slug keep ""', async () => {
      const a = await t.api.post('/events', { ...base, title: 'Same Title' }, { as: 'administrator' });
      const b = await t.api.post('/events', { ...base, title: 'Same Title' }, { as: 'administrator' });
      const c = await t.api.post('/events', { ...base, title: 'Other', slug: 'same-title' }, { as: 'administrator' });
      assert.deepEqual([a.json.slug, b.json.slug, c.json.slug], ['same-title', 'same-title-2', 'same-title-3']);
      assert.equal(b.json.url, `${BASE}/event/same-title-2/`);
      const folded = await t.api.post('/events', { ...base, title: 'Café Élysée: Été 2026!' }, { as: 'administrator' });
      assert.equal(folded.json.slug, 'cafe-elysee-ete-2026');
      const draft = await t.api.post(
        '/events',
        { ...base, title: 'Draft no slug', status: 'draft' },
        { as: 'administrator' },
      );
      assert.equal(draft.json.slug, '');
      assert.equal(draft.json.url, `${BASE}/?post_type=tribe_events&p=${draft.json.id}`);
      const contributor = await t.api.post('/events', { ...base, title: 'Contributor no slug' }, { as: 'contributor' });
      assert.equal(contributor.json.slug, '');
      const named = await t.api.post(
        '/events',
        { ...base, title: 'Draft with slug', slug: 'My Draft Slug', status: 'draft' },
        { as: 'administrator' },
      );
      assert.equal(named.json.slug, 'my-draft-slug');
    });

    it('a long series sharing a title gets the first free suffix, past fifty and in a freed gap', async () => {
      const slugs: string[] = [];
      for (let i = 0; i < 53; i++) {
        const res = await t.api.post('/events', { ...base, title: 'Weekly Yoga' }, { as: 'administrator' });
        assert.equal(res.status, 201, res.text);
        slugs.push(res.json.slug);
      }
      assert.deepEqual(slugs, ['weekly-yoga', ...Array.from({ length: 52 }, (_, i) => `weekly-yoga-${i + 2}`)]);
      const seventh = (await t.api.get('/events/by-slug/weekly-yoga-7', { as: 'administrator' })).json.id;
      assert.equal(
        (await t.api.delete(`/events/${seventh}`, { query: { force: true }, as: 'administrator' })).status,
        200,
      );
      const refill = await t.api.post('/events', { ...base, title: 'Weekly Yoga' }, { as: 'administrator' });
      const next = await t.api.post('/events', { ...base, title: 'Weekly Yoga' }, { as: 'administrator' });
      assert.deepEqual([refill.json.slug, next.json.slug], ['weekly-yoga-7', 'weekly-yoga-54']);
    });

    it('slugs stay unique under concurrent creates', async () => {
      await t.api.user('administrator');
      const results = await Promise.all(
        Array.from({ length: 6 }, () =>
          t.api.post('/events', { ...base, title: 'Race Night' }, { as: 'administrator' }),
        ),
      );
      for (const res of results) assert.equal(res.status, 201, res.text);
      assert.deepEqual(results.map((r) => r.json.slug).sort(), [
        'race-night',
        'race-night-2',
        'race-night-3',
        'race-night-4',
        'race-night-5',
        'race-night-6',
      ]);
    });

    // Tags are stripped on write (API.md §18; this test kept them before issue 23).
    it('titles are returned as plain text, tags stripped, not entity-encoded', async () => {
      const res = await t.api.post(
        '/events',
        { ...base, title: 'Rock & Roll "Live" – it\'s <b>on</b>' },
        { as: 'administrator' },
      );
      assert.equal(res.json.title, 'Rock & Roll "Live" – it\'s on');
      assert.equal(res.json.slug, 'rock-roll-live-its-on');
    });

    it('password: a protected event is refused without it and readable with it', async () => {
      const res = await t.api.post(
        '/events',
        { ...base, title: 'Secret gig', password: 'open sesame' },
        { as: 'administrator' },
      );
      assert.equal(res.status, 201, res.text);
      assert.equal(res.json.title, 'Secret gig');
      const locked = await t.api.get(`/events/${res.json.id}`);
      assert.equal(locked.status, 403);
      assert.equal(locked.json.code, 'event-password-protected');
      const unlocked = await t.api.get(`/events/${res.json.id}`, { query: { password: 'open sesame' } });
      assert.equal(unlocked.status, 200);
      const open = await t.api.post('/events', { ...base, title: 'Open gig', password: '' }, { as: 'administrator' });
      assert.equal((await t.api.get(`/events/${open.json.id}`)).status, 200);
    });

    it('post_parent links to an existing event (filterable), anything else is 400', async () => {
      const parent = await t.api.post('/events', { ...base, title: 'Parent' }, { as: 'administrator' });
      const child = await t.api.post(
        '/events',
        { ...base, title: 'Child', post_parent: parent.json.id },
        { as: 'administrator' },
      );
      assert.equal(child.status, 201, child.text);
      const list = await t.api.get('/events', { query: { post_parent: parent.json.id } });
      assert.deepEqual(
        list.json.events.map((e: Json) => e.id),
        [child.json.id],
      );
      const venue = await t.api.post('/venues', { venue: 'Not an event' }, { as: 'administrator' });
      assertInvalidParam(
        await t.api.post('/events', { ...base, title: 'Orphan', post_parent: venue.json.id }, { as: 'administrator' }),
        'post_parent',
      );
      assertInvalidParam(
        await t.api.post('/events', { ...base, title: 'Orphan', post_parent: 999999 }, { as: 'administrator' }),
        'post_parent',
      );
      assertInvalidParam(
        await t.api.post('/events', { ...base, title: 'Orphan', post_parent: 'abc' }, { as: 'administrator' }),
        'post_parent',
      );
      assert.equal(await postsTitled(t.api, 'Orphan'), 0);
    });

    it('CE-16 / CE-17 / CE-18: image by URL creates an image record, by id reuses it; bad values and non-uploaders are 400', async () => {
      const res = await t.api.post(
        '/events',
        { ...base, image: 'https://example.org/images/poster.jpg' },
        { as: 'administrator' },
      );
      assert.equal(res.status, 201, res.text);
      assert.equal(res.json.image.url, 'https://example.org/images/poster.jpg');
      assert.equal(res.json.image.extension, 'jpg');
      assert.equal(typeof res.json.image.id, 'number');
      const byId = await t.api.post('/events', { ...base, image: res.json.image.id }, { as: 'author' });
      assert.equal(byId.status, 201, byId.text);
      assert.deepEqual(byId.json.image, res.json.image);
      const sameUrl = await t.api.post(
        '/events',
        { ...base, image: 'https://example.org/images/poster.jpg' },
        { as: 'editor' },
      );
      assert.equal(sameUrl.json.image.id, res.json.image.id);
      for (const image of ['foo bar', 999999, 'https://example.org/files/data.raw', 'ftp://example.org/a.png']) {
        assertInvalidParam(
          await t.api.post('/events', { ...base, title: 'Bad image', image }, { as: 'administrator' }),
          'image',
          String(image),
        );
      }
      const contributor = await t.api.post(
        '/events',
        { ...base, title: 'Bad image', image: 'https://example.org/images/other.png' },
        { as: 'contributor' },
      );
      assertInvalidParam(contributor, 'image', 'contributor');
      assert.equal(await postsTitled(t.api, 'Bad image'), 0);
    });
  });

  describe(`events: create — venue, organizers, categories and tags [${dialect}]`, () => {
    const t = useTestApp(dialect);
    const base = { title: 'Linked event', ...UTC_DAY };

    it('CE-27: venue by id and by {"id": n}', async () => {
      const venue = await t.api.post('/venues', { venue: 'Known Hall', city: 'Springfield' }, { as: 'administrator' });
      const byId = await t.api.post('/events', { ...base, venue: venue.json.id }, { as: 'administrator' });
      assert.equal(byId.status, 201, byId.text);
      assert.equal(byId.json.venue.id, venue.json.id);
      assert.equal(byId.json.venue.venue, 'Known Hall');
      assert.equal(byId.json.venue.city, 'Springfield');
      const byObject = await t.api.post('/events', { ...base, venue: { id: venue.json.id } }, { as: 'administrator' });
      assert.equal(byObject.json.venue.id, venue.json.id);
      const byString = await t.api.post('/events', { ...base, venue: String(venue.json.id) }, { as: 'administrator' });
      assert.equal(byString.json.venue.id, venue.json.id);
      const none = await t.api.post('/events', base, { as: 'administrator' });
      assert.deepEqual(none.json.venue, []);
    });

    it('CE-28: an inline venue is created with the venue rules, and reused when the same name exists', async () => {
      const res = await t.api.post(
        '/events',
        {
          ...base,
          venue: {
            venue: 'Parliament Hill',
            address: 'Wellington St',
            city: 'Ottawa',
            country: 'Canada',
            province: 'ON',
            zip: 'K1A 0A9',
            phone: '+1 613-992-4793',
            website: 'http://parl.ca',
            description: 'The <b>hill</b>',
            show_map: true,
            show_map_link: true,
          },
        },
        { as: 'administrator' },
      );
      assert.equal(res.status, 201, res.text);
      const v = res.json.venue;
      assert.equal(typeof v.id, 'number');
      assert.deepEqual(
        [
          v.venue,
          v.address,
          v.city,
          v.country,
          v.province,
          v.zip,
          v.phone,
          v.website,
          v.stateprovince,
          v.show_map,
          v.show_map_link,
          v.status,
          v.slug,
        ],
        [
          'Parliament Hill',
          'Wellington St',
          'Ottawa',
          'Canada',
          'ON',
          'K1A 0A9',
          '+1 613-992-4793',
          'http://parl.ca',
          'ON',
          true,
          true,
          'publish',
          'parliament-hill',
        ],
      );
      assert.equal(v.description, '<p>The <b>hill</b></p>');
      const stored = await t.api.get(`/venues/${v.id}`);
      assert.equal(stored.status, 200);
      assert.equal(stored.json.venue, 'Parliament Hill');
      const again = await t.api.post(
        '/events',
        { ...base, venue: { venue: 'parliament hill' } },
        { as: 'administrator' },
      );
      assert.equal(again.status, 201, again.text);
      assert.equal(again.json.venue.id, v.id);
      assert.equal(await postsTitled(t.api, 'Parliament Hill'), 1);
    });

    it('unknown or malformed venues are 400 naming venue and create nothing', async () => {
      const organizer = await t.api.post(
        '/organizers',
        { organizer: 'An organizer, not a venue' },
        { as: 'administrator' },
      );
      const cases: unknown[] = [
        999999,
        { id: 999999 },
        organizer.json.id,
        { website: 'http://example.com' },
        'foo',
        { venue: '' },
      ];
      for (const venue of cases) {
        const res = await t.api.post('/events', { ...base, title: 'Bad venue', venue }, { as: 'administrator' });
        assertInvalidParam(res, 'venue', JSON.stringify(venue));
      }
      assert.equal(await postsTitled(t.api, 'Bad venue'), 0);
    });

    it('CE-29..CE-33: organizers by id, list, CSV, inline objects and mixed, order kept', async () => {
      const o1 = await t.api.post('/organizers', { organizer: 'Organizer One' }, { as: 'administrator' });
      const o2 = await t.api.post('/organizers', { organizer: 'Organizer Two' }, { as: 'administrator' });
      const single = await t.api.post('/events', { ...base, organizer: o1.json.id }, { as: 'administrator' });
      assert.deepEqual(
        single.json.organizer.map((o: Json) => o.id),
        [o1.json.id],
      );
      const list = await t.api.post(
        '/events',
        { ...base, organizer: [o2.json.id, o1.json.id] },
        { as: 'administrator' },
      );
      assert.deepEqual(
        list.json.organizer.map((o: Json) => o.id),
        [o2.json.id, o1.json.id],
      );
      const csv = await t.api.post(
        '/events',
        { ...base, organizer: `${o1.json.id},${o2.json.id}` },
        { as: 'administrator' },
      );
      assert.deepEqual(
        csv.json.organizer.map((o: Json) => o.id),
        [o1.json.id, o2.json.id],
      );
      const inline = await t.api.post(
        '/events',
        {
          ...base,
          organizer: [
            { organizer: 'Organizer A', email: 'a@example.org' },
            { organizer: 'Organizer B' },
            { organizer: 'Organizer C' },
          ],
        },
        { as: 'administrator' },
      );
      assert.equal(inline.status, 201, inline.text);
      assert.deepEqual(
        inline.json.organizer.map((o: Json) => o.organizer),
        ['Organizer A', 'Organizer B', 'Organizer C'],
      );
      assert.equal(inline.json.organizer[0].email, 'a@example.org');
      for (const o of inline.json.organizer) assert.equal(typeof o.id, 'number');
      const mixed = await t.api.post(
        '/events',
        {
          ...base,
          organizer: [{ organizer: 'Organizer A' }, { id: o1.json.id }, o2.json.id, { organizer: 'Organizer D' }],
        },
        { as: 'administrator' },
      );
      assert.equal(mixed.status, 201, mixed.text);
      assert.deepEqual(
        mixed.json.organizer.map((o: Json) => o.organizer),
        ['Organizer A', 'Organizer One', 'Organizer Two', 'Organizer D'],
      );
      assert.equal(
        mixed.json.organizer[0].id,
        inline.json.organizer[0].id,
        'an inline organizer with an existing name is reused',
      );
      assert.deepEqual(
        mixed.json.organizer.slice(1, 3).map((o: Json) => o.id),
        [o1.json.id, o2.json.id],
      );
      const none = await t.api.post('/events', base, { as: 'administrator' });
      assert.deepEqual(none.json.organizer, []);
    });

    it('unknown or malformed organizers are 400 naming organizer and create nothing', async () => {
      const venue = await t.api.post('/venues', { venue: 'A venue, not an organizer' }, { as: 'administrator' });
      const cases: unknown[] = [
        999999,
        [999999],
        [venue.json.id],
        [{ organizer: 'Good one' }, { website: 'http://example.com' }],
        [{ id: 999999 }],
      ];
      for (const organizer of cases) {
        assertInvalidParam(
          await t.api.post('/events', { ...base, title: 'Bad organizer', organizer }, { as: 'administrator' }),
          'organizer',
          JSON.stringify(organizer),
        );
      }
      assert.equal(await postsTitled(t.api, 'Bad organizer'), 0);
      assert.equal(await postsTitled(t.api, 'Good one'), 0, 'inline organizers of a rejected write are not created');
    });

    it('CE-35..CE-42: categories and tags by id and slug, in order; new names are created by editors', async () => {
      const c1 = await t.api.post('/categories', { name: 'Category One' }, { as: 'administrator' });
      const c2 = await t.api.post('/categories', { name: 'Category Two' }, { as: 'administrator' });
      const t1 = await t.api.post('/tags', { name: 'Tag One' }, { as: 'administrator' });
      const t2 = await t.api.post('/tags', { name: 'Tag Two' }, { as: 'administrator' });
      const ids = await t.api.post(
        '/events',
        { ...base, categories: [c2.json.id, c1.json.id], tags: [t1.json.id, t2.json.id] },
        { as: 'editor' },
      );
      assert.equal(ids.status, 201, ids.text);
      assert.deepEqual(
        ids.json.categories.map((c: Json) => c.id),
        [c2.json.id, c1.json.id],
      );
      assert.deepEqual(
        ids.json.tags.map((c: Json) => c.id),
        [t1.json.id, t2.json.id],
      );
      assert.deepEqual(
        ids.json.categories.map((c: Json) => c.taxonomy),
        ['tribe_events_cat', 'tribe_events_cat'],
      );
      assert.deepEqual(
        ids.json.tags.map((c: Json) => c.taxonomy),
        ['post_tag', 'post_tag'],
      );
      const slugs = await t.api.post(
        '/events',
        { ...base, categories: 'category-one', tags: ['tag-two'] },
        { as: 'editor' },
      );
      assert.deepEqual(
        slugs.json.categories.map((c: Json) => c.id),
        [c1.json.id],
      );
      assert.deepEqual(
        slugs.json.tags.map((c: Json) => c.id),
        [t2.json.id],
      );
      const created = await t.api.post(
        '/events',
        { ...base, categories: 'cat1,cat2', tags: 'tag1,tag2' },
        { as: 'editor' },
      );
      assert.equal(created.status, 201, created.text);
      assert.deepEqual(
        created.json.categories.map((c: Json) => c.name),
        ['cat1', 'cat2'],
      );
      assert.deepEqual(
        created.json.tags.map((c: Json) => c.name),
        ['tag1', 'tag2'],
      );
      const listed = await t.api.get('/categories', { query: { slug: 'cat1' } });
      assert.equal(listed.json.categories.length, 1);
      assert.equal(listed.json.categories[0].id, created.json.categories[0].id);
      assert.equal(listed.json.categories[0].count, 1);
      const mixed = await t.api.post(
        '/events',
        { ...base, categories: [c1.json.id, 'cat3'], tags: [t1.json.id, 'tag3'] },
        { as: 'editor' },
      );
      assert.deepEqual(
        mixed.json.categories.map((c: Json) => c.name),
        ['Category One', 'cat3'],
      );
      assert.deepEqual(
        mixed.json.tags.map((c: Json) => c.name),
        ['Tag One', 'tag3'],
      );
      const reuse = await t.api.post('/events', { ...base, categories: 'cat1' }, { as: 'editor' });
      assert.deepEqual(
        reuse.json.categories.map((c: Json) => c.id),
        [created.json.categories[0].id],
        'an existing slug is not created again',
      );
      assert.equal(await termsNamed(t.api, 'cat1'), 1);
      const empty = await t.api.post('/events', { ...base, categories: '', tags: [] }, { as: 'editor' });
      assert.deepEqual([empty.json.categories, empty.json.tags], [[], []]);
    });

    it("inline term creation needs the right to manage terms: a contributor's unknown name is 400 and nothing is created", async () => {
      const known = await t.api.post('/categories', { name: 'Known Category' }, { as: 'administrator' });
      const denied = await t.api.post(
        '/events',
        { ...base, title: 'Contributor terms', categories: ['known-category', 'Brand New Category'] },
        { as: 'contributor' },
      );
      assertInvalidParam(denied, 'categories');
      assert.equal(await postsTitled(t.api, 'Contributor terms'), 0);
      assert.equal(await termsNamed(t.api, 'Brand New Category'), 0);
      const deniedTag = await t.api.post(
        '/events',
        { ...base, title: 'Contributor terms', tags: 'brand-new-tag' },
        { as: 'contributor' },
      );
      assertInvalidParam(deniedTag, 'tags');
      assert.equal(await termsNamed(t.api, 'brand-new-tag'), 0);
      const allowed = await t.api.post(
        '/events',
        { ...base, title: 'Contributor terms', categories: [known.json.id] },
        { as: 'contributor' },
      );
      assert.equal(allowed.status, 201, allowed.text);
      assert.deepEqual(
        allowed.json.categories.map((c: Json) => c.id),
        [known.json.id],
      );
      assert.equal(allowed.json.categories[0].count, 0, 'a pending event does not count');
      // Authors may manage categories but not tags.
      const authorCategory = await t.api.post(
        '/events',
        { ...base, title: 'Author terms', categories: 'Author Category' },
        { as: 'author' },
      );
      assert.equal(authorCategory.status, 201, authorCategory.text);
      assert.equal(authorCategory.json.categories[0].name, 'Author Category');
      const authorTag = await t.api.post(
        '/events',
        { ...base, title: 'Author tag', tags: 'Author Tag' },
        { as: 'author' },
      );
      assertInvalidParam(authorTag, 'tags');
      assert.equal(await termsNamed(t.api, 'Author Tag'), 0);
      assert.equal(await postsTitled(t.api, 'Author tag'), 0);
    });

    it('a write rejected for one field creates none of its inline venue, organizers or terms', async () => {
      const res = await t.api.post(
        '/events',
        {
          title: 'Atomic',
          start_date: '2026-12-21 20:00:00',
          end_date: '2026-12-21 18:00:00',
          venue: { venue: 'Atomic Hall' },
          organizer: [{ organizer: 'Atomic Org' }],
          categories: 'Atomic Cat',
        },
        { as: 'administrator' },
      );
      assert.equal(res.status, 400);
      assert.equal(await postsTitled(t.api, 'Atomic'), 0);
      assert.equal(await postsTitled(t.api, 'Atomic Hall'), 0);
      assert.equal(await postsTitled(t.api, 'Atomic Org'), 0);
      assert.equal(await termsNamed(t.api, 'Atomic Cat'), 0);
    });
  });
}
