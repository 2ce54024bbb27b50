import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startServer, type RunningServer } from '../../bench/server.js';
import type { Dialect } from '../../src/db/connect.js';
import { NS, useTestApp } from '../helpers/app.js';
import { createTestDatabase, testDialects, type TestDatabase } from '../helpers/databases.js';

// Response bodies are arbitrary JSON by nature; the assertions are the type check (as test/helpers/app.ts).
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

interface Reply {
  status: number;
  json: Json;
}

/**
 * Where the concurrent requests go, as an administrator. `via` picks the server: on PostgreSQL two
 * real server processes share one database, so concurrent writers are truly parallel; on SQLite,
 * whose writers share one process, the app itself.
 */
interface Target {
  send(via: number, method: string, path: string, body?: unknown): Promise<Reply>;
}

const ADMIN_PASSWORD = 'concurrency-admin-password';

function useTwoServers(): { readonly target: Target } {
  let database: TestDatabase | undefined;
  const servers: RunningServer[] = [];
  const authorization = `Basic ${Buffer.from(`admin:${ADMIN_PASSWORD}`).toString('base64')}`;
  before(async () => {
    database = await createTestDatabase('postgres');
    // One after the other: the first migrates the database and creates the administrator.
    for (let i = 0; i < 2; i++)
      servers.push(
        await startServer(database.url, { cache: true, extraEnv: { CALENDAR_ADMIN_PASSWORD: ADMIN_PASSWORD } }),
      );
  });
  after(async () => {
    await Promise.all(servers.map((server) => server.stop()));
    await database?.drop();
  });
  const target: Target = {
    async send(via, method, path, body) {
      const response = await fetch(`${servers[via % servers.length].origin}${NS}${path}`, {
        method,
        headers: {
          authorization,
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        },
        body: body !== undefined ? JSON.stringify(body) : undefined,
      });
      const text = await response.text();
      return { status: response.status, json: text === '' ? undefined : JSON.parse(text) };
    },
  };
  return { target };
}

function useOneApp(dialect: Dialect): { readonly target: Target } {
  const t = useTestApp(dialect);
  // The helper creates its users on first use: not by fifty requests at once.
  before(() => t.api.user('administrator'));
  return {
    target: {
      send: (_via, method, path, body) => t.api.request(method, path, body, { as: 'administrator' }),
    },
  };
}

/** The statuses of a batch of replies, counted: `{ "201": 50 }`. */
function statusCounts(replies: readonly Reply[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const reply of replies) counts[reply.status] = (counts[reply.status] ?? 0) + 1;
  return counts;
}

const EVENT = { title: 'Race Event', start_date: '2027-01-05 10:00:00', end_date: '2027-01-05 12:00:00' };

/** One field of an event update, and how to tell from the event read afterwards that it held. */
interface FieldUpdate {
  name: string;
  body: Record<string, unknown>;
  held(event: Json): boolean;
}

function eventFieldUpdates(venueId: number): FieldUpdate[] {
  return [
    { name: 'timezone', body: { timezone: 'Europe/Paris' }, held: (e) => e.timezone === 'Europe/Paris' },
    // Dates are compared by local day only: all_day snaps the times, a new zone keeps the wall-clock time.
    {
      name: 'start_date',
      body: { start_date: '2027-01-03 09:00:00' },
      held: (e) => String(e.start_date).startsWith('2027-01-03'),
    },
    {
      name: 'end_date',
      body: { end_date: '2027-01-10 18:00:00' },
      held: (e) => String(e.end_date).startsWith('2027-01-10'),
    },
    { name: 'all_day', body: { all_day: true }, held: (e) => e.all_day === true },
    { name: 'title', body: { title: 'Renamed Event' }, held: (e) => e.title === 'Renamed Event' },
    {
      name: 'description',
      body: { description: 'New description' },
      held: (e) => String(e.description).includes('New description'),
    },
    { name: 'status', body: { status: 'draft' }, held: (e) => e.status === 'draft' },
    { name: 'featured', body: { featured: true }, held: (e) => e.featured === true },
    { name: 'cost', body: { cost: '15' }, held: (e) => e.cost_details?.values?.[0] === '15' },
    {
      name: 'website',
      body: { website: 'https://example.org/race' },
      held: (e) => e.website === 'https://example.org/race',
    },
    { name: 'venue', body: { venue: venueId }, held: (e) => e.venue?.id === venueId },
    {
      name: 'categories',
      body: { categories: ['race-category'] },
      held: (e) => e.categories?.[0]?.slug === 'race-category',
    },
    { name: 'slug', body: { slug: 'renamed-slug' }, held: (e) => String(e.slug).startsWith('renamed-slug') },
    {
      name: 'German title',
      body: { title: 'Deutscher Titel', i18n_language: 'de' },
      held: (e) => e.translations?.de?.title === 'Deutscher Titel',
    },
    {
      name: 'German excerpt',
      body: { excerpt: 'Deutscher Auszug', i18n_language: 'de' },
      held: (e) => String(e.translations?.de?.excerpt).includes('Deutscher Auszug'),
    },
  ];
}

