import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { testDialects } from '../helpers/databases.js';
import { DEFAULT_NOW, useTestApp, type TestApi, type TestResponse, type Who } from '../helpers/app.js';
import { createEvent, createVenueId } from '../helpers/factories.js';

const BASE = 'http://127.0.0.1:8080';
const DAY = { start_date: '2026-12-21 18:00:00', end_date: '2026-12-21 20:00:00' };

// Response bodies are arbitrary JSON by nature.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const FORBIDDEN_401 = {
  code: 'rest_forbidden',
  message: 'Sorry, you are not allowed to do that.',
  data: { status: 401 },
};
const FORBIDDEN_403 = {
  code: 'rest_forbidden',
  message: 'Sorry, you are not allowed to do that.',
  data: { status: 403 },
};
const IN_TRASH = { code: 'event-is-in-trash', message: 'The event is already trashed', data: { status: 410 } };

function assertError(res: TestResponse, status: number, body: Json, label = ''): void {
  assert.equal(res.status, status, `${label} ${res.text}`);
  assert.deepEqual(res.json, body, label);
}

let sequence = 0;

/** An event on DAY created by `as`, with an explicit slug: drafts get none otherwise, and these tests address events by slug. */
async function permEvent(api: TestApi, as: Who, body: Record<string, unknown> = {}): Promise<Json> {
  sequence += 1;
  return createEvent(api, { title: `Perm event ${sequence}`, slug: `perm-event-${sequence}`, ...DAY, ...body }, as);
}

/** A published event whose author is a contributor (the contributor creates it, an editor publishes it). */
async function contributorPublished(api: TestApi, as: Who): Promise<Json> {
  const draft = await permEvent(api, as);
  const published = await api.post(`/events/${draft.id}`, { status: 'publish' }, { as: 'editor' });
  assert.equal(published.json.status, 'publish');
  assert.equal(published.json.author, draft.author);
  return published.json;
}

/** The stored state of an event, as an administrator reads it. */
async function stored(api: TestApi, id: number): Promise<Json> {
  const res = await api.get(`/events/${id}`, { as: 'administrator' });
  return {
    status: res.status,
    code: res.json.code,
    title: res.json.title,
    state: res.json.status,
    slug: res.json.slug,
  };
}

