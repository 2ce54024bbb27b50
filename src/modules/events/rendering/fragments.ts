import { Type } from '@sinclair/typebox';
import { ENTRY_OVERHEAD, ownBuffer, ownBuffers, type Fragment, type Revised } from '../../../cache/entries.js';
import type { Validator } from '../../../http/conditional.js';
import type { VersionedCache } from '../../../cache/lru.js';
import { changeKey } from '../../../changes/change-set.js';
import type { DataVersion } from '../../../changes/data-version.js';
import type { Config } from '../../../config.js';
import type { RequestContext } from '../../../http/context.js';
import { compileSerializer } from '../../../http/json.js';
import { ImageSchema } from '../../images/images.js';
import { JsonLdSchema } from '../../linked/linked.schemas.js';
import type { LinkedRow } from '../../linked/linked.repository.js';
import { OrganizerSchema } from '../../organizers/organizers.schemas.js';
import { presentOrganizer } from '../../organizers/organizers.present.js';
import { viewerKey } from '../../posts/posts.viewer.js';
import { termsFollowingValidator } from '../../sync/validators.js';
import { EmbeddedTermSchema } from '../../terms/terms.schemas.js';
import { presentEmbeddedTerm } from '../../terms/terms.present.js';
import type { TermRow } from '../../terms/terms.repository.js';
import { CATEGORIES, TAGS, type Taxonomy } from '../../terms/taxonomies.js';
import { termRowsById } from '../../terms/terms.service.js';
import { VenueSchema } from '../../venues/venues.schemas.js';
import { presentVenue } from '../../venues/venues.present.js';
import { presentEventHead, presentEventJsonLd, presentEventTail, type EventBundle } from '../events.present.js';
import { CostDetailsSchema, DateDetailsSchema, EventSchema } from '../events.schemas.js';
import type { EventsState } from '../events.state.js';
import type { EventRow } from '../events.repository.js';
import { fieldsOf } from '../series/series.materialise.js';
import { isLocked, readBundles, serializeEvent, type EventRendering, type RenderedFrom } from './rendering.js';

const EMBEDDED_KEYS = [
  'categories',
  'tags',
  'venue',
  'organizer',
  'custom_fields',
  'ical_uid',
  'ical_url',
  'is_recurring',
  'series_id',
  'recurrence_id',
  'recurrence',
  'occurrences_url',
  'json_ld',
  'translations',
  'languages',
] as const;
const HEAD_SCHEMA = Type.Omit(EventSchema, EMBEDDED_KEYS);
const HEAD_REFERENCES = [ImageSchema, DateDetailsSchema, CostDetailsSchema];
const serializeHead = compileSerializer(HEAD_SCHEMA, HEAD_REFERENCES);
const serializeTerm = compileSerializer(EmbeddedTermSchema, []);
const serializeVenue = compileSerializer(VenueSchema, [ImageSchema]);
const serializeOrganizer = compileSerializer(OrganizerSchema, [ImageSchema]);
const serializeJsonLd = compileSerializer(JsonLdSchema, []);
const serializeTail = compileSerializer(
  Type.Pick(EventSchema, [
    'ical_uid',
    'ical_url',
    'is_recurring',
    'series_id',
    'recurrence_id',
    'recurrence',
    'occurrences_url',
  ]),
  [],
);

const bytes = (text: string) => Buffer.from(text);
const COMMA = bytes(',');
const CATEGORIES_OPEN = bytes(',"categories":[');
const TAGS_OPEN = bytes('],"tags":[');
const VENUE_OPEN = bytes('],"venue":');
const NO_VENUE = bytes('],"venue":[]');
const ORGANIZER_OPEN = bytes(',"organizer":[');

const prefixedCopies = new WeakMap<Buffer, Map<Buffer, Buffer>>();

/**
 * `prefix` then `shared` in one buffer of its own, made once per pair and kept while `shared` is:
 * events hold half as many parts, and a 50-event list copied each part separately (a tenth slower).
 */
