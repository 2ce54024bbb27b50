import { Type } from '@sinclair/typebox';
import { viewerKey } from '../posts/posts.viewer.js';
import { ENTRY_OVERHEAD, ownBuffer, type Fragment } from '../../cache/caches.js';
import { changeKey } from '../../changes/change-set.js';
import type { RequestContext } from '../../http/context.js';
import { compileSerializer } from '../../http/json.js';
import { canEditPost } from '../posts/posts.rules.js';
import { ImageSchema } from '../images/images.js';
import { JsonLdSchema } from '../linked/linked.schemas.js';
import type { LinkedRow } from '../linked/linked.repository.js';
import { OrganizerSchema } from '../organizers/organizers.schemas.js';
import { presentOrganizer } from '../organizers/organizers.present.js';
import { EmbeddedTermSchema } from '../terms/terms.schemas.js';
import { presentEmbeddedTerm } from '../terms/terms.present.js';
import type { TermRow } from '../terms/terms.repository.js';
import { CATEGORIES, TAGS, type Taxonomy } from '../terms/taxonomies.js';
import { VenueSchema } from '../venues/venues.schemas.js';
import { presentVenue } from '../venues/venues.present.js';
import { languages } from '../linked/linked.service.js';
import { presentEvent, presentEventHead, presentEventJsonLd, type EventBundle } from './events.present.js';
import { findEvents, type EventRow } from './events.repository.js';
import { CostDetailsSchema, DateDetailsSchema, EventSchema } from './events.schemas.js';
import { loadBundles } from './events.service.js';

const EMBEDDED_KEYS = ['categories', 'tags', 'venue', 'organizer', 'custom_fields', 'json_ld', 'translations', 'languages'] as const;
const serializeEvent = compileSerializer(EventSchema, [ImageSchema, DateDetailsSchema, CostDetailsSchema, VenueSchema, OrganizerSchema, EmbeddedTermSchema]);
const serializeHead = compileSerializer(Type.Omit(EventSchema, EMBEDDED_KEYS), [ImageSchema, DateDetailsSchema, CostDetailsSchema]);
const serializeTerm = compileSerializer(EmbeddedTermSchema, []);
const serializeVenue = compileSerializer(VenueSchema, [ImageSchema]);
const serializeOrganizer = compileSerializer(OrganizerSchema, [ImageSchema]);
const serializeJsonLd = compileSerializer(JsonLdSchema, []);

const bytes = (text: string) => Buffer.from(text);
const COMMA = bytes(',');
const CATEGORIES_OPEN = bytes(',"categories":[');
const TAGS_OPEN = bytes('],"tags":[');
const VENUE_OPEN = bytes('],"venue":');
const NO_VENUE = bytes('],"venue":[]');
const ORGANIZER_OPEN = bytes(',"organizer":[');
const CUSTOM_FIELDS = bytes('],"custom_fields":[]');
const JSON_LD_OPEN = bytes(',"json_ld":');
const CLOSE = bytes('}');
const LIST_TAIL = bytes('],"custom_fields":[]}');

const prefixedCopies = new WeakMap<Buffer, Map<Buffer, Buffer>>();

/**
 * `prefix` then `shared` in one buffer of its own, made once per pair and kept while `shared` is:
 * events hold half as many parts, and a 50-event list copied each part separately (a tenth slower).
 */
