import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testDialects } from '../helpers/databases.js';
import { useTestApp, type TestApi, type Who } from '../helpers/app.js';
import { Receiver } from '../helpers/receiver.js';

const EVENT = { title: 'Feed concert', start_date: '2027-03-01 19:00:00', end_date: '2027-03-01 21:00:00' };

type Entry = [type: string, id: number, action: string];

/** A webhook receiver subscribed to the events `pattern` matches. */
interface Subscriber {
  receiver: Receiver;
  matches: (entry: Entry) => boolean;
}

const sortedEntries = (entries: Entry[]) => entries.map(([type, id, action]) => `${type}.${action} ${id}`).sort();

/**
 * Sends every due delivery (an hour ahead of the test's clock, so that writes made at a later
 * clock are due too) and checks that each subscriber got one delivery per change it matches.
 */
async function assertDelivered(api: TestApi, subscribers: Subscriber[], entries: Entry[]): Promise<void> {
  const before = subscribers.map((s) => s.receiver.received.length);
  const now = api.now;
  api.now = new Date(now.getTime() + 3_600_000);
  try {
    await api.app.calendar.webhookWorker.runDue();
  } finally {
    api.now = now;
  }
  subscribers.forEach((subscriber, i) => {
    const delivered = subscriber.receiver.payloads
      .slice(before[i])
      .map((p: { type: string; data: { id: number } }) => `${p.type} ${p.data.id}`)
      .sort();
    assert.deepEqual(delivered, sortedEntries(entries.filter(subscriber.matches)), 'webhook deliveries');
  });
}

/**
 * A reader of the feed that remembers its token: `since()` returns what changed since the last call,
 * after checking that the given webhook subscribers were sent exactly those changes.
 */
async function follower(api: TestApi, who: Who = 'administrator', subscribers: Subscriber[] = []) {
  const start = await api.get('/changes', { as: who });
  assert.equal(start.status, 200, start.text);
  assert.deepEqual(start.json.changes, []);
  assert.equal(start.json.has_more, false);
  let token: string = start.json.next_since;
  return async (): Promise<Entry[]> => {
    const res = await api.get('/changes', { as: who, query: { since: token } });
    assert.equal(res.status, 200, res.text);
    token = res.json.next_since;
    const entries: Entry[] = res.json.changes.map((c: { type: string; id: number; action: string }) => [
      c.type,
      c.id,
      c.action,
    ]);
    if (subscribers.length > 0) await assertDelivered(api, subscribers, entries);
    return entries;
  };
}

