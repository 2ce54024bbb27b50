import { createHash } from 'node:crypto';
import { decodeHTML } from 'entities';

/**
 * From a source item (TEC's representation, or ours in copy mode) to the body of a write here
 * (API.md §24). Pure functions: the links are given as local ids already.
 */

export type Json = Record<string, unknown>;

export const isRecord = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** Titles and names as plain text: TEC sends them HTML-encoded (`Rock &#038; Roll`, API.md §17). */
export const decoded = (value: unknown): string => decodeHTML(text(value));

const bool = (value: unknown): boolean => value === true;

/** `YYYY-MM-DD HH:MM:SS` in UTC as an instant the API converts into the event's zone (API.md §6). */
function utcInstant(value: unknown): string | undefined {
  const raw = text(value);
  return /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(raw) ? `${raw.replace(' ', 'T')}Z` : undefined;
}

/** The publication date: `date_utc` as sent (the API reads it as UTC). */
const publication = (item: Json) => (utcInstant(item.date_utc) ? { date_utc: text(item.date_utc) } : {});

function imageUrl(value: unknown): string | undefined {
  if (!isRecord(value)) return undefined;
  const url = text(value.url);
  return /^https?:\/\//i.test(url) ? url : undefined;
}

/** The source id of an item, when it is a positive integer. */
export function sourceIdOf(item: unknown): number | undefined {
  if (!isRecord(item)) return undefined;
  const id = item.id;
  return typeof id === 'number' && Number.isSafeInteger(id) && id > 0 ? id : undefined;
}

/** When the item last changed at the source, in seconds (`modified_utc`). */
export function modifiedOf(item: Json): number | undefined {
  const instant = utcInstant(item.modified_utc);
  return instant ? Date.parse(instant) / 1000 : undefined;
}

/** A stable hash of what would be written: equal hashes mean nothing to update. */
export function fingerprint(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex');
}

export function termBody(item: Json, parent: number | undefined): Json {
  return {
    name: decoded(item.name),
    ...(text(item.slug) !== '' ? { slug: text(item.slug) } : {}),
    description: text(item.description),
    ...(parent !== undefined ? { parent } : {}),
  };
}

/** The parent's source id of a category (0: none). */
export const parentOf = (item: Json): number => (typeof item.parent === 'number' ? item.parent : 0);

function postHead(item: Json, status: string): Json {
  const image = imageUrl(item.image);
  const slug = text(item.slug);
  return {
    // Drafts may have no slug yet (API.md §3); the API refuses an empty one.
    ...(slug !== '' ? { slug } : {}),
    status,
    ...publication(item),
    description: text(item.description),
    ...(image ? { image } : {}),
  };
}

const optionalText = (item: Json, names: readonly string[]): Json =>
  Object.fromEntries(names.filter((name) => typeof item[name] === 'string').map((name) => [name, item[name]]));

const coordinate = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value)
    ? value
    : typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))
      ? Number(value)
      : undefined;

export function venueBody(item: Json, status: string): Json {
  const lat = coordinate(item.geo_lat);
  const lng = coordinate(item.geo_lng);
  return {
    venue: decoded(item.venue),
    ...postHead(item, status),
    ...optionalText(item, ['address', 'city', 'country', 'province', 'state', 'zip', 'phone', 'stateprovince']),
    ...(typeof item.website === 'string' && item.website !== '' ? { website: item.website } : {}),
    ...(typeof item.show_map === 'boolean' ? { show_map: item.show_map } : {}),
    ...(typeof item.show_map_link === 'boolean' ? { show_map_link: item.show_map_link } : {}),
    // Both or neither: the API keeps a venue's coordinates as a pair.
    ...(lat !== undefined && lng !== undefined && (lat !== 0 || lng !== 0) ? { geo_lat: lat, geo_lng: lng } : {}),
  };
}

export function organizerBody(item: Json, status: string): Json {
  return {
    organizer: decoded(item.organizer),
    ...postHead(item, status),
    ...optionalText(item, ['phone', 'email']),
    ...(typeof item.website === 'string' && item.website !== '' ? { website: item.website } : {}),
  };
}

/**
 * The cost as values with their currency symbol where it goes (`cost_details`, API.md §24), so that
 * this service formats it as the source did. TEC leaves the symbol empty when it is the site's
 * default, `$` prefix, which is this service's default too.
 */
function costOf(item: Json): string[] {
  const details = isRecord(item.cost_details) ? item.cost_details : {};
  const values = Array.isArray(details.values) ? details.values.filter((v): v is string => typeof v === 'string') : [];
  const symbol = text(details.currency_symbol);
  if (symbol === '') return values;
  return values.map((value) =>
    text(details.currency_position) === 'postfix' ? `${value}${symbol}` : `${symbol}${value}`,
  );
}

export interface EventLinks {
  venue: number | null;
  organizers: number[];
  categories: number[];
  tags: number[];
}

export function eventBody(item: Json, status: string, links: EventLinks): Json {
  const website = text(item.website);
  return {
    title: decoded(item.title),
    ...postHead(item, status),
    excerpt: text(item.excerpt),
    timezone: text(item.timezone) || 'UTC',
    all_day: bool(item.all_day),
    start_date: utcInstant(item.utc_start_date) ?? text(item.start_date),
    end_date: utcInstant(item.utc_end_date) ?? text(item.end_date),
    cost: costOf(item),
    // TEC falls back to the event's own page when no website is set (API.md §17): that is not one.
    website: website === text(item.url) ? '' : website,
    show_map: bool(item.show_map),
    show_map_link: bool(item.show_map_link),
    hide_from_listings: bool(item.hide_from_listings),
    sticky: bool(item.sticky),
    featured: bool(item.featured),
    venue: links.venue,
    organizer: links.organizers,
    categories: links.categories,
    tags: links.tags,
    ...(typeof item.password === 'string' ? { password: item.password } : {}),
    // A series' RRULE/RDATE/EXDATE lines (copy mode; `[]` keeps a plain event plain on updates).
    ...(Array.isArray(item.recurrence)
      ? { recurrence: item.recurrence.filter((line) => typeof line === 'string') }
      : {}),
  };
}

/** A series (copy mode): an event with recurrence lines. */
export const isSeries = (item: Json): boolean => Array.isArray(item.recurrence) && item.recurrence.length > 0;

/** The source ids an event links to, with the embedded venue and organizers (TEC embeds them whole). */
export function eventReferences(item: Json): {
  venue: Json | undefined;
  organizers: Json[];
  categories: number[];
  tags: number[];
} {
  const ids = (value: unknown) =>
    Array.isArray(value) ? value.map(sourceIdOf).filter((id): id is number => id !== undefined) : [];
  return {
    venue: isRecord(item.venue) && sourceIdOf(item.venue) !== undefined ? item.venue : undefined,
    organizers: Array.isArray(item.organizer)
      ? item.organizer.filter(isRecord).filter((o) => sourceIdOf(o) !== undefined)
      : [],
    categories: ids(item.categories),
    tags: ids(item.tags),
  };
}

/**
 * Translations of a copy-mode item (`translations` of `context=edit`, API.md §18): the original
 * language first, then the others, each with the fields it has.
 */
export function translationsOf(item: Json): { lang: string; fields: Record<string, string> }[] {
  if (!isRecord(item.translations)) return [];
  return Object.entries(item.translations)
    .filter((entry): entry is [string, Json] => isRecord(entry[1]))
    .map(([lang, fields]) => ({
      lang,
      fields: Object.fromEntries(
        Object.entries(fields).filter((field): field is [string, string] => typeof field[1] === 'string'),
      ),
    }));
}