function prefixed(prefix: Buffer, shared: Buffer): Buffer {
  let copies = prefixedCopies.get(shared);
  if (!copies) prefixedCopies.set(shared, (copies = new Map<Buffer, Buffer>()));
  let joined = copies.get(prefix);
  if (!joined) {
    joined = Buffer.allocUnsafeSlow(prefix.length + shared.length);
    prefix.copy(joined);
    shared.copy(joined, prefix.length);
    copies.set(prefix, joined);
  }
  return joined;
}

/** The elements of a JSON array, each with what precedes it: `open` (which also closes the previous key) or a comma. */
function elements(open: Buffer, items: readonly Buffer[]): Buffer[] {
  return items.length === 0 ? [open] : items.map((item, i) => prefixed(i === 0 ? open : COMMA, item));
}

/**
 * A venue, organizer or term as embedded in events: the same few hundred appear in thousands of
 * events, so each is rendered once per language until it changes, and events hold these bytes by reference.
 */
function embedded<Row extends { id: number }>(
  ctx: RequestContext,
  use: FragmentUse,
  kind: string,
  depends: string,
  row: Row,
  render: (row: Row) => string,
  revised?: Revised,
): Buffer {
  const key = embeddedKey(ctx, kind, row.id);
  const cached = use.fragments.get(key, use.version, use.stillReusable);
  if (cached) return cached.json[0];
  const json = ownBuffer(render(row));
  const bytes = json.length + ENTRY_OVERHEAD;
  use.fragments.set(key, use.version, { json: [json], bytes, depends: [depends], revised });
  return json;
}

/** A term embedded in events, with its revision (single reads' validators are made of it). */
const embeddedTerm = (ctx: RequestContext, use: FragmentUse, taxonomy: Taxonomy, row: TermRow) =>
  embedded(ctx, use, taxonomy.key, changeKey('term', row.id), row, renderTerm(ctx, taxonomy), {
    revision: row.revision,
    changed_at: row.changed_at,
  });

const embeddedKey = (ctx: RequestContext, kind: string, id: number) =>
  `embedded|${kind}|${id}|${ctx.lang}|${ctx.language.source}`;

/**
 * Head keys by which an occurrence differs from the others of its series by construction: its id
 * and dates, and the URLs that carry them. The rest of its head is its series' unless it overrides it.
 */
const OCCURRENCE_OWN_KEYS: ReadonlySet<string> = new Set([
  'id',
  'global_id',
  'global_id_lineage',
  'url',
  'rest_url',
  'start_date',
  'start_date_details',
  'end_date',
  'end_date_details',
  'utc_start_date',
  'utc_start_date_details',
  'utc_end_date',
  'utc_end_date_details',
]);

/** The head's keys in schema order, cut where they pass between an occurrence's own and its series', each run with its serialiser. */
const OCCURRENCE_RUNS = Object.keys(HEAD_SCHEMA.properties)
  .reduce<{ shared: boolean; keys: string[] }[]>((runs, key) => {
    const shared = !OCCURRENCE_OWN_KEYS.has(key);
    const last = runs.at(-1);
    if (last?.shared === shared) last.keys.push(key);
    else runs.push({ shared, keys: [key] });
    return runs;
  }, [])
  .map(({ shared, keys }) => ({ shared, serialize: compileSerializer(Type.Pick(HEAD_SCHEMA, keys), HEAD_REFERENCES) }));

/**
 * An occurrence's head (without its closing brace) in runs: each run's keys with the comma or brace
 * before them, '' for a run whose keys are all absent. Joined, they are the bytes of `serializeHead`.
 */
function occurrenceRuns(presented: Record<string, unknown>): string[] {
  let opened = false;
  return OCCURRENCE_RUNS.map(({ serialize }) => {
    const keys = serialize(presented).slice(1, -1);
    if (keys === '') return '';
    const run = `${opened ? ',' : '{'}${keys}`;
    opened = true;
    return run;
  });
}

const sameBytes = (kept: Buffer, text: string) => kept.length === Buffer.byteLength(text) && kept.toString() === text;

/**
 * The runs of its series' head that an occurrence shares, held once per series and language: a
 * series' occurrences repeat its title, description and settings, most of an event's own bytes,
 * and sharing them lets the fragment cache hold about 40 % more of them. They are kept from an
 * occurrence that overrides nothing; each occurrence uses a run only when its bytes are the same
 * (what a reader is shown may differ by reader: the bytes are compared, never assumed).
 */
