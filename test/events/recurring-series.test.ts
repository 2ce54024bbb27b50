import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { testDialects } from '../helpers/databases.js';
import { useTestApp, type TestApi } from '../helpers/app.js';
import { extendHorizon } from '../../src/modules/events/series/series.horizon.js';

// Response bodies are arbitrary JSON by nature.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const WEEKLY_PARIS = {
  title: 'Evening class',
  start_date: '2027-03-01 19:00:00',
  end_date: '2027-03-01 20:30:00',
  timezone: 'Europe/Paris',
  recurrence: ['RRULE:FREQ=WEEKLY;COUNT=6'],
};

async function occurrencesOf(api: TestApi, seriesId: number): Promise<Json[]> {
  const res = await api.get(`/events/${seriesId}/occurrences`, { as: 'administrator', query: { per_page: 50 } });
  assert.equal(res.status, 200, res.text);
  assert.equal(res.json.total, res.json.events.length);
  return res.json.events;
}

const starts = (events: Json[]) => events.map((e) => e.start_date);
const ids = (events: Json[]) => events.map((e) => e.id);

for (const dialect of await testDialects()) {
  describe(`recurring events: series and occurrences [${dialect}]`, () => {
    const t = useTestApp(dialect);

    it('a weekly 19:00 Europe/Paris series stays at 19:00 local across the DST change', async () => {
      const res = await t.api.post('/events', WEEKLY_PARIS, { as: 'administrator' });
      assert.equal(res.status, 201, res.text);
      const series = res.json;
      assert.equal(series.is_recurring, true);
      assert.equal(series.series_id, null);
      assert.deepEqual(series.recurrence, WEEKLY_PARIS.recurrence);
      assert.equal(series.occurrences_url, `http://127.0.0.1:8080/calendar/events/v1/events/${series.id}/occurrences`);
      const occurrences = await occurrencesOf(t.api, series.id);
      assert.deepEqual(starts(occurrences), [
        '2027-03-01 19:00:00',
        '2027-03-08 19:00:00',
        '2027-03-15 19:00:00',
        '2027-03-22 19:00:00',
        '2027-03-29 19:00:00',
        '2027-04-05 19:00:00',
      ]);
      // Paris moved to summer time on 28 March: the UTC start moves by an hour, the wall clock does not.
      assert.equal(occurrences[3].utc_start_date, '2027-03-22 18:00:00');
      assert.equal(occurrences[4].utc_start_date, '2027-03-29 17:00:00');
      assert.equal(occurrences[4].end_date, '2027-03-29 20:30:00');
      for (const o of occurrences) {
        assert.equal(o.series_id, series.id);
        assert.equal(o.is_recurring, true);
        assert.equal(o.slug, series.slug);
        assert.equal(o.ical_uid, series.ical_uid);
        assert.deepEqual(o.recurrence, []);
        assert.equal(o.occurrences_url, null);
      }
      assert.equal(occurrences[4].recurrence_id, '20270329T170000Z');
      assert.equal(occurrences[4].url, `http://127.0.0.1:8080/event/${series.slug}/2027-03-29/`);
      // Each occurrence is an event of its own, readable by id.
      const one = await t.api.get(`/events/${occurrences[2].id}`);
      assert.equal(one.status, 200, one.text);
      assert.equal(one.json.start_date, '2027-03-15 19:00:00');
      assert.equal(one.json.title, 'Evening class');
    });

    it('the 2nd and later occurrences on one date add {n}/ to their URL, in every representation, and move up when one goes', async () => {
      const res = await t.api.post(
        '/events',
        { ...WEEKLY_PARIS, title: 'Ranked class', recurrence: ['RRULE:FREQ=DAILY;COUNT=4;BYHOUR=9,13,19'] },
        { as: 'administrator' },
      );
      assert.equal(res.status, 201, res.text);
      const { slug } = res.json;
      const page = (path: string) => `http://127.0.0.1:8080/event/${slug}/${path}`;
      const occurrences = await occurrencesOf(t.api, res.json.id);
      assert.deepEqual(
        occurrences.map((o) => o.url),
        [page('2027-03-01/'), page('2027-03-02/'), page('2027-03-02/2/'), page('2027-03-02/3/')],
      );
      const third = await t.api.get(`/events/${occurrences[3].id}`);
      assert.equal(third.json.url, page('2027-03-02/3/'));
      assert.equal(third.json.json_ld.url, page('2027-03-02/3/'));
      const listed = await t.api.get('/events', { query: { search: 'Ranked', start_date: '2027-03-02' } });
      assert.deepEqual(
        listed.json.events.map((e: Json) => e.url),
        [page('2027-03-02/'), page('2027-03-02/2/'), page('2027-03-02/3/')],
      );
      const website = await t.api.request('GET', new URL(page('2027-03-02/3/')).pathname, undefined, { raw: true });
      assert.equal(website.status, 200);
      assert.match(website.text, /13:00|1:00/);
      // The first on that date goes for good: the others are now the 1st and 2nd.
      const gone = await t.api.delete(`/events/${occurrences[1].id}`, { as: 'administrator', query: { force: true } });
      assert.equal(gone.status, 200, gone.text);
      const again = await t.api.get(`/events/${occurrences[3].id}`, {
        headers: { 'if-none-match': String(third.headers.etag) },
      });
      assert.equal(again.status, 200, 'the URL changed, so the ETag did');
      assert.equal(again.json.url, page('2027-03-02/2/'));
      const relisted = await t.api.get('/events', { query: { search: 'Ranked', start_date: '2027-03-02' } });
      assert.deepEqual(
        relisted.json.events.map((e: Json) => e.url),
        [page('2027-03-02/'), page('2027-03-02/2/')],
      );
      assert.equal((await t.api.get(`/events/by-slug/${slug}/2027-03-02/2`)).json.id, occurrences[3].id);
    });

    it('an occurrence is addressed by its series slug and date too, with the same checks as by id', async () => {
      const res = await t.api.post(
        '/events',
        { ...WEEKLY_PARIS, title: 'Slug class', recurrence: ['RRULE:FREQ=DAILY;COUNT=3;BYHOUR=9,19'] },
        { as: 'administrator' },
      );
      assert.equal(res.status, 201, res.text);
      const occurrences = await occurrencesOf(t.api, res.json.id);
      const slug = res.json.slug;
      const byDate = await t.api.get(`/events/by-slug/${slug}/2027-03-02`);
      assert.equal(byDate.status, 200, byDate.text);
      assert.equal(byDate.json.id, occurrences[1].id);
      const second = await t.api.get(`/events/by-slug/${slug}/2027-03-02/2`);
      assert.equal(second.json.id, occurrences[2].id);
      assert.equal((await t.api.get(`/events/by-slug/${slug}/2027-03-02/3`)).json.code, 'rest-event-not-found');
      assert.equal((await t.api.get(`/events/by-slug/${slug}/2026-01-01`)).status, 404);
      assert.equal((await t.api.patch(`/events/by-slug/${slug}/2027-03-02`, { title: 'x' })).status, 401);
      const edited = await t.api.patch(
        `/events/by-slug/${slug}/2027-03-02`,
        { title: 'Renamed one' },
        { as: 'administrator' },
      );
      assert.equal(edited.status, 200, edited.text);
      assert.equal(edited.json.id, occurrences[1].id);
      assert.equal(
        (await t.api.get(`/events/by-slug/${slug}`)).json.id,
        res.json.id,
        'the slug alone names the series',
      );
    });

    it("an occurrence's url is a public page; unknown dates are the 404 page", async () => {
      const res = await t.api.post('/events', { ...WEEKLY_PARIS, title: 'Page class' }, { as: 'administrator' });
      const [, second] = await occurrencesOf(t.api, res.json.id);
      assert.equal(second.url, `http://127.0.0.1:8080/event/${res.json.slug}/2027-03-08/`);
      const page = await t.api.get(`/event/${res.json.slug}/2027-03-08/`, { raw: true });
      assert.equal(page.status, 200, page.text);
      // The website writes dates for people, with the machine-readable instant in <time datetime>.
      assert.match(page.text, /<time datetime="2027-03-08T19:00:00\+01:00">/);
      assert.equal((await t.api.get(`/event/${res.json.slug}/2027-03-09/`, { raw: true })).status, 404);
    });

    it('lists show occurrences, never the series row, in start order with matching totals', async () => {
      const res = await t.api.post(
        '/events',
        { ...WEEKLY_PARIS, title: 'Listed class', recurrence: ['RRULE:FREQ=DAILY;COUNT=7'] },
        { as: 'administrator' },
      );
      assert.equal(res.status, 201, res.text);
      const seen: Json[] = [];
      let total = -1;
      for (let page = 1; ; page++) {
        const list = await t.api.get('/events', {
          query: { per_page: 4, page, search: 'Listed', start_date: '2027-01-01', end_date: '2028-01-01' },
        });
        if (list.status === 404) break;
        assert.equal(list.status, 200, list.text);
        total = list.json.total;
        seen.push(...list.json.events);
        if (!list.json.next_rest_url) break;
      }
      assert.equal(total, 7);
      assert.equal(seen.length, 7);
      assert.equal(new Set(ids(seen)).size, 7);
      assert.ok(!ids(seen).includes(res.json.id), 'the series itself is not listed');
      const utc = seen.map((e) => e.utc_start_date);
      assert.deepEqual(utc, [...utc].sort());
    });

    it('expand=false lists each series once at its first matching occurrence; include and post_parent name occurrences', async () => {
      const a = await t.api.post(
        '/events',
        { ...WEEKLY_PARIS, title: 'Collapse alpha', recurrence: ['RRULE:FREQ=WEEKLY;COUNT=4'] },
        { as: 'administrator' },
      );
      const plain = await t.api.post(
        '/events',
        { title: 'Collapse plain', start_date: '2027-03-10 10:00:00', end_date: '2027-03-10 11:00:00' },
        { as: 'administrator' },
      );
      const query = { search: 'Collapse', start_date: '2027-03-05', end_date: '2028-01-01' };
      const expanded = await t.api.get('/events', { query });
      assert.equal(expanded.json.total, 4);
      const collapsed = await t.api.get('/events', { query: { ...query, expand: false } });
      assert.equal(collapsed.status, 200, collapsed.text);
      assert.equal(collapsed.json.total, 2);
      // The series at its first matching occurrence (8 March), before the plain event (10 March).
      assert.deepEqual(ids(collapsed.json.events), [a.json.id, plain.json.id]);
      assert.equal(collapsed.json.events[0].is_recurring, true);
      assert.match(collapsed.json.rest_url, /expand=0/);
      const included = await t.api.get('/events', { query: { include: a.json.id } });
      assert.equal(included.json.total, 4);
      assert.ok(included.json.events.every((e: Json) => e.series_id === a.json.id));
      const children = await t.api.get('/events', { query: { post_parent: a.json.id, start_date: '2027-01-01' } });
      assert.equal(children.json.total, 4);
    });

    it('an all-day yearly series keeps its dates', async () => {
      const res = await t.api.post(
        '/events',
        {
          title: 'Anniversary',
          start_date: '2027-02-28',
          end_date: '2027-03-01',
          all_day: true,
          timezone: 'America/New_York',
          recurrence: ['RRULE:FREQ=YEARLY;COUNT=3', 'EXDATE;VALUE=DATE:20280228', 'RDATE;VALUE=DATE:20280301'],
        },
        { as: 'administrator' },
      );
      assert.equal(res.status, 201, res.text);
      const occurrences = await occurrencesOf(t.api, res.json.id);
      // The third (2029) lies beyond the 24-month horizon from "now" (2026-11-21): it does not exist yet.
      assert.deepEqual(starts(occurrences), ['2027-02-28 00:00:00', '2028-03-01 00:00:00']);
      assert.deepEqual(
        occurrences.map((o) => o.end_date),
        ['2027-03-01 23:59:59', '2028-03-02 23:59:59'],
      );
      assert.equal(occurrences[1].recurrence_id, '20280301');
    });

    it('GET /events/{id}/occurrences: 404 unknown, 400 not a series, the §14 errors for unreadable series', async () => {
      assert.equal((await t.api.get('/events/999999/occurrences')).status, 404);
      const plain = await t.api.post('/events', { ...WEEKLY_PARIS, recurrence: [] }, { as: 'administrator' });
      const notSeries = await t.api.get(`/events/${plain.json.id}/occurrences`);
      assert.equal(notSeries.status, 400, notSeries.text);
      assert.equal(notSeries.json.data.params.id, 'not a recurring series');
      const draft = await t.api.post('/events', { ...WEEKLY_PARIS, status: 'draft' }, { as: 'administrator' });
      assert.equal((await t.api.get(`/events/${draft.json.id}/occurrences`)).json.code, 'event-not-accessible');
      const paged = await t.api.get(`/events/${draft.json.id}/occurrences`, {
        as: 'administrator',
        query: { per_page: 4, page: 2 },
      });
      assert.equal(paged.status, 200, paged.text);
      assert.equal(paged.json.total, 6);
      assert.equal(paged.json.events.length, 2);
      assert.equal(paged.headers['x-wp-total'], '6');
      assert.match(paged.json.rest_url, new RegExp(`/events/${draft.json.id}/occurrences\\?`));
    });

    it("a series' translations, terms and venue reach its occurrences; term counts count the series once", async () => {
      const res = await t.api.post(
        '/events',
        {
          ...WEEKLY_PARIS,
          title: 'Language class',
          categories: ['Courses'],
          venue: { venue: 'Class room' },
          recurrence: ['RRULE:FREQ=WEEKLY;COUNT=3'],
        },
        { as: 'administrator' },
      );
      assert.equal(res.status, 201, res.text);
      const fr = await t.api.patch(
        `/events/${res.json.id}`,
        { title: 'Cours de langue', i18n_language: 'fr' },
        { as: 'administrator' },
      );
      assert.equal(fr.status, 200, fr.text);
      const inFrench = await t.api.get(`/events/${res.json.id}/occurrences`, { query: { i18n_language: 'fr' } });
      assert.deepEqual(
        inFrench.json.events.map((e: Json) => e.title),
        ['Cours de langue', 'Cours de langue', 'Cours de langue'],
      );
      const occurrences = await occurrencesOf(t.api, res.json.id);
      assert.ok(occurrences.every((o) => o.title === 'Language class' && o.venue.venue === 'Class room'));
      assert.ok(occurrences.every((o) => o.categories[0]?.name === 'Courses'));
      const category = res.json.categories[0];
      assert.equal((await t.api.get(`/categories/${category.id}`)).json.count, 1);
      const found = await t.api.get('/events', {
        query: { search: 'langue', i18n_language: 'fr', start_date: '2027-01-01' },
      });
      assert.equal(found.json.total, 3);
      const byVenue = await t.api.get('/events', { query: { venue: res.json.venue.id, start_date: '2027-01-01' } });
      assert.equal(byVenue.json.total, 3);
    });

    it('bad lines are 400s naming the line and the reason, and create nothing', async () => {
      const cases: [string[], RegExp][] = [
        [['RRULE:FREQ=HOURLY'], /^line 1: FREQ must be/],
        [['RRULE:FREQ=WEEKLY;COUNT=2;UNTIL=20270601T000000Z'], /^line 1: COUNT and UNTIL/],
        [['RRULE:FREQ=WEEKLY', 'RRULE:FREQ=DAILY'], /^line 2: at most one RRULE/],
        [['EXRULE:FREQ=DAILY'], /^line 1: EXRULE/],
        [['RRULE:FREQ=WEEKLY;UNTIL=20270601T000000'], /^line 1: UNTIL must be a UTC/],
        [['RRULE:FREQ=WEEKLY', 'EXDATE;VALUE=DATE:20270308'], /^line 2: EXDATE of a timed series/],
        [['RRULE:FREQ=WEEKLY', 'RDATE;VALUE=PERIOD:20270308T190000Z/PT1H'], /^line 2: RDATE with VALUE=PERIOD/],
        [['EXDATE;TZID=Europe/Paris:20270308T190000'], /^line 1: at least one RRULE or RDATE/],
        [['RRULE:FREQ=DAILY;BYDAY=XX'], /^line 1: .*BYDAY/],
        [['RRULE:FREQ=DAILY;COUNT=1001'], /^line 1: COUNT must be/],
        [['RRULE:FREQ=DAILY;BYHOUR=1,2'], /^line 1: more than 1000 occurrences/],
        [Array.from({ length: 21 }, () => 'RDATE:20270308T190000Z'), /^line 21: at most 20 lines/],
      ];
      const before = await t.api.get('/events', { as: 'administrator', query: { start_date: '2020-01-01' } });
      for (const [recurrence, reason] of cases) {
        const res = await t.api.post('/events', { ...WEEKLY_PARIS, recurrence }, { as: 'administrator' });
        assert.equal(res.status, 400, `${recurrence.join(' / ')}: ${res.text}`);
        assert.equal(res.json.code, 'rest_invalid_param');
        assert.match(res.json.data.params.recurrence, reason, recurrence.join(' / '));
      }
      const afterwards = await t.api.get('/events', { as: 'administrator', query: { start_date: '2020-01-01' } });
      assert.equal(afterwards.json.total, before.json.total);
    });
  });

  describe(`recurring events: stable occurrence ids [${dialect}]`, () => {
    const t = useTestApp(dialect);

    async function series(body: Json = {}): Promise<{ id: number; occurrences: Json[] }> {
      const res = await t.api.post(
        '/events',
        { ...WEEKLY_PARIS, recurrence: ['RRULE:FREQ=WEEKLY;COUNT=5'], ...body },
        { as: 'administrator' },
      );
      assert.equal(res.status, 201, res.text);
      return { id: res.json.id, occurrences: await occurrencesOf(t.api, res.json.id) };
    }

    async function edit(id: number, body: Json): Promise<Json[]> {
      const res = await t.api.patch(`/events/${id}`, body, { as: 'administrator' });
      assert.equal(res.status, 200, res.text);
      return occurrencesOf(t.api, id);
    }

    it('changing the rule keeps the ids of occurrences whose start remains and never reuses removed ones', async () => {
      const { id, occurrences } = await series();
      const after = await edit(id, { recurrence: ['RRULE:FREQ=WEEKLY;INTERVAL=2;COUNT=4'] });
      assert.deepEqual(starts(after), [
        '2027-03-01 19:00:00',
        '2027-03-15 19:00:00',
        '2027-03-29 19:00:00',
        '2027-04-12 19:00:00',
      ]);
      assert.deepEqual(ids(after).slice(0, 3), [occurrences[0].id, occurrences[2].id, occurrences[4].id]);
      const removed = [occurrences[1].id, occurrences[3].id];
      assert.ok(!removed.includes(after[3].id), 'a removed id is never handed out again');
      assert.ok(after[3].id > Math.max(...ids(occurrences)));
      for (const gone of removed) assert.equal((await t.api.get(`/events/${gone}`)).status, 404);
    });

    it('changing the time of day keeps every id (pairs by local date) and updates recurrence_id', async () => {
      const { id, occurrences } = await series({ title: 'Moved class' });
      const after = await edit(id, { start_date: '2027-03-01 20:00:00', end_date: '2027-03-01 21:30:00' });
      assert.deepEqual(ids(after), ids(occurrences));
      assert.ok(after.every((o: Json) => o.start_date.endsWith('20:00:00')));
      assert.equal(after[0].recurrence_id, '20270301T190000Z');
    });

    it('changing the time zone keeps every id', async () => {
      const { id, occurrences } = await series({ title: 'Zoned class' });
      const after = await edit(id, { timezone: 'America/New_York' });
      assert.deepEqual(ids(after), ids(occurrences));
      assert.equal(after[0].start_date, '2027-03-01 19:00:00');
      assert.equal(after[0].timezone, 'America/New_York');
    });

    it('an EXDATE removes one occurrence and keeps the others; removing it again brings a new id', async () => {
      const { id, occurrences } = await series({ title: 'Holiday class' });
      const after = await edit(id, {
        recurrence: ['RRULE:FREQ=WEEKLY;COUNT=5', 'EXDATE;TZID=Europe/Paris:20270315T190000'],
      });
      assert.deepEqual(ids(after), [occurrences[0].id, occurrences[1].id, occurrences[3].id, occurrences[4].id]);
      const back = await edit(id, { recurrence: ['RRULE:FREQ=WEEKLY;COUNT=5'] });
      assert.equal(back.length, 5);
      assert.notEqual(back[2].id, occurrences[2].id);
      assert.ok(back[2].id > Math.max(...ids(after)));
    });

    it('series-wide fields reach every occurrence; removing the recurrence leaves a plain event', async () => {
      const { id, occurrences } = await series({ title: 'Renamed class' });
      const after = await edit(id, { title: 'Yoga' });
      assert.deepEqual(ids(after), ids(occurrences));
      assert.ok(after.every((o: Json) => o.title === 'Yoga'));
      const plain = await t.api.patch(`/events/${id}`, { recurrence: null }, { as: 'administrator' });
      assert.equal(plain.status, 200, plain.text);
      assert.equal(plain.json.is_recurring, false);
      assert.deepEqual(plain.json.recurrence, []);
      for (const o of occurrences) assert.equal((await t.api.get(`/events/${o.id}`)).status, 404);
      const list = await t.api.get('/events', { query: { search: 'Yoga', start_date: '2027-01-01' } });
      assert.deepEqual(ids(list.json.events), [id]);
    });
  });
}

