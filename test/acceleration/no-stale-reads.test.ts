import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { isDeepStrictEqual } from 'node:util';
import { testDialects } from '../helpers/databases.js';
import { DEFAULT_NOW, TestApi, useTestApp, type TestResponse, type Who } from '../helpers/app.js';
import { buildApp } from '../../src/app.js';

// The safety net of cache invalidation: every write route (events, venues, organizers, categories,
// tags; by id and by slug; trash and force) is followed at once by reads of every view that could
// hold what it changed, warmed beforehand into every cache (anonymous responses, rendered events and
// embedded items, counts and kept lists, search candidates, term/venue/organizer rows, slug ids,
// post bases). Each read is compared with what a small model of the calendar, kept by the test,
// says it must be now: exact ids, titles, slugs, totals and counts.
//
// Each test: setup writes through a second app on the same database (another process, as far as
// caches know), warming of the app under test (anonymously and as an editor), the one write under
// test through that app, then one read of every view. A stale read is that write's alone.

const PUBLIC_URL = 'http://127.0.0.1:8080';
/** Reads per view and reader before the write: enough for every cache to keep it (responses from the second read, lists once "hot"). */
const WARM_ROUNDS = 3;
const READERS = ['anonymous', 'editor'] as const;
type Reader = (typeof READERS)[number];

/** An app and the credentials its reads and writes are made with (users are made once, by the suite's first app). */
interface Session {
  api: TestApi;
  as: Record<Reader | 'writer', Who>;
}

// ---------------------------------------------------------------------------------------------
// The model: what the calendar holds, updated by each test next to its write.

type PostStatus = 'publish' | 'draft' | 'trash';
type LinkedType = 'venue' | 'organizer';
type Taxonomy = 'categories' | 'tags';

interface EventModel {
  id: number;
  title: string;
  slug: string;
  status: PostStatus;
  /** Local wall-clock start in UTC (the site and event zone), `YYYY-MM-DD HH:MM:SS`. */
  start: string;
  venue: number | null;
  organizers: number[];
  categories: number[];
  tags: number[];
}

interface LinkedModel {
  type: LinkedType;
  id: number;
  name: string;
  slug: string;
  status: PostStatus;
}

interface TermModel {
  taxonomy: Taxonomy;
  id: number;
  name: string;
  slug: string;
  parent: number;
}

const LINKED = {
  venue: { path: 'venues', suffix: 'Hall', notFound: 'venue-not-found', notAccessible: 'venue-not-accessible' },
  organizer: {
    path: 'organizers',
    suffix: 'Presents',
    notFound: 'organizer-not-found',
    notAccessible: 'organizer-not-accessible',
  },
} as const;

/** Words searched for: distinct, none inside another or inside the fixed words of names. */
const WORDS =
  `quokka zephyr marimba tundra obelisk saffron walrus nebula pagoda quasar falcon banjo cobalt dynamo fjord geyser harpoon
  igloo jackal lagoon mantis narwhal oyster pelican quiver raven sequoia toucan vulture wombat xylophone yodel zenith almond bramble
  cactus dervish eclipse fennel gazelle hibiscus iguana juniper kestrel lemur magnolia nutmeg orchid paprika quince rhubarb sorrel
  tamarind uakari verbena wasabi yarrow zucchini anvil bugle cymbal dulcimer euphonium flute gong kazoo mandolin oboe piccolo recorder
  sitar tuba ukulele viola zither acorn birch cedar dogwood elm fir ginkgo hazel ivy kapok larch maple nettle olive poplar rowan
  spruce teak willow yew bison camel dingo ermine ferret gecko hyena ibex jaguar koala llama meerkat newt ocelot panda quetzal rhino
  skunk tapir urchin vole wolverine zebra basalt chert dolomite feldspar gneiss jasper kyanite marble onyx pumice quartz rhyolite
  slate topaz`.split(/\s+/);
const FIXED_WORDS = [
  'gathering',
  'hall',
  'presents',
  'folk',
  'outdoor',
  'harbour',
  'lantern',
  'aardvark',
  'badger',
  'cormorant',
];
for (const word of WORDS) {
  for (const other of [...WORDS, ...FIXED_WORDS]) {
    if (word !== other && (word.includes(other) || other.includes(word)))
      throw new Error(`search words overlap: ${word} / ${other}`);
  }
}

const capitalised = (word: string) => word[0].toUpperCase() + word.slice(1);
const firstWord = (name: string) => name.split(' ')[0].toLowerCase();
const eventTitle = (word: string) => `${capitalised(word)} gathering`;
const linkedName = (type: LinkedType, word: string) => `${capitalised(word)} ${LINKED[type].suffix}`;
/** The slug the API derives from a name of ASCII words. */
const slugOf = (name: string) => name.toLowerCase().replace(/ /g, '-');
const trashed = (slug: string) => `${slug}__trashed`;

class Model {
  readonly events = new Map<number, EventModel>();
  readonly linked = { venue: new Map<number, LinkedModel>(), organizer: new Map<number, LinkedModel>() };
  readonly terms = new Map<number, TermModel>();
  private words = 0;
  private slots = 0;

  /** A search word no other name has. */
  word(): string {
    const word = WORDS[this.words++];
    if (!word) throw new Error('out of search words: add some to WORDS');
    return word;
  }

  /** Successive starts inside the default window, one hour apart. */
  slot(): string {
    this.slots += 1;
    return new Date(Date.parse('2026-12-01T00:00:00Z') + this.slots * 3_600_000)
      .toISOString()
      .slice(0, 19)
      .replace('T', ' ');
  }

  /** Published events per term (API.md §12). */
  count(term: TermModel): number {
    let count = 0;
    for (const event of this.events.values())
      if (event.status === 'publish' && [...event.categories, ...event.tags].includes(term.id)) count += 1;
    return count;
  }

  /** A category or tag by id or slug, as a list filter resolves it. */
  term(taxonomy: Taxonomy, ref: string | number): TermModel | undefined {
    return [...this.terms.values()].find(
      (term) => term.taxonomy === taxonomy && (typeof ref === 'number' ? term.id === ref : term.slug === ref),
    );
  }

  /** A category and its descendants. */
  withDescendants(id: number): Set<number> {
    const ids = new Set([id]);
    for (let grew = true; grew;) {
      grew = false;
      for (const term of this.terms.values()) {
        if (!ids.has(term.id) && ids.has(term.parent)) {
          ids.add(term.id);
          grew = true;
        }
      }
    }
    return ids;
  }

