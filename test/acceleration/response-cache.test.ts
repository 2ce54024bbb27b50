import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testDialects, createTestDatabase, type TestDatabase } from '../helpers/databases.js';
import { fragmentsOf, useTestApp } from '../helpers/app.js';
import { startServer, type RunningServer } from '../../bench/server.js';

for (const dialect of await testDialects()) {
  describe(`response and fragment caches never serve stale data [${dialect}]`, () => {
    const t = useTestApp(dialect);

    it('a repeated anonymous read is a cache hit, and a write makes the next read fresh', async () => {
      const created = await t.api.post(
        '/events',
        { title: 'Cached title', start_date: '2026-12-21 18:00', end_date: '2026-12-21 20:00' },
        { as: 'editor' },
      );
      const path = `/events/${created.json.id}`;
      // Kept from the second request on: one-off reads are not copied into the cache.
      assert.equal((await t.api.get(path)).headers['x-calendar-cache'], 'miss');
      assert.equal((await t.api.get(path)).headers['x-calendar-cache'], 'miss');
      const hit = await t.api.get(path);
      assert.equal(hit.headers['x-calendar-cache'], 'hit');
      assert.equal(hit.json.title, 'Cached title');
      await t.api.patch(path, { title: 'Fresh title' }, { as: 'editor' });
      const fresh = await t.api.get(path);
      assert.equal(fresh.json.title, 'Fresh title');
      assert.equal(fresh.headers['x-calendar-cache'], 'miss');
      const list = await t.api.get('/events', { query: { include: created.json.id } });
      assert.equal(list.json.events[0].title, 'Fresh title');
    });

    it('a rejected write (401, 403, 400, 404) leaves a cached read a hit', async () => {
      const created = await t.api.post(
        '/events',
        { title: 'Kept warm', start_date: '2026-12-23 18:00', end_date: '2026-12-23 20:00' },
        { as: 'editor' },
      );
      const path = `/events/${created.json.id}`;
      await t.api.user('subscriber'); // created before the cache warms: adding a user is a write
      for (let i = 0; i < 3; i++) await t.api.get(path);
      assert.equal((await t.api.get(path)).headers['x-calendar-cache'], 'hit');
      const rejected = [
        await t.api.post('/events', {
          title: 'Anonymous',
          start_date: '2026-12-23 18:00',
          end_date: '2026-12-23 20:00',
        }),
        await t.api.patch(path, { title: 'Subscriber' }, { as: 'subscriber' }),
        await t.api.post('/events', '{"title": ', { as: 'editor' }),
        await t.api.delete('/events/999999', { as: 'editor' }),
      ];
      assert.deepEqual(
        rejected.map((res) => res.status),
        [401, 403, 400, 404],
      );
      const after = await t.api.get(path);
      assert.equal(after.headers['x-calendar-cache'], 'hit');
      assert.equal(after.json.title, 'Kept warm');
    });

    it('a change to an embedded venue or term shows at once in every cached event and list', async () => {
      const venue = await t.api.post('/venues', { venue: 'Old hall' }, { as: 'editor' });
      const category = await t.api.post('/categories', { name: 'Old name' }, { as: 'editor' });
      const event = await t.api.post(
        '/events',
        {
          title: 'With venue',
          start_date: '2026-12-22 18:00',
          end_date: '2026-12-22 20:00',
          venue: venue.json.id,
          categories: [category.json.id],
        },
        { as: 'editor' },
      );
      for (let i = 0; i < 2; i++) {
        await t.api.get(`/events/${event.json.id}`);
        await t.api.get('/events', { query: { include: event.json.id } });
        await t.api.get('/categories');
      }
      await t.api.patch(`/venues/${venue.json.id}`, { venue: 'New hall' }, { as: 'editor' });
      await t.api.patch(`/categories/${category.json.id}`, { name: 'New name' }, { as: 'editor' });
      const single = await t.api.get(`/events/${event.json.id}`);
      assert.equal(single.json.venue.venue, 'New hall');
      assert.equal(single.json.categories[0].name, 'New name');
      const list = await t.api.get('/events', { query: { include: event.json.id } });
      assert.equal(list.json.events[0].venue.venue, 'New hall');
      assert.equal(
        (await t.api.get('/categories')).json.categories.find((c: { id: number }) => c.id === category.json.id).name,
        'New name',
      );
    });

    it('a write to one event leaves other rendered events reused, and re-renders those embedding a term whose count it moved', async () => {
      const category = await t.api.post('/categories', { name: 'Counted category' }, { as: 'editor' });
      const other = await t.api.post('/categories', { name: 'Untouched category' }, { as: 'editor' });
      const event = (categories: number[], title: string) =>
        t.api.post(
          '/events',
          { title, start_date: '2026-12-26 18:00', end_date: '2026-12-26 20:00', categories },
          { as: 'editor' },
        );
      const embedding = await event([category.json.id], 'Embeds the counted category');
      const unrelated = await event([other.json.id], 'Embeds another category');
      const reads = async (id: number) => {
        const single = await t.api.get(`/events/${id}`);
        const listed = await t.api.get('/events', { query: { include: id } });
        return [single.json.categories[0].count, listed.json.events[0].categories[0].count];
      };
      const fragments = fragmentsOf(t.api.app);
      const renders = async (read: () => Promise<unknown>) => {
        const set = fragments.set.bind(fragments);
        let count = 0;
        fragments.set = (...args) => {
          count += 1;
          set(...args);
        };
        try {
          await read();
        } finally {
          fragments.set = set;
        }
        return count;
      };
      assert.deepEqual(await reads(embedding.json.id), [1, 1]);
      await reads(unrelated.json.id);

      await event([category.json.id], 'Moves the count');
      assert.equal(await renders(() => reads(unrelated.json.id)), 0, 'nothing it embeds changed: reused');
      assert.deepEqual(await reads(embedding.json.id), [2, 2], 'its category counts the new event at once');
      await t.api.patch(`/events/${unrelated.json.id}`, { title: 'Renamed' }, { as: 'editor' });
      assert.ok((await renders(() => reads(unrelated.json.id))) > 0, 'its own write renders it again');
      assert.equal((await t.api.get(`/events/${unrelated.json.id}`)).json.title, 'Renamed');
    });

    it('totals and pages follow creates and deletes at once', async () => {
      const before = (await t.api.get('/events')).json.total;
      await t.api.get('/events');
      const created = await t.api.post(
        '/events',
        { title: 'Counted', start_date: '2026-12-23 18:00', end_date: '2026-12-23 20:00' },
        { as: 'editor' },
      );
      assert.equal((await t.api.get('/events')).json.total, before + 1);
      await t.api.delete(`/events/${created.json.id}`, { as: 'editor' });
      assert.equal((await t.api.get('/events')).json.total, before);
    });

    it('a venue or organizer list stays a hit over event writes, not over a write of its kind or a list filtering on events', async () => {
      const venue = await t.api.post('/venues', { venue: 'Kept Hall', status: 'publish' }, { as: 'editor' });
      const organizer = await t.api.post(
        '/organizers',
        { organizer: 'Kept Host', status: 'publish' },
        { as: 'editor' },
      );
      const event = await t.api.post(
        '/events',
        { title: 'Venue list writer', start_date: '2026-12-26 18:00', end_date: '2026-12-26 20:00' },
        { as: 'editor' },
      );
      const paths = ['/venues', '/organizers', '/venues?only_with_upcoming=true'];
      const warm = async () => {
        for (const path of paths) for (let i = 0; i < 3; i++) await t.api.get(path);
      };
      const cacheOf = async (path: string) => (await t.api.get(path)).headers['x-calendar-cache'];
      await warm();
      await t.api.patch(
        `/events/${event.json.id}`,
        { title: 'Venue list writer, renamed', venue: venue.json.id },
        { as: 'editor' },
      );
      assert.equal(await cacheOf('/venues'), 'hit', 'an event write names no venue');
      assert.equal(await cacheOf('/organizers'), 'hit');
      assert.equal(await cacheOf('/venues?only_with_upcoming=true'), 'miss', 'a list filtering on events follows them');
      await warm();
      await t.api.patch(`/venues/${venue.json.id}`, { venue: 'Kept Hall, renamed' }, { as: 'editor' });
      const venues = await t.api.get('/venues');
      assert.equal(venues.headers['x-calendar-cache'], 'miss');
      assert.ok(venues.json.venues.some((v: { venue: string }) => v.venue === 'Kept Hall, renamed'));
      assert.equal(await cacheOf('/organizers'), 'hit', 'a venue write names no organizer');
      await t.api.patch(`/organizers/${organizer.json.id}`, { organizer: 'Kept Host, renamed' }, { as: 'editor' });
      const organizers = await t.api.get('/organizers');
      assert.equal(organizers.headers['x-calendar-cache'], 'miss');
      assert.ok(organizers.json.organizers.some((o: { organizer: string }) => o.organizer === 'Kept Host, renamed'));
    });

    it('event lists and single reads stay hits over writes that change nothing they show, not over one that does', async () => {
      const music = await t.api.post('/categories', { name: 'Kept music' }, { as: 'editor' });
      const other = await t.api.post('/categories', { name: 'Kept other' }, { as: 'editor' });
      const event = (title: string, day: string, categories: number[]) =>
        t.api.post(
          '/events',
          { title, status: 'publish', start_date: `${day} 18:00`, end_date: `${day} 20:00`, categories },
          { as: 'editor' },
        );
      const shown = await event('Kept shown', '2027-03-02', [music.json.id]);
      const elsewhere = await event('Kept elsewhere', '2027-05-02', [other.json.id]);
      const march = '/events?start_date=2027-03-01&end_date=2027-03-31';
      const searched = '/events?search=shown&start_date=2027-03-01&end_date=2027-05-31';
      const single = `/events/${shown.json.id}`;
      const paths = [march, searched, single];
      const warm = async () => {
        for (const path of paths) for (let i = 0; i < 3; i++) await t.api.get(path);
      };
      const cacheOf = async (path: string) => (await t.api.get(path)).headers['x-calendar-cache'];
      await warm();
      await t.api.patch(`/events/${elsewhere.json.id}`, { title: 'Kept elsewhere, renamed' }, { as: 'editor' });
      for (const path of paths) assert.equal(await cacheOf(path), 'hit', `${path}: the write changed nothing it shows`);
      await event('Kept later', '2027-05-03', [other.json.id]);
      assert.equal(await cacheOf(single), 'hit', 'a create in a category it does not show');
      assert.equal(await cacheOf(searched), 'hit', 'a create its words leave out');
      assert.equal(await cacheOf(march), 'hit', 'a create outside its dates');

      await warm();
      const joined = await event('Kept joined', '2027-03-03', [other.json.id]);
      const list = await t.api.get(march);
      assert.equal(list.headers['x-calendar-cache'], 'miss', 'a create in its dates');
      assert.deepEqual(
        list.json.events.map((e: { id: number }) => e.id),
        [shown.json.id, joined.json.id],
      );
      assert.equal(await cacheOf(single), 'hit');
      await warm();
      await event('Kept counted', '2027-05-04', [music.json.id]);
      const counted = await t.api.get(single);
      assert.equal(counted.headers['x-calendar-cache'], 'miss', 'a create moved the count of a category it shows');
      assert.equal(counted.json.categories[0].count, 2);
      assert.equal((await t.api.get(searched)).json.events[0].categories[0].count, 2);
      await warm();
      await t.api.patch(single, { title: 'Kept, renamed' }, { as: 'editor' });
      for (const path of [single, march]) {
        const fresh = await t.api.get(path);
        assert.equal(fresh.headers['x-calendar-cache'], 'miss', `${path}: its own event was written`);
        assert.equal((fresh.json.events?.[0] ?? fresh.json).title, 'Kept, renamed');
      }
      const words = await t.api.get(searched);
      assert.equal(words.headers['x-calendar-cache'], 'miss');
      assert.deepEqual(words.json.events, [], 'its new title has not the word');
    });

    it('authenticated reads are never answered from the shared cache', async () => {
      const draft = await t.api.post(
        '/events',
        {
          title: 'Draft only editors see',
          start_date: '2026-12-24 18:00',
          end_date: '2026-12-24 20:00',
          status: 'draft',
        },
        { as: 'editor' },
      );
      const asEditor = await t.api.get('/events', { as: 'editor', query: { include: draft.json.id } });
      assert.equal(asEditor.json.total, 1);
      assert.equal(asEditor.headers['x-calendar-cache'], undefined);
      const anonymous = await t.api.get('/events', { query: { include: draft.json.id } });
      assert.equal(anonymous.json.total, 0);
    });
  });
}