function prefixed(prefix: Buffer, shared: Buffer): Buffer {
  let copies = prefixedCopies.get(shared);
  if (!copies) prefixedCopies.set(shared, (copies = new Map()));
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
function embedded<Row extends { id: number }>(ctx: RequestContext, version: string, stillReusable: Reusable, kind: string, depends: string, row: Row, render: (row: Row) => string): Buffer {
  const key = `embedded|${kind}|${row.id}|${ctx.lang}|${ctx.language.source}`;
  const cached = ctx.app.caches.fragments.get(key, version, stillReusable);
  if (cached) return cached.json[0];
  const json = ownBuffer(render(row));
  ctx.app.caches.fragments.set(key, version, { json: [json], bytes: json.length + ENTRY_OVERHEAD, depends: [depends] });
  return json;
}

type Reusable = (storedUnder: string, fragment: Fragment) => boolean;

/** Whether a fragment rendered under an older version still holds: no write since changed what it was rendered from. */
function reusable(ctx: RequestContext, version: string): Reusable {
  return (storedUnder: string, fragment: Fragment) => fragment.depends !== undefined && ctx.app.caches.version.unchangedSince(storedUnder, version, fragment.depends);
}

/** Everything an event's rendering reads besides site settings: its own rows, and the venue, organizers and terms it embeds. */
function dependencies(bundle: EventBundle): string[] {
  return [
    changeKey('event', bundle.row.id),
    ...(bundle.venue ? [changeKey('venue', bundle.venue.id)] : []),
    ...bundle.organizers.map((row) => changeKey('organizer', row.id)),
    ...[...bundle.categories, ...bundle.tags].map((row) => changeKey('term', row.id)),
  ];
}

/**
 * An event's JSON in TEC's key order (API.md §8): its own keys, then the embedded objects, in parts;
 * `own`: the bytes of the parts that belong to this event alone.
 */
function eventJson(ctx: RequestContext, version: string, stillReusable: Reusable, bundle: EventBundle, jsonLd: boolean): { json: Buffer[]; own: number } {
  const head = serializeHead(presentEventHead(ctx, bundle.row));
  const term = (taxonomy: Taxonomy) => (row: TermRow) =>
    embedded(ctx, version, stillReusable, taxonomy.key, changeKey('term', row.id), row, () => serializeTerm(presentEmbeddedTerm(row, taxonomy, ctx.urls)));
  const linked = (kind: 'venue' | 'organizer', present: (row: LinkedRow) => Record<string, unknown>, serialize: (value: unknown) => string) => (row: LinkedRow) =>
    embedded(ctx, version, stillReusable, `${kind}|${jsonLd ? 1 : 0}`, changeKey(kind, row.id), row, () => serialize(present(row)));
  const venue = linked('venue', (row) => presentVenue(ctx, row, { jsonLd }), serializeVenue);
  const organizer = linked('organizer', (row) => presentOrganizer(ctx, row, { jsonLd }), serializeOrganizer);
  const own = ownBuffer(head.slice(0, -1));
  const json = [
    own,
    ...elements(CATEGORIES_OPEN, bundle.categories.map(term(CATEGORIES))),
    ...elements(TAGS_OPEN, bundle.tags.map(term(TAGS))),
    bundle.venue ? prefixed(VENUE_OPEN, venue(bundle.venue)) : NO_VENUE,
    ...elements(ORGANIZER_OPEN, bundle.organizers.map(organizer)),
  ];
  if (!jsonLd) return { json: [...json, LIST_TAIL], own: own.length };
  // A single read sends one event alone: joined once here, it is not copied together on every read.
  const whole = Buffer.concat([...json, CUSTOM_FIELDS, JSON_LD_OPEN, bytes(serializeJsonLd(presentEventJsonLd(ctx, bundle))), CLOSE]);
  return { json: [whole], own: whole.length };
}

/**
 * Events as UTF-8 JSON in the order of `ids`: in parts for lists, in one part with `jsonLd` (single
 * reads) or when blanked. Each is rendered once and reused from the fragment cache until it changes:
 * a write by this process to another event leaves it be; one by another process, or a write that
 * does not say what it changed, makes every event render again (issue "benchmark harness": no
 * per-request re-rendering, no N+1).
 * A protected event keeps its blanked form beside the whole one, for readers who have not unlocked it.
 * `knownRows`: rows the caller has already read, in the request's language.
 */
export async function renderEvents(ctx: RequestContext, ids: readonly number[], options: { jsonLd: boolean; password?: string }, knownRows: readonly EventRow[] = []): Promise<(readonly Buffer[])[]> {
  const version = await ctx.dataVersion();
  const cache = ctx.app.caches.fragments;
  const keyOf = (id: number) => `event|${id}|${ctx.lang}|${ctx.language.source}|${options.jsonLd ? 1 : 0}|${viewerKey(ctx.caller)}`;
  const locked = (lock: Fragment['lock'] & object) => lock.password !== '' && lock.password !== options.password && !canEditPost(ctx.caller, lock);
  const shown = (fragment: Fragment) => (fragment.lock && locked(fragment.lock) ? [fragment.blanked!] : fragment.json);
  const result = new Map<number, readonly Buffer[]>();
  const missing: number[] = [];
  const stillReusable = reusable(ctx, version);
  for (const id of ids) {
    const cached = cache.get(keyOf(id), version, stillReusable);
    if (cached) result.set(id, shown(cached));
    else missing.push(id);
  }
  if (missing.length > 0) {
    const known = knownRows.filter((row) => missing.includes(row.id));
    const unread = missing.filter((id) => !known.some((row) => row.id === id));
    const bundles = await loadBundles(ctx, [...known, ...(await findEvents(ctx.db, unread, languages(ctx)))]);
    for (const bundle of bundles) {
      const { password, author_id, status } = bundle.row;
      const { json, own } = eventJson(ctx, version, stillReusable, bundle, options.jsonLd);
      const fragment: Fragment = { json, bytes: own + ENTRY_OVERHEAD, lock: { password, author_id, status }, depends: dependencies(bundle) };
      if (password !== '') {
        fragment.blanked = ownBuffer(serializeEvent(presentEvent(ctx, bundle, { jsonLd: false, blanked: true })));
        fragment.bytes += fragment.blanked.length;
      }
      cache.set(keyOf(bundle.row.id), version, fragment);
      result.set(bundle.row.id, shown(fragment));
    }
  }
  return ids.map((id) => result.get(id)).filter((json): json is readonly Buffer[] => json !== undefined);
}
