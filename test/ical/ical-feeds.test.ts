import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { testDialects } from '../helpers/databases.js';
import { useTestApp, type TestApi } from '../helpers/app.js';
import { createEvent } from '../helpers/factories.js';
import { assertWellFormed, parseCalendar, type ParsedEvent } from '../helpers/ical.js';

const ORIGIN = 'http://127.0.0.1:8080';
// Response bodies are arbitrary JSON by nature.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const feed = (api: TestApi, path = '/ical/events.ics', headers: Record<string, string> = {}) =>
  api.get(path, { raw: true, headers });
const utcMs = (text: string) => Date.parse(`${text.replace(' ', 'T')}Z`);

function eventOf(events: ParsedEvent[], json: Json): ParsedEvent {
  const found = events.find((event) => event.uid === json.ical_uid);
  assert.ok(found, `event ${json.id} (${json.title}) in the file`);
  return found;
}

for (const dialect of await testDialects()) {
  describe(`iCalendar feeds: content (API.md §19.1) [${dialect}]`, () => {
    const t = useTestApp(dialect);

    it('the feed parses with ical.js and node-ical, and times land on the right wall clock in DST-changing zones', async () => {
      // The night Berlin moves to summer time, and the day New York leaves it.
      const berlin = await createEvent(t.api, {
        start_date: '2027-03-28 03:30:00',
        end_date: '2027-03-28 05:00:00',
        timezone: 'Europe/Berlin',
      });
      const newYork = await createEvent(t.api, {
        start_date: '2026-11-01 00:30:00',
        end_date: '2026-11-01 10:00:00',
        timezone: 'America/New_York',
      });
      // Mexico City dropped DST in 2022: April is still UTC−6 (old fixed rules would say −5).
      const mexico = await createEvent(t.api, {
        start_date: '2027-04-10 10:00:00',
        end_date: '2027-04-10 11:00:00',
        timezone: 'America/Mexico_City',
      });
      const offset = await createEvent(t.api, {
        start_date: '2026-12-02 10:00:00',
        end_date: '2026-12-02 11:00:00',
        timezone: 'UTC+5:30',
      });
      const utc = await createEvent(t.api, { start_date: '2026-12-03 10:00:00', end_date: '2026-12-03 11:00:00' });
      const res = await feed(t.api);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.headers['content-type'], 'text/calendar; charset=utf-8');
      assert.equal(res.headers['content-disposition'], 'inline; filename="events.ics"');
      assertWellFormed(res.text);
      const { events } = parseCalendar(res.text);
      for (const json of [berlin, newYork, mexico, offset, utc]) {
        const event = eventOf(events, json);
        assert.equal(event.start, utcMs(json.utc_start_date), `${json.timezone}: start instant (ical.js)`);
        assert.equal(event.end, utcMs(json.utc_end_date), `${json.timezone}: end instant (ical.js)`);
        assert.equal(event.nodeIcalStart, utcMs(json.utc_start_date), `${json.timezone}: start instant (node-ical)`);
        assert.equal(event.nodeIcalEnd, utcMs(json.utc_end_date), `${json.timezone}: end instant (node-ical)`);
        assert.equal(
          event.startText.replace(/Z$/, ''),
          json.start_date.replace(' ', 'T'),
          `${json.timezone}: wall clock`,
        );
      }
      assert.equal(eventOf(events, berlin).start, Date.parse('2027-03-28T01:30:00Z'));
      assert.equal(eventOf(events, mexico).start, Date.parse('2027-04-10T16:00:00Z'));
      assert.equal(eventOf(events, berlin).tzid, 'Europe/Berlin');
      assert.equal(eventOf(events, utc).tzid, null, 'UTC uses the Z form');
      assert.match(res.text, /^DTSTART:20261203T100000Z\r$/m);
      assert.match(res.text, /^X-WR-TIMEZONE:UTC\r$/m);
      assert.match(res.text, /^PRODID:-\/\/127\.0\.0\.1\/\/calendar-events-service\/\/EN\r$/m);
      for (const line of ['VERSION:2.0', 'CALSCALE:GREGORIAN', 'METHOD:PUBLISH', 'X-WR-CALNAME:127.0.0.1'])
        assert.ok(res.text.includes(`\r\n${line}\r\n`), line);
      assert.ok(res.text.includes('\r\nREFRESH-INTERVAL;VALUE=DURATION:PT1H\r\nX-PUBLISHED-TTL:PT1H\r\n'));
    });

    it('all-day events are whole local dates with an exclusive end, in zones on both sides of the date line', async () => {
      const kiritimati = await createEvent(t.api, {
        start_date: '2026-12-25',
        end_date: '2026-12-25',
        all_day: true,
        timezone: 'Pacific/Kiritimati',
      });
      const pagoPago = await createEvent(t.api, {
        start_date: '2026-12-25',
        end_date: '2026-12-26',
        all_day: true,
        timezone: 'Pacific/Pago_Pago',
      });
      const { events } = parseCalendar((await feed(t.api)).text);
      const one = eventOf(events, kiritimati);
      assert.ok(one.isDate);
      assert.equal(one.startText, '2026-12-25');
      assert.equal(one.endText, '2026-12-26', 'DTEND is the day after the last day');
      const two = eventOf(events, pagoPago);
      assert.ok(two.isDate);
      assert.equal(two.startText, '2026-12-25');
      assert.equal(two.endText, '2026-12-27');
      assert.equal(two.tzid, null, 'dates carry no TZID');
    });

    it('TEXT values are escaped and long lines folded without splitting a UTF-8 sequence; text round-trips', async () => {
      const title = `Comma, semicolon; backslash\\ and ${'é'.repeat(40)} ${'🎉'.repeat(20)}`;
      const venue = {
        venue: 'Hall, "Blue"',
        address: '1 Main St',
        city: 'Springfield',
        stateprovince: 'IL',
        zip: '62701',
        country: 'United States',
        geo_lat: 39.8,
        geo_lng: -89.65,
      };
      const json = await createEvent(t.api, {
        title,
        description: '<p>First line,<br>second; line</p><p>Back\\slash</p>',
        venue,
        organizer: [{ organizer: 'The "Org"', email: 'org@example.org' }],
        categories: [(await t.api.post('/categories', { name: 'Music, live' }, { as: 'editor' })).json.id],
      });
      const res = await feed(t.api);
      assertWellFormed(res.text);
      const unfolded = res.text.replace(/\r\n /g, '');
      assert.ok(unfolded.includes(`SUMMARY:Comma\\, semicolon\\; backslash\\\\ and ${'é'.repeat(40)}`));
      assert.ok(unfolded.includes('DESCRIPTION:First line\\,\\nsecond\\; line\\n\\nBack\\\\slash\r\n'));
      assert.ok(unfolded.includes('X-ALT-DESC;FMTTYPE=text/html:'));
      assert.ok(unfolded.includes('ORGANIZER;CN="The  Org":mailto:org@example.org\r\n'));
      assert.ok(unfolded.includes('GEO:39.8;-89.65\r\n'));
      assert.ok(unfolded.includes('CATEGORIES:Music\\, live\r\n'));
      const event = eventOf(parseCalendar(res.text).events, json);
      assert.equal(event.summary, title);
      assert.equal(event.description, 'First line,\nsecond; line\n\nBack\\slash');
      assert.equal(event.location, 'Hall, "Blue", 1 Main St, Springfield, IL, 62701, United States');
      assert.deepEqual(event.categories, ['Music, live']);
    });
  });

  describe(`iCalendar feeds: who sees what, and changes (API.md §19) [${dialect}]`, () => {
    const t = useTestApp(dialect);

    it('drafts, private, hidden and password-protected events are never in a feed, whoever asks; single files need publish and no password', async () => {
      const shown = await createEvent(t.api, { title: 'Shown' });
      const draft = await createEvent(t.api, { title: 'Draft', status: 'draft' });
      const privateEvent = await createEvent(t.api, { title: 'Private', status: 'private' });
      const hidden = await createEvent(t.api, { title: 'Hidden', hide_from_listings: true });
      const locked = await createEvent(t.api, { title: 'Locked', password: 'secret' });
      const anonymous = await feed(t.api);
      const admin = await t.api.get('/ical/events.ics', { raw: true, as: 'administrator' });
      assert.equal(admin.status, 200);
      assert.equal(admin.text, anonymous.text, 'valid credentials change nothing');
      const uids = parseCalendar(anonymous.text).events.map((e) => e.uid);
      assert.deepEqual(uids, [shown.ical_uid]);
      assert.equal(anonymous.headers['x-wp-total'], '1');
      const wrong = await t.api.get('/ical/events.ics', { raw: true, as: { authorization: 'Basic bm9ib2R5Om5vcGU=' } });
      assert.equal(wrong.status, 401);
      for (const json of [draft, privateEvent, locked]) {
        const res = await t.api.get(`/ical/events/${json.id}.ics`, { raw: true, as: 'administrator' });
        assert.equal(res.status, 404, json.title);
        assert.equal(res.json.code, 'rest-event-not-found');
      }
      const single = await t.api.get(`/ical/events/${hidden.id}.ics`, { raw: true });
      assert.equal(single.status, 200, 'the listing flag does not hide a single file');
      assert.equal(single.headers['content-disposition'], `attachment; filename="${hidden.slug}.ics"`);
      assert.deepEqual(
        parseCalendar(single.text).events.map((e) => e.uid),
        [hidden.ical_uid],
      );
      assert.equal((await t.api.get('/ical/events/999999.ics', { raw: true })).status, 404);
      assert.equal((await t.api.get('/ical/events/abc.ics', { raw: true })).json.code, 'rest_no_route');
    });

    it('a rescheduled event keeps its UID and its SEQUENCE grows; other edits leave SEQUENCE; trash and unpublish leave the feed', async () => {
      const json = await createEvent(t.api, { title: 'Moving' });
      const before = eventOf(parseCalendar((await feed(t.api)).text).events, json);
      assert.equal(before.sequence, 0);
      await t.api.patch(`/events/${json.id}`, { title: 'Moving, renamed' }, { as: 'administrator' });
      assert.equal(eventOf(parseCalendar((await feed(t.api)).text).events, json).sequence, 0);
      await t.api.patch(`/events/${json.id}`, { start_date: json.start_date }, { as: 'administrator' });
      assert.equal(eventOf(parseCalendar((await feed(t.api)).text).events, json).sequence, 0, 'same dates sent');
      const moved = await t.api.patch(
        `/events/${json.id}`,
        { start_date: '2026-12-30 18:00:00', end_date: '2026-12-30 19:00:00' },
        { as: 'administrator' },
      );
      assert.equal(moved.json.ical_uid, json.ical_uid);
      const after = eventOf(parseCalendar((await feed(t.api)).text).events, json);
      assert.equal(after.sequence, 1);
      assert.equal(after.start, Date.parse('2026-12-30T18:00:00Z'));
      await t.api.patch(`/events/${json.id}`, { timezone: 'Europe/Paris' }, { as: 'administrator' });
      assert.equal(eventOf(parseCalendar((await feed(t.api)).text).events, json).sequence, 2);
      await t.api.patch(`/events/${json.id}`, { status: 'draft' }, { as: 'administrator' });
      assert.ok(!(await feed(t.api)).text.includes(json.ical_uid), 'unpublished');
      await t.api.patch(`/events/${json.id}`, { status: 'publish' }, { as: 'administrator' });
      assert.equal(eventOf(parseCalendar((await feed(t.api)).text).events, json).sequence, 4);
      await t.api.delete(`/events/${json.id}`, { as: 'administrator' });
      assert.ok(!(await feed(t.api)).text.includes(json.ical_uid), 'trashed');
    });

    it('ETag and Last-Modified: 304 on If-None-Match or If-Modified-Since, and a write changes the ETag', async () => {
      await createEvent(t.api, { title: 'Cached' });
      const first = await feed(t.api);
      assert.equal(first.headers['cache-control'], 'public, max-age=300');
      const etag = String(first.headers.etag);
      assert.match(etag, /^"[^"]+"$/, 'a strong ETag');
      assert.equal((await feed(t.api)).text, first.text, 'same data, same bytes');
      const notModified = await feed(t.api, '/ical/events.ics', { 'if-none-match': `"other", ${etag}` });
      assert.equal(notModified.status, 304);
      assert.equal(notModified.text, '');
      const lastModified = String(first.headers['last-modified']);
      assert.equal((await feed(t.api, '/ical/events.ics', { 'if-modified-since': lastModified })).status, 304);
      assert.equal(
        (await feed(t.api, '/ical/events.ics', { 'if-none-match': '"other"', 'if-modified-since': lastModified }))
          .status,
        200,
        'If-None-Match wins over If-Modified-Since',
      );
      await createEvent(t.api, { title: 'Another' });
      const changed = await feed(t.api, '/ical/events.ics', { 'if-none-match': etag });
      assert.equal(changed.status, 200);
      assert.notEqual(changed.headers.etag, etag);
      const head = await t.api.request('HEAD', '/ical/events.ics', undefined, { raw: true });
      assert.equal(head.status, 200);
      assert.equal(head.headers.etag, changed.headers.etag);
      assert.equal(head.text, '');
    });

    it('every GET /events filter applies, with its validation; status may only be publish', async () => {
      const early = await createEvent(t.api, {
        start_date: '2026-12-10 10:00:00',
        end_date: '2026-12-10 11:00:00',
        featured: true,
      });
      const late = await createEvent(t.api, { start_date: '2027-01-20 10:00:00', end_date: '2027-01-20 11:00:00' });
      const uidsOf = async (query: string) =>
        parseCalendar((await feed(t.api, `/ical/events.ics?${query}`)).text).events.map((e) => e.uid);
      assert.deepEqual(await uidsOf(`start_date=2027-01-01&end_date=2027-02-01`), [late.ical_uid]);
      assert.ok((await uidsOf('featured=1')).includes(early.ical_uid));
      assert.ok(!(await uidsOf('featured=1')).includes(late.ical_uid));
      assert.deepEqual(await uidsOf(`include=${late.id},${early.id}`), [late.ical_uid, early.ical_uid]);
      assert.equal((await feed(t.api, '/ical/events.ics?status=draft')).status, 400);
      assert.equal((await feed(t.api, '/ical/events.ics?status=publish')).status, 200);
      const bad = await feed(t.api, '/ical/events.ics?start_date=whenever');
      assert.equal(bad.status, 400);
      assert.equal(bad.json.code, 'rest_invalid_param');
      assert.equal((await feed(t.api, '/ical/events.ics?page=99&per_page=1')).status, 200, 'paging is ignored');
    });
  });

  describe(`iCalendar feeds: short URLs, languages and pages (API.md §19) [${dialect}]`, () => {
    const t = useTestApp(dialect, { env: { SITE_NAME: 'My Calendar' } });

    it('category, tag, venue and organizer feeds hold their events and are named after the item', async () => {
      const category = await t.api.post('/categories', { name: 'Jazz' }, { as: 'editor' });
      const tag = await t.api.post('/tags', { name: 'Outdoor' }, { as: 'editor' });
      const inAll = await createEvent(t.api, {
        categories: [category.json.id],
        tags: [tag.json.id],
        venue: { venue: 'Blue Room' },
        organizer: [{ organizer: 'Night Org' }],
      });
      const other = await createEvent(t.api);
      for (const path of [
        '/ical/categories/jazz.ics',
        '/ical/tags/outdoor.ics',
        `/ical/venues/${inAll.venue.slug}.ics`,
        `/ical/organizers/${inAll.organizer[0].slug}.ics`,
      ]) {
        const res = await feed(t.api, path);
        assert.equal(res.status, 200, `${path}: ${res.text}`);
        assertWellFormed(res.text);
        const uids = parseCalendar(res.text).events.map((e) => e.uid);
        assert.deepEqual(uids, [inAll.ical_uid], path);
        assert.ok(!uids.includes(other.ical_uid));
        assert.match(res.headers['content-disposition'] as string, /^inline; filename=".+\.ics"$/);
      }
      assert.ok(
        (await feed(t.api, '/ical/categories/jazz.ics')).text.includes('\r\nX-WR-CALNAME:My Calendar: Jazz\r\n'),
      );
      assert.ok((await feed(t.api)).text.includes('\r\nX-WR-CALNAME:My Calendar\r\n'));
      const unknown = await feed(t.api, '/ical/categories/nope.ics');
      assert.equal(unknown.status, 404);
      assert.equal(unknown.json.code, 'rest_term_invalid');
      assert.equal((await feed(t.api, '/ical/venues/nope.ics')).json.code, 'venue-not-found');
      assert.equal((await feed(t.api, '/ical/organizers/nope.ics')).json.code, 'organizer-not-found');
    });

    it('a language prefix gives the text in that language; ical_url keeps the language, ical_uid never does', async () => {
      const json = await createEvent(t.api, { title: 'Concert' });
      await t.api.patch(
        `/fr/calendar/events/v1/events/${json.id}`,
        { title: 'Concert du soir' },
        { as: 'administrator' },
      );
      const fr = await feed(t.api, '/fr/ical/events.ics');
      assert.equal(fr.status, 200);
      assert.equal(fr.headers['content-language'], 'fr');
      const event = eventOf(parseCalendar(fr.text).events, json);
      assert.equal(event.summary, 'Concert du soir');
      const read = await t.api.get(`/fr/calendar/events/v1/events/${json.id}`);
      assert.equal(read.json.ical_url, `${ORIGIN}/fr/ical/events/${json.id}.ics`);
      assert.equal(read.json.ical_uid, json.ical_uid);
      const byParam = await t.api.get(`/events/${json.id}`, { query: { i18n_language: 'fr' } });
      assert.equal(byParam.json.ical_url, `${ORIGIN}/ical/events/${json.id}.ics?i18n_language=fr`);
      assert.equal((await feed(t.api, `/fr/ical/events/${json.id}.ics`)).status, 200);
    });

    it('?ical=1 and ?outlook-ical=1 on public pages export the page, and a missing page stays a 404', async () => {
      const category = await t.api.post('/categories', { name: 'Theatre' }, { as: 'editor' });
      const json = await createEvent(t.api, { categories: [category.json.id], venue: { venue: 'Stage' } });
      const eventFile = await feed(t.api, `/event/${json.slug}/?ical=1`);
      assert.equal(eventFile.status, 200);
      assert.equal(eventFile.headers['content-disposition'], `attachment; filename="${json.slug}.ics"`);
      const termFeed = await feed(t.api, '/events/category/theatre/?ical=1');
      assert.equal(termFeed.status, 200);
      assert.deepEqual(
        parseCalendar(termFeed.text).events.map((e) => e.uid),
        [json.ical_uid],
      );
      assert.ok(termFeed.text.includes('X-WR-CALNAME:My Calendar: Theatre'));
      const outlook = await feed(t.api, `/venue/${json.venue.slug}/?outlook-ical=1`);
      assert.equal(outlook.status, 200);
      assert.ok(!outlook.text.includes('X-WR-CALNAME'), 'outlook-ical leaves X-WR-CALNAME out');
      assert.equal(
        (await feed(t.api, `/?post_type=tribe_events&p=${json.id}&ical=1`)).headers['content-disposition'],
        `attachment; filename="${json.slug}.ics"`,
      );
      const other = await createEvent(t.api, { categories: [category.json.id] });
      const picked = await feed(t.api, `/events/category/theatre/?ical=1&event_ids=${other.id}`);
      assert.deepEqual(
        parseCalendar(picked.text).events.map((e) => e.uid),
        [other.ical_uid],
      );
      const missing = await feed(t.api, '/event/no-such-event/?ical=1');
      assert.equal(missing.status, 404);
      assert.match(String(missing.headers['content-type']), /^text\/html/);
    });
  });

  describe(`iCalendar feeds: ICAL_MAX_EVENTS [${dialect}]`, () => {
    const t = useTestApp(dialect, { env: { ICAL_MAX_EVENTS: '2' } });

    it('a feed keeps the first ICAL_MAX_EVENTS events in list order, and X-WP-Total counts them all', async () => {
      const ids = [];
      for (let i = 0; i < 3; i++) ids.push(await createEvent(t.api));
      const res = await feed(t.api);
      assert.equal(res.headers['x-wp-total'], '3');
      assert.equal(res.headers['x-tec-total'], '3');
      assert.deepEqual(
        parseCalendar(res.text).events.map((e) => e.uid),
        ids.slice(0, 2).map((json) => json.ical_uid),
      );
    });
  });
}
