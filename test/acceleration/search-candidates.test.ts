import assert from 'node:assert/strict';
import type { KyselyPlugin } from 'kysely';
import { before, describe, it } from 'node:test';
import type { Query } from '../helpers/fixtures.js';
import { testDialects } from '../helpers/databases.js';
import { candidatesOf, useTestApp, type TestApi, type Who } from '../helpers/app.js';
import { createEventId, createTermId, insertEvent } from '../helpers/factories.js';
import { postgresDataVersion } from '../../src/changes/data-version.js';
import { connect } from '../../src/db/connect.js';
import { refreshSearchDocument } from '../../src/modules/events/events.repository.js';
import { EventCandidates, type CandidateQuery } from '../../src/modules/events/search/candidates.js';

// Public searches narrowed in memory (src/modules/events/search/candidates.ts) must answer exactly
// what the plain query answers (API.md §10, §18): same events, order and totals, and never a stale one.

/** Lists the query's ids and total; the snapshot of the current data is made ready first. */
async function search(api: TestApi, query: Query, as: Who = 'anonymous'): Promise<{ ids: number[]; total: number }> {
  const candidates = candidatesOf(api.app);
  const version = await api.app.calendar.version.current();
  await candidates.prepare(version);
  assert.ok(
    await candidates.find(version, { termSets: [], words: [], excluded: [], complete: true }),
    'a snapshot of the current data is in use',
  );
  const res = await api.get('/events', { query: { per_page: 50, ...query }, as });
  assert.equal(res.status, 200, res.text);
  return { ids: res.json.events.map((e: { id: number }) => e.id), total: res.json.total };
}

/** A Kysely plugin that runs `then` once, when a query's first row has `column`, before that query's result is handed on. */
function afterFirstRead(column: string, then: () => Promise<void>): KyselyPlugin {
  let done = false;
  return {
    transformQuery: (args) => args.node,
    transformResult: async (args) => {
      const [first] = args.result.rows as Record<string, unknown>[];
      if (!done && first && column in first) {
        done = true;
        await then();
      }
      return args.result;
    },
  };
}

