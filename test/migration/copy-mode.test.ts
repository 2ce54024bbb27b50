import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { before, describe, it } from 'node:test';
import { importTec } from '../../src/modules/migration/import.js';
import { testDialects } from '../helpers/databases.js';
import { useTestApp, type TestApi } from '../helpers/app.js';
import { comparableEvents, EVERY_STATUS } from './comparable.js';

/** `login:password` of a Basic authorization header. */
const credentials = (header: string) => Buffer.from(header.replace(/^Basic /, ''), 'base64').toString('utf8');

async function created(api: TestApi, path: string, body: unknown): Promise<number> {
  const res = await api.post(path, body, { as: 'administrator' });
  assert.equal(res.status, 201, res.text);
  return res.json.id;
}

async function allEvents(api: TestApi, expand = true): Promise<Record<string, unknown>[]> {
  const events: Record<string, unknown>[] = [];
  for (let page = 1; ; page++) {
    const res = await api.get('/events', {
      as: 'administrator',
      query: {
        context: 'edit',
        status: EVERY_STATUS,
        start_date: '1900-01-01',
        end_date: '2200-12-31',
        per_page: 50,
        page,
        expand,
      },
    });
    assert.equal(res.status, 200, res.text);
    events.push(...res.json.events);
    if (page >= res.json.total_pages) return events;
  }
}

