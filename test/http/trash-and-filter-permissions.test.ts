import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { testDialects } from '../helpers/databases.js';
import { useTestApp, type TestApi } from '../helpers/app.js';
import { createEventId, createTermId, createVenueId } from '../helpers/factories.js';
import { nextSlot } from '../helpers/fixtures.js';

// API.md §18: permissions on a trashed item are those of its status before the trash; list filters
// by event accept only events the caller may read.

const RESOURCES = [
  { path: '/events', body: () => ({ title: 'Contributed event', ...nextSlot() }), titleKey: 'title' },
  { path: '/venues', body: () => ({ venue: `Contributed hall ${Math.random()}` }), titleKey: 'venue' },
  { path: '/organizers', body: () => ({ organizer: `Contributed band ${Math.random()}` }), titleKey: 'organizer' },
] as const;

type Resource = (typeof RESOURCES)[number];

/** A contributor's item: published by an editor when `published`, then trashed by an editor. */
async function trashedItem(
  api: TestApi,
  resource: Resource,
  published: boolean,
): Promise<{ id: number; slug: string }> {
  const created = await api.post(resource.path, resource.body(), { as: 'contributor' });
  assert.equal(created.status, 201, created.text);
  const id = created.json.id as number;
  if (published) {
    const publish = await api.patch(`${resource.path}/${id}`, { status: 'publish' }, { as: 'editor' });
    assert.equal(publish.status, 200, publish.text);
  }
  const trash = await api.delete(`${resource.path}/${id}`, { as: 'editor' });
  assert.equal(trash.status, 200, trash.text);
  if (published) assert.match(trash.json.slug, /__trashed(-\d+)?$/);
  return { id, slug: trash.json.slug };
}

for (const dialect of await testDialects()) {
  describe(`permissions on trashed items and event filters [${dialect}]`, () => {
    const t = useTestApp(dialect);

    for (const resource of RESOURCES) {
      it(`a contributor may not edit or delete its own ${resource.path.slice(1)} trashed after publication`, async () => {
        const { id, slug } = await trashedItem(t.api, resource, true);
        const before = await t.api.get(`${resource.path}/${id}`, { as: 'editor' });
        for (const target of [`${resource.path}/${id}`, `${resource.path}/by-slug/${slug}`]) {
          const update = await t.api.patch(target, { [resource.titleKey]: 'Changed' }, { as: 'contributor' });
          assert.equal(update.status, 403, `${target} ${update.text}`);
          assert.equal(update.json.code, 'rest_forbidden');
          const remove = await t.api.delete(target, { as: 'contributor' });
          assert.equal(remove.status, 403, `${target} ${remove.text}`);
        }
        const after = await t.api.get(`${resource.path}/${id}`, { as: 'editor' });
        assert.deepEqual(after.json, before.json);
      });

      it(`a contributor keeps editing its own ${resource.path.slice(1)} trashed before publication`, async () => {
        const { id } = await trashedItem(t.api, resource, false);
        const update = await t.api.patch(
          `${resource.path}/${id}`,
          { description: 'Still mine' },
          { as: 'contributor' },
        );
        assert.equal(update.status, 200, update.text);
        const again = await t.api.delete(`${resource.path}/${id}`, { as: 'contributor' });
        assert.equal(again.status, 410, again.text);
      });
    }

    it('a post restored from the trash is judged by its status again', async () => {
      const { id } = await trashedItem(t.api, RESOURCES[0], true);
      const restore = await t.api.patch(`/events/${id}`, { status: 'draft' }, { as: 'editor' });
      assert.equal(restore.status, 200, restore.text);
      const update = await t.api.patch(`/events/${id}`, { title: 'Back to work' }, { as: 'contributor' });
      assert.equal(update.status, 200, update.text);
    });

    it('event= and post= filters treat an event the caller may not read as unknown', async () => {
      const venue = await createVenueId(t.api, { venue: `Filter hall ${Math.random()}` });
      const category = await createTermId(t.api, 'categories', { name: `Filter category ${Math.random()}` });
      const draft = await createEventId(t.api, { status: 'draft', venue, categories: [category] }, 'contributor');
      const filters = [
        `/venues?event=${draft}`,
        `/categories?event=${draft}&hide_empty=false`,
        `/categories?post=${draft}&hide_empty=false`,
      ];
      for (const who of ['anonymous', 'subscriber', 'author'] as const) {
        for (const path of filters) {
          const res = await t.api.get(path, { as: who });
          assert.equal(res.status, 400, `${who} ${path} ${res.text}`);
          assert.equal(res.json.code, 'rest_invalid_param');
        }
      }
      for (const who of ['contributor', 'editor'] as const) {
        const venues = await t.api.get(`/venues?event=${draft}`, { as: who });
        assert.equal(venues.status, 200, venues.text);
        assert.deepEqual(
          venues.json.venues.map((v: { id: number }) => v.id),
          [venue],
        );
        const terms = await t.api.get(`/categories?post=${draft}&hide_empty=false`, { as: who });
        assert.deepEqual(
          terms.json.categories.map((c: { id: number }) => c.id),
          [category],
        );
      }
    });
  });
}
