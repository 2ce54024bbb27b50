import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { assertTotals, ids, sorted } from '../helpers/fixtures.js';
import { testDialects } from '../helpers/databases.js';
import { DEFAULT_NOW, useTestApp, type TestApi, type TestResponse } from '../helpers/app.js';
import { createOrganizerId, insertEvent } from '../helpers/factories.js';

const BASE = 'http://127.0.0.1:8080';
const LIST = `${BASE}/calendar/events/v1/organizers/`;
const NOW = Math.floor(DEFAULT_NOW.getTime() / 1000);
const DAY = 86_400;

/** `count` organizers (created by an editor) named `${prefix} 0`, `${prefix} 1`, …; returns their ids. */
async function organizers(api: TestApi, count: number, prefix = 'Organizer'): Promise<number[]> {
  const created: number[] = [];
  for (let i = 0; i < count; i++) created.push(await createOrganizerId(api, { organizer: `${prefix} ${i}` }, 'editor'));
  return created;
}

function assertEmptyEnvelope(res: TestResponse, restUrl: string): void {
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(res.json, { organizers: [], rest_url: restUrl, total: 0, total_pages: 0 });
  assert.deepEqual(Object.keys(res.json), ['organizers', 'rest_url', 'total', 'total_pages']);
  assertTotals(res, 0, 0);
  assert.equal(res.headers.link, undefined);
}

function assertInvalid(res: TestResponse, param: string): void {
  assert.equal(res.status, 400, res.text);
  assert.equal(res.json.code, 'rest_invalid_param');
  assert.equal(res.json.data.status, 400);
  assert.deepEqual(Object.keys(res.json.data.params), [param]);
}