for (const dialect of await testDialects()) {
  describe(`recurring events: the horizon moves on [${dialect}]`, () => {
    const t = useTestApp(dialect);

    it('occurrences beyond the horizon appear once time passes, with new ids, the old ones kept', async () => {
      const res = await t.api.post(
        '/events',
        { ...WEEKLY_PARIS, title: 'Monthly meeting', recurrence: ['RRULE:FREQ=MONTHLY'] },
        { as: 'administrator' },
      );
      assert.equal(res.status, 201, res.text);
      const before = await occurrencesOf(t.api, res.json.id);
      // 2027-03 … 2028-11 (the horizon is 24 months from 2026-11-21).
      assert.equal(before.length, 21);
      t.api.now = new Date('2027-06-21T08:00:00Z');
      try {
        const extended = await extendHorizon(t.api.dialect, t.api.app.calendar.writes, t.api.config, t.api.now);
        assert.equal(extended, 1);
        const after = await occurrencesOf(t.api, res.json.id);
        assert.equal(after.length, 28);
        assert.deepEqual(ids(after).slice(0, 21), ids(before));
        assert.equal(after[27].start_date, '2029-06-01 19:00:00');
        // A second run finds nothing to do.
        assert.equal(await extendHorizon(t.api.dialect, t.api.app.calendar.writes, t.api.config, t.api.now), 0);
      } finally {
        t.api.now = new Date('2026-11-21T08:37:48Z');
      }
    });
  });
}

