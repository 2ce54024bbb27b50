import type { VersionedCache } from '../../cache/lru.js';
import type { CacheMaker } from '../../cache/maker.js';
import type { LinkedState } from '../linked/linked.state.js';
import type { PostBase } from '../posts/posts.repository.js';
import type { TermsModule } from '../terms/terms.module.js';

/** What event reads keep between requests (besides listing and rendering), and the modules whose rows events embed. */
export interface EventsState {
  readonly linked: LinkedState;
  readonly terms: TermsModule;
  /** Posts' base rows (type, status, author, password) that single reads check before rendering. */
  readonly postBases: VersionedCache<PostBase>;
  /** Event ids by slug, for reads by slug. */
  readonly slugIds: VersionedCache<number>;
  /** Term filters of lists resolved to ids (a category brings its descendants). */
  readonly termFilters: VersionedCache<number[]>;
}

export function createEventsState(keep: CacheMaker, linked: LinkedState, terms: TermsModule): EventsState {
  return {
    linked,
    terms,
    postBases: keep<PostBase>(20_000, 20_000),
    slugIds: keep<number>(20_000, 20_000),
    termFilters: keep<number[]>(1_000, 500_000, (ids) => ids.length),
  };
}
