/** Every status a copy carries (API.md §24), for lists with context=edit. */
export const EVERY_STATUS = 'publish,future,draft,pending,private';

/** Keys that name the installation rather than the content: ids, links by id, write times. */
const LOCAL_KEYS = new Set([
  'id',
  'global_id',
  'global_id_lineage',
  'rest_url',
  'modified',
  'modified_utc',
  'ical_uid',
  'ical_url',
  'term_taxonomy_id',
  'urls',
  'parent',
  'series_id',
  'occurrences_url',
]);

/** A draft without a slug is linked by id (`?post_type=tribe_events&p=563`): the id part is local. */
const withoutIds = (url: string) => url.replace(/([?&]p=)\d+/, '$1{id}');

function comparable(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(comparable);
  if (typeof value === 'string') return withoutIds(value);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => !LOCAL_KEYS.has(key))
      .map(([key, inner]) => [key, comparable(inner)]),
  );
}

/** A list of events as content alone, in slug order: two copies of one calendar compare equal. */
export function comparableEvents(events: Record<string, unknown>[]): unknown[] {
  return events
    .map(comparable)
    .sort((a, b) =>
      String((a as { slug: string }).slug + (a as { title: string }).title).localeCompare(
        String((b as { slug: string }).slug + (b as { title: string }).title),
      ),
    );
}
