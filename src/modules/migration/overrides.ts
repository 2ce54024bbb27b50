import type { Lists } from './lists.js';
import { eventBody, isRecord, sourceIdOf, type EventLinks, type Json } from './map.js';
import type { Target } from './target.js';

/*
 * Copy mode's occurrences (API.md §20.3, §24): the target expands a copied series itself, then each
 * occurrence edited one by one at the source (an override, a trashed or a deleted one) is made so
 * here: an override by a `scope=this` write of the fields that differ, a trashed one by a DELETE,
 * one deleted for good by a DELETE with `force=true`.
 */

/** What an override may change: everything but the series' own slug, zone, rule, password, author, status. */
const OVERRIDABLE = [
  'title',
  'description',
  'excerpt',
  'image',
  'all_day',
  'start_date',
  'end_date',
  'cost',
  'website',
  'show_map',
  'show_map_link',
  'hide_from_listings',
  'sticky',
  'featured',
  'venue',
  'organizer',
  'categories',
  'tags',
] as const;

/** Every status, the trash included: a trashed occurrence is one the series excludes. */
export const OCCURRENCE_STATUSES = 'publish,future,draft,pending,private,trash';

export function occurrencesQuery(withCredentials: boolean): Record<string, string | number> {
  return withCredentials ? { status: OCCURRENCE_STATUSES, context: 'edit' } : { status: 'publish' };
}

export interface SourceOccurrences {
  readonly items: Json[];
  /** Every page was read. */
  readonly complete: boolean;
  /** Trashed ones are listed too, so an occurrence missing from a complete list was deleted for good. */
  readonly withTrash: boolean;
}

/** A copy-mode series' occurrences at the source. */
export async function sourceOccurrences(
  lists: Lists,
  seriesId: number,
  withCredentials: boolean,
): Promise<SourceOccurrences> {
  const items: Json[] = [];
  let complete = true;
  for await (const outcome of lists.pages(
    `events/${seriesId}/occurrences`,
    'events',
    occurrencesQuery(withCredentials),
  ))
    if (outcome.ok) items.push(...outcome.page.items.filter(isRecord));
    else complete = false;
  return { items, complete, withTrash: withCredentials };
}

/** The fields an override can hold, as a write would send them. */
function overridable(item: Json, links: EventLinks): Json {
  const body = eventBody(item, 'publish', links);
  return Object.fromEntries(OVERRIDABLE.filter((key) => key in body).map((key) => [key, body[key]]));
}

/** An item's links as it names them itself (the target's occurrences: local ids already). */
function ownLinks(item: Json): EventLinks {
  const ids = (value: unknown) =>
    Array.isArray(value) ? value.map(sourceIdOf).filter((id): id is number => id !== undefined) : [];
  return {
    venue: sourceIdOf(item.venue) ?? null,
    organizers: ids(item.organizer),
    categories: ids(item.categories),
    tags: ids(item.tags),
  };
}

/** The fields where the target's occurrence differs from the source's. */
function difference(wanted: Json, current: Json): Json {
  return Object.fromEntries(
    Object.entries(wanted).filter(([key, value]) => JSON.stringify(value) !== JSON.stringify(current[key])),
  );
}

const recurrenceIdOf = (item: Json) => (typeof item.recurrence_id === 'string' ? item.recurrence_id : undefined);

/**
 * Makes the local series' occurrences match the source's. `linksOf` maps a source occurrence's
 * links to local ids. Returns warnings for occurrences the target does not have.
 */
export async function copyOccurrences(
  target: Target,
  localSeries: number,
  source: SourceOccurrences,
  linksOf: (item: Json) => Promise<EventLinks>,
): Promise<string[]> {
  const here = new Map<string, Json>();
  for (const item of await target.occurrences(localSeries)) {
    const recurrenceId = recurrenceIdOf(item);
    if (recurrenceId !== undefined) here.set(recurrenceId, item);
  }
  const warnings: string[] = [];
  const seen = new Set<string>();
  for (const item of source.items) {
    const recurrenceId = recurrenceIdOf(item);
    if (recurrenceId === undefined) continue;
    seen.add(recurrenceId);
    const mine = here.get(recurrenceId);
    const id = sourceIdOf(mine);
    if (!mine || id === undefined) {
      warnings.push(`occurrence ${recurrenceId} (#${String(item.id)}) is not expanded here`);
      continue;
    }
    if (item.status === 'trash') {
      if (mine.status !== 'trash') await target.remove('events', id, false);
      continue;
    }
    const changes = difference(overridable(item, await linksOf(item)), overridable(mine, ownLinks(mine)));
    if (mine.status === 'trash') changes.status = item.status;
    if (Object.keys(changes).length > 0) await target.update('events', id, { ...changes, scope: 'this' });
  }
  if (!source.complete || !source.withTrash) return warnings;
  // Deleted for good at the source: not listed there, though its original start is within what was.
  const last = [...seen].sort().at(-1) ?? '';
  for (const [recurrenceId, mine] of here) {
    const id = sourceIdOf(mine);
    if (!seen.has(recurrenceId) && recurrenceId <= last && id !== undefined) await target.remove('events', id, true);
  }
  return warnings;
}