/** Two real server processes on one database: a write through one is seen at once by the other. */
for (const dialect of await testDialects()) {
  describe(`two server processes share invalidation [${dialect}]`, () => {
    let database: TestDatabase;
    let first: RunningServer;
    let second: RunningServer;
    const admin = `Basic ${Buffer.from('admin:bench-admin-password').toString('base64')}`;

    before(async () => {
      database = await createTestDatabase(dialect);
      first = await startServer(database.url, { cache: true });
      second = await startServer(database.url, { cache: true });
    });
    after(async () => {
      await first?.stop();
      await second?.stop();
      await database?.drop();
    });

    it('a read cached by one process is fresh after a write through the other', async () => {
      const headers = { authorization: admin, 'content-type': 'application/json' };
      const created = await fetch(`${first.origin}/calendar/events/v1/events`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ title: 'Shared v1', start_date: '2026-12-21 18:00', end_date: '2026-12-21 20:00' }),
      });
      assert.equal(created.status, 201);
      const { id } = (await created.json()) as { id: number };
      const url = `${second.origin}/calendar/events/v1/events/${id}`;
      await fetch(url);
      await fetch(url);
      const cached = await fetch(url);
      assert.equal(cached.headers.get('x-calendar-cache'), 'hit');
      for (let version = 2; version <= 5; version++) {
        const write = await fetch(`${first.origin}/calendar/events/v1/events/${id}`, {
          method: 'PATCH',
          headers,
          body: JSON.stringify({ title: `Shared v${version}` }),
        });
        assert.equal(write.status, 200);
        const read = (await (await fetch(url)).json()) as { title: string };
        assert.equal(read.title, `Shared v${version}`);
        const listed = (await (await fetch(`${second.origin}/calendar/events/v1/events?include=${id}`)).json()) as {
          events: { title: string }[];
        };
        assert.equal(listed.events[0].title, `Shared v${version}`);
      }
    });
  });
}