for (const dialect of await testDialects()) {
  describe(`import:tec copy mode between two installations [${dialect}]`, () => {
    const source = useTestApp(dialect);
    const target = useTestApp(dialect);
    const keeping = useTestApp(dialect);
    let origin = '';
    let auth = '';

    before(async () => {
      await source.api.app.listen({ port: 0, host: '127.0.0.1' });
      origin = `http://127.0.0.1:${(source.api.app.server.address() as AddressInfo).port}`;
      auth = credentials((await source.api.user('administrator')).header);
      await target.api.user('administrator');
      await keeping.api.user('administrator');
      const music = await created(source.api, '/categories', { name: 'Music', description: 'All music' });
      const rock = await created(source.api, '/categories', { name: 'Rock & Roll', parent: music });
      await source.api.patch(`/categories/${music}`, { name: 'Musique', i18n_language: 'fr' }, { as: 'administrator' });
      const tag = await created(source.api, '/tags', { name: 'outdoor' });
      const venue = await created(source.api, '/venues', {
        venue: 'Hall',
        address: '1 Main St',
        city: 'Springfield',
        geo_lat: 39.78,
        geo_lng: -89.65,
        show_map: true,
      });
      await source.api.patch(`/venues/${venue}`, { venue: 'Salle', i18n_language: 'fr' }, { as: 'administrator' });
      const first = await created(source.api, '/organizers', { organizer: 'First Org', email: 'first@example.org' });
      const second = await created(source.api, '/organizers', { organizer: 'Second Org' });
      const base = { start_date: '2027-03-01 19:00', end_date: '2027-03-01 21:00', timezone: 'Europe/Paris' };
      await created(source.api, '/events', {
        ...base,
        title: 'Linked',
        description: 'With <b>everything</b>',
        excerpt: 'Short',
        venue,
        organizer: [second, first],
        categories: [rock],
        tags: [tag],
        cost: '€5 – €15',
        website: 'https://example.org/linked',
        featured: true,
        sticky: true,
        image: 'https://example.org/linked.jpg',
      });
      await created(source.api, '/events', { ...base, title: 'Hidden', hide_from_listings: true });
      await created(source.api, '/events', {
        ...base,
        title: 'Protected',
        password: 'opensesame',
        description: 'Secret',
      });
      const translated = await created(source.api, '/events', { ...base, title: 'Translated', description: 'English' });
      await source.api.patch(
        `/events/${translated}`,
        { title: 'Traduit', description: 'Français', i18n_language: 'fr' },
        { as: 'administrator' },
      );
      await created(source.api, '/events', { ...base, title: 'Draft', status: 'draft', slug: 'draft-one' });
      await created(source.api, '/events', { ...base, title: 'Private', status: 'private' });
      const weekly = await created(source.api, '/events', {
        ...base,
        title: 'Weekly',
        recurrence: ['RRULE:FREQ=WEEKLY;COUNT=6', 'EXDATE;TZID=Europe/Paris:20270308T190000'],
      });
      // Occurrences edited one by one: an override (a new title, an hour later), a trashed one, a deleted one.
      const sessions = (await source.api.get(`/events/${weekly}/occurrences`, { as: 'administrator' })).json.events;
      const [, special, trashed, deleted] = sessions as { id: number }[];
      const edit = await source.api.patch(
        `/events/${special.id}`,
        { title: 'Weekly (special)', start_date: '2027-03-15 20:00', end_date: '2027-03-15 22:00', scope: 'this' },
        { as: 'administrator' },
      );
      assert.equal(edit.status, 200, edit.text);
      assert.equal((await source.api.delete(`/events/${trashed.id}`, { as: 'administrator' })).status, 200);
      const removal = await source.api.delete(`/events/${deleted.id}`, { as: 'administrator', query: { force: true } });
      assert.equal(removal.status, 200, removal.text);
      await created(source.api, '/events', {
        title: 'All Day',
        start_date: '2027-03-02',
        end_date: '2027-03-03',
        all_day: true,
        timezone: 'America/New_York',
      });
    });

    it('copies every event, hidden and protected ones and translations included, identical in both lists', async () => {
      const report = await importTec(target.api.app, { site: origin, auth, dryRun: false, allowPrivate: true });
      assert.equal(report.copyMode, true);
      assert.deepEqual(report.failures, []);
      assert.deepEqual(report.warnings, []);
      // Seven events and one series, copied whole with its rules: the target expands it.
      assert.equal(report.tallies.events.created, 8);
      assert.equal(report.tallies.venues.created, 1);
      assert.equal(report.tallies.organizers.created, 2);
      const copied = await allEvents(target.api);
      const original = await allEvents(source.api);
      assert.deepEqual(comparableEvents(copied), comparableEvents(original));
      // Seven events and the series' occurrences, expanded here from the copied rules.
      const weekly = copied.filter((event) => event.slug === 'weekly');
      assert.ok(weekly.length >= 3);
      assert.equal(copied.length, 7 + weekly.length);
      assert.equal(original.length, copied.length);
      // The series themselves, with their rules.
      const series = await allEvents(target.api, false);
      assert.deepEqual(comparableEvents(series), comparableEvents(await allEvents(source.api, false)));
      assert.deepEqual(series.find((event) => event.slug === 'weekly')?.recurrence, [
        'RRULE:FREQ=WEEKLY;COUNT=6',
        'EXDATE;TZID=Europe/Paris:20270308T190000',
      ]);
      // The override, the trashed and the deleted occurrence, as at the source.
      const special = weekly.find((event) => event.title === 'Weekly (special)');
      assert.equal(special?.start_date, '2027-03-15 20:00:00');
      assert.equal(weekly.length, original.filter((event) => event.slug === 'weekly').length);
      const trashed = async (api: TestApi) => {
        const id = (await allEvents(api, false)).find((event) => event.slug === 'weekly')?.id;
        const query = { status: 'trash' };
        const list = await api.get(`/events/${String(id)}/occurrences`, { as: 'administrator', query });
        return list.json.events.map((event: { recurrence_id: string }) => event.recurrence_id);
      };
      assert.deepEqual(await trashed(target.api), await trashed(source.api));
      assert.equal((await trashed(target.api)).length, 1);
      // Calendar subscribers see the same events: every UID is kept.
      const uids = (events: Record<string, unknown>[]) =>
        events.map((event) => `${String(event.slug)} ${String(event.ical_uid)}`).sort();
      assert.deepEqual(uids(copied), uids(original));
      const bySlug = new Map(copied.map((event) => [event.slug, event as Record<string, never>]));
      assert.equal(bySlug.get('hidden')?.hide_from_listings, true);
      assert.equal(bySlug.get('protected')?.password, 'opensesame');
      assert.deepEqual(bySlug.get('translated')?.translations, {
        en: { title: 'Translated', description: 'English', excerpt: '' },
        fr: { title: 'Traduit', description: 'Français' },
      });
      assert.equal(bySlug.get('draft-one')?.status, 'draft');
      assert.equal(bySlug.get('linked')?.cost, '€5 – €15');

      const venue = (await target.api.get('/venues/by-slug/hall', { as: 'administrator', query: { context: 'edit' } }))
        .json;
      assert.equal(venue.translations.fr.venue, 'Salle');
      const music = (
        await target.api.get('/categories', { as: 'administrator', query: { slug: 'music', hide_empty: false } })
      ).json.categories[0];
      const musicHint = await target.api.get(`/categories/${music.id}`, {
        as: 'administrator',
        query: { context: 'edit' },
      });
      assert.equal(musicHint.json.translations.fr.name, 'Musique');

      const again = await importTec(target.api.app, { site: origin, auth, dryRun: false, allowPrivate: true });
      assert.deepEqual(again.tallies.events, { created: 0, updated: 0, unchanged: 8, failed: 0 });
    });

    it('with --keep-ids keeps every id: events, series and their occurrences, venues, organizers and terms', async () => {
      const options = { site: origin, auth, dryRun: false, keepIds: true, allowPrivate: true };
      const report = await importTec(keeping.api.app, options);
      assert.deepEqual(report.failures, []);
      assert.deepEqual(report.warnings, []);
      const identity = (events: Record<string, unknown>[]) =>
        events.map((event) => [event.id, event.slug, event.recurrence_id, event.series_id]);
      const copied = await allEvents(keeping.api);
      assert.deepEqual(identity(copied), identity(await allEvents(source.api)));
      assert.ok(copied.some((event) => event.series_id !== null));
      assert.deepEqual(comparableEvents(copied), comparableEvents(await allEvents(source.api)));
      const linked = Number(copied.find((event) => event.slug === 'linked')?.id);
      const read = async (api: TestApi) => (await api.get(`/events/${linked}`, { as: 'administrator' })).json;
      const [mine, theirs] = [await read(keeping.api), await read(source.api)];
      for (const key of ['venue', 'organizer', 'categories', 'tags'] as const)
        assert.deepEqual(mine[key], theirs[key], key);

      const again = await importTec(keeping.api.app, options);
      assert.deepEqual(again.tallies.events, { created: 0, updated: 0, unchanged: 8, failed: 0 });
    });
  });
}
