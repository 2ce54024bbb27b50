import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { testDialects } from '../helpers/databases.js';
import { useTestApp } from '../helpers/app.js';

for (const dialect of await testDialects()) {
  describe(`smoke [${dialect}]`, () => {
    const t = useTestApp(dialect);
    it('creates and reads a category', async () => {
      const created = await t.api.post('/categories', { name: 'Rock & Roll', description: 'Live music' }, { as: 'editor' });
      assert.equal(created.status, 201, created.text);
      assert.deepEqual(Object.keys(created.json), ['id', 'count', 'description', 'name', 'slug', 'taxonomy', 'parent', 'meta', 'url', 'urls']);
      const read = await t.api.get(`/categories/${created.json.id}`);
      assert.equal(read.json.name, 'Rock & Roll');
    });
  });
}