function seriesRuns(
  ctx: RequestContext,
  use: FragmentUse,
  seriesId: number,
  overrides: EventRow['overrides'],
  runs: readonly string[],
): readonly Buffer[] {
  const key = embeddedKey(ctx, 'series-head', seriesId);
  const cached = use.fragments.get(key, use.version, use.stillReusable)?.json;
  if (cached) return cached;
  if (fieldsOf(overrides).size > 0) return [];
  const kept = ownBuffers(runs.map((run, i) => (OCCURRENCE_RUNS[i].shared ? run : '')));
  const bytes = kept.reduce((sum, run) => sum + run.length, ENTRY_OVERHEAD);
  use.fragments.set(key, use.version, { json: kept, bytes, depends: [changeKey('event', seriesId)] });
  return kept;
}

/**
 * An event's own bytes before its terms (its head without the closing brace) and after its
 * organizers (`tail`, with JSON-LD for a single read), in one allocation; an occurrence's head has
 * the runs it shares with its series between them.
 */
function ownParts(
  ctx: RequestContext,
  use: FragmentUse,
  row: EventRow,
  presented: Record<string, unknown>,
  tail: string,
): { front: Buffer[]; back: Buffer; own: number } {
  if (row.series_id === null) {
    const [front, back] = ownBuffers([serializeHead(presented).slice(0, -1), tail]);
    return { front: [front], back, own: front.length + back.length };
  }
  const runs = occurrenceRuns(presented);
  const shared = seriesRuns(ctx, use, row.series_id, row.overrides, runs);
  const kept = runs.map((run, i) => {
    const bytes = OCCURRENCE_RUNS[i].shared && run !== '' ? shared[i] : undefined;
    return bytes && sameBytes(bytes, run) ? bytes : undefined;
  });
  const own = ownBuffers([...runs.filter((run, i) => run !== '' && !kept[i]), tail]);
  const ownBytes = own.reduce((sum, part) => sum + part.length, 0);
  const back = own.pop() as Buffer;
  const front = runs.flatMap((run, i) => kept[i] ?? (run === '' ? [] : (own.shift() as Buffer)));
  return { front, back, own: ownBytes };
}

/** The fragment cache as one render uses it: under the request's data version, with one reuse check. */
interface FragmentUse {
  fragments: VersionedCache<Fragment>;
  version: string;
  stillReusable: (storedUnder: string, fragment: Fragment) => boolean;
}

/** Whether a fragment rendered under an older version still holds: no write since changed what it was rendered from. */
function fragmentUse(fragments: VersionedCache<Fragment>, versions: DataVersion, version: string): FragmentUse {
  const stillReusable = (storedUnder: string, fragment: Fragment) =>
    fragment.depends !== undefined && versions.unchangedSince(storedUnder, version, fragment.depends);
  return { fragments, version, stillReusable };
}

/**
 * Everything an event's rendering reads besides site settings: its own rows, and the venue,
 * organizers and terms it embeds (terms only when their bytes are in it, not filled in on use).
 */
function dependencies(bundle: EventBundle, termsFilledOnUse: boolean): string[] {
  return [
    changeKey('event', bundle.row.id),
    // An occurrence's URL holds its rank among the occurrences on its date, which a write to its series can change.
    ...(bundle.row.series_id !== null ? [changeKey('event', bundle.row.series_id)] : []),
    ...(bundle.venue ? [changeKey('venue', bundle.venue.id)] : []),
    ...bundle.organizers.map((row) => changeKey('organizer', row.id)),
    ...(termsFilledOnUse ? [] : [...bundle.categories, ...bundle.tags].map((row) => changeKey('term', row.id))),
  ];
}

type Slot = NonNullable<Fragment['slots']>[number];
const taxonomyOf = (kind: string) => (kind === CATEGORIES.key ? CATEGORIES : TAGS);
const renderTerm = (ctx: RequestContext, taxonomy: Taxonomy) => (row: TermRow) =>
  serializeTerm(presentEmbeddedTerm(row, taxonomy, ctx.urls));