  /** Trashing or deleting a venue or organizer unlinks it from its events (API.md §13). */
  unlink(item: LinkedModel): void {
    for (const event of this.events.values()) {
      if (item.type === 'venue' && event.venue === item.id) event.venue = null;
      if (item.type === 'organizer') event.organizers = event.organizers.filter((id) => id !== item.id);
    }
  }

  /** Deleting a term takes it off its events. */
  dropTerm(term: TermModel): void {
    this.terms.delete(term.id);
    for (const event of this.events.values()) {
      event.categories = event.categories.filter((id) => id !== term.id);
      event.tags = event.tags.filter((id) => id !== term.id);
    }
    for (const other of this.terms.values()) if (other.parent === term.id) other.parent = term.parent;
  }
}

// ---------------------------------------------------------------------------------------------
// What each read must show. A read's digest keeps what a stale cache would get wrong, as text lines
// that make a failure readable; the expectation is the same digest computed from the model.

type Query = Record<string, string | number>;
type Digest = unknown;

const seesEvent = (who: Reader, event: EventModel) =>
  who === 'anonymous' ? event.status === 'publish' : event.status !== 'trash';
/** Single reads, and the events list filters may name (API.md §18): editors may read any. */
const readsEvent = (who: Reader, event: EventModel) => who === 'editor' || event.status === 'publish';
/** Lists of venues and organizers: published ones for the public, all but the trash for editors. */
const listsLinked = (who: Reader, item: LinkedModel) =>
  who === 'anonymous' ? item.status === 'publish' : item.status !== 'trash';
/** Single reads and embedded copies: editors may read any (API.md §4, §14). */
const readsLinked = (who: Reader, item: LinkedModel) => who === 'editor' || item.status === 'publish';
const byStart = (a: EventModel, b: EventModel) => (a.start < b.start ? -1 : a.start > b.start ? 1 : a.id - b.id);
const byName = (a: TermModel, b: TermModel) =>
  a.name.toLowerCase() < b.name.toLowerCase() ? -1 : a.name.toLowerCase() > b.name.toLowerCase() ? 1 : a.id - b.id;

const failure = (status: number, code: string) => ({ status, code });

function failureOf(res: TestResponse): Digest {
  return failure(res.status, res.json?.code);
}

/** A page of a list, or the 404 past its last page. */
function page<T>(items: T[], query: Query, line: (item: T) => string, pastLast: string): Digest {
  const perPage = Number(query.per_page ?? 10);
  const number = Number(query.page ?? 1);
  const shown = items.slice((number - 1) * perPage, number * perPage);
  if (shown.length === 0 && number > 1) return failure(404, pastLast);
  const total = items.length;
  return {
    status: 200,
    total,
    header: String(total),
    pages: total === 0 ? 0 : Math.ceil(total / perPage),
    items: shown.map(line),
  };
}

function listDigest(res: TestResponse, key: string, line: (item: never) => string): Digest {
  if (res.status !== 200) return failureOf(res);
  return {
    status: 200,
    total: res.json.total,
    header: res.headers['x-tec-total'],
    pages: res.json.total_pages,
    items: res.json[key].map(line),
  };
}

// Events ----------------------------------------------------------------------------------------

interface EventJson {
  id: number;
  title: string;
  status: string;
  slug: string;
  url: string;
  start_date: string;
  venue: { venue: string; slug: string } | [];
  organizer: { organizer: string; slug: string }[];
  categories: TermJson[];
  tags: TermJson[];
  json_ld?: { name: string; location?: { name: string }; organizer?: { name: string } };
}

interface TermJson {
  id: number;
  name: string;
  slug: string;
  count: number;
  parent?: number;
}

const embeddedTerm = (term: { id: number; name: string; slug: string; count: number }) =>
  `${term.name} (${term.slug}) x${term.count}`;
const embeddedLinked = (name: string, slug: string) => `${name} (${slug})`;

function eventLineOf(json: EventJson): string {
  const venue = Array.isArray(json.venue) ? 'none' : embeddedLinked(json.venue.venue, json.venue.slug);
  const organizers = json.organizer.map((o) => embeddedLinked(o.organizer, o.slug)).join(', ') || 'none';
  return `#${json.id} "${json.title}" ${json.status} slug=${json.slug} start=${json.start_date} | venue: ${venue} | organizers: ${organizers} | categories: ${json.categories.map(embeddedTerm).join(', ')} | tags: ${json.tags.map(embeddedTerm).join(', ')}`;
}

/** An item the model must know: a test whose write it lost fails here, naming it. */
function known<T>(item: T | undefined, what: string): T {
  assert.ok(item !== undefined, `the model knows no ${what}`);
  return item;
}

function expectedEventLine(model: Model, who: Reader, event: EventModel): string {
  const linked = (type: LinkedType, id: number) => {
    const item = model.linked[type].get(id);
    return item && readsLinked(who, item) ? [embeddedLinked(item.name, item.slug)] : [];
  };
  const venue = event.venue === null ? [] : linked('venue', event.venue);
  const organizers = event.organizers.flatMap((id) => linked('organizer', id));
  const terms = (ids: number[]) =>
    ids
      .map((id) => known(model.terms.get(id), `term ${id}`))
      .map((term) => embeddedTerm({ ...term, count: model.count(term) }));
  return `#${event.id} "${event.title}" ${event.status} slug=${event.slug} start=${event.start} | venue: ${venue[0] ?? 'none'} | organizers: ${organizers.join(', ') || 'none'} | categories: ${terms(event.categories).join(', ')} | tags: ${terms(event.tags).join(', ')}`;
}

function singleEventOf(json: EventJson): string {
  const ld = json.json_ld;
  return `${eventLineOf(json)} | url=${json.url} | json_ld: "${ld?.name ?? 'none'}" at ${ld?.location?.name ?? 'none'} by ${ld?.organizer?.name ?? 'none'}`;
}

function expectedSingleEvent(model: Model, who: Reader, event: EventModel): string {
  const url =
    event.status === 'publish' && event.slug !== ''
      ? `${PUBLIC_URL}/event/${event.slug}/`
      : `${PUBLIC_URL}/?post_type=tribe_events&p=${event.id}`;
  const venue = event.venue === null ? undefined : model.linked.venue.get(event.venue);
  const organizer = event.organizers
    .map((id) => known(model.linked.organizer.get(id), `organizer ${id}`))
    .find((item) => readsLinked(who, item));
  const place = venue && readsLinked(who, venue) ? venue.name : 'none';
  return `${expectedEventLine(model, who, event)} | url=${url} | json_ld: "${event.title}" at ${place} by ${organizer?.name ?? 'none'}`;
}

