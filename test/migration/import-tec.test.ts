import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { importTec } from '../../src/modules/migration/import.js';
import { SourceUnusable } from '../../src/modules/migration/source.js';
import { createAppPassword, listAppPasswords } from '../../src/modules/users/users.service.js';
import { testDialects } from '../helpers/databases.js';
import type { TestApi } from '../helpers/app.js';
import { tecEvent } from '../helpers/tec-stand-in.js';
import { importOptions, tecSite, useTecImport } from './tec-site.js';

const options = importOptions;

async function eventBySlug(api: TestApi, slug: string) {
  const res = await api.get(`/events/by-slug/${slug}`, { as: 'administrator' });
  assert.equal(res.status, 200, `${slug}: ${res.text}`);
  return res.json;
}

async function countEvents(api: TestApi): Promise<number> {
  const rows = await api.db.selectFrom('events').select('post_id').execute();
  return rows.length;
}

for (const dialect of await testDialects()) {
  describe(`import:tec from a TEC site [${dialect}]`, () => {
    const { t, tec } = useTecImport(dialect);

    it('imports terms, venues, organizers and every event, with links, dates and flags', async () => {
      const report = await importTec(t.api.app, options(tec.origin));
      assert.deepEqual(report.failures, []);
      assert.deepEqual(report.tallies.categories, { created: 3, updated: 0, unchanged: 0, failed: 0 });
      assert.deepEqual(report.tallies.tags, { created: 2, updated: 0, unchanged: 0, failed: 0 });
      // The barn comes from the event that embeds it: no venue list shows it.
      assert.deepEqual(report.tallies.venues, { created: 3, updated: 0, unchanged: 0, failed: 0 });
      assert.deepEqual(report.tallies.organizers, { created: 2, updated: 0, unchanged: 0, failed: 0 });
      assert.deepEqual(report.tallies.events, { created: 124, updated: 0, unchanged: 0, failed: 0 });
      assert.equal(await countEvents(t.api), 124);
      // Three pages of events were read, following the site's paging.
      assert.ok(tec.requests.some((r) => r.includes('/events?') && r.includes('page=3')));

      const rock = await eventBySlug(t.api, 'rock-roll-night');
      assert.equal(rock.title, 'Rock & Roll Night');
      assert.equal(rock.timezone, 'Europe/Paris');
      assert.equal(rock.utc_start_date, '2027-01-01 18:00:00');
      assert.equal(rock.start_date, '2027-01-01 19:00:00');
      assert.equal(rock.cost, '€5 – €15');
      assert.deepEqual(rock.cost_details.values, ['5', '15']);
      assert.equal(rock.website, 'https://example.org/rock-roll-night');
      assert.equal(rock.featured, true);
      assert.equal(rock.sticky, true);
      assert.equal(rock.show_map, true);
      assert.equal(rock.image.url, 'https://example.org/rock.jpg');
      assert.equal(rock.description, '<p>About Rock &#038; Roll Night.</p>'.replace('&#038;', '&amp;'));
      assert.equal(rock.venue.venue, 'Transcript Hall');
      assert.equal(rock.venue.geo_lat, 39.78);
      assert.deepEqual(
        rock.organizer.map((o: { organizer: string }) => o.organizer),
        ['Friends of Jazz', 'Transcript Org'],
      );
      assert.equal(rock.categories[0].name, 'Rock & Roll');
      assert.equal(rock.date_utc, '2026-11-21 08:37:48');

      const categories = (await t.api.get('/categories', { query: { hide_empty: false } })).json.categories;
      const music = categories.find((c: { slug: string }) => c.slug === 'music');
      const rockCategory = categories.find((c: { slug: string }) => c.slug === 'rock-roll');
      assert.equal(rockCategory.parent, music.id);
      assert.equal(rockCategory.name, 'Rock & Roll');

      const club = (await t.api.get('/venues/by-slug/club-bar', { as: 'administrator' })).json;
      assert.equal(club.venue, 'Club & Bar');

      const hidden = await eventBySlug(t.api, 'secret-rehearsal');
      assert.equal(hidden.hide_from_listings, true);
      const draft = await eventBySlug(t.api, 'draft-gig');
      assert.equal(draft.status, 'draft');
      // TEC never shows passwords: a protected event arrives as a draft, with a warning.
      const members = await eventBySlug(t.api, 'members-only');
      assert.equal(members.status, 'draft');
      assert.ok(report.warnings.some((w) => w.includes('#1122') && w.includes('password')));
      const barn = await eventBySlug(t.api, 'barn-dance');
      assert.equal(barn.all_day, true);
      assert.equal(barn.start_date, '2027-06-04 00:00:00');
      assert.equal(barn.end_date, '2027-06-04 23:59:59');
      assert.equal(barn.venue.venue, 'Hidden Barn');
      assert.equal(barn.venue.status, 'private');
    });

    it('a second run writes nothing; then a changed event is updated and a new one created, never duplicated', async () => {
      // The run's own credential is revoked at its end; one left by a run killed days ago goes too.
      const importPasswords = async () =>
        (await listAppPasswords(t.api.db, 'administrator-user')).filter((row) => row.name.startsWith('import:tec'));
      assert.deepEqual(await importPasswords(), []);
      await createAppPassword(
        t.api.db,
        'administrator-user',
        'import:tec killed',
        Math.floor(Date.now() / 1000) - 3 * 86_400,
      );
      const again = await importTec(t.api.app, options(tec.origin));
      assert.deepEqual(await importPasswords(), []);
      assert.deepEqual(again.failures, []);
      for (const kind of ['categories', 'tags', 'venues', 'organizers', 'events'] as const) {
        assert.equal(again.tallies[kind].created + again.tallies[kind].updated, 0, kind);
      }
      assert.equal(again.tallies.events.unchanged, 124);

      const changed = tec.site.events[1];
      changed.title = 'Concert Two &amp; Friends';
      changed.modified_utc = '2026-11-22 10:00:00';
      tec.site.events.push(
        tecEvent({
          id: 1200,
          title: 'Encore',
          slug: 'encore',
          start: '2027-07-01 18:00:00',
          end: '2027-07-01 19:00:00',
        }),
      );
      const third = await importTec(t.api.app, options(tec.origin));
      assert.deepEqual(third.failures, []);
      assert.deepEqual(third.tallies.events, { created: 1, updated: 1, unchanged: 123, failed: 0 });
      assert.equal((await eventBySlug(t.api, 'concert-2')).title, 'Concert Two & Friends');
      assert.equal(await countEvents(t.api), 125);
    });

    it('--since writes only items modified since the date; --dry-run writes nothing', async () => {
      tec.site.events[2].title = 'Changed Long Ago';
      tec.site.events[3].title = 'Changed Recently';
      tec.site.events[3].modified_utc = '2026-11-25 00:00:00';
      const since = await importTec(
        t.api.app,
        options(tec.origin, { since: Date.parse('2026-11-24T00:00:00Z') / 1000 }),
      );
      assert.equal(since.tallies.events.updated, 1);
      assert.equal((await eventBySlug(t.api, 'concert-4')).title, 'Changed Recently');
      assert.equal((await eventBySlug(t.api, 'concert-3')).title, 'Concert 3');

      tec.site.events.push(
        tecEvent({ id: 1201, title: 'Dry', slug: 'dry', start: '2027-07-02 18:00:00', end: '2027-07-02 19:00:00' }),
      );
      const dry = await importTec(t.api.app, options(tec.origin, { dryRun: true }));
      assert.equal(dry.dryRun, true);
      assert.equal(dry.tallies.events.created, 1);
      assert.equal(dry.tallies.events.updated, 1, 'concert-3 would be updated');
      assert.equal((await t.api.get('/events/by-slug/dry', { as: 'administrator' })).status, 404);
    });

    it('a slug taken here by an item from elsewhere fails that item only, and nothing is renamed', async () => {
      const local = await t.api.post(
        '/events',
        { title: 'Local', slug: 'taken-here', start_date: '2027-08-01 10:00', end_date: '2027-08-01 11:00' },
        { as: 'administrator' },
      );
      assert.equal(local.status, 201);
      tec.site.events.push(
        tecEvent({
          id: 1202,
          title: 'Clash',
          slug: 'taken-here',
          start: '2027-08-02 18:00:00',
          end: '2027-08-02 19:00:00',
        }),
      );
      const report = await importTec(t.api.app, options(tec.origin));
      assert.deepEqual(report.failures, ['events #1202 taken-here: slug taken']);
      assert.equal(report.tallies.events.failed, 1);
      assert.equal((await eventBySlug(t.api, 'taken-here')).title, 'Local');
      assert.equal((await t.api.get('/events/by-slug/taken-here-2', { as: 'administrator' })).status, 404);
    });
  });

  describe(`import:tec without an administrator here [${dialect}]`, () => {
    const { t, tec } = useTecImport(dialect, tecSite(), { administrator: false });

    it('stops before writing: imported items belong to the first administrator', async () => {
      await assert.rejects(importTec(t.api.app, options(tec.origin)), (error) => {
        assert.ok(error instanceof SourceUnusable);
        assert.match(error.message, /no administrator to import as/);
        return true;
      });
      assert.equal(await countEvents(t.api), 0);
    });
  });

  describe(`import:tec when items disappear at the source [${dialect}]`, () => {
    const { t, tec } = useTecImport(dialect);

    it('an event deleted at the source is left in place and reported', async () => {
      await importTec(t.api.app, options(tec.origin));
      tec.site.events = tec.site.events.filter((entry) => entry.id !== 1010);
      const report = await importTec(t.api.app, options(tec.origin));
      assert.deepEqual(report.failures, []);
      assert.ok(report.warnings.includes('events: 1 imported before, no longer at the source, left in place (#1010)'));
      assert.equal((await eventBySlug(t.api, 'concert-10')).title, 'Concert 10');
    });
  });

  describe(`import:tec when the source fails [${dialect}]`, () => {
    const { t, tec } = useTecImport(dialect);

    it('retries a page that fails twice, reports one that keeps failing, goes on, and a re-run completes', async () => {
      const page = (n: number) =>
        `/wp-json/tribe/events/v1/events?start_date=1900-01-01&end_date=2200-12-31&status=publish%2Cfuture%2Cdraft%2Cpending%2Cprivate&per_page=50&page=${n}`;
      tec.failures.set(page(1), 2);
      tec.failures.set(page(2), 100);
      // WordPress's own collection would let the events of page 2 be read one by one: fail it too.
      tec.failures.set('/wp-json/wp/v2/tribe_events', 100);
      const first = await importTec(t.api.app, options(tec.origin));
      assert.equal(first.failures.length, 1, first.failures.join('\n'));
      assert.match(first.failures[0], /^events page 2: HTTP 500 internal_server_error/);
      assert.equal(first.tallies.events.failed, 1);
      assert.ok(first.warnings.some((w) => w.includes('hidden from listings could not be found')));
      // Pages 1 and 3 of the 123 listed events.
      const imported = await countEvents(t.api);
      assert.equal(imported, 73);
      assert.equal(first.tallies.events.created, 73);

      tec.failures.clear();
      const second = await importTec(t.api.app, options(tec.origin));
      assert.deepEqual(second.failures, []);
      assert.equal(second.tallies.events.created, 124 - imported);
      // Now that WordPress's collection answers, the protected event is known as such: a draft.
      assert.equal(second.tallies.events.updated, 1);
      assert.equal((await eventBySlug(t.api, 'members-only')).status, 'draft');
      assert.equal(second.tallies.events.unchanged, imported - 1);
      assert.equal(await countEvents(t.api), 124);
    });

    it("waits as long as a 429's Retry-After asks before trying again", async () => {
      tec.rateLimited.set('/wp-json/tribe/events/v1/tags', 1);
      const started = Date.now();
      const report = await importTec(t.api.app, options(tec.origin));
      assert.deepEqual(report.failures, []);
      // The test's own retry delays are 5 ms: the second that passed is the site's.
      assert.ok(Date.now() - started >= 1_000);
      assert.equal(tec.rateLimited.get('/wp-json/tribe/events/v1/tags'), 0);
    });

    it('continues an interrupted run: an item created but not yet recorded is taken over, not duplicated', async () => {
      // As if the previous run stopped between the write of #1001 and its record.
      await t.api.db
        .updateTable('import_records')
        .set({ local_id: null, fingerprint: '' })
        .where('kind', '=', 'events')
        .where('source_id', '=', 1001)
        .execute();
      const report = await importTec(t.api.app, options(tec.origin));
      assert.deepEqual(report.failures, []);
      assert.equal(report.tallies.events.updated, 1);
      assert.equal(report.tallies.events.created, 0);
      assert.equal(await countEvents(t.api), 124);
    });

    it('an id the source answers 400 for (a post that is no event) fails that item only', async () => {
      tec.strayWpIds.push(9999);
      const report = await importTec(t.api.app, options(tec.origin));
      tec.strayWpIds.length = 0;
      assert.deepEqual(report.failures, ['events #9999: HTTP 400 rest_invalid_param']);
      assert.deepEqual(report.tallies.events, { created: 0, updated: 0, unchanged: 124, failed: 1 });
    });

    it('stops before writing for a site that is not TEC, a blocked API, refused credentials or a private address', async () => {
      await assert.rejects(
        importTec(t.api.app, options(`${tec.origin}/nothing-here`, { namespace: 'other/v1' })),
        (error) => {
          assert.ok(error instanceof SourceUnusable);
          assert.match(error.message, /does not look like a site running The Events Calendar/);
          return true;
        },
      );
      tec.blockedWith = 403;
      await assert.rejects(importTec(t.api.app, options(tec.origin, { auth: undefined })), /blocked/);
      tec.blockedWith = undefined;
      await assert.rejects(
        importTec(t.api.app, options(tec.origin, { auth: 'admin:wrong' })),
        /refused the credentials/,
      );
      await assert.rejects(
        importTec(t.api.app, options(tec.origin, { allowPrivate: false })),
        /IMPORT_ALLOW_PRIVATE_URLS/,
      );
    });
  });
}
