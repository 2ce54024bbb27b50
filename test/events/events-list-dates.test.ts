import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { ids, list, listIds, type Query } from '../helpers/fixtures.js';
import { testDialects } from '../helpers/databases.js';
import { DEFAULT_NOW, type TestApi } from '../helpers/app.js';
import { useTestApp } from '../helpers/app.js';
import { createEvent, createEventId } from '../helpers/factories.js';

// GET /events date semantics (API.md §6, §10, §17, §18; tec-api.md §8; tec-tests.md EA-11/12/17, EAU-31..33).

const API = 'http://127.0.0.1:8080/calendar/events/v1';
/** The default window of the default clock 2026-11-21T08:37:48Z on a UTC site, URL-encoded. */
const DEFAULT_START = 'start_date=2026-11-20+00%3A00%3A00';
const DEFAULT_END = 'end_date=2028-11-21+23%3A59%3A59';

/** `YYYY-MM-DD HH:MM:SS` of a UTC instant given in milliseconds. */
const utc = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
const at = (text: string) => Date.parse(`${text.replace(' ', 'T')}Z`);
/** `YYYY-MM-DD HH:MM:SS` as it appears URL-encoded in a query string. */
const enc = (text: string) => text.replace(' ', '+').replace(/:/g, '%3A');

/** A UTC event from `start` to `end` (both `YYYY-MM-DD HH:MM:SS`), published; returns its id. */
async function ev(
  api: TestApi,
  title: string,
  start: string,
  end: string,
  extra: Record<string, unknown> = {},
): Promise<number> {
  return createEventId(api, { title, start_date: start, end_date: end, timezone: 'UTC', ...extra }, 'editor');
}

type BoundName = 'start_date' | 'end_date' | 'starts_before' | 'starts_after' | 'ends_before' | 'ends_after';

/** Each bound: which end of the event it looks at, and which of (1 s before, on, 1 s after) it keeps. */
const BOUNDS: { name: BoundName; key: 'start' | 'end'; keeps: [boolean, boolean, boolean] }[] = [
  { name: 'start_date', key: 'start', keeps: [false, true, true] }, // start >= bound
  { name: 'end_date', key: 'end', keeps: [true, true, false] }, // end <= bound
  { name: 'starts_before', key: 'start', keeps: [true, false, false] }, // start < bound
  { name: 'starts_after', key: 'start', keeps: [false, false, true] }, // start > bound
  { name: 'ends_before', key: 'end', keeps: [true, false, false] }, // end < bound
  { name: 'ends_after', key: 'end', keeps: [false, false, true] }, // end > bound
];