/**
 * The parts of fragments whose terms are filled in on use, with each term's current bytes (those
 * a write changed rendered again once, from its row); undefined for an event one of whose terms is
 * gone, which is then rendered again whole.
 */
async function filledParts(
  state: EventsState,
  ctx: RequestContext,
  use: FragmentUse,
  slotted: readonly (readonly [number, Fragment])[],
  current = currentTerms(ctx, use),
): Promise<Map<number, readonly Buffer[] | undefined>> {
  const stale = new Map<number, Slot>();
  for (const [, fragment] of slotted)
    if (fragment.filled?.version !== use.version)
      for (const slot of fragment.slots ?? []) if (!current(slot)) stale.set(slot.id, slot);
  if (stale.size > 0) {
    const rows = await termRowsById(state.terms, ctx, [...stale.keys()]);
    for (const [id, slot] of stale) {
      const row = rows.get(id);
      if (row) embeddedTerm(ctx, use, taxonomyOf(slot.kind), row);
    }
  }
  const filled = new Map<number, readonly Buffer[] | undefined>();
  for (const [id, fragment] of slotted) {
    const slots = fragment.slots ?? [];
    const last = fragment.filled;
    // Filled with the terms' current bytes already: the same parts, so the same array, whose digest
    // (plugins/etags.ts) is not computed again. After a create, most events of a page are.
    if (last && (last.version === use.version || slots.every((slot, i) => current(slot)?.json[0] === last.terms[i]))) {
      last.version = use.version;
      filled.set(id, last.parts);
      continue;
    }
    const terms = slots.map((slot) => current(slot)?.json[0]);
    if (!terms.every((bytes): bytes is Buffer => bytes !== undefined)) {
      filled.set(id, undefined);
      continue;
    }
    const parts = [...fragment.json];
    slots.forEach((slot, i) => (parts[slot.at] = prefixed(slot.open, terms[i])));
    filled.set(id, parts);
    fragment.filled = { version: use.version, parts, terms };
  }
  return filled;
}

/**
 * The current fragment of a slot's term, looked up once per term for all the events of a response
 * (a page of events shows a few terms many times).
 */
function currentTerms(ctx: RequestContext, use: FragmentUse): (slot: Slot) => Fragment | undefined {
  const found = new Map<number, Fragment>();
  return (slot) => {
    let term = found.get(slot.id);
    if (!term) {
      term = use.fragments.get(embeddedKey(ctx, slot.kind, slot.id), use.version, use.stillReusable);
      if (term) found.set(slot.id, term);
    }
    return term;
  };
}

/**
 * An event's JSON in TEC's key order (API.md §8): its own keys, then the embedded objects, in parts;
 * `own`: the bytes of the parts that belong to this event alone.
 */
function eventJson(
  config: Config,
  ctx: RequestContext,
  use: FragmentUse,
  bundle: EventBundle,
  jsonLd: boolean,
): { json: Buffer[]; own: number; slots: Slot[] } {
  const presented = presentEventHead(config, ctx, bundle.row);
  // `custom_fields`, then the event's own `ical_uid` and `ical_url` (API.md §19.2).
  const tailKeys = `],"custom_fields":[],${serializeTail(presentEventTail(ctx, bundle.row)).slice(1, -1)}`;
  const tail = jsonLd
    ? `${tailKeys},"json_ld":${serializeJsonLd(presentEventJsonLd(config, ctx, bundle))}}`
    : `${tailKeys}}`;
  const { front, back, own } = ownParts(ctx, use, bundle.row, presented, tail);
  const slots: Slot[] = [];
  /** A taxonomy's parts from index `at` of the event's parts: `open` alone, or each term after `open` or a comma. */
  const terms = (at: number, open: Buffer, taxonomy: Taxonomy, rows: readonly TermRow[]) =>
    rows.length === 0
      ? [open]
      : rows.map((row, i) => {
          const opener = i === 0 ? open : COMMA;
          slots.push({ at: at + i, open: opener, kind: taxonomy.key, id: row.id });
          return prefixed(opener, embeddedTerm(ctx, use, taxonomy, row));
        });
  const categories = terms(front.length, CATEGORIES_OPEN, CATEGORIES, bundle.categories);
  const tags = terms(front.length + categories.length, TAGS_OPEN, TAGS, bundle.tags);
  const linked =
    (
      kind: 'venue' | 'organizer',
      present: (row: LinkedRow) => Record<string, unknown>,
      serialize: (value: unknown) => string,
    ) =>
    (row: LinkedRow) =>
      embedded(ctx, use, `${kind}|${jsonLd ? 1 : 0}`, changeKey(kind, row.id), row, () => serialize(present(row)));
  const venue = linked('venue', (row) => presentVenue(config, ctx, row, { jsonLd }), serializeVenue);
  const organizer = linked('organizer', (row) => presentOrganizer(config, ctx, row, { jsonLd }), serializeOrganizer);
  const json = [
    ...front,
    ...categories,
    ...tags,
    bundle.venue ? prefixed(VENUE_OPEN, venue(bundle.venue)) : NO_VENUE,
    ...elements(ORGANIZER_OPEN, bundle.organizers.map(organizer)),
  ];
  return { json: [...json, back], own, slots };
}