function pairs<T>(items: readonly T[]): [T, T][] {
  return items.flatMap((first, i) => items.slice(i + 1).map((second): [T, T] => [first, second]));
}

for (const dialect of await testDialects()) {
  const setting = dialect === 'postgres' ? 'two server processes on one database' : 'one process';
  describe(`concurrent writes [${dialect}, ${setting}]`, () => {
    const { target } = dialect === 'postgres' ? useTwoServers() : useOneApp(dialect);

    it('50 concurrent creates with one title are all 201 and take the first 50 slugs', async () => {
      const replies = await Promise.all(
        Array.from({ length: 50 }, (_, i) => target.send(i, 'POST', '/events', { ...EVENT, title: 'Same Title' })),
      );
      assert.deepEqual(statusCounts(replies), { 201: 50 });
      const slugs = replies.map((reply) => reply.json.slug as string).sort();
      const expected = Array.from({ length: 50 }, (_, i) => (i === 0 ? 'same-title' : `same-title-${i + 1}`)).sort();
      assert.deepEqual(slugs, expected, 'every slug distinct, none skipped');
    });

    it('concurrent updates of different fields of one event lose none of them (every pair)', async () => {
      const venue = await target.send(0, 'POST', '/venues', { venue: 'Pair Venue' });
      assert.equal(venue.status, 201);
      const category = await target.send(0, 'POST', '/categories', { name: 'Race Category' });
      assert.equal(category.status, 201);
      const lost: string[] = [];
      const failures: string[] = [];
      for (const [first, second] of pairs(eventFieldUpdates(venue.json.id))) {
        for (let round = 0; round < 2; round++) {
          const created = await target.send(0, 'POST', '/events', EVENT);
          assert.equal(created.status, 201);
          const id = created.json.id as number;
          const replies = await Promise.all([
            target.send(0, 'POST', `/events/${id}`, first.body),
            target.send(1, 'POST', `/events/${id}`, second.body),
          ]);
          for (const reply of replies)
            if (reply.status !== 200) failures.push(`${first.name} + ${second.name}: ${reply.status}`);
          const event = (await target.send(0, 'GET', `/events/${id}?context=edit`)).json;
          for (const update of [first, second])
            if (!update.held(event))
              lost.push(`${update.name} (updated with ${[first, second].find((u) => u !== update)?.name})`);
        }
      }
      assert.deepEqual(failures, [], 'every update is 200');
      assert.deepEqual(lost, [], 'no field lost');
    });

    for (const [kind, route, nameField] of [
      ['venue', '/venues', 'venue'],
      ['organizer', '/organizers', 'organizer'],
    ] as const) {
      it(`20 concurrent creates of one ${kind} name (any case) make one ${kind}, reused by all (201)`, async () => {
        const names = ['Shared Hall', 'shared hall', 'SHARED HALL', 'Shared HALL'];
        const replies = await Promise.all(
          Array.from({ length: 20 }, (_, i) => target.send(i, 'POST', route, { [nameField]: names[i % names.length] })),
        );
        assert.deepEqual(statusCounts(replies), { 201: 20 });
        assert.equal(new Set(replies.map((reply) => reply.json.id)).size, 1, 'one id for all');
        const list = await target.send(0, 'GET', `${route}?search=shared&per_page=50`);
        assert.equal(list.json[`${kind}s`].length, 1, `one ${kind} stored`);
      });

      it(`20 concurrent event creates with one inline ${kind} share one ${kind}`, async () => {
        const inline =
          kind === 'venue' ? { venue: { venue: 'Inline Hall' } } : { organizer: [{ organizer: 'Inline Host' }] };
        const replies = await Promise.all(
          Array.from({ length: 20 }, (_, i) => target.send(i, 'POST', '/events', { ...EVENT, ...inline })),
        );
        assert.deepEqual(statusCounts(replies), { 201: 20 });
        const ids = replies.map((reply) => (kind === 'venue' ? reply.json.venue.id : reply.json.organizer[0].id));
        assert.equal(new Set(ids).size, 1, `one ${kind} for all events`);
      });
    }

    it('concurrent event creates naming two new organizers in opposite orders all succeed, without deadlocks', async () => {
      // Taken in list order, the organizers' name locks would deadlock on PostgreSQL (broken after a
      // second, then retried): they are taken in one order for all writers.
      const orders = [
        [{ organizer: 'Order Host A' }, { organizer: 'Order Host B' }],
        [{ organizer: 'Order Host B' }, { organizer: 'Order Host A' }],
      ];
      const replies = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          target.send(i, 'POST', '/events', {
            ...EVENT,
            // Titles of different stems: creates of one title would wait for each other on their slug first.
            title: `Order ${String.fromCharCode(97 + i)}`,
            organizer: orders[i % 2],
          }),
        ),
      );
      assert.deepEqual(statusCounts(replies), { 201: 20 });
      const ids = new Set(replies.flatMap((reply) => reply.json.organizer.map((o: Json) => o.id as number)));
      assert.equal(ids.size, 2, 'two organizers for all events');
    });

    it('concurrent updates of different fields of one term lose none of them', async () => {
      const updates: FieldUpdate[] = [
        { name: 'name', body: { name: 'Renamed Term' }, held: (t) => t.name === 'Renamed Term' },
        { name: 'description', body: { description: 'About it' }, held: (t) => t.description === 'About it' },
        { name: 'slug', body: { slug: 'renamed-term' }, held: (t) => t.slug === 'renamed-term' },
        { name: 'German name', body: { name: 'Deutsch', i18n_language: 'de' }, held: () => true },
        { name: 'German description', body: { description: 'Auf Deutsch', i18n_language: 'de' }, held: () => true },
      ];
      const failures: string[] = [];
      const lost: string[] = [];
      let n = 0;
      for (const [first, second] of pairs(updates)) {
        for (let round = 0; round < 2; round++) {
          const created = await target.send(0, 'POST', '/tags', { name: `Pair Term ${n++}` });
          assert.equal(created.status, 201);
          const id = created.json.id as number;
          const replies = await Promise.all([
            target.send(0, 'POST', `/tags/${id}`, first.body),
            target.send(1, 'POST', `/tags/${id}`, second.body),
          ]);
          for (const reply of replies)
            if (reply.status !== 200) failures.push(`${first.name} + ${second.name}: ${reply.status}`);
          const term = (await target.send(0, 'GET', `/tags/${id}`)).json;
          const german = (await target.send(0, 'GET', `/tags/${id}?i18n_language=de`)).json;
          for (const update of [first, second]) {
            const held =
              update.name === 'German name'
                ? german.name === 'Deutsch'
                : update.name === 'German description'
                  ? german.description === 'Auf Deutsch'
                  : update.held(term);
            if (!held) lost.push(`${update.name} (updated with ${[first, second].find((u) => u !== update)?.name})`);
          }
          // The next pair renames another term to the same name and slug.
          await target.send(0, 'DELETE', `/tags/${id}?force=true`);
        }
      }
      assert.deepEqual(failures, [], 'every update is 200');
      assert.deepEqual(lost, [], 'no field lost');
    });
  });
}
