import type { Kysely } from 'kysely';

/**
 * What an iCalendar import compares a file against (API.md §19.3): the file's LAST-MODIFIED (else
 * DTSTAMP) at the event's last import, in Unix seconds. Null for events never imported, whose
 * `modified_utc` stands in for it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('events').addColumn('ical_import_stamp', 'bigint').execute();
}