/**
 * Events as UTF-8 JSON in the order of `ids`: in parts for lists, in one part with `jsonLd` (single
 * reads) or when blanked. Each is rendered once and reused from the fragment cache until it changes:
 * a write by this process to another event leaves it be; one by another process, or a write that
 * does not say what it changed, makes every event render again (issue "benchmark harness": no
 * per-request re-rendering, no N+1). The bytes are those of the plain rendering (plain.ts), put
 * together from parts.
 * A protected event keeps its blanked form beside the whole one, for readers who have not unlocked it.
 */
export function fragmentRendering(
  state: EventsState,
  fragments: VersionedCache<Fragment>,
  versions: DataVersion,
): EventRendering {
  const keyOf = (ctx: RequestContext, id: number, jsonLd: boolean) =>
    `event|${id}|${ctx.lang}|${ctx.language.source}|${jsonLd ? 1 : 0}|${viewerKey(ctx.caller)}`;
  return {
    async render(ctx, ids, password, from) {
      const use = fragmentUse(fragments, versions, await ctx.dataVersion());
      const key = (id: number) => keyOf(ctx, id, false);
      const shown = (fragment: Fragment) => shownTo(ctx, fragment, password);
      const result = new Map<number, readonly Buffer[]>();
      const missing: number[] = [];
      const slotted: [number, Fragment][] = [];
      for (const id of ids) {
        const cached = fragments.get(key(id), use.version, use.stillReusable);
        if (!cached) missing.push(id);
        else if (cached.slots) slotted.push([id, cached]);
        else result.set(id, shown(cached));
        if (cached) addSources(from, cached);
      }
      if (slotted.length > 0)
        for (const [id, parts] of await filledParts(state, ctx, use, slotted))
          if (parts) result.set(id, parts);
          else missing.push(id);
      for (const bundle of missing.length > 0 ? await readBundles(state, ctx, missing) : []) {
        const fragment = eventFragment(state.config, ctx, use, bundle, false);
        fragments.set(key(bundle.row.id), use.version, fragment);
        result.set(bundle.row.id, shown(fragment));
        addSources(from, fragment);
      }
      return ids.map((id) => result.get(id)).filter((json): json is readonly Buffer[] => json !== undefined);
    },
    async single(ctx, id, password, knownRows = [], from) {
      const use = fragmentUse(fragments, versions, await ctx.dataVersion());
      const key = keyOf(ctx, id, true);
      const cached = fragments.get(key, use.version, use.stillReusable);
      const kept = cached && (await keptSingle(state, ctx, use, id, cached, password));
      if (kept) {
        addSources(from, cached);
        return kept;
      }
      const [bundle] = await readBundles(state, ctx, [id], knownRows);
      if (!bundle) return undefined;
      // Kept with the fragment: it holds while the fragment does (both depend on the same rows, and
      // its terms' revisions are read where their bytes are filled in).
      const { validator, withTerms } = termsFollowingValidator(state.config, ctx.caller, bundle, 'view');
      const fragment: Fragment = { ...eventFragment(state.config, ctx, use, bundle, true), validator };
      if (fragment.slots) {
        fragment.revalidated = withTerms;
        fragment.bytes += REVALIDATION_OVERHEAD;
        const rendered = new Map([...bundle.categories, ...bundle.tags].map((term) => [term.id, term]));
        fragment.lastValidator = { version: use.version, revisions: revisionsKey(fragment.slots, rendered), validator };
      }
      fragments.set(key, use.version, fragment);
      addSources(from, fragment);
      return { json: joined(shownTo(ctx, fragment, password)), validator };
    },
  };
}

