import type { Db } from '../../src/db/schema.js';
import { recountTerms } from '../../src/modules/terms/terms.repository.js';

let sequence = 0;

/**
 * A minimal stored event, written straight to the tables, for tests of resources that only need an
 * event to exist or to link terms (the events API has its own tests).
 */
export interface EventFixture {
  status?: string;
  termIds?: number[];
  /** Start instant in Unix seconds (default: a fixed moment in the future). */
  start?: number;
  venueId?: number;
  organizerIds?: number[];
  hidden?: boolean;
  authorId?: number;
}

export async function insertEvent(db: Db, options: EventFixture = {}): Promise<number> {
  sequence += 1;
  const now = 1_790_000_000;
  const start = options.start ?? now + 86_400;
  const { id } = await db
    .insertInto('posts')
    .values({ type: 'event', author_id: options.authorId ?? 0, status: options.status ?? 'publish', slug: `factory-event-${sequence}-${Date.now()}`, title: `Factory event ${sequence}`, lang: 'en', published_at: now, modified_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('events')
    .values({ post_id: id, start_utc: start, end_utc: start + 7200, start_key: start, end_key: start + 7200, timezone: 'UTC', venue_id: options.venueId ?? null, hide_from_listings: options.hidden ? 1 : 0, status: options.status ?? 'publish', author_id: options.authorId ?? 0 })
    .execute();
  for (const [position, organizerId] of (options.organizerIds ?? []).entries()) {
    await db.insertInto('event_organizers').values({ event_id: id, organizer_id: organizerId, position }).execute();
  }
  const termIds = options.termIds ?? [];
  for (const [position, termId] of termIds.entries()) {
    await db.insertInto('event_terms').values({ event_id: id, term_id: termId, position }).execute();
  }
  await recountTerms(db, termIds);
  return id;
}
