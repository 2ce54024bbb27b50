import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { nextSlot, type Query } from '../helpers/fixtures.js';
import { testDialects } from '../helpers/databases.js';
import { useTestApp, type TestApi, type TestResponse, type Who } from '../helpers/app.js';

// GET /events filters (API.md §6, §9, §10, §14, §17, §18; tec-tests.md EA-18/20-22, EAU-13..24, EC, ET, EV, EO, EF, EI, EP).

const API = 'http://127.0.0.1:8080/calendar/events/v1';

async function ev(api: TestApi, title: string, extra: Record<string, unknown> = {}, as: Who = 'editor'): Promise<number> {
  const res = await api.post('/events', { title, ...nextSlot(), timezone: 'UTC', ...extra }, { as });
  assert.equal(res.status, 201, res.text);
  return res.json.id as number;
}

async function many(api: TestApi, count: number, title: string, extra: Record<string, unknown> = {}): Promise<number[]> {
  const created: number[] = [];
  for (let i = 0; i < count; i++) created.push(await ev(api, `${title} ${i + 1}`, extra));
  return created;
}

async function term(api: TestApi, kind: 'categories' | 'tags', name: string, parent?: number): Promise<number> {
  const res = await api.post(`/${kind}`, parent === undefined ? { name } : { name, parent }, { as: 'editor' });
  assert.equal(res.status, 201, res.text);
  return res.json.id as number;
}

async function venue(api: TestApi, name: string, extra: Record<string, unknown> = {}): Promise<number> {
  const res = await api.post('/venues', { venue: name, ...extra }, { as: 'editor' });
  assert.equal(res.status, 201, res.text);
  return res.json.id as number;
}

async function organizer(api: TestApi, name: string): Promise<number> {
  const res = await api.post('/organizers', { organizer: name }, { as: 'editor' });
  assert.equal(res.status, 201, res.text);
  return res.json.id as number;
}

async function list(api: TestApi, query: Query | string = {}, as: Who = 'anonymous'): Promise<TestResponse> {
  const res = typeof query === 'string' ? await api.get(`/events?${query}`, { as }) : await api.get('/events', { query, as });
  assert.equal(res.status, 200, res.text);
  return res;
}

