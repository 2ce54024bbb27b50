import assert from 'node:assert/strict';
import type { Db } from '../../src/db/schema.js';
import { recountTerms } from '../../src/modules/terms/terms.repository.js';
import type { TestApi, TestResponse, Who } from './app.js';
import { nextSlot } from './fixtures.js';

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
    .values({
      type: 'event',
      author_id: options.authorId ?? 0,
      status: options.status ?? 'publish',
      slug: `factory-event-${sequence}-${Date.now()}`,
      title: `Factory event ${sequence}`,
      lang: 'en',
      published_at: now,
      modified_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('events')
    .values({
      post_id: id,
      start_utc: start,
      end_utc: start + 7200,
      start_key: start,
      end_key: start + 7200,
      timezone: 'UTC',
      venue_id: options.venueId ?? null,
      hide_from_listings: options.hidden ? 1 : 0,
      status: options.status ?? 'publish',
      author_id: options.authorId ?? 0,
      ical_uid: `factory-event-${id}@127.0.0.1`,
    })
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

// API-level factories: they create through the real HTTP API (POST, as `as`, administrator by default),
// assert the 201 and return the created JSON; each `...Id` variant returns only the new id. Defaults
// are unique names; an override replaces a default, and an override of `undefined` leaves the field
// out of the body (so the API applies its own default).

type Body = Record<string, unknown>;
type Json = TestResponse['json'];
export type Taxonomy = 'categories' | 'tags';

function who(as: Who): string {
  return typeof as === 'object' ? 'a custom authorization' : as;
}

async function created(api: TestApi, path: string, body: Body, as: Who): Promise<Json> {
  const res = await api.post(path, body, { as });
  assert.equal(res.status, 201, `POST ${path} as ${who(as)}: expected 201, got ${res.status}: ${res.text}`);
  return res.json;
}

/** Creates an event: unique title, the next free hour slot (nextSlot()), timezone UTC, unless overridden. */
export async function createEvent(api: TestApi, overrides: Body = {}, as: Who = 'administrator'): Promise<Json> {
  sequence += 1;
  return created(
    api,
    '/events',
    { title: `Factory event ${sequence}`, ...nextSlot(), timezone: 'UTC', ...overrides },
    as,
  );
}

/** createEvent, returning the new event's id. */
export async function createEventId(api: TestApi, overrides: Body = {}, as: Who = 'administrator'): Promise<number> {
  return (await createEvent(api, overrides, as)).id;
}

/** Creates `count` events in start order, titled `${overrides.title ?? 'Event'} 1`, `… 2`, …; returns their ids. */
export async function createEventIds(
  api: TestApi,
  count: number,
  overrides: Body = {},
  as: Who = 'administrator',
): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < count; i++)
    ids.push(
      await createEventId(
        api,
        { ...overrides, title: `${typeof overrides.title === 'string' ? overrides.title : 'Event'} ${i + 1}` },
        as,
      ),
    );
  return ids;
}

/** Creates a venue with a unique name (`venue`) unless overridden. */
export async function createVenue(api: TestApi, overrides: Body = {}, as: Who = 'administrator'): Promise<Json> {
  sequence += 1;
  return created(api, '/venues', { venue: `Factory venue ${sequence}`, ...overrides }, as);
}

/** createVenue, returning the new venue's id. */
export async function createVenueId(api: TestApi, overrides: Body = {}, as: Who = 'administrator'): Promise<number> {
  return (await createVenue(api, overrides, as)).id;
}

/** Creates an organizer with a unique name (`organizer`) unless overridden. */
export async function createOrganizer(api: TestApi, overrides: Body = {}, as: Who = 'administrator'): Promise<Json> {
  sequence += 1;
  return created(api, '/organizers', { organizer: `Factory organizer ${sequence}`, ...overrides }, as);
}

/** createOrganizer, returning the new organizer's id. */
export async function createOrganizerId(
  api: TestApi,
  overrides: Body = {},
  as: Who = 'administrator',
): Promise<number> {
  return (await createOrganizer(api, overrides, as)).id;
}

/** Creates a category or tag with a unique `name` unless overridden. */
export async function createTerm(
  api: TestApi,
  taxonomy: Taxonomy,
  overrides: Body = {},
  as: Who = 'administrator',
): Promise<Json> {
  sequence += 1;
  return created(
    api,
    `/${taxonomy}`,
    { name: `Factory ${taxonomy === 'tags' ? 'tag' : 'category'} ${sequence}`, ...overrides },
    as,
  );
}

/** createTerm, returning the new term's id. */
export async function createTermId(
  api: TestApi,
  taxonomy: Taxonomy,
  overrides: Body = {},
  as: Who = 'administrator',
): Promise<number> {
  return (await createTerm(api, taxonomy, overrides, as)).id;
}
