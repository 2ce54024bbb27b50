import { sql } from 'kysely';
import { DateTime } from 'luxon';
import type { Writes } from '../../../changes/writes.js';
import type { Config } from '../../../config.js';
import type { Dialect } from '../../../db/connect.js';
import { materialise } from './series.materialise.js';
import { markMaterialised, seriesBehind } from './series.repository.js';
import { RecurrenceProblem } from '../../../domain/recurrence/lines.js';
import { horizonOf } from './series.service.js';

/** Series extended per transaction: small steps keep each write short. */
const BATCH = 50;
const DAY = 86_400;
/** How often a running process looks whether the horizon has moved on (API.md §20.1). */
export const HORIZON_CHECK_MS = 60 * 60 * 1000;
/**
 * The PostgreSQL advisory lock (transaction-scoped) that lets one process at a time extend
 * series: another process finding it taken skips this round (it will find nothing left later).
 */
const ADVISORY_LOCK_KEY = 2026_0026;

/**
 * Extends every series whose occurrences stop before the current horizon (at start-up and on a
 * timer): the occurrences the horizon reaches are created, with new ids; existing ones are kept
 * as they are. Returns the number of series extended. On PostgreSQL each batch runs under an
 * advisory lock, so processes sharing a database never extend the same series twice at once.
 */
export async function extendHorizon(dialect: Dialect, writes: Writes, config: Config, now: Date): Promise<number> {
  const horizon = horizonOf(config, DateTime.fromJSDate(now));
  let extended = 0;
  for (;;) {
    const done = await writes.transaction(async (trx, changes) => {
      if (dialect === 'postgres') {
        const { rows } = await sql<{
          locked: boolean;
        }>`SELECT pg_try_advisory_xact_lock(${ADVISORY_LOCK_KEY}) AS locked`.execute(trx);
        if (!rows[0]?.locked) return -1;
      }
      // A day's slack: each series is extended once a day, not at every check.
      const ids = await seriesBehind(trx, horizon.until - DAY, BATCH);
      for (const id of ids) {
        try {
          await materialise(trx, id, horizon, changes, { sharedChanged: false });
        } catch (error) {
          // Limits are checked on writes only: a series the horizon takes past them keeps what it has.
          if (!(error instanceof RecurrenceProblem)) throw error;
          await markMaterialised(trx, id, horizon.until);
        }
      }
      return ids.length;
    });
    if (done <= 0) return extended;
    extended += done;
    if (done < BATCH) return extended;
  }
}
