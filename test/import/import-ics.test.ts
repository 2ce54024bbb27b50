import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useTestApp } from '../helpers/app.js';
import { testDialects } from '../helpers/databases.js';
import { createEvent } from '../helpers/factories.js';
import { calendar, eventByUid, fixture, imported, importIcs, snapshot, vevent } from './helpers.js';

const GOOGLE_COFFEE = '7kukuqrfedlm2f9t0dsk0gnl5l@google.com';
const GOOGLE_FAIR = '3q0v8sdm9l2k1j4h5g6f7d8s9a@google.com';
const GOOGLE_POETRY = '5b6c7d8e9f0a1b2c3d4e5f6a7b@google.com';
const OUTLOOK_REVIEW =
  '040000008200E00074C5B7101A82E00800000000B0D2E0A3C0D7D901000000000000000010000000F3B6F0A6A1B5B54C9C2A0E4B9D2A3C11';
const OUTLOOK_STANDUP =
  '040000008200E00074C5B7101A82E00800000000C1E3F1B4D1E8EA01000000000000000020000000A4C7A1B7B2C6C65DAD3B1F5CAE3B4D22';
const OUTLOOK_WORKSHOP =
  '040000008200E00074C5B7101A82E00800000000D2F4A2C5E2F9FB01000000000000000030000000B5D8B2C8C3D7D76EBE4C2A6DBF4C5E33';

