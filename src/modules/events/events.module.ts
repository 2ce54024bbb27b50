import type { Caches } from '../../cache/caches.js';
import type { DataVersion } from '../../changes/data-version.js';
import type { Writes } from '../../changes/writes.js';
import type { OffThreadReader } from '../../db/off-thread.js';
import type { Db } from '../../db/schema.js';
import { acceleratedListing } from './listing/accelerated.js';
import type { EventListing } from './listing/listing.js';
import { plainListing } from './listing/plain.js';
import { fragmentRendering } from './rendering/fragments.js';
import { plainRendering } from './rendering/plain.js';
import type { EventRendering } from './rendering/rendering.js';
import { EventCandidates } from './search/candidates.js';

export interface EventsModuleDeps {
  readonly db: Db;
  readonly version: DataVersion;
  readonly writes: Writes;
  readonly caches: Caches;
  /** Off: every list, count, search and rendering takes the plain path (ACCELERATION=off). */
  readonly acceleration: boolean;
  readonly offThread?: OffThreadReader;
  readonly onError: (error: unknown) => void;
}

/** The events module's state: how lists are found and events rendered, and the search candidates behind them. */
export interface EventsModule {
  readonly listing: EventListing;
  readonly rendering: EventRendering;
  /** In-memory narrowing of public searches; undefined on the plain path. */
  readonly candidates: EventCandidates | undefined;
  /** What `GET /health` says of the search index: `building` while searches would wait for it. */
  searchIndexState(): 'ready' | 'building';
  /** Builds what searches need now rather than on the first one (server start). */
  prepare(): Promise<void>;
}

export function createEventsModule(deps: EventsModuleDeps): EventsModule {
  const { caches } = deps;
  if (!deps.acceleration) {
    return { listing: plainListing, rendering: plainRendering, candidates: undefined, searchIndexState: () => 'ready', prepare: async () => undefined };
  }
  const candidates = new EventCandidates(deps.db, deps.version, deps.onError, { offThread: deps.offThread });
  deps.writes.onCommitted((changes) => {
    for (const id of changes.events) candidates.changed(id);
  });
  return {
    listing: acceleratedListing({ plain: plainListing, candidates, counts: caches.counts, eventLists: caches.eventLists }),
    rendering: fragmentRendering(caches.fragments, deps.version),
    candidates,
    searchIndexState: () => (candidates.ready ? 'ready' : 'building'),
    prepare: async () => candidates.prepare(await deps.version.current()),
  };
}
