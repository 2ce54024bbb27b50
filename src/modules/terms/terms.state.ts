import type { VersionedCache } from '../../cache/lru.js';
import type { CacheMaker } from '../../cache/maker.js';
import type { TermRow } from './terms.repository.js';

/** What the terms module keeps between requests, stamped with the data version. */
export interface TermsState {
  /** Term rows by id and language, as embedded in events. */
  readonly rows: VersionedCache<TermRow>;
}

export function createTermsState(keep: CacheMaker): TermsState {
  return { rows: keep<TermRow>(5_000, 5_000) };
}