for (const dialect of await testDialects()) {
  describe(`GET /events dates, UTC site [${dialect}]`, () => {
    const t = useTestApp(dialect);
    beforeEach(() => t.api.clearContent());

    it('default window: from the beginning of yesterday to the end of the day 24 months ahead', async () => {
      // now = 2026-11-21 08:37:48 UTC: yesterday starts 2026-11-20 00:00:00, the window ends 2028-11-21 23:59:59.
      assert.equal(t.api.now.toISOString(), DEFAULT_NOW.toISOString());
      const dayBefore = await ev(t.api, 'Day before yesterday', '2026-11-19 12:00:00', '2026-11-22 12:00:00');
      const lastSecond = await ev(t.api, 'Last second of the day before', '2026-11-19 23:59:59', '2026-11-20 01:00:00');
      const midnight = await ev(t.api, 'Yesterday midnight', '2026-11-20 00:00:00', '2026-11-20 00:10:00');
      const yesterday = await ev(t.api, 'Yesterday 00:30', '2026-11-20 00:30:00', '2026-11-20 01:30:00');
      const today = await ev(t.api, 'Today', '2026-11-21 07:00:00', '2026-11-21 08:00:00');
      const lastIn = await ev(t.api, 'Ends on the last second', '2028-11-21 20:00:00', '2028-11-21 23:59:59');
      const tooLong = await ev(t.api, 'Ends 24 months + 1 day ahead', '2028-11-20 10:00:00', '2028-11-22 10:00:00');
      const firstOut = await ev(t.api, 'Ends one second too late', '2028-11-21 23:00:00', '2028-11-22 00:00:00');
      const res = await list(t.api, '/events');
      assert.deepEqual(ids(res), [midnight, yesterday, today, lastIn]);
      assert.equal(res.json.total, 4);
      assert.equal(
        res.json.rest_url,
        `${API}/events/?page=1&per_page=10&${DEFAULT_START}&${DEFAULT_END}&status=publish`,
      );
      for (const out of [dayBefore, lastSecond, tooLong, firstOut]) assert.ok(!ids(res).includes(out));
    });

    it('the default window follows the clock', async () => {
      const a = await ev(t.api, 'Early December', '2026-12-01 10:00:00', '2026-12-01 11:00:00');
      const b = await ev(t.api, 'Mid December', '2026-12-15 10:00:00', '2026-12-15 11:00:00');
      const saved = t.api.now;
      try {
        t.api.now = new Date('2026-12-10T00:00:00Z');
        const res = await list(t.api, '/events');
        assert.deepEqual(ids(res), [b]);
        assert.equal(
          res.json.rest_url,
          `${API}/events/?page=1&per_page=10&start_date=2026-12-09+00%3A00%3A00&end_date=2028-12-10+23%3A59%3A59&status=publish`,
        );
      } finally {
        t.api.now = saved;
      }
      assert.deepEqual(await listIds(t.api, '/events'), [a, b]);
    });

    for (const bound of BOUNDS) {
      for (const strict of [false, true]) {
        it(`${bound.name} ${bound.key === 'start' ? 'on the start' : 'on the end'}: ${strict ? 'exact instant with strict_dates' : 'rounded to the whole day'}`, async () => {
          // The value sent carries a time; without strict_dates it is ignored and the day is used:
          // start_date rounds down to 00:00:00, every other bound up to 23:59:59.
          const sent = '2027-01-10 12:00:00';
          const edge = strict ? sent : bound.name === 'start_date' ? '2027-01-10 00:00:00' : '2027-01-10 23:59:59';
          const created: number[] = [];
          for (const [i, delta] of [-1, 0, 1].entries()) {
            const keyMs = at(edge) + delta * 1000;
            const [start, end] = bound.key === 'start' ? [keyMs, keyMs + 1_800_000] : [keyMs - 1_800_000, keyMs];
            created.push(await ev(t.api, `${bound.name} ${['before', 'on', 'after'][i]}`, utc(start), utc(end)));
          }
          const query: Query = { [bound.name]: sent };
          if (strict) query.strict_dates = 'true';
          const res = await list(t.api, '/events', query);
          assert.deepEqual(
            ids(res),
            created.filter((_, i) => bound.keeps[i]),
          );
          const strictTail = strict ? '&strict_dates=1' : '';
          const expected =
            bound.name === 'start_date'
              ? `start_date=${enc(edge)}&${DEFAULT_END}&status=publish${strictTail}`
              : bound.name === 'end_date'
                ? `${DEFAULT_START}&end_date=${enc(edge)}&status=publish${strictTail}`
                : `status=publish&${bound.name}=${enc(edge)}${strictTail}`;
          assert.equal(res.json.rest_url, `${API}/events/?page=1&per_page=10&${expected}`);
        });
      }
    }

    it('strict_dates=false behaves as absent and is not echoed', async () => {
      const early = await ev(t.api, 'Early', '2027-01-10 01:00:00', '2027-01-10 02:00:00');
      const late = await ev(t.api, 'Late', '2027-01-10 22:00:00', '2027-01-10 23:00:00');
      const res = await list(t.api, '/events', { start_date: '2027-01-10 12:00', strict_dates: 'false' });
      assert.deepEqual(ids(res), [early, late]);
      assert.equal(
        res.json.rest_url,
        `${API}/events/?page=1&per_page=10&start_date=2027-01-10+00%3A00%3A00&${DEFAULT_END}&status=publish`,
      );
      assert.deepEqual(await listIds(t.api, '/events', { start_date: '2027-01-10 12:00', strict_dates: '1' }), [late]);
      assert.equal((await t.api.get('/events', { query: { strict_dates: 'maybe' } })).status, 400);
    });

    it('EAU-32 (years shifted): start_date/end_date use whole days unless strict_dates', async () => {
      const e0 = await ev(t.api, 'e0', '2027-12-31 17:00:00', '2027-12-31 19:00:00');
      const e1 = await ev(t.api, 'e1', '2028-01-01 16:00:00', '2028-01-01 16:30:00');
      const e2 = await ev(t.api, 'e2', '2028-01-01 20:00:00', '2028-01-01 20:30:00');
      const e3 = await ev(t.api, 'e3', '2028-01-02 10:00:00', '2028-01-02 12:00:00');
      const base = { start_date: '2028-01-01 15:00:00', end_date: '2028-01-01 18:00:00' };
      assert.deepEqual(await listIds(t.api, '/events', base), [e1, e2]);
      assert.deepEqual(await listIds(t.api, '/events', { ...base, strict_dates: 'false' }), [e1, e2]);
      const strict = await list(t.api, '/events', { ...base, strict_dates: 'true' });
      assert.deepEqual(ids(strict), [e1]);
      assert.equal(
        strict.json.rest_url,
        `${API}/events/?page=1&per_page=10&start_date=2028-01-01+15%3A00%3A00&end_date=2028-01-01+18%3A00%3A00&status=publish&strict_dates=1`,
      );
      for (const out of [e0, e3]) assert.ok(!ids(strict).includes(out));
    });

    it('EAU-33 (years shifted): relative bounds drop the default window and are AND-ed with static ones', async () => {
      const e0 = await ev(t.api, 'e0', '2027-12-31 17:00:00', '2027-12-31 19:00:00');
      const e1 = await ev(t.api, 'e1', '2028-01-01 16:00:00', '2028-01-01 18:00:00');
      const e2 = await ev(t.api, 'e2', '2028-01-01 19:00:00', '2028-01-01 21:00:00');
      const e3 = await ev(t.api, 'e3', '2028-01-02 10:00:00', '2028-01-02 12:00:00');
      const e4 = await ev(t.api, 'e4', '2027-12-30 10:00:00', '2028-01-02 10:00:00');
      const e5 = await ev(t.api, 'e5', '2027-12-29 10:00:00', '2028-01-03 10:00:00');
      const relative = await list(t.api, '/events', { ends_after: '2027-12-31', starts_before: '2028-01-02' });
      assert.deepEqual(ids(relative), [e5, e4, e1, e2, e3]);
      assert.ok(!ids(relative).includes(e0));
      assert.equal(
        relative.json.rest_url,
        `${API}/events/?page=1&per_page=10&status=publish&starts_before=2028-01-02+23%3A59%3A59&ends_after=2027-12-31+23%3A59%3A59`,
      );
      const both = await list(t.api, '/events', {
        ends_after: '2027-12-31',
        starts_before: '2028-01-02',
        start_date: '2027-12-30',
        end_date: '2028-01-02',
      });
      assert.deepEqual(ids(both), [e4, e1, e2, e3]);
      assert.equal(
        both.json.rest_url,
        `${API}/events/?page=1&per_page=10&start_date=2027-12-30+00%3A00%3A00&end_date=2028-01-02+23%3A59%3A59&status=publish&starts_before=2028-01-02+23%3A59%3A59&ends_after=2027-12-31+23%3A59%3A59`,
      );
    });

    it('a relative bound drops only the default bounds it does not give, even far in the past or future', async () => {
      const past = await ev(t.api, 'Long ago', '2020-05-01 10:00:00', '2020-05-01 11:00:00');
      const soon = await ev(t.api, 'Soon', '2026-12-01 10:00:00', '2026-12-01 11:00:00');
      const far = await ev(t.api, 'Far ahead', '2031-05-01 10:00:00', '2031-05-01 11:00:00');
      assert.deepEqual(await listIds(t.api, '/events'), [soon]);
      assert.deepEqual(await listIds(t.api, '/events', { starts_before: '2030-01-01' }), [past, soon]);
      assert.deepEqual(await listIds(t.api, '/events', { ends_after: '2021-01-01' }), [soon, far]);
      // An explicit start_date with a relative bound: no default end any more.
      assert.deepEqual(await listIds(t.api, '/events', { start_date: '2026-01-01', ends_after: '2021-01-01' }), [
        soon,
        far,
      ]);
      // An explicit end_date alone keeps the default start.
      assert.deepEqual(await listIds(t.api, '/events', { end_date: '2032-01-01' }), [soon, far]);
    });

    it('EA-11/EA-12/EA-17: Unix timestamps are instants, rounded to their site-zone day unless strict', async () => {
      const weekly: number[] = [];
      for (let week = 1; week <= 10; week++) {
        const start = at('2026-11-21 08:37:48') + week * 7 * 86_400_000;
        weekly.push(await ev(t.api, `Week ${week}`, utc(start), utc(start + 7_200_000)));
      }
      const now = Math.floor(at('2026-11-21 08:37:48') / 1000);
      const fiveWeeks = now + 5 * 7 * 86_400;
      const starting = await list(t.api, '/events', { start_date: String(fiveWeeks), per_page: 20 });
      assert.deepEqual(ids(starting), weekly.slice(4));
      assert.equal(
        starting.json.rest_url,
        `${API}/events/?page=1&per_page=20&start_date=2026-12-26+00%3A00%3A00&${DEFAULT_END}&status=publish`,
      );
      assert.deepEqual(
        await listIds(t.api, '/events', { end_date: String(fiveWeeks + 7200), per_page: 20 }),
        weekly.slice(0, 5),
      );
      assert.deepEqual(
        await listIds(t.api, '/events', {
          start_date: String(now + 10 * 86_400),
          end_date: String(now + 30 * 86_400),
          per_page: 20,
        }),
        weekly.slice(1, 4),
      );
      // Strict: the timestamp itself (week 5 starts exactly at fiveWeeks).
      const strict = await list(t.api, '/events', {
        start_date: String(fiveWeeks + 1),
        strict_dates: 'true',
        per_page: 20,
      });
      assert.deepEqual(ids(strict), weekly.slice(5));
      assert.equal(
        strict.json.rest_url,
        `${API}/events/?page=1&per_page=20&start_date=2026-12-26+08%3A37%3A49&${DEFAULT_END}&status=publish&strict_dates=1`,
      );
    });

    it('relative forms are read in the site zone against the clock', async () => {
      const today = await ev(t.api, 'Today late', '2026-11-21 23:00:00', '2026-11-21 23:30:00');
      const tomorrow = await ev(t.api, 'Tomorrow midnight', '2026-11-22 00:00:00', '2026-11-22 01:00:00');
      const nextWeek = await ev(t.api, 'Next week', '2026-11-28 12:00:00', '2026-11-28 13:00:00');
      const res = await list(t.api, '/events', { start_date: 'tomorrow' });
      assert.deepEqual(ids(res), [tomorrow, nextWeek]);
      assert.equal(
        res.json.rest_url,
        `${API}/events/?page=1&per_page=10&start_date=2026-11-22+00%3A00%3A00&${DEFAULT_END}&status=publish`,
      );
      assert.deepEqual(await listIds(t.api, '/events', { start_date: 'today', end_date: 'tomorrow' }), [
        today,
        tomorrow,
      ]);
      const plus = await list(t.api, '/events', { ends_before: '+3 days' });
      assert.deepEqual(ids(plus), [today, tomorrow]);
      assert.equal(
        plus.json.rest_url,
        `${API}/events/?page=1&per_page=10&status=publish&ends_before=2026-11-24+23%3A59%3A59`,
      );
      assert.deepEqual(await listIds(t.api, '/events', { starts_after: 'tomorrow' }), [nextWeek]);
      const strictNow = await list(t.api, '/events', { start_date: 'now', strict_dates: 'true' });
      assert.deepEqual(ids(strictNow), [today, tomorrow, nextWeek]);
      assert.match(strictNow.json.rest_url, /start_date=2026-11-21\+08%3A37%3A48&/);
      for (const bad of ['"before my birthday"', 'someday', '2027-02-31', '2027-01-10 25:00']) {
        const res400 = await t.api.get('/events', { query: { start_date: bad } });
        assert.equal(res400.status, 400, bad);
        assert.equal(res400.json.code, 'rest_invalid_param');
        assert.deepEqual(Object.keys(res400.json.data.params), ['start_date']);
      }
      assert.deepEqual(
        Object.keys((await t.api.get('/events', { query: { ends_after: 'whenever' } })).json.data.params),
        ['ends_after'],
      );
    });

    it('a date with an explicit offset is an instant', async () => {
      const justBefore = await ev(t.api, 'Before', '2027-01-09 20:59:59', '2027-01-09 21:30:00');
      const on = await ev(t.api, 'On', '2027-01-09 21:00:00', '2027-01-09 21:30:00');
      const strict = await list(t.api, '/events', { start_date: '2027-01-10T02:00:00+05:00', strict_dates: 'true' });
      assert.deepEqual(ids(strict), [on]);
      assert.equal(
        strict.json.rest_url,
        `${API}/events/?page=1&per_page=10&start_date=2027-01-09+21%3A00%3A00&${DEFAULT_END}&status=publish&strict_dates=1`,
      );
      // Not strict: the day of that instant in the site zone (2027-01-09 in UTC), not the written 2027-01-10.
      const dayRounded = await list(t.api, '/events', { start_date: '2027-01-10T02:00:00+05:00' });
      assert.deepEqual(ids(dayRounded), [justBefore, on]);
      assert.match(dayRounded.json.rest_url, /start_date=2027-01-09\+00%3A00%3A00&/);
      assert.deepEqual(
        await listIds(t.api, '/events', { starts_before: '2027-01-09T21:00:00Z', strict_dates: 'true' }),
        [justBefore],
      );
      assert.deepEqual(
        await listIds(t.api, '/events', { starts_before: '2027-01-09T16:00:00-05:00', strict_dates: 'true' }),
        [justBefore],
      );
    });

    it('include ignores every date filter, keeps the listed order and leaves the bounds out of rest_url', async () => {
      const past = await ev(t.api, 'Past', '2024-03-01 10:00:00', '2024-03-01 11:00:00');
      const soon = await ev(t.api, 'Soon', '2026-12-01 10:00:00', '2026-12-01 11:00:00');
      const far = await ev(t.api, 'Beyond the window', '2030-01-01 10:00:00', '2030-01-01 11:00:00');
      const other = await ev(t.api, 'Not included', '2026-12-02 10:00:00', '2026-12-02 11:00:00');
      const res = await list(t.api, '/events', {
        include: `${far},${past},${soon}`,
        start_date: '2026-12-01',
        end_date: '2026-12-01',
      });
      assert.deepEqual(ids(res), [far, past, soon]);
      assert.equal(res.json.total, 3);
      assert.equal(
        res.json.rest_url,
        `${API}/events/?page=1&per_page=10&status=publish&include=${far}%2C${past}%2C${soon}`,
      );
      assert.deepEqual(
        await listIds(t.api, '/events', {
          include: [past, far],
          starts_after: '2029-01-01',
          ends_before: '2020-01-01',
        }),
        [past, far],
      );
      assert.ok(!ids(res).includes(other));
    });

    it('DST in America/New_York: EST/EDT on both sides of the changes, filtered by instant on a UTC site', async () => {
      // 2027-03-14: 02:00 EST jumps to 03:00 EDT.
      const springBefore = await createEvent(
        t.api,
        {
          title: 'NY before spring',
          timezone: 'America/New_York',
          start_date: '2027-03-14 01:30:00',
          end_date: '2027-03-14 01:45:00',
        },
        'editor',
      );
      const springAfter = await createEvent(
        t.api,
        {
          title: 'NY after spring',
          timezone: 'America/New_York',
          start_date: '2027-03-14 03:30:00',
          end_date: '2027-03-14 04:00:00',
        },
        'editor',
      );
      assert.equal(springBefore.start_date, '2027-03-14 01:30:00');
      assert.equal(springBefore.utc_start_date, '2027-03-14 06:30:00');
      assert.equal(springBefore.timezone_abbr, 'EST');
      assert.equal(springAfter.start_date, '2027-03-14 03:30:00');
      assert.equal(springAfter.utc_start_date, '2027-03-14 07:30:00');
      assert.equal(springAfter.utc_end_date, '2027-03-14 08:00:00');
      assert.equal(springAfter.timezone_abbr, 'EDT');
      // One hour of local time apart on the wall clock of 01:30 → 03:30, but only one hour of real time.
      assert.deepEqual(await listIds(t.api, '/events', { start_date: '2027-03-14 06:30:00', strict_dates: 'true' }), [
        springBefore.id,
        springAfter.id,
      ]);
      assert.deepEqual(await listIds(t.api, '/events', { start_date: '2027-03-14 06:30:01', strict_dates: 'true' }), [
        springAfter.id,
      ]);
      assert.deepEqual(
        await listIds(t.api, '/events', { starts_before: '2027-03-14 07:30:00', strict_dates: 'true' }),
        [springBefore.id],
      );
      // 2026-11-01: 02:00 EDT falls back to 01:00 EST.
      const fallBefore = await createEvent(
        t.api,
        {
          title: 'NY before fall',
          timezone: 'America/New_York',
          start_date: '2026-11-01 00:30:00',
          end_date: '2026-11-01 00:45:00',
        },
        'editor',
      );
      const fallAfter = await createEvent(
        t.api,
        {
          title: 'NY after fall',
          timezone: 'America/New_York',
          start_date: '2026-11-01 03:00:00',
          end_date: '2026-11-01 03:30:00',
        },
        'editor',
      );
      assert.equal(fallBefore.utc_start_date, '2026-11-01 04:30:00');
      assert.equal(fallBefore.timezone_abbr, 'EDT');
      assert.equal(fallAfter.start_date, '2026-11-01 03:00:00');
      assert.equal(fallAfter.utc_start_date, '2026-11-01 08:00:00');
      assert.equal(fallAfter.timezone_abbr, 'EST');
      assert.deepEqual(
        await listIds(t.api, '/events', {
          start_date: '2026-11-01 04:30:00',
          end_date: '2026-11-01 08:30:00',
          strict_dates: 'true',
        }),
        [fallBefore.id, fallAfter.id],
      );
      assert.deepEqual(
        await listIds(t.api, '/events', {
          start_date: '2026-11-01 04:30:01',
          end_date: '2026-11-01 08:30:00',
          strict_dates: 'true',
        }),
        [fallAfter.id],
      );
      assert.deepEqual(
        await listIds(t.api, '/events', {
          start_date: '2026-11-01 04:30:00',
          end_date: '2026-11-01 08:29:59',
          strict_dates: 'true',
        }),
        [fallBefore.id],
      );
    });

    it('DST in Europe/Paris: CET/CEST on both sides of the changes, and UTC days decide membership', async () => {
      // 2027-03-28: 02:00 CET jumps to 03:00 CEST.
      const springBefore = await createEvent(
        t.api,
        {
          title: 'Paris before spring',
          timezone: 'Europe/Paris',
          start_date: '2027-03-28 01:30:00',
          end_date: '2027-03-28 01:45:00',
        },
        'editor',
      );
      const springAfter = await createEvent(
        t.api,
        {
          title: 'Paris after spring',
          timezone: 'Europe/Paris',
          start_date: '2027-03-28 03:30:00',
          end_date: '2027-03-28 03:45:00',
        },
        'editor',
      );
      assert.equal(springBefore.utc_start_date, '2027-03-28 00:30:00');
      assert.equal(springBefore.timezone_abbr, 'CET');
      assert.equal(springAfter.utc_start_date, '2027-03-28 01:30:00');
      assert.equal(springAfter.timezone_abbr, 'CEST');
      assert.deepEqual(await listIds(t.api, '/events', { starts_after: '2027-03-28 00:30:00', strict_dates: 'true' }), [
        springAfter.id,
      ]);
      assert.deepEqual(await listIds(t.api, '/events', { starts_after: '2027-03-28 00:29:59', strict_dates: 'true' }), [
        springBefore.id,
        springAfter.id,
      ]);
      // 2026-10-25: 03:00 CEST falls back to 02:00 CET. 01:30 CEST is still 24 October in UTC.
      const fallBefore = await createEvent(
        t.api,
        {
          title: 'Paris before fall',
          timezone: 'Europe/Paris',
          start_date: '2026-10-25 01:30:00',
          end_date: '2026-10-25 01:45:00',
        },
        'editor',
      );
      const fallAfter = await createEvent(
        t.api,
        {
          title: 'Paris after fall',
          timezone: 'Europe/Paris',
          start_date: '2026-10-25 03:30:00',
          end_date: '2026-10-25 04:00:00',
        },
        'editor',
      );
      assert.equal(fallBefore.start_date, '2026-10-25 01:30:00');
      assert.equal(fallBefore.utc_start_date, '2026-10-24 23:30:00');
      assert.equal(fallBefore.utc_end_date, '2026-10-24 23:45:00');
      assert.equal(fallBefore.timezone_abbr, 'CEST');
      assert.equal(fallAfter.utc_start_date, '2026-10-25 02:30:00');
      assert.equal(fallAfter.timezone_abbr, 'CET');
      assert.deepEqual(await listIds(t.api, '/events', { start_date: '2026-10-24', end_date: '2026-10-24' }), [
        fallBefore.id,
      ]);
      assert.deepEqual(await listIds(t.api, '/events', { start_date: '2026-10-25', end_date: '2026-10-25' }), [
        fallAfter.id,
      ]);
    });

    it('an all-day event is a floating day: Pacific/Auckland 2027-02-10 matches 2027-02-10 on a UTC site', async () => {
      const created = await createEvent(
        t.api,
        {
          title: 'Waitangi eve',
          timezone: 'Pacific/Auckland',
          all_day: true,
          start_date: '2027-02-10 15:00',
          end_date: '2027-02-10 16:00',
        },
        'editor',
      );
      assert.equal(created.all_day, true);
      assert.equal(created.start_date, '2027-02-10 00:00:00');
      assert.equal(created.end_date, '2027-02-10 23:59:59');
      assert.equal(created.utc_start_date, '2027-02-09 11:00:00');
      assert.equal(created.timezone, 'Pacific/Auckland');
      const listed = await list(t.api, '/events', { start_date: '2027-02-10', end_date: '2027-02-10' });
      assert.deepEqual(ids(listed), [created.id]);
      assert.equal(listed.json.events[0].start_date, '2027-02-10 00:00:00');
      assert.equal(listed.json.events[0].end_date, '2027-02-10 23:59:59');
      assert.deepEqual(await listIds(t.api, '/events', { start_date: '2027-02-11' }), []);
      // Its UTC instants lie on 9-10 February, but as a floating day it is not on the 9th.
      assert.deepEqual(await listIds(t.api, '/events', { start_date: '2027-02-09', end_date: '2027-02-09' }), []);
      assert.deepEqual(
        await listIds(t.api, '/events', {
          start_date: '2027-02-10 00:00:00',
          end_date: '2027-02-10 23:59:59',
          strict_dates: 'true',
        }),
        [created.id],
      );
      assert.deepEqual(
        await listIds(t.api, '/events', { start_date: '2027-02-10 00:00:01', strict_dates: 'true' }),
        [],
      );
      // A timed event at 23:00 UTC on the 9th sorts before it; one at 06:00 UTC on the 10th after it.
      const timedBefore = await ev(t.api, 'Timed 9th', '2027-02-09 23:00:00', '2027-02-09 23:30:00');
      const timedAfter = await ev(t.api, 'Timed 10th', '2027-02-10 06:00:00', '2027-02-10 07:00:00');
      assert.deepEqual(await listIds(t.api, '/events', { start_date: '2027-02-09', end_date: '2027-02-10' }), [
        timedBefore,
        created.id,
        timedAfter,
      ]);
    });
  });

  describe(`GET /events dates, America/New_York site [${dialect}]`, () => {
    const t = useTestApp(dialect, { env: { SITE_TIMEZONE: 'America/New_York' } });
    let saved: Date;
    before(() => {
      saved = t.api.now;
      // 2026-11-21 03:00 UTC is still 2026-11-20 22:00 in New York: "yesterday" there is 2026-11-19.
      t.api.now = new Date('2026-11-21T03:00:00Z');
    });
    after(() => {
      t.api.now = saved;
    });
    beforeEach(() => t.api.clearContent());

    it('the default window is made of New York days', async () => {
      const tooEarly = await ev(t.api, 'NY 2026-11-18 23:59:59', '2026-11-19 04:59:59', '2026-11-19 06:00:00');
      const nyMidnight = await ev(t.api, 'NY yesterday midnight', '2026-11-19 05:00:00', '2026-11-19 06:00:00');
      const noonUtc = await ev(t.api, 'UTC 2026-11-19 noon', '2026-11-19 12:00:00', '2026-11-19 13:00:00');
      const lastIn = await ev(t.api, 'Ends NY 2028-11-20 23:00', '2028-11-21 03:00:00', '2028-11-21 04:00:00');
      const lateOut = await ev(t.api, 'Ends NY 2028-11-21 00:00', '2028-11-21 04:00:00', '2028-11-21 05:00:00');
      const res = await list(t.api, '/events');
      assert.deepEqual(ids(res), [nyMidnight, noonUtc, lastIn]);
      assert.ok(!ids(res).includes(tooEarly) && !ids(res).includes(lateOut));
      assert.equal(
        res.json.rest_url,
        `${API}/events/?page=1&per_page=10&start_date=2026-11-19+00%3A00%3A00&end_date=2028-11-20+23%3A59%3A59&status=publish`,
      );
    });

    it('events created without a zone take the site zone', async () => {
      const created = await createEvent(
        t.api,
        { title: 'Local', start_date: '2027-01-10 00:00:00', end_date: '2027-01-10 01:00:00', timezone: undefined },
        'editor',
      );
      assert.equal(created.timezone, 'America/New_York');
      assert.equal(created.utc_start_date, '2027-01-10 05:00:00');
      assert.equal(created.timezone_abbr, 'EST');
    });

    it('bounds without an offset are New York wall-clock days', async () => {
      const early = await ev(t.api, 'Before NY day', '2027-01-10 04:59:59', '2027-01-10 05:30:00');
      const first = await ev(t.api, 'First second of NY day', '2027-01-10 05:00:00', '2027-01-10 05:30:00');
      const last = await ev(t.api, 'Ends on last second of NY day', '2027-01-11 04:00:00', '2027-01-11 04:59:59');
      const next = await ev(t.api, 'Ends on next NY day', '2027-01-11 04:30:00', '2027-01-11 05:00:00');
      const day = await list(t.api, '/events', { start_date: '2027-01-10', end_date: '2027-01-10' });
      assert.deepEqual(ids(day), [first, last]);
      assert.equal(
        day.json.rest_url,
        `${API}/events/?page=1&per_page=10&start_date=2027-01-10+00%3A00%3A00&end_date=2027-01-10+23%3A59%3A59&status=publish`,
      );
      assert.deepEqual(await listIds(t.api, '/events', { ends_before: '2027-01-10' }), [early, first]);
      assert.deepEqual(await listIds(t.api, '/events', { ends_after: '2027-01-10' }), [next]);
      assert.deepEqual(await listIds(t.api, '/events', { starts_after: '2027-01-09' }), [first, last, next]);
      // Strict, wall clock: 2027-01-10 00:00:00 New York = 05:00:00 UTC.
      assert.deepEqual(
        await listIds(t.api, '/events', {
          start_date: '2027-01-10 00:00:00',
          end_date: '2027-01-10 05:30:00',
          strict_dates: 'true',
        }),
        [first],
      );
      // Strict with an offset: the instant, echoed as New York wall clock.
      const offset = await list(t.api, '/events', { start_date: '2027-01-10T05:00:00Z', strict_dates: 'true' });
      assert.deepEqual(ids(offset), [first, last, next]);
      assert.equal(
        offset.json.rest_url,
        `${API}/events/?page=1&per_page=10&start_date=2027-01-10+00%3A00%3A00&end_date=2028-11-20+23%3A59%3A59&status=publish&strict_dates=1`,
      );
      // A timestamp is an instant whose day is taken in New York: 03:00 UTC on the 11th is the 10th there.
      const stamp = Math.floor(Date.parse('2027-01-11T03:00:00Z') / 1000);
      const byStamp = await list(t.api, '/events', { start_date: String(stamp) });
      assert.deepEqual(ids(byStamp), [first, last, next]);
      assert.match(byStamp.json.rest_url, /start_date=2027-01-10\+00%3A00%3A00&/);
    });

    it('day rounding follows the 23- and 25-hour New York days of the DST changes', async () => {
      // 2027-03-14 lasts 23 hours: 05:00Z (EST midnight) to 03:59:59Z next day (EDT 23:59:59).
      const springFirst = await ev(t.api, 'Spring day first second', '2027-03-14 05:00:00', '2027-03-14 05:30:00');
      const springLast = await ev(t.api, 'Spring day 23:30 EDT', '2027-03-15 03:30:00', '2027-03-15 03:59:59');
      const springNext = await ev(t.api, 'Next day 00:00 EDT', '2027-03-15 04:00:00', '2027-03-15 04:30:00');
      const spring = await list(t.api, '/events', { start_date: '2027-03-14', end_date: '2027-03-14' });
      assert.deepEqual(ids(spring), [springFirst, springLast]);
      assert.equal(
        spring.json.rest_url,
        `${API}/events/?page=1&per_page=10&start_date=2027-03-14+00%3A00%3A00&end_date=2027-03-14+23%3A59%3A59&status=publish`,
      );
      assert.deepEqual(await listIds(t.api, '/events', { starts_after: '2027-03-14' }), [springNext]);
      // 2026-11-01 lasts 25 hours: 04:00Z (EDT midnight) to 04:59:59Z next day (EST 23:59:59).
      const fallEarly = await ev(t.api, 'Fall day before midnight', '2026-11-01 03:59:59', '2026-11-01 04:30:00');
      const fallFirst = await ev(t.api, 'Fall day first second', '2026-11-01 04:00:00', '2026-11-01 04:30:00');
      const fallLast = await ev(t.api, 'Fall day 23:30 EST', '2026-11-02 04:30:00', '2026-11-02 04:59:59');
      const fallNext = await ev(t.api, 'Next day 00:00 EST', '2026-11-02 05:00:00', '2026-11-02 05:30:00');
      assert.deepEqual(await listIds(t.api, '/events', { start_date: '2026-11-01', end_date: '2026-11-01' }), [
        fallFirst,
        fallLast,
      ]);
      assert.deepEqual(await listIds(t.api, '/events', { starts_before: '2026-11-01' }), [
        fallEarly,
        fallFirst,
        fallLast,
      ]);
      assert.deepEqual(await listIds(t.api, '/events', { ends_before: '2026-11-02', starts_after: '2026-10-31' }), [
        fallFirst,
        fallLast,
        fallNext,
      ]);
    });

    it('"tomorrow" and "yesterday" are New York days', async () => {
      const nyToday = await ev(t.api, 'NY today 23:00', '2026-11-21 04:00:00', '2026-11-21 04:30:00');
      const nyTomorrow = await ev(t.api, 'NY tomorrow 00:00', '2026-11-21 05:00:00', '2026-11-21 05:30:00');
      const res = await list(t.api, '/events', { start_date: 'tomorrow' });
      assert.deepEqual(ids(res), [nyTomorrow]);
      assert.match(res.json.rest_url, /start_date=2026-11-21\+00%3A00%3A00&/);
      assert.deepEqual(await listIds(t.api, '/events', { start_date: 'today', end_date: 'today' }), [nyToday]);
      assert.match(
        (await list(t.api, '/events', { start_date: 'yesterday' })).json.rest_url,
        /start_date=2026-11-19\+00%3A00%3A00&/,
      );
    });

    it('an all-day event floats onto the same New York day', async () => {
      const created = await createEvent(
        t.api,
        {
          title: 'Tokyo holiday',
          timezone: 'Asia/Tokyo',
          all_day: true,
          start_date: '2027-02-11',
          end_date: '2027-02-11',
        },
        'editor',
      );
      assert.equal(created.start_date, '2027-02-11 00:00:00');
      assert.equal(created.utc_start_date, '2027-02-10 15:00:00');
      assert.deepEqual(await listIds(t.api, '/events', { start_date: '2027-02-11', end_date: '2027-02-11' }), [
        created.id,
      ]);
      assert.deepEqual(await listIds(t.api, '/events', { start_date: '2027-02-10', end_date: '2027-02-10' }), []);
    });
  });
}