/**
 * Adds to `from` what an event's bytes as used were made from: its rows and the venue and
 * organizers in its bytes (`depends`), and the terms filled in its slots.
 */
function addSources(from: RenderedFrom | undefined, fragment: Fragment): void {
  if (!from) return;
  if (!fragment.depends) from.unknown = true;
  else for (const key of fragment.depends) from.keys.push(key);
  for (const slot of fragment.slots ?? []) from.keys.push(changeKey('term', slot.id));
}

/** What a single read's fragment holds to make its validator again (its sources and the last one made). */
const REVALIDATION_OVERHEAD = 512;

/** A single read's body: its one part as kept, or its parts copied together. */
const joined = (parts: readonly Buffer[]) => (parts.length === 1 ? parts[0] : Buffer.concat(parts));

const shownTo = (ctx: RequestContext, fragment: Fragment, password: string | undefined) =>
  fragment.lock && fragment.blanked && isLocked(ctx, fragment.lock, password) ? [fragment.blanked] : fragment.json;

/**
 * A single read from its kept fragment: its terms filled in with their current bytes, and its
 * validator made again when their revisions moved; undefined when it must be rendered again.
 */
async function keptSingle(
  state: EventsState,
  ctx: RequestContext,
  use: FragmentUse,
  id: number,
  fragment: Fragment,
  password: string | undefined,
): Promise<{ json: Buffer; validator: Validator } | undefined> {
  if (!fragment.validator) return undefined;
  if (!fragment.slots) return { json: joined(shownTo(ctx, fragment, password)), validator: fragment.validator };
  const current = currentTerms(ctx, use);
  const parts = (await filledParts(state, ctx, use, [[id, fragment]], current)).get(id);
  const validator = parts && currentValidator(use, fragment, fragment.slots, current);
  return validator && { json: joined(parts), validator };
}

const revisionsKey = (slots: readonly Slot[], revisions: ReadonlyMap<number, Revised>) =>
  slots.map((slot) => `${slot.id}:${revisions.get(slot.id)?.revision}`).join(',');

/**
 * The validator of a fragment for its terms' current revisions: checked once per data version,
 * made again only when they moved.
 */
function currentValidator(
  use: FragmentUse,
  fragment: Fragment,
  slots: readonly Slot[],
  current: (slot: Slot) => Fragment | undefined,
): Validator | undefined {
  const last = fragment.lastValidator;
  if (last?.version === use.version) return last.validator;
  const revisions = new Map<number, Revised>();
  for (const slot of slots) {
    const revised = current(slot)?.revised;
    if (revised) revisions.set(slot.id, revised);
  }
  const key = revisionsKey(slots, revisions);
  const validator = last?.revisions === key ? last.validator : fragment.revalidated?.(revisions);
  if (validator) fragment.lastValidator = { version: use.version, revisions: key, validator };
  return validator;
}

function eventFragment(
  config: Config,
  ctx: RequestContext,
  use: FragmentUse,
  bundle: EventBundle,
  jsonLd: boolean,
): Fragment {
  const { password, author_id, status, status_before_trash } = bundle.row;
  const { json, own, slots } = eventJson(config, ctx, use, bundle, jsonLd);
  // A protected event's blanked form has its terms in its own bytes.
  const filledOnUse = slots.length > 0 && password === '';
  const fragment: Fragment = {
    json,
    bytes: own + ENTRY_OVERHEAD,
    lock: { password, author_id, status, status_before_trash },
    depends: dependencies(bundle, filledOnUse),
  };
  if (filledOnUse) fragment.slots = slots;
  if (password !== '') {
    fragment.blanked = ownBuffer(serializeEvent(config, ctx, bundle, { jsonLd: false, blanked: true }));
    fragment.bytes += fragment.blanked.length;
  }
  return fragment;
}
