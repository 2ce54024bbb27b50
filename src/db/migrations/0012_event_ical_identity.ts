import { sql, type Kysely } from 'kysely';

/**
 * iCalendar identity of events (API.md §19.1, §19.2): a stored UID that never changes (TEC derived
 * its UIDs from the dates, so a rescheduled event appeared twice in subscribers' calendars), the
 * SEQUENCE that rescheduling bumps, and the creation time (`CREATED`; the publication date is settable).
 * UIDs contain PUBLIC_URL's host, which migrations do not know: existing events get theirs at the
 * next start (ical/ical.maintenance.ts). Their creation time is unknown: the last modification is
 * the earliest time known to be after it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('events').addColumn('ical_uid', 'text').execute();
  await db.schema
    .alterTable('events')
    .addColumn('ical_sequence', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('events').addColumn('created_at', 'bigint').execute();
  await sql`UPDATE events SET created_at = (SELECT posts.modified_at FROM posts WHERE posts.id = events.post_id)`.execute(
    db,
  );
  await db.schema.createIndex('events_ical_uid').unique().on('events').column('ical_uid').execute();
}
