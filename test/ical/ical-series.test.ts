import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import ICAL from 'ical.js';
import { testDialects } from '../helpers/databases.js';
import { useTestApp, type TestApi } from '../helpers/app.js';
import { assertWellFormed } from '../helpers/ical.js';

// Response bodies are arbitrary JSON by nature.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const unfold = (text: string) => text.replace(/\r\n[ \t]/g, '');

async function occurrences(api: TestApi, id: number): Promise<Json[]> {
  const res = await api.get(`/events/${id}/occurrences`, { query: { per_page: 50 } });
  assert.equal(res.status, 200, res.text);
  return res.json.events;
}

/**
 * The instants a calendar client shows for a file's series: ical.js expands the master's RRULE
 * and EXDATEs and replaces the starts its RECURRENCE-ID overrides name (RFC 5545 §3.8.4.4).
 */
function clientView(text: string, uid: string, until: Date): { start: string; summary: string }[] {
  const calendar = new ICAL.Component(ICAL.parse(text));
  ICAL.TimezoneService.reset();
  for (const vtimezone of calendar.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(vtimezone);
  const vevents = calendar.getAllSubcomponents('vevent').map((c) => new ICAL.Event(c));
  const master = vevents.find((e) => e.uid === uid && !e.isRecurrenceException());
  assert.ok(master, 'the master VEVENT');
  for (const exception of vevents.filter((e) => e.uid === uid && e.isRecurrenceException()))
    master.relateException(exception);
  const iterator = master.iterator();
  const seen: { start: string; summary: string }[] = [];
  for (let next = iterator.next(); next && next.toJSDate() <= until; next = iterator.next()) {
    const details = master.getOccurrenceDetails(next);
    seen.push({ start: details.startDate.toJSDate().toISOString(), summary: details.item.summary });
  }
  return seen;
}

for (const dialect of await testDialects()) {
  describe(`iCalendar export of recurring series [${dialect}]`, () => {
    const t = useTestApp(dialect);

    it('a series is one master VEVENT with its lines and EXDATEs, then its overrides; clients see the API occurrences', async () => {
      const created = await t.api.post(
        '/events',
        {
          title: 'Weekly class',
          start_date: '2027-03-01 19:00:00',
          end_date: '2027-03-01 20:30:00',
          timezone: 'Europe/Paris',
          recurrence: ['RRULE:FREQ=WEEKLY;COUNT=8', 'EXDATE;TZID=Europe/Paris:20270405T190000'],
        },
        { as: 'administrator' },
      );
      assert.equal(created.status, 201, created.text);
      const series = created.json;
      const before = await occurrences(t.api, series.id);
      assert.equal(before.length, 7);
      // One session trashed (a holiday), one moved to Tuesday in room B.
      assert.equal((await t.api.delete(`/events/${before[2].id}`, { as: 'administrator' })).status, 200);
      const moved = await t.api.patch(
        `/events/${before[4].id}`,
        { title: 'Weekly class (room B)', start_date: '2027-03-30 19:00:00', end_date: '2027-03-30 20:30:00' },
        { as: 'administrator' },
      );
      assert.equal(moved.status, 200, moved.text);

      const file = await t.api.get(`/ical/events/${series.id}.ics`, { raw: true });
      assert.equal(file.status, 200, file.text);
      assertWellFormed(file.text);
      const text = unfold(file.text);
      assert.equal((text.match(/^BEGIN:VEVENT/gm) ?? []).length, 2);
      assert.match(text, /^RRULE:FREQ=WEEKLY;COUNT=8$/m);
      assert.match(text, /^EXDATE;TZID=Europe\/Paris:20270405T190000$/m);
      assert.match(text, /^EXDATE;TZID=Europe\/Paris:20270315T190000$/m);
      assert.match(text, /^RECURRENCE-ID;TZID=Europe\/Paris:20270329T190000$/m);
      assert.equal((text.match(new RegExp(`^UID:${series.ical_uid}$`, 'gm')) ?? []).length, 2);

      const api = (await occurrences(t.api, series.id)).map((o) => ({
        start: new Date(`${o.utc_start_date.replace(' ', 'T')}Z`).toISOString(),
        summary: o.title,
      }));
      const client = clientView(file.text, series.ical_uid, new Date('2030-01-01'));
      assert.deepEqual(client, api);
      assert.equal(client.length, 6);

      const feed = await t.api.get('/ical/events.ics', {
        raw: true,
        query: { start_date: '2027-01-01', end_date: '2027-12-31' },
      });
      assert.equal(feed.status, 200, feed.text);
      assert.equal(feed.headers['x-wp-total'], '1', 'a series counts once');
      assert.deepEqual(clientView(feed.text, series.ical_uid, new Date('2030-01-01')), api);
    });

    it('an occurrence alone is one VEVENT with UID {recurrence_id}-{series UID}, no RRULE, no RECURRENCE-ID', async () => {
      const created = await t.api.post(
        '/events',
        {
          title: 'Daily stand-up',
          start_date: '2027-05-03 09:30:00',
          end_date: '2027-05-03 09:45:00',
          timezone: 'America/New_York',
          recurrence: ['RRULE:FREQ=DAILY;COUNT=3'],
        },
        { as: 'administrator' },
      );
      const [first] = await occurrences(t.api, created.json.id);
      const file = await t.api.get(`/ical/events/${first.id}.ics`, { raw: true });
      assert.equal(file.status, 200, file.text);
      assertWellFormed(file.text);
      const text = unfold(file.text);
      assert.match(text, new RegExp(`^UID:20270503T133000Z-${created.json.ical_uid}$`, 'm'));
      assert.doesNotMatch(text, /^(RRULE|RECURRENCE-ID|EXDATE)/m);
      assert.match(text, /^DTSTART;TZID=America\/New_York:20270503T093000$/m);
    });
  });
}