for (const dialect of await testDialects()) {
  describe(`recurring events: exceptions [${dialect}]`, () => {
    const t = useTestApp(dialect);

    async function series(title: string): Promise<{ id: number; occurrences: Json[] }> {
      const res = await t.api.post(
        '/events',
        { ...WEEKLY_PARIS, title, recurrence: ['RRULE:FREQ=WEEKLY;COUNT=5'] },
        { as: 'administrator' },
      );
      assert.equal(res.status, 201, res.text);
      return { id: res.json.id, occurrences: await occurrencesOf(t.api, res.json.id) };
    }

    it('scope=this overrides only the fields sent; later series edits keep them and change the rest', async () => {
      const { id, occurrences } = await series('Override class');
      const moved = occurrences[2];
      const res = await t.api.patch(
        `/events/${moved.id}`,
        { title: 'Override class (room B)', start_date: '2027-03-16 19:00:00', end_date: '2027-03-16 20:30:00' },
        { as: 'administrator' },
      );
      assert.equal(res.status, 200, res.text);
      assert.equal(res.json.id, moved.id);
      assert.equal(res.json.recurrence_id, moved.recurrence_id);
      assert.equal(res.json.start_date, '2027-03-16 19:00:00');
      const edited = await t.api.patch(`/events/${id}`, { title: 'Renamed', featured: true }, { as: 'administrator' });
      assert.equal(edited.status, 200, edited.text);
      const after = await occurrencesOf(t.api, id);
      assert.deepEqual(ids(after), ids(occurrences));
      const kept = after.find((o) => o.id === moved.id);
      assert.equal(kept.title, 'Override class (room B)');
      assert.equal(kept.start_date, '2027-03-16 19:00:00');
      assert.equal(kept.featured, true, 'fields it did not override follow the series');
      assert.ok(after.filter((o) => o.id !== moved.id).every((o) => o.title === 'Renamed'));
    });

    it("lists show each occurrence's own title, description and cost, or its series', as either changes", async () => {
      const { id, occurrences } = await series('Described class');
      const shown = async () => {
        const list = await t.api.get('/events', {
          as: 'administrator',
          query: { start_date: '2027-03-01', end_date: '2027-04-30', per_page: 50 },
        });
        assert.equal(list.status, 200, list.text);
        const ofSeries = await occurrencesOf(t.api, id);
        const inList = list.json.events.filter((e: Json) => e.series_id === id);
        assert.deepEqual(inList, ofSeries, 'the same items in both lists');
        return ofSeries.map((o) => [o.title, o.description, o.cost]);
      };
      const first = await t.api.patch(`/events/${id}`, { description: 'Bring a mat.' }, { as: 'administrator' });
      assert.equal(first.status, 200, first.text);
      assert.deepEqual(await shown(), Array(5).fill(['Described class', '<p>Bring a mat.</p>', '']));
      // Each override is in another run of the head an occurrence shares with its series (fragments.ts).
      const overrides: Record<number, Json> = {
        0: { description: 'Room 0.' },
        2: { title: 'Moved class' },
        3: { cost: '5' },
      };
      for (const [at, body] of Object.entries(overrides)) {
        const res = await t.api.patch(`/events/${occurrences[Number(at)].id}`, body, { as: 'administrator' });
        assert.equal(res.status, 200, res.text);
      }
      const expected = (title: string, description: string) =>
        [0, 1, 2, 3, 4].map((i) => [
          i === 2 ? 'Moved class' : title,
          `<p>${i === 0 ? 'Room 0.' : description}</p>`,
          i === 3 ? '$5' : '',
        ]);
      assert.deepEqual(await shown(), expected('Described class', 'Bring a mat.'));
      const res = await t.api.patch(
        `/events/${id}`,
        { title: 'Renamed class', description: 'Bring water.' },
        { as: 'administrator' },
      );
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(await shown(), expected('Renamed class', 'Bring water.'));
    });

    it('series-only fields and unknown scopes are 400s that change nothing', async () => {
      const { occurrences } = await series('Strict class');
      const slug = await t.api.patch(
        `/events/${occurrences[0].id}`,
        { slug: 'mine', timezone: 'UTC' },
        { as: 'administrator' },
      );
      assert.equal(slug.status, 400, slug.text);
      assert.deepEqual(Object.keys(slug.json.data.params).sort(), ['slug', 'timezone']);
      const scope = await t.api.patch(
        `/events/${occurrences[0].id}`,
        { scope: 'some', title: 'x' },
        { as: 'administrator' },
      );
      assert.equal(scope.status, 400, scope.text);
      assert.ok(Object.hasOwn(scope.json.data.params, 'scope'));
      assert.equal((await t.api.get(`/events/${occurrences[0].id}`)).json.title, 'Strict class');
    });

    it('scope=all moves every session by the wall-clock shift given to one and keeps every id', async () => {
      const { id, occurrences } = await series('Shifted class');
      const res = await t.api.patch(
        `/events/${occurrences[4].id}`,
        { scope: 'all', start_date: '2027-03-29 20:00:00', end_date: '2027-03-29 21:30:00' },
        { as: 'administrator' },
      );
      assert.equal(res.status, 200, res.text);
      assert.equal(res.json.id, id, 'answers with the series');
      assert.equal(res.json.start_date, '2027-03-01 20:00:00');
      const after = await occurrencesOf(t.api, id);
      assert.deepEqual(ids(after), ids(occurrences));
      assert.ok(after.every((o: Json) => o.start_date.endsWith(' 20:00:00') && o.end_date.endsWith(' 21:30:00')));
    });

    it('scope=following splits the series: later occurrences move to a new series with their ids and overrides', async () => {
      const res = await t.api.post(
        '/events',
        { ...WEEKLY_PARIS, title: 'Split class', recurrence: ['RRULE:FREQ=WEEKLY;COUNT=6'] },
        { as: 'administrator' },
      );
      assert.equal(res.status, 201, res.text);
      const old = res.json;
      const occurrences = await occurrencesOf(t.api, old.id);
      const override = await t.api.patch(
        `/events/${occurrences[4].id}`,
        { title: 'Guest teacher' },
        { as: 'administrator' },
      );
      assert.equal(override.status, 200, override.text);
      const split = await t.api.patch(
        `/events/${occurrences[3].id}`,
        { scope: 'following', start_date: '2027-03-22 20:00:00', end_date: '2027-03-22 21:30:00', featured: true },
        { as: 'administrator' },
      );
      assert.equal(split.status, 200, split.text);
      const fresh = split.json;
      assert.notEqual(fresh.id, old.id);
      assert.notEqual(fresh.ical_uid, old.ical_uid);
      assert.equal(fresh.slug, `${old.slug}-2`);
      assert.equal(fresh.start_date, '2027-03-22 20:00:00');
      assert.equal(fresh.featured, true);
      assert.deepEqual(fresh.recurrence, ['RRULE:FREQ=WEEKLY;COUNT=3']);
      const kept = (await t.api.get(`/events/${old.id}`)).json;
      assert.deepEqual(kept.recurrence, ['RRULE:FREQ=WEEKLY;UNTIL=20270322T175959Z']);
      assert.deepEqual(ids(await occurrencesOf(t.api, old.id)), ids(occurrences.slice(0, 3)));
      const moved = await occurrencesOf(t.api, fresh.id);
      assert.deepEqual(ids(moved), ids(occurrences.slice(3)));
      assert.deepEqual(starts(moved), ['2027-03-22 20:00:00', '2027-03-29 20:00:00', '2027-04-05 20:00:00']);
      assert.ok(moved.every((o: Json) => o.series_id === fresh.id && o.featured === true));
      assert.equal(moved[1].title, 'Guest teacher');
      assert.equal(moved[0].title, 'Split class');
      const list = await t.api.get('/events', { query: { search: 'Split', start_date: '2027-01-01' } });
      assert.equal(list.json.total, 5, 'the override is titled otherwise');
    });

    it('DELETE trashes one occurrence (an exclusion), force deletes it for good and it stays excluded', async () => {
      const { id, occurrences } = await series('Holiday series');
      const trashed = await t.api.delete(`/events/${occurrences[1].id}`, { as: 'administrator' });
      assert.equal(trashed.status, 200, trashed.text);
      assert.equal(trashed.json.status, 'trash');
      assert.equal((await t.api.delete(`/events/${occurrences[1].id}`, { as: 'administrator' })).status, 410);
      assert.equal((await t.api.get(`/events/${occurrences[1].id}`)).json.code, 'event-no-longer-available');
      const gone = await t.api.delete(`/events/${occurrences[3].id}`, {
        as: 'administrator',
        query: { force: true },
      });
      assert.equal(gone.status, 200, gone.text);
      await t.api.patch(`/events/${id}`, { title: 'Holiday series, renamed' }, { as: 'administrator' });
      const after = await occurrencesOf(t.api, id);
      assert.deepEqual(ids(after), [occurrences[0].id, occurrences[2].id, occurrences[4].id]);
      assert.equal((await t.api.get(`/events/${occurrences[3].id}`)).status, 404);
      const trash = await t.api.get(`/events/${id}/occurrences`, { as: 'administrator', query: { status: 'trash' } });
      assert.deepEqual(ids(trash.json.events), [occurrences[1].id]);
    });

    it('DELETE of a series trashes every occurrence; restoring it brings back those trashed with it only', async () => {
      const { id, occurrences } = await series('Trashed series');
      await t.api.delete(`/events/${occurrences[0].id}`, { as: 'administrator' });
      const res = await t.api.delete(`/events/${id}`, { as: 'administrator' });
      assert.equal(res.status, 200, res.text);
      for (const o of occurrences)
        assert.equal((await t.api.get(`/events/${o.id}`)).json.code, 'event-no-longer-available');
      const restored = await t.api.patch(`/events/${id}`, { status: 'publish' }, { as: 'administrator' });
      assert.equal(restored.status, 200, restored.text);
      const after = await occurrencesOf(t.api, id);
      assert.deepEqual(ids(after), ids(occurrences.slice(1)));
      const forced = await t.api.delete(`/events/${id}`, { as: 'administrator', query: { force: true } });
      assert.equal(forced.status, 200, forced.text);
      for (const o of occurrences) assert.equal((await t.api.get(`/events/${o.id}`)).status, 404);
    });
  });
}

