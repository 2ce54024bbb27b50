import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { testDialects } from '../helpers/databases.js';
import { useTestApp } from '../helpers/app.js';
import { createTerm, createTermId, insertEvent } from '../helpers/factories.js';
import { ids } from '../helpers/fixtures.js';

const API = 'http://127.0.0.1:8080/calendar/events/v1';

for (const dialect of await testDialects()) {
  describe(`GET /categories and /tags [${dialect}]`, () => {
    const t = useTestApp(dialect);
    beforeEach(() => t.api.clearContent());

    it('an empty list is 200 with totals 0, zero headers and no page links', async () => {
      const res = await t.api.get('/categories');
      assert.equal(res.status, 200);
      assert.deepEqual(res.json, { rest_url: `${API}/categories/`, total: 0, total_pages: 0, categories: [] });
      assert.equal(res.headers['x-tec-total'], '0');
      assert.equal(res.headers['x-tec-totalpages'], '0');
      assert.equal(res.headers['x-wp-total'], '0');
      assert.equal(res.headers['x-wp-totalpages'], '0');
      assert.equal(res.headers.link, undefined);
    });

    it('hides terms without published events by default (hide_empty=true)', async () => {
      const used = await createTermId(t.api, 'categories', { name: 'Used' }, 'editor');
      const draftOnly = await createTermId(t.api, 'categories', { name: 'Draft only' }, 'editor');
      await createTermId(t.api, 'categories', { name: 'Unused' }, 'editor');
      await insertEvent(t.api.db, { termIds: [used] });
      await insertEvent(t.api.db, { termIds: [draftOnly], status: 'draft' });
      const byDefault = await t.api.get('/categories');
      assert.deepEqual(ids(byDefault), [used]);
      assert.equal(byDefault.json.categories[0].count, 1);
      const all = await t.api.get('/categories', { query: { hide_empty: 'false' } });
      assert.equal(all.json.total, 3);
      assert.deepEqual(
        all.json.categories.map((c: { name: string }) => c.name),
        ['Draft only', 'Unused', 'Used'],
      );
    });

    it('orders by name (case-insensitive) by default and by id, slug, count or include on request', async () => {
      const b = await createTermId(t.api, 'categories', { name: 'b' }, 'editor');
      const A = await createTermId(t.api, 'categories', { name: 'A' }, 'editor');
      const C = await createTermId(t.api, 'categories', { name: 'C' }, 'editor');
      await insertEvent(t.api.db, { termIds: [C] });
      await insertEvent(t.api.db, { termIds: [C, b] });
      const q = (extra: Record<string, string>) => t.api.get('/categories', { query: { hide_empty: '0', ...extra } });
      assert.deepEqual(ids(await q({})), [A, b, C]);
      assert.deepEqual(ids(await q({ orderby: 'id', order: 'desc' })), [C, A, b]);
      assert.deepEqual(ids(await q({ orderby: 'id', order: 'ASC' })), [b, A, C]);
      assert.deepEqual(ids(await q({ orderby: 'name', order: 'desc' })), [C, b, A]);
      assert.deepEqual(ids(await q({ orderby: 'count', order: 'desc' })), [C, b, A]);
      assert.deepEqual(ids(await q({ orderby: 'include', include: `${C},${A},${b}` })), [C, A, b]);
    });

    it('rejects unknown or empty order and orderby values', async () => {
      for (const query of [{ order: 'sideways' }, { order: '' }, { orderby: 'colour' }, { orderby: '' }]) {
        const res = await t.api.get('/categories', { query });
        assert.equal(res.status, 400, JSON.stringify(query));
        assert.equal(res.json.code, 'rest_invalid_param');
        assert.deepEqual(Object.keys(res.json.data.params), Object.keys(query));
      }
    });

    it('search matches a substring of the name or the slug, case-insensitively', async () => {
      await createTermId(t.api, 'categories', { name: 'Foo' }, 'editor');
      await createTermId(t.api, 'categories', { name: 'Bar' }, 'editor');
      await createTermId(t.api, 'categories', { name: 'Baz' }, 'editor');
      await createTermId(t.api, 'categories', { name: 'One', slug: 'foo-bar' }, 'editor');
      const foo = await t.api.get('/categories', { query: { hide_empty: '0', search: 'FOO' } });
      assert.equal(foo.json.total, 2);
      const bar = await t.api.get('/categories', { query: { hide_empty: '0', search: 'bar' } });
      assert.equal(bar.json.total, 2);
      const none = await t.api.get('/categories', { query: { hide_empty: '0', search: 'zoot' } });
      assert.equal(none.status, 200);
      assert.equal(none.json.total, 0);
      const wildcard = await t.api.get('/categories', { query: { hide_empty: '0', search: '%' } });
      assert.equal(wildcard.json.total, 0);
      const empty = await t.api.get('/categories', { query: { search: '' } });
      assert.equal(empty.status, 400);
    });

    it('slug filters by exact slug; an empty slug is 400', async () => {
      await createTermId(t.api, 'categories', { name: 'Alpha', slug: 'a' }, 'editor');
      await createTermId(t.api, 'categories', { name: 'Alphabet', slug: 'ab' }, 'editor');
      const a = await t.api.get('/categories', { query: { hide_empty: '0', slug: 'a' } });
      assert.deepEqual(
        a.json.categories.map((c: { slug: string }) => c.slug),
        ['a'],
      );
      const none = await t.api.get('/tags', { query: { hide_empty: '0', slug: 'foo' } });
      assert.deepEqual(none.json, {
        rest_url: `${API}/tags/?slug=foo&hide_empty=0`,
        total: 0,
        total_pages: 0,
        tags: [],
      });
      assert.equal((await t.api.get('/categories', { query: { slug: '' } })).status, 400);
    });

    it('include and exclude take ids (CSV or repeated) or slugs; unknown ones are 400', async () => {
      const one = await createTermId(t.api, 'categories', { name: 'one' }, 'editor');
      const two = await createTermId(t.api, 'categories', { name: 'two' }, 'editor');
      const three = await createTermId(t.api, 'categories', { name: 'three' }, 'editor');
      const q = (query: Record<string, string | string[] | undefined>) =>
        t.api.get('/categories', { query: { hide_empty: '0', ...query } });
      assert.deepEqual(ids(await q({ include: String(one) })), [one]);
      assert.equal((await q({ include: `${one},${two},${three}` })).json.total, 3);
      assert.equal((await q({ exclude: String(one) })).json.total, 2);
      assert.deepEqual(ids(await q({ 'exclude[]': [String(one), String(two)] })), [three]);
      assert.deepEqual(ids(await q({ include: 'two' })), [two]);
      for (const query of [{ include: '2389,1235' }, { exclude: '999999' }, { include: 'no-such-slug' }]) {
        const res = await q(query);
        assert.equal(res.status, 400, JSON.stringify(query));
        assert.equal(res.json.code, 'rest_invalid_param');
      }
    });

    it('parent lists direct children; unknown or empty parent is 400; 0 lists top-level terms', async () => {
      const b = await createTermId(t.api, 'categories', { name: 'b' }, 'editor');
      await createTermId(t.api, 'categories', { name: 'A', parent: b }, 'editor');
      await createTermId(t.api, 'categories', { name: 'C' }, 'editor');
      await createTermId(t.api, 'categories', { name: 'D', parent: b }, 'editor');
      assert.equal((await t.api.get('/categories', { query: { hide_empty: '0', parent: b } })).json.total, 2);
      assert.equal((await t.api.get('/categories', { query: { hide_empty: '0', parent: 0 } })).json.total, 2);
      for (const parent of ['2389', '', 'x']) {
        assert.equal((await t.api.get('/categories', { query: { parent } })).status, 400, parent);
      }
    });

    it('post and event filter by event; event wins over post; unknown events are 400', async () => {
      const b = await createTermId(t.api, 'categories', { name: 'b' }, 'editor');
      const A = await createTermId(t.api, 'categories', { name: 'A' }, 'editor');
      const C = await createTermId(t.api, 'categories', { name: 'C' }, 'editor');
      const first = await insertEvent(t.api.db, { termIds: [b, C] });
      const second = await insertEvent(t.api.db, { termIds: [A] });
      assert.deepEqual(ids(await t.api.get('/categories', { query: { post: first } })), [b, C]);
      assert.deepEqual(ids(await t.api.get('/categories', { query: { event: first } })), [b, C]);
      assert.deepEqual(ids(await t.api.get('/categories', { query: { post: first, event: second } })), [A]);
      for (const query of [
        { post: '' },
        { post: 23 },
        { post: 'foo' },
        { event: '' },
        { event: 23 },
        { event: 'foo' },
        { event: b },
      ]) {
        assert.equal((await t.api.get('/categories', { query })).status, 400, JSON.stringify(query));
      }
    });

    it('paginates with totals, headers and links that change only the page', async () => {
      for (let i = 1; i <= 9; i++) await createTermId(t.api, 'categories', { name: `Cat ${i}` }, 'editor');
      const page = (n: number) => t.api.get('/categories', { query: { hide_empty: 'false', per_page: 3, page: n } });
      const first = await page(1);
      assert.equal(first.json.total, 9);
      assert.equal(first.json.total_pages, 3);
      assert.equal(first.headers['x-tec-total'], '9');
      assert.equal(first.headers['x-wp-totalpages'], '3');
      assert.deepEqual(Object.keys(first.json), ['rest_url', 'total', 'total_pages', 'categories', 'next_rest_url']);
      assert.equal(first.json.rest_url, `${API}/categories/?page=1&per_page=3&hide_empty=0`);
      assert.equal(first.json.next_rest_url, `${API}/categories/?page=2&per_page=3&hide_empty=0`);
      assert.equal(first.headers.link, `<${API}/categories/?page=2&per_page=3&hide_empty=0>; rel="next"`);
      const second = await page(2);
      assert.equal(second.json.previous_rest_url, `${API}/categories/?per_page=3&hide_empty=0`);
      assert.equal(second.json.next_rest_url, `${API}/categories/?page=3&per_page=3&hide_empty=0`);
      const third = await page(3);
      assert.equal(third.json.previous_rest_url, `${API}/categories/?page=2&per_page=3&hide_empty=0`);
      assert.equal(third.json.next_rest_url, undefined);
      const seen = new Set(
        [...first.json.categories, ...second.json.categories, ...third.json.categories].map((c) => c.id),
      );
      assert.equal(seen.size, 9);
      const beyond = await page(4);
      assert.equal(beyond.status, 200);
      assert.deepEqual(beyond.json.categories, []);
      assert.equal(beyond.json.total, 9);
      assert.equal(beyond.json.previous_rest_url, `${API}/categories/?page=3&per_page=3&hide_empty=0`);
    });

    it('links carry every filter, URL-encoded, and the language parameter', async () => {
      await createTermId(t.api, 'categories', { name: 'Rock n roll one' }, 'editor');
      await createTermId(t.api, 'categories', { name: 'Rock n roll two' }, 'editor');
      const res = await t.api.get('/categories', {
        query: { search: 'rock n', hide_empty: 'no', per_page: 1, i18n_language: 'fr' },
      });
      assert.equal(res.json.total, 2);
      assert.equal(res.json.rest_url, `${API}/categories/?per_page=1&search=rock+n&hide_empty=0&i18n_language=fr`);
      assert.equal(
        res.json.next_rest_url,
        `${API}/categories/?page=2&per_page=1&search=rock+n&hide_empty=0&i18n_language=fr`,
      );
      const next = await t.api.get(res.json.next_rest_url.replace('http://127.0.0.1:8080', ''));
      assert.equal(next.json.total, 2);
      assert.equal(next.json.categories.length, 1);
      const pathForm = await t.api.get('/fr/calendar/events/v1/categories', {
        query: { hide_empty: '0', per_page: 1 },
      });
      assert.equal(
        pathForm.json.next_rest_url,
        'http://127.0.0.1:8080/fr/calendar/events/v1/categories/?page=2&per_page=1&hide_empty=0',
      );
      assert.equal(
        pathForm.json.categories[0].urls.self.startsWith('http://127.0.0.1:8080/fr/calendar/events/v1/categories/'),
        true,
      );
    });

    it('per_page is clamped to MAX_PER_PAGE; bad page and per_page values are 400', async () => {
      for (let i = 1; i <= 3; i++) await createTermId(t.api, 'categories', { name: `Clamp ${i}` }, 'editor');
      const clamped = await t.api.get('/categories', { query: { hide_empty: '0', per_page: 1000 } });
      assert.equal(clamped.status, 200);
      assert.match(clamped.json.rest_url, /per_page=50/);
      for (const query of [
        { page: 'foo' },
        { page: -1 },
        { page: 0 },
        { page: 'foo bar' },
        { per_page: 'foo' },
        { per_page: -1 },
        { per_page: 0 },
      ]) {
        const res = await t.api.get('/tags', { query });
        assert.equal(res.status, 400, JSON.stringify(query));
        assert.equal(res.json.code, 'rest_invalid_param');
      }
    });

    it('tags list has the same envelope and no parent parameter effect', async () => {
      const tag = await createTerm(t.api, 'tags', { name: 'outdoor' }, 'editor');
      await insertEvent(t.api.db, { termIds: [tag.id] });
      const res = await t.api.get('/tags');
      assert.deepEqual(res.json, {
        rest_url: `${API}/tags/`,
        total: 1,
        total_pages: 1,
        tags: [{ ...tag, count: 1 }],
      });
    });
  });
}