/** GET /events with `query`, as the model answers it (API.md §10). */
function expectedEventList(model: Model, who: Reader, query: Query): Digest {
  let events = [...model.events.values()].filter((event) => seesEvent(who, event));
  for (const taxonomy of ['categories', 'tags'] as const) {
    if (query[taxonomy] === undefined) continue;
    const ref = query[taxonomy];
    const term = model.term(taxonomy, /^\d+$/.test(String(ref)) ? Number(ref) : String(ref));
    if (!term) return failure(400, 'rest_invalid_param');
    const ids = taxonomy === 'categories' ? model.withDescendants(term.id) : new Set([term.id]);
    events = events.filter((event) => event[taxonomy].some((id) => ids.has(id)));
  }
  for (const type of ['venue', 'organizer'] as const) {
    if (query[type] === undefined) continue;
    const id = Number(query[type]);
    if (!model.linked[type].has(id)) return failure(400, 'rest_invalid_param');
    events = events.filter((event) => (type === 'venue' ? event.venue === id : event.organizers.includes(id)));
  }
  if (query.search !== undefined)
    events = events.filter((event) => event.title.toLowerCase().includes(String(query.search)));
  return page(
    events.sort(byStart),
    query,
    (event) => expectedEventLine(model, who, event),
    'event-archive-page-not-found',
  );
}

// Venues and organizers -------------------------------------------------------------------------

interface LinkedJson {
  id: number;
  status: string;
  slug: string;
  venue?: string;
  organizer?: string;
}

const linkedLine = (id: number, name: string, status: string, slug: string) =>
  `#${id} "${name}" ${status} slug=${slug}`;
const linkedLineOf = (type: LinkedType) => (json: LinkedJson) =>
  linkedLine(json.id, json[type] ?? '(no name)', json.status, json.slug);
const expectedLinkedLine = (item: LinkedModel) => linkedLine(item.id, item.name, item.status, item.slug);

/** GET /venues or /organizers with `query` (API.md §11): newest first (all are published at the test clock's instant: by id). */
function expectedLinkedList(model: Model, who: Reader, type: LinkedType, query: Query): Digest {
  let items = [...model.linked[type].values()].filter((item) => listsLinked(who, item));
  if (query.search !== undefined)
    items = items.filter((item) => item.name.toLowerCase().includes(String(query.search)));
  if (query.event !== undefined) {
    const event = model.events.get(Number(query.event));
    if (!event || !readsEvent(who, event)) return failure(400, 'rest_invalid_param');
    items = items.filter((item) => (type === 'venue' ? event.venue === item.id : event.organizers.includes(item.id)));
  }
  return page(
    items.sort((a, b) => b.id - a.id),
    query,
    expectedLinkedLine,
    `${type}-archive-page-not-found`,
  );
}

function expectedLinkedRead(
  model: Model,
  who: Reader,
  type: LinkedType,
  ref: { id: number } | { slug: string },
): Digest {
  const item = [...model.linked[type].values()].find((candidate) =>
    'id' in ref ? candidate.id === ref.id : candidate.slug === ref.slug,
  );
  if (!item) return failure(404, LINKED[type].notFound);
  if (!readsLinked(who, item)) return failure(403, LINKED[type].notAccessible);
  return { status: 200, item: expectedLinkedLine(item) };
}

// Categories and tags ---------------------------------------------------------------------------

const termLine = (term: { id: number; name: string; slug: string; count: number; parent?: number }) =>
  `#${term.id} "${term.name}" slug=${term.slug} count=${term.count}${term.parent ? ` parent=#${term.parent}` : ''}`;
const expectedTermLine = (model: Model) => (term: TermModel) => termLine({ ...term, count: model.count(term) });

/** GET /categories or /tags with `query` (API.md §12): by name, empty ones hidden unless hide_empty=false. */
function expectedTermList(model: Model, who: Reader, taxonomy: Taxonomy, query: Query): Digest {
  let terms = [...model.terms.values()].filter((term) => term.taxonomy === taxonomy);
  if (query.hide_empty !== 'false') terms = terms.filter((term) => model.count(term) > 0);
  if (query.search !== undefined) {
    const word = String(query.search);
    terms = terms.filter((term) => term.name.toLowerCase().includes(word) || term.slug.includes(word));
  }
  if (query.event !== undefined) {
    const event = model.events.get(Number(query.event));
    if (!event || !readsEvent(who, event)) return failure(400, 'rest_invalid_param');
    terms = terms.filter((term) => event[taxonomy].includes(term.id));
  }
  return page(terms.sort(byName), query, expectedTermLine(model), '');
}

function expectedTermRead(model: Model, taxonomy: Taxonomy, id: number): Digest {
  const term = model.term(taxonomy, id);
  return term ? { status: 200, term: expectedTermLine(model)(term) } : failure(404, 'rest_term_invalid');
}

// Views -----------------------------------------------------------------------------------------

/** One read of the API and what it must show to each reader. */
interface View {
  label: string;
  path: string;
  query?: Query;
  digest(res: TestResponse): Digest;
  expected(who: Reader): Digest;
}

function view(path: string, query: Query | undefined, digest: View['digest'], expected: View['expected']): View {
  const search = query
    ? `?${new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString()}`
    : '';
  return { label: `GET ${path}${search}`, path, query, digest, expected };
}

