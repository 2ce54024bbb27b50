import type { Config } from '../../config.js';
import { compactSearchIndex, updatePlannerStatistics, withBulkSearchIndexing } from '../../db/dialect.js';
import type { Insertable } from 'kysely';
import type { Db, Executor, PostsTable } from '../../db/schema.js';
import { DateTime } from 'luxon';
import { ChangeSet } from '../../changes/change-set.js';
import { materialise } from '../events/series/series.materialise.js';
import { SERIES_ROW } from '../events/series/series.repository.js';
import { horizonOf } from '../events/series/series.service.js';
import { zoneOf } from '../../domain/timezones.js';
import { snapToDays, sortKeys } from '../events/events.dates.js';
import { searchDocument } from '../events/search/documents.js';
import { recountTerms } from '../terms/terms.repository.js';
import { CITIES, description, Random, sentence, ZONES } from './seed.data.js';
import { newIcalUid } from '../ical/ical.identity.js';

export interface SeedOptions {
  events: number;
  venues?: number;
  organizers?: number;
  /** Called after each batch with the number of events written so far. */
  onProgress?: (done: number, total: number) => void;
  /** Called as each finishing step begins (at a million events they take a minute or more together). */
  onStep?: (step: string) => void;
  seed?: number;
  /** The share of events written as recurring series (API.md §20), 0–1; default 0.1. */
  recurringShare?: number;
}

export interface SeedResult {
  events: number;
  series: number;
  occurrences: number;
  venues: number;
  organizers: number;
  categories: number;
  tags: number;
  eventIds: { first: number; last: number };
}

const BATCH = 500;
const DAY = 86_400;

async function insertBatch<T extends Record<string, unknown>>(
  db: Executor,
  table: 'posts' | 'events' | 'venues' | 'organizers' | 'event_terms' | 'event_organizers' | 'search_documents',
  rows: T[],
): Promise<void> {
  for (let i = 0; i < rows.length; i += BATCH) {
    await db
      .insertInto(table)
      .values(rows.slice(i, i + BATCH))
      .execute();
  }
}

async function insertPosts(db: Executor, rows: Insertable<PostsTable>[]): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < rows.length; i += BATCH) {
    const inserted = await db
      .insertInto('posts')
      .values(rows.slice(i, i + BATCH))
      .returning('id')
      .execute();
    ids.push(...inserted.map((r) => r.id));
  }
  return ids;
}

function post(type: string, n: number, title: string, now: number, extra: Partial<Insertable<PostsTable>> = {}) {
  return {
    type,
    author_id: 1,
    status: 'publish',
    slug: `${type}-${n}`,
    title,
    description: '',
    excerpt: '',
    password: '',
    lang: 'en',
    parent_id: 0,
    image_id: null,
    published_at: now - n,
    modified_at: now,
    ...extra,
  };
}

