import type { Writes } from '../../changes/writes.js';
import type { Config } from '../../config.js';
import type { Db } from '../../db/schema.js';
import { uidHost } from './ical.identity.js';
import { assignMissingUids, hasEventsWithoutUid } from './ical.repository.js';

/**
 * Events existing when UIDs were introduced (migration 0012), or written around the service (bulk
 * seeding), get their UID once, at start-up (API.md §19.2). A write like any other, naming nothing:
 * every cached rendering is out of date.
 */
export async function assignIcalUids(db: Db, writes: Writes, config: Config): Promise<void> {
  if (!(await hasEventsWithoutUid(db))) return;
  await writes.transaction((trx) => assignMissingUids(trx, uidHost(config)));
}
