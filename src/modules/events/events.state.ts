import type { Validator } from '../../http/conditional.js';
import type { VersionedCache } from '../../cache/lru.js';
import type { CacheMaker } from '../../cache/maker.js';
import type { DataVersion } from '../../changes/data-version.js';
import type { Config } from '../../config.js';
import type { Db } from '../../db/schema.js';
import type { LinkedModule } from '../linked/linked.module.js';
import type { PostBase } from '../posts/posts.repository.js';
import type { TermsModule } from '../terms/terms.module.js';

/** A post's base row, with the change keys of the rows it was read from (its own, an occurrence's series'). */
export interface KeptBase {
  readonly base: PostBase;
  readonly depends: readonly string[];
}

/**
 * What the events services are given at start-up, besides each request's context: the database and
 * configuration, the modules whose rows events embed, and what event reads keep between requests
 * (besides listing and rendering).
 */
export interface EventsState {
  readonly db: Db;
  readonly config: Config;
  readonly linked: LinkedModule;
  readonly terms: TermsModule;
  /** The data version, and what each write since a version changed. */
  readonly versions: DataVersion;
  /** Posts' base rows (type, status, author, password) that single reads check before rendering. */
  readonly postBases: VersionedCache<KeptBase>;
  /** Event ids by slug, for reads by slug. */
  readonly slugIds: VersionedCache<number>;
  /** Term filters of lists resolved to ids (a category brings its descendants). */
  readonly termFilters: VersionedCache<number[]>;
  /** ETags and last changes of single reads, by id, variant and reader (API.md §21). */
  readonly validators: VersionedCache<Validator>;
}

export function createEventsState(deps: {
  db: Db;
  config: Config;
  keep: CacheMaker;
  version: DataVersion;
  linked: LinkedModule;
  terms: TermsModule;
}): EventsState {
  const { keep } = deps;
  return {
    db: deps.db,
    config: deps.config,
    linked: deps.linked,
    terms: deps.terms,
    versions: deps.version,
    postBases: keep<KeptBase>(20_000, 20_000),
    slugIds: keep<number>(20_000, 20_000),
    termFilters: keep<number[]>(1_000, 500_000, (ids) => ids.length),
    validators: keep<Validator>(20_000, 20_000),
  };
}