for (const dialect of await testDialects()) {
  describe(`change feed and webhooks: every write route logs and delivers exactly its changes [${dialect}]`, () => {
    const t = useTestApp(dialect, { env: { WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_WORKER: 'off' } });
    const admin = { as: 'administrator' as const };
    const subscribers: Subscriber[] = [];
    const follow = () => follower(t.api, 'administrator', subscribers);
    before(async () => {
      const patterns: [events: string[] | undefined, matches: Subscriber['matches']][] = [
        [undefined, () => true],
        [['venue.*'], ([type]) => type === 'venue'],
        [
          ['event.deleted', 'category.updated'],
          ([type, , action]) => `${type}.${action}` === 'event.deleted' || `${type}.${action}` === 'category.updated',
        ],
      ];
      for (const [events, matches] of patterns) {
        const receiver = await new Receiver().start();
        const res = await t.api.post('/webhooks', { url: receiver.url, ...(events && { events }) }, admin);
        assert.equal(res.status, 201, res.text);
        subscribers.push({ receiver, matches });
      }
    });
    after(async () => {
      for (const { receiver } of subscribers) await receiver.stop();
    });

    it('events by id and by slug: create, update (POST, PUT, PATCH), trash, delete for good', async () => {
      const since = await follow();
      const created = await t.api.post('/events', EVENT, admin);
      const id: number = created.json.id;
      const slug: string = created.json.slug;
      assert.deepEqual(await since(), [['event', id, 'created']]);
      for (const method of ['POST', 'PUT', 'PATCH'])
        for (const path of [`/events/${id}`, `/events/by-slug/${slug}`]) {
          const res = await t.api.request(method, path, { excerpt: `${method} ${path}` }, admin);
          assert.equal(res.status, 200, res.text);
          assert.deepEqual(await since(), [['event', id, 'updated']], `${method} ${path}`);
        }
      assert.equal((await t.api.patch(`/events/${id}`, { title: 'Titre', i18n_language: 'fr' }, admin)).status, 200);
      assert.deepEqual(await since(), [['event', id, 'updated']], 'a translation');
      assert.equal((await t.api.delete(`/events/by-slug/${slug}`, admin)).status, 200);
      assert.deepEqual(await since(), [['event', id, 'updated']], 'trash');
      assert.equal((await t.api.patch(`/events/${id}`, { status: 'publish' }, admin)).status, 200);
      assert.deepEqual(await since(), [['event', id, 'updated']], 'restore');
      assert.equal((await t.api.delete(`/events/${id}`, { ...admin, query: { force: true } })).status, 200);
      assert.deepEqual(await since(), [['event', id, 'deleted']], 'force');
      const other = await t.api.post('/events', { ...EVENT, title: 'By slug' }, admin);
      await since();
      const bySlug = await t.api.delete(`/events/by-slug/${other.json.slug}`, { ...admin, query: { force: true } });
      assert.equal(bySlug.status, 200);
      assert.deepEqual(await since(), [['event', other.json.id, 'deleted']]);
    });

    it('an event write creating its venue, organizers and terms inline logs each of them', async () => {
      const since = await follow();
      const known = await t.api.post('/organizers', { organizer: 'Known organizer' }, admin);
      await since();
      const res = await t.api.post(
        '/events',
        {
          ...EVENT,
          venue: { venue: 'Inline Hall' },
          organizer: [known.json.id, { organizer: 'Inline organizer' }],
          categories: ['Inline category'],
          tags: ['inline-tag'],
        },
        admin,
      );
      assert.equal(res.status, 201, res.text);
      const entries = await since();
      const expected: Entry[] = [
        ['event', res.json.id, 'created'],
        ['venue', res.json.venue.id, 'created'],
        ['organizer', res.json.organizer[1].id, 'created'],
        ['category', res.json.categories[0].id, 'created'],
        ['tag', res.json.tags[0].id, 'created'],
      ];
      assert.deepEqual(
        [...entries].sort((a, b) => `${a[0]}${a[1]}`.localeCompare(`${b[0]}${b[1]}`)),
        [...expected].sort((a, b) => `${a[0]}${a[1]}`.localeCompare(`${b[0]}${b[1]}`)),
      );
      // Reusing existing ones (and a term count moving) logs only the event.
      const again = await t.api.post(
        '/events',
        { ...EVENT, venue: res.json.venue.id, organizer: [known.json.id], categories: ['Inline category'] },
        admin,
      );
      assert.deepEqual(await since(), [['event', again.json.id, 'created']]);
    });

    for (const kind of ['venue', 'organizer'] as const) {
      it(`${kind}s by id and by slug: create, update, trash (unlinking events), delete for good, duplicates`, async () => {
        const since = await follow();
        const path = `/${kind}s`;
        const created = await t.api.post(path, { [kind]: `Feed ${kind}` }, admin);
        const id: number = created.json.id;
        assert.deepEqual(await since(), [[kind, id, 'created']]);
        const duplicate = await t.api.post(path, { [kind]: `feed ${kind}` }, admin);
        assert.equal(duplicate.json.id, id);
        assert.deepEqual(await since(), [], 'a reused duplicate changes nothing');
        for (const method of ['POST', 'PUT', 'PATCH'])
          for (const target of [`${path}/${id}`, `${path}/by-slug/${created.json.slug}`]) {
            const res = await t.api.request(method, target, { description: `${method}` }, admin);
            assert.equal(res.status, 200, res.text);
            assert.deepEqual(await since(), [[kind, id, 'updated']], `${method} ${target}`);
          }
        const event = await t.api.post('/events', { ...EVENT, [kind === 'venue' ? 'venue' : 'organizer']: id }, admin);
        await since();
        const start = t.api.now;
        t.api.now = new Date(start.getTime() + 60_000);
        assert.equal((await t.api.delete(`${path}/${id}`, admin)).status, 200);
        t.api.now = start;
        assert.deepEqual(await since(), [
          [kind, id, 'updated'],
          ['event', event.json.id, 'updated'],
        ]);
        const unlinked = await t.api.get(`/events/${event.json.id}`);
        assert.equal(unlinked.json.modified_utc, '2026-11-21 08:38:48', 'the unlinked event was modified');
        assert.deepEqual(kind === 'venue' ? unlinked.json.venue : unlinked.json.organizer, []);
        assert.equal((await t.api.delete(`${path}/${id}`, { ...admin, query: { force: true } })).status, 200);
        assert.deepEqual(await since(), [[kind, id, 'deleted']]);
      });
    }

    it('categories and tags: create, update, delete (children move up)', async () => {
      const since = await follow();
      const parent = await t.api.post('/categories', { name: 'Feed parent' }, admin);
      const child = await t.api.post('/categories', { name: 'Feed child', parent: parent.json.id }, admin);
      assert.deepEqual(await since(), [
        ['category', parent.json.id, 'created'],
        ['category', child.json.id, 'created'],
      ]);
      for (const method of ['POST', 'PUT', 'PATCH']) {
        assert.equal(
          (await t.api.request(method, `/categories/${parent.json.id}`, { description: method }, admin)).status,
          200,
        );
        assert.deepEqual(await since(), [['category', parent.json.id, 'updated']]);
      }
      assert.equal((await t.api.delete(`/categories/${parent.json.id}`, admin)).status, 200);
      assert.deepEqual(await since(), [
        ['category', parent.json.id, 'deleted'],
        ['category', child.json.id, 'updated'],
      ]);
      const tag = await t.api.post('/tags', { name: 'Feed tag' }, admin);
      assert.equal((await t.api.patch(`/tags/${tag.json.id}`, { name: 'Feed tag 2' }, admin)).status, 200);
      assert.equal((await t.api.delete(`/tags/${tag.json.id}`, admin)).status, 200);
      assert.deepEqual(await since(), [
        ['tag', tag.json.id, 'created'],
        ['tag', tag.json.id, 'updated'],
        ['tag', tag.json.id, 'deleted'],
      ]);
    });

    it('a series logs itself and each occurrence it adds (the series and three), and deletes those a rule change removes', async () => {
      const since = await follow();
      const series = await t.api.post(
        '/events',
        {
          ...EVENT,
          start_date: '2027-01-04 19:00:00',
          end_date: '2027-01-04 21:00:00',
          recurrence: ['RRULE:FREQ=WEEKLY;COUNT=3'],
        },
        admin,
      );
      assert.equal(series.status, 201, series.text);
      const created = await since();
      assert.equal(
        created.filter(([type, , action]) => type === 'event' && action === 'created').length,
        4,
        JSON.stringify(created),
      );
      const occurrences = created.map(([, id]) => id).filter((id) => id !== series.json.id);
      const shrunk = await t.api.patch(
        `/events/${series.json.id}`,
        { recurrence: ['RRULE:FREQ=WEEKLY;COUNT=2'] },
        admin,
      );
      assert.equal(shrunk.status, 200, shrunk.text);
      const after = await since();
      const deleted = after.filter(([, , action]) => action === 'deleted').map(([, id]) => id);
      assert.equal(deleted.length, 1, JSON.stringify(after));
      assert.ok(occurrences.includes(deleted[0]));
      assert.ok(after.some(([, id, action]) => id === series.json.id && action === 'updated'));
    });

    it('denied, invalid and failed writes log nothing', async () => {
      const since = await follow();
      const event = await t.api.post('/events', EVENT, admin);
      const venue = await t.api.post('/venues', { venue: 'Denied Hall' }, admin);
      const tag = await t.api.post('/tags', { name: 'Denied tag' }, admin);
      await since();
      const attempts: [string, string, unknown, Who, number, Record<string, string>?][] = [
        ['POST', '/events', EVENT, 'anonymous', 401],
        ['POST', '/events', EVENT, 'subscriber', 403],
        ['POST', '/events', { ...EVENT, end_date: '2020-01-01' }, 'administrator', 400],
        ['POST', '/events', { ...EVENT, venue: { venue: 'Never made' }, tags: ['never-made'] }, 'contributor', 400],
        ['PATCH', `/events/${event.json.id}`, { title: 'x' }, 'contributor', 403],
        ['PATCH', `/events/${event.json.id}`, { title: 'x' }, 'administrator', 412, { 'if-match': '"stale"' }],
        ['DELETE', `/events/${event.json.id}`, undefined, 'author', 403],
        ['PATCH', `/venues/${venue.json.id}`, { venue: 'x' }, 'subscriber', 403],
        ['DELETE', `/venues/${venue.json.id}`, undefined, 'administrator', 412, { 'if-match': '"stale"' }],
        ['POST', '/tags', { name: 'x' }, 'author', 403],
        ['PATCH', `/tags/${tag.json.id}`, { name: 'x' }, 'author', 403],
        ['DELETE', `/tags/${tag.json.id}`, undefined, 'contributor', 403],
        ['POST', '/tags', { name: 'Denied tag' }, 'administrator', 400],
      ];
      for (const [method, path, body, as, status, headers] of attempts) {
        const res = await t.api.request(method, path, body, { as, headers });
        assert.equal(res.status, status, `${method} ${path} as ${typeof as === 'string' ? as : 'custom'}: ${res.text}`);
      }
      assert.deepEqual(await since(), []);
    });
  });

  describe(`change feed: tokens, order and visibility [${dialect}]`, () => {
    const t = useTestApp(dialect, { env: { CHANGES_RETENTION_DAYS: '2' } });
    const admin = { as: 'administrator' as const };

    it('anonymous callers get 401; a malformed token is 400 even for them; per_page must be a positive integer', async () => {
      assert.equal((await t.api.get('/changes')).status, 401);
      const bad = await t.api.get('/changes', { query: { since: 'not-a-token' } });
      assert.equal(bad.status, 400);
      assert.deepEqual(bad.json.data.params ? Object.keys(bad.json.data.params) : [], ['since']);
      assert.equal((await t.api.get('/changes', { ...admin, query: { per_page: 0 } })).status, 400);
      const forged = Buffer.from('1.00000000-0000-0000-0000-000000000000.0.0').toString('base64url');
      assert.equal((await t.api.get('/changes', { ...admin, query: { since: forged } })).status, 410);
    });

    it('pages follow commit order with has_more, and each write appears once', async () => {
      const since = await t.api.get('/changes', admin);
      const ids: number[] = [];
      for (let i = 0; i < 5; i++) ids.push((await t.api.post('/tags', { name: `Order ${i}` }, admin)).json.id);
      let token = since.json.next_since;
      const seen: number[] = [];
      for (;;) {
        const page = await t.api.get('/changes', { ...admin, query: { since: token, per_page: 2 } });
        assert.equal(page.status, 200);
        assert.ok(page.json.changes.length <= 2);
        seen.push(...page.json.changes.map((c: { id: number }) => c.id));
        token = page.json.next_since;
        if (!page.json.has_more) break;
      }
      assert.deepEqual(seen, ids);
      const entry = (await t.api.get('/changes', { ...admin, query: { since: since.json.next_since, per_page: 1 } }))
        .json.changes[0];
      assert.deepEqual(Object.keys(entry), ['type', 'id', 'action', 'modified_utc']);
      assert.equal(entry.modified_utc, '2026-11-21 08:37:48');
    });

    it('each caller sees what it may read: drafts for their author and editors, deleted when hidden', async () => {
      const contributor = await follower(t.api, 'contributor');
      const subscriber = await follower(t.api, 'subscriber');
      const editor = await follower(t.api, 'editor');
      const draft = await t.api.post('/events', { ...EVENT, title: 'Draft' }, { as: 'contributor' });
      assert.equal(draft.json.status, 'draft');
      const id: number = draft.json.id;
      assert.deepEqual(await contributor(), [['event', id, 'created']]);
      assert.deepEqual(await editor(), [['event', id, 'created']]);
      assert.deepEqual(await subscriber(), []);
      await t.api.patch(`/events/${id}`, { status: 'publish' }, admin);
      assert.deepEqual(await subscriber(), [['event', id, 'updated']]);
      await t.api.delete(`/events/${id}`, admin);
      assert.deepEqual(
        await subscriber(),
        [['event', id, 'deleted']],
        'trashed: gone for those who cannot see the trash',
      );
      assert.deepEqual(await contributor(), [
        ['event', id, 'updated'],
        ['event', id, 'updated'],
      ]);
      assert.deepEqual(await editor(), [
        ['event', id, 'updated'],
        ['event', id, 'updated'],
      ]);
    });

    it('tokens expire after CHANGES_RETENTION_DAYS and after a restore (another epoch or an earlier position)', async () => {
      const start = t.api.now;
      const token = (await t.api.get('/changes', admin)).json.next_since;
      t.api.now = new Date(start.getTime() + 86_400_000);
      assert.equal((await t.api.get('/changes', { ...admin, query: { since: token } })).status, 200);
      t.api.now = new Date(start.getTime() + 3 * 86_400_000);
      const expired = await t.api.get('/changes', { ...admin, query: { since: token } });
      assert.equal(expired.status, 410);
      assert.equal(expired.json.code, 'rest_sync_token_expired');
      assert.equal(expired.json.message, 'The sync token has expired; read the full lists again.');
      t.api.now = start;
      await t.api.post('/tags', { name: 'Before restore' }, admin);
      const late = (await t.api.get('/changes', admin)).json.next_since;
      await t.api.db.updateTable('sync_state').set({ position: 0 }).execute();
      assert.equal((await t.api.get('/changes', { ...admin, query: { since: late } })).status, 410);
      await t.api.db.updateTable('sync_state').set({ epoch: '11111111-1111-1111-1111-111111111111' }).execute();
      assert.equal((await t.api.get('/changes', { ...admin, query: { since: token } })).status, 410);
    });
  });
}
