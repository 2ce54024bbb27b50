import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { testDialects } from '../helpers/databases.js';
import { useTestApp, type TestApi } from '../helpers/app.js';

const EVENT = { title: 'Conditional concert', start_date: '2027-03-01 19:00:00', end_date: '2027-03-01 21:00:00' };

async function createEvent(api: TestApi, body: Record<string, unknown> = {}): Promise<{ id: number; slug: string }> {
  const res = await api.post('/events', { ...EVENT, ...body }, { as: 'administrator' });
  assert.equal(res.status, 201, res.text);
  return { id: res.json.id, slug: res.json.slug };
}

const etagOf = (res: { headers: Record<string, unknown> }) => String(res.headers.etag);

for (const dialect of await testDialects()) {
  describe(`conditional requests on single items [${dialect}]`, () => {
    const t = useTestApp(dialect);

    it('a single read carries a strong ETag and Last-Modified, the same in every language', async () => {
      const { id } = await createEvent(t.api);
      const en = await t.api.get(`/events/${id}`);
      assert.equal(en.status, 200);
      assert.match(etagOf(en), /^"[A-Za-z0-9_-]+"$/);
      assert.equal(
        en.headers['last-modified'],
        new Date(t.api.now.getTime() - (t.api.now.getTime() % 1000)).toUTCString(),
      );
      const fr = await t.api.get(`/fr/calendar/events/v1/events/${id}`);
      assert.equal(fr.status, 200);
      assert.equal(etagOf(fr), etagOf(en));
      const bySlug = await t.api.get(`/events/by-slug/${en.json.slug}`);
      assert.equal(etagOf(bySlug), etagOf(en));
    });

    it('If-None-Match matching (weak comparison, *, lists) is a 304 without a body; anything else a 200', async () => {
      const { id } = await createEvent(t.api);
      const first = await t.api.get(`/events/${id}`);
      const etag = etagOf(first);
      for (const header of [etag, `W/${etag}`, '*', `"other", ${etag}`]) {
        const again = await t.api.get(`/events/${id}`, { headers: { 'if-none-match': header } });
        assert.equal(again.status, 304, header);
        assert.equal(again.text, '');
        assert.equal(etagOf(again), etag);
        assert.equal(again.headers['last-modified'], first.headers['last-modified']);
      }
      const other = await t.api.get(`/events/${id}`, { headers: { 'if-none-match': '"nope"' } });
      assert.equal(other.status, 200);
      assert.equal(other.json.id, id);
      const since = await t.api.get(`/events/${id}`, {
        headers: { 'if-modified-since': String(first.headers['last-modified']) },
      });
      assert.equal(since.status, 304);
      const before = await t.api.get(`/events/${id}`, {
        headers: { 'if-modified-since': new Date(t.api.now.getTime() - 3_600_000).toUTCString() },
      });
      assert.equal(before.status, 200);
    });

    it('the §14 checks come first: unknown is 404 and a draft the caller may not read 403, whatever the headers', async () => {
      const { id } = await createEvent(t.api, { status: 'draft' });
      const draft = await t.api.get(`/events/${id}`, { as: 'administrator' });
      const ifNoneMatch = { 'if-none-match': etagOf(draft) };
      assert.equal((await t.api.get(`/events/${id}`, { headers: ifNoneMatch })).status, 403);
      assert.equal((await t.api.get('/events/999999', { headers: { 'if-none-match': '*' } })).status, 404);
    });

    it('the ETag moves with the item, its translations, its venue, organizers and term counts, and only then', async () => {
      const venue = await t.api.post('/venues', { venue: 'ETag Hall' }, { as: 'administrator' });
      const { id } = await createEvent(t.api, { venue: venue.json.id, categories: ['etag-music'] });
      const tag = async () => etagOf(await t.api.get(`/events/${id}`));
      const tags = [await tag()];
      assert.equal(await tag(), tags[0], 'unchanged data, unchanged ETag');
      await createEvent(t.api, { title: 'Another', categories: ['etag-other'] });
      assert.equal(await tag(), tags[0], 'a write elsewhere changes nothing here');
      const steps: [string, () => Promise<unknown>][] = [
        ['its title', () => t.api.patch(`/events/${id}`, { title: 'Renamed' }, { as: 'administrator' })],
        [
          'a translation',
          () => t.api.patch(`/events/${id}`, { title: 'Renommé', i18n_language: 'fr' }, { as: 'administrator' }),
        ],
        ['its venue', () => t.api.patch(`/venues/${venue.json.id}`, { city: 'Lyon' }, { as: 'administrator' })],
        ['a term count', () => createEvent(t.api, { title: 'Third', categories: ['etag-music'] })],
      ];
      for (const [what, change] of steps) {
        await change();
        const now = await tag();
        assert.ok(!tags.includes(now), `the ETag moves with ${what}`);
        tags.push(now);
      }
    });

    it('an edit that moves no term count leaves its terms and the other events in them as they were', async () => {
      const admin = { as: 'administrator' as const };
      const edited = await createEvent(t.api, { title: 'Kept terms', categories: ['etag-kept'], tags: ['kept-tag'] });
      const other = await createEvent(t.api, { title: 'Neighbour', categories: ['etag-kept'], tags: ['kept-tag'] });
      const single = (await t.api.get(`/events/${edited.id}`)).json;
      const termPaths = [`/categories/${single.categories[0].id}`, `/tags/${single.tags[0].id}`];
      const tagsNow = async () =>
        Promise.all([...termPaths, `/events/${other.id}`].map(async (p) => etagOf(await t.api.get(p))));
      const before = await tagsNow();
      await t.api.patch(`/events/${edited.id}`, { title: 'Kept terms, renamed', cost: '5' }, admin);
      assert.deepEqual(await tagsNow(), before, 'a published event staying in its terms changes no count');
      await t.api.patch(`/events/${edited.id}`, { status: 'draft' }, admin);
      const after = await tagsNow();
      for (const [i, path] of [...termPaths, 'the neighbour'].entries())
        assert.notEqual(after[i], before[i], `${path} moves with the count`);
      assert.equal((await t.api.get(termPaths[0])).json.count, 1);
      const neighbour = await t.api.get(`/events/${other.id}`);
      assert.equal(neighbour.json.categories[0].count, 1, 'the neighbour shows the new count');
      const guarded = await t.api.patch(
        `/events/${other.id}`,
        { cost: '7' },
        { ...admin, headers: { 'if-match': etagOf(neighbour) } },
      );
      assert.equal(guarded.status, 200, 'the ETag read is the one writes check');
    });

    it('write responses carry the ETag a read then gives', async () => {
      const created = await t.api.post('/events', EVENT, { as: 'administrator' });
      assert.equal(etagOf(created), etagOf(await t.api.get(`/events/${created.json.id}`)));
      const updated = await t.api.patch(`/events/${created.json.id}`, { title: 'Next' }, { as: 'administrator' });
      assert.equal(etagOf(updated), etagOf(await t.api.get(`/events/${created.json.id}`)));
      const venue = await t.api.post('/venues', { venue: 'Header Hall' }, { as: 'administrator' });
      assert.equal(etagOf(venue), etagOf(await t.api.get(`/venues/${venue.json.id}`)));
      const term = await t.api.post('/tags', { name: 'header-tag' }, { as: 'administrator' });
      assert.equal(etagOf(term), etagOf(await t.api.get(`/tags/${term.json.id}`)));
    });

    it('a read gives the ETag writes check: an occurrence with organizers, terms and a draft venue, kept or not', async () => {
      const admin = { as: 'administrator' as const };
      const venue = await t.api.post('/venues', { venue: 'Draft Hall', status: 'draft' }, admin);
      const organizers: number[] = [];
      for (const organizer of ['First host', 'Second host'])
        organizers.push((await t.api.post('/organizers', { organizer }, admin)).json.id);
      const parent = await t.api.post('/categories', { name: 'etag-parent' }, admin);
      const child = await t.api.post('/categories', { name: 'etag-child', parent: parent.json.id }, admin);
      const tag = await t.api.post('/tags', { name: 'etag-tag' }, admin);
      const series = await createEvent(t.api, {
        venue: venue.json.id,
        organizer: organizers,
        tags: [tag.json.id],
        categories: [child.json.id],
        recurrence: ['RRULE:FREQ=WEEKLY;COUNT=3'],
      });
      const occurrences = await t.api.get(`/events/${series.id}/occurrences`, admin);
      assert.equal(occurrences.status, 200, occurrences.text);
      for (const id of [series.id, occurrences.json.events[1].id]) {
        const read = etagOf(await t.api.get(`/events/${id}`, admin));
        assert.equal(etagOf(await t.api.get(`/events/${id}`, admin)), read, 'a kept rendering keeps its ETag');
        assert.notEqual(etagOf(await t.api.get(`/events/${id}`)), read, 'the public is not shown the draft venue');
        await t.api.patch(`/categories/${parent.json.id}`, { name: `etag-parent-${id}` }, admin);
        const after = etagOf(await t.api.get(`/events/${id}`, admin));
        assert.notEqual(after, read, "a parent category's change moves the revisions of its children");
        const res = await t.api.patch(
          `/events/${id}`,
          { excerpt: 'Checked' },
          { ...admin, headers: { 'if-match': after } },
        );
        assert.equal(res.status, 200, res.text);
      }
    });

    it('If-Match not listing the current ETag is 412 with data.etag and changes nothing, by id and by slug', async () => {
      const { id, slug } = await createEvent(t.api, { title: 'Guarded' });
      const read = await t.api.get(`/events/${id}`);
      const etag = etagOf(read);
      for (const [path, header] of [
        [`/events/${id}`, '"stale"'],
        [`/events/by-slug/${slug}`, '"stale"'],
        [`/events/${id}`, `W/${etag}`],
      ]) {
        const res = await t.api.patch(
          path,
          { title: 'Lost update' },
          { as: 'administrator', headers: { 'if-match': header } },
        );
        assert.equal(res.status, 412, res.text);
        assert.equal(res.json.code, 'rest_precondition_failed');
        assert.equal(res.json.message, 'The item has changed since you last read it.');
        assert.deepEqual(res.json.data, { status: 412, etag });
      }
      const del = await t.api.delete(`/events/${id}`, { as: 'administrator', headers: { 'if-match': '"stale"' } });
      assert.equal(del.status, 412);
      const after = await t.api.get(`/events/${id}`);
      assert.equal(after.json.title, 'Guarded');
      assert.equal(after.json.status, 'publish');
      assert.equal(etagOf(after), etag);
      const ok = await t.api.patch(
        `/events/${id}`,
        { title: 'Saved' },
        { as: 'administrator', headers: { 'if-match': etag } },
      );
      assert.equal(ok.status, 200);
      assert.notEqual(etagOf(ok), etag);
      const star = await t.api.patch(
        `/events/${id}`,
        { title: 'Star' },
        { as: 'administrator', headers: { 'if-match': '*' } },
      );
      assert.equal(star.status, 200);
    });

    it('If-Match is checked after validation and permissions, and If-Unmodified-Since without it', async () => {
      const { id } = await createEvent(t.api);
      const stale = { 'if-match': '"stale"' };
      assert.equal(
        (await t.api.patch(`/events/${id}`, { title: '' }, { as: 'administrator', headers: stale })).status,
        400,
      );
      assert.equal((await t.api.patch(`/events/${id}`, { title: 'x' }, { headers: stale })).status, 401);
      assert.equal(
        (await t.api.patch('/events/999999', { title: 'x' }, { as: 'administrator', headers: stale })).status,
        404,
      );
      const past = new Date(t.api.now.getTime() - 3_600_000).toUTCString();
      const res = await t.api.patch(
        `/events/${id}`,
        { title: 'x' },
        { as: 'administrator', headers: { 'if-unmodified-since': past } },
      );
      assert.equal(res.status, 412);
      const now = new Date(t.api.now.getTime() + 1000).toUTCString();
      const fine = await t.api.patch(
        `/events/${id}`,
        { title: 'y' },
        { as: 'administrator', headers: { 'if-unmodified-since': now } },
      );
      assert.equal(fine.status, 200);
    });

    it('venues, organizers, categories and tags: 304 on a match, 412 on a stale If-Match', async () => {
      const venue = await t.api.post('/venues', { venue: 'Guarded Hall' }, { as: 'administrator' });
      const organizer = await t.api.post('/organizers', { organizer: 'Guarded Org' }, { as: 'administrator' });
      const category = await t.api.post('/categories', { name: 'Guarded cat' }, { as: 'administrator' });
      const tag = await t.api.post('/tags', { name: 'Guarded tag' }, { as: 'administrator' });
      for (const [path, body] of [
        [`/venues/${venue.json.id}`, { venue: 'Renamed' }],
        [`/venues/by-slug/${venue.json.slug}`, { venue: 'Renamed' }],
        [`/organizers/${organizer.json.id}`, { organizer: 'Renamed' }],
        [`/categories/${category.json.id}`, { name: 'Renamed' }],
        [`/tags/${tag.json.id}`, { name: 'Renamed' }],
      ] as const) {
        const read = await t.api.get(path);
        assert.equal(read.status, 200, path);
        assert.equal((await t.api.get(path, { headers: { 'if-none-match': etagOf(read) } })).status, 304, path);
        const stale = await t.api.patch(path, body, { as: 'administrator', headers: { 'if-match': '"stale"' } });
        assert.equal(stale.status, 412, path);
        assert.equal(stale.json.data.etag, etagOf(read));
        const deleted = await t.api.delete(path, { as: 'administrator', headers: { 'if-match': '"stale"' } });
        assert.equal(deleted.status, 412, path);
        const after = await t.api.get(path);
        assert.equal(etagOf(after), etagOf(read), `${path} unchanged`);
      }
    });
  });

  describe(`list ETags [${dialect}]`, () => {
    const t = useTestApp(dialect);

    it('lists carry an ETag of their body: 304 on a match, new when the body changes, per caller', async () => {
      await createEvent(t.api);
      await createEvent(t.api, { title: 'Hidden draft', status: 'draft' });
      for (const path of ['/events', '/venues', '/organizers', '/categories', '/tags']) {
        const list = await t.api.get(path);
        assert.equal(list.status, 200, path);
        assert.match(etagOf(list), /^"[A-Za-z0-9_-]+"$/, path);
        const again = await t.api.get(path, { headers: { 'if-none-match': etagOf(list) } });
        assert.equal(again.status, 304, path);
        assert.equal(again.text, '');
      }
      const anonymous = await t.api.get('/events');
      const editor = await t.api.get('/events', { as: 'editor' });
      assert.notEqual(editor.json.total, anonymous.json.total);
      assert.notEqual(etagOf(editor), etagOf(anonymous));
      await createEvent(t.api, { title: 'One more' });
      const changed = await t.api.get('/events', { headers: { 'if-none-match': etagOf(anonymous) } });
      assert.equal(changed.status, 200);
      assert.notEqual(etagOf(changed), etagOf(anonymous));
    });

    it('editing a listed item changes the list ETag, and the same body always has the same ETag', async () => {
      const event = await createEvent(t.api, { title: 'Listed' });
      const venue = await t.api.post('/venues', { venue: 'Listed Hall' }, { as: 'administrator' });
      for (const [path, item, body] of [
        ['/events', `/events/${event.id}`, { title: 'Listed, renamed' }],
        ['/venues', `/venues/${venue.json.id}`, { venue: 'Listed Hall, renamed' }],
      ] as const) {
        const before = await t.api.get(path);
        assert.equal(etagOf(await t.api.get(path)), etagOf(before), `${path}: read twice`);
        assert.equal((await t.api.patch(item, body, { as: 'administrator' })).status, 200);
        const after = await t.api.get(path, { headers: { 'if-none-match': etagOf(before) } });
        assert.equal(after.status, 200, path);
        assert.equal(after.json.total, before.json.total);
        assert.notEqual(etagOf(after), etagOf(before), path);
        assert.equal(etagOf(await t.api.get(path)), etagOf(after), `${path}: read again`);
      }
    });

    it('a compressed response repeats the uncompressed ETag', async () => {
      for (let i = 0; i < 8; i++)
        await createEvent(t.api, { title: `Compressible ${i}`, description: 'x'.repeat(300) });
      const plain = await t.api.get('/events');
      const gzip = await t.api.get('/events', { headers: { 'accept-encoding': 'gzip' } });
      assert.equal(gzip.headers['content-encoding'], 'gzip');
      assert.equal(etagOf(gzip), etagOf(plain));
      const conditional = await t.api.get('/events', {
        headers: { 'accept-encoding': 'gzip', 'if-none-match': etagOf(plain) },
      });
      assert.equal(conditional.status, 304);
    });
  });
}
