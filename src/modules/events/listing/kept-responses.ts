import type { KeptOver } from '../../../cache/entries.js';
import { changeKey, type ChangeKind } from '../../../changes/change-set.js';
import type { EventFilter } from './listing.repository.js';
import { unmovedBy } from './matches.js';

/**
 * When a kept response of a page of events is still the one to send (plugins/response-cache.ts):
 * no write since changed what it shows (`shown`: the `changeKey`s its events were rendered from,
 * rendering.ts RenderedFrom), nor moved an event its filter may hold in or out (so its ids and total
 * are the same), nor changed what the request's parameters name (the terms, venues and organizers
 * it filters on, the parent event). A title edit had made every kept list and single read render
 * again, as a create still does for the lists and terms it moves (issue "reads while editors write").
 */
export function pageKeptOver(filter: EventFilter, ids: readonly number[], shown: readonly string[]): KeptOver {
  const keys = [...shown, ...ids.map((id) => changeKey('event', id))];
  if (filter.parentId !== undefined) keys.push(changeKey('event', filter.parentId));
  if (filter.seriesId !== undefined) keys.push(changeKey('event', filter.seriesId));
  const kinds: ChangeKind[] = [];
  if (filter.categoryIds !== undefined || filter.tagIds !== undefined) kinds.push('taxonomy');
  if (filter.venueIds !== undefined) kinds.push('venue');
  if (filter.organizerIds !== undefined) kinds.push('organizer');
  return (versions, storedUnder, version) =>
    versions.unchangedSince(storedUnder, version, keys) &&
    (kinds.length === 0 || versions.kindsUnchangedSince(storedUnder, version, kinds)) &&
    (versions.movesSince(storedUnder, version)?.every((moves) => unmovedBy(filter, moves)) ?? false);
}

/** When a kept single read of event `id` is still the one to send: no write since changed what it shows. */
export function singleKeptOver(id: number, shown: readonly string[]): KeptOver {
  const keys = [...shown, changeKey('event', id)];
  return (versions, storedUnder, version) => versions.unchangedSince(storedUnder, version, keys);
}
