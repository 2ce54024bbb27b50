import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { testDialects } from '../helpers/databases.js';
import { useTestApp } from '../helpers/app.js';

const BASE = 'http://127.0.0.1:8080';
const API = `${BASE}/calendar/events/v1`;

for (const dialect of await testDialects()) {
  describe(`categories and tags: create, read, update, delete [${dialect}]`, () => {
    const t = useTestApp(dialect);

    it('POST /categories returns 201, a Location header and the term in TEC key order', async () => {
      const res = await t.api.post('/categories', { name: 'Concerts', description: 'Live music' }, { as: 'editor' });
      assert.equal(res.status, 201, res.text);
      assert.deepEqual(Object.keys(res.json), [
        'id',
        'count',
        'description',
        'name',
        'slug',
        'taxonomy',
        'parent',
        'meta',
        'url',
        'urls',
      ]);
      assert.deepEqual(res.json, {
        id: res.json.id,
        count: 0,
        description: 'Live music',
        name: 'Concerts',
        slug: 'concerts',
        taxonomy: 'tribe_events_cat',
        parent: 0,
        meta: [],
        url: `${BASE}/events/category/concerts/`,
        urls: { self: `${API}/categories/${res.json.id}`, collection: `${API}/categories` },
      });
      assert.equal(res.headers.location, `${API}/categories/${res.json.id}`);
      assert.match(String(res.headers['content-type']), /^application\/json; charset=utf-8$/);
    });

    it('POST /tags returns a tag without parent and with a /tag/ page URL', async () => {
      const res = await t.api.post('/tags', { name: 'outdoor' }, { as: 'editor' });
      assert.equal(res.status, 201, res.text);
      assert.deepEqual(Object.keys(res.json), [
        'id',
        'count',
        'description',
        'name',
        'slug',
        'taxonomy',
        'meta',
        'url',
        'urls',
      ]);
      assert.equal(res.json.taxonomy, 'post_tag');
      assert.equal(res.json.description, '');
      assert.equal(res.json.url, `${BASE}/tag/outdoor/`);
      assert.deepEqual(res.json.urls, { self: `${API}/tags/${res.json.id}`, collection: `${API}/tags` });
    });

    it('a name with an ampersand reads back exactly, without entity encoding', async () => {
      const created = await t.api.post('/categories', { name: 'Rock & Roll' }, { as: 'editor' });
      assert.equal(created.status, 201, created.text);
      assert.equal(created.json.slug, 'rock-roll');
      const read = await t.api.get(`/categories/${created.json.id}`);
      assert.equal(read.status, 200);
      assert.equal(read.json.name, 'Rock & Roll');
      assert.ok(read.text.includes('"name":"Rock & Roll"'));
    });

    it('stored descriptions are sanitised HTML', async () => {
      const res = await t.api.post(
        '/tags',
        {
          name: 'Sanitised',
          description:
            '<p onclick="steal()">Hi <b>there</b></p><script>alert(1)</script><a href="javascript:alert(1)">x</a><style>p{}</style>',
        },
        { as: 'editor' },
      );
      assert.equal(res.status, 201, res.text);
      assert.equal(res.json.description, '<p>Hi <b>there</b></p><a>x</a>');
    });

    it('accepts form-encoded bodies and an explicit slug', async () => {
      const res = await t.api.post(
        '/categories',
        { name: 'Form Made', slug: 'Made By Form', description: '' },
        { as: 'editor', form: true },
      );
      assert.equal(res.status, 201, res.text);
      assert.equal(res.json.slug, 'made-by-form');
      assert.equal(res.json.description, '');
    });

    it('missing name is rest_missing_callback_param naming it', async () => {
      const res = await t.api.post('/categories', { description: 'x' }, { as: 'editor' });
      assert.equal(res.status, 400);
      assert.deepEqual(res.json, {
        code: 'rest_missing_callback_param',
        message: 'Missing parameter(s): name',
        data: { status: 400, params: ['name'] },
      });
    });

    it('an empty name or slug is rest_invalid_param and creates nothing', async () => {
      for (const body of [{ name: '' }, { name: '   ' }, { name: 'Valid', slug: '' }, { name: 42 }]) {
        const res = await t.api.post('/tags', body, { as: 'editor' });
        assert.equal(res.status, 400, JSON.stringify(body));
        assert.equal(res.json.code, 'rest_invalid_param');
        assert.equal(res.json.data.status, 400);
      }
      const list = await t.api.get('/tags', { query: { hide_empty: 'false', search: 'valid' } });
      assert.equal(list.json.total, 0);
    });

    it('invalid JSON is rest_invalid_json', async () => {
      const res = await t.api.post('/categories', '{"name": "broken"', { as: 'editor' });
      assert.equal(res.status, 400);
      assert.equal(res.json.code, 'rest_invalid_json');
      assert.equal(res.json.message, 'Invalid JSON body passed.');
    });

    it('a duplicate name under the same parent is term_exists with the existing id, in any case', async () => {
      const first = await t.api.post('/categories', { name: 'Theatre' }, { as: 'editor' });
      const again = await t.api.post('/categories', { name: 'THEATRE' }, { as: 'editor' });
      assert.equal(again.status, 400);
      assert.deepEqual(again.json, {
        code: 'term_exists',
        message: 'A term with the name provided already exists with this parent.',
        data: { status: 400, term_id: first.json.id },
      });
      const tag = await t.api.post('/tags', { name: 'Jazz' }, { as: 'editor' });
      const tagAgain = await t.api.post('/tags', { name: 'jazz' }, { as: 'editor' });
      assert.equal(tagAgain.json.code, 'term_exists');
      assert.equal(tagAgain.json.message, 'A term with the name provided already exists in this taxonomy.');
      assert.equal(tagAgain.json.data.term_id, tag.json.id);
    });

    it('the same name under another parent is allowed and gets a unique slug', async () => {
      const music = await t.api.post('/categories', { name: 'Music' }, { as: 'editor' });
      const film = await t.api.post('/categories', { name: 'Film' }, { as: 'editor' });
      const a = await t.api.post('/categories', { name: 'Festivals', parent: music.json.id }, { as: 'editor' });
      const b = await t.api.post('/categories', { name: 'Festivals', parent: film.json.id }, { as: 'editor' });
      assert.equal(a.status, 201);
      assert.equal(b.status, 201);
      assert.equal(a.json.slug, 'festivals');
      assert.equal(b.json.slug, 'festivals-2');
    });

    it('an explicit slug that exists is term_exists naming its owner', async () => {
      const owner = await t.api.post('/tags', { name: 'Owner', slug: 'taken-slug' }, { as: 'editor' });
      const res = await t.api.post('/tags', { name: 'Other', slug: 'taken-slug' }, { as: 'editor' });
      assert.equal(res.status, 400);
      assert.equal(res.json.code, 'term_exists');
      assert.equal(res.json.data.term_id, owner.json.id);
    });

    it('child categories carry the ancestors in their page URL and an up link', async () => {
      const root = await t.api.post('/categories', { name: 'Arts' }, { as: 'editor' });
      const mid = await t.api.post('/categories', { name: 'Visual', parent: root.json.id }, { as: 'editor' });
      const leaf = await t.api.post('/categories', { name: 'Painting', parent: mid.json.id }, { as: 'editor' });
      assert.equal(leaf.json.parent, mid.json.id);
      assert.equal(leaf.json.url, `${BASE}/events/category/arts/visual/painting/`);
      assert.equal(leaf.json.urls.up, `${API}/categories/${mid.json.id}`);
    });

    it('an unknown parent is rest_invalid_param; parent on a tag is rest_taxonomy_not_hierarchical', async () => {
      const res = await t.api.post('/categories', { name: 'Orphan', parent: 999999 }, { as: 'editor' });
      assert.equal(res.status, 400);
      assert.equal(res.json.code, 'rest_invalid_param');
      assert.ok('parent' in res.json.data.params);
      const tag = await t.api.post('/tags', { name: 'With parent', parent: 1 }, { as: 'editor' });
      assert.equal(tag.status, 400);
      assert.deepEqual(tag.json, {
        code: 'rest_taxonomy_not_hierarchical',
        message: 'Cannot set parent term, taxonomy is not hierarchical.',
        data: { status: 400 },
      });
    });

    it('a category cannot become its own ancestor', async () => {
      const a = await t.api.post('/categories', { name: 'Cycle A' }, { as: 'editor' });
      const b = await t.api.post('/categories', { name: 'Cycle B', parent: a.json.id }, { as: 'editor' });
      const c = await t.api.post('/categories', { name: 'Cycle C', parent: b.json.id }, { as: 'editor' });
      for (const parent of [a.json.id, c.json.id]) {
        const res = await t.api.patch(`/categories/${a.json.id}`, { parent }, { as: 'editor' });
        assert.equal(res.status, 400, `parent ${parent}`);
        assert.equal(res.json.code, 'rest_invalid_param');
        assert.equal(res.json.data.details.parent.code, 'term_parent_cycle');
      }
      const unchanged = await t.api.get(`/categories/${a.json.id}`);
      assert.equal(unchanged.json.parent, 0);
      const moved = await t.api.patch(`/categories/${c.json.id}`, { parent: 0 }, { as: 'editor' });
      assert.equal(moved.status, 200);
      assert.equal(moved.json.parent, 0);
    });

    it('updates are partial with POST, PUT and PATCH alike', async () => {
      const created = await t.api.post('/categories', { name: 'Partial', description: 'Before' }, { as: 'editor' });
      const id = created.json.id;
      const post = await t.api.post(`/categories/${id}`, { description: 'After POST' }, { as: 'editor' });
      assert.equal(post.status, 200, post.text);
      assert.deepEqual({ ...post.json, description: 'Before' }, created.json);
      const put = await t.api.put(`/categories/${id}`, { name: 'Partial renamed' }, { as: 'editor' });
      assert.equal(put.json.name, 'Partial renamed');
      assert.equal(put.json.description, 'After POST');
      assert.equal(put.json.slug, 'partial');
      const patch = await t.api.patch(`/categories/${id}`, { slug: 'new-slug' }, { as: 'editor' });
      assert.equal(patch.json.slug, 'new-slug');
      assert.equal(patch.json.name, 'Partial renamed');
    });

    it('renaming onto an existing name or slug is term_exists and changes nothing', async () => {
      const one = await t.api.post('/tags', { name: 'One tag' }, { as: 'editor' });
      const two = await t.api.post('/tags', { name: 'Two tag' }, { as: 'editor' });
      const byName = await t.api.patch(`/tags/${two.json.id}`, { name: 'one TAG' }, { as: 'editor' });
      assert.equal(byName.json.code, 'term_exists');
      assert.equal(byName.json.data.term_id, one.json.id);
      const bySlug = await t.api.patch(`/tags/${two.json.id}`, { slug: 'one-tag' }, { as: 'editor' });
      assert.equal(bySlug.json.code, 'term_exists');
      const after = await t.api.get(`/tags/${two.json.id}`);
      assert.equal(after.json.name, 'Two tag');
      assert.equal(after.json.slug, 'two-tag');
    });

    it('unknown ids are 404 rest_term_invalid, also across taxonomies', async () => {
      const tag = await t.api.post('/tags', { name: 'Only a tag' }, { as: 'editor' });
      for (const path of ['/categories/999999', `/categories/${tag.json.id}`]) {
        const res = await t.api.get(path);
        assert.equal(res.status, 404);
        assert.deepEqual(res.json, {
          code: 'rest_term_invalid',
          message: 'Term does not exist.',
          data: { status: 404 },
        });
      }
      const update = await t.api.patch('/tags/999999', { name: 'x' }, { as: 'editor' });
      assert.equal(update.status, 404);
      const remove = await t.api.delete('/tags/999999', { as: 'editor' });
      assert.equal(remove.status, 404);
    });

    it('a non-numeric id is no route', async () => {
      const res = await t.api.get('/categories/abc');
      assert.equal(res.status, 404);
      assert.deepEqual(res.json, {
        code: 'rest_no_route',
        message: 'No route was found matching the URL and request method.',
        data: { status: 404 },
      });
    });

    it('delete is permanent, returns the term as it was and re-parents its children', async () => {
      const parent = await t.api.post('/categories', { name: 'Doomed parent' }, { as: 'editor' });
      const doomed = await t.api.post(
        '/categories',
        { name: 'Doomed', parent: parent.json.id, description: 'Bye' },
        { as: 'editor' },
      );
      const child = await t.api.post('/categories', { name: 'Survivor', parent: doomed.json.id }, { as: 'editor' });
      const res = await t.api.delete(`/categories/${doomed.json.id}`, { as: 'editor' });
      assert.equal(res.status, 200);
      assert.deepEqual(res.json, doomed.json);
      assert.equal((await t.api.get(`/categories/${doomed.json.id}`)).status, 404);
      assert.equal((await t.api.delete(`/categories/${doomed.json.id}`, { as: 'editor' })).status, 404);
      const survivor = await t.api.get(`/categories/${child.json.id}`);
      assert.equal(survivor.json.parent, parent.json.id);
    });

    it('concurrent creates of the same name produce one term and one term_exists', async () => {
      const results = await Promise.all([1, 2, 3].map(() => t.api.post('/tags', { name: 'Race' }, { as: 'editor' })));
      const statuses = results.map((r) => r.status).sort();
      assert.deepEqual(statuses, [201, 400, 400]);
      const list = await t.api.get('/tags', { query: { hide_empty: 'false', search: 'race' } });
      assert.equal(list.json.total, 1);
    });
  });
}