const views = {
  events: (model: Model, query: Query = {}) =>
    view(
      '/events',
      Object.keys(query).length > 0 ? query : undefined,
      (res) => listDigest(res, 'events', eventLineOf),
      (who) => expectedEventList(model, who, query),
    ),

  event: (model: Model, ref: { id: number } | { slug: string }) =>
    view(
      'id' in ref ? `/events/${ref.id}` : `/events/by-slug/${ref.slug}`,
      undefined,
      (res) => (res.status === 200 ? { status: 200, event: singleEventOf(res.json) } : failureOf(res)),
      (who) => {
        const event = [...model.events.values()].find((candidate) =>
          'id' in ref ? candidate.id === ref.id : candidate.slug === ref.slug,
        );
        if (!event) return failure(404, 'rest-event-not-found');
        if (event.status === 'trash') return failure(403, 'event-no-longer-available');
        if (!seesEvent(who, event)) return failure(403, 'event-not-accessible');
        return { status: 200, event: expectedSingleEvent(model, who, event) };
      },
    ),

  linkedList: (model: Model, type: LinkedType, query: Query = {}) =>
    view(
      `/${LINKED[type].path}`,
      Object.keys(query).length > 0 ? query : undefined,
      (res) => listDigest(res, LINKED[type].path, linkedLineOf(type)),
      (who) => expectedLinkedList(model, who, type, query),
    ),

  linked: (model: Model, type: LinkedType, ref: { id: number } | { slug: string }) =>
    view(
      'id' in ref ? `/${LINKED[type].path}/${ref.id}` : `/${LINKED[type].path}/by-slug/${ref.slug}`,
      undefined,
      (res) => (res.status === 200 ? { status: 200, item: linkedLineOf(type)(res.json) } : failureOf(res)),
      (who) => expectedLinkedRead(model, who, type, ref),
    ),

  terms: (model: Model, taxonomy: Taxonomy, query: Query = {}) =>
    view(
      `/${taxonomy}`,
      Object.keys(query).length > 0 ? query : undefined,
      (res) => listDigest(res, taxonomy, termLine),
      (who) => expectedTermList(model, who, taxonomy, query),
    ),

  term: (model: Model, taxonomy: Taxonomy, id: number) =>
    view(
      `/${taxonomy}/${id}`,
      undefined,
      (res) => (res.status === 200 ? { status: 200, term: termLine(res.json) } : failureOf(res)),
      () => expectedTermRead(model, taxonomy, id),
    ),
};

/** What a write touches: the views of these items, of the items their events embed, and of every list they appear in, are warmed and checked. */
interface Focus {
  events?: EventModel[];
  venues?: LinkedModel[];
  organizers?: LinkedModel[];
  terms?: TermModel[];
  /** Words searched in every list, besides the first word of each focused item's name (a new name's word, say). */
  words?: string[];
  /** Slugs read or filtered on besides the focused items' own: the ones a write gives or takes away. */
  slugs?: { event?: string[]; venue?: string[]; organizer?: string[]; categories?: string[]; tags?: string[] };
}

/**
 * Every view that could hold what the focused items (and the items their events embed) show: all list kinds (events with and without
 * paging, per term by slug and id, per venue and organizer, per search word; venues, organizers,
 * categories and tags, with search, hide_empty=false and per event), and single reads by id and slug.
 */
function viewsOf(model: Model, focus: Focus): View[] {
  const result: View[] = [];
  const unique = <T extends { id: number }>(items: T[]) => [...new Map(items.map((item) => [item.id, item])).values()];
  const embedded = (ids: (event: EventModel) => (number | null)[]) =>
    (focus.events ?? []).flatMap(ids).filter((id): id is number => id !== null);
  const linkedOf = (type: LinkedType) =>
    unique([
      ...((type === 'venue' ? focus.venues : focus.organizers) ?? []),
      ...embedded((event) => (type === 'venue' ? [event.venue] : event.organizers)).map((id) =>
        known(model.linked[type].get(id), `${type} ${String(id)}`),
      ),
    ]);
  const focusTerms = unique([
    ...(focus.terms ?? []),
    ...embedded((event) => [...event.categories, ...event.tags]).map((id) => known(model.terms.get(id), `term ${id}`)),
  ]);
  /** Words searched in a list: its focused items' first words, and the test's own. */
  const wordsOf = (names: string[]) => [...new Set([...names.map(firstWord), ...(focus.words ?? [])])];

  result.push(
    views.events(model),
    views.events(model, { per_page: 50 }),
    views.events(model, { per_page: 3 }),
    views.events(model, { per_page: 3, page: 2 }),
  );
  for (const word of ['gathering', ...wordsOf((focus.events ?? []).map((event) => event.title))])
    result.push(views.events(model, { search: word }));
  for (const term of focusTerms)
    result.push(views.events(model, { [term.taxonomy]: term.slug }), views.events(model, { [term.taxonomy]: term.id }));
  for (const taxonomy of ['categories', 'tags'] as const)
    for (const slug of focus.slugs?.[taxonomy] ?? []) result.push(views.events(model, { [taxonomy]: slug }));
  for (const type of ['venue', 'organizer'] as const) {
    // Two URLs of one filter: lists are kept once read often enough, and anonymous repeats are answered before the handler.
    for (const item of linkedOf(type))
      result.push(views.events(model, { [type]: item.id }), views.events(model, { [type]: item.id, per_page: 50 }));
  }
  for (const event of focus.events ?? []) {
    result.push(views.event(model, { id: event.id }));
    if (event.slug !== '') result.push(views.event(model, { slug: event.slug }));
  }
  for (const slug of focus.slugs?.event ?? []) result.push(views.event(model, { slug }));

  for (const type of ['venue', 'organizer'] as const) {
    result.push(
      views.linkedList(model, type),
      views.linkedList(model, type, { per_page: 50 }),
      views.linkedList(model, type, { search: firstWord(LINKED[type].suffix), per_page: 50 }),
    );
    for (const word of wordsOf(linkedOf(type).map((item) => item.name)))
      result.push(views.linkedList(model, type, { search: word }));
    for (const event of focus.events ?? []) result.push(views.linkedList(model, type, { event: event.id }));
    for (const item of linkedOf(type))
      result.push(views.linked(model, type, { id: item.id }), views.linked(model, type, { slug: item.slug }));
    for (const slug of focus.slugs?.[type] ?? []) result.push(views.linked(model, type, { slug }));
  }

  for (const taxonomy of ['categories', 'tags'] as const) {
    const terms = focusTerms.filter((term) => term.taxonomy === taxonomy);
    result.push(views.terms(model, taxonomy), views.terms(model, taxonomy, { hide_empty: 'false', per_page: 50 }));
    for (const word of wordsOf(terms.map((term) => term.name)))
      result.push(views.terms(model, taxonomy, { search: word, hide_empty: 'false' }));
    for (const event of focus.events ?? [])
      result.push(views.terms(model, taxonomy, { event: event.id, hide_empty: 'false' }));
    for (const term of terms) result.push(views.term(model, taxonomy, term.id));
  }
  const seen = new Set<string>();
  return result.filter((v) => !seen.has(v.label) && seen.add(v.label));
}

