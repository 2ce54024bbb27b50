import { sql } from 'kysely';
import { dialectOfExecutor } from '../../db/dialect.js';
import type { Executor } from '../../db/schema.js';

/**
 * A random (version 4) UUID in SQL: PostgreSQL's built-in gen_random_uuid(); SQLite has none, so
 * it is assembled from randomblob() with the version and variant digits set.
 */
function randomUuid(db: Executor) {
  if (dialectOfExecutor(db) === 'postgres') return sql<string>`gen_random_uuid()::text`;
  return sql<string>`(lower(hex(randomblob(4))) || '-' || lower(hex(randomblob(2))) || '-4' || substr(lower(hex(randomblob(2))), 2) || '-' || substr('89ab', 1 + (abs(random()) % 4), 1) || substr(lower(hex(randomblob(2))), 2) || '-' || lower(hex(randomblob(6))))`;
}

export async function hasEventsWithoutUid(db: Executor): Promise<boolean> {
  const row = await db.selectFrom('events').select('post_id').where('ical_uid', 'is', null).limit(1).executeTakeFirst();
  return row !== undefined;
}

/** Gives every event without a UID one, `{uuid}@{host}`, in one statement (a million rows at start-up). */
export async function assignMissingUids(db: Executor, host: string): Promise<void> {
  await db
    .updateTable('events')
    .set({ ical_uid: sql<string>`${randomUuid(db)} || ${`@${host}`}` })
    .where('ical_uid', 'is', null)
    .execute();
}

/** What a subscriber's calendar must hear about again (API.md §19.1 SEQUENCE): dates, zone, status, venue. */
export interface ScheduleState {
  start_utc: number;
  end_utc: number;
  all_day: number;
  timezone: string;
  status: string;
  venue_id: number | null;
}

/** The columns of ScheduleState. */
export const SCHEDULE_COLUMNS = ['start_utc', 'end_utc', 'all_day', 'timezone', 'status', 'venue_id'] as const;

export async function bumpSequence(db: Executor, eventId: number): Promise<void> {
  await db
    .updateTable('events')
    .set((eb) => ({ ical_sequence: eb('ical_sequence', '+', 1) }))
    .where('post_id', '=', eventId)
    .execute();
}

/** The latest modification of any post (Unix seconds; 0 when there is none): a feed's Last-Modified. */
export async function latestModification(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('posts')
    .select((eb) => eb.fn.max('modified_at').as('at'))
    .executeTakeFirst();
  return Number(row?.at ?? 0);
}