const ids = (res: TestResponse): number[] => res.json.events.map((e: { id: number }) => e.id);
const listIds = async (api: TestApi, query: Query | string = {}, as: Who = 'anonymous') => ids(await list(api, query, as));

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
        const foo = await many(t.api, 5, 'foo');
        const fooBar = await many(t.api, 5, 'foo bar');
        const bar = await many(t.api, 5, 'bar');
        const byFoo = await list(t.api, { search: 'foo', per_page: 20 });
        assert.deepEqual(ids(byFoo), [...foo, ...fooBar]);
        assert.equal(byFoo.json.total, 10);
        assert.deepEqual(await listIds(t.api, { search: 'bar', per_page: 20 }), [...fooBar, ...bar]);
        assert.deepEqual(await listIds(t.api, { search: 'foo bar', per_page: 20 }), fooBar);
        assert.deepEqual(await listIds(t.api, { search: 'bar foo', per_page: 20 }), fooBar);
        assert.match(byFoo.json.rest_url, /&search=foo&/);
      });

      it('quoted phrases, -word exclusion, case-insensitivity', async () => {
        const pie = await ev(t.api, 'Red apple pie contest');
        const reversed = await ev(t.api, 'Apple tasting, red and green');
        const jazz = await ev(t.api, 'Jazz Night');
        assert.deepEqual(await listIds(t.api, { search: 'red apple' }), [pie, reversed]);
        assert.deepEqual(await listIds(t.api, { search: '"red apple"' }), [pie]);
        assert.deepEqual(await listIds(t.api, { search: '"apple pie" contest' }), [pie]);
        assert.deepEqual(await listIds(t.api, { search: 'apple -pie' }), [reversed]);
        assert.deepEqual(await listIds(t.api, { search: '-apple' }), [jazz]);
        assert.deepEqual(await listIds(t.api, { search: 'JAZZ night' }), [jazz]);
        assert.deepEqual(await listIds(t.api, { search: 'jAzZ' }), [jazz]);
        assert.deepEqual(await listIds(t.api, { search: 'jazz -NIGHT' }), []);
        assertInvalid(await t.api.get('/events', { query: { search: '' } }), 'search');
      });

      it('LIKE wildcards in the search are literal characters', async () => {
        const percent = await ev(t.api, 'A 100% fun evening');
        const underscore = await ev(t.api, 'Workshop A_B');
        const plain = await ev(t.api, 'Workshop AxB 1000 fun');
        assert.deepEqual(await listIds(t.api, { search: '100%' }), [percent]);
        assert.deepEqual(await listIds(t.api, { search: '%' }), [percent]);
        assert.deepEqual(await listIds(t.api, { search: 'a_b' }), [underscore]);
        assert.deepEqual(await listIds(t.api, { search: '1000' }), [plain]);
        assert.deepEqual(await listIds(t.api, { search: 'fun' }), [percent, plain]);
        assert.deepEqual(await listIds(t.api, { search: 'workshop -a_b' }), [plain]);
      });

      it('case-insensitive beyond ASCII', async () => {
        const fete = await ev(t.api, 'Fête de la Musique');
        const eclair = await ev(t.api, 'Éclair tasting', { description: 'Crème brûlée too' });
        assert.deepEqual(await listIds(t.api, { search: 'fête' }), [fete]);
        assert.deepEqual(await listIds(t.api, { search: 'FÊTE' }), [fete]);
        assert.deepEqual(await listIds(t.api, { search: 'éclair' }), [eclair]);
        assert.deepEqual(await listIds(t.api, { search: 'CRÈME' }), [eclair]);
      });

      it('matches the excerpt and the description as well as the title', async () => {
        const byExcerpt = await ev(t.api, 'Plain one', { excerpt: 'Meet the Zebra herd' });
        const byDescription = await ev(t.api, 'Plain two', { description: '<p>A <strong>giraffe</strong> walks by</p>' });
        const both = await ev(t.api, 'Zebra and giraffe day');
        assert.deepEqual(await listIds(t.api, { search: 'zebra' }), [byExcerpt, both]);
        assert.deepEqual(await listIds(t.api, { search: 'giraffe' }), [byDescription, both]);
        assert.deepEqual(await listIds(t.api, { search: 'plain -zebra' }), [byDescription]);
      });

      it('a password-protected event is found by its title, by its hidden text only when unlocked', async () => {
        const secret = await ev(t.api, 'Secret gala', { description: 'The hidden-ocelot show', excerpt: 'Velvet rope', password: 'pw' });
        const open = await ev(t.api, 'Open gala');
        const byTitle = await list(t.api, { search: 'gala' });
        assert.deepEqual(ids(byTitle), [secret, open]);
        assert.equal(byTitle.json.events[0].description, '');
        assert.deepEqual(await listIds(t.api, { search: 'ocelot' }), []);
        assert.deepEqual(await listIds(t.api, { search: 'velvet' }), []);
        assert.deepEqual(await listIds(t.api, { search: 'ocelot', password: 'wrong' }), []);
        const unlocked = await list(t.api, { search: 'ocelot', password: 'pw' });
        assert.deepEqual(ids(unlocked), [secret]);
        assert.equal(unlocked.json.events[0].description, '<p>The hidden-ocelot show</p>');
        assert.deepEqual(await listIds(t.api, { search: 'velvet' }, 'editor'), [secret]);
      });

      it('-word hidden behind a password does not exclude the event for a locked caller (§18)', async () => {
        const secret = await ev(t.api, 'Secret gala', { description: 'The hidden-ocelot show', password: 'pw' });
        const open = await ev(t.api, 'Open gala');
        assert.deepEqual(await listIds(t.api, { search: 'gala -ocelot', password: 'pw' }), [open]);
        assert.deepEqual(await listIds(t.api, { search: 'gala -ocelot' }, 'editor'), [open]);
        assert.deepEqual(await listIds(t.api, { search: 'gala -ocelot', password: 'wrong' }), [secret, open]);
        // Without any password parameter the result must be the same as with a wrong one.
        assert.deepEqual(await listIds(t.api, { search: 'gala -ocelot' }), [secret, open]);
        assert.deepEqual(await listIds(t.api, { search: '-ocelot' }), [secret, open]);
      });
    });

    describe('categories', () => {
      it('EAU-13/14, EC-03: by slug and by id', async () => {
        const cat1 = await term(t.api, 'categories', 'cat1');
        await many(t.api, 3, 'Plain');
        const inCat = await many(t.api, 3, 'In cat1', { categories: [cat1] });
        const bySlug = await list(t.api, { categories: 'cat1' });
        assert.deepEqual(ids(bySlug), inCat);
        assert.equal(bySlug.json.total, 3);
        assert.match(bySlug.json.rest_url, /&categories=cat1&/);
        assert.deepEqual(await listIds(t.api, { categories: String(cat1) }), inCat);
        assert.deepEqual(await listIds(t.api, `categories[]=cat1`), inCat);
      });

      it('EC-05/06: arrays and CSV of slugs or ids', async () => {
        const cat1 = await term(t.api, 'categories', 'cat1');
        const cat2 = await term(t.api, 'categories', 'cat2');
        const one = await many(t.api, 2, 'One', { categories: [cat1] });
        const two = await many(t.api, 2, 'Two', { categories: [cat2] });
        await many(t.api, 2, 'None');
        assert.deepEqual(await listIds(t.api, 'categories[]=cat1&categories[]=cat2'), [...one, ...two]);
        assert.deepEqual(await listIds(t.api, { categories: `${cat1},${cat2}` }), [...one, ...two]);
        assert.deepEqual(await listIds(t.api, { categories: 'cat1,cat2' }), [...one, ...two]);
        assert.deepEqual(await listIds(t.api, { categories: [cat2] }), two);
      });

      it('EAU-15: OR semantics with mixed ids and slugs, without duplicates', async () => {
        const t1 = await term(t.api, 'categories', 'cat1');
        const t2 = await term(t.api, 'categories', 'cat2');
        const t3 = await term(t.api, 'categories', 'cat3');
        await many(t.api, 3, 'None');
        const all3 = await many(t.api, 3, 'All three', { categories: [t1, t2, t3] });
        const two = await many(t.api, 3, 'Two', { categories: [t1, t2] });
        const one = await many(t.api, 3, 'One', { categories: [t1] });
        const res = await list(t.api, { categories: [t1, 'cat2', 'cat3'] });
        assert.equal(res.json.total, 9);
        assert.deepEqual(ids(res), [...all3, ...two, ...one]);
        assert.deepEqual(await listIds(t.api, { categories: 'cat3' }), all3);
        assert.deepEqual(await listIds(t.api, { categories: `cat2,${t3}` }), [...all3, ...two]);
      });

      it('a parent category includes its descendants', async () => {
        const arts = await term(t.api, 'categories', 'Arts');
        const painting = await term(t.api, 'categories', 'Painting', arts);
        const oils = await term(t.api, 'categories', 'Oils', painting);
        const sculpture = await term(t.api, 'categories', 'Sculpture', arts);
        const general = await ev(t.api, 'General arts', { categories: [arts] });
        const canvas = await ev(t.api, 'Canvas', { categories: [painting] });
        const oil = await ev(t.api, 'Oil workshop', { categories: [oils] });
        const stone = await ev(t.api, 'Stone', { categories: [sculpture] });
        await ev(t.api, 'Unrelated');
        assert.deepEqual(await listIds(t.api, { categories: 'arts' }), [general, canvas, oil, stone]);
        assert.deepEqual(await listIds(t.api, { categories: String(arts) }), [general, canvas, oil, stone]);
        assert.deepEqual(await listIds(t.api, { categories: 'painting' }), [canvas, oil]);
        assert.deepEqual(await listIds(t.api, { categories: 'oils' }), [oil]);
        assert.deepEqual(await listIds(t.api, { categories: 'painting,sculpture' }), [canvas, oil, stone]);
      });

      it('EC-01/02: an unknown category is 400 naming categories; an empty one is 200 and empty', async () => {
        assertInvalid(await t.api.get('/events?categories[]=cat1'), 'categories');
        const empty = await term(t.api, 'categories', 'empty');
        await ev(t.api, 'Somewhere else');
        assertInvalid(await t.api.get('/events', { query: { categories: 'empty,nope' } }), 'categories');
        assertInvalid(await t.api.get('/events', { query: { categories: '999999' } }), 'categories');
        const tag = await term(t.api, 'tags', 'a-tag');
        assertInvalid(await t.api.get('/events', { query: { categories: String(tag) } }), 'categories');
        assertInvalid(await t.api.get('/events', { query: { categories: 'a-tag' } }), 'categories');
        assertEmpty(await t.api.get('/events?categories[]=empty'));
        assertEmpty(await t.api.get('/events', { query: { categories: empty } }));
      });
    });

    describe('tags', () => {
      it('ET-03/05/06, EAU-17..19: by slug, id, array, CSV, OR without duplicates', async () => {
        const t1 = await term(t.api, 'tags', 'tag1');
        const t2 = await term(t.api, 'tags', 'tag2');
        const t3 = await term(t.api, 'tags', 'tag3');
        await many(t.api, 2, 'None');
        const all3 = await many(t.api, 2, 'All three', { tags: [t1, t2, t3] });
        const two = await many(t.api, 2, 'Two', { tags: [t1, t2] });
        const one = await many(t.api, 2, 'One', { tags: [t1] });
        const only2 = await many(t.api, 2, 'Only two', { tags: [t2] });
        const bySlug = await list(t.api, { tags: 'tag1' });
        assert.deepEqual(ids(bySlug), [...all3, ...two, ...one]);
        assert.match(bySlug.json.rest_url, /&tags=tag1&/);
        assert.deepEqual(await listIds(t.api, { tags: String(t1) }), [...all3, ...two, ...one]);
        assert.deepEqual(await listIds(t.api, 'tags[]=tag2&tags[]=tag3'), [...all3, ...two, ...only2]);
        assert.deepEqual(await listIds(t.api, { tags: `${t2},${t3}` }), [...all3, ...two, ...only2]);
        const mixed = await list(t.api, { tags: [t1, 'tag2', 'tag3'] });
        assert.equal(mixed.json.total, 8);
        assert.deepEqual(ids(mixed), [...all3, ...two, ...one, ...only2]);
      });

      it('ET-01/02: unknown tag is 400 naming tags; an unused tag is 200 and empty', async () => {
        assertInvalid(await t.api.get('/events?tags[]=tag1'), 'tags');
        await term(t.api, 'tags', 'unused');
        const cat = await term(t.api, 'categories', 'a-category');
        await ev(t.api, 'Untagged');
        assertEmpty(await t.api.get('/events?tags[]=unused'));
        assertInvalid(await t.api.get('/events', { query: { tags: 'unused,ghost' } }), 'tags');
        assertInvalid(await t.api.get('/events', { query: { tags: String(cat) } }), 'tags');
        const both = await t.api.get('/events', { query: { tags: 'ghost', categories: 'ghost' } });
        assert.equal(both.status, 400);
        assert.deepEqual(Object.keys(both.json.data.params).sort(), ['categories', 'tags']);
      });

      it('categories AND tags when both are given', async () => {
        const music = await term(t.api, 'categories', 'music');
        const outdoor = await term(t.api, 'tags', 'outdoor');
        const both = await ev(t.api, 'Open-air concert', { categories: [music], tags: [outdoor] });
        const catOnly = await ev(t.api, 'Hall concert', { categories: [music] });
        const tagOnly = await ev(t.api, 'Hike', { tags: [outdoor] });
        assert.deepEqual(await listIds(t.api, { categories: 'music' }), [both, catOnly]);
        assert.deepEqual(await listIds(t.api, { tags: 'outdoor' }), [both, tagOnly]);
        const res = await list(t.api, { categories: 'music', tags: 'outdoor' });
        assert.deepEqual(ids(res), [both]);
        assert.match(res.json.rest_url, /&categories=music&tags=outdoor&/);
      });
    });

    describe('venue and organizer', () => {
      it('EV-04/07/08: single, CSV and array of venue ids', async () => {
        const v1 = await venue(t.api, 'Hall 1');
        const v2 = await venue(t.api, 'Hall 2');
        const v3 = await venue(t.api, 'Hall 3');
        const v4 = await venue(t.api, 'Hall 4');
        const at1 = await many(t.api, 2, 'At 1', { venue: v1 });
        const at2 = await many(t.api, 2, 'At 2', { venue: v2 });
        const at3 = await many(t.api, 2, 'At 3', { venue: v3 });
        await many(t.api, 2, 'Nowhere');
        const single = await list(t.api, { venue: v1 });
        assert.deepEqual(ids(single), at1);
        assert.match(single.json.rest_url, new RegExp(`&venue=${v1}&`));
        assert.deepEqual(await listIds(t.api, { venue: `${v1},${v2}` }), [...at1, ...at2]);
        assert.deepEqual(await listIds(t.api, `venue[]=${v1}&venue[]=${v2}&venue[]=${v3}`), [...at1, ...at2, ...at3]);
        assert.deepEqual(await listIds(t.api, { venue: [v1, v2, v3, v4] }), [...at1, ...at2, ...at3]);
        const csv = await list(t.api, { venue: `${v2},${v3}` });
        assert.match(csv.json.rest_url, new RegExp(`&venue=${v2}%2C${v3}&`));
        assertEmpty(await t.api.get('/events', { query: { venue: v4 } }));
      });

      it('EV-01/02: unknown or non-numeric venue is 400 naming venue', async () => {
        const v1 = await venue(t.api, 'Real hall');
        const event = await ev(t.api, 'An event', { venue: v1 });
        const org = await organizer(t.api, 'Not a venue');
        assertInvalid(await t.api.get('/events', { query: { venue: 'foo' } }), 'venue');
        assertInvalid(await t.api.get('/events', { query: { venue: 999999 } }), 'venue');
        assertInvalid(await t.api.get('/events', { query: { venue: `${v1},999999` } }), 'venue');
        assertInvalid(await t.api.get('/events', { query: { venue: event } }), 'venue');
        assertInvalid(await t.api.get('/events', { query: { venue: org } }), 'venue');
        assertInvalid(await t.api.get('/events', { query: { venue: '-3' } }), 'venue');
      });

      it('EV-05/06: drafts at a venue are listed for editors only', async () => {
        const v = await venue(t.api, 'Draft hall');
        const drafts = await many(t.api, 3, 'Draft at hall', { venue: v, status: 'draft' });
        assertEmpty(await t.api.get('/events', { query: { venue: v } }));
        assert.deepEqual(await listIds(t.api, { venue: v }, 'editor'), drafts);
      });

      it('EAU-23/24, EO-07: organizers with OR semantics and no duplicates; unknown is 400', async () => {
        const o1 = await organizer(t.api, 'Org 1');
        const o2 = await organizer(t.api, 'Org 2');
        const o3 = await organizer(t.api, 'Org 3');
        const with1 = await many(t.api, 2, 'With 1', { organizer: [o1] });
        const with2 = await many(t.api, 2, 'With 2', { organizer: [o2] });
        const withBoth = await many(t.api, 2, 'With both', { organizer: [o2, o1] });
        await many(t.api, 2, 'With none');
        assert.deepEqual(await listIds(t.api, { organizer: o1 }), [...with1, ...withBoth]);
        assert.deepEqual(await listIds(t.api, { organizer: o2 }), [...with2, ...withBoth]);
        const either = await list(t.api, { organizer: `${o1},${o2}` });
        assert.deepEqual(ids(either), [...with1, ...with2, ...withBoth]);
        assert.equal(either.json.total, 6);
        assert.match(either.json.rest_url, new RegExp(`&organizer=${o1}%2C${o2}&`));
        assert.deepEqual(await listIds(t.api, `organizer[]=${o1}&organizer[]=${o2}&organizer[]=${o3}`), [...with1, ...with2, ...withBoth]);
        assertEmpty(await t.api.get('/events', { query: { organizer: o3 } }));
        assertInvalid(await t.api.get('/events', { query: { organizer: 'foo' } }), 'organizer');
        assertInvalid(await t.api.get('/events', { query: { organizer: 999999 } }), 'organizer');
        assertInvalid(await t.api.get('/events', { query: { organizer: with1[0] } }), 'organizer');
      });

      it('venue AND organizer when both are given', async () => {
        const v = await venue(t.api, 'Both hall');
        const o = await organizer(t.api, 'Both org');
        const both = await ev(t.api, 'Both', { venue: v, organizer: [o] });
        await ev(t.api, 'Venue only', { venue: v });
        await ev(t.api, 'Organizer only', { organizer: [o] });
        const res = await list(t.api, { venue: v, organizer: o });
        assert.deepEqual(ids(res), [both]);
        assert.match(res.json.rest_url, new RegExp(`&venue=${v}&organizer=${o}&`));
      });
    });

    describe('featured, status, post_parent, include, hidden', () => {
      it('EF/EAU-21/30: featured true and false', async () => {
        const plain = await many(t.api, 2, 'Plain');
        const featured = await many(t.api, 2, 'Featured', { featured: true });
        const yes = await list(t.api, { featured: 'true' });
        assert.deepEqual(ids(yes), featured);
        assert.ok(yes.json.events.every((e: { featured: boolean }) => e.featured === true));
        assert.match(yes.json.rest_url, /&featured=1&/);
        const no = await list(t.api, { featured: '0' });
        assert.deepEqual(ids(no), plain);
        assert.match(no.json.rest_url, /&featured=0&/);
        assert.deepEqual(await listIds(t.api), [...plain, ...featured]);
        assert.deepEqual(await listIds(t.api, { featured: 'yes' }), featured);
        assertInvalid(await t.api.get('/events', { query: { featured: 'maybe' } }), 'featured');
      });

      it('EF-04/05: featured drafts are listed to editors only', async () => {
        const published = await many(t.api, 2, 'Featured published', { featured: true });
        const drafts = await many(t.api, 2, 'Featured draft', { featured: true, status: 'draft' });
        assert.deepEqual(await listIds(t.api, { featured: 1 }), published);
        assert.deepEqual(await listIds(t.api, { featured: 1 }, 'editor'), [...published, ...drafts]);
      });

      it('EA-20..22, EAU-11/12: status visibility by role', async () => {
        const published = await many(t.api, 2, 'Published');
        const drafts = await many(t.api, 2, 'Draft', { status: 'draft' });
        const pending = await many(t.api, 2, 'Pending', { status: 'pending' });
        const privateOne = await ev(t.api, 'Private', { status: 'private' });
        const anonymous = await list(t.api);
        assert.deepEqual(ids(anonymous), published);
        assert.equal(anonymous.json.total, 2);
        assert.deepEqual(await listIds(t.api, { status: 'publish' }), published);
        const denied = await t.api.get('/events', { query: { status: 'draft' } });
        assert.equal(denied.status, 400);
        assert.equal(denied.json.code, 'rest_invalid_param');
        assert.deepEqual(Object.keys(denied.json.data.params), ['status']);
        assert.equal((await t.api.get('/events', { query: { status: 'publish, draft' } })).status, 400);
        assert.equal((await t.api.get('/events', { query: { status: 'publish' }, as: 'subscriber' })).status, 200);
        assert.equal((await t.api.get('/events', { query: { status: 'draft' }, as: 'subscriber' })).status, 400);
        assert.deepEqual(await listIds(t.api, {}, 'subscriber'), published);
        assert.deepEqual(await listIds(t.api, {}, 'editor'), [...published, ...drafts, ...pending, privateOne]);
        assert.deepEqual(await listIds(t.api, { status: 'draft' }, 'editor'), drafts);
        const two = await list(t.api, { status: 'publish, draft' }, 'editor');
        assert.deepEqual(ids(two), [...published, ...drafts]);
        assert.match(two.json.rest_url, /&status=publish%2Cdraft(&|$)/);
        assert.deepEqual(await listIds(t.api, 'status[]=publish&status[]=draft&status[]=pending', 'editor'), [...published, ...drafts, ...pending]);
        for (const bad of ['foo', 'foo, bar', 'foo, bar, publish']) {
          assertInvalid(await t.api.get('/events', { query: { status: bad }, as: 'editor' }), 'status');
        }
      });

      it('contributors see published events and only their own unpublished ones', async () => {
        const published = await ev(t.api, 'Published by editor');
        const editorDraft = await ev(t.api, 'Editor draft', { status: 'draft' });
        const ownDraft = await ev(t.api, 'Contributor draft', {}, 'contributor');
        const ownPending = await ev(t.api, 'Contributor pending', { status: 'publish' }, 'contributor');
        const res = await list(t.api, {}, 'contributor');
        assert.deepEqual(ids(res), [published, ownDraft, ownPending]);
        assert.ok(!ids(res).includes(editorDraft));
        assert.deepEqual(res.json.events.map((e: { status: string }) => e.status), ['publish', 'draft', 'pending']);
        assert.deepEqual(await listIds(t.api, { status: 'draft' }, 'contributor'), [ownDraft]);
        assert.deepEqual(await listIds(t.api, {}, 'editor'), [published, editorDraft, ownDraft, ownPending]);
        // Authors likewise see others' published events but not others' drafts.
        assert.deepEqual(await listIds(t.api, {}, 'author'), [published]);
      });

      it('EP-01..03: post_parent lists the children only; unknown is 400', async () => {
        const parent = await ev(t.api, 'Parent');
        const childA = await ev(t.api, 'Child A', { post_parent: parent });
        await ev(t.api, 'Unrelated');
        const childB = await ev(t.api, 'Child B', { post_parent: parent });
        const grandChild = await ev(t.api, 'Grandchild', { post_parent: childA });
        const res = await list(t.api, { post_parent: parent });
        assert.deepEqual(ids(res), [childA, childB]);
        assert.equal(res.json.total, 2);
        assert.equal(res.json.total_pages, 1);
        assert.match(res.json.rest_url, new RegExp(`&post_parent=${parent}(&|$)`));
        assert.deepEqual(await listIds(t.api, { post_parent: childA }), [grandChild]);
        assertEmpty(await t.api.get('/events', { query: { post_parent: childB } }));
        const v = await venue(t.api, 'Not an event');
        for (const bad of ['foo-bar', '999999', String(v), '0', '-1']) {
          assertInvalid(await t.api.get('/events', { query: { post_parent: bad } }), 'post_parent');
        }
      });

      it('EI-01/02: include by ids, CSV and array, in the listed order; non-integers are 400', async () => {
        const [a, b, c] = await many(t.api, 3, 'Included');
        const res = await list(t.api, `include[]=${a}&include[]=${b}&include[]=${c}`);
        assert.deepEqual(ids(res), [a, b, c]);
        assert.equal(res.json.total, 3);
        assert.equal(res.json.events[0].title, 'Included 1');
        assert.deepEqual(await listIds(t.api, { include: `${c},${a},${b}` }), [c, a, b]);
        assert.deepEqual(await listIds(t.api, { include: `${a},${b}` }), [a, b]);
        assert.deepEqual(await listIds(t.api, { include: [b] }), [b]);
        const draft = await ev(t.api, 'Draft', { status: 'draft' });
        assert.deepEqual(await listIds(t.api, { include: `${draft},${a}` }), [a]);
        assert.deepEqual(await listIds(t.api, { include: `${draft},${a}` }, 'editor'), [draft, a]);
        // Ids that name no event simply match nothing.
        assert.deepEqual(await listIds(t.api, { include: `${a},999999` }), [a]);
        assertInvalid(await t.api.get('/events', { query: { include: 'foo-bar,23,89' } }), 'include');
        assertInvalid(await t.api.get('/events?include[]=foo-bar&include[]=23&include[]=89'), 'include');
        assertInvalid(await t.api.get('/events', { query: { include: '1.5' } }), 'include');
      });

      it('hide_from_listings events are never listed but readable by id', async () => {
        const visible = await ev(t.api, 'Visible concert', { featured: true });
        const hidden = await ev(t.api, 'Hidden concert', { hide_from_listings: true, featured: true });
        assert.deepEqual(await listIds(t.api), [visible]);
        assert.deepEqual(await listIds(t.api, {}, 'editor'), [visible]);
        assert.deepEqual(await listIds(t.api, { search: 'hidden' }), []);
        assert.deepEqual(await listIds(t.api, { featured: true }), [visible]);
        assert.deepEqual(await listIds(t.api, { include: `${hidden},${visible}` }), [visible]);
        assert.deepEqual(await listIds(t.api, { include: String(hidden) }, 'editor'), []);
        const single = await t.api.get(`/events/${hidden}`);
        assert.equal(single.status, 200);
        assert.equal(single.json.id, hidden);
        assert.equal(single.json.hide_from_listings, true);
        const res = await list(t.api);
        assert.equal(res.json.total, 1);
      });
    });

    describe('geolocation and tickets', () => {
      it('geoloc=true keeps events whose venue has coordinates', async () => {
        const mapped = await venue(t.api, 'Mapped', { geo_lat: 48.8566, geo_lng: 2.3522 });
        const unmapped = await venue(t.api, 'Unmapped', { city: 'Nowhere' });
        const atMapped = await ev(t.api, 'At mapped', { venue: mapped });
        await ev(t.api, 'At unmapped', { venue: unmapped });
        await ev(t.api, 'Without venue');
        const res = await list(t.api, { geoloc: 'true' });
        assert.deepEqual(ids(res), [atMapped]);
        assert.match(res.json.rest_url, /&geoloc=1&/);
        assert.equal((await list(t.api, { geoloc: 'false' })).json.total, 3);
      });

      it('geoloc_lat/geoloc_lng/geoloc_radius: great-circle distance in km', async () => {
        // 10 km north of the centre: 10 / 6371 rad = 0.0899322°.
        const centre = await venue(t.api, 'Centre', { geo_lat: 48.8566, geo_lng: 2.3522 });
        const tenKm = await venue(t.api, 'Ten km north', { geo_lat: 48.9465322, geo_lng: 2.3522 });
        const london = await venue(t.api, 'London', { geo_lat: 51.5074, geo_lng: -0.1278 });
        const unmapped = await venue(t.api, 'Unmapped', { city: 'Paris' });
        const atCentre = await ev(t.api, 'At centre', { venue: centre });
        const atTen = await ev(t.api, 'At ten km', { venue: tenKm });
        const inLondon = await ev(t.api, 'In London', { venue: london });
        await ev(t.api, 'At unmapped', { venue: unmapped });
        await ev(t.api, 'No venue');
        const near = { geoloc_lat: 48.8566, geoloc_lng: 2.3522 };
        const wide = await list(t.api, { ...near, geoloc_radius: 25 });
        assert.deepEqual(ids(wide), [atCentre, atTen]);
        assert.match(wide.json.rest_url, /&geoloc_lat=48\.8566&geoloc_lng=2\.3522&geoloc_radius=25&/);
        assert.deepEqual(await listIds(t.api, near), [atCentre, atTen]);
        assert.deepEqual(await listIds(t.api, { ...near, geoloc_radius: 5 }), [atCentre]);
        assert.deepEqual(await listIds(t.api, { ...near, geoloc_radius: 10.5 }), [atCentre, atTen]);
        assert.deepEqual(await listIds(t.api, { ...near, geoloc_radius: 9.5 }), [atCentre]);
        assert.deepEqual(await listIds(t.api, { geoloc_lat: 51.5, geoloc_lng: -0.12, geoloc_radius: 5 }), [inLondon]);
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
        const a = await ev(t.api, 'A');
        const b = await ev(t.api, 'B');
        const res = await list(t.api, { ticketed: 'false' });
        assert.deepEqual(ids(res), [a, b]);
        const denied = await t.api.get('/events', { query: { ticketed: 'true' } });
        assert.equal(denied.status, 400);
        assert.equal(denied.json.code, 'rest_invalid_param');
        assert.deepEqual(Object.keys(denied.json.data.params), ['ticketed']);
        assert.equal(denied.json.data.details.ticketed.code, 'event-tickets-not-active');
        assert.equal((await t.api.get('/events', { query: { ticketed: '1' } })).json.data.details.ticketed.code, 'event-tickets-not-active');
        assert.equal((await t.api.get('/events', { query: { ticketed: 'perhaps' } })).status, 400);
      });
    });

    describe('password-protected events in lists', () => {
      async function protectedSetup(api: TestApi) {
        const v = await venue(api, 'Secret hall', { geo_lat: 40, geo_lng: -70 });
        const o = await organizer(api, 'Secret org');
        const c = await term(api, 'categories', 'secret-cat');
        const g = await term(api, 'tags', 'secret-tag');
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
        const open = await ev(api, 'Open event', full);
        const locked = await ev(api, 'Locked gala', { ...full, password: 'pw' });
        const other = await ev(api, 'Other locked', { ...full, password: 'different' });
        return { open, locked, other };
      }

      it('are listed blanked, with title and dates kept (EAU-34)', async () => {
        const { open, locked, other } = await protectedSetup(t.api);
        const res = await list(t.api);
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
          assert.deepEqual(item.cost_details, { currency_symbol: '', currency_code: '', currency_position: '', values: [] });
          assert.equal(item.website, '');
          for (const flag of ['show_map', 'show_map_link', 'hide_from_listings', 'sticky', 'featured']) assert.equal(item[flag], null, flag);
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
        for (const [item, password] of [[lockedItem, 'pw'], [otherItem, 'different']] as const) {
          const single = await t.api.get(`/events/${item.id}`, { query: { password } });
          assert.equal(single.status, 200, single.text);
          for (const key of ['start_date', 'start_date_details', 'end_date', 'utc_start_date', 'utc_end_date', 'timezone_abbr', 'url', 'date', 'global_id']) {
            assert.deepEqual(item[key], single.json[key], key);
          }
          assert.match(item.start_date, /^2026-12-\d\d \d\d:00:00$/);
        }
        assert.deepEqual(Object.keys(lockedItem), Object.keys(openItem));
        assert.equal('password' in lockedItem, false);
      });

      it('are unlocked by the matching password param, or for an editor', async () => {
        const { locked, other } = await protectedSetup(t.api);
        const res = await list(t.api, { password: 'pw' });
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
        assert.deepEqual(lockedItem.organizer.map((o: { organizer: string }) => o.organizer), ['Secret org']);
        assert.deepEqual(lockedItem.categories.map((c: { slug: string }) => c.slug), ['secret-cat']);
        assert.deepEqual(lockedItem.tags.map((c: { slug: string }) => c.slug), ['secret-tag']);
        // Another password stays locked.
        assert.equal(otherItem.description, '');
        assert.deepEqual(otherItem.venue, []);
        for (const who of ['editor', 'administrator'] as const) {
          const asEditor = await list(t.api, {}, who);
          for (const item of asEditor.json.events) {
            assert.equal(item.description, '<p>Behind the curtain</p>', `${who} ${item.id}`);
            assert.equal(item.featured, true);
            assert.deepEqual(item.categories.map((c: { slug: string }) => c.slug), ['secret-cat']);
          }
        }
        // A subscriber cannot edit: still blanked.
        const sub = await list(t.api, {}, 'subscriber');
        assert.equal(sub.json.events.find((e: { id: number }) => e.id === locked).description, '');
      });

      it('callers who may edit the event see it unblanked and search its text; others do not', async () => {
        const contributorsDraft = await ev(t.api, 'Contributor secret', { description: 'The hidden-lynx plan', password: 'pw' }, 'contributor');
        const authorsEvent = await ev(t.api, 'Author secret', { description: 'The hidden-lynx party', password: 'pw' }, 'author');
        const asContributor = await list(t.api, {}, 'contributor');
        assert.deepEqual(ids(asContributor), [contributorsDraft, authorsEvent]);
        assert.equal(asContributor.json.events[0].description, '<p>The hidden-lynx plan</p>');
        assert.equal(asContributor.json.events[1].description, '');
        assert.deepEqual(await listIds(t.api, { search: 'lynx' }, 'contributor'), [contributorsDraft]);
        const asAuthor = await list(t.api, {}, 'author');
        assert.deepEqual(ids(asAuthor), [authorsEvent]);
        assert.equal(asAuthor.json.events[0].description, '<p>The hidden-lynx party</p>');
        assert.deepEqual(await listIds(t.api, { search: 'lynx' }, 'author'), [authorsEvent]);
        assert.deepEqual(await listIds(t.api, { search: 'lynx' }), []);
        assert.deepEqual(await listIds(t.api, { search: 'lynx' }, 'editor'), [contributorsDraft, authorsEvent]);
        // Once published, a contributor may no longer edit it: blanked and not searchable for them.
        const published = await t.api.patch(`/events/${contributorsDraft}`, { status: 'publish' }, { as: 'editor' });
        assert.equal(published.status, 200, published.text);
        const after = await list(t.api, {}, 'contributor');
        assert.equal(after.json.events.find((e: { id: number }) => e.id === contributorsDraft).description, '');
        assert.deepEqual(await listIds(t.api, { search: 'lynx' }, 'contributor'), []);
      });

      it('filters do not reveal blanked relations to a locked caller but still apply', async () => {
        const { open, locked, other } = await protectedSetup(t.api);
        const res = await list(t.api, { categories: 'secret-cat' });
        assert.deepEqual(ids(res), [open, locked, other]);
        assert.deepEqual(res.json.events[1].categories, []);
      });
    });
  });
}