async function read(session: Session, v: View, who: Reader): Promise<Digest> {
  return v.digest(await session.api.get(v.path, { as: session.as[who], query: v.query }));
}

/** Differences between reads and the model, one paragraph each. */
async function mismatches(session: Session, list: View[]): Promise<string[]> {
  const reads = await inParallel(
    list.flatMap((v) => READERS.map((who) => ({ v, who }))),
    async ({ v, who }) => ({ v, who, actual: await read(session, v, who) }),
  );
  return reads.flatMap(({ v, who, actual }) => {
    const expected = v.expected(who);
    return isDeepStrictEqual(actual, expected)
      ? []
      : [
          `[${who}] ${v.label}\n  expected: ${JSON.stringify(expected, null, 1)}\n  actual:   ${JSON.stringify(actual, null, 1)}`,
        ];
  });
}

/** Reads at once, a few at a time (PostgreSQL round trips overlap), results in order. */
async function inParallel<T, R>(items: T[], run: (item: T) => Promise<R>, width = 8): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await run(items[index]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
  return results;
}

/**
 * Reads every view WARM_ROUNDS times, anonymously and as an editor, so that every cache holds it;
 * the first round is checked against the model (a failure there is a bug of the model, or the
 * app under test missed writes made through the other app), and the last one must find every successful anonymous read in the
 * response cache (else the test warms nothing and proves nothing). The in-memory search
 * candidates are made ready first, so anonymous searches use them.
 */
async function warm(session: Session, list: View[]): Promise<void> {
  await session.api.app.calendar.events.prepare();
  const wrong = await mismatches(session, list);
  assert.equal(
    wrong.length,
    0,
    `before the write, ${wrong.length} reads disagree with the model: a bug of the model, or the app under test missed the setup app's writes:\n${wrong.join('\n')}`,
  );
  const reads = list.flatMap((v) => READERS.map((who) => ({ v, who })));
  let last: TestResponse[] = [];
  for (let round = 1; round < WARM_ROUNDS; round++)
    last = await inParallel(reads, ({ v, who }) => session.api.get(v.path, { as: session.as[who], query: v.query }));
  const uncached = reads.filter(
    ({ who }, i) => who === 'anonymous' && last[i].status === 200 && last[i].headers['x-calendar-cache'] !== 'hit',
  );
  assert.deepEqual(
    uncached.map(({ v }) => v.label),
    [],
    'warmed anonymous reads are answered from the response cache',
  );
}

/** Warms every view of `focus`, runs the write (which updates the model), then reads each view once: none may be stale. */
async function proveNoStaleRead(
  session: Session,
  model: Model,
  focus: Focus,
  write: () => Promise<void>,
): Promise<void> {
  const list = viewsOf(model, focus);
  await warm(session, list);
  await write();
  const stale = await mismatches(session, list);
  assert.equal(
    stale.length,
    0,
    `${stale.length} of ${list.length * READERS.length} reads after the write are stale:\n${stale.join('\n')}`,
  );
}

// ---------------------------------------------------------------------------------------------
// Writing, through HTTP as an administrator.

interface Written {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

/**
 * The model and the two apps it is checked against, on one database. Setup writes go through a
 * second app (another server process, as far as caches know: each of its writes makes every entry
 * of the app under test unusable), so that in the app under test the write under test is the only
 * local one since warming: a stale read is that write's, not a setup's or an earlier test's.
 */
class Calendar {
  readonly model = new Model();
  private underTest: Session | undefined;
  private setup: Session | undefined;
  private proving = false;
  private proofs = 0;

  constructor(private readonly appUnderTest: () => TestApi) {}

  /** Boots the setup app, and makes an editor and an administrator (users are shared by the database). */
  async start(): Promise<void> {
    const api = this.appUnderTest();
    const [editor, administrator] = [await api.user('editor'), await api.user('administrator')];
    const as = {
      anonymous: 'anonymous',
      editor: { authorization: editor.header },
      writer: { authorization: administrator.header },
    } as const;
    this.underTest = { api, as };
    const app = await buildApp(api.config, { clock: () => DEFAULT_NOW, logger: false });
    this.setup = { api: new TestApi(app, api.config, api.dialect), as };
  }

  async stop(): Promise<void> {
    await this.setup?.api.app.close();
  }

  /** A write that must succeed: through the app under test while proving, else through the setup app. */
  async write(
    method: 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    path: string,
    body?: Record<string, unknown>,
    query?: Query,
  ): Promise<Written> {
    const session = this.proving ? this.underTest : this.setup;
    if (!session) throw new Error('start() first');
    const res = await session.api.request(method, path, body, { as: session.as.writer, query });
    assert.ok(res.status === 200 || res.status === 201, `${method} ${path} answered ${res.status}: ${res.text}`);
    return res;
  }

  /**
   * Runs `write` on the app under test between warming and checking every view of `focus`. A write
   * through the setup app comes first, even when the test made none: what an earlier test's write
   * left in the app under test, stale or not, is then unusable, and each test starts from a cold app.
   */
  async prove(focus: Focus, write: () => Promise<void>): Promise<void> {
    if (!this.underTest) throw new Error('start() first');
    const session = this.underTest;
    // A change no view shows (SQLite sees another connection's commit only if it changed a page).
    const touched = [...this.model.terms.values()][0];
    await this.write('PATCH', `/${touched.taxonomy}/${touched.id}`, {
      description: `touched before proof ${++this.proofs}`,
    });
    await proveNoStaleRead(session, this.model, focus, async () => {
      this.proving = true;
      try {
        await write();
      } finally {
        this.proving = false;
      }
    });
  }

  async event(
    options: {
      status?: 'publish' | 'draft';
      venue?: LinkedModel;
      organizers?: LinkedModel[];
      categories?: TermModel[];
      tags?: TermModel[];
      title?: string;
    } = {},
  ): Promise<EventModel> {
    const title = options.title ?? eventTitle(this.model.word());
    const start = this.model.slot();
    const end = start.replace(/:00:00$/, ':30:00');
    const { json } = await this.write('POST', '/events', {
      title,
      start_date: start,
      end_date: end,
      status: options.status ?? 'publish',
      ...(options.venue ? { venue: options.venue.id } : {}),
      ...(options.organizers ? { organizer: options.organizers.map((o) => o.id) } : {}),
      categories: (options.categories ?? []).map((term) => term.id),
      tags: (options.tags ?? []).map((term) => term.id),
    });
    const event: EventModel = {
      id: json.id,
      title,
      slug: options.status === 'draft' ? '' : slugOf(title),
      status: options.status ?? 'publish',
      start,
      venue: options.venue?.id ?? null,
      organizers: (options.organizers ?? []).map((o) => o.id),
      categories: (options.categories ?? []).map((term) => term.id),
      tags: (options.tags ?? []).map((term) => term.id),
    };
    this.model.events.set(event.id, event);
    return event;
  }

