import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { useTestApp, type TestApi } from '../helpers/app.js';
import { testDialects } from '../helpers/databases.js';
import { calendar, eventByUid, imported, snapshot } from './helpers.js';

// Response bodies are arbitrary JSON by nature.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const UID = 'weekly-class@google.com';

/** A Google Calendar style weekly series: two EXDATE lines (merged on import), SEQUENCE and LAST-MODIFIED. */
function master(options: { uid?: string; sequence?: number; rule?: string; extra?: string[] } = {}): string[] {
  return [
    'DTSTART;TZID=Europe/Berlin:20270105T190000',
    'DTEND;TZID=Europe/Berlin:20270105T210000',
    `RRULE:${options.rule ?? 'FREQ=WEEKLY;BYDAY=TU;COUNT=6'}`,
    'EXDATE;TZID=Europe/Berlin:20270119T190000',
    'EXDATE;TZID=Europe/Berlin:20270126T190000',
    'DTSTAMP:20261120T101500Z',
    `UID:${options.uid ?? UID}`,
    'LAST-MODIFIED:20261004T090000Z',
    `SEQUENCE:${options.sequence ?? 0}`,
    'SUMMARY:Weekly class',
    ...(options.extra ?? []),
  ];
}

/** The session of 12 January moved from 19:00 to 20:00. */
function moved(options: { uid?: string; extra?: string[] } = {}): string[] {
  return [
    'DTSTART;TZID=Europe/Berlin:20270112T200000',
    'DTEND;TZID=Europe/Berlin:20270112T220000',
    'DTSTAMP:20261120T101500Z',
    `UID:${options.uid ?? UID}`,
    'RECURRENCE-ID;TZID=Europe/Berlin:20270112T190000',
    'LAST-MODIFIED:20261005T090000Z',
    'SEQUENCE:1',
    'SUMMARY:Weekly class (late start)',
    ...(options.extra ?? []),
  ];
}

async function occurrencesOf(api: TestApi, seriesId: number, query: Record<string, string> = {}): Promise<Json[]> {
  const res = await api.get(`/events/${seriesId}/occurrences`, {
    as: 'administrator',
    query: { per_page: '50', ...query },
  });
  assert.equal(res.status, 200, res.text);
  return res.json.events;
}