for (const dialect of await testDialects()) {
  describe(`recurring events: a TEC client paging through /events [${dialect}]`, () => {
    const t = useTestApp(dialect);

    it('sees each occurrence once, in start order, with X-TEC-Total and total_pages that match', async () => {
      const bodies = [
        {
          title: 'Daily yoga',
          start_date: '2026-11-23 07:00:00',
          end_date: '2026-11-23 08:00:00',
          timezone: 'Europe/Paris',
          recurrence: ['RRULE:FREQ=DAILY;COUNT=30'],
        },
        {
          title: 'Weekly choir',
          start_date: '2026-11-24 19:30:00',
          end_date: '2026-11-24 21:00:00',
          timezone: 'America/New_York',
          recurrence: ['RRULE:FREQ=WEEKLY;BYDAY=TU,TH;COUNT=20'],
        },
        {
          title: 'Monthly market',
          start_date: '2026-12-05',
          end_date: '2026-12-05',
          all_day: true,
          recurrence: ['RRULE:FREQ=MONTHLY;BYDAY=1SA;COUNT=6'],
        },
        { title: 'One concert', start_date: '2026-12-10 20:00:00', end_date: '2026-12-10 22:00:00' },
        { title: 'Another concert', start_date: '2026-12-10 20:00:00', end_date: '2026-12-10 23:00:00' },
      ];
      const seriesIds: number[] = [];
      for (const body of bodies) {
        const res = await t.api.post('/events', body, { as: 'administrator' });
        assert.equal(res.status, 201, res.text);
        if (res.json.is_recurring) seriesIds.push(res.json.id);
      }
      const expected = 30 + 20 + 6 + 2;
      const seen: Json[] = [];
      for (let page = 1; ; page++) {
        const res = await t.api.get('/events', { query: { page, per_page: 7 } });
        assert.equal(res.status, 200, res.text);
        assert.equal(res.headers['x-tec-total'], String(expected));
        assert.equal(res.json.total, expected);
        assert.equal(res.json.total_pages, Math.ceil(expected / 7));
        seen.push(...res.json.events);
        if (!res.json.next_rest_url) break;
        assert.ok(page < 20, 'the paging ends');
      }
      assert.equal((await t.api.get('/events', { query: { page: 10, per_page: 7 } })).status, 404);
      assert.equal(seen.length, expected);
      assert.equal(new Set(ids(seen)).size, expected, 'no occurrence twice');
      assert.ok(
        ids(seen).every((id) => !seriesIds.includes(id)),
        'no series row',
      );
      const keys = seen.map((e) => `${e.utc_start_date}|${String(e.id).padStart(8, '0')}`);
      assert.deepEqual(keys, [...keys].sort(), 'start order, then id');
    });
  });
}
