import type { Validator } from '../../http/conditional.js';
import type { Fragment } from '../../cache/entries.js';
import type { VersionedCache } from '../../cache/lru.js';
import { MB, type CacheMaker } from '../../cache/maker.js';
import type { LinkedRow } from './linked.repository.js';

/** What the venue and organizer modules keep between requests, all stamped with the data version. */
export interface LinkedState {
  /** Venue and organizer rows by kind, id and language: the same few hundred are embedded in thousands of events. */
  readonly rows: VersionedCache<LinkedRow>;
  /** List totals per filter and reader. */
  readonly counts: VersionedCache<number>;
  /** Whole ordered lists per filter and reader (venues and organizers are few), so pages are slices. */
  readonly lists: VersionedCache<number[]>;
  /** Items rendered for lists, as UTF-8 JSON. */
  readonly renderings: VersionedCache<Fragment>;
  /** ETags and last changes of single reads, by id and variant (API.md §21). */
  readonly validators: VersionedCache<Validator>;
}

export function createLinkedState(keep: CacheMaker): LinkedState {
  return {
    rows: keep<LinkedRow>(5_000, 5_000),
    counts: keep<number>(2_000, 2_000),
    lists: keep<number[]>(500, 500_000, (ids) => ids.length),
    renderings: keep<Fragment>(10_000, 4 * MB, (fragment) => fragment.bytes),
    validators: keep<Validator>(5_000, 5_000),
  };
}
