import type { Validator } from '../../http/conditional.js';
import type { VersionedCache } from '../../cache/lru.js';
import type { CacheMaker } from '../../cache/maker.js';
import type { TermRow } from './terms.repository.js';

/** What the terms module keeps between requests, stamped with the data version. */
export interface TermsState {
  /** Term rows by id and language, as embedded in events. */
  readonly rows: VersionedCache<TermRow>;
  /** ETags and last changes of single reads, by id and variant (API.md §21). */
  readonly validators: VersionedCache<Validator>;
}

export function createTermsState(keep: CacheMaker): TermsState {
  return { rows: keep<TermRow>(5_000, 5_000), validators: keep<Validator>(5_000, 5_000) };
}
