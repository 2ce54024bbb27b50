import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { testDialects } from '../helpers/databases.js';
import { useTestApp } from '../helpers/app.js';

// Response bodies are arbitrary JSON by nature.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const SERIES = {
  start_date: '2027-03-01 19:00:00',
  end_date: '2027-03-01 20:30:00',
  timezone: 'Europe/Paris',
  recurrence: ['RRULE:FREQ=WEEKLY;COUNT=3'],
};

/**
 * API.md §20.2: an occurrence's visibility, password and author are its series', so the §4 matrix
 * applies to series and occurrences alike, by id and by slug and date.
 */
for (const dialect of await testDialects()) {
  describe(`recurring events: permissions on series and occurrences [${dialect}]`, () => {
    const t = useTestApp(dialect);

    async function occurrenceIds(seriesId: number): Promise<number[]> {
      const res = await t.api.get(`/events/${seriesId}/occurrences`, { as: 'administrator' });
      assert.equal(res.status, 200, res.text);
      return res.json.events.map((e: Json) => e.id);
    }

    it("authors edit their own series' occurrences, not others'; anonymous 401, subscribers 403", async () => {
      const alice = await t.api.otherUser('author', 'alice-series');
      const bob = await t.api.otherUser('author', 'bob-series');
      const created = await t.api.post(
        '/events',
        { ...SERIES, title: 'Alice class' },
        { as: { authorization: alice.header } },
      );
      assert.equal(created.status, 201, created.text);
      const [first, second] = await occurrenceIds(created.json.id);
      const other = await t.api.patch(
        `/events/${first}`,
        { title: 'Bob was here' },
        { as: { authorization: bob.header } },
      );
      assert.equal(other.status, 403, other.text);
      assert.equal((await t.api.patch(`/events/${first}`, { title: 'x' })).status, 401);
      assert.equal((await t.api.delete(`/events/${second}`, { as: 'subscriber' })).status, 403);
      const otherAll = await t.api.patch(
        `/events/${first}`,
        { scope: 'all', title: 'Bob was here' },
        { as: { authorization: bob.header } },
      );
      assert.equal(otherAll.status, 403, otherAll.text);
      const own = await t.api.patch(
        `/events/${first}`,
        { title: 'Alice moved' },
        { as: { authorization: alice.header } },
      );
      assert.equal(own.status, 200, own.text);
      const bySlug = await t.api.delete(`/events/by-slug/${created.json.slug}/2027-03-08`, {
        as: { authorization: bob.header },
      });
      assert.equal(bySlug.status, 403, bySlug.text);
      assert.equal((await t.api.get(`/events/${second}`)).json.title, 'Alice class');
    });

    it("a contributor's series is pending with its occurrences: unreadable to others, listed to its author", async () => {
      const carol = await t.api.otherUser('contributor', 'carol-series');
      const created = await t.api.post(
        '/events',
        { ...SERIES, title: 'Carol pending class', status: 'publish' },
        { as: { authorization: carol.header } },
      );
      assert.equal(created.status, 201, created.text);
      assert.equal(created.json.status, 'pending');
      const [first] = await occurrenceIds(created.json.id);
      assert.equal((await t.api.get(`/events/${first}`)).json.code, 'event-not-accessible');
      assert.equal((await t.api.get(`/events/${created.json.id}/occurrences`)).json.code, 'event-not-accessible');
      const own = await t.api.get('/events', {
        as: { authorization: carol.header },
        query: { search: 'Carol', start_date: '2027-01-01' },
      });
      assert.equal(own.json.total, 3);
      const anonymous = await t.api.get('/events', { query: { search: 'Carol', start_date: '2027-01-01' } });
      assert.equal(anonymous.json.total, 0);
    });

    it("a protected series' occurrences need its password, and lists blank them", async () => {
      const created = await t.api.post(
        '/events',
        { ...SERIES, title: 'Secret class', description: 'The code is 1234', password: 'open-sesame' },
        { as: 'administrator' },
      );
      const [first] = await occurrenceIds(created.json.id);
      assert.equal((await t.api.get(`/events/${first}`)).json.code, 'event-password-protected');
      const unlocked = await t.api.get(`/events/${first}`, { query: { password: 'open-sesame' } });
      assert.equal(unlocked.status, 200, unlocked.text);
      assert.match(unlocked.json.description, /1234/);
      const list = await t.api.get('/events', { query: { search: 'Secret', start_date: '2027-01-01' } });
      assert.equal(list.json.total, 3);
      assert.ok(list.json.events.every((e: Json) => e.description === ''));
      assert.equal((await t.api.get('/events', { query: { search: '1234', start_date: '2027-01-01' } })).json.total, 0);
    });
  });
}
