import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { ids, list, listIds } from '../helpers/fixtures.js';
import { testDialects } from '../helpers/databases.js';
import { useTestApp, type TestApi, type TestResponse } from '../helpers/app.js';
import { createEventId, createEventIds, createOrganizerId, createTermId, createVenueId } from '../helpers/factories.js';

// GET /events filters (API.md §6, §9, §10, §14, §17, §18; tec-tests.md EA-18/20-22, EAU-13..24, EC, ET, EV, EO, EF, EI, EP).

const API = 'http://127.0.0.1:8080/calendar/events/v1';

function assertInvalid(res: TestResponse, param: string): void {
  assert.equal(res.status, 400, res.text);
  assert.equal(res.json.code, 'rest_invalid_param');
  assert.equal(res.json.message, `Invalid parameter(s): ${param}`);
  assert.equal(res.json.data.status, 400);
  assert.deepEqual(Object.keys(res.json.data.params), [param]);
}

function assertEmpty(res: TestResponse): void {
  assert.equal(res.status, 200, res.text);
  assert.deepEqual(res.json.events, []);
  assert.equal(res.json.total, 0);
  assert.equal(res.json.total_pages, 0);
  assert.equal(res.headers['x-tec-total'], '0');
  assert.equal(res.json.next_rest_url, undefined);
  assert.equal(res.json.previous_rest_url, undefined);
}