for (const dialect of await testDialects()) {
  describe(`organizers: list [${dialect}]`, () => {
    const t = useTestApp(dialect);
    beforeEach(() => t.api.clearContent());

    it('no organizers: the empty envelope with zero totals and headers (OA-01)', async () => {
      const res = await t.api.get('/organizers');
      assertEmptyEnvelope(res, `${LIST}?page=1&per_page=10&status=publish`);
      assert.match(String(res.headers['content-type']), /^application\/json; charset=utf-8/);
      const editor = await t.api.get('/organizers', { as: 'editor' });
      assertEmptyEnvelope(editor, `${LIST}?page=1&per_page=10`);
    });

    it('page 2 of nothing is 404 organizer-archive-page-not-found', async () => {
      const res = await t.api.get('/organizers', { query: { page: 2 } });
      assert.equal(res.status, 404);
      assert.deepEqual(res.json, {
        code: 'organizer-archive-page-not-found',
        message: 'The requested organizer archive page does not exist',
        data: { status: 404 },
      });
    });

    it('list items are the single representation without json_ld', async () => {
      const id = await createOrganizerId(
        t.api,
        {
          organizer: 'Listed Org',
          description: 'Listed.',
          email: 'l@example.org',
          phone: '1',
          website: 'https://example.org/l',
        },
        'editor',
      );
      const res = await t.api.get('/organizers');
      assert.equal(res.status, 200);
      assertTotals(res, 1, 1);
      const single = await t.api.get(`/organizers/${id}`);
      const { json_ld: _jsonLd, ...withoutLd } = single.json;
      assert.deepEqual(res.json.organizers, [withoutLd]);
      assert.equal('json_ld' in res.json.organizers[0], false);
      assert.deepEqual(Object.keys(res.json), ['organizers', 'rest_url', 'total', 'total_pages']);
    });

    it('orders by publication date descending, then id descending', async () => {
      const march = await createOrganizerId(t.api, { organizer: 'March', date: '2026-03-01 10:00:00' }, 'editor');
      const mayFirst = await createOrganizerId(
        t.api,
        { organizer: 'May first', date: '2026-05-01 10:00:00' },
        'editor',
      );
      const lastYear = await createOrganizerId(
        t.api,
        { organizer: 'Last year', date: '2025-12-31 23:59:59' },
        'editor',
      );
      const maySecond = await createOrganizerId(
        t.api,
        { organizer: 'May second', date: '2026-05-01 10:00:00' },
        'editor',
      );
      const april = await createOrganizerId(t.api, { organizer: 'April', date_utc: '2026-04-01 00:00:00' }, 'editor');
      const today = await createOrganizerId(t.api, { organizer: 'Today' }, 'editor');
      // A later modification does not move an item.
      t.api.now = new Date(DEFAULT_NOW.getTime() + 3_600_000);
      try {
        await t.api.patch(`/organizers/${lastYear}`, { phone: '123' }, { as: 'editor' });
      } finally {
        t.api.now = DEFAULT_NOW;
      }
      const res = await t.api.get('/organizers');
      assert.equal(res.status, 200);
      assert.deepEqual(ids(res), [today, maySecond, mayFirst, april, march, lastYear]);
      assert.deepEqual(
        res.json.organizers.map((o: { date: string }) => o.date),
        [
          '2026-11-21 08:37:48',
          '2026-05-01 10:00:00',
          '2026-05-01 10:00:00',
          '2026-04-01 00:00:00',
          '2026-03-01 10:00:00',
          '2025-12-31 23:59:59',
        ],
      );
      assertTotals(res, 6, 1);
    });

    it('paginates: 10 organizers, per_page 4 gives 3 pages with next/previous links and Link headers (OA-02/03, OA-06..08, OA-12)', async () => {
      const created = await organizers(t.api, 10);
      const newestFirst = [...created].reverse();

      const first = await t.api.get('/organizers', { query: { per_page: 4 } });
      assert.equal(first.status, 200);
      assert.deepEqual(ids(first), newestFirst.slice(0, 4));
      assert.deepEqual(Object.keys(first.json), ['organizers', 'rest_url', 'next_rest_url', 'total', 'total_pages']);
      assert.equal(first.json.rest_url, `${LIST}?page=1&per_page=4&status=publish`);
      assert.equal(first.json.next_rest_url, `${LIST}?page=2&per_page=4&status=publish`);
      assertTotals(first, 10, 3);
      assert.equal(first.headers.link, `<${LIST}?page=2&per_page=4&status=publish>; rel="next"`);

      const second = await t.api.get('/organizers', { query: { per_page: 4, page: 2 } });
      assert.deepEqual(ids(second), newestFirst.slice(4, 8));
      assert.deepEqual(Object.keys(second.json), [
        'organizers',
        'rest_url',
        'next_rest_url',
        'previous_rest_url',
        'total',
        'total_pages',
      ]);
      assert.equal(second.json.rest_url, `${LIST}?page=2&per_page=4&status=publish`);
      assert.equal(second.json.next_rest_url, `${LIST}?page=3&per_page=4&status=publish`);
      assert.equal(second.json.previous_rest_url, `${LIST}?per_page=4&status=publish`);
      assertTotals(second, 10, 3);
      assert.equal(
        second.headers.link,
        `<${LIST}?per_page=4&status=publish>; rel="prev", <${LIST}?page=3&per_page=4&status=publish>; rel="next"`,
      );

      const third = await t.api.get('/organizers', { query: { per_page: 4, page: 3 } });
      assert.deepEqual(ids(third), newestFirst.slice(8));
      assert.equal('next_rest_url' in third.json, false);
      assert.equal(third.json.previous_rest_url, `${LIST}?page=2&per_page=4&status=publish`);
      assertTotals(third, 10, 3);
      assert.equal(third.headers.link, `<${LIST}?page=2&per_page=4&status=publish>; rel="prev"`);

      // Every organizer appears exactly once over the three pages.
      assert.deepEqual(sorted([...ids(first), ...ids(second), ...ids(third)]), sorted(created));

      const small = await t.api.get('/organizers', { query: { per_page: 2, page: 2 } });
      assert.deepEqual(ids(small), newestFirst.slice(2, 4));
      assertTotals(small, 10, 5);

      const past = await t.api.get('/organizers', { query: { per_page: 4, page: 4 } });
      assert.equal(past.status, 404);
      assert.equal(past.json.code, 'organizer-archive-page-not-found');
    });

    it('page and per_page must be positive integers (OA-10/11)', async () => {
      await organizers(t.api, 1);
      for (const param of ['page', 'per_page']) {
        for (const value of ['0', '-1', 'foo', 'foo bar', '1.5']) {
          const res = await t.api.get('/organizers', { query: { [param]: value } });
          assertInvalid(res, param);
        }
      }
    });

    it('per_page above 50 is clamped to 50 (OA-04)', async () => {
      await organizers(t.api, 51);
      const res = await t.api.get('/organizers', { query: { per_page: 100 } });
      assert.equal(res.status, 200);
      assert.equal(res.json.organizers.length, 50);
      assert.equal(res.json.rest_url, `${LIST}?page=1&per_page=50&status=publish`);
      assert.equal(res.json.next_rest_url, `${LIST}?page=2&per_page=50&status=publish`);
      assertTotals(res, 51, 2);
      const defaults = await t.api.get('/organizers');
      assert.equal(defaults.json.organizers.length, 10);
      assertTotals(defaults, 51, 6);
    });

    it('drafts are hidden from anonymous callers and shown to editors (OA-13/14)', async () => {
      const drafts: number[] = [];
      for (const name of ['Draft A', 'Draft B', 'Draft C'])
        drafts.push(await createOrganizerId(t.api, { organizer: name, status: 'draft' }, 'editor'));
      assertEmptyEnvelope(await t.api.get('/organizers'), `${LIST}?page=1&per_page=10&status=publish`);
      const subscriber = await t.api.get('/organizers', { as: 'subscriber' });
      assert.equal(subscriber.status, 200);
      assert.deepEqual(subscriber.json.organizers, []);
      assertTotals(subscriber, 0, 0);
      const editor = await t.api.get('/organizers', { as: 'editor' });
      assert.deepEqual(ids(editor), [...drafts].reverse());
      assertTotals(editor, 3, 1);
      assert.equal(editor.json.rest_url, `${LIST}?page=1&per_page=10`);
    });

    it('status filters: editors choose any statuses, anonymous callers only publish (OA-15..17)', async () => {
      const byStatus: Record<string, number[]> = { publish: [], draft: [], pending: [] };
      for (const status of ['publish', 'draft', 'pending']) {
        for (let i = 0; i < 3; i++)
          byStatus[status].push(await createOrganizerId(t.api, { organizer: `${status} ${i}`, status }, 'editor'));
      }
      const editorPublish = await t.api.get('/organizers', { as: 'editor', query: { status: 'publish' } });
      assert.deepEqual(sorted(ids(editorPublish)), byStatus.publish);
      assert.equal(editorPublish.json.rest_url, `${LIST}?page=1&per_page=10&status=publish`);
      const editorTwo = await t.api.get('/organizers', { as: 'editor', query: { status: 'publish, draft' } });
      assert.equal(editorTwo.status, 200, editorTwo.text);
      assert.deepEqual(sorted(ids(editorTwo)), sorted([...byStatus.publish, ...byStatus.draft]));
      assert.equal(editorTwo.json.rest_url, `${LIST}?page=1&per_page=10&status=publish%2Cdraft`);
      const editorArray = await t.api.get('/organizers?status[]=publish&status[]=draft&status[]=pending', {
        as: 'editor',
      });
      assert.equal(editorArray.status, 200, editorArray.text);
      assert.deepEqual(sorted(ids(editorArray)), sorted([...byStatus.publish, ...byStatus.draft, ...byStatus.pending]));
      assertTotals(editorArray, 9, 1);
      const editorAll = await t.api.get('/organizers', { as: 'editor' });
      assertTotals(editorAll, 9, 1);

      for (const status of ['foo', 'foo, bar', 'foo, bar, publish'])
        assertInvalid(await t.api.get('/organizers', { as: 'editor', query: { status } }), 'status');

      const anonymous = await t.api.get('/organizers', { query: { status: 'publish' } });
      assert.deepEqual(sorted(ids(anonymous)), byStatus.publish);
      assertTotals(anonymous, 3, 1);
      assertInvalid(await t.api.get('/organizers', { query: { status: 'publish,draft' } }), 'status');
      assertInvalid(await t.api.get('/organizers', { query: { status: 'draft' } }), 'status');
      assertInvalid(await t.api.get('/organizers', { as: 'subscriber', query: { status: 'pending' } }), 'status');
    });

    it("a contributor sees published organizers and their own drafts, not another contributor's", async () => {
      const published = await createOrganizerId(t.api, { organizer: 'Public Org' }, 'editor');
      const mine = await createOrganizerId(t.api, { organizer: 'My Draft Org' }, 'contributor');
      const minePending = await createOrganizerId(
        t.api,
        { organizer: 'My Pending Org', status: 'publish' },
        'contributor',
      );
      const other = await t.api.otherUser('contributor', 'contrib2');
      const theirs = await createOrganizerId(t.api, { organizer: 'Their Draft Org' }, { authorization: other.header });
      const editorDraft = await createOrganizerId(t.api, { organizer: 'Editor Draft Org', status: 'draft' }, 'editor');

      const res = await t.api.get('/organizers', { as: 'contributor' });
      assert.equal(res.status, 200);
      assert.deepEqual(ids(res), [minePending, mine, published]);
      assertTotals(res, 3, 1);
      const asked = await t.api.get('/organizers', { as: 'contributor', query: { status: 'draft,pending' } });
      assert.deepEqual(ids(asked), [minePending, mine]);
      const theirView = await t.api.get('/organizers', { as: { authorization: other.header } });
      assert.deepEqual(ids(theirView), [theirs, published]);
      const editor = await t.api.get('/organizers', { as: 'editor' });
      assert.deepEqual(ids(editor), [editorDraft, theirs, minePending, mine, published]);
    });

    it('search matches title, description or excerpt; all words within one field (OS-01..03)', async () => {
      const made: Record<string, number> = {};
      for (const word of ['foo', 'baz', 'bar']) {
        made[word] = await createOrganizerId(
          t.api,
          { organizer: `Organizer ${word}`, description: `Content ${word}`, excerpt: `Excerpt ${word}` },
          'editor',
        );
      }
      const cases: [string, number[]][] = [
        ['Organizer', [made.bar, made.baz, made.foo]],
        ['Organizer foo', [made.foo]],
        ['foo organizer', [made.foo]],
        ['ORGANIZER BAZ', [made.baz]],
        ['Content', [made.bar, made.baz, made.foo]],
        ['Content foo', [made.foo]],
        ['Excerpt', [made.bar, made.baz, made.foo]],
        ['Excerpt bar', [made.bar]],
        ['ba', [made.bar, made.baz]],
        ['Organizer Content', []],
      ];
      for (const [search, expected] of cases) {
        const res = await t.api.get('/organizers', { query: { search } });
        assert.equal(res.status, 200, search);
        assert.deepEqual(ids(res), expected, search);
        assertTotals(res, expected.length, expected.length === 0 ? 0 : 1);
      }
    });

    it('a search without a match reports totals 0 and keeps the search in rest_url', async () => {
      await organizers(t.api, 3);
      const res = await t.api.get('/organizers', { query: { search: 'woo' } });
      assertEmptyEnvelope(res, `${LIST}?page=1&per_page=10&search=woo&status=publish`);
      assertInvalid(await t.api.get('/organizers', { query: { search: '' } }), 'search');
    });

    it('search looks into phone, e-mail and website (OS-04)', async () => {
      const foo = await createOrganizerId(
        t.api,
        { organizer: 'Organizer Foo', phone: '111111111', email: 'one@common.com', website: 'http://one.com' },
        'editor',
      );
      const bar = await createOrganizerId(
        t.api,
        { organizer: 'Organizer Bar', phone: '111112222', email: 'two@common.com', website: 'http://two.com' },
        'editor',
      );
      const baz = await createOrganizerId(
        t.api,
        { organizer: 'Organizer Baz', phone: '222223333', email: 'three@three.com', website: 'http://three.com' },
        'editor',
      );
      const cases: [string, number[]][] = [
        ['woo', []],
        ['Organizer', [baz, bar, foo]],
        ['1111', [bar, foo]],
        ['111111111', [foo]],
        ['222223333', [baz]],
        ['three@three.com', [baz]],
        ['common.com', [bar, foo]],
        ['http://one.com', [foo]],
        ['@common.com', [bar, foo]],
      ];
      for (const [search, expected] of cases) {
        const res = await t.api.get('/organizers', { query: { search } });
        assert.equal(res.status, 200, search);
        assert.deepEqual(ids(res), expected, search);
        assertTotals(res, expected.length, expected.length === 0 ? 0 : 1);
      }
    });

    it('search never matches trashed organizers, and drafts only for editors', async () => {
      const trashed = await createOrganizerId(t.api, { organizer: 'Needle trashed' }, 'editor');
      await t.api.delete(`/organizers/${trashed}`, { as: 'editor' });
      const draft = await createOrganizerId(t.api, { organizer: 'Needle draft', status: 'draft' }, 'editor');
      const published = await createOrganizerId(t.api, { organizer: 'Needle published' }, 'editor');
      assert.deepEqual(ids(await t.api.get('/organizers', { query: { search: 'needle' } })), [published]);
      assert.deepEqual(ids(await t.api.get('/organizers', { as: 'editor', query: { search: 'needle' } })), [
        published,
        draft,
      ]);
    });

    it('event= lists the organizers of that event (OBE-01..06)', async () => {
      const [a, b, c, unrelated] = await organizers(t.api, 4);
      const eventAB = await insertEvent(t.api.db, { organizerIds: [a, b] });
      const eventC = await insertEvent(t.api.db, { organizerIds: [c] });
      const bare = await insertEvent(t.api.db, {});
      const draftOrg = await createOrganizerId(t.api, { organizer: 'Draft linked', status: 'draft' }, 'editor');
      const eventDraftOrg = await insertEvent(t.api.db, { organizerIds: [draftOrg] });

      const ab = await t.api.get('/organizers', { query: { event: eventAB } });
      assert.equal(ab.status, 200);
      assert.deepEqual(ids(ab), [b, a]);
      assertTotals(ab, 2, 1);
      assert.equal(ab.json.rest_url, `${LIST}?page=1&per_page=10&event=${eventAB}&status=publish`);
      assert.deepEqual(ids(await t.api.get('/organizers', { query: { event: eventC } })), [c]);
      assert.equal(ids(await t.api.get('/organizers')).includes(unrelated), true);
      assertEmptyEnvelope(
        await t.api.get('/organizers', { query: { event: bare } }),
        `${LIST}?page=1&per_page=10&event=${bare}&status=publish`,
      );
      // A draft organizer of the event: hidden from anonymous callers, shown to editors.
      assertEmptyEnvelope(
        await t.api.get('/organizers', { query: { event: eventDraftOrg } }),
        `${LIST}?page=1&per_page=10&event=${eventDraftOrg}&status=publish`,
      );
      assert.deepEqual(ids(await t.api.get('/organizers', { as: 'editor', query: { event: eventDraftOrg } })), [
        draftOrg,
      ]);
    });

    it('event= must name an event: unknown ids and other posts are 400 (OBE-02)', async () => {
      const [a] = await organizers(t.api, 1);
      for (const event of [999999, a]) assertInvalid(await t.api.get('/organizers', { query: { event } }), 'event');
      assertInvalid(await t.api.get('/organizers', { query: { event: 'foo' } }), 'event');
    });

    it('event= finds organizers of a non-published event too', async () => {
      const [a] = await organizers(t.api, 1);
      const draftEvent = await insertEvent(t.api.db, { organizerIds: [a], status: 'draft' });
      assert.deepEqual(ids(await t.api.get('/organizers', { as: 'editor', query: { event: draftEvent } })), [a]);
    });

    it('has_events: only events that are neither draft nor pending count (OE-01..04, VE-04)', async () => {
      const [withDraft, withPending, withPublished, withNothing, withPrivate, withFuture] = await organizers(t.api, 6);
      await insertEvent(t.api.db, { organizerIds: [withDraft], status: 'draft' });
      await insertEvent(t.api.db, { organizerIds: [withPending], status: 'pending' });
      await insertEvent(t.api.db, { organizerIds: [withPublished], status: 'publish' });
      await insertEvent(t.api.db, { organizerIds: [withPrivate], status: 'private' });
      await insertEvent(t.api.db, { organizerIds: [withFuture], status: 'future' });

      const withEvents = await t.api.get('/organizers', { query: { has_events: 'true' } });
      assert.equal(withEvents.status, 200);
      assert.deepEqual(ids(withEvents), [withFuture, withPrivate, withPublished]);
      assertTotals(withEvents, 3, 1);
      assert.equal(withEvents.json.rest_url, `${LIST}?page=1&per_page=10&has_events=1&status=publish`);

      const without = await t.api.get('/organizers', { query: { has_events: 'false' } });
      assert.deepEqual(ids(without), [withNothing, withPending, withDraft]);
      assert.equal(without.json.rest_url, `${LIST}?page=1&per_page=10&has_events=0&status=publish`);
      for (const value of ['1', 'yes', 'on', 'TRUE'])
        assert.deepEqual(
          ids(await t.api.get('/organizers', { query: { has_events: value } })),
          [withFuture, withPrivate, withPublished],
          value,
        );
      assertInvalid(await t.api.get('/organizers', { query: { has_events: 'maybe' } }), 'has_events');
    });

    it('has_events: a trashed event is neither draft nor pending, so it counts (API.md §11, TEC §9)', async () => {
      const [withTrashed, withNothing] = await organizers(t.api, 2);
      await insertEvent(t.api.db, { organizerIds: [withTrashed], status: 'trash' });
      assert.deepEqual(ids(await t.api.get('/organizers', { query: { has_events: true } })), [withTrashed]);
      assert.deepEqual(ids(await t.api.get('/organizers', { query: { has_events: false } })), [withNothing]);
    });

    it('has_events: empty envelopes when nothing matches (OE-02/03)', async () => {
      const [a, b] = await organizers(t.api, 2);
      await insertEvent(t.api.db, {});
      assertEmptyEnvelope(
        await t.api.get('/organizers', { query: { has_events: true } }),
        `${LIST}?page=1&per_page=10&has_events=1&status=publish`,
      );
      await insertEvent(t.api.db, { organizerIds: [a] });
      await insertEvent(t.api.db, { organizerIds: [b] });
      assertEmptyEnvelope(
        await t.api.get('/organizers', { query: { has_events: false } }),
        `${LIST}?page=1&per_page=10&has_events=0&status=publish`,
      );
    });

    it('has_events combines with visibility: draft organizers with events only for editors', async () => {
      const draftOrg = await createOrganizerId(t.api, { organizer: 'Draft with events', status: 'draft' }, 'editor');
      const [published] = await organizers(t.api, 1);
      await insertEvent(t.api.db, { organizerIds: [draftOrg, published] });
      assert.deepEqual(ids(await t.api.get('/organizers', { query: { has_events: true } })), [published]);
      assert.deepEqual(ids(await t.api.get('/organizers', { as: 'editor', query: { has_events: true } })), [
        published,
        draftOrg,
      ]);
    });

    it('only_with_upcoming: events starting now or later; past and hidden events do not count (OU-01)', async () => {
      const [upcoming, past, none, hidden, startsNow, mixed] = await organizers(t.api, 6);
      await insertEvent(t.api.db, { organizerIds: [upcoming], start: NOW + 30 * DAY });
      await insertEvent(t.api.db, { organizerIds: [past], start: NOW - 30 * DAY });
      await insertEvent(t.api.db, { organizerIds: [hidden], start: NOW + 30 * DAY, hidden: true });
      await insertEvent(t.api.db, { organizerIds: [startsNow], start: NOW });
      await insertEvent(t.api.db, { organizerIds: [mixed], start: NOW - 30 * DAY });
      await insertEvent(t.api.db, { organizerIds: [past, mixed], start: NOW + DAY, status: 'draft' });
      await insertEvent(t.api.db, { organizerIds: [mixed], start: NOW + DAY });

      const res = await t.api.get('/organizers', { query: { only_with_upcoming: 'true' } });
      assert.equal(res.status, 200);
      assert.deepEqual(ids(res), [mixed, startsNow, upcoming]);
      assertTotals(res, 3, 1);
      assert.equal(res.json.rest_url, `${LIST}?page=1&per_page=10&only_with_upcoming=1&status=publish`);

      const all = await t.api.get('/organizers', { query: { only_with_upcoming: 'false' } });
      assert.deepEqual(ids(all), [mixed, startsNow, hidden, none, past, upcoming]);
      assert.equal(all.json.rest_url, `${LIST}?page=1&per_page=10&only_with_upcoming=0&status=publish`);

      // Time moves on: the event of startsNow is no longer upcoming one second later.
      t.api.now = new Date(DEFAULT_NOW.getTime() + 1000);
      try {
        assert.deepEqual(ids(await t.api.get('/organizers', { query: { only_with_upcoming: true } })), [
          mixed,
          upcoming,
        ]);
      } finally {
        t.api.now = DEFAULT_NOW;
      }
    });

    it('only_with_upcoming: no organizer with an upcoming event gives the empty envelope (OU-02)', async () => {
      const created = await organizers(t.api, 3);
      for (const id of created) await insertEvent(t.api.db, { organizerIds: [id], start: NOW - DAY });
      await organizers(t.api, 1, 'Lonely');
      assertEmptyEnvelope(
        await t.api.get('/organizers', { query: { only_with_upcoming: true } }),
        `${LIST}?page=1&per_page=10&only_with_upcoming=1&status=publish`,
      );
    });

    it('only_with_upcoming: draft, pending and private upcoming events count for editors, not for anonymous callers (OU-03/04)', async () => {
      const [published, withPrivate, withDraft, withPending] = await organizers(t.api, 4);
      await insertEvent(t.api.db, { organizerIds: [published], start: NOW + 30 * DAY });
      await insertEvent(t.api.db, { organizerIds: [withPrivate], start: NOW + 30 * DAY, status: 'private' });
      await insertEvent(t.api.db, { organizerIds: [withDraft], start: NOW + 30 * DAY, status: 'draft' });
      await insertEvent(t.api.db, { organizerIds: [withPending], start: NOW + 30 * DAY, status: 'pending' });
      assert.deepEqual(ids(await t.api.get('/organizers', { query: { only_with_upcoming: true } })), [published]);
      const editor = await t.api.get('/organizers', { as: 'editor', query: { only_with_upcoming: true } });
      assert.deepEqual(ids(editor), [withPending, withDraft, withPrivate, published]);
      assertTotals(editor, 4, 1);
    });

    it('filters combine by intersection', async () => {
      const [a, b, c] = await organizers(t.api, 3, 'Combo');
      const event = await insertEvent(t.api.db, { organizerIds: [a, b], start: NOW + DAY });
      await insertEvent(t.api.db, { organizerIds: [c], start: NOW - DAY });
      assert.deepEqual(ids(await t.api.get('/organizers', { query: { event, search: 'Combo 1' } })), [b]);
      assert.deepEqual(ids(await t.api.get('/organizers', { query: { has_events: true, only_with_upcoming: true } })), [
        b,
        a,
      ]);
      assertEmptyEnvelope(
        await t.api.get('/organizers', { query: { has_events: false, only_with_upcoming: true } }),
        `${LIST}?page=1&per_page=10&has_events=0&only_with_upcoming=1&status=publish`,
      );
    });

    it('links carry every filter, URL-encoded, so following them never widens the result', async () => {
      for (let i = 0; i < 3; i++)
        await createOrganizerId(t.api, { organizer: `Org ${i}`, email: `o${i}@common.com` }, 'editor');
      await createOrganizerId(t.api, { organizer: 'Other', email: 'x@else.org' }, 'editor');
      const first = await t.api.get('/organizers', {
        query: { search: '@common.com', has_events: 'false', per_page: 2 },
      });
      assert.equal(first.status, 200);
      assertTotals(first, 3, 2);
      assert.equal(first.json.rest_url, `${LIST}?page=1&per_page=2&search=%40common.com&has_events=0&status=publish`);
      assert.equal(
        first.json.next_rest_url,
        `${LIST}?page=2&per_page=2&search=%40common.com&has_events=0&status=publish`,
      );
      // Following the link gives the remaining match, not the unfiltered page 2.
      const next = await t.api.get(first.json.next_rest_url.slice(BASE.length));
      assert.equal(next.status, 200, next.text);
      assert.equal(next.json.organizers.length, 1);
      assert.equal(next.json.organizers[0].email, 'o0@common.com');
      assert.equal(next.json.previous_rest_url, `${LIST}?per_page=2&search=%40common.com&has_events=0&status=publish`);

      const spaced = await t.api.get('/organizers', { query: { search: 'Org 1&2', per_page: 1 } });
      assert.equal(spaced.json.rest_url, `${LIST}?page=1&per_page=1&search=Org+1%262&status=publish`);

      const french = await t.api.get('/organizers', { query: { i18n_language: 'fr', per_page: 2 } });
      assert.equal(french.json.rest_url, `${LIST}?page=1&per_page=2&status=publish&i18n_language=fr`);
      assert.equal(french.json.next_rest_url, `${LIST}?page=2&per_page=2&status=publish&i18n_language=fr`);
      const path = await t.api.get('/fr/calendar/events/v1/organizers', { query: { per_page: 2 } });
      assert.equal(path.status, 200, path.text);
      assert.equal(
        path.json.next_rest_url,
        `${BASE}/fr/calendar/events/v1/organizers/?page=2&per_page=2&status=publish`,
      );
    });
  });
}