for (const dialect of await testDialects()) {
  describe(`events: delete [${dialect}]`, () => {
    const t = useTestApp(dialect);

    it('DELETE trashes: 200 with status trash, slug __trashed, the ?p= url and no json_ld', async () => {
      const venue = await createVenueId(t.api, { venue: 'Delete hall' });
      const event = await permEvent(t.api, 'administrator', { title: 'To Trash', slug: 'to-trash', venue, cost: '10' });
      t.api.now = new Date('2026-11-21T09:00:00Z');
      let res: TestResponse;
      try {
        res = await t.api.delete(`/events/${event.id}`, { as: 'administrator' });
      } finally {
        t.api.now = DEFAULT_NOW;
      }
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.json, {
        ...event,
        status: 'trash',
        slug: 'to-trash__trashed',
        url: `${BASE}/?post_type=tribe_events&p=${event.id}`,
        modified: '2026-11-21 09:00:00',
        modified_utc: '2026-11-21 09:00:00',
      });
      assert.equal('json_ld' in res.json, false);
      assertError(await t.api.delete(`/events/${event.id}`, { as: 'administrator' }), 410, IN_TRASH, 'second delete');
      assertError(await t.api.get(`/events/${event.id}`), 403, {
        code: 'event-no-longer-available',
        message: 'This event is no longer available',
        data: { status: 403 },
      });
      const listed = await t.api.get('/events', { as: 'administrator' });
      assert.equal(
        listed.json.events.some((e: Json) => e.id === event.id),
        false,
        'trashed events are not listed',
      );
    });

    it('DELETE by slug trashes too; the trashed event no longer answers to its old slug', async () => {
      const event = await permEvent(t.api, 'administrator', { slug: 'slug-to-trash' });
      const res = await t.api.delete('/events/by-slug/slug-to-trash', { as: 'editor' });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.json.id, event.id);
      assert.equal(res.json.status, 'trash');
      assert.equal(res.json.slug, 'slug-to-trash__trashed');
      assertError(await t.api.delete('/events/by-slug/slug-to-trash', { as: 'editor' }), 404, {
        code: 'rest-event-not-found',
        message: 'Event with slug slug-to-trash does not exist.',
        data: { status: 404 },
      });
      assertError(await t.api.delete(`/events/${event.id}`, { as: 'editor' }), 410, IN_TRASH);
    });

    it('force=true by an editor deletes permanently: 200 with the last state, then 404', async () => {
      const event = await permEvent(t.api, 'administrator', { slug: 'forced' });
      const res = await t.api.delete(`/events/${event.id}`, { as: 'editor', query: { force: 'true' } });
      assert.equal(res.status, 200, res.text);
      assert.deepEqual(res.json, event, 'the body is the event as it was');
      const gone = {
        code: 'rest-event-not-found',
        message: `Event with ID ${event.id} does not exist.`,
        data: { status: 404 },
      };
      assertError(await t.api.get(`/events/${event.id}`, { as: 'administrator' }), 404, gone);
      assertError(await t.api.delete(`/events/${event.id}`, { as: 'editor', query: { force: 'true' } }), 404, gone);
      assertError(await t.api.delete(`/events/${event.id}`, { as: 'editor' }), 404, gone);
      assert.equal(
        (await t.api.db.selectFrom('events').select('post_id').where('post_id', '=', event.id).execute()).length,
        0,
      );
    });

    it('force=true also removes an already trashed event (administrator), and works by slug', async () => {
      const event = await permEvent(t.api, 'editor');
      await t.api.delete(`/events/${event.id}`, { as: 'administrator' });
      const res = await t.api.delete(`/events/${event.id}`, { as: 'administrator', query: { force: true } });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.json.status, 'trash');
      assert.equal((await t.api.get(`/events/${event.id}`, { as: 'administrator' })).status, 404);
      const bySlug = await permEvent(t.api, 'author', { slug: 'forced-by-slug' });
      const forced = await t.api.delete('/events/by-slug/forced-by-slug', { as: 'administrator', query: { force: 1 } });
      assert.equal(forced.status, 200, forced.text);
      assert.equal(forced.json.status, 'publish');
      assert.equal((await t.api.get(`/events/${bySlug.id}`, { as: 'administrator' })).status, 404);
    });

    it('force=true is for editors and administrators: an author (even on their own event) gets 403 and nothing changes', async () => {
      const own = await permEvent(t.api, 'author');
      assertError(
        await t.api.delete(`/events/${own.id}`, { as: 'author', query: { force: 'true' } }),
        403,
        FORBIDDEN_403,
      );
      assertError(
        await t.api.delete(`/events/by-slug/${own.slug}`, { as: 'author', query: { force: 'true' } }),
        403,
        FORBIDDEN_403,
      );
      assert.deepEqual(await stored(t.api, own.id), {
        status: 200,
        code: undefined,
        title: own.title,
        state: 'publish',
        slug: own.slug,
      });
      const contributorDraft = await permEvent(t.api, 'contributor');
      assertError(
        await t.api.delete(`/events/${contributorDraft.id}`, { as: 'contributor', query: { force: 'true' } }),
        403,
        FORBIDDEN_403,
      );
      assert.equal((await stored(t.api, contributorDraft.id)).state, 'draft');
      const plain = await t.api.delete(`/events/${own.id}`, { as: 'author', query: { force: 'false' } });
      assert.equal(plain.status, 200);
      assert.equal(plain.json.status, 'trash');
    });

    it('trashing a second event with the same slug works (slugs stay unique in the trash), by DELETE and by status', async () => {
      const first = await permEvent(t.api, 'administrator', { title: 'Gig', slug: 'gig' });
      const firstTrashed = await t.api.delete(`/events/${first.id}`, { as: 'administrator' });
      assert.equal(firstTrashed.json.slug, 'gig__trashed');
      const second = await permEvent(t.api, 'administrator', { title: 'Gig', slug: 'gig' });
      assert.equal(second.slug, 'gig', 'the trashed event no longer holds the slug');
      const secondTrashed = await t.api.delete(`/events/${second.id}`, { as: 'administrator' });
      assert.equal(secondTrashed.status, 200, secondTrashed.text);
      assert.equal(secondTrashed.json.status, 'trash');
      assert.match(secondTrashed.json.slug, /^gig(-\d+)?__trashed(-\d+)?$/);
      assert.notEqual(secondTrashed.json.slug, 'gig__trashed');
      const third = await permEvent(t.api, 'administrator', { title: 'Gig', slug: 'gig' });
      const byStatus = await t.api.patch(`/events/${third.id}`, { status: 'trash' }, { as: 'administrator' });
      assert.equal(byStatus.status, 200, byStatus.text);
      assert.equal(byStatus.json.status, 'trash');
      const slugs = [firstTrashed.json.slug, secondTrashed.json.slug, byStatus.json.slug];
      assert.equal(new Set(slugs).size, 3, slugs.join(', '));
      for (const event of [first, second, third])
        assertError(await t.api.get(`/events/${event.id}`), 403, {
          code: 'event-no-longer-available',
          message: 'This event is no longer available',
          data: { status: 403 },
        });
    });

    it('unknown ids are 404 before any permission check; a non-event id is 400', async () => {
      const notFound = {
        code: 'rest-event-not-found',
        message: 'Event with ID 999999 does not exist.',
        data: { status: 404 },
      };
      for (const as of ['anonymous', 'subscriber', 'contributor', 'administrator'] as const) {
        assertError(await t.api.delete('/events/999999', { as }), 404, notFound, `DELETE as ${as}`);
        assertError(await t.api.put('/events/999999', { title: 'Ghost' }, { as }), 404, notFound, `PUT as ${as}`);
      }
      assertError(await t.api.delete('/events/by-slug/no-such-event'), 404, {
        code: 'rest-event-not-found',
        message: 'Event with slug no-such-event does not exist.',
        data: { status: 404 },
      });
      const venue = await createVenueId(t.api, { venue: 'Undeletable as event' });
      assertError(await t.api.delete(`/events/${venue}`, { as: 'administrator' }), 400, {
        code: 'rest-invalid-event-id',
        message: 'The specified ID is not a valid event.',
        data: { status: 400 },
      });
      assert.equal((await t.api.get(`/venues/${venue}`)).json.status, 'publish');
    });
  });

  for (const via of ['id', 'slug'] as const) {
    describe(`events: per-object permissions by ${via} (AZ-01..AZ-15) [${dialect}]`, () => {
      const t = useTestApp(dialect);
      const path = (event: Json) => (via === 'id' ? `/events/${event.id}` : `/events/by-slug/${event.slug}`);

      it('AZ-13 / AZ-14 / AZ-15: anonymous edit and delete are 401; a subscriber gets 403; nothing changes', async () => {
        const event = await permEvent(t.api, 'administrator');
        const draft = await permEvent(t.api, 'contributor');
        for (const target of [event, draft]) {
          assertError(await t.api.put(path(target), { title: 'Hacked' }), 401, FORBIDDEN_401, 'anonymous PUT');
          assertError(await t.api.post(path(target), { title: 'Hacked' }), 401, FORBIDDEN_401, 'anonymous POST');
          assertError(await t.api.delete(path(target)), 401, FORBIDDEN_401, 'anonymous DELETE');
          assertError(
            await t.api.patch(path(target), { title: 'Hacked' }, { as: 'subscriber' }),
            403,
            FORBIDDEN_403,
            'subscriber PATCH',
          );
          assertError(await t.api.delete(path(target), { as: 'subscriber' }), 403, FORBIDDEN_403, 'subscriber DELETE');
          assert.deepEqual(await stored(t.api, target.id), {
            status: 200,
            code: undefined,
            title: target.title,
            state: target.status,
            slug: target.slug,
          });
        }
      });

      it("AZ-01 / AZ-03: a contributor cannot edit or delete an administrator's event", async () => {
        const event = await permEvent(t.api, 'administrator');
        assertError(
          await t.api.put(path(event), { title: 'Hacked Title' }, { as: 'contributor' }),
          403,
          FORBIDDEN_403,
          'PUT',
        );
        assertError(
          await t.api.delete(path(event), { as: 'contributor', query: { force: 'true' } }),
          403,
          FORBIDDEN_403,
          'DELETE force',
        );
        assertError(await t.api.delete(path(event), { as: 'contributor' }), 403, FORBIDDEN_403, 'DELETE');
        assert.deepEqual(await stored(t.api, event.id), {
          status: 200,
          code: undefined,
          title: event.title,
          state: 'publish',
          slug: event.slug,
        });
      });

      it('AZ-02 / AZ-04: a contributor cannot edit or delete their own published event', async () => {
        const event = await contributorPublished(t.api, 'contributor');
        assertError(
          await t.api.put(path(event), { title: 'Updated Title' }, { as: 'contributor' }),
          403,
          FORBIDDEN_403,
          'PUT',
        );
        assertError(
          await t.api.put(path(event), { status: 'draft' }, { as: 'contributor' }),
          403,
          FORBIDDEN_403,
          'PUT status',
        );
        assertError(await t.api.delete(path(event), { as: 'contributor' }), 403, FORBIDDEN_403, 'DELETE');
        assert.deepEqual(await stored(t.api, event.id), {
          status: 200,
          code: undefined,
          title: event.title,
          state: 'publish',
          slug: event.slug,
        });
      });

      it("AZ-05 / AZ-06: a contributor can edit and delete their own draft, but not another contributor's", async () => {
        const mine = await permEvent(t.api, 'contributor');
        assert.equal(mine.status, 'draft');
        const edited = await t.api.put(path(mine), { title: 'Updated Draft Title' }, { as: 'contributor' });
        assert.equal(edited.status, 200, edited.text);
        assert.equal(edited.json.title, 'Updated Draft Title');
        assert.equal(edited.json.status, 'draft');
        const other = await t.api.otherUser('contributor', `other-contributor-${via}`);
        const theirs = await permEvent(t.api, { authorization: other.header });
        assertError(
          await t.api.put(path(theirs), { title: 'Not mine' }, { as: 'contributor' }),
          403,
          FORBIDDEN_403,
          'other contributor PUT',
        );
        assertError(
          await t.api.delete(path(theirs), { as: 'contributor' }),
          403,
          FORBIDDEN_403,
          'other contributor DELETE',
        );
        assert.equal((await stored(t.api, theirs.id)).state, 'draft');
        const deleted = await t.api.delete(path(mine), { as: 'contributor' });
        assert.equal(deleted.status, 200, deleted.text);
        assert.equal(deleted.json.status, 'trash');
      });

      it('contributor status scaling on update: publish and future become pending; a pending event stays editable', async () => {
        const draft = await permEvent(t.api, 'contributor');
        const res = await t.api.patch(path(draft), { status: 'publish' }, { as: 'contributor' });
        assert.equal(res.status, 200, res.text);
        assert.equal(res.json.status, 'pending');
        const again = await t.api.patch(
          `/events/${draft.id}`,
          { status: 'future', date: '2027-01-01 10:00:00', title: 'Still pending' },
          { as: 'contributor' },
        );
        assert.equal(again.status, 200, again.text);
        assert.equal(again.json.status, 'pending');
        assert.equal(again.json.title, 'Still pending');
        const back = await t.api.patch(`/events/${draft.id}`, { status: 'draft' }, { as: 'contributor' });
        assert.equal(back.json.status, 'draft');
        const created = await t.api.post(
          '/events',
          { title: 'Contributor asks publish', ...DAY, status: 'publish' },
          { as: 'contributor' },
        );
        assert.equal(created.json.status, 'pending');
        const none = await t.api.post('/events', { title: 'Contributor asks nothing', ...DAY }, { as: 'contributor' });
        assert.equal(none.json.status, 'draft');
      });

      it("an author may edit and delete their own events, not other users'", async () => {
        const own = await permEvent(t.api, 'author');
        assert.equal(own.status, 'publish');
        const edited = await t.api.put(path(own), { title: 'Author edit', status: 'publish' }, { as: 'author' });
        assert.equal(edited.status, 200, edited.text);
        assert.equal(edited.json.status, 'publish');
        const admins = await permEvent(t.api, 'administrator');
        assertError(
          await t.api.put(path(admins), { title: 'Author hack' }, { as: 'author' }),
          403,
          FORBIDDEN_403,
          'PUT admin event',
        );
        assertError(await t.api.delete(path(admins), { as: 'author' }), 403, FORBIDDEN_403, 'DELETE admin event');
        const otherAuthor = await t.api.otherUser('author', `other-author-${via}`);
        const theirDraft = await permEvent(t.api, { authorization: otherAuthor.header }, { status: 'draft' });
        assertError(
          await t.api.put(path(theirDraft), { title: 'Author hack' }, { as: 'author' }),
          403,
          FORBIDDEN_403,
          'PUT other author draft',
        );
        assert.deepEqual(await stored(t.api, admins.id), {
          status: 200,
          code: undefined,
          title: admins.title,
          state: 'publish',
          slug: admins.slug,
        });
        const deleted = await t.api.delete(path(own), { as: 'author' });
        assert.equal(deleted.status, 200, deleted.text);
        assert.equal(deleted.json.status, 'trash');
      });

      it("AZ-07 / AZ-08: editors and administrators may edit and delete others' events", async () => {
        const admins = await permEvent(t.api, 'administrator');
        const edited = await t.api.put(path(admins), { title: 'Edited by Editor' }, { as: 'editor' });
        assert.equal(edited.status, 200, edited.text);
        assert.equal(edited.json.title, 'Edited by Editor');
        assert.equal(edited.json.author, admins.author, 'editing does not change the author');
        const forced = await t.api.delete(path(admins), { as: 'editor', query: { force: 'true' } });
        assert.equal(forced.status, 200, forced.text);
        assert.equal((await t.api.get(`/events/${admins.id}`, { as: 'administrator' })).status, 404);
        const editors = await permEvent(t.api, 'editor');
        const contributorDraft = await permEvent(t.api, 'contributor');
        for (const target of [editors, contributorDraft]) {
          const res = await t.api.patch(path(target), { title: 'Edited by Admin' }, { as: 'administrator' });
          assert.equal(res.status, 200, res.text);
          assert.equal(res.json.status, target.status, 'status unchanged when not sent');
          const trashed = await t.api.delete(path(target), { as: 'administrator' });
          assert.equal(trashed.status, 200, trashed.text);
          assert.equal(trashed.json.status, 'trash');
        }
      });
    });
  }

  describe(`events: by-slug writes have the per-object checks, validation comes first [${dialect}]`, () => {
    const t = useTestApp(dialect);

    it("a contributor cannot trash or edit another user's published event through /events/by-slug/{slug}", async () => {
      const event = await permEvent(t.api, 'author', { title: 'Slug Target', slug: 'slug-target' });
      const before = (await t.api.get(`/events/${event.id}`)).json;
      assertError(
        await t.api.delete('/events/by-slug/slug-target', { as: 'contributor' }),
        403,
        FORBIDDEN_403,
        'DELETE',
      );
      assertError(
        await t.api.post('/events/by-slug/slug-target', { title: 'Hijacked', slug: 'hijacked' }, { as: 'contributor' }),
        403,
        FORBIDDEN_403,
        'POST',
      );
      assertError(
        await t.api.patch('/events/by-slug/slug-target', { status: 'draft' }, { as: 'contributor' }),
        403,
        FORBIDDEN_403,
        'PATCH',
      );
      assert.deepEqual((await t.api.get('/events/by-slug/slug-target')).json, before);
      assert.equal((await t.api.get('/events/by-slug/hijacked')).status, 404);
    });

    it('input is validated before permissions: bad bodies are 400 even for anonymous and subscribers', async () => {
      const event = await permEvent(t.api, 'administrator', { slug: 'validated-first' });
      const missing = await t.api.post('/events', {});
      assertError(missing, 400, {
        code: 'rest_missing_callback_param',
        message: 'Missing parameter(s): title, start_date, end_date',
        data: { status: 400, params: ['title', 'start_date', 'end_date'] },
      });
      const badDate = await t.api.post('/events', {
        title: 'Anon',
        start_date: 'not-a-date',
        end_date: '2026-12-21 20:00:00',
      });
      assert.equal(badDate.status, 400);
      assert.equal(badDate.json.code, 'rest_invalid_param');
      assert.deepEqual(Object.keys(badDate.json.data.params), ['start_date']);
      const backwards = await t.api.post('/events', {
        title: 'Anon',
        start_date: '2026-12-21 20:00:00',
        end_date: '2026-12-21 18:00:00',
      });
      assert.equal(backwards.status, 400, backwards.text);
      assert.deepEqual(Object.keys(backwards.json.data.params), ['end_date']);
      for (const as of ['anonymous', 'subscriber'] as const) {
        for (const target of [`/events/${event.id}`, '/events/by-slug/validated-first']) {
          const res = await t.api.put(target, { website: 'not a url' }, { as });
          assert.equal(res.status, 400, `${as} ${target}: ${res.text}`);
          assert.equal(res.json.code, 'rest_invalid_param');
          assert.deepEqual(Object.keys(res.json.data.params), ['website']);
          const date = await t.api.patch(target, { start_date: 'not-a-date' }, { as });
          assert.equal(date.status, 400, `${as} ${target}`);
        }
      }
      // A valid body from the same callers is refused by the permission check.
      assertError(await t.api.put(`/events/${event.id}`, { website: 'https://example.org' }), 401, FORBIDDEN_401);
      assertError(
        await t.api.put(`/events/${event.id}`, { website: 'https://example.org' }, { as: 'subscriber' }),
        403,
        FORBIDDEN_403,
      );
      assertError(await t.api.post('/events', { title: 'Anon', ...DAY }), 401, FORBIDDEN_401);
      assert.equal((await t.api.get(`/events/${event.id}`)).json.website, '');
    });

    it('a malformed Authorization header is 401 incorrect_password, never anonymous', async () => {
      const event = await permEvent(t.api, 'administrator');
      const res = await t.api.delete(`/events/${event.id}`, { as: { authorization: 'Basic bm9ib2R5Om5vcGU=' } });
      assert.equal(res.status, 401);
      assert.equal(res.json.code, 'incorrect_password');
      assert.equal((await stored(t.api, event.id)).state, 'publish');
    });
  });
}
