import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { importTec, type ImportOptions } from '../../src/modules/migration/import.js';
import { SourceUnusable } from '../../src/modules/migration/source.js';
import { listAppPasswords } from '../../src/modules/users/users.service.js';
import { testDialects } from '../helpers/databases.js';
import type { TestApi } from '../helpers/app.js';
import { tecEvent, tecTerm, type TecSite } from '../helpers/tec-stand-in.js';
import { importOptions, useTecImport } from './tec-site.js';

const options = (site: string, extra: Partial<ImportOptions> = {}) => importOptions(site, { keepIds: true, ...extra });

const ids = (items: { id?: unknown }[]) => items.map((item) => Number(item.id)).sort((a, b) => a - b);

async function localIds(api: TestApi) {
  const posts = await api.db.selectFrom('posts').select(['id', 'type']).execute();
  const terms = await api.db.selectFrom('terms').select(['id', 'taxonomy']).execute();
  const of = (rows: { id: number }[]) => ids(rows.map((row) => ({ id: Number(row.id) })));
  return {
    events: of(posts.filter((row) => row.type === 'event')),
    venues: of(posts.filter((row) => row.type === 'venue')),
    organizers: of(posts.filter((row) => row.type === 'organizer')),
    categories: of(terms.filter((row) => row.taxonomy === 'category')),
    tags: of(terms.filter((row) => row.taxonomy === 'tag')),
  };
}

for (const dialect of await testDialects()) {
  describe(`import:tec --keep-ids [${dialect}]`, () => {
    const { t, tec } = useTecImport(dialect);

    it('keeps every source id; new items here continue above the highest; a re-run changes nothing', async () => {
      const report = await importTec(t.api.app, options(tec.origin));
      assert.deepEqual(report.failures, []);
      assert.equal(report.tallies.events.created, 124);
      const site = tec.site;
      assert.deepEqual(await localIds(t.api), {
        events: ids(site.events),
        venues: [301, 302, 303],
        organizers: [401, 402],
        categories: [101, 102, 103],
        tags: [201, 202],
      });
      const rock = (await t.api.get('/events/1001', { as: 'administrator' })).json;
      assert.equal(rock.slug, 'rock-roll-night');
      assert.equal(rock.venue.id, 301);
      assert.deepEqual(
        rock.organizer.map((o: { id: number }) => o.id),
        [402, 401],
      );
      assert.deepEqual(
        rock.categories.map((c: { id: number; parent: number }) => [c.id, c.parent]),
        [[102, 101]],
      );

      const event = await t.api.post(
        '/events',
        { title: 'Made here', start_date: '2027-09-01 10:00', end_date: '2027-09-01 11:00' },
        { as: 'administrator' },
      );
      assert.equal(event.status, 201, event.text);
      assert.ok(event.json.id > Math.max(...ids(site.events)), `new post id ${event.json.id}`);
      const tag = await t.api.post('/tags', { name: 'made-here' }, { as: 'administrator' });
      assert.equal(tag.status, 201, tag.text);
      assert.ok(tag.json.id > 202, `new term id ${tag.json.id}`);

      const again = await importTec(t.api.app, options(tec.origin));
      assert.deepEqual(again.failures, []);
      assert.deepEqual(again.tallies.events, { created: 0, updated: 0, unchanged: 124, failed: 0 });
    });

    it('continues an interrupted run: the item created under its kept id is taken over, not duplicated', async () => {
      // As if the previous run stopped between the write of #1123 (a draft) and its record.
      await t.api.db
        .updateTable('import_records')
        .set({ local_id: null, fingerprint: '' })
        .where('kind', '=', 'events')
        .where('source_id', '=', 1123)
        .execute();
      const report = await importTec(t.api.app, options(tec.origin));
      assert.deepEqual(report.failures, []);
      assert.deepEqual(report.tallies.events, { created: 0, updated: 1, unchanged: 123, failed: 0 });
      assert.equal((await localIds(t.api)).events.filter((id) => id === 1123).length, 1);
    });
  });

  describe(`import:tec --keep-ids stops before writing when ids are taken [${dialect}]`, () => {
    const site: TecSite = { categories: [], tags: [], venues: [], organizers: [], events: [] };
    const { t, tec } = useTecImport(dialect, site);

    it('lists every conflict, exits before any write, and never keeps a provisional id', async () => {
      const local = await t.api.post(
        '/events',
        { title: 'Already here', start_date: '2027-01-01 10:00', end_date: '2027-01-01 11:00' },
        { as: 'administrator' },
      );
      const tag = await t.api.post('/tags', { name: 'local' }, { as: 'administrator' });
      const localEvent: number = local.json.id;
      const localTag: number = tag.json.id;
      site.tags.push(tecTerm('post_tag', localTag, 'outdoor', 'outdoor'));
      const clash = { start: '2027-02-01 18:00:00', end: '2027-02-01 19:00:00' };
      site.events.push(
        tecEvent({ id: localEvent, title: 'Clash', slug: 'clash', ...clash }),
        tecEvent({ id: localEvent + 500, title: 'Free', slug: 'free', ...clash }),
        tecEvent({ id: 10_000_123, title: 'Provisional', slug: 'provisional', ...clash }),
      );
      const before = await localIds(t.api);

      await assert.rejects(importTec(t.api.app, options(tec.origin)), (error: Error) => {
        assert.ok(error instanceof SourceUnusable);
        assert.match(error.message, /2 of the source's ids are taken here; nothing was written/);
        assert.match(
          error.message,
          new RegExp(`events #${localEvent}: the id is taken here by event #${localEvent} already-here`),
        );
        assert.match(error.message, new RegExp(`tags #${localTag}: the id is taken here by tag #${localTag} local`));
        return true;
      });
      assert.deepEqual(await localIds(t.api), before);
      assert.equal((await t.api.db.selectFrom('import_records').select('source_id').execute()).length, 0);
      const passwords = await listAppPasswords(t.api.db, 'administrator-user');
      assert.deepEqual(
        passwords.filter((row) => row.name.startsWith('import:tec')),
        [],
      );

      // Without the clashes the rest keeps its ids; the provisional id is not kept.
      site.events.shift();
      site.tags.shift();
      const report = await importTec(t.api.app, options(tec.origin));
      assert.deepEqual(report.failures, []);
      const events = (await localIds(t.api)).events;
      assert.ok(events.includes(localEvent + 500));
      assert.ok(!events.includes(10_000_123));
      const provisional = await t.api.get('/events/by-slug/provisional', { as: 'administrator' });
      assert.equal(provisional.status, 200);
      assert.ok(provisional.json.id > localEvent + 500);
    });
  });
}
