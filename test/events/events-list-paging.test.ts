import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { assertTotals, ids, list } from '../helpers/fixtures.js';
import { testDialects } from '../helpers/databases.js';
import { useTestApp, type TestApi, type TestResponse, type Who } from '../helpers/app.js';
import { createEventId, createEventIds, createOrganizerId, createVenueId } from '../helpers/factories.js';

// GET /events envelope, order and paging (API.md §9, §10, §17, §18; tec-api.md §7; tec-tests.md EA-01..19, EAU-07..10, EAU-16, EC-04).

const ORIGIN = 'http://127.0.0.1:8080';
const LIST = `${ORIGIN}/calendar/events/v1/events/`;
const WINDOW = 'start_date=2026-11-20+00%3A00%3A00&end_date=2028-11-21+23%3A59%3A59';

/** Follows a link emitted by the API (absolute URL under PUBLIC_URL) through the test app. */
async function follow(api: TestApi, url: string, as: Who = 'anonymous'): Promise<TestResponse> {
  assert.ok(url.startsWith(`${ORIGIN}/`), url);
  const res = await api.get(url.slice(ORIGIN.length), { as });
  assert.equal(res.status, 200, `${url}: ${res.text}`);
  return res;
}

for (const dialect of await testDialects()) {
  describe(`GET /events envelope and paging [${dialect}]`, () => {
    const t = useTestApp(dialect);
    beforeEach(() => t.api.clearContent());

    it('EA-01: no events is exactly the empty envelope with zero headers and no links', async () => {
      const res = await t.api.get('/events');
      assert.equal(res.status, 200);
      assert.deepEqual(res.json, {
        events: [],
        rest_url:
          'http://127.0.0.1:8080/calendar/events/v1/events/?page=1&per_page=10&start_date=2026-11-20+00%3A00%3A00&end_date=2028-11-21+23%3A59%3A59&status=publish',
        total: 0,
        total_pages: 0,
      });
      assert.deepEqual(Object.keys(res.json), ['events', 'rest_url', 'total', 'total_pages']);
      assertTotals(res, 0, 0);
      assert.equal(res.headers.link, undefined);
      assert.match(String(res.headers['content-type']), /^application\/json; charset=utf-8/);
      // The trailing-slash form of the collection is the same route.
      const slash = await t.api.get('/events/');
      assert.equal(slash.status, 200);
      assert.deepEqual(slash.json, res.json);
    });

    it('orders by UTC start, then by id (same start: creation order)', async () => {
      const b = await createEventId(
        t.api,
        { title: 'B 10:00 UTC', start_date: '2026-12-01 10:00:00', end_date: '2026-12-01 11:00:00' },
        'editor',
      );
      const a = await createEventId(
        t.api,
        { title: 'A 09:00 UTC', start_date: '2026-12-01 09:00:00', end_date: '2026-12-01 11:00:00' },
        'editor',
      );
      const c = await createEventId(
        t.api,
        { title: 'C 10:00 UTC too', start_date: '2026-12-01 10:00:00', end_date: '2026-12-01 10:30:00' },
        'editor',
      );
      // 15:00 in Tokyo is 06:00 UTC: first, although its wall clock is the latest.
      const tokyo = await createEventId(
        t.api,
        {
          title: 'Tokyo 15:00',
          timezone: 'Asia/Tokyo',
          start_date: '2026-12-01 15:00:00',
          end_date: '2026-12-01 16:00:00',
        },
        'editor',
      );
      // 05:00 in New York is 10:00 UTC: ties with B and C, and has the highest id.
      const ny = await createEventId(
        t.api,
        {
          title: 'New York 05:00',
          timezone: 'America/New_York',
          start_date: '2026-12-01 05:00:00',
          end_date: '2026-12-01 06:00:00',
        },
        'editor',
      );
      const d = await createEventId(
        t.api,
        { title: 'D 10:00 UTC, created last', start_date: '2026-12-01 10:00:00', end_date: '2026-12-01 12:00:00' },
        'editor',
      );
      const res = await list(t.api, '/events');
      assert.deepEqual(ids(res), [tokyo, a, b, c, ny, d]);
      assert.deepEqual(
        res.json.events.map((e: { utc_start_date: string }) => e.utc_start_date),
        [
          '2026-12-01 06:00:00',
          '2026-12-01 09:00:00',
          '2026-12-01 10:00:00',
          '2026-12-01 10:00:00',
          '2026-12-01 10:00:00',
          '2026-12-01 10:00:00',
        ],
      );
      // The order is stable across pages.
      const pages = [];
      for (let page = 1; page <= 3; page++) pages.push(...ids(await list(t.api, '/events', { per_page: 2, page })));
      assert.deepEqual(pages, [tokyo, a, b, c, ny, d]);
    });

    it('per_page defaults to 10 (EA-03/EAU-02) and is overridable (EA-04)', async () => {
      const created = await createEventIds(t.api, 12, {}, 'editor');
      const res = await list(t.api, '/events');
      assert.deepEqual(ids(res), created.slice(0, 10));
      assertTotals(res, 12, 2);
      assert.equal(res.json.rest_url, `${LIST}?page=1&per_page=10&${WINDOW}&status=publish`);
      const bigger = await list(t.api, '/events', { per_page: 20 });
      assert.deepEqual(ids(bigger), created);
      assertTotals(bigger, 12, 1);
      assert.equal(bigger.json.next_rest_url, undefined);
      const smaller = await list(t.api, '/events', { per_page: '5' });
      assert.deepEqual(ids(smaller), created.slice(0, 5));
      assertTotals(smaller, 12, 3);
    });

    it('EA-05: per_page above 50 is clamped to 50, and rest_url says so', async () => {
      const created = await createEventIds(t.api, 52, {}, 'editor');
      const res = await list(t.api, '/events', { per_page: 1000 });
      assert.equal(res.json.events.length, 50);
      assert.deepEqual(ids(res), created.slice(0, 50));
      assertTotals(res, 52, 2);
      assert.equal(res.json.rest_url, `${LIST}?page=1&per_page=50&${WINDOW}&status=publish`);
      assert.equal(res.json.next_rest_url, `${LIST}?page=2&per_page=50&${WINDOW}&status=publish`);
      const second = await follow(t.api, res.json.next_rest_url);
      assert.deepEqual(ids(second), created.slice(50));
      assert.equal((await list(t.api, '/events', { per_page: 51 })).json.events.length, 50);
      assert.equal((await list(t.api, '/events', { per_page: 50 })).json.events.length, 50);
    });

    it('EA-10/EAU-08: a page past the end is 404 event-archive-page-not-found; page 1 with no results is 200', async () => {
      await createEventIds(t.api, 3, {}, 'editor');
      const beyond = await t.api.get('/events', { query: { per_page: 3, page: 2 } });
      assert.equal(beyond.status, 404);
      assert.deepEqual(beyond.json, {
        code: 'event-archive-page-not-found',
        message: 'The requested event archive page does not exist',
        data: { status: 404 },
      });
      assert.equal((await t.api.get('/events', { query: { page: 99 } })).status, 404);
      const filteredBeyond = await t.api.get('/events', { query: { search: 'nothing-matches', page: 2 } });
      assert.equal(filteredBeyond.status, 404);
      assert.equal(filteredBeyond.json.code, 'event-archive-page-not-found');
      const empty = await t.api.get('/events', { query: { search: 'nothing-matches' } });
      assert.equal(empty.status, 200);
      assert.deepEqual(empty.json, {
        events: [],
        rest_url: `${LIST}?page=1&per_page=10&${WINDOW}&search=nothing-matches&status=publish`,
        total: 0,
        total_pages: 0,
      });
      assertTotals(empty, 0, 0);
      const lastPage = await list(t.api, '/events', { per_page: 2, page: 2 });
      assert.equal(lastPage.json.events.length, 1);
    });

    it('EA-07..09, EAU-07/10: next/previous links change only page; headers and Link', async () => {
      const created = await createEventIds(t.api, 7, {}, 'editor');
      const first = await list(t.api, '/events', { per_page: 3 });
      assert.deepEqual(ids(first), created.slice(0, 3));
      assertTotals(first, 7, 3);
      const tail = `per_page=3&${WINDOW}&status=publish`;
      assert.equal(first.json.rest_url, `${LIST}?page=1&${tail}`);
      assert.equal(first.json.next_rest_url, `${LIST}?page=2&${tail}`);
      assert.equal(first.json.previous_rest_url, undefined);
      assert.deepEqual(Object.keys(first.json), ['events', 'rest_url', 'next_rest_url', 'total', 'total_pages']);
      assert.equal(first.headers.link, `<${LIST}?page=2&${tail}>; rel="next"`);

      const second = await list(t.api, '/events', { per_page: 3, page: 2 });
      assert.deepEqual(ids(second), created.slice(3, 6));
      assertTotals(second, 7, 3);
      assert.equal(second.json.rest_url, `${LIST}?page=2&${tail}`);
      assert.equal(second.json.next_rest_url, `${LIST}?page=3&${tail}`);
      assert.equal(second.json.previous_rest_url, `${LIST}?${tail}`);
      assert.deepEqual(Object.keys(second.json), [
        'events',
        'rest_url',
        'next_rest_url',
        'previous_rest_url',
        'total',
        'total_pages',
      ]);
      assert.equal(second.headers.link, `<${LIST}?${tail}>; rel="prev", <${LIST}?page=3&${tail}>; rel="next"`);

      const third = await list(t.api, '/events', { per_page: 3, page: 3 });
      assert.deepEqual(ids(third), created.slice(6));
      assert.equal(third.json.next_rest_url, undefined);
      assert.equal(third.json.previous_rest_url, `${LIST}?page=2&${tail}`);
      assert.deepEqual(Object.keys(third.json), ['events', 'rest_url', 'previous_rest_url', 'total', 'total_pages']);
      assert.equal(third.headers.link, `<${LIST}?page=2&${tail}>; rel="prev"`);

      // Following the links lands on the same pages.
      assert.deepEqual(ids(await follow(t.api, first.json.next_rest_url)), ids(second));
      assert.deepEqual(ids(await follow(t.api, second.json.previous_rest_url)), ids(first));
      assert.deepEqual(ids(await follow(t.api, third.json.previous_rest_url)), ids(second));
    });

    it('a single full page has no links; exactly per_page events has one page', async () => {
      await createEventIds(t.api, 3, {}, 'editor');
      const res = await list(t.api, '/events', { per_page: 3 });
      assertTotals(res, 3, 1);
      assert.equal(res.json.next_rest_url, undefined);
      assert.equal(res.headers.link, undefined);
    });

    it('EA-15/16: bad page or per_page is 400 naming the parameter', async () => {
      for (const name of ['page', 'per_page']) {
        for (const bad of ['foo', '-1', '0', 'foo bar', '1.5', '']) {
          const res = await t.api.get('/events', { query: { [name]: bad } });
          assert.equal(res.status, 400, `${name}=${bad}: ${res.text}`);
          assert.equal(res.json.code, 'rest_invalid_param');
          assert.deepEqual(Object.keys(res.json.data.params), [name]);
        }
      }
    });

    it('editors count drafts in the totals (EAU-11); visitors do not (EAU-12)', async () => {
      await createEventIds(t.api, 5, {}, 'editor');
      await createEventIds(t.api, 5, { title: 'Draft', status: 'draft' }, 'editor');
      const editor = await list(t.api, '/events', { per_page: 5 }, 'editor');
      assertTotals(editor, 10, 2);
      assert.match(editor.json.next_rest_url, /[?&]page=2(&|$)/);
      const visitor = await list(t.api, '/events', { per_page: 5 });
      assertTotals(visitor, 5, 1);
      assert.equal(visitor.json.next_rest_url, undefined);
    });

    it('EC-04/EAU-16: paging a category-filtered list', async () => {
      const cat = await t.api.post('/categories', { name: 'cat1' }, { as: 'editor' });
      assert.equal(cat.status, 201);
      const inCat: number[] = [];
      for (let i = 0; i < 4; i++) {
        inCat.push(await createEventId(t.api, { title: `In ${i}`, categories: [cat.json.id] }, 'editor'));
        await createEventId(t.api, { title: `Out ${i}` }, 'editor');
      }
      const page2 = await list(t.api, '/events', { categories: 'cat1', per_page: 3, page: 2 });
      assert.deepEqual(ids(page2), inCat.slice(3));
      assertTotals(page2, 4, 2);
      assert.equal(page2.json.previous_rest_url, `${LIST}?per_page=3&${WINDOW}&categories=cat1&status=publish`);
    });

    it('following next_rest_url of a category + search list walks exactly the filtered set', async () => {
      const x = await t.api.post('/categories', { name: 'Category X' }, { as: 'editor' });
      const y = await t.api.post('/categories', { name: 'Category Y' }, { as: 'editor' });
      assert.equal(x.status, 201);
      const X = x.json.id as number;
      const Y = y.json.id as number;
      const expected: number[] = [];
      // 12 events, interleaved: 5 in X with the word, 3 in X without it, 3 with the word outside X, 1 neither.
      const plan: [string, number[]][] = [
        ['Kiwi tasting one', [X]],
        ['Kiwi outside', [Y]],
        ['Plain in X', [X]],
        ['Second kiwi tasting', [X]],
        ['Nothing at all', []],
        ['Kiwi elsewhere', []],
        ['Another plain in X', [X]],
        ['Third KIWI', [X, Y]],
        ['Kiwi in Y too', [Y]],
        ['Fourth kiwi', [X]],
        ['Plain in X again', [X]],
        ['Fifth kiwi', [X]],
      ];
      for (const [title, categories] of plan) {
        const id = await createEventId(t.api, { title, categories }, 'editor');
        if (categories.includes(X) && /kiwi/i.test(title)) expected.push(id);
      }
      assert.equal(expected.length, 5);
      const first = await list(t.api, '/events', { categories: 'category-x', search: 'kiwi', per_page: 2 });
      assertTotals(first, 5, 3);
      assert.equal(
        first.json.rest_url,
        `${LIST}?page=1&per_page=2&${WINDOW}&search=kiwi&categories=category-x&status=publish`,
      );
      assert.equal(
        first.json.next_rest_url,
        `${LIST}?page=2&per_page=2&${WINDOW}&search=kiwi&categories=category-x&status=publish`,
      );
      const seen = [...ids(first)];
      let page = first;
      let hops = 0;
      while (page.json.next_rest_url) {
        const next: string = page.json.next_rest_url;
        assert.match(next, /[?&]categories=category-x(&|$)/);
        assert.match(next, /[?&]search=kiwi(&|$)/);
        page = await follow(t.api, next);
        assertTotals(page, 5, 3);
        seen.push(...ids(page));
        hops += 1;
        assert.ok(hops < 10, 'too many pages');
      }
      assert.equal(hops, 2);
      assert.deepEqual(seen, expected);
      // And back again through previous_rest_url.
      const back: number[][] = [ids(page)];
      while (page.json.previous_rest_url) {
        const previous: string = page.json.previous_rest_url;
        assert.match(previous, /[?&]categories=category-x(&|$)/);
        assert.match(previous, /[?&]search=kiwi(&|$)/);
        page = await follow(t.api, previous);
        back.unshift(ids(page));
      }
      assert.deepEqual(back.flat(), expected);
    });

    it('links of a multi-word search, tags, ids and i18n_language are encoded and followable', async () => {
      const tag = await t.api.post('/tags', { name: 'Night Life' }, { as: 'editor' });
      assert.equal(tag.status, 201);
      const cat = await t.api.post('/categories', { name: 'Music' }, { as: 'editor' });
      const expected: number[] = [];
      for (let i = 0; i < 7; i++) {
        const matching = i % 2 === 0;
        const id = await createEventId(
          t.api,
          {
            title: matching ? `Late jazz & blues ${i}` : `Early jazz ${i}`,
            tags: [tag.json.id],
            categories: matching ? [cat.json.id] : [],
          },
          'editor',
        );
        if (matching) expected.push(id);
      }
      await createEventId(t.api, { title: 'Late jazz & blues, untagged', categories: [cat.json.id] }, 'editor');
      const query = {
        search: 'late "jazz & blues"',
        tags: [tag.json.id],
        categories: `music,${cat.json.id}`,
        per_page: 1,
        i18n_language: 'fr',
      };
      const first = await list(t.api, '/events', query);
      assertTotals(first, 4, 4);
      const next: string = first.json.next_rest_url;
      assert.equal(
        next,
        `${LIST}?page=2&per_page=1&${WINDOW}&search=late+%22jazz+%26+blues%22&categories=music%2C${cat.json.id}&tags=${tag.json.id}&status=publish&i18n_language=fr`,
      );
      const seen = [...ids(first)];
      let page = first;
      while (page.json.next_rest_url) {
        page = await follow(t.api, page.json.next_rest_url);
        assert.equal(page.headers['content-language'], 'fr');
        seen.push(...ids(page));
      }
      assert.deepEqual(seen, expected);
    });

    it('links keep a language path segment', async () => {
      const created = await createEventIds(t.api, 3, { title: 'Sprache' }, 'editor');
      const first = await t.api.get('/de/calendar/events/v1/events', { query: { per_page: 2 } });
      assert.equal(first.status, 200, first.text);
      assert.equal(first.headers['content-language'], 'de');
      const base = `${ORIGIN}/de/calendar/events/v1/events/`;
      assert.equal(first.json.rest_url, `${base}?page=1&per_page=2&${WINDOW}&status=publish`);
      assert.equal(first.json.next_rest_url, `${base}?page=2&per_page=2&${WINDOW}&status=publish`);
      const second = await follow(t.api, first.json.next_rest_url);
      assert.deepEqual([...ids(first), ...ids(second)], created);
      assert.equal(second.json.previous_rest_url, `${base}?per_page=2&${WINDOW}&status=publish`);
    });

    it('rest_url echoes every filter in TEC order', async () => {
      const v = await createVenueId(t.api, { venue: 'Echo hall' }, 'editor');
      const o = await createOrganizerId(t.api, { organizer: 'Echo org' }, 'editor');
      const parent = await createEventId(t.api, { title: 'Echo parent' }, 'editor');
      const res = await list(t.api, '/events', {
        venue: v,
        organizer: o,
        featured: 'false',
        post_parent: parent,
        ticketed: 'false',
        geoloc: 'true',
        status: 'publish',
      });
      assert.equal(
        res.json.rest_url,
        `${LIST}?page=1&per_page=10&${WINDOW}&venue=${v}&organizer=${o}&featured=0&geoloc=1&status=publish&post_parent=${parent}&ticketed=0`,
      );
    });
  });
}
