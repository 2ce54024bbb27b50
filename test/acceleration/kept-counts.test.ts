import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { testDialects } from '../helpers/databases.js';
import { TestApi, useTestApp, type Who } from '../helpers/app.js';

// Issue "reads while editors write": list totals and whole lists are kept across this process's
// writes, adjusted by the events each write moves in and out of a list (lists patched in place)
// instead of read again. After every kind of event write, every warmed total and page must equal
// what the plain path (ACCELERATION=off, SQL alone, on the same database) reads now, and
// `POST /reconcile` must find no difference.

const TOKEN = 'kept-counts-token';

// Lists longer than KEPT_LIST_MAX keep only their first KEPT_LIST_HEAD events: small limits make
// the same writes patch heads (inserted before, after and into the head, moved out of it).
const KEPT = {
  'whole lists': {},
  'heads of longer lists': { KEPT_LIST_MAX: '3', KEPT_LIST_HEAD: '4' },
};

for (const dialect of await testDialects())
  for (const [kept, env] of Object.entries(KEPT)) {
    describe(`kept list totals follow this process's writes, ${kept} [${dialect}]`, () => {
      const t = useTestApp(dialect, { env: { METRICS_TOKEN: TOKEN, ...env } });
      let plain: TestApi;
      let category: number;
      let otherCategory: number;
      let venue: number;
      let readers: Record<'anonymous' | 'editor' | 'author', Who>;

      before(async () => {
        const api = t.api;
        const app = await buildApp(loadConfig({ ...envOf(api), ACCELERATION: 'off' }), {
          clock: () => api.now,
          logger: false,
        });
        plain = new TestApi(app, api.config, api.dialect);
        const [editor, author] = [await api.user('editor'), await api.user('author')];
        readers = {
          anonymous: 'anonymous',
          editor: { authorization: editor.header },
          author: { authorization: author.header },
        };
        category = (await api.post('/categories', { name: 'Concerts' }, { as: 'editor' })).json.id;
        otherCategory = (await api.post('/categories', { name: 'Talks' }, { as: 'editor' })).json.id;
        venue = (await api.post('/venues', { venue: 'Hall' }, { as: 'editor' })).json.id;
        for (let i = 0; i < 6; i++)
          await create(
            api,
            {
              title: `Seed ${i}`,
              status: i % 3 === 0 ? 'draft' : 'publish',
              categories: [i % 2 ? category : otherCategory],
            },
            'author',
          );
      });
      after(async () => plain?.app.close());

      const lists: Record<string, string | number>[] = [
        {},
        { per_page: 2, page: 2 },
        { per_page: 1, page: 4 },
        { per_page: 3, page: 2 },
        { categories: 'concerts' },
        { start_date: '2026-12-01', end_date: '2026-12-31' },
        { featured: 'true' },
        { search: 'seed' },
      ];

      /** Reads every list as every reader, on the app under test and on the plain app: the totals must agree. */
      async function totalsAgree(step: string): Promise<void> {
        for (const [name, who] of Object.entries(readers)) {
          for (const query of [...lists, { venue }]) {
            const listed = await t.api.get('/events', { as: who, query });
            const counted = await plain.get('/events', { as: who, query });
            assert.equal(listed.status, counted.status, `${step}: ${name} ${JSON.stringify(query)}`);
            const what = `${step}: ${name} ${JSON.stringify(query)}`;
            assert.equal(listed.headers['x-wp-total'], counted.headers['x-wp-total'], what);
            if (listed.status === 200) assert.deepEqual(idsOf(listed.json), idsOf(counted.json), what);
          }
        }
        const reconciled = await t.api.request('POST', '/reconcile', undefined, {
          raw: true,
          headers: { authorization: `Bearer ${TOKEN}` },
        });
        assert.equal(reconciled.status, 200);
        assert.equal(reconciled.json.differences, 0, `${step}: ${JSON.stringify(reconciled.json.details)}`);
        assert.ok(reconciled.json.checked > 0, `${step}: kept totals were checked`);
      }

      it('creates, status changes, reschedules, recategorisations, title edits, trash and deletion keep every total right', async () => {
        const api = t.api;
        // Until every list is kept whole ("hot", four reads): then writes patch the kept lists.
        for (const round of [1, 2, 3, 4, 5]) await totalsAgree(`warm ${round}`);
        const published = await create(api, { title: 'Seed new', categories: [category], venue }, 'editor');
        await totalsAgree('create published');
        const draft = await create(api, { title: 'Seed draft', status: 'draft', categories: [category] }, 'author');
        await totalsAgree('create draft by the author');
        await api.patch(`/events/${draft}`, { status: 'publish' }, { as: 'editor' });
        await totalsAgree('publish the draft');
        await api.patch(
          `/events/${published}`,
          { start_date: '2026-12-10 10:00:00', end_date: '2026-12-10 11:00:00' },
          { as: 'editor' },
        );
        await totalsAgree('reschedule into December');
        await api.patch(`/events/${published}`, { categories: [otherCategory], featured: true }, { as: 'editor' });
        await totalsAgree('recategorise and feature');
        await api.patch(`/events/${draft}`, { title: 'Renamed' }, { as: 'editor' });
        await totalsAgree('rename (leaves the search)');
        await api.delete(`/events/${draft}`, { as: 'editor' });
        await totalsAgree('trash');
        await api.delete(`/events/${published}`, { as: 'editor', query: { force: 'true' } });
        await totalsAgree('delete for good');
      });

      it('POST /reconcile needs the METRICS_TOKEN bearer (else 401 rest_forbidden, as /metrics)', async () => {
        const refused = await t.api.request('POST', '/reconcile', undefined, {
          raw: true,
          headers: { authorization: 'Bearer wrong' },
        });
        assert.equal(refused.status, 401);
        assert.equal(refused.json.code, 'rest_forbidden');
      });
    });
  }

function envOf(api: TestApi): Record<string, string> {
  return { DATABASE_URL: api.config.databaseUrl, PUBLIC_URL: 'http://127.0.0.1:8080', LOG_LEVEL: 'silent' };
}

const idsOf = (body: { events: { id: number }[] }) => body.events.map((event) => event.id);

let created = 0;

/** An event in December 2026 (days spread, so that the windows above hold some and not others). */
async function create(api: TestApi, fields: Record<string, unknown>, as: 'editor' | 'author'): Promise<number> {
  created += 1;
  const day = 1 + ((created * 7) % 28);
  const date = `2026-12-${String(day).padStart(2, '0')}`;
  const response = await api.post(
    '/events',
    { start_date: `${date} 18:00:00`, end_date: `${date} 20:00:00`, ...fields },
    { as },
  );
  assert.equal(response.status, 201, response.text);
  return response.json.id;
}
