import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Role } from '../../src/auth/capabilities.js';
import { testDialects } from '../helpers/databases.js';
import { useTestApp } from '../helpers/app.js';
import { createVenue } from '../helpers/factories.js';

type Caller = 'anonymous' | Role;
const CALLERS: Caller[] = ['anonymous', 'subscriber', 'contributor', 'author', 'editor', 'administrator'];

/** Status of writes on a venue published by an administrator (API.md §4): only editors and admins. */
const OTHERS_PUBLISHED: Record<Caller, number> = {
  anonymous: 401,
  subscriber: 403,
  contributor: 403,
  author: 403,
  editor: 200,
  administrator: 200,
};

for (const dialect of await testDialects()) {
  describe(`venue permissions [${dialect}]`, () => {
    const t = useTestApp(dialect);

    it('create: anonymous 401, subscriber 403, contributors get drafts, authors and up publish', async () => {
      const expected: Record<Caller, [number, string?]> = {
        anonymous: [401],
        subscriber: [403],
        contributor: [201, 'draft'],
        author: [201, 'publish'],
        editor: [201, 'publish'],
        administrator: [201, 'publish'],
      };
      for (const caller of CALLERS) {
        const res = await t.api.post('/venues', { venue: `Created by ${caller}` }, { as: caller });
        assert.equal(res.status, expected[caller][0], caller);
        if (res.status === 201) assert.equal(res.json.status, expected[caller][1], caller);
        else assert.equal(res.json.code, 'rest_forbidden');
      }
    });

    for (const by of ['id', 'slug'] as const) {
      const path = (venue: { id: number; slug: string }) =>
        by === 'id' ? `/venues/${venue.id}` : `/venues/by-slug/${venue.slug}`;

      it(`update and trash of another user's published venue by ${by}: only editors and administrators`, async () => {
        for (const caller of CALLERS) {
          const venue = await createVenue(t.api, {}, 'administrator');
          const update = await t.api.patch(path(venue), { city: `by ${caller}` }, { as: caller });
          assert.equal(update.status, OTHERS_PUBLISHED[caller], `update ${caller}`);
          const remove = await t.api.delete(path(venue), { as: caller });
          assert.equal(remove.status, OTHERS_PUBLISHED[caller], `delete ${caller}`);
          const after = await t.api.get(`/venues/${venue.id}`, { as: 'administrator' });
          assert.equal(after.json.status, OTHERS_PUBLISHED[caller] === 200 ? 'trash' : 'publish', caller);
          if (OTHERS_PUBLISHED[caller] !== 200) assert.equal('city' in after.json, false, caller);
        }
      });

      it(`a contributor may edit and trash their own draft by ${by}, but not once it is published`, async () => {
        const draft = await createVenue(t.api, { slug: `contrib-draft-${by}` }, 'contributor');
        assert.equal((await t.api.patch(path(draft), { city: 'Mine' }, { as: 'contributor' })).status, 200);
        const published = await createVenue(t.api, { slug: `contrib-published-${by}` }, 'contributor');
        const promoted = await t.api.patch(`/venues/${published.id}`, { status: 'publish' }, { as: 'editor' });
        assert.equal(promoted.json.status, 'publish');
        assert.equal((await t.api.patch(path(published), { city: 'Mine' }, { as: 'contributor' })).status, 403);
        assert.equal((await t.api.delete(path(published), { as: 'contributor' })).status, 403);
        assert.equal((await t.api.delete(path(draft), { as: 'contributor' })).status, 200);
      });

      it(`an author may edit and trash their own published venue by ${by}`, async () => {
        const own = await createVenue(t.api, {}, 'author');
        assert.equal((await t.api.patch(path(own), { city: 'Authored' }, { as: 'author' })).status, 200);
        assert.equal((await t.api.delete(path(own), { as: 'author' })).status, 200);
      });
    }

    it("a contributor cannot trash another user's venue through /venues/by-slug/{slug}", async () => {
      const victim = await createVenue(t.api, { slug: 'victim-hall' }, 'editor');
      const res = await t.api.delete('/venues/by-slug/victim-hall', { as: 'contributor' });
      assert.equal(res.status, 403);
      assert.deepEqual(res.json, {
        code: 'rest_forbidden',
        message: 'Sorry, you are not allowed to do that.',
        data: { status: 403 },
      });
      const other = await t.api.otherUser('contributor', 'second-contributor');
      const draft = await createVenue(t.api, { slug: 'first-contributor-draft' }, 'contributor');
      assert.equal(
        (await t.api.delete('/venues/by-slug/first-contributor-draft', { as: { authorization: other.header } })).status,
        403,
      );
      assert.equal((await t.api.get(`/venues/${victim.id}`)).json.status, 'publish');
      assert.equal((await t.api.get(`/venues/${draft.id}`, { as: 'editor' })).json.status, 'draft');
    });

    it('a contributor asking to publish on update gets pending', async () => {
      const draft = await createVenue(t.api, {}, 'contributor');
      const res = await t.api.patch(`/venues/${draft.id}`, { status: 'publish' }, { as: 'contributor' });
      assert.equal(res.status, 200);
      assert.equal(res.json.status, 'pending');
    });

    it('validation comes before permissions: anonymous bad input is 400, anonymous unknown id is 404', async () => {
      const bad = await t.api.post('/venues', { venue: 'x', geo_lat: 123 });
      assert.equal(bad.status, 400);
      assert.equal((await t.api.delete('/venues/999999')).status, 404);
      const existing = await createVenue(t.api, {}, 'editor');
      assert.equal((await t.api.delete(`/venues/${existing.id}`)).status, 401);
    });
  });
}