for (const dialect of await testDialects()) {
  describe(`GET /events filters [${dialect}]`, () => {
    const t = useTestApp(dialect);
    beforeEach(() => t.api.clearContent());

    describe('search', () => {
      it('EA-18: every word must occur; foo / bar / foo bar', async () => {
        const foo = await createEventIds(t.api, 5, { title: 'foo' }, 'editor');
        const fooBar = await createEventIds(t.api, 5, { title: 'foo bar' }, 'editor');
        const bar = await createEventIds(t.api, 5, { title: 'bar' }, 'editor');
        const byFoo = await list(t.api, '/events', { search: 'foo', per_page: 20 });
        assert.deepEqual(ids(byFoo), [...foo, ...fooBar]);
        assert.equal(byFoo.json.total, 10);
        assert.deepEqual(await listIds(t.api, '/events', { search: 'bar', per_page: 20 }), [...fooBar, ...bar]);
        assert.deepEqual(await listIds(t.api, '/events', { search: 'foo bar', per_page: 20 }), fooBar);
        assert.deepEqual(await listIds(t.api, '/events', { search: 'bar foo', per_page: 20 }), fooBar);
        assert.match(byFoo.json.rest_url, /&search=foo&/);
      });

      it('quoted phrases, -word exclusion, case-insensitivity', async () => {
        const pie = await createEventId(t.api, { title: 'Red apple pie contest' }, 'editor');
        const reversed = await createEventId(t.api, { title: 'Apple tasting, red and green' }, 'editor');
        const jazz = await createEventId(t.api, { title: 'Jazz Night' }, 'editor');
        assert.deepEqual(await listIds(t.api, '/events', { search: 'red apple' }), [pie, reversed]);
        assert.deepEqual(await listIds(t.api, '/events', { search: '"red apple"' }), [pie]);
        assert.deepEqual(await listIds(t.api, '/events', { search: '"apple pie" contest' }), [pie]);
        assert.deepEqual(await listIds(t.api, '/events', { search: 'apple -pie' }), [reversed]);
        assert.deepEqual(await listIds(t.api, '/events', { search: '-apple' }), [jazz]);
        assert.deepEqual(await listIds(t.api, '/events', { search: 'JAZZ night' }), [jazz]);
        assert.deepEqual(await listIds(t.api, '/events', { search: 'jAzZ' }), [jazz]);
        assert.deepEqual(await listIds(t.api, '/events', { search: 'jazz -NIGHT' }), []);
        assertInvalid(await t.api.get('/events', { query: { search: '' } }), 'search');
      });

      it('LIKE wildcards in the search are literal characters', async () => {
        const percent = await createEventId(t.api, { title: 'A 100% fun evening' }, 'editor');
        const underscore = await createEventId(t.api, { title: 'Workshop A_B' }, 'editor');
        const plain = await createEventId(t.api, { title: 'Workshop AxB 1000 fun' }, 'editor');
        assert.deepEqual(await listIds(t.api, '/events', { search: '100%' }), [percent]);
        assert.deepEqual(await listIds(t.api, '/events', { search: '%' }), [percent]);
        assert.deepEqual(await listIds(t.api, '/events', { search: 'a_b' }), [underscore]);
        assert.deepEqual(await listIds(t.api, '/events', { search: '1000' }), [plain]);
        assert.deepEqual(await listIds(t.api, '/events', { search: 'fun' }), [percent, plain]);
        assert.deepEqual(await listIds(t.api, '/events', { search: 'workshop -a_b' }), [plain]);
      });

      it('case-insensitive beyond ASCII', async () => {
        const fete = await createEventId(t.api, { title: 'Fête de la Musique' }, 'editor');
        const eclair = await createEventId(
          t.api,
          { title: 'Éclair tasting', description: 'Crème brûlée too' },
          'editor',
        );
        assert.deepEqual(await listIds(t.api, '/events', { search: 'fête' }), [fete]);
        assert.deepEqual(await listIds(t.api, '/events', { search: 'FÊTE' }), [fete]);
        assert.deepEqual(await listIds(t.api, '/events', { search: 'éclair' }), [eclair]);
        assert.deepEqual(await listIds(t.api, '/events', { search: 'CRÈME' }), [eclair]);
      });

      it('matches the excerpt and the description as well as the title', async () => {
        const byExcerpt = await createEventId(t.api, { title: 'Plain one', excerpt: 'Meet the Zebra herd' }, 'editor');
        const byDescription = await createEventId(
          t.api,
          { title: 'Plain two', description: '<p>A <strong>giraffe</strong> walks by</p>' },
          'editor',
        );
        const both = await createEventId(t.api, { title: 'Zebra and giraffe day' }, 'editor');
        assert.deepEqual(await listIds(t.api, '/events', { search: 'zebra' }), [byExcerpt, both]);
        assert.deepEqual(await listIds(t.api, '/events', { search: 'giraffe' }), [byDescription, both]);
        assert.deepEqual(await listIds(t.api, '/events', { search: 'plain -zebra' }), [byDescription]);
      });

      it('a password-protected event is found by its title, by its hidden text only when unlocked', async () => {
        const secret = await createEventId(
          t.api,
          { title: 'Secret gala', description: 'The hidden-ocelot show', excerpt: 'Velvet rope', password: 'pw' },
          'editor',
        );
        const open = await createEventId(t.api, { title: 'Open gala' }, 'editor');
        const byTitle = await list(t.api, '/events', { search: 'gala' });
        assert.deepEqual(ids(byTitle), [secret, open]);
        assert.equal(byTitle.json.events[0].description, '');
        assert.deepEqual(await listIds(t.api, '/events', { search: 'ocelot' }), []);
        assert.deepEqual(await listIds(t.api, '/events', { search: 'velvet' }), []);
        assert.deepEqual(await listIds(t.api, '/events', { search: 'ocelot', password: 'wrong' }), []);
        const unlocked = await list(t.api, '/events', { search: 'ocelot', password: 'pw' });
        assert.deepEqual(ids(unlocked), [secret]);
        assert.equal(unlocked.json.events[0].description, '<p>The hidden-ocelot show</p>');
        assert.deepEqual(await listIds(t.api, '/events', { search: 'velvet' }, 'editor'), [secret]);
      });

      it('-word hidden behind a password does not exclude the event for a locked caller (§18)', async () => {
        const secret = await createEventId(
          t.api,
          { title: 'Secret gala', description: 'The hidden-ocelot show', password: 'pw' },
          'editor',
        );
        const open = await createEventId(t.api, { title: 'Open gala' }, 'editor');
        assert.deepEqual(await listIds(t.api, '/events', { search: 'gala -ocelot', password: 'pw' }), [open]);
        assert.deepEqual(await listIds(t.api, '/events', { search: 'gala -ocelot' }, 'editor'), [open]);
        assert.deepEqual(await listIds(t.api, '/events', { search: 'gala -ocelot', password: 'wrong' }), [
          secret,
          open,
        ]);
        // Without any password parameter the result must be the same as with a wrong one.
        assert.deepEqual(await listIds(t.api, '/events', { search: 'gala -ocelot' }), [secret, open]);
        assert.deepEqual(await listIds(t.api, '/events', { search: '-ocelot' }), [secret, open]);
      });
    });

    describe('categories', () => {
      it('EAU-13/14, EC-03: by slug and by id', async () => {
        const cat1 = await createTermId(t.api, 'categories', { name: 'cat1' }, 'editor');
        await createEventIds(t.api, 3, { title: 'Plain' }, 'editor');
        const inCat = await createEventIds(t.api, 3, { title: 'In cat1', categories: [cat1] }, 'editor');
        const bySlug = await list(t.api, '/events', { categories: 'cat1' });
        assert.deepEqual(ids(bySlug), inCat);
        assert.equal(bySlug.json.total, 3);
        assert.match(bySlug.json.rest_url, /&categories=cat1&/);
        assert.deepEqual(await listIds(t.api, '/events', { categories: String(cat1) }), inCat);
        assert.deepEqual(await listIds(t.api, '/events', `categories[]=cat1`), inCat);
      });

      it('EC-05/06: arrays and CSV of slugs or ids', async () => {
        const cat1 = await createTermId(t.api, 'categories', { name: 'cat1' }, 'editor');
        const cat2 = await createTermId(t.api, 'categories', { name: 'cat2' }, 'editor');
        const one = await createEventIds(t.api, 2, { title: 'One', categories: [cat1] }, 'editor');
        const two = await createEventIds(t.api, 2, { title: 'Two', categories: [cat2] }, 'editor');
        await createEventIds(t.api, 2, { title: 'None' }, 'editor');
        assert.deepEqual(await listIds(t.api, '/events', 'categories[]=cat1&categories[]=cat2'), [...one, ...two]);
        assert.deepEqual(await listIds(t.api, '/events', { categories: `${cat1},${cat2}` }), [...one, ...two]);
        assert.deepEqual(await listIds(t.api, '/events', { categories: 'cat1,cat2' }), [...one, ...two]);
        assert.deepEqual(await listIds(t.api, '/events', { categories: [cat2] }), two);
      });

      it('EAU-15: OR semantics with mixed ids and slugs, without duplicates', async () => {
        const t1 = await createTermId(t.api, 'categories', { name: 'cat1' }, 'editor');
        const t2 = await createTermId(t.api, 'categories', { name: 'cat2' }, 'editor');
        const t3 = await createTermId(t.api, 'categories', { name: 'cat3' }, 'editor');
        await createEventIds(t.api, 3, { title: 'None' }, 'editor');
        const all3 = await createEventIds(t.api, 3, { title: 'All three', categories: [t1, t2, t3] }, 'editor');
        const two = await createEventIds(t.api, 3, { title: 'Two', categories: [t1, t2] }, 'editor');
        const one = await createEventIds(t.api, 3, { title: 'One', categories: [t1] }, 'editor');
        const res = await list(t.api, '/events', { categories: [t1, 'cat2', 'cat3'] });
        assert.equal(res.json.total, 9);
        assert.deepEqual(ids(res), [...all3, ...two, ...one]);
        assert.deepEqual(await listIds(t.api, '/events', { categories: 'cat3' }), all3);
        assert.deepEqual(await listIds(t.api, '/events', { categories: `cat2,${t3}` }), [...all3, ...two]);
      });

      it('a parent category includes its descendants', async () => {
        const arts = await createTermId(t.api, 'categories', { name: 'Arts' }, 'editor');
        const painting = await createTermId(t.api, 'categories', { name: 'Painting', parent: arts }, 'editor');
        const oils = await createTermId(t.api, 'categories', { name: 'Oils', parent: painting }, 'editor');
        const sculpture = await createTermId(t.api, 'categories', { name: 'Sculpture', parent: arts }, 'editor');
        const general = await createEventId(t.api, { title: 'General arts', categories: [arts] }, 'editor');
        const canvas = await createEventId(t.api, { title: 'Canvas', categories: [painting] }, 'editor');
        const oil = await createEventId(t.api, { title: 'Oil workshop', categories: [oils] }, 'editor');
        const stone = await createEventId(t.api, { title: 'Stone', categories: [sculpture] }, 'editor');
        await createEventId(t.api, { title: 'Unrelated' }, 'editor');
        assert.deepEqual(await listIds(t.api, '/events', { categories: 'arts' }), [general, canvas, oil, stone]);
        assert.deepEqual(await listIds(t.api, '/events', { categories: String(arts) }), [general, canvas, oil, stone]);
        assert.deepEqual(await listIds(t.api, '/events', { categories: 'painting' }), [canvas, oil]);
        assert.deepEqual(await listIds(t.api, '/events', { categories: 'oils' }), [oil]);
        assert.deepEqual(await listIds(t.api, '/events', { categories: 'painting,sculpture' }), [canvas, oil, stone]);
      });

      it('EC-01/02: an unknown category is 400 naming categories; an empty one is 200 and empty', async () => {
        assertInvalid(await t.api.get('/events?categories[]=cat1'), 'categories');
        const empty = await createTermId(t.api, 'categories', { name: 'empty' }, 'editor');
        await createEventId(t.api, { title: 'Somewhere else' }, 'editor');
        assertInvalid(await t.api.get('/events', { query: { categories: 'empty,nope' } }), 'categories');
        assertInvalid(await t.api.get('/events', { query: { categories: '999999' } }), 'categories');
        const tag = await createTermId(t.api, 'tags', { name: 'a-tag' }, 'editor');
        assertInvalid(await t.api.get('/events', { query: { categories: String(tag) } }), 'categories');
        assertInvalid(await t.api.get('/events', { query: { categories: 'a-tag' } }), 'categories');
        assertEmpty(await t.api.get('/events?categories[]=empty'));
        assertEmpty(await t.api.get('/events', { query: { categories: empty } }));
      });
    });

    describe('tags', () => {
      it('ET-03/05/06, EAU-17..19: by slug, id, array, CSV, OR without duplicates', async () => {
        const t1 = await createTermId(t.api, 'tags', { name: 'tag1' }, 'editor');
        const t2 = await createTermId(t.api, 'tags', { name: 'tag2' }, 'editor');
        const t3 = await createTermId(t.api, 'tags', { name: 'tag3' }, 'editor');
        await createEventIds(t.api, 2, { title: 'None' }, 'editor');
        const all3 = await createEventIds(t.api, 2, { title: 'All three', tags: [t1, t2, t3] }, 'editor');
        const two = await createEventIds(t.api, 2, { title: 'Two', tags: [t1, t2] }, 'editor');
        const one = await createEventIds(t.api, 2, { title: 'One', tags: [t1] }, 'editor');
        const only2 = await createEventIds(t.api, 2, { title: 'Only two', tags: [t2] }, 'editor');
        const bySlug = await list(t.api, '/events', { tags: 'tag1' });
        assert.deepEqual(ids(bySlug), [...all3, ...two, ...one]);
        assert.match(bySlug.json.rest_url, /&tags=tag1&/);
        assert.deepEqual(await listIds(t.api, '/events', { tags: String(t1) }), [...all3, ...two, ...one]);
        assert.deepEqual(await listIds(t.api, '/events', 'tags[]=tag2&tags[]=tag3'), [...all3, ...two, ...only2]);
        assert.deepEqual(await listIds(t.api, '/events', { tags: `${t2},${t3}` }), [...all3, ...two, ...only2]);
        const mixed = await list(t.api, '/events', { tags: [t1, 'tag2', 'tag3'] });
        assert.equal(mixed.json.total, 8);
        assert.deepEqual(ids(mixed), [...all3, ...two, ...one, ...only2]);
      });

      it('ET-01/02: unknown tag is 400 naming tags; an unused tag is 200 and empty', async () => {
        assertInvalid(await t.api.get('/events?tags[]=tag1'), 'tags');
        await createTermId(t.api, 'tags', { name: 'unused' }, 'editor');
        const cat = await createTermId(t.api, 'categories', { name: 'a-category' }, 'editor');
        await createEventId(t.api, { title: 'Untagged' }, 'editor');
        assertEmpty(await t.api.get('/events?tags[]=unused'));
        assertInvalid(await t.api.get('/events', { query: { tags: 'unused,ghost' } }), 'tags');
        assertInvalid(await t.api.get('/events', { query: { tags: String(cat) } }), 'tags');
        const both = await t.api.get('/events', { query: { tags: 'ghost', categories: 'ghost' } });
        assert.equal(both.status, 400);
        assert.deepEqual(Object.keys(both.json.data.params).sort(), ['categories', 'tags']);
      });

      it('categories AND tags when both are given', async () => {
        const music = await createTermId(t.api, 'categories', { name: 'music' }, 'editor');
        const outdoor = await createTermId(t.api, 'tags', { name: 'outdoor' }, 'editor');
        const both = await createEventId(
          t.api,
          { title: 'Open-air concert', categories: [music], tags: [outdoor] },
          'editor',
        );
        const catOnly = await createEventId(t.api, { title: 'Hall concert', categories: [music] }, 'editor');
        const tagOnly = await createEventId(t.api, { title: 'Hike', tags: [outdoor] }, 'editor');
        assert.deepEqual(await listIds(t.api, '/events', { categories: 'music' }), [both, catOnly]);
        assert.deepEqual(await listIds(t.api, '/events', { tags: 'outdoor' }), [both, tagOnly]);
        const res = await list(t.api, '/events', { categories: 'music', tags: 'outdoor' });
        assert.deepEqual(ids(res), [both]);
        assert.match(res.json.rest_url, /&categories=music&tags=outdoor&/);
      });
    });

    describe('venue and organizer', () => {
      it('EV-04/07/08: single, CSV and array of venue ids', async () => {
        const v1 = await createVenueId(t.api, { venue: 'Hall 1' }, 'editor');
        const v2 = await createVenueId(t.api, { venue: 'Hall 2' }, 'editor');
        const v3 = await createVenueId(t.api, { venue: 'Hall 3' }, 'editor');
        const v4 = await createVenueId(t.api, { venue: 'Hall 4' }, 'editor');
        const at1 = await createEventIds(t.api, 2, { title: 'At 1', venue: v1 }, 'editor');
        const at2 = await createEventIds(t.api, 2, { title: 'At 2', venue: v2 }, 'editor');
        const at3 = await createEventIds(t.api, 2, { title: 'At 3', venue: v3 }, 'editor');
        await createEventIds(t.api, 2, { title: 'Nowhere' }, 'editor');
        const single = await list(t.api, '/events', { venue: v1 });
        assert.deepEqual(ids(single), at1);
        assert.match(single.json.rest_url, new RegExp(`&venue=${v1}&`));
        assert.deepEqual(await listIds(t.api, '/events', { venue: `${v1},${v2}` }), [...at1, ...at2]);
        assert.deepEqual(await listIds(t.api, '/events', `venue[]=${v1}&venue[]=${v2}&venue[]=${v3}`), [
          ...at1,
          ...at2,
          ...at3,
        ]);
        assert.deepEqual(await listIds(t.api, '/events', { venue: [v1, v2, v3, v4] }), [...at1, ...at2, ...at3]);
        const csv = await list(t.api, '/events', { venue: `${v2},${v3}` });
        assert.match(csv.json.rest_url, new RegExp(`&venue=${v2}%2C${v3}&`));
        assertEmpty(await t.api.get('/events', { query: { venue: v4 } }));
      });

      it('EV-01/02: unknown or non-numeric venue is 400 naming venue', async () => {
        const v1 = await createVenueId(t.api, { venue: 'Real hall' }, 'editor');
        const event = await createEventId(t.api, { title: 'An event', venue: v1 }, 'editor');
        const org = await createOrganizerId(t.api, { organizer: 'Not a venue' }, 'editor');
        assertInvalid(await t.api.get('/events', { query: { venue: 'foo' } }), 'venue');
        assertInvalid(await t.api.get('/events', { query: { venue: 999999 } }), 'venue');
        assertInvalid(await t.api.get('/events', { query: { venue: `${v1},999999` } }), 'venue');
        assertInvalid(await t.api.get('/events', { query: { venue: event } }), 'venue');
        assertInvalid(await t.api.get('/events', { query: { venue: org } }), 'venue');
        assertInvalid(await t.api.get('/events', { query: { venue: '-3' } }), 'venue');
      });

      it('EV-05/06: drafts at a venue are listed for editors only', async () => {
        const v = await createVenueId(t.api, { venue: 'Draft hall' }, 'editor');
        const drafts = await createEventIds(t.api, 3, { title: 'Draft at hall', venue: v, status: 'draft' }, 'editor');
        assertEmpty(await t.api.get('/events', { query: { venue: v } }));
        assert.deepEqual(await listIds(t.api, '/events', { venue: v }, 'editor'), drafts);
      });

      it('EAU-23/24, EO-07: organizers with OR semantics and no duplicates; unknown is 400', async () => {
        const o1 = await createOrganizerId(t.api, { organizer: 'Org 1' }, 'editor');
        const o2 = await createOrganizerId(t.api, { organizer: 'Org 2' }, 'editor');
        const o3 = await createOrganizerId(t.api, { organizer: 'Org 3' }, 'editor');
        const with1 = await createEventIds(t.api, 2, { title: 'With 1', organizer: [o1] }, 'editor');
        const with2 = await createEventIds(t.api, 2, { title: 'With 2', organizer: [o2] }, 'editor');
        const withBoth = await createEventIds(t.api, 2, { title: 'With both', organizer: [o2, o1] }, 'editor');
        await createEventIds(t.api, 2, { title: 'With none' }, 'editor');
        assert.deepEqual(await listIds(t.api, '/events', { organizer: o1 }), [...with1, ...withBoth]);
        assert.deepEqual(await listIds(t.api, '/events', { organizer: o2 }), [...with2, ...withBoth]);
        const either = await list(t.api, '/events', { organizer: `${o1},${o2}` });
        assert.deepEqual(ids(either), [...with1, ...with2, ...withBoth]);
        assert.equal(either.json.total, 6);
        assert.match(either.json.rest_url, new RegExp(`&organizer=${o1}%2C${o2}&`));
        assert.deepEqual(await listIds(t.api, '/events', `organizer[]=${o1}&organizer[]=${o2}&organizer[]=${o3}`), [
          ...with1,
          ...with2,
          ...withBoth,
        ]);
        assertEmpty(await t.api.get('/events', { query: { organizer: o3 } }));
        assertInvalid(await t.api.get('/events', { query: { organizer: 'foo' } }), 'organizer');
        assertInvalid(await t.api.get('/events', { query: { organizer: 999999 } }), 'organizer');
        assertInvalid(await t.api.get('/events', { query: { organizer: with1[0] } }), 'organizer');
      });

      it('venue AND organizer when both are given', async () => {
        const v = await createVenueId(t.api, { venue: 'Both hall' }, 'editor');
        const o = await createOrganizerId(t.api, { organizer: 'Both org' }, 'editor');
        const both = await createEventId(t.api, { title: 'Both', venue: v, organizer: [o] }, 'editor');
        await createEventId(t.api, { title: 'Venue only', venue: v }, 'editor');
        await createEventId(t.api, { title: 'Organizer only', organizer: [o] }, 'editor');
        const res = await list(t.api, '/events', { venue: v, organizer: o });
        assert.deepEqual(ids(res), [both]);
        assert.match(res.json.rest_url, new RegExp(`&venue=${v}&organizer=${o}&`));
      });
    });

    describe('featured, status, post_parent, include, hidden', () => {
      it('EF/EAU-21/30: featured true and false', async () => {
        const plain = await createEventIds(t.api, 2, { title: 'Plain' }, 'editor');
        const featured = await createEventIds(t.api, 2, { title: 'Featured', featured: true }, 'editor');
        const yes = await list(t.api, '/events', { featured: 'true' });
        assert.deepEqual(ids(yes), featured);
        assert.ok(yes.json.events.every((e: { featured: boolean }) => e.featured === true));
        assert.match(yes.json.rest_url, /&featured=1&/);
        const no = await list(t.api, '/events', { featured: '0' });
        assert.deepEqual(ids(no), plain);
        assert.match(no.json.rest_url, /&featured=0&/);
        assert.deepEqual(await listIds(t.api, '/events'), [...plain, ...featured]);
        assert.deepEqual(await listIds(t.api, '/events', { featured: 'yes' }), featured);
        assertInvalid(await t.api.get('/events', { query: { featured: 'maybe' } }), 'featured');
      });

      it('EF-04/05: featured drafts are listed to editors only', async () => {
        const published = await createEventIds(t.api, 2, { title: 'Featured published', featured: true }, 'editor');
        const drafts = await createEventIds(
          t.api,
          2,
          { title: 'Featured draft', featured: true, status: 'draft' },
          'editor',
        );
        assert.deepEqual(await listIds(t.api, '/events', { featured: 1 }), published);
        assert.deepEqual(await listIds(t.api, '/events', { featured: 1 }, 'editor'), [...published, ...drafts]);
      });

      it('EA-20..22, EAU-11/12: status visibility by role', async () => {
        const published = await createEventIds(t.api, 2, { title: 'Published' }, 'editor');
        const drafts = await createEventIds(t.api, 2, { title: 'Draft', status: 'draft' }, 'editor');
        const pending = await createEventIds(t.api, 2, { title: 'Pending', status: 'pending' }, 'editor');
        const privateOne = await createEventId(t.api, { title: 'Private', status: 'private' }, 'editor');
        const anonymous = await list(t.api, '/events');
        assert.deepEqual(ids(anonymous), published);
        assert.equal(anonymous.json.total, 2);
        assert.deepEqual(await listIds(t.api, '/events', { status: 'publish' }), published);
        const denied = await t.api.get('/events', { query: { status: 'draft' } });
        assert.equal(denied.status, 400);
        assert.equal(denied.json.code, 'rest_invalid_param');
        assert.deepEqual(Object.keys(denied.json.data.params), ['status']);
        assert.equal((await t.api.get('/events', { query: { status: 'publish, draft' } })).status, 400);
        assert.equal((await t.api.get('/events', { query: { status: 'publish' }, as: 'subscriber' })).status, 200);
        assert.equal((await t.api.get('/events', { query: { status: 'draft' }, as: 'subscriber' })).status, 400);
        assert.deepEqual(await listIds(t.api, '/events', {}, 'subscriber'), published);
        assert.deepEqual(await listIds(t.api, '/events', {}, 'editor'), [
          ...published,
          ...drafts,
          ...pending,
          privateOne,
        ]);
        assert.deepEqual(await listIds(t.api, '/events', { status: 'draft' }, 'editor'), drafts);
        const two = await list(t.api, '/events', { status: 'publish, draft' }, 'editor');
        assert.deepEqual(ids(two), [...published, ...drafts]);
        assert.match(two.json.rest_url, /&status=publish%2Cdraft(&|$)/);
        assert.deepEqual(
          await listIds(t.api, '/events', 'status[]=publish&status[]=draft&status[]=pending', 'editor'),
          [...published, ...drafts, ...pending],
        );
        for (const bad of ['foo', 'foo, bar', 'foo, bar, publish']) {
          assertInvalid(await t.api.get('/events', { query: { status: bad }, as: 'editor' }), 'status');
        }
      });

      it('contributors see published events and only their own unpublished ones', async () => {
        const published = await createEventId(t.api, { title: 'Published by editor' }, 'editor');
        const editorDraft = await createEventId(t.api, { title: 'Editor draft', status: 'draft' }, 'editor');
        const ownDraft = await createEventId(t.api, { title: 'Contributor draft' }, 'contributor');
        const ownPending = await createEventId(
          t.api,
          { title: 'Contributor pending', status: 'publish' },
          'contributor',
        );
        const res = await list(t.api, '/events', {}, 'contributor');
        assert.deepEqual(ids(res), [published, ownDraft, ownPending]);
        assert.ok(!ids(res).includes(editorDraft));
        assert.deepEqual(
          res.json.events.map((e: { status: string }) => e.status),
          ['publish', 'draft', 'pending'],
        );
        assert.deepEqual(await listIds(t.api, '/events', { status: 'draft' }, 'contributor'), [ownDraft]);
        assert.deepEqual(await listIds(t.api, '/events', {}, 'editor'), [published, editorDraft, ownDraft, ownPending]);
        // Authors likewise see others' published events but not others' drafts.
        assert.deepEqual(await listIds(t.api, '/events', {}, 'author'), [published]);
      });

      it('EP-01..03: post_parent lists the children only; unknown is 400', async () => {
        const parent = await createEventId(t.api, { title: 'Parent' }, 'editor');
        const childA = await createEventId(t.api, { title: 'Child A', post_parent: parent }, 'editor');
        await createEventId(t.api, { title: 'Unrelated' }, 'editor');
        const childB = await createEventId(t.api, { title: 'Child B', post_parent: parent }, 'editor');
        const grandChild = await createEventId(t.api, { title: 'Grandchild', post_parent: childA }, 'editor');
        const res = await list(t.api, '/events', { post_parent: parent });
        assert.deepEqual(ids(res), [childA, childB]);
        assert.equal(res.json.total, 2);
        assert.equal(res.json.total_pages, 1);
        assert.match(res.json.rest_url, new RegExp(`&post_parent=${parent}(&|$)`));
        assert.deepEqual(await listIds(t.api, '/events', { post_parent: childA }), [grandChild]);
        assertEmpty(await t.api.get('/events', { query: { post_parent: childB } }));
        const v = await createVenueId(t.api, { venue: 'Not an event' }, 'editor');
        for (const bad of ['foo-bar', '999999', String(v), '0', '-1']) {
          assertInvalid(await t.api.get('/events', { query: { post_parent: bad } }), 'post_parent');
        }
      });

      it('EI-01/02: include by ids, CSV and array, in the listed order; non-integers are 400', async () => {
        const [a, b, c] = await createEventIds(t.api, 3, { title: 'Included' }, 'editor');
        const res = await list(t.api, '/events', `include[]=${a}&include[]=${b}&include[]=${c}`);
        assert.deepEqual(ids(res), [a, b, c]);
        assert.equal(res.json.total, 3);
        assert.equal(res.json.events[0].title, 'Included 1');
        assert.deepEqual(await listIds(t.api, '/events', { include: `${c},${a},${b}` }), [c, a, b]);
        assert.deepEqual(await listIds(t.api, '/events', { include: `${a},${b}` }), [a, b]);
        assert.deepEqual(await listIds(t.api, '/events', { include: [b] }), [b]);
        const draft = await createEventId(t.api, { title: 'Draft', status: 'draft' }, 'editor');
        assert.deepEqual(await listIds(t.api, '/events', { include: `${draft},${a}` }), [a]);
        assert.deepEqual(await listIds(t.api, '/events', { include: `${draft},${a}` }, 'editor'), [draft, a]);
        // Ids that name no event simply match nothing.
        assert.deepEqual(await listIds(t.api, '/events', { include: `${a},999999` }), [a]);
        assertInvalid(await t.api.get('/events', { query: { include: 'foo-bar,23,89' } }), 'include');
        assertInvalid(await t.api.get('/events?include[]=foo-bar&include[]=23&include[]=89'), 'include');
        assertInvalid(await t.api.get('/events', { query: { include: '1.5' } }), 'include');
      });

      it('hide_from_listings events are never listed but readable by id', async () => {
        const visible = await createEventId(t.api, { title: 'Visible concert', featured: true }, 'editor');
        const hidden = await createEventId(
          t.api,
          { title: 'Hidden concert', hide_from_listings: true, featured: true },
          'editor',
        );
        assert.deepEqual(await listIds(t.api, '/events'), [visible]);
        assert.deepEqual(await listIds(t.api, '/events', {}, 'editor'), [visible]);
        assert.deepEqual(await listIds(t.api, '/events', { search: 'hidden' }), []);
        assert.deepEqual(await listIds(t.api, '/events', { featured: true }), [visible]);
        assert.deepEqual(await listIds(t.api, '/events', { include: `${hidden},${visible}` }), [visible]);
        assert.deepEqual(await listIds(t.api, '/events', { include: String(hidden) }, 'editor'), []);
        const single = await t.api.get(`/events/${hidden}`);
        assert.equal(single.status, 200);
        assert.equal(single.json.id, hidden);
        assert.equal(single.json.hide_from_listings, true);
        const res = await list(t.api, '/events');
        assert.equal(res.json.total, 1);
      });
    });

    describe('geolocation and tickets', () => {
      it('geoloc=true keeps events whose venue has coordinates', async () => {
        const mapped = await createVenueId(t.api, { venue: 'Mapped', geo_lat: 48.8566, geo_lng: 2.3522 }, 'editor');
        const unmapped = await createVenueId(t.api, { venue: 'Unmapped', city: 'Nowhere' }, 'editor');
        const atMapped = await createEventId(t.api, { title: 'At mapped', venue: mapped }, 'editor');
        await createEventId(t.api, { title: 'At unmapped', venue: unmapped }, 'editor');
        await createEventId(t.api, { title: 'Without venue' }, 'editor');
        const res = await list(t.api, '/events', { geoloc: 'true' });
        assert.deepEqual(ids(res), [atMapped]);
        assert.match(res.json.rest_url, /&geoloc=1&/);
        assert.equal((await list(t.api, '/events', { geoloc: 'false' })).json.total, 3);
      });

      it('geoloc_lat/geoloc_lng/geoloc_radius: great-circle distance in km', async () => {
        // 10 km north of the centre: 10 / 6371 rad = 0.0899322°.
        const centre = await createVenueId(t.api, { venue: 'Centre', geo_lat: 48.8566, geo_lng: 2.3522 }, 'editor');
        const tenKm = await createVenueId(
          t.api,
          { venue: 'Ten km north', geo_lat: 48.9465322, geo_lng: 2.3522 },
          'editor',
        );
        const london = await createVenueId(t.api, { venue: 'London', geo_lat: 51.5074, geo_lng: -0.1278 }, 'editor');
        const unmapped = await createVenueId(t.api, { venue: 'Unmapped', city: 'Paris' }, 'editor');
        const atCentre = await createEventId(t.api, { title: 'At centre', venue: centre }, 'editor');
        const atTen = await createEventId(t.api, { title: 'At ten km', venue: tenKm }, 'editor');
        const inLondon = await createEventId(t.api, { title: 'In London', venue: london }, 'editor');
        await createEventId(t.api, { title: 'At unmapped', venue: unmapped }, 'editor');
        await createEventId(t.api, { title: 'No venue' }, 'editor');
        const near = { geoloc_lat: 48.8566, geoloc_lng: 2.3522 };
        const wide = await list(t.api, '/events', { ...near, geoloc_radius: 25 });
        assert.deepEqual(ids(wide), [atCentre, atTen]);
        assert.match(wide.json.rest_url, /&geoloc_lat=48\.8566&geoloc_lng=2\.3522&geoloc_radius=25&/);
        assert.deepEqual(await listIds(t.api, '/events', near), [atCentre, atTen]);
        assert.deepEqual(await listIds(t.api, '/events', { ...near, geoloc_radius: 5 }), [atCentre]);
        assert.deepEqual(await listIds(t.api, '/events', { ...near, geoloc_radius: 10.5 }), [atCentre, atTen]);
        assert.deepEqual(await listIds(t.api, '/events', { ...near, geoloc_radius: 9.5 }), [atCentre]);
        assert.deepEqual(await listIds(t.api, '/events', { geoloc_lat: 51.5, geoloc_lng: -0.12, geoloc_radius: 5 }), [
          inLondon,
        ]);
        for (const half of [{ geoloc_lat: 48.8566 }, { geoloc_lng: 2.3522 }]) {
          const res = await t.api.get('/events', { query: half });
          assert.equal(res.status, 400, JSON.stringify(half));
          assert.equal(res.json.code, 'rest_invalid_param');
          assert.ok(Object.keys(res.json.data.params).some((k) => k === 'geoloc_lat' || k === 'geoloc_lng'));
        }
        assert.equal((await t.api.get('/events', { query: { geoloc_lat: 91, geoloc_lng: 0 } })).status, 400);
        assert.equal((await t.api.get('/events', { query: { ...near, geoloc_radius: 0 } })).status, 400);
        assert.equal((await t.api.get('/events', { query: { ...near, geoloc_radius: 'far' } })).status, 400);
      });

      it('ticketed=false is no filter; ticketed=true is 400 event-tickets-not-active', async () => {
        const a = await createEventId(t.api, { title: 'A' }, 'editor');
        const b = await createEventId(t.api, { title: 'B' }, 'editor');
        const res = await list(t.api, '/events', { ticketed: 'false' });
        assert.deepEqual(ids(res), [a, b]);
        const denied = await t.api.get('/events', { query: { ticketed: 'true' } });
        assert.equal(denied.status, 400);
        assert.equal(denied.json.code, 'rest_invalid_param');
        assert.deepEqual(Object.keys(denied.json.data.params), ['ticketed']);
        assert.equal(denied.json.data.details.ticketed.code, 'event-tickets-not-active');
        assert.equal(
          (await t.api.get('/events', { query: { ticketed: '1' } })).json.data.details.ticketed.code,
          'event-tickets-not-active',
        );
        assert.equal((await t.api.get('/events', { query: { ticketed: 'perhaps' } })).status, 400);
      });
    });

    describe('password-protected events in lists', () => {
      async function protectedSetup(api: TestApi) {
        const v = await createVenueId(api, { venue: 'Secret hall', geo_lat: 40, geo_lng: -70 }, 'editor');
        const o = await createOrganizerId(api, { organizer: 'Secret org' }, 'editor');
        const c = await createTermId(api, 'categories', { name: 'secret-cat' }, 'editor');
        const g = await createTermId(api, 'tags', { name: 'secret-tag' }, 'editor');
        const full = {
          description: 'Behind the curtain',
          excerpt: 'Teaser',
          cost: '10',
          website: 'https://example.com/gala',
          show_map: true,
          show_map_link: true,
          sticky: true,
          featured: true,
          venue: v,
          organizer: [o],
          categories: [c],
          tags: [g],
        };
        const open = await createEventId(api, { title: 'Open event', ...full }, 'editor');
        const locked = await createEventId(api, { title: 'Locked gala', ...full, password: 'pw' }, 'editor');
        const other = await createEventId(api, { title: 'Other locked', ...full, password: 'different' }, 'editor');
        return { open, locked, other };
      }

      it('are listed blanked, with title and dates kept (EAU-34)', async () => {
        const { open, locked, other } = await protectedSetup(t.api);
        const res = await list(t.api, '/events');
        assert.deepEqual(ids(res), [open, locked, other]);
        const [openItem, lockedItem, otherItem] = res.json.events;
        assert.equal(openItem.description, '<p>Behind the curtain</p>');
        assert.equal(openItem.cost, '$10');
        assert.equal(openItem.venue.venue, 'Secret hall');
        for (const item of [lockedItem, otherItem]) {
          assert.equal(item.description, '');
          assert.equal(item.excerpt, '');
          assert.equal(item.image, false);
          assert.equal(item.all_day, null);
          assert.equal(item.cost, '');
          assert.deepEqual(item.cost_details, {
            currency_symbol: '',
            currency_code: '',
            currency_position: '',
            values: [],
          });
          assert.equal(item.website, '');
          for (const flag of ['show_map', 'show_map_link', 'hide_from_listings', 'sticky', 'featured'])
            assert.equal(item[flag], null, flag);
          assert.deepEqual(item.categories, []);
          assert.deepEqual(item.tags, []);
          assert.deepEqual(item.organizer, []);
          assert.deepEqual(item.venue, []);
          assert.deepEqual(item.custom_fields, []);
          assert.equal(item.status, 'publish');
          assert.equal(item.timezone, 'UTC');
        }
        assert.equal(lockedItem.title, 'Locked gala');
        assert.equal(lockedItem.slug, 'locked-gala');
        assert.equal(lockedItem.rest_url, `${API}/events/${locked}`);
        assert.equal(otherItem.title, 'Other locked');
        for (const [item, password] of [
          [lockedItem, 'pw'],
          [otherItem, 'different'],
        ] as const) {
          const single = await t.api.get(`/events/${item.id}`, { query: { password } });
          assert.equal(single.status, 200, single.text);
          for (const key of [
            'start_date',
            'start_date_details',
            'end_date',
            'utc_start_date',
            'utc_end_date',
            'timezone_abbr',
            'url',
            'date',
            'global_id',
          ]) {
            assert.deepEqual(item[key], single.json[key], key);
          }
          assert.match(item.start_date, /^2026-12-\d\d \d\d:00:00$/);
        }
        assert.deepEqual(Object.keys(lockedItem), Object.keys(openItem));
        assert.equal('password' in lockedItem, false);
      });

      it('are unlocked by the matching password param, or for an editor', async () => {
        const { locked, other } = await protectedSetup(t.api);
        const res = await list(t.api, '/events', { password: 'pw' });
        const lockedItem = res.json.events.find((e: { id: number }) => e.id === locked);
        const otherItem = res.json.events.find((e: { id: number }) => e.id === other);
        assert.equal(lockedItem.description, '<p>Behind the curtain</p>');
        assert.equal(lockedItem.excerpt, '<p>Teaser</p>');
        assert.equal(lockedItem.cost, '$10');
        assert.equal(lockedItem.website, 'https://example.com/gala');
        assert.equal(lockedItem.featured, true);
        assert.equal(lockedItem.sticky, true);
        assert.equal(lockedItem.all_day, false);
        assert.equal(lockedItem.venue.venue, 'Secret hall');
        assert.deepEqual(
          lockedItem.organizer.map((o: { organizer: string }) => o.organizer),
          ['Secret org'],
        );
        assert.deepEqual(
          lockedItem.categories.map((c: { slug: string }) => c.slug),
          ['secret-cat'],
        );
        assert.deepEqual(
          lockedItem.tags.map((c: { slug: string }) => c.slug),
          ['secret-tag'],
        );
        // Another password stays locked.
        assert.equal(otherItem.description, '');
        assert.deepEqual(otherItem.venue, []);
        for (const who of ['editor', 'administrator'] as const) {
          const asEditor = await list(t.api, '/events', {}, who);
          for (const item of asEditor.json.events) {
            assert.equal(item.description, '<p>Behind the curtain</p>', `${who} ${item.id}`);
            assert.equal(item.featured, true);
            assert.deepEqual(
              item.categories.map((c: { slug: string }) => c.slug),
              ['secret-cat'],
            );
          }
        }
        // A subscriber cannot edit: still blanked.
        const sub = await list(t.api, '/events', {}, 'subscriber');
        assert.equal(sub.json.events.find((e: { id: number }) => e.id === locked).description, '');
      });

      it('callers who may edit the event see it unblanked and search its text; others do not', async () => {
        const contributorsDraft = await createEventId(
          t.api,
          { title: 'Contributor secret', description: 'The hidden-lynx plan', password: 'pw' },
          'contributor',
        );
        const authorsEvent = await createEventId(
          t.api,
          { title: 'Author secret', description: 'The hidden-lynx party', password: 'pw' },
          'author',
        );
        const asContributor = await list(t.api, '/events', {}, 'contributor');
        assert.deepEqual(ids(asContributor), [contributorsDraft, authorsEvent]);
        assert.equal(asContributor.json.events[0].description, '<p>The hidden-lynx plan</p>');
        assert.equal(asContributor.json.events[1].description, '');
        assert.deepEqual(await listIds(t.api, '/events', { search: 'lynx' }, 'contributor'), [contributorsDraft]);
        const asAuthor = await list(t.api, '/events', {}, 'author');
        assert.deepEqual(ids(asAuthor), [authorsEvent]);
        assert.equal(asAuthor.json.events[0].description, '<p>The hidden-lynx party</p>');
        assert.deepEqual(await listIds(t.api, '/events', { search: 'lynx' }, 'author'), [authorsEvent]);
        assert.deepEqual(await listIds(t.api, '/events', { search: 'lynx' }), []);
        assert.deepEqual(await listIds(t.api, '/events', { search: 'lynx' }, 'editor'), [
          contributorsDraft,
          authorsEvent,
        ]);
        // Once published, a contributor may no longer edit it: blanked and not searchable for them.
        const published = await t.api.patch(`/events/${contributorsDraft}`, { status: 'publish' }, { as: 'editor' });
        assert.equal(published.status, 200, published.text);
        const after = await list(t.api, '/events', {}, 'contributor');
        assert.equal(after.json.events.find((e: { id: number }) => e.id === contributorsDraft).description, '');
        assert.deepEqual(await listIds(t.api, '/events', { search: 'lynx' }, 'contributor'), []);
      });

      it('filters do not reveal blanked relations to a locked caller but still apply', async () => {
        const { open, locked, other } = await protectedSetup(t.api);
        const res = await list(t.api, '/events', { categories: 'secret-cat' });
        assert.deepEqual(ids(res), [open, locked, other]);
        assert.deepEqual(res.json.events[1].categories, []);
      });
    });
  });
}