for (const dialect of await testDialects()) {
  describe(`GET /events search narrowed in memory [${dialect}]`, () => {
    const t = useTestApp(dialect);
    const e: Record<string, number> = {};
    const cat: Record<string, number> = {};
    let outdoor = 0;
    const slot = (day: string, hours = 2) => ({
      start_date: `${day} 19:00:00`,
      end_date: `${day} ${19 + hours}:00:00`,
      timezone: 'UTC',
    });

    before(async () => {
      await t.api.clearContent();
      cat.music = await createTermId(t.api, 'categories', { name: 'Music' }, 'editor');
      cat.jazz = await createTermId(t.api, 'categories', { name: 'Jazz', parent: cat.music }, 'editor');
      cat.sports = await createTermId(t.api, 'categories', { name: 'Sports' }, 'editor');
      outdoor = await createTermId(t.api, 'tags', { name: 'Outdoor' }, 'editor');
      const event = async (key: string, body: Record<string, unknown>) => {
        e[key] = await createEventId(t.api, { status: 'publish', ...body }, 'editor');
      };
      await event('title', { title: 'Jazz night', categories: [cat.jazz], ...slot('2027-01-10') });
      await event('description', {
        title: 'Piano evening',
        description: '<p>Smooth jazz trio</p>',
        categories: [cat.music],
        ...slot('2027-01-20'),
      });
      await event('otherCategory', { title: 'Jazz run', categories: [cat.sports], ...slot('2027-01-15') });
      await event('later', { title: 'Jazz brunch', categories: [cat.jazz], ...slot('2027-03-10') });
      await event('draft', { title: 'Jazz rehearsal', status: 'draft', categories: [cat.jazz], ...slot('2027-01-11') });
      await event('hidden', {
        title: 'Jazz backstage',
        hide_from_listings: true,
        categories: [cat.jazz],
        ...slot('2027-01-12'),
      });
      await event('locked', {
        title: 'Quiet evening',
        description: 'Jazz inside',
        password: 'pw',
        categories: [cat.jazz],
        ...slot('2027-01-13'),
      });
      await event('tagged', { title: 'Jazz outdoors', categories: [cat.jazz], tags: [outdoor], ...slot('2027-01-25') });
      await event('plain', {
        title: 'Blues',
        description: 'Guitars only',
        categories: [cat.jazz],
        ...slot('2027-01-26'),
      });
      await event('allDay', {
        title: 'Jazz day',
        all_day: true,
        categories: [cat.jazz],
        start_date: '2027-01-31 00:00:00',
        end_date: '2027-01-31 23:59:59',
      });
      await event('spanning', {
        title: 'Jazz marathon',
        categories: [cat.jazz],
        start_date: '2027-01-30 10:00:00',
        end_date: '2027-02-02 10:00:00',
        timezone: 'UTC',
      });
    });

    const january = { start_date: '2027-01-01', end_date: '2027-01-31' };

    /** A snapshot in use, then this process retitles an event: returns the data version after the write. */
    async function retitledAfterSnapshot(id: number, title: string): Promise<string> {
      await search(t.api, { search: 'jazz', ...january });
      const patched = await t.api.patch(`/events/${id}`, { title }, { as: 'editor' });
      assert.equal(patched.status, 200, patched.text);
      return t.api.app.calendar.version.current();
    }

    it('a word, a parent category and a window: descendants, description text, end bounds', async () => {
      assert.deepEqual(await search(t.api, { search: 'jazz', categories: 'music', ...january }), {
        ids: [e.title, e.description, e.tagged, e.allDay],
        total: 4,
      });
    });

    it('tags, exclusions, phrases and a word that matches nothing', async () => {
      assert.deepEqual(
        (await search(t.api, { search: 'jazz', categories: 'music', tags: 'outdoor', ...january })).ids,
        [e.tagged],
      );
      assert.deepEqual((await search(t.api, { search: 'jazz -night', categories: 'music', ...january })).ids, [
        e.description,
        e.tagged,
        e.allDay,
      ]);
      assert.deepEqual((await search(t.api, { search: '"smooth jazz"', ...january })).ids, [e.description]);
      assert.deepEqual(await search(t.api, { search: 'saxophone', ...january }), { ids: [], total: 0 });
    });

    it('short words, which the word index cannot narrow, still match exactly', async () => {
      assert.deepEqual((await search(t.api, { search: 'ja', categories: 'jazz', ...january })).ids, [
        e.title,
        e.tagged,
        e.allDay,
      ]);
    });

    it('protected text is searched only with the password; drafts and hidden events never show', async () => {
      assert.deepEqual((await search(t.api, { search: 'inside', ...january })).ids, []);
      assert.deepEqual((await search(t.api, { search: 'inside', password: 'pw', ...january })).ids, [e.locked]);
      const all = await search(t.api, { search: 'jazz', start_date: '2027-01-01', end_date: '2027-12-31' });
      assert.deepEqual(all.ids, [e.title, e.otherCategory, e.description, e.tagged, e.spanning, e.allDay, e.later]);
    });

    it('relative bounds: starts_after, starts_before, ends_before, ends_after', async () => {
      assert.deepEqual(
        (await search(t.api, { search: 'jazz', starts_after: '2027-01-20', starts_before: '2027-01-31' })).ids,
        [e.tagged, e.spanning, e.allDay],
      );
      assert.deepEqual(
        (await search(t.api, { search: 'jazz', ends_before: '2027-01-15', ends_after: '2027-01-01' })).ids,
        [e.title, e.otherCategory],
      );
    });

    it('plain events are known to match from memory; protected, translated and non-ASCII ones are checked', async () => {
      const cafe = await createEventId(
        t.api,
        { title: 'Café jazz', status: 'publish', categories: [cat.jazz], ...slot('2027-01-14') },
        'editor',
      );
      const translated = await createEventId(
        t.api,
        { title: 'Jazz matinee', status: 'publish', categories: [cat.jazz], ...slot('2027-01-16') },
        'editor',
      );
      const french = await t.api.patch(
        `/fr/calendar/events/v1/events/${translated}`,
        { title: 'Matinée de jazz' },
        { as: 'editor', raw: true },
      );
      assert.equal(french.status, 200, french.text);
      const version = await t.api.app.calendar.version.current();
      await candidatesOf(t.api.app).prepare(version);
      const found = await candidatesOf(t.api.app).find(version, {
        startMin: Date.parse('2027-01-01T00:00:00Z') / 1000,
        endMax: Date.parse('2027-01-31T23:59:59Z') / 1000,
        termSets: [],
        words: ['jazz'],
        excluded: [],
        complete: true,
      });
      assert.ok(found);
      assert.deepEqual(found.matching.ids, [e.title, e.otherCategory, e.description, e.tagged, e.allDay]);
      assert.deepEqual(
        [...found.unsure].sort((a, b) => a - b),
        [e.locked, cafe, translated].sort((a, b) => a - b),
      );
      assert.deepEqual((await search(t.api, { search: 'jazz', categories: 'jazz', ...january })).ids, [
        e.title,
        cafe,
        translated,
        e.tagged,
        e.allDay,
      ]);
      assert.deepEqual((await search(t.api, { search: 'jazz', categories: 'jazz', password: 'pw', ...january })).ids, [
        e.title,
        e.locked,
        cafe,
        translated,
        e.tagged,
        e.allDay,
      ]);
      assert.deepEqual((await search(t.api, { search: 'matinée', i18n_language: 'fr', ...january })).ids, [translated]);
      for (const id of [cafe, translated])
        assert.equal((await t.api.delete(`/events/${id}`, { query: { force: true }, as: 'editor' })).status, 200);
    });

    it('for anonymous readers a protected event is decided in memory by its plain title; translated or non-ASCII ones are checked', async () => {
      const accented = await createEventId(
        t.api,
        {
          title: 'Jazz à minuit',
          description: 'Jazz',
          password: 'pw',
          status: 'publish',
          categories: [cat.jazz],
          ...slot('2027-01-17'),
        },
        'editor',
      );
      const lockedTranslated = await createEventId(
        t.api,
        { title: 'Jazz lesson', password: 'pw', status: 'publish', categories: [cat.jazz], ...slot('2027-01-18') },
        'editor',
      );
      const french = await t.api.patch(
        `/fr/calendar/events/v1/events/${lockedTranslated}`,
        { title: 'Leçon de jazz' },
        { as: 'editor', raw: true },
      );
      assert.equal(french.status, 200, french.text);
      // A write from another connection sets the snapshot aside: the next one is built with these events in it, not journaled.
      const other = connect(t.api.config.databaseUrl);
      try {
        await other.db.updateTable('posts').set({ modified_at: 1 }).where('id', '=', accented).execute();
        if (dialect === 'postgres') await postgresDataVersion(other.db).bump();
      } finally {
        await other.close();
      }
      const version = await t.api.app.calendar.version.current();
      await candidatesOf(t.api.app).prepare(version);
      const window = {
        startMin: Date.parse('2027-01-01T00:00:00Z') / 1000,
        endMax: Date.parse('2027-01-31T23:59:59Z') / 1000,
        termSets: [],
        complete: true,
        lockedTitleOnly: true,
      };
      const find = (words: string[], excluded: string[] = []) =>
        candidatesOf(t.api.app).find(version, { ...window, words, excluded });
      const inside = await find(['inside']);
      assert.ok(inside);
      assert.deepEqual(
        [inside.matching.ids, inside.unsure],
        [[], []],
        'the locked event is known not to match its hidden description',
      );
      const quiet = await find(['quiet']);
      assert.deepEqual([quiet?.matching.ids, quiet?.unsure], [[e.locked], []], 'its title matches from memory');
      const excluded = await find(['quiet'], ['evening']);
      assert.deepEqual([excluded?.matching.ids, excluded?.unsure], [[], []]);
      const jazz = await find(['jazz']);
      assert.deepEqual(
        [...(jazz?.unsure ?? [])].sort((a, b) => a - b),
        [accented, lockedTranslated].sort((a, b) => a - b),
      );
      assert.ok(!jazz?.matching.ids.includes(e.locked));
      // Over HTTP, anonymous readers get the same as the exact query; the password unlocks the description.
      assert.deepEqual((await search(t.api, { search: 'quiet', ...january })).ids, [e.locked]);
      assert.deepEqual((await search(t.api, { search: 'quiet -evening', ...january })).ids, []);
      assert.deepEqual((await search(t.api, { search: 'jazz', categories: 'jazz', ...january })).ids, [
        e.title,
        accented,
        lockedTranslated,
        e.tagged,
        e.allDay,
      ]);
      assert.deepEqual((await search(t.api, { search: 'inside', ...january })).ids, []);
      assert.deepEqual((await search(t.api, { search: 'inside', ...january }, 'editor')).ids, [e.locked]);
      for (const id of [accented, lockedTranslated])
        assert.equal((await t.api.delete(`/events/${id}`, { query: { force: true }, as: 'editor' })).status, 200);
    });

    it("this process's writes show at once while the snapshot stays in use", async () => {
      const candidates = candidatesOf(t.api.app);
      const version = await retitledAfterSnapshot(e.plain, 'Blues and jazz');
      const query = { termSets: [], words: ['blues'], excluded: [], complete: true };
      const found = await candidates.find(version, query);
      assert.ok(
        found?.matching.ids.includes(e.plain) && !found.unsure.includes(e.plain),
        'a changed event whose search document answers the word alone is judged by its new text in memory',
      );
      const without = await candidates.find(version, { ...query, words: ['zzz-no-such-word'] });
      assert.ok(
        without && !without.matching.ids.includes(e.plain) && !without.unsure.includes(e.plain),
        'and left out when its new text lacks the word',
      );
      const excluding = await candidates.find(version, { ...query, excluded: ['jazz'] });
      assert.ok(
        excluding && !excluding.matching.ids.includes(e.plain) && !excluding.unsure.includes(e.plain),
        'or has a word left out',
      );
      const vague = await candidates.find(version, { ...query, words: ['zzz-no-such-word'], complete: false });
      assert.ok(vague?.unsure.includes(e.plain), 'a changed event whose words cannot be told in memory is checked');
      const added = await createEventId(
        t.api,
        { title: 'Late jazz', status: 'publish', categories: [cat.jazz], ...slot('2027-01-27') },
        'editor',
      );
      // Written after the others but listed first: written events known to match go in list order.
      const early = await createEventId(
        t.api,
        { title: 'Early jazz', status: 'publish', categories: [cat.jazz], ...slot('2027-01-05') },
        'editor',
      );
      const fresh = await t.api.get('/events', { query: { search: 'jazz', categories: 'jazz', ...january } });
      assert.deepEqual(
        fresh.json.events.map((event: { id: number }) => event.id),
        [early, e.title, e.tagged, e.plain, added, e.allDay],
      );
      const trashed = await t.api.delete(`/events/${e.tagged}`, { as: 'editor' });
      assert.equal(trashed.status, 200, trashed.text);
      assert.deepEqual(
        (await search(t.api, { search: 'jazz', categories: 'jazz', start_date: '2027-01-03', end_date: '2027-01-31' }))
          .ids,
        [early, e.title, e.plain, added, e.allDay],
      );
      const deleted = await t.api.delete(`/events/${early}`, { query: { force: true }, as: 'editor' });
      assert.equal(deleted.status, 200, deleted.text);
    });

    it('events this process wrote are judged by their keys and terms in memory: only those that fit are checked', async () => {
      const candidates = candidatesOf(t.api.app);
      await retitledAfterSnapshot(e.plain, 'Blues, jazz and more');
      for (const id of [e.later, e.otherCategory, e.draft])
        assert.equal((await t.api.patch(`/events/${id}`, { excerpt: 'Rewritten' }, { as: 'editor' })).status, 200);
      const version = await t.api.app.calendar.version.current();
      const inJanuary = {
        startMin: Date.parse('2027-01-01T00:00:00Z') / 1000,
        endMax: Date.parse('2027-01-31T23:59:59Z') / 1000,
      };
      const written = [e.plain, e.later, e.otherCategory, e.draft];
      const unsure = async (query: Partial<CandidateQuery>) => {
        // Not complete: the words are left to the exact query, so every written event that fits is checked.
        const found = await candidates.find(version, {
          termSets: [],
          words: ['jazz'],
          excluded: [],
          complete: false,
          ...query,
        });
        assert.ok(found);
        return found.unsure.filter((id) => written.includes(id)).sort((a, b) => a - b);
      };
      assert.deepEqual(
        await unsure({ ...inJanuary, termSets: [[cat.music, cat.jazz]] }),
        [e.plain],
        'outside the window, in another category or a draft: left out',
      );
      assert.deepEqual(
        await unsure({}),
        [e.otherCategory, e.plain, e.later].sort((a, b) => a - b),
        'a draft is never listed',
      );
      assert.deepEqual(
        await unsure({
          startMin: Date.parse('2027-02-01T00:00:00Z') / 1000,
          endMax: Date.parse('2027-04-30T23:59:59Z') / 1000,
          termSets: [[cat.music, cat.jazz]],
        }),
        [e.later],
        'one that starts before the window: left out',
      );
      const [lateJazz] = (await search(t.api, { search: 'late', ...january })).ids;
      assert.deepEqual((await search(t.api, { search: 'jazz', categories: 'music', ...january })).ids, [
        e.title,
        e.description,
        e.plain,
        lateJazz,
        e.allDay,
      ]);
    });

    it('a snapshot is rebuilt in the background once the events written since are many', async () => {
      const { db, version: versions } = t.api.app.calendar;
      const candidates = new EventCandidates(db, versions, (error) => assert.fail(String(error)), { maxRecent: 1 });
      await candidates.prepare(await versions.current());
      for (const [id, title] of [
        [e.plain, 'Blues with jazz'],
        [e.title, 'Jazz night again'],
      ] as const) {
        assert.equal((await t.api.patch(`/events/${id}`, { title }, { as: 'editor' })).status, 200);
        candidates.changed(id);
      }
      const version = await versions.current();
      // Not complete, so a written event that fits is checked whatever its words; a snapshot's word sets leave it out.
      const query = { termSets: [], words: ['zzz-no-such-word'], excluded: [], complete: false };
      assert.ok(
        (await candidates.find(version, query))?.unsure.includes(e.plain),
        'checked while only journaled; two written events start a rebuild',
      );
      await candidates.prepare(version);
      const found = await candidates.find(version, query);
      assert.ok(found && !found.unsure.includes(e.plain), 'left out by the new snapshot');
    });

    it("another process's write shows at once: the snapshot is set aside until rebuilt", async () => {
      const version = await t.api.app.calendar.version.current();
      await candidatesOf(t.api.app).prepare(version);
      const other = connect(t.api.config.databaseUrl);
      try {
        const id = await insertEvent(other.db, {
          start: Date.parse('2027-01-28T19:00:00Z') / 1000,
          termIds: [cat.jazz],
        });
        await other.db.updateTable('posts').set({ title: 'Jazz from elsewhere' }).where('id', '=', id).execute();
        await refreshSearchDocument(other.db, id);
        if (dialect === 'postgres') await postgresDataVersion(other.db).bump();
        const listed = await t.api.get('/events', { query: { search: 'elsewhere', categories: 'music', ...january } });
        assert.deepEqual(
          listed.json.events.map((event: { id: number }) => event.id),
          [id],
        );
        assert.equal(
          await candidatesOf(t.api.app).find(await t.api.app.calendar.version.current(), {
            termSets: [],
            words: [],
            excluded: [],
            complete: true,
          }),
          undefined,
        );
        assert.deepEqual((await search(t.api, { search: 'elsewhere', categories: 'jazz', ...january })).ids, [id]);
      } finally {
        await other.close();
      }
    });

    it('lists without words are counted in memory, with the events this process wrote since', async () => {
      const candidates = candidatesOf(t.api.app);
      const queries: Query[] = [
        january,
        { ...january, categories: 'music' },
        { ...january, tags: 'outdoor' },
        { starts_after: '2027-01-12', ends_before: '2027-02-01' },
        {},
      ];
      /** With a snapshot in use, each query's page of ids (read in SQL) and its total, which must agree. */
      const listed = async () => {
        const version = await t.api.app.calendar.version.current();
        assert.ok(
          await candidates.count(version, { termSets: [], words: [], excluded: [], complete: true }),
          'a snapshot is in use',
        );
        const pages = [];
        for (const query of queries) {
          const res = await t.api.get('/events', { query: { per_page: 50, ...query } });
          assert.equal(res.status, 200, res.text);
          const ids = res.json.events.map((event: { id: number }) => event.id) as number[];
          assert.equal(res.json.total, ids.length, JSON.stringify(query));
          pages.push(ids);
        }
        return pages;
      };
      await candidates.prepare(await t.api.app.calendar.version.current());
      const [inJanuary] = await listed();
      assert.ok(inJanuary.length >= 3);
      const [hidden, moved] = inJanuary;
      const added = await createEventId(
        t.api,
        { title: 'Counted later', status: 'publish', categories: [cat.jazz], tags: [outdoor], ...slot('2027-01-29') },
        'editor',
      );
      assert.equal(
        (await t.api.patch(`/events/${hidden}`, { hide_from_listings: true }, { as: 'editor' })).status,
        200,
      );
      assert.equal((await t.api.patch(`/events/${moved}`, slot('2027-03-20'), { as: 'editor' })).status, 200);
      const [january2, music, tagged, relative] = await listed();
      const byId = (ids: number[]) => [...ids].sort((a, b) => a - b);
      assert.deepEqual(byId(january2), byId([...inJanuary.filter((id) => id !== hidden && id !== moved), added]));
      assert.ok(music.includes(added) && tagged.includes(added) && relative.includes(added));
      for (const ids of [music, tagged, relative]) assert.ok(!ids.includes(hidden) && !ids.includes(moved));
    });

    it('an event written while a snapshot is being built is checked against its new state once that snapshot is in use', async () => {
      const { db, version: versions } = t.api.app.calendar;
      const moving = await createEventId(
        t.api,
        { title: 'Jazz quartet', status: 'publish', categories: [cat.jazz], ...slot('2027-01-05') },
        'editor',
      );
      const version = await versions.current();
      const march = Date.parse('2027-03-05T19:00:00Z') / 1000;
      const other = connect(t.api.config.databaseUrl);
      try {
        const candidates = new EventCandidates(
          db.withPlugin(
            afterFirstRead('end_key', async () => {
              // The build has read every event's keys: this move reaches it only through the write's record.
              // (Another connection: the build's own is busy until this returns.)
              await other.db
                .updateTable('events')
                .set({ start_key: march, end_key: march + 7200 })
                .where('post_id', '=', moving)
                .execute();
              candidates.changed(moving);
            }),
          ),
          versions,
          (error) => assert.fail(String(error)),
        );
        await candidates.prepare(version);
        const inJanuary = {
          startMin: Date.parse('2027-01-01T00:00:00Z') / 1000,
          endMax: Date.parse('2027-01-31T23:59:59Z') / 1000,
        };
        // Asked at the build's version: only what this process recorded can tell the snapshot is out of date.
        const found = await candidates.find(version, {
          ...inJanuary,
          termSets: [],
          words: ['jazz'],
          excluded: [],
          complete: true,
        });
        assert.ok(found, 'the snapshot is in use');
        assert.ok(found.matching.ids.includes(e.description), 'the other events are known from it');
        assert.ok(
          !found.matching.ids.includes(moving) && !found.unsure.includes(moving),
          'moved out of January, it is not a candidate there',
        );
      } finally {
        await other.close();
      }
    });

    it('term ids beyond 16 bits are told apart in the snapshot (term links are kept in 16 bits only when every id fits)', async () => {
      const wideId = 70_000;
      const wide = await createTermId(t.api, 'categories', { name: 'Wide' }, 'editor');
      const other = connect(t.api.config.databaseUrl);
      try {
        await other.db.updateTable('terms').set({ id: wideId }).where('id', '=', wide).execute();
        if (dialect === 'postgres') await postgresDataVersion(other.db).bump();
        const concert = await createEventId(
          t.api,
          { title: 'Wide concert', status: 'publish', categories: [wideId], ...slot('2027-06-10') },
          'editor',
        );
        // Written by another connection too, so that the next snapshot is built with both events in it, not journaled.
        await other.db.updateTable('posts').set({ modified_at: 1 }).where('id', '=', concert).execute();
        if (dialect === 'postgres') await postgresDataVersion(other.db).bump();
        assert.deepEqual(
          (
            await search(t.api, {
              search: 'concert',
              categories: 'wide',
              start_date: '2027-06-01',
              end_date: '2027-06-30',
            })
          ).ids,
          [concert],
        );
      } finally {
        await other.close();
      }
    });

    it('a word only in a translation: kept searches in its language take the event in once it has the word, and out once not', async () => {
      const id = await createEventId(
        t.api,
        { title: 'Quiet evening', status: 'publish', categories: [cat.jazz], ...slot('2027-03-10') },
        'editor',
      );
      // Searches match in the request's language (API.md §15).
      const query = { search: 'zebrafish', i18n_language: 'fr', start_date: '2027-03-01', end_date: '2027-03-31' };
      const idsFound = async () => {
        const res = await t.api.get('/events', { query });
        assert.equal(res.status, 200, res.text);
        return { ids: res.json.events.map((event: { id: number }) => event.id), total: res.json.total };
      };
      // Read twice, so that both the kept list and the cached response hold the search before the writes.
      for (let round = 0; round < 2; round++) assert.deepEqual(await idsFound(), { ids: [], total: 0 });
      const translate = async (description: string) => {
        const res = await t.api.patch(`/events/${id}`, { description, i18n_language: 'fr' }, { as: 'editor' });
        assert.equal(res.status, 200, res.text);
      };
      await translate('Un zebrafish dans la soirée');
      assert.deepEqual(await idsFound(), { ids: [id], total: 1 });
      await translate('Une soirée calme');
      assert.deepEqual(await idsFound(), { ids: [], total: 0 });
    });
  });
}