/** Hits are answered by the HTTP server's front, before Fastify: only a real server shows them. */
for (const dialect of await testDialects()) {
  describe(`the server answers cache hits before routing, exactly as Fastify would [${dialect}]`, () => {
    let database: TestDatabase;
    let server: RunningServer;
    const admin = `Basic ${Buffer.from('admin:bench-admin-password').toString('base64')}`;
    const get = (path: string, headers: Record<string, string> = {}) => fetch(`${server.origin}${path}`, { headers });
    const headersOf = (response: Response) =>
      Object.fromEntries([...response.headers].filter(([name]) => !['date', 'x-calendar-cache'].includes(name)));

    before(async () => {
      database = await createTestDatabase(dialect);
      server = await startServer(database.url, { cache: true });
    });
    after(async () => {
      await server?.stop();
      await database?.drop();
    });

    it('a hit has the status, headers and body of the response it repeats, and a write makes the next read fresh', async () => {
      const headers = { authorization: admin, 'content-type': 'application/json' };
      const created = await fetch(`${server.origin}/calendar/events/v1/events`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ title: 'Front v1', start_date: '2026-12-21 18:00', end_date: '2026-12-21 20:00' }),
      });
      const { id } = (await created.json()) as { id: number };
      const path = `/fr/calendar/events/v1/events?include=${id}`;
      const miss = await get(path);
      await get(path);
      const hit = await get(path);
      assert.equal(miss.headers.get('x-calendar-cache'), 'miss');
      assert.equal(hit.headers.get('x-calendar-cache'), 'hit');
      assert.equal(hit.status, 200);
      assert.deepEqual(headersOf(hit), headersOf(miss));
      assert.equal(hit.headers.get('content-language'), 'fr');
      assert.equal(hit.headers.get('x-wp-total'), '1');
      assert.deepEqual(await hit.json(), await miss.json());
      const english = await get(`/calendar/events/v1/events?include=${id}`);
      assert.equal(english.headers.get('x-calendar-cache'), 'miss');
      assert.equal(english.headers.get('content-language'), 'en');

      const write = await fetch(`${server.origin}/calendar/events/v1/events/${id}`, {
        method: 'PATCH',
        headers,
        body: JSON.stringify({ title: 'Front v2' }),
      });
      assert.equal(write.status, 200);
      const fresh = await get(path);
      assert.equal(fresh.headers.get('x-calendar-cache'), 'miss');
      assert.equal(((await fresh.json()) as { events: { title: string }[] }).events[0].title, 'Front v2');
    });

    it('never answers a request with credentials, nor a HEAD, from the cache', async () => {
      const path = '/calendar/events/v1/events';
      for (let i = 0; i < 3; i++) await get(path);
      assert.equal((await get(path)).headers.get('x-calendar-cache'), 'hit');
      const authenticated = await get(path, { authorization: admin });
      assert.equal(authenticated.status, 200);
      assert.equal(authenticated.headers.get('x-calendar-cache'), null);
      const wrong = await get(path, { authorization: 'Basic bm9ib2R5Ondyb25n' });
      assert.equal(wrong.status, 401);
      const head = await fetch(`${server.origin}${path}`, { method: 'HEAD' });
      assert.equal(head.status, 200);
      assert.notEqual(head.headers.get('x-calendar-cache'), 'hit');
    });
  });
}
