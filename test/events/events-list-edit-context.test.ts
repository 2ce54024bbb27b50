import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { testDialects } from '../helpers/databases.js';
import { useTestApp } from '../helpers/app.js';

const event = (title: string, extra: Record<string, unknown> = {}) => ({
  title,
  start_date: '2026-12-01 10:00',
  end_date: '2026-12-01 11:00',
  ...extra,
});

for (const dialect of await testDialects()) {
  describe(`GET /events?context=edit [${dialect}]`, () => {
    const t = useTestApp(dialect);
    const ids: Record<string, number> = {};
    before(async () => {
      for (const [name, extra] of [
        ['plain', {}],
        ['hidden', { hide_from_listings: true }],
        ['protected', { password: 'opensesame', description: 'Secret text' }],
        ['translated', {}],
        ['draft', { status: 'draft' }],
      ] as const) {
        const res = await t.api.post('/events', event(`Event ${name}`, extra), { as: 'administrator' });
        assert.equal(res.status, 201, res.text);
        ids[name] = res.json.id;
      }
      const fr = await t.api.patch(
        `/events/${ids.translated}`,
        { title: 'Événement traduit', i18n_language: 'fr' },
        { as: 'administrator' },
      );
      assert.equal(fr.status, 200, fr.text);
    });

    it('lists events hidden from listings too, each with its password and translations, for editors', async () => {
      const res = await t.api.get('/events', {
        as: 'editor',
        query: { context: 'edit', status: 'publish,draft', per_page: 2 },
      });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.json.total, 5);
      assert.match(res.json.next_rest_url, /context=edit/);
      const all = [...res.json.events];
      for (let page = 2; page <= res.json.total_pages; page++) {
        const next = await t.api.get('/events', {
          as: 'editor',
          query: { context: 'edit', status: 'publish,draft', per_page: 2, page },
        });
        all.push(...next.json.events);
      }
      const byId = new Map(all.map((e) => [e.id, e]));
      assert.equal(byId.get(ids.hidden).hide_from_listings, true);
      assert.equal(byId.get(ids.protected).password, 'opensesame');
      assert.equal(byId.get(ids.protected).description, '<p>Secret text</p>');
      assert.equal(byId.get(ids.plain).password, '');
      assert.deepEqual(byId.get(ids.translated).translations, {
        en: { title: 'Event translated', description: '', excerpt: '' },
        fr: { title: 'Événement traduit' },
      });
      assert.equal(byId.get(ids.draft).status, 'draft');
    });

    it('without context=edit, hidden events stay out of lists and no password is shown', async () => {
      const res = await t.api.get('/events', { as: 'editor', query: { status: 'publish,draft' } });
      assert.equal(res.json.total, 4);
      assert.ok(res.json.events.every((e: Record<string, unknown>) => !('password' in e)));
    });

    it('is refused to callers who may not edit every event: 401 anonymous, 403 authors', async () => {
      assert.equal((await t.api.get('/events', { query: { context: 'edit' } })).status, 401);
      const author = await t.api.get('/events', { as: 'author', query: { context: 'edit' } });
      assert.equal(author.status, 403);
      assert.equal(author.json.code, 'rest_forbidden');
      assert.equal((await t.api.get('/events', { query: { context: 'bogus' } })).status, 400);
    });

    it('single reads with context=edit carry the password too', async () => {
      const res = await t.api.get(`/events/${ids.protected}`, { as: 'administrator', query: { context: 'edit' } });
      assert.equal(res.status, 200);
      assert.equal(res.json.password, 'opensesame');
    });
  });
}