for (const dialect of await testDialects()) {
  describe(`POST /import/ics: recurring VEVENTs (API.md §19.3, §20.4) [${dialect}]`, () => {
    const t = useTestApp(dialect);

    it('a weekly series with EXDATEs and a moved session becomes a series and its override; importing it again changes nothing', async () => {
      const text = calendar(master(), moved());
      const result = await imported(t.api, text);
      const series = await eventByUid(t.api, UID);
      assert.equal(series.is_recurring, true);
      assert.deepEqual(series.recurrence, [
        'RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=6',
        'EXDATE;TZID=Europe/Berlin:20270119T190000,20270126T190000',
      ]);
      const occurrences = await occurrencesOf(t.api, series.id);
      assert.deepEqual(
        occurrences.map((o) => o.start_date),
        ['2027-01-05 19:00:00', '2027-01-12 20:00:00', '2027-02-02 19:00:00', '2027-02-09 19:00:00'],
      );
      const override = occurrences[1];
      assert.equal(override.title, 'Weekly class (late start)');
      assert.equal(override.recurrence_id, '20270112T180000Z');
      assert.equal(override.series_id, series.id);
      assert.equal(occurrences[0].title, 'Weekly class');
      // Ids of the series and its override, not of plain occurrences.
      assert.deepEqual(result, {
        created: [series.id, override.id],
        updated: [],
        unchanged: [],
        skipped: [],
        dry_run: false,
      });

      const before = await snapshot(t.api);
      const again = await imported(t.api, text);
      assert.deepEqual(again, {
        created: [],
        updated: [],
        unchanged: [series.id, override.id],
        skipped: [],
        dry_run: false,
      });
      assert.deepEqual(await snapshot(t.api), before);
    });

    it('a newer SEQUENCE of the series replaces its rule; occurrences whose start remains keep their ids', async () => {
      const uid = 'rule-change@example.com';
      await imported(t.api, calendar(master({ uid }), moved({ uid })));
      const series = await eventByUid(t.api, uid);
      const old = await occurrencesOf(t.api, series.id);
      // Same SEQUENCE and stamp: the file's other rule is not applied.
      const stale = await imported(
        t.api,
        calendar(master({ uid, rule: 'FREQ=WEEKLY;BYDAY=TU;COUNT=8' }), moved({ uid })),
      );
      assert.deepEqual(stale.unchanged, [series.id, old[1].id]);
      const result = await imported(
        t.api,
        calendar(master({ uid, sequence: 1, rule: 'FREQ=WEEKLY;BYDAY=TU;COUNT=8' }), moved({ uid })),
      );
      assert.deepEqual(result.updated, [series.id]);
      assert.deepEqual(result.unchanged, [old[1].id]);
      assert.deepEqual(result.created, []);
      const now = await occurrencesOf(t.api, series.id);
      assert.deepEqual(
        now.map((o) => o.start_date),
        [
          '2027-01-05 19:00:00',
          '2027-01-12 20:00:00',
          '2027-02-02 19:00:00',
          '2027-02-09 19:00:00',
          '2027-02-16 19:00:00',
          '2027-02-23 19:00:00',
        ],
      );
      assert.deepEqual(
        now.slice(0, 4).map((o) => o.id),
        old.map((o) => o.id),
      );
      assert.equal(now[1].title, 'Weekly class (late start)');
      assert.deepEqual((await eventByUid(t.api, uid)).recurrence[0], 'RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=8');
    });

    it('STATUS:CANCELLED on an override takes that session out of the series', async () => {
      const uid = 'cancelled@example.com';
      await imported(t.api, calendar(master({ uid })));
      const series = await eventByUid(t.api, uid);
      const [, second] = await occurrencesOf(t.api, series.id);
      const result = await imported(t.api, calendar(master({ uid }), moved({ uid, extra: ['STATUS:CANCELLED'] })));
      assert.deepEqual(result.unchanged, [series.id]);
      assert.deepEqual(result.updated, [second.id]);
      assert.equal((await occurrencesOf(t.api, series.id)).length, 3);
      const exported = await t.api.get(`/ical/events/${series.id}.ics`, { raw: true });
      assert.match(exported.text, /EXDATE;TZID=Europe\/Berlin:20270112T190000/);
      const again = await imported(t.api, calendar(master({ uid }), moved({ uid, extra: ['STATUS:CANCELLED'] })));
      assert.deepEqual(again.unchanged, [series.id, second.id]);
    });

    it('our own export of a series, its override and a deleted session imports as all unchanged', async () => {
      const created = await t.api.post(
        '/events',
        {
          title: 'Evening class',
          start_date: '2027-03-01 19:00:00',
          end_date: '2027-03-01 20:30:00',
          timezone: 'Europe/Paris',
          recurrence: ['RRULE:FREQ=WEEKLY;COUNT=6'],
        },
        { as: 'administrator' },
      );
      assert.equal(created.status, 201, created.text);
      const seriesId = created.json.id;
      const occurrences = await occurrencesOf(t.api, seriesId);
      const edit = await t.api.patch(
        `/events/${occurrences[2].id}`,
        { title: 'Guest teacher', start_date: '2027-03-15 20:00:00', end_date: '2027-03-15 21:30:00' },
        { as: 'administrator' },
      );
      assert.equal(edit.status, 200, edit.text);
      assert.equal((await t.api.delete(`/events/${occurrences[4].id}`, { as: 'administrator' })).status, 200);
      const exported = await t.api.get(`/ical/events/${seriesId}.ics`, { raw: true });
      assert.equal(exported.status, 200);
      assert.match(exported.text, /RECURRENCE-ID/);
      assert.match(exported.text, /EXDATE/);

      const before = await snapshot(t.api);
      const result = await imported(t.api, exported.text);
      assert.deepEqual(result, {
        created: [],
        updated: [],
        unchanged: [seriesId, occurrences[2].id],
        skipped: [],
        dry_run: false,
      });
      assert.deepEqual(await snapshot(t.api), before);
      const feed = await t.api.get('/ical/events.ics', { raw: true, query: { start_date: '2027-01-01' } });
      const fromFeed = await imported(t.api, feed.text);
      assert.deepEqual(fromFeed.created, []);
      assert.deepEqual(fromFeed.unchanged, [seriesId, occurrences[2].id]);
    });

    it("an occurrence's own file (UID {recurrence_id}-{series UID}) upserts that occurrence", async () => {
      const uid = 'own-file@example.com';
      await imported(t.api, calendar(master({ uid })));
      const series = await eventByUid(t.api, uid);
      const third = (await occurrencesOf(t.api, series.id))[2];
      const file = await t.api.get(`/ical/events/${third.id}.ics`, { raw: true });
      assert.equal(file.status, 200);
      assert.match(file.text, new RegExp(`UID:${third.recurrence_id}-${uid}`));
      const before = await snapshot(t.api);
      const same = await imported(t.api, file.text);
      assert.deepEqual(same, { created: [], updated: [], unchanged: [third.id], skipped: [], dry_run: false });
      assert.deepEqual(await snapshot(t.api), before);
      const newer = file.text
        .replace(/SEQUENCE:\d+/, 'SEQUENCE:5')
        .replace(/SUMMARY:[^\r]*/, 'SUMMARY:Extra long session');
      const result = await imported(t.api, newer);
      assert.deepEqual(result.updated, [third.id]);
      const after = await occurrencesOf(t.api, series.id);
      assert.equal(after[2].id, third.id);
      assert.equal(after[2].title, 'Extra long session');
      assert.equal(after[1].title, 'Weekly class');
    });

    it('a recurrence outside the limits of §20.1 is skipped with the reason, and so are overrides without a series', async () => {
      const uid = 'limits@example.com';
      const before = await snapshot(t.api);
      const result = await imported(
        t.api,
        calendar(
          master({ uid, rule: 'FREQ=WEEKLY;COUNT=1001' }),
          master({ uid: 'twice-daily@example.com', rule: 'FREQ=DAILY;BYHOUR=9,19' }),
          moved({ uid: 'lonely@example.com' }),
        ),
      );
      assert.deepEqual(result.created, []);
      assert.deepEqual(result.skipped, [
        { uid, reason: 'line 1: COUNT must be an integer from 1 to 1000' },
        {
          uid: 'twice-daily@example.com',
          reason: 'line 1: more than 1000 occurrences up to the horizon (24 months)',
        },
        { uid: 'lonely@example.com', reason: 'no series for RECURRENCE-ID' },
      ]);
      assert.deepEqual(await snapshot(t.api), before);
      await imported(t.api, calendar(master({ uid })));
      const unknown = await imported(
        t.api,
        calendar(
          moved({ uid }).map((l) =>
            l.replace('RECURRENCE-ID;TZID=Europe/Berlin:20270112T190000', 'RECURRENCE-ID:20270112T190500Z'),
          ),
        ),
      );
      assert.deepEqual(unknown.skipped, [{ uid, reason: 'unknown RECURRENCE-ID' }]);
    });
  });
}