async function seedTerms(db: Executor, now: number): Promise<{ categories: number[]; tags: number[] }> {
  const categories: number[] = [];
  const names = ['Music', 'Arts', 'Family', 'Learning', 'Outdoors'];
  for (const [i, name] of names.entries()) {
    const root = await db
      .insertInto('terms')
      .values({
        taxonomy: 'category',
        name,
        name_key: name.toLowerCase(),
        slug: `seed-${name.toLowerCase()}`,
        description: `${name} events`,
        parent_id: 0,
        lang: 'en',
        created_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    categories.push(root.id);
    for (const child of ['one', 'two', 'three']) {
      const childName = `${name} ${child}`;
      const row = await db
        .insertInto('terms')
        .values({
          taxonomy: 'category',
          name: childName,
          name_key: childName.toLowerCase(),
          slug: `seed-${name.toLowerCase()}-${child}`,
          description: '',
          parent_id: root.id,
          lang: 'en',
          created_at: now + i,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      categories.push(row.id);
    }
  }
  const tags: number[] = [];
  for (let i = 1; i <= 50; i++) {
    const row = await db
      .insertInto('terms')
      .values({
        taxonomy: 'tag',
        name: `Tag ${i}`,
        name_key: `tag ${i}`,
        slug: `seed-tag-${i}`,
        description: '',
        parent_id: 0,
        lang: 'en',
        created_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    tags.push(row.id);
  }
  return { categories, tags };
}

async function seedVenues(db: Executor, random: Random, count: number, now: number): Promise<number[]> {
  const ids = await insertPosts(
    db,
    Array.from({ length: count }, (_, i) => post('venue', i + 1, `${sentence(random, 2)} Hall ${i + 1}`, now)),
  );
  await insertBatch(
    db,
    'venues',
    ids.map((id, i) => {
      const place = CITIES[i % CITIES.length];
      const geo = i % 4 !== 3;
      return {
        post_id: id,
        address: `${i + 1} ${sentence(random, 1)} Street`,
        city: place.city,
        country: place.country,
        zip: String(10000 + i),
        phone: `+1 555 ${String(i).padStart(4, '0')}`,
        geo_lat: geo ? place.lat + random.next() * 0.2 : null,
        geo_lng: geo ? place.lng + random.next() * 0.2 : null,
      };
    }),
  );
  return ids;
}

async function seedOrganizers(db: Executor, random: Random, count: number, now: number): Promise<number[]> {
  const ids = await insertPosts(
    db,
    Array.from({ length: count }, (_, i) => post('organizer', i + 1, `${sentence(random, 2)} Society ${i + 1}`, now)),
  );
  await insertBatch(
    db,
    'organizers',
    ids.map((id, i) => ({
      post_id: id,
      email: `organizer${i + 1}@example.org`,
      website: `https://example.org/organizers/${i + 1}`,
    })),
  );
  return ids;
}

/** 00:00:00 to 23:59:59 of the day of `instant` in `timezone`. */
function localDay(instant: number, timezone: string): { start: DateTime; end: DateTime } {
  const local = DateTime.fromSeconds(instant, { zone: zoneOf(timezone) });
  return snapToDays(local, local);
}

/** Varied series rules (API.md §20.1), each with a bounded number of occurrences. */
function seriesRule(random: Random): string[] {
  const days = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'];
  switch (random.int(5)) {
    case 0:
      return [`RRULE:FREQ=WEEKLY;COUNT=${4 + random.int(40)}`];
    case 1:
      return [`RRULE:FREQ=DAILY;COUNT=${2 + random.int(20)}`];
    case 2:
      return [`RRULE:FREQ=MONTHLY;BYDAY=${1 + random.int(3)}${random.pick(days)};COUNT=${3 + random.int(18)}`];
    case 3:
      return [
        `RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=${random.pick(days)},${random.pick(days)};COUNT=${4 + random.int(20)}`,
      ];
    default:
      return [`RRULE:FREQ=YEARLY;COUNT=${2 + random.int(3)}`];
  }
}

function eventRow(
  random: Random,
  n: number,
  now: number,
  siteTimezone: string,
  links: { venues: number[] },
  recurringShare: number,
) {
  const start = now - 180 * DAY + random.int(730 * DAY);
  const allDay = random.chance(0.05);
  const timezone = random.pick(ZONES);
  // An all-day event spans its own zone's day, as one written through the API (snapToDays): the UTC
  // day had put a Los Angeles one at 16:00 → 15:59:59 the next day.
  const day = allDay ? localDay(start, timezone) : undefined;
  const startUtc = day ? day.start.toSeconds() : start - (start % 900);
  const endUtc = day ? day.end.toSeconds() : startUtc + (1 + random.int(4)) * 3600;
  const status = random.chance(0.1) ? 'draft' : 'publish';
  const recurrence = random.chance(recurringShare) ? seriesRule(random) : null;
  const hidden = random.chance(0.02) ? 1 : 0;
  return {
    post: post('event', n, `${sentence(random, 3)} ${n}`, now, {
      status,
      slug: status === 'draft' ? '' : `seed-event-${n}`,
      description: description(random),
      excerpt: random.chance(0.5) ? sentence(random, 12) : '',
      password: random.chance(0.02) ? 'secret' : '',
    }),
    event: {
      start_utc: startUtc,
      end_utc: endUtc,
      ...sortKeys(startUtc, endUtc, timezone, allDay, siteTimezone),
      timezone,
      all_day: allDay ? 1 : 0,
      cost: random.chance(0.6) ? JSON.stringify([String(random.int(8) * 5)]) : '',
      featured: random.chance(0.1) ? 1 : 0,
      hide_from_listings: hidden | (recurrence ? SERIES_ROW : 0),
      recurrence: recurrence ? JSON.stringify(recurrence) : null,
      venue_id: random.chance(0.9) ? random.pick(links.venues) : null,
      website: null,
      status,
      author_id: 1,
    },
  };
}

/** What events are linked to: ids of the seeded terms, venues and organizers. */
interface SeededLinks {
  categories: number[];
  tags: number[];
  venues: number[];
  organizers: number[];
}

/** The events, in batches of 5,000 inside transactions; the ids of the first and last. */
async function seedEvents(
  db: Db,
  random: Random,
  now: number,
  config: Config,
  links: SeededLinks,
  options: SeedOptions,
): Promise<{ first: number; last: number }> {
  const { categories, tags, venues, organizers } = links;
  let first = 0;
  let last = 0;
  const chunk = 5_000;
  for (let done = 0; done < options.events; done += chunk) {
    const count = Math.min(chunk, options.events - done);
    await db.transaction().execute(async (trx) => {
      const rows = Array.from({ length: count }, (_, i) =>
        eventRow(random, done + i + 1, now, config.siteTimezone, { venues }, options.recurringShare ?? 0.1),
      );
      const ids = await insertPosts(
        trx,
        rows.map((r) => r.post),
      );
      first ||= ids[0];
      last = ids[ids.length - 1];
      await insertBatch(
        trx,
        'events',
        rows.map((r, i) => ({ post_id: ids[i], ...r.event, ical_uid: newIcalUid(config), created_at: now })),
      );
      await insertBatch(
        trx,
        'search_documents',
        rows.map((r, i) => ({ post_id: ids[i], ...searchDocument([r.post], r.post.password) })),
      );
      const termLinks: { event_id: number; term_id: number; position: number }[] = [];
      const organizerLinks: { event_id: number; organizer_id: number; position: number }[] = [];
      for (const id of ids) {
        const picked = new Set([
          random.pick(categories),
          ...(random.chance(0.3) ? [random.pick(categories)] : []),
          ...Array.from({ length: random.int(4) }, () => random.pick(tags)),
        ]);
        [...picked].forEach((termId, position) => termLinks.push({ event_id: id, term_id: termId, position }));
        const who = new Set([random.pick(organizers), ...(random.chance(0.3) ? [random.pick(organizers)] : [])]);
        [...who].forEach((organizerId, position) =>
          organizerLinks.push({ event_id: id, organizer_id: organizerId, position }),
        );
      }
      await insertBatch(trx, 'event_terms', termLinks);
      await insertBatch(trx, 'event_organizers', organizerLinks);
    });
    options.onProgress?.(done + count, options.events);
  }
  return { first, last };
}

/** Each seeded series' occurrences, as the service makes them (series.materialise.ts), 500 series per transaction. */
async function seedOccurrences(
  db: Db,
  config: Config,
  now: number,
  options: SeedOptions,
): Promise<{ series: number; occurrences: number }> {
  const horizon = horizonOf(config, DateTime.fromSeconds(now));
  const ids = (
    await db.selectFrom('events').select('post_id').where('recurrence', 'is not', null).orderBy('post_id').execute()
  ).map((row) => row.post_id);
  let occurrences = 0;
  options.onStep?.(`expanding ${ids.length} recurring series`);
  for (let done = 0; done < ids.length; done += 500) {
    await db.transaction().execute(async (trx) => {
      for (const id of ids.slice(done, done + 500))
        occurrences += (await materialise(trx, id, horizon, new ChangeSet(), { sharedChanged: false })).added.length;
    });
  }
  return { series: ids.length, occurrences };
}

/**
 * Fills a database with a realistic calendar (issue "benchmark harness"): events over two years in
 * several zones with ~1 KB HTML descriptions, venues, organizers, a category tree, tags, 10 % drafts,
 * 2 % password-protected, 2 % hidden, and (by default) 10 % recurring series of varied rules with
 * their occurrences. Written in batches inside transactions; deterministic.
 */
export async function seedCalendar(db: Db, config: Config, options: SeedOptions): Promise<SeedResult> {
  const random = new Random(options.seed ?? 42);
  const now = Math.floor(Date.now() / 1000);
  const links = await db.transaction().execute(async (trx) => ({
    ...(await seedTerms(trx, now)),
    venues: await seedVenues(trx, random, options.venues ?? 200, now),
    organizers: await seedOrganizers(trx, random, options.organizers ?? 100, now),
  }));
  const { categories, tags, venues, organizers } = links;
  const { first, last, series, occurrences } = await withBulkSearchIndexing(db, async () => ({
    ...(await seedEvents(db, random, now, config, links, options)),
    ...(await seedOccurrences(db, config, now, options)),
  }));
  options.onStep?.('counting events per term');
  await recountTerms(db, [...categories, ...tags]);
  options.onStep?.('compacting the search index');
  await compactSearchIndex(db);
  options.onStep?.('updating the query planner statistics');
  await updatePlannerStatistics(db);
  return {
    events: options.events,
    series,
    occurrences,
    venues: venues.length,
    organizers: organizers.length,
    categories: categories.length,
    tags: tags.length,
    eventIds: { first, last },
  };
}