  async linked(type: LinkedType, name = linkedName(type, this.model.word())): Promise<LinkedModel> {
    const { json } = await this.write('POST', `/${LINKED[type].path}`, { [type]: name });
    const item: LinkedModel = { type, id: json.id, name, slug: slugOf(name), status: 'publish' };
    this.model.linked[type].set(item.id, item);
    return item;
  }

  async term(taxonomy: Taxonomy, options: { name?: string; parent?: TermModel } = {}): Promise<TermModel> {
    const name = options.name ?? capitalised(this.model.word());
    const { json } = await this.write('POST', `/${taxonomy}`, {
      name,
      ...(options.parent ? { parent: options.parent.id } : {}),
    });
    const term: TermModel = { taxonomy, id: json.id, name, slug: slugOf(name), parent: options.parent?.id ?? 0 };
    this.model.terms.set(term.id, term);
    return term;
  }
}

// ---------------------------------------------------------------------------------------------

for (const dialect of await testDialects()) {
  describe(`no cached read is stale after any write [${dialect}]`, () => {
    // Hooks run in the order they are added: the setup app closes before the database is dropped.
    after(() => c.stop());
    const t = useTestApp(dialect);
    const c = new Calendar(() => t.api);
    /** Items many tests' events share, so that their writes move the counts and lists of other events. */
    let folk: TermModel;
    let outdoor: TermModel;
    let harbour: LinkedModel;
    let lantern: LinkedModel;
    const prove = (focus: Focus, write: () => Promise<void>) => c.prove(focus, write);

    before(async () => {
      await c.start();
      folk = await c.term('categories', { name: 'Folk' });
      outdoor = await c.term('tags', { name: 'Outdoor' });
      harbour = await c.linked('venue', 'Harbour Hall');
      lantern = await c.linked('organizer', 'Lantern Presents');
      await c.event({
        title: 'Aardvark gathering',
        venue: harbour,
        organizers: [lantern],
        categories: [folk],
        tags: [outdoor],
      });
      await c.event({ title: 'Badger gathering', categories: [folk] });
      await c.event({ title: 'Cormorant gathering', status: 'draft', categories: [folk], tags: [outdoor] });
    });

    // Events ------------------------------------------------------------------------------------

    it('POST /events (published, with venue, organizer, category and tag): it is in every list, filter, search and count at once', async () => {
      const venue = await c.linked('venue');
      const organizer = await c.linked('organizer');
      const category = await c.term('categories');
      const tag = await c.term('tags');
      const word = c.model.word();
      const title = eventTitle(word);
      await prove(
        {
          venues: [venue],
          organizers: [organizer],
          terms: [category, tag, folk],
          words: [word],
          slugs: { event: [slugOf(title)] },
        },
        async () => {
          const { json } = await c.write('POST', '/events', {
            title,
            start_date: '2026-12-01 00:30:00',
            end_date: '2026-12-01 01:30:00',
            venue: venue.id,
            organizer: [organizer.id],
            categories: [category.id, folk.id],
            tags: [tag.id],
          });
          c.model.events.set(json.id, {
            id: json.id,
            title,
            slug: slugOf(title),
            status: 'publish',
            start: '2026-12-01 00:30:00',
            venue: venue.id,
            organizers: [organizer.id],
            categories: [category.id, folk.id],
            tags: [tag.id],
          });
        },
      );
    });

    it('POST /events (draft): editors see it at once, anonymous readers never, and no count moves', async () => {
      const word = c.model.word();
      await prove({ terms: [folk, outdoor], words: [word] }, async () => {
        const title = eventTitle(word);
        const start = c.model.slot();
        const { json } = await c.write('POST', '/events', {
          title,
          start_date: start,
          end_date: start,
          status: 'draft',
          categories: [folk.id],
          tags: [outdoor.id],
        });
        c.model.events.set(json.id, {
          id: json.id,
          title,
          slug: '',
          status: 'draft',
          start,
          venue: null,
          organizers: [],
          categories: [folk.id],
          tags: [outdoor.id],
        });
      });
    });

    it('POST /events (venue, organizer and terms created inline): the new items are in their lists and filters at once', async () => {
      const [eventWord, venueWord, organizerWord, categoryWord, tagWord] = [
        c.model.word(),
        c.model.word(),
        c.model.word(),
        c.model.word(),
        c.model.word(),
      ];
      const title = eventTitle(eventWord);
      const venueName = linkedName('venue', venueWord);
      const organizerName = linkedName('organizer', organizerWord);
      const focus: Focus = {
        terms: [folk],
        words: [eventWord, venueWord, organizerWord, categoryWord, tagWord],
        slugs: {
          event: [slugOf(title)],
          venue: [slugOf(venueName)],
          organizer: [slugOf(organizerName)],
          categories: [categoryWord],
          tags: [tagWord],
        },
      };
      await prove(focus, async () => {
        const start = c.model.slot();
        const { json } = await c.write('POST', '/events', {
          title,
          start_date: start,
          end_date: start,
          venue: { venue: venueName },
          organizer: [{ organizer: organizerName }],
          categories: [capitalised(categoryWord), folk.slug],
          tags: [capitalised(tagWord)],
        });
        c.model.linked.venue.set(json.venue.id, {
          type: 'venue',
          id: json.venue.id,
          name: venueName,
          slug: slugOf(venueName),
          status: 'publish',
        });
        c.model.linked.organizer.set(json.organizer[0].id, {
          type: 'organizer',
          id: json.organizer[0].id,
          name: organizerName,
          slug: slugOf(organizerName),
          status: 'publish',
        });
        c.model.terms.set(json.categories[0].id, {
          taxonomy: 'categories',
          id: json.categories[0].id,
          name: capitalised(categoryWord),
          slug: categoryWord,
          parent: 0,
        });
        c.model.terms.set(json.tags[0].id, {
          taxonomy: 'tags',
          id: json.tags[0].id,
          name: capitalised(tagWord),
          slug: tagWord,
          parent: 0,
        });
        c.model.events.set(json.id, {
          id: json.id,
          title,
          slug: slugOf(title),
          status: 'publish',
          start,
          venue: json.venue.id,
          organizers: [json.organizer[0].id],
          categories: [json.categories[0].id, folk.id],
          tags: [json.tags[0].id],
        });
      });
    });

    it('PATCH /events/{id} (title): no cached list, count, search or rendering is stale', async () => {
      const event = await c.event({ venue: harbour, categories: [folk] });
      const word = c.model.word();
      await prove({ events: [event], words: [word] }, async () => {
        await c.write('PATCH', `/events/${event.id}`, { title: eventTitle(word) });
        event.title = eventTitle(word);
      });
    });

    it('PUT /events/by-slug/{slug} (title and slug): the new slug reads, the old one is 404, lists and searches show the new title', async () => {
      const event = await c.event({ organizers: [lantern], tags: [outdoor] });
      const word = c.model.word();
      const slug = `${word}-renamed`;
      await prove({ events: [event], words: [word], slugs: { event: [slug] } }, async () => {
        await c.write('PUT', `/events/by-slug/${event.slug}`, { title: eventTitle(word), slug });
        Object.assign(event, { title: eventTitle(word), slug });
      });
    });

    it('POST /events/{id} (venue, organizers, categories, tags): embedded copies, filters and counts move, in this event and in others', async () => {
      const [venueA, venueB] = [await c.linked('venue'), await c.linked('venue')];
      const [organizerA, organizerB] = [await c.linked('organizer'), await c.linked('organizer')];
      const [categoryA, categoryB] = [await c.term('categories'), await c.term('categories')];
      const [tagA, tagB] = [await c.term('tags'), await c.term('tags')];
      const event = await c.event({
        venue: venueA,
        organizers: [organizerA],
        categories: [categoryA, folk],
        tags: [tagA],
      });
      const bystander = await c.event({ categories: [categoryA, categoryB], tags: [tagA, tagB] });
      const focus = {
        events: [event, bystander],
        venues: [venueA, venueB],
        organizers: [organizerA, organizerB],
        terms: [categoryA, categoryB, tagA, tagB],
      };
      await prove(focus, async () => {
        await c.write('POST', `/events/${event.id}`, {
          venue: venueB.id,
          organizer: [organizerB.id, organizerA.id],
          categories: [categoryB.id],
          tags: [tagB.id, tagA.id],
        });
        Object.assign(event, {
          venue: venueB.id,
          organizers: [organizerB.id, organizerA.id],
          categories: [categoryB.id],
          tags: [tagB.id, tagA.id],
        });
      });
    });

    it('PATCH /events/by-slug/{slug} (start_date): list order, pages and rendered dates follow', async () => {
      const event = await c.event({ categories: [folk] });
      await prove({ events: [event] }, async () => {
        await c.write('PATCH', `/events/by-slug/${event.slug}`, {
          start_date: '2026-11-30 09:00:00',
          end_date: '2026-11-30 10:00:00',
        });
        event.start = '2026-11-30 09:00:00';
      });
    });

    it('PATCH /events/{id} (status publish): a draft appears for everyone with its new slug, and term counts move', async () => {
      const event = await c.event({ status: 'draft', venue: harbour, categories: [folk], tags: [outdoor] });
      await prove({ events: [event], slugs: { event: [slugOf(event.title)] } }, async () => {
        await c.write('PATCH', `/events/${event.id}`, { status: 'publish' });
        Object.assign(event, { status: 'publish', slug: slugOf(event.title) });
      });
    });

    it('POST /events/by-slug/{slug} (status draft): a published event leaves public lists, searches and counts', async () => {
      const event = await c.event({ organizers: [lantern], categories: [folk], tags: [outdoor] });
      await prove({ events: [event] }, async () => {
        await c.write('POST', `/events/by-slug/${event.slug}`, { status: 'draft' });
        event.status = 'draft';
      });
    });

    const trashEvent = (by: 'id' | 'slug') => async () => {
      const event = await c.event({ venue: harbour, organizers: [lantern], categories: [folk], tags: [outdoor] });
      await prove({ events: [event], slugs: { event: [trashed(event.slug)] } }, async () => {
        await c.write('DELETE', by === 'id' ? `/events/${event.id}` : `/events/by-slug/${event.slug}`);
        Object.assign(event, { status: 'trash', slug: trashed(event.slug) });
      });
    };
    it(
      'DELETE /events/{id} (trash): it leaves lists, totals, searches and counts; its reads are 403 and its old slug 404',
      trashEvent('id'),
    );
    it(
      'DELETE /events/by-slug/{slug} (trash): it leaves lists, totals, searches and counts; its reads are 403 and its old slug 404',
      trashEvent('slug'),
    );

    const deleteEvent = (by: 'id' | 'slug') => async () => {
      const event = await c.event({ venue: harbour, organizers: [lantern], categories: [folk], tags: [outdoor] });
      await prove({ events: [event] }, async () => {
        await c.write('DELETE', by === 'id' ? `/events/${event.id}` : `/events/by-slug/${event.slug}`, undefined, {
          force: 'true',
        });
        c.model.events.delete(event.id);
      });
    };
    it(
      'DELETE /events/{id}?force=true: it leaves every list and count; its reads are 404, lists per event 400',
      deleteEvent('id'),
    );
    it(
      'DELETE /events/by-slug/{slug}?force=true: it leaves every list and count; its reads are 404, lists per event 400',
      deleteEvent('slug'),
    );

    it('DELETE /events/{id}?force=true of a trashed event: its trashed reads become 404', async () => {
      const event = await c.event({ venue: harbour, categories: [folk] });
      await c.write('DELETE', `/events/${event.id}`);
      Object.assign(event, { status: 'trash', slug: trashed(event.slug) });
      await prove({ events: [event] }, async () => {
        await c.write('DELETE', `/events/${event.id}`, undefined, { force: 'true' });
        c.model.events.delete(event.id);
      });
    });

    // Venues and organizers (the same routes and rules) -----------------------------------------

    for (const type of ['venue', 'organizer'] as const) {
      const path = LINKED[type].path;
      const focusOf = (item: LinkedModel, events: EventModel[] = [], slugs: string[] = []): Focus => ({
        events,
        [type === 'venue' ? 'venues' : 'organizers']: [item],
        slugs: { [type]: slugs },
      });
      /** Two events that embed the item, one of them also in a category whose count it shows. */
      const embedding = async (item: LinkedModel) => {
        const link =
          type === 'venue' ? { venue: item } : { organizers: [item, ...(type === 'organizer' ? [lantern] : [])] };
        return [await c.event({ ...link, categories: [folk] }), await c.event({ ...link, tags: [outdoor] })];
      };

      it(`POST /${path}: it is in its lists and searches at once, and readable by slug`, async () => {
        const name = linkedName(type, c.model.word());
        await prove({ words: [firstWord(name)], slugs: { [type]: [slugOf(name)] } }, async () => {
          const { json } = await c.write('POST', `/${path}`, { [type]: name });
          c.model.linked[type].set(json.id, { type, id: json.id, name, slug: slugOf(name), status: 'publish' });
        });
      });

      it(`PATCH /${path}/{id} (name): events embedding it show the new name in lists and single reads; lists and searches follow`, async () => {
        const item = await c.linked(type);
        const events = await embedding(item);
        const name = linkedName(type, c.model.word());
        await prove({ ...focusOf(item, events), words: [firstWord(name)] }, async () => {
          await c.write('PATCH', `/${path}/${item.id}`, { [type]: name });
          item.name = name;
        });
      });

      it(`PUT /${path}/by-slug/{slug} (name and slug): the new slug reads, the old one is 404, embedded copies show both changes`, async () => {
        const item = await c.linked(type);
        const events = await embedding(item);
        const word = c.model.word();
        const slug = `${word}-moved`;
        await prove({ ...focusOf(item, events, [slug]), words: [word] }, async () => {
          await c.write('PUT', `/${path}/by-slug/${item.slug}`, { [type]: linkedName(type, word), slug });
          Object.assign(item, { name: linkedName(type, word), slug });
        });
      });

      it(`POST /${path}/{id} (status trash): it leaves public lists and its events, which no longer embed it`, async () => {
        const item = await c.linked(type);
        const events = await embedding(item);
        await prove(focusOf(item, events, [trashed(item.slug)]), async () => {
          await c.write('POST', `/${path}/${item.id}`, { status: 'trash' });
          Object.assign(item, { status: 'trash', slug: trashed(item.slug) });
          c.model.unlink(item);
        });
      });

      const trash = (by: 'id' | 'slug') => async () => {
        const item = await c.linked(type);
        const events = await embedding(item);
        await prove(focusOf(item, events, [trashed(item.slug)]), async () => {
          await c.write('DELETE', by === 'id' ? `/${path}/${item.id}` : `/${path}/by-slug/${item.slug}`);
          Object.assign(item, { status: 'trash', slug: trashed(item.slug) });
          c.model.unlink(item);
        });
      };
      it(
        `DELETE /${path}/{id} (trash): it leaves public lists and its events; anonymous reads are 403, the old slug 404`,
        trash('id'),
      );
      it(
        `DELETE /${path}/by-slug/{slug} (trash): it leaves public lists and its events; anonymous reads are 403, the old slug 404`,
        trash('slug'),
      );

      const remove = (by: 'id' | 'slug') => async () => {
        const item = await c.linked(type);
        const events = await embedding(item);
        await prove(focusOf(item, events), async () => {
          await c.write('DELETE', by === 'id' ? `/${path}/${item.id}` : `/${path}/by-slug/${item.slug}`, undefined, {
            force: 'true',
          });
          c.model.unlink(item);
          c.model.linked[type].delete(item.id);
        });
      };
      it(
        `DELETE /${path}/{id}?force=true: it leaves every list and its events; its reads are 404, filtering events by it 400`,
        remove('id'),
      );
      it(
        `DELETE /${path}/by-slug/{slug}?force=true: it leaves every list and its events; its reads are 404, filtering events by it 400`,
        remove('slug'),
      );
    }

    // Categories and tags (no slug routes; delete is permanent) --------------------------------

    for (const taxonomy of ['categories', 'tags'] as const) {
      const embedding = async (term: TermModel) => [
        await c.event({ [taxonomy]: [term], venue: harbour }),
        await c.event({ [taxonomy]: taxonomy === 'categories' ? [folk, term] : [outdoor, term] }),
      ];

      it(`POST /${taxonomy}: it is in hide_empty=false lists and searches at once, and events can be filtered by it`, async () => {
        const word = c.model.word();
        await prove({ words: [word], slugs: { [taxonomy]: [word] } }, async () => {
          const { json } = await c.write('POST', `/${taxonomy}`, { name: capitalised(word) });
          c.model.terms.set(json.id, { taxonomy, id: json.id, name: capitalised(word), slug: word, parent: 0 });
        });
      });

      it(`PATCH /${taxonomy}/{id} (name): events embedding it show the new name in lists and single reads; lists and searches follow`, async () => {
        const term = await c.term(taxonomy);
        const events = await embedding(term);
        const word = c.model.word();
        await prove({ events, terms: [term], words: [word] }, async () => {
          await c.write('PATCH', `/${taxonomy}/${term.id}`, { name: capitalised(word) });
          term.name = capitalised(word);
        });
      });

      it(`PUT /${taxonomy}/{id} (slug): events filter by the new slug, the old one is 400, embedded copies show it`, async () => {
        const term = await c.term(taxonomy);
        const events = await embedding(term);
        const slug = `${term.slug}-moved`;
        await prove({ events, terms: [term], slugs: { [taxonomy]: [slug] } }, async () => {
          await c.write('PUT', `/${taxonomy}/${term.id}`, { slug });
          term.slug = slug;
        });
      });

      it(`DELETE /${taxonomy}/{id}: it leaves its events, every list and filter; its read is 404, filtering by it 400`, async () => {
        const term = await c.term(taxonomy);
        const events = await embedding(term);
        await prove({ events, terms: [term] }, async () => {
          await c.write('DELETE', `/${taxonomy}/${term.id}`);
          c.model.dropTerm(term);
        });
      });
    }

    it('POST /categories/{id} (parent): filtering events by the new parent takes in the child’s events', async () => {
      const parent = await c.term('categories');
      const child = await c.term('categories');
      const events = [await c.event({ categories: [parent] }), await c.event({ categories: [child], venue: harbour })];
      await prove({ events, terms: [parent, child] }, async () => {
        await c.write('POST', `/categories/${child.id}`, { parent: parent.id });
        child.parent = parent.id;
      });
    });
  });
}
