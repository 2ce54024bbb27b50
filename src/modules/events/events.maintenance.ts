import type { Writes } from '../../changes/writes.js';
import type { Config } from '../../config.js';
import type { Db } from '../../db/schema.js';
import { sortKeys } from './events.dates.js';
import { allDayEvents, updateEventColumns } from './events.repository.js';

/**
 * All-day events are placed on the site zone's days (events.dates.ts `sortKeys`), so their keys
 * follow SITE_TIMEZONE: when it changes between two starts, they are recomputed once (a write like
 * any other: other processes' caches learn of it from the data version).
 */
export async function syncSiteTimezone(db: Db, writes: Writes, config: Config): Promise<void> {
  const stored = await db.selectFrom('settings').select('value').where('key', '=', 'site_timezone').executeTakeFirst();
  if (stored?.value === config.siteTimezone) return;
  await writes.transaction(async (trx) => {
    for (const event of await allDayEvents(trx)) {
      await updateEventColumns(
        trx,
        event.post_id,
        sortKeys(event.start_utc, event.end_utc, event.timezone, true, config.siteTimezone),
      );
    }
    if (stored)
      await trx
        .updateTable('settings')
        .set({ value: config.siteTimezone })
        .where('key', '=', 'site_timezone')
        .execute();
    else await trx.insertInto('settings').values({ key: 'site_timezone', value: config.siteTimezone }).execute();
  });
}
