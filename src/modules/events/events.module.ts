import type { Fragment } from '../../cache/entries.js';
import type { VersionedCache } from '../../cache/lru.js';
import { MB, type CacheMaker } from '../../cache/maker.js';
import type { DataVersion } from '../../changes/data-version.js';
import type { Writes } from '../../changes/writes.js';
import type { Config } from '../../config.js';
import type { OffThreadReader } from '../../db/off-thread.js';
import type { Db } from '../../db/schema.js';
import type { LinkedModule } from '../linked/linked.module.js';
import type { TermsModule } from '../terms/terms.module.js';
import { createEventsState, type EventsState } from './events.state.js';
import { acceleratedListing, reconcileCounts, type KeptCount, type Reconciliation } from './listing/accelerated.js';
import { keptSize, type KeptList } from './listing/kept-lists.js';
import type { EventListing } from './listing/listing.js';
import { plainListing } from './listing/plain.js';
import { fragmentRendering } from './rendering/fragments.js';
import { plainRendering } from './rendering/plain.js';
import type { EventRendering } from './rendering/rendering.js';
import { EventCandidates } from './search/candidates.js';

export interface EventsModuleDeps {
  readonly db: Db;
  readonly config: Config;
  readonly version: DataVersion;
  readonly writes: Writes;
  /** Makes the module's caches (keeping nothing with ACCELERATION=off, cache/maker.ts). */
  readonly keep: CacheMaker;
  /** Off: every list, count, search and rendering takes the plain path (ACCELERATION=off). */
  readonly acceleration: boolean;
  /** The modules whose rows events embed. */
  readonly linked: LinkedModule;
  readonly terms: TermsModule;
  readonly offThread?: OffThreadReader;
  readonly onError: (error: unknown) => void;
}

/** The events module: its state, how lists are found and events rendered, and the search candidates behind them. */
export interface EventsModule {
  readonly state: EventsState;
  readonly listing: EventListing;
  readonly rendering: EventRendering;
  /** In-memory narrowing of public searches; undefined on the plain path. */
  readonly candidates: EventCandidates | undefined;
  /** Rendered events and what they embed, kept as bytes; undefined on the plain path. */
  readonly fragments: VersionedCache<Fragment> | undefined;
  /** What `GET /health` says of the search index: `building` while searches would wait for it. */
  searchIndexState(): 'ready' | 'building';
  /** Builds what searches need now rather than on the first one (server start). */
  prepare(): Promise<void>;
  /** Counts the kept list totals again in SQL and compares (`POST /reconcile`); nothing is kept on the plain path. */
  reconcileCounts(): Promise<Reconciliation>;
}

/** The one place where the events module's accelerated or plain paths are chosen. */
export function createEventsModule(deps: EventsModuleDeps): EventsModule {
  const state = createEventsState(deps);
  if (!deps.acceleration) {
    const plain = {
      listing: plainListing(state),
      rendering: plainRendering(state),
      candidates: undefined,
      fragments: undefined,
    };
    return {
      state,
      ...plain,
      searchIndexState: () => 'ready',
      prepare: async () => undefined,
      reconcileCounts: async () => ({ checked: 0, differences: 0, details: [] }),
    };
  }
  const candidates = new EventCandidates(deps.db, deps.version, deps.onError, { offThread: deps.offThread });
  deps.writes.onCommitted((changes) => {
    for (const id of changes.events) candidates.changed(id);
  });
  const fragments = deps.keep<Fragment>(60_000, 60 * MB, (fragment) => fragment.bytes);
  const listingState = {
    db: deps.db,
    config: deps.config,
    plain: plainListing(state),
    candidates,
    counts: deps.keep<KeptCount>(10_000, 10_000),
    // Entries are many searches (a category, a word and a window give tens of ids at 100,000
    // events) and a few whole lists; the id budget bounds the memory (docs/performance-log.md).
    eventLists: deps.keep<KeptList>(20_000, 2_000_000, keptSize),
    versions: deps.version,
    writes: deps.writes,
  };
  return {
    state,
    listing: acceleratedListing(listingState),
    reconcileCounts: () => reconcileCounts(listingState),
    rendering: fragmentRendering(state, fragments, deps.version),
    candidates,
    fragments,
    searchIndexState: () => (candidates.ready ? 'ready' : 'building'),
    prepare: async () => candidates.prepare(await deps.version.current()),
  };
}
