import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { testDialects } from '../helpers/databases.js';
import { DEFAULT_NOW, useTestApp, type TestApi } from '../helpers/app.js';

const HOUR = 3_600_000;
const at = (hours: number) => new Date(DEFAULT_NOW.getTime() + hours * HOUR);
/** `YYYY-MM-DD HH:MM:SS` in UTC (the tests' SITE_TIMEZONE). */
const stamp = (date: Date) => date.toISOString().slice(0, 19).replace('T', ' ');

async function createAt(api: TestApi, hours: number, path: string, body: Record<string, unknown>): Promise<number> {
  api.now = at(hours);
  const res = await api.post(path, body, { as: 'administrator' });
  assert.equal(res.status, 201, res.text);
  api.now = DEFAULT_NOW;
  return res.json.id;
}

const ids = (res: { json: Record<string, { id: number }[]> }, key: string) => res.json[key].map((item) => item.id);

for (const dialect of await testDialects()) {
  describe(`modified_after, modified_before and orderby=modified [${dialect}]`, () => {
    const t = useTestApp(dialect);
    const event = (title: string, start: string) => ({ title, start_date: start, end_date: start });

    it('events: ≥ and < on the modification instant, no default window, kept in the links', async () => {
      const old = await createAt(t.api, 1, '/events', event('Long past', '2020-01-01 10:00:00'));
      const soon = await createAt(t.api, 2, '/events', event('Soon', '2026-12-01 10:00:00'));
      const later = await createAt(t.api, 3, '/events', event('Later', '2026-11-25 10:00:00'));
      t.api.now = at(4);
      assert.equal((await t.api.patch(`/events/${old}`, { excerpt: 'touched' }, { as: 'administrator' })).status, 200);
      t.api.now = DEFAULT_NOW;
      const after = await t.api.get('/events', { query: { modified_after: stamp(at(2)) } });
      assert.equal(after.status, 200, after.text);
      assert.deepEqual(ids(after, 'events'), [old, later, soon], 'the default window is off; start order');
      assert.match(after.json.rest_url, /modified_after=2026-11-21(%20|\+)10%3A37%3A48/);
      const before = await t.api.get('/events', { query: { modified_before: stamp(at(3)), start_date: '2026-01-01' } });
      assert.deepEqual(ids(before, 'events'), [soon]);
      const byModified = await t.api.get('/events', { query: { modified_after: stamp(at(1)), orderby: 'modified' } });
      assert.deepEqual(ids(byModified, 'events'), [soon, later, old]);
      const desc = await t.api.get('/events', {
        query: { modified_after: stamp(at(1)), orderby: 'modified', order: 'desc' },
      });
      assert.deepEqual(ids(desc, 'events'), [old, later, soon]);
      const paged = await t.api.get('/events', {
        query: { modified_after: stamp(at(1)), orderby: 'modified', per_page: 1, page: 2 },
      });
      assert.deepEqual(ids(paged, 'events'), [later]);
      assert.match(paged.json.next_rest_url, /orderby=modified/);
      assert.match(paged.json.next_rest_url, /modified_after=/);
    });

    it("TEC's orderby and order values are ignored: start order", async () => {
      const tec = await t.api.get('/events', { query: { order: 'desc', orderby: 'date' } });
      const plain = await t.api.get('/events');
      assert.equal(tec.status, 200);
      assert.deepEqual(ids(tec, 'events'), ids(plain, 'events'));
      const startDesc = await t.api.get('/events', { query: { orderby: 'start', order: 'desc' } });
      assert.deepEqual(ids(startDesc, 'events'), [...ids(plain, 'events')].reverse());
    });

    it('an invalid bound is a 400 naming it', async () => {
      for (const path of ['/events', '/venues', '/organizers', '/categories', '/tags']) {
        const res = await t.api.get(path, { query: { modified_after: 'not a date' } });
        assert.equal(res.status, 400, path);
        assert.deepEqual(Object.keys(res.json.data.params), ['modified_after'], path);
      }
    });

    it('venues, organizers, categories and tags filter on their last change', async () => {
      const v1 = await createAt(t.api, 10, '/venues', { venue: 'Venue one' });
      const v2 = await createAt(t.api, 11, '/venues', { venue: 'Venue two' });
      const o1 = await createAt(t.api, 10, '/organizers', { organizer: 'Organizer one' });
      const c1 = await createAt(t.api, 10, '/categories', { name: 'Category one' });
      const c2 = await createAt(t.api, 11, '/categories', { name: 'Category two' });
      const g1 = await createAt(t.api, 11, '/tags', { name: 'Tag one' });
      t.api.now = at(12);
      assert.equal(
        (await t.api.patch(`/categories/${c1}`, { description: 'changed' }, { as: 'administrator' })).status,
        200,
      );
      t.api.now = DEFAULT_NOW;
      const since = stamp(at(11));
      assert.deepEqual(ids(await t.api.get('/venues', { query: { modified_after: since } }), 'venues'), [v2]);
      assert.deepEqual(ids(await t.api.get('/venues', { query: { modified_before: since } }), 'venues'), [v1]);
      assert.deepEqual(ids(await t.api.get('/organizers', { query: { modified_after: since } }), 'organizers'), []);
      assert.deepEqual(ids(await t.api.get('/organizers', { query: { modified_before: since } }), 'organizers'), [o1]);
      const categories = await t.api.get('/categories', { query: { modified_after: since, hide_empty: false } });
      assert.deepEqual(ids(categories, 'categories').sort(), [c1, c2].sort());
      assert.match(categories.json.rest_url, /modified_after=/);
      const early = await t.api.get('/categories', { query: { modified_before: since, hide_empty: false } });
      assert.deepEqual(ids(early, 'categories'), []);
      const tags = await t.api.get('/tags', { query: { modified_after: since, hide_empty: false } });
      assert.deepEqual(ids(tags, 'tags'), [g1]);
    });
  });
}