for (const dialect of await testDialects()) {
  describe(`POST /import/ics: real-world exports (API.md §19.3) [${dialect}]`, () => {
    // Floating times and custom zones fall back to SITE_TIMEZONE: one far from the files' zones shows it.
    const t = useTestApp(dialect, { env: { SITE_TIMEZONE: 'America/New_York' } });

    it('a Google Calendar export creates its events on the right wall clock, zone, venue, organizer and categories', async () => {
      const result = await imported(t.api, fixture('google-export.ics'));
      assert.equal(result.created.length, 3, JSON.stringify(result));
      assert.deepEqual(result.updated, []);
      assert.deepEqual(result.unchanged, []);
      // The weekly series and its override wait for recurring events (issue 26).
      assert.deepEqual(result.skipped, [
        { uid: 'weekly-choir-rehearsal@google.com', reason: 'recurrence not supported' },
        { uid: 'weekly-choir-rehearsal@google.com', reason: 'recurrence not supported' },
      ]);
      assert.equal(result.dry_run, false);

      // The night Berlin moves to summer time: 03:30 CEST is 01:30 UTC.
      const coffee = await eventByUid(t.api, GOOGLE_COFFEE);
      assert.ok(result.created.includes(coffee.id));
      assert.equal(coffee.title, 'Early coffee on the night the clocks change');
      assert.equal(coffee.status, 'publish');
      assert.equal(coffee.timezone, 'Europe/Berlin');
      assert.equal(coffee.start_date, '2027-03-28 03:30:00');
      assert.equal(coffee.end_date, '2027-03-28 05:00:00');
      assert.equal(coffee.utc_start_date, '2027-03-28 01:30:00');
      assert.equal(coffee.all_day, false);
      // Folded lines joined (a fold inside "and" and after "Grüße "), TEXT unescaped, plain text as paragraphs.
      assert.equal(
        coffee.description,
        '<p>Bring your own mug.<br />\nSecond line with a comma, a semicolon; and a backslash \\ – plus 2 &lt; 3 &amp; 4 &gt; 1.</p>\n<p>A new paragraph: Grüße aus Berlin ☕.</p>',
      );
      assert.equal(coffee.venue.venue, 'Kulturhaus Mitte');
      assert.equal(coffee.venue.address, 'Hauptstraße 5, 10115 Berlin, Germany');
      assert.equal(coffee.ical_uid, GOOGLE_COFFEE);

      // VALUE=DATE with an exclusive DTEND: two whole days; dates are floating, read in X-WR-TIMEZONE.
      const fair = await eventByUid(t.api, GOOGLE_FAIR);
      assert.equal(fair.all_day, true);
      assert.equal(fair.start_date, '2027-04-01 00:00:00');
      assert.equal(fair.end_date, '2027-04-02 23:59:59');
      assert.equal(fair.timezone, 'Europe/Berlin');
      assert.deepEqual(fair.venue, []);

      // A UTC time takes X-WR-TIMEZONE as its zone; Google's HTML DESCRIPTION stays HTML.
      const poetry = await eventByUid(t.api, GOOGLE_POETRY);
      assert.equal(poetry.timezone, 'Europe/Berlin');
      assert.equal(poetry.start_date, '2027-04-10 19:00:00');
      assert.equal(poetry.utc_start_date, '2027-04-10 17:00:00');
      assert.equal(poetry.description, '<p>Readings from the <b>new</b> anthology.</p><br />Free entry.');
      assert.equal(poetry.website, 'https://kulturhaus.example/poetry');
      assert.deepEqual(
        poetry.categories.map((c: { name: string }) => c.name),
        ['Literature', 'Readings'],
      );
      assert.deepEqual(
        poetry.organizer.map((o: { organizer: string; email: string }) => [o.organizer, o.email]),
        [['Jane Doe', 'jane.doe@example.org']],
      );
      // The same LOCATION twice in one file: one venue.
      assert.equal(poetry.venue.id, coffee.venue.id);
    });

    it('an Outlook export: Windows zone names, a custom VTIMEZONE, floating times, folded UIDs, X-ALT-DESC', async () => {
      const result = await imported(t.api, fixture('outlook-export.ics'));
      assert.equal(result.created.length, 3, JSON.stringify(result));
      assert.deepEqual(result.skipped, []);

      // "W. Europe Standard Time" is Europe/Berlin (CLDR); the UID was folded over two lines.
      const review = await eventByUid(t.api, OUTLOOK_REVIEW);
      assert.equal(review.title, 'Quarterly review');
      assert.equal(review.timezone, 'Europe/Berlin');
      assert.equal(review.start_date, '2027-06-15 14:00:00');
      assert.equal(review.utc_start_date, '2027-06-15 12:00:00');
      assert.equal(review.end_date, '2027-06-15 16:00:00');
      // X-ALT-DESC wins over DESCRIPTION, sanitised.
      assert.equal(review.description, '<p>Agenda: <b>budget</b></p>');
      assert.equal(review.venue.venue, 'Room 4.12');
      assert.equal(review.organizer[0].email, 'sam@example.org');

      // "Customized Time Zone" (+05:30) is known only from the file's VTIMEZONE: the instant is kept,
      // and the zone becomes SITE_TIMEZONE (no X-WR-TIMEZONE).
      const standup = await eventByUid(t.api, OUTLOOK_STANDUP);
      assert.equal(standup.utc_start_date, '2027-07-05 03:30:00');
      assert.equal(standup.utc_end_date, '2027-07-05 05:00:00');
      assert.equal(standup.timezone, 'America/New_York');
      assert.equal(standup.start_date, '2027-07-04 23:30:00');

      // Floating times are read in SITE_TIMEZONE.
      const workshop = await eventByUid(t.api, OUTLOOK_WORKSHOP);
      assert.equal(workshop.timezone, 'America/New_York');
      assert.equal(workshop.start_date, '2027-07-20 10:00:00');
      assert.equal(workshop.utc_start_date, '2027-07-20 14:00:00');
      assert.equal(workshop.end_date, '2027-07-20 11:30:00');
    });

    it('importing the same files again changes nothing: every event is unchanged', async () => {
      const before = await snapshot(t.api);
      for (const name of ['google-export.ics', 'outlook-export.ics']) {
        const result = await imported(t.api, fixture(name));
        assert.deepEqual(result.created, []);
        assert.deepEqual(result.updated, []);
        assert.equal(result.unchanged.length, 3);
      }
      assert.deepEqual(await snapshot(t.api), before);
    });

    it('the same text as a JSON or form body (LF line ends) gives the same answer', async () => {
      const text = fixture('outlook-export.ics').replace(/\r\n/g, '\n');
      for (const body of ['json', 'form'] as const) {
        const result = await imported(t.api, text, { body });
        assert.deepEqual(result.created, []);
        assert.equal(result.unchanged.length, 3);
      }
    });
  });

  describe(`POST /import/ics: the upsert rules (API.md §19.3) [${dialect}]`, () => {
    const t = useTestApp(dialect);

    it('a higher SEQUENCE updates the mapped fields and takes the file’s SEQUENCE; a lower one changes nothing', async () => {
      const uid = 'seq-rule@example.org';
      const first = await imported(t.api, calendar(vevent(uid, { sequence: 2, modified: '20261101T000000Z' })));
      const [id] = first.created;
      const moved = calendar(
        vevent(uid, { start: '20270301T150000Z', summary: 'Moved', sequence: 3, modified: '20261101T000000Z' }),
      );
      const second = await imported(t.api, moved);
      assert.deepEqual(second.updated, [id]);
      const event = await eventByUid(t.api, uid);
      assert.equal(event.title, 'Moved');
      assert.equal(event.utc_start_date, '2027-03-01 15:00:00');
      const stored = await t.api.db
        .selectFrom('events')
        .select('ical_sequence')
        .where('post_id', '=', id)
        .executeTakeFirstOrThrow();
      assert.equal(Number(stored.ical_sequence), 3);
      const before = await snapshot(t.api);
      const older = await imported(
        t.api,
        calendar(vevent(uid, { summary: 'Old', sequence: 1, modified: '20270101T000000Z' })),
      );
      assert.deepEqual(older.unchanged, [id]);
      assert.deepEqual(await snapshot(t.api), before);
    });

    it('an equal SEQUENCE updates only with a later LAST-MODIFIED (else DTSTAMP) than the last import', async () => {
      const uid = 'stamp-rule@example.org';
      const [id] = (await imported(t.api, calendar(vevent(uid, { modified: '20261101T000000Z' })))).created;
      const same = await imported(
        t.api,
        calendar(vevent(uid, { summary: 'Same stamp', modified: '20261101T000000Z' })),
      );
      assert.deepEqual(same.unchanged, [id]);
      const later = await imported(t.api, calendar(vevent(uid, { summary: 'Later', modified: '20261102T000000Z' })));
      assert.deepEqual(later.updated, [id]);
      assert.equal((await eventByUid(t.api, uid)).title, 'Later');
      // Without LAST-MODIFIED, DTSTAMP (2026-11-01) is compared: earlier than the stored stamp.
      const byStamp = await imported(t.api, calendar(vevent(uid, { summary: 'DTSTAMP only' })));
      assert.deepEqual(byStamp.unchanged, [id]);
    });

    it('a newer copy of our own event reuses its venue by the exported LOCATION and keeps its website', async () => {
      const own = await createEvent(t.api, {
        title: 'Venue match',
        start_date: '2026-12-10 20:00:00',
        end_date: '2026-12-10 22:00:00',
        website: 'https://own.example/',
        venue: { venue: 'Match hall', address: '2 Side St', city: 'Lyon', country: 'France' },
      });
      const file = await t.api.get(`/ical/events/${own.id}.ics`, { raw: true });
      const newer = file.text
        .replace(/SEQUENCE:0/, 'SEQUENCE:1')
        .replace('SUMMARY:Venue match', 'SUMMARY:Venue matched');
      const result = await imported(t.api, newer);
      assert.deepEqual(result.updated, [own.id]);
      const event = await eventByUid(t.api, own.ical_uid);
      assert.equal(event.title, 'Venue matched');
      assert.equal(event.venue.id, own.venue.id);
      assert.equal(event.website, 'https://own.example/');
    });

    it('STATUS:CANCELLED skips a new event, trashes a known one under the upsert rule, and a trashed match is skipped', async () => {
      const uid = 'cancel-rule@example.org';
      const cancelledNew = await imported(t.api, calendar(vevent(uid, { extra: ['STATUS:CANCELLED'] })));
      assert.deepEqual(cancelledNew.skipped, [{ uid, reason: 'cancelled' }]);
      assert.deepEqual(cancelledNew.created, []);
      const [id] = (await imported(t.api, calendar(vevent(uid, { sequence: 0 })))).created;
      const stale = await imported(t.api, calendar(vevent(uid, { sequence: 0, extra: ['STATUS:CANCELLED'] })));
      assert.deepEqual(stale.unchanged, [id]);
      const cancelled = await imported(t.api, calendar(vevent(uid, { sequence: 1, extra: ['STATUS:CANCELLED'] })));
      assert.deepEqual(cancelled.updated, [id]);
      const trashed = await t.api.db
        .selectFrom('posts')
        .select('status')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      assert.equal(trashed.status, 'trash');
      const again = await imported(t.api, calendar(vevent(uid, { sequence: 5 })));
      assert.deepEqual(again.skipped, [{ uid, reason: 'trashed' }]);
    });

    it('a key repeated in the file: the higher SEQUENCE wins, then the later copy; the other is a duplicate', async () => {
      const result = await imported(
        t.api,
        calendar(
          vevent('dup-a@example.org', { summary: 'A wins', sequence: 4 }),
          vevent('dup-a@example.org', { summary: 'A loses', sequence: 3 }),
          vevent('dup-b@example.org', { summary: 'B first' }),
          vevent('dup-b@example.org', { summary: 'B later wins' }),
        ),
      );
      assert.equal(result.created.length, 2);
      assert.deepEqual(result.skipped, [
        { uid: 'dup-a@example.org', reason: 'duplicate' },
        { uid: 'dup-b@example.org', reason: 'duplicate' },
      ]);
      assert.equal((await eventByUid(t.api, 'dup-a@example.org')).title, 'A wins');
      assert.equal((await eventByUid(t.api, 'dup-b@example.org')).title, 'B later wins');
    });

    it('no UID and no SUMMARY are skipped with their reasons; status, categories and tags options apply', async () => {
      const noUid = vevent('x').filter((line) => !line.startsWith('UID:'));
      const noSummary = vevent('no-summary@example.org').filter((line) => !line.startsWith('SUMMARY:'));
      const result = await imported(t.api, calendar(noUid, noSummary, vevent('with-options@example.org')), {
        body: 'json',
        params: { status: 'draft', categories: ['Imported'], tags: 'from-ics' },
      });
      assert.deepEqual(result.skipped, [
        { uid: null, reason: 'no UID' },
        { uid: 'no-summary@example.org', reason: 'no SUMMARY' },
      ]);
      const event = await eventByUid(t.api, 'with-options@example.org');
      assert.equal(event.status, 'draft');
      assert.deepEqual(
        event.categories.map((c: { name: string }) => c.name),
        ['Imported'],
      );
      assert.deepEqual(
        event.tags.map((c: { name: string }) => c.name),
        ['from-ics'],
      );
    });

    it('two imports of one file at once create each event once', async () => {
      const events = Array.from({ length: 12 }, (_, i) =>
        vevent(`concurrent-${i}@example.org`, {
          summary: `Concurrent ${i % 3}`,
          extra: [`LOCATION:Concurrent hall ${i % 2}`],
        }),
      );
      const text = calendar(...events);
      const results = await Promise.all([imported(t.api, text), imported(t.api, text)]);
      const created = results.flatMap((r) => r.created);
      const unchanged = results.flatMap((r) => r.unchanged);
      assert.equal(created.length, 12, JSON.stringify(results));
      assert.equal(unchanged.length, 12);
      assert.deepEqual([...created].sort(), [...unchanged].sort());
      const venues = await t.api.db
        .selectFrom('posts')
        .select('id')
        .where('type', '=', 'venue')
        .where('title', 'like', 'Concurrent hall%')
        .execute();
      assert.equal(venues.length, 2);
    });

    it('LOCATION with GEO creates a venue with coordinates; ORGANIZER is reused by email, then by CN', async () => {
      const organizer = await t.api.post(
        '/organizers',
        { organizer: 'Known Organizer', email: 'known@example.org' },
        { as: 'administrator' },
      );
      assert.equal(organizer.status, 201, organizer.text);
      const result = await imported(
        t.api,
        calendar(
          vevent('geo@example.org', {
            extra: [
              'LOCATION:Geo hall\\, 3 Quay\\, Nantes',
              'GEO:47.2184;-1.5536',
              'ORGANIZER;CN=Someone else:mailto:KNOWN@example.org',
            ],
          }),
          vevent('cn@example.org', { extra: ['ORGANIZER;CN=known organizer:mailto:other@example.org'] }),
          vevent('new-org@example.org', { extra: ['ORGANIZER;CN=Fresh Organizer:mailto:fresh@example.org'] }),
        ),
      );
      assert.equal(result.created.length, 3, JSON.stringify(result));
      const geo = await eventByUid(t.api, 'geo@example.org');
      assert.equal(geo.venue.venue, 'Geo hall');
      assert.equal(geo.venue.address, '3 Quay, Nantes');
      assert.equal(Number(geo.venue.geo_lat), 47.2184);
      assert.equal(Number(geo.venue.geo_lng), -1.5536);
      assert.equal(geo.organizer[0].id, organizer.json.id);
      assert.equal((await eventByUid(t.api, 'cn@example.org')).organizer[0].id, organizer.json.id);
      const fresh = (await eventByUid(t.api, 'new-org@example.org')).organizer[0];
      assert.notEqual(fresh.id, organizer.json.id);
      assert.equal(fresh.organizer, 'Fresh Organizer');
      assert.equal(fresh.email, 'fresh@example.org');
    });

    it('dry_run reports what would happen (UIDs for creations) and changes nothing', async () => {
      const before = await snapshot(t.api);
      const result = await imported(
        t.api,
        calendar(
          vevent('dry-new@example.org', { extra: ['LOCATION:Dry hall', 'CATEGORIES:Dry'] }),
          vevent('dup-a@example.org', { summary: 'Would update', sequence: 9 }),
        ),
        { query: { dry_run: 'true' } },
      );
      assert.equal(result.dry_run, true);
      assert.deepEqual(result.created, ['dry-new@example.org']);
      assert.deepEqual(result.updated, [(await eventByUid(t.api, 'dup-a@example.org')).id]);
      assert.deepEqual(await snapshot(t.api), before);
    });
  });

  describe(`POST /import/ics: our own feed [${dialect}]`, () => {
    const t = useTestApp(dialect);

    it('re-importing our own feed creates nothing and changes nothing', async () => {
      await createEvent(t.api, {
        title: 'Own concert',
        start_date: '2026-12-01 20:00:00',
        end_date: '2026-12-01 22:00:00',
      });
      await createEvent(t.api, {
        title: 'Own fair',
        start_date: '2026-12-05',
        end_date: '2026-12-06',
        all_day: true,
        timezone: 'Europe/Paris',
        venue: { venue: 'Own hall', address: '1 Main St', city: 'Paris' },
        categories: ['Own category'],
      });
      const feed = await t.api.get('/ical/events.ics', { raw: true });
      assert.equal(feed.status, 200);
      const before = await snapshot(t.api);
      const result = await imported(t.api, feed.text);
      assert.deepEqual(result.created, []);
      assert.deepEqual(result.updated, []);
      assert.ok(result.unchanged.length >= 2, JSON.stringify(result));
      assert.deepEqual(await snapshot(t.api), before);
    });
  });

  describe(`POST /import/ics: broken input changes nothing (API.md §19.3) [${dialect}]`, () => {
    const t = useTestApp(dialect);

    const broken: [string, string, number | undefined][] = [
      ['not UTF-8', 'BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nSUMMARY:caf\u00e9\r\n', 3],
      ['the first line is not BEGIN:VCALENDAR', 'BEGIN:VEVENT\r\nEND:VEVENT\r\n', 1],
      ['END:VCALENDAR without its BEGIN', calendar(vevent('u1')).replace('END:VEVENT', 'END:VCALENDAR'), 10],
      ['BEGIN:VCALENDAR without its END', calendar(vevent('u1')).replace('END:VCALENDAR\r\n', ''), 1],
      ["a line without ':'", calendar(vevent('u1', { extra: ['NOT A PROPERTY'] })), 10],
      ['no VEVENT', 'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nEND:VCALENDAR\r\n', undefined],
      ['a VEVENT without DTSTART', calendar(vevent('u1').filter((l) => !l.startsWith('DTSTART'))), 4],
      ['unparsable date-time in DTSTART', calendar(vevent('u1', { start: '20271301T100000Z' })), 7],
      ['unparsable RRULE', calendar(vevent('u1', { extra: ['RRULE:FREQ=SOMETIMES'] })), 10],
    ];

    for (const [reason, text, line] of broken) {
      it(`${reason} → 400 rest_invalid_ics${line !== undefined ? ` at line ${line}` : ''}`, async () => {
        const before = await snapshot(t.api);
        // Latin-1 bytes: é alone is no UTF-8 sequence.
        const bytes = Buffer.from(text, reason === 'not UTF-8' ? 'latin1' : 'utf8');
        const res = await importIcs(t.api, bytes);
        assert.equal(res.status, 400, res.text);
        assert.equal(res.json.code, 'rest_invalid_ics');
        assert.equal(res.json.message, `Invalid iCalendar data: ${reason}`);
        assert.equal(res.json.data.line, line);
        assert.deepEqual(await snapshot(t.api), before);
      });
    }

    it('folded lines are counted: the line named is the physical line as sent', async () => {
      const text = calendar(['UID:folded', 'SUMMARY:A long', '  summary folded', 'DTSTART:20270230T100000Z']);
      const res = await importIcs(t.api, text);
      assert.equal(res.json.code, 'rest_invalid_ics');
      assert.equal(res.json.data.line, 8);
    });

    it('more than 10,000 VEVENTs is refused at the 10,001st', async () => {
      const events = Array.from({ length: 10_001 }, (_, i) => ['DTSTART:20270301T100000Z', `UID:many-${i}`]);
      const res = await importIcs(t.api, calendar(...events));
      assert.equal(res.json.code, 'rest_invalid_ics');
      assert.equal(res.json.data.line, 4 + 10_000 * 4);
    });

    it('a broken VEVENT after valid ones imports none of them (one transaction)', async () => {
      const before = await snapshot(t.api);
      const res = await importIcs(
        t.api,
        calendar(vevent('valid-1'), vevent('valid-2'), vevent('broken', { start: '2027-03-01' })),
      );
      assert.equal(res.json.code, 'rest_invalid_ics');
      assert.deepEqual(await snapshot(t.api), before);
    });
  });

  describe(`POST /import/ics: parameters, permissions, media types and limits [${dialect}]`, () => {
    const t = useTestApp(dialect);
    const good = calendar(vevent('perm@example.org'));

    it('only editors and administrators import: anonymous 401, subscriber, contributor and author 403', async () => {
      const before = await snapshot(t.api);
      for (const [as, status] of [
        ['anonymous', 401],
        ['subscriber', 403],
        ['contributor', 403],
        ['author', 403],
      ] as const) {
        const res = await importIcs(t.api, good, { as });
        assert.equal(res.status, status, `${as}: ${res.text}`);
        assert.equal(res.json.code, 'rest_forbidden');
      }
      assert.deepEqual(await snapshot(t.api), before);
      assert.equal((await importIcs(t.api, good, { as: 'editor' })).status, 200);
      assert.deepEqual((await imported(t.api, good, { as: 'administrator' })).created, []);
    });

    it('rest_invalid_ics is translated; its code and line are not', async () => {
      const res = await importIcs(t.api, 'HELLO:WORLD\r\n', { query: { i18n_language: 'fr' } });
      assert.equal(res.json.code, 'rest_invalid_ics');
      assert.equal(res.json.message, 'Données iCalendar non valides : the first line is not BEGIN:VCALENDAR');
      assert.equal(res.json.data.line, 1);
    });

    it('parameters are checked before permissions; the text and the URL only after them', async () => {
      const missing = await importIcs(t.api, undefined, { as: 'anonymous', body: 'json', params: { dry_run: true } });
      assert.equal(missing.status, 400);
      assert.equal(missing.json.code, 'rest_missing_callback_param');
      assert.deepEqual(missing.json.data.params, ['ics']);
      const both = await importIcs(t.api, good, {
        as: 'anonymous',
        body: 'json',
        params: { url: 'https://a.example/x.ics' },
      });
      assert.equal(both.json.code, 'rest_invalid_param');
      assert.deepEqual(Object.keys(both.json.data.params), ['url']);
      const status = await importIcs(t.api, good, { as: 'anonymous', body: 'json', params: { status: 'trash' } });
      assert.equal(status.json.code, 'rest_invalid_param');
      const scheme = await importIcs(t.api, undefined, {
        as: 'anonymous',
        body: 'json',
        params: { url: 'ftp://a.example/x.ics' },
      });
      assert.equal(scheme.json.code, 'rest_import_url_forbidden');
      // Broken text and a private address are not revealed to a caller who may not import.
      assert.equal((await importIcs(t.api, 'garbage', { as: 'author' })).json.code, 'rest_forbidden');
      const local = await importIcs(t.api, undefined, {
        as: 'anonymous',
        body: 'json',
        params: { url: 'http://127.0.0.1/x.ics' },
      });
      assert.equal(local.status, 401);
    });

    it('a file uploaded as the multipart part `ics` (curl -F ics=@file.ics) is imported; SUMMARY is plain text', async () => {
      const form = new FormData();
      const text = calendar(vevent('multipart@example.org', { summary: '<b>Bold</b> title' }));
      form.append('ics', new Blob([text], { type: 'text/calendar' }), 'export.ics');
      form.append('status', 'draft');
      const request = new Request('http://localhost/', { method: 'POST', body: form });
      const res = await t.api.app.inject({
        method: 'POST',
        url: '/calendar/events/v1/import/ics',
        headers: {
          'content-type': request.headers.get('content-type') ?? '',
          authorization: (await t.api.user('editor')).header,
        },
        payload: Buffer.from(await request.arrayBuffer()),
      });
      assert.equal(res.statusCode, 200, res.body);
      const event = await eventByUid(t.api, 'multipart@example.org');
      assert.equal(event.title, 'Bold title');
      assert.equal(event.status, 'draft');
    });

    it('/doc documents the route with its JSON, form and text/calendar bodies and its result', async () => {
      const doc = (await t.api.get('/doc')).json;
      const operation = doc.paths['/import/ics'].post;
      assert.equal(operation.operationId, 'importIcs');
      assert.deepEqual(Object.keys(operation.requestBody.content), [
        'application/json',
        'application/x-www-form-urlencoded',
        'multipart/form-data',
        'text/calendar',
      ]);
      assert.ok(operation.responses['200']);
      assert.ok(operation.responses['413']);
    });

    it('text/calendar is 415 on any other route; the import takes up to 10 MiB, then 413', async () => {
      const other = await t.api.app.inject({
        method: 'POST',
        url: '/calendar/events/v1/events',
        headers: { 'content-type': 'text/calendar', authorization: (await t.api.user('editor')).header },
        payload: good,
      });
      assert.equal(other.statusCode, 415);
      assert.equal(JSON.parse(other.body).code, 'rest_unsupported_media_type');
      // Over BODY_LIMIT (1 MiB) but within the import's own limit.
      const padding = `X-PADDING:${'x'.repeat(2 * 1024 * 1024)}`;
      const large = calendar(vevent('large@example.org', { extra: [padding] }));
      assert.equal((await importIcs(t.api, large)).status, 200);
      const tooLarge = await importIcs(t.api, Buffer.alloc(10 * 1024 * 1024 + 1, 0x41));
      assert.equal(tooLarge.status, 413);
      assert.equal(tooLarge.json.code, 'rest_payload_too_large');
      assert.match(tooLarge.json.message, /10485760/);
    });
  });
}
