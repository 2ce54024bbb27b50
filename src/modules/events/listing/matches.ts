import type { ListedState } from '../../../changes/change-set.js';
import { isVisibleTo } from '../../posts/posts.repository.js';
import type { EventFilter } from './listing.repository.js';

/**
 * Which lists a write can change, in memory (issue "reads while editors write"): a kept list or
 * count of a filter stays right after a write that moved no event it may select, before or after.
 * `mayList` never says no to an event the SQL of listing.repository.ts would select; where it
 * decides exactly (`decides`), a kept count is adjusted by the events a write moved in and out.
 */

/** Filters whose answer depends on more than the listed state of the events written (any write may change it). */
function dependsOnMore(filter: EventFilter): boolean {
  return (
    filter.geoloc !== undefined ||
    filter.near !== undefined ||
    filter.modifiedMin !== undefined ||
    filter.modifiedBefore !== undefined ||
    filter.order?.by === 'modified' ||
    filter.candidateIds !== undefined
  );
}

/** Whether `mayList` is exact for this filter: nothing searched, grouped or joined with the posts. */
export function decides(filter: EventFilter): boolean {
  return !dependsOnMore(filter) && filter.search === undefined && filter.parentId === undefined && !filter.collapse;
}

type Move = { id: number; before: ListedState | null; after: ListedState | null };

/**
 * Whether a write that moved events as `moves` says leaves a list of `filter` as it was: each event
 * it may select neither before nor after, or unchanged in everything the filter selects and orders
 * by (a new title leaves a list's ids as they were; its rendering is the fragments' concern).
 */
export function unmovedBy(filter: EventFilter, moves: readonly Move[]): boolean {
  if (dependsOnMore(filter)) return moves.length === 0;
  return moves.every(
    (move) =>
      (!mayList(filter, move.id, move.before) && !mayList(filter, move.id, move.after)) ||
      (move.before !== null && move.after !== null && selectedAlike(filter, move.before, move.after)),
  );
}

/** Every field of ListedState the SQL filters or orders on is the same (the text only when searched). */
function selectedAlike(filter: EventFilter, a: ListedState, b: ListedState): boolean {
  const sameIds = (x: readonly number[], y: readonly number[]) =>
    x.length === y.length && x.every((id, i) => id === y[i]);
  return (
    a.status === b.status &&
    a.author_id === b.author_id &&
    a.start_key === b.start_key &&
    a.end_key === b.end_key &&
    a.hidden === b.hidden &&
    a.series_id === b.series_id &&
    a.parent_id === b.parent_id &&
    a.featured === b.featured &&
    a.venue_id === b.venue_id &&
    a.protected === b.protected &&
    sameIds(a.organizer_ids, b.organizer_ids) &&
    sameIds(a.term_ids, b.term_ids) &&
    (filter.search === undefined || a.text === b.text)
  );
}

/**
 * How many events a list of `filter` gained (or, negative, lost) by these moves; undefined when the
 * filter is not one `mayList` decides.
 */
export function countMoved(filter: EventFilter, moves: readonly Move[]): number | undefined {
  if (!decides(filter)) return unmovedBy(filter, moves) ? 0 : undefined;
  let delta = 0;
  for (const move of moves)
    delta += Number(mayList(filter, move.id, move.after)) - Number(mayList(filter, move.id, move.before));
  return delta;
}

const overlaps = (wanted: readonly number[] | undefined, has: readonly number[]) =>
  wanted === undefined || has.some((id) => wanted.includes(id));

/** Whether the event `id` in `state` may be selected by `filter` (listing.repository.ts eventConditions, searchCondition). */
export function mayList(filter: EventFilter, id: number, state: ListedState | null): boolean {
  if (state === null) return false;
  if (!isVisibleTo(filter.caller, filter.statuses, state.status, state.author_id)) return false;
  if (filter.seriesId !== undefined ? state.series_id !== filter.seriesId : !filter.includeHidden && state.hidden)
    return false;
  return inDates(filter, state) && inRelations(filter, id, state) && mayHaveWords(filter, state);
}

function inDates(filter: EventFilter, { start_key: start, end_key: end }: ListedState): boolean {
  return (
    (filter.startMin === undefined || start >= filter.startMin) &&
    (filter.startBefore === undefined || start < filter.startBefore) &&
    (filter.startAfter === undefined || start > filter.startAfter) &&
    (filter.endMax === undefined || end <= filter.endMax) &&
    (filter.endBefore === undefined || end < filter.endBefore) &&
    (filter.endAfter === undefined || end > filter.endAfter) &&
    // The SQL bounds the start by the end's upper bound too (no event ends before it starts).
    start <= Math.min(filter.endMax ?? Infinity, (filter.endBefore ?? Infinity) - 1)
  );
}

function inRelations(filter: EventFilter, id: number, state: ListedState): boolean {
  return (
    overlaps(filter.categoryIds, state.term_ids) &&
    overlaps(filter.tagIds, state.term_ids) &&
    (filter.venueIds === undefined || (state.venue_id !== null && filter.venueIds.includes(state.venue_id))) &&
    overlaps(filter.organizerIds, state.organizer_ids) &&
    (filter.featured === undefined || state.featured === filter.featured) &&
    (filter.include === undefined ||
      filter.include.includes(id) ||
      (state.series_id !== null && filter.include.includes(state.series_id))) &&
    (!filter.unprotected || !state.protected) &&
    (filter.parentId === undefined || state.parent_id === filter.parentId || state.series_id === filter.parentId)
  );
}

/** Every searched word may be in its text (words to leave out can only narrow, so they are not looked at). */
function mayHaveWords(filter: EventFilter, state: ListedState): boolean {
  return filter.search === undefined || filter.search.include.every((word) => state.text.includes(word.toLowerCase()));
}
