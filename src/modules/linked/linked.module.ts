import type { DataVersion } from '../../changes/data-version.js';
import type { CacheMaker } from '../../cache/maker.js';
import type { Config } from '../../config.js';
import type { Db } from '../../db/schema.js';
import { createLinkedState, type LinkedState } from './linked.state.js';

/** The venue and organizer module: what its services are given at start-up, besides each request's context. */
export interface LinkedModule {
  readonly db: Db;
  readonly config: Config;
  readonly state: LinkedState;
  readonly version: DataVersion;
}

export function createLinkedModule(deps: {
  db: Db;
  config: Config;
  keep: CacheMaker;
  version: DataVersion;
}): LinkedModule {
  return { db: deps.db, config: deps.config, state: createLinkedState(deps.keep), version: deps.version };
}
