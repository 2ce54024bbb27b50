import type { DataVersion } from '../../changes/data-version.js';
import type { CacheMaker } from '../../cache/maker.js';
import type { Config } from '../../config.js';
import type { Db } from '../../db/schema.js';
import { createTermsState, type TermsState } from './terms.state.js';

/** The terms module: what its services are given at start-up, besides each request's context. */
export interface TermsModule {
  readonly db: Db;
  readonly config: Config;
  readonly state: TermsState;
  readonly version: DataVersion;
}

export function createTermsModule(deps: {
  db: Db;
  config: Config;
  keep: CacheMaker;
  version: DataVersion;
}): TermsModule {
  return { db: deps.db, config: deps.config, state: createTermsState(deps.keep), version: deps.version };
}
