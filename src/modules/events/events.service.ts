import { NO_CONDITIONS, requireCurrent, type WriteConditions } from '../../http/conditional.js';
import { eventValidator } from '../sync/validators.js';
import { DateTime } from 'luxon';
import { callerCan } from '../../auth/caller.js';
import { changeKey, type ChangeSet } from '../../changes/change-set.js';
import type { Executor } from '../../db/schema.js';
import { ApiError, forbidden, invalidParam, invalidParams, type ParamProblem } from '../../errors.js';
import type { ArgsInput } from '../../http/args.js';
import type { RequestContext } from '../../http/context.js';
import { dateProblem, parseDateInput } from '../../domain/dates.js';
import { sanitizeHtml } from '../../domain/html.js';
import { toSlug } from '../../domain/slugs.js';
import { zoneOf } from '../../domain/timezones.js';
import { onLocalDate, originalStartOf } from '../../domain/recurrence/ids.js';
import { expandSeries } from '../../domain/recurrence/expand.js';
import { parseRecurrence, RecurrenceProblem, splitLines } from '../../domain/recurrence/lines.js';
import { materialise } from './series/series.materialise.js';
import { ORGANIZER_KIND, VENUE_KIND } from '../linked/linked.kind.js';
import * as linkedRepo from '../linked/linked.repository.js';
import { languages, linkedRowsById } from '../linked/linked.service.js';
import * as posts from '../posts/posts.repository.js';
import type { PostRef } from '../posts/posts.ref.js';
import {
  imageIdOf,
  nextSlug,
  planPostUpdate,
  publicationInstant,
  requireAuthorChange,
  uniqueSlug,
  withSlugRetry,
} from '../posts/posts.writes.js';
import { canEditPost, canReadPost, scaleStatus, scheduleStatus } from '../posts/posts.rules.js';
import * as termsRepo from '../terms/terms.repository.js';
import { CATEGORIES, TAGS } from '../terms/taxonomies.js';
import { termsOfLinks } from '../terms/terms.service.js';
import { localTime, snapToDays, sortKeys } from './events.dates.js';
import type { EventBundle } from './events.present.js';
import * as relations from './events.relations.js';
import * as repo from './events.repository.js';
import { countDeltas } from './term-counts.js';
import type { eventCreateArgs, eventUpdateArgs } from './events.schemas.js';
import type { EventsState } from './events.state.js';
import { newIcalUid, rescheduled } from '../ical/ical.identity.js';
import * as icalRepo from '../ical/ical.repository.js';
import * as seriesRepo from './series/series.repository.js';
import { SERIES_ROW, userHidden } from './series/series.repository.js';
import { plannedIcalUid } from '../../db/planned-ids.js';
import {
  checkRecurrence,
  horizonOf,
  refuseSeriesFields,
  syncSeries,
  syncSeriesRemoved,
} from './series/series.service.js';

export type EventRef = PostRef;

/** What an event write takes: the parsed arguments of PATCH (all optional) or POST (title and dates required). */
export type EventWriteInput = ArgsInput<typeof eventUpdateArgs>;
export type EventCreateInput = ArgsInput<typeof eventCreateArgs>;

const seconds = (dt: DateTime) => Math.floor(dt.toSeconds());
const flag = (value: boolean | undefined) => (value === undefined ? undefined : value ? 1 : 0);

/** Loads what an event's representation embeds, for many events at once (no N+1). */
export async function loadBundles(
  state: EventsState,
  ctx: RequestContext,
  rows: repo.EventRow[],
  db: Executor = state.db,
): Promise<EventBundle[]> {
  const venueIds = rows.map((r) => r.venue_id).filter((id): id is number => id !== null);
  const organizerIds = new Map(rows.map((row) => [row.id, row.organizer_ids]));
  const terms = await termsOfLinks(
    state.terms,
    ctx,
    rows.flatMap((row) => row.term_ids.map((term_id) => ({ event_id: row.id, term_id }))),
    db,
  );
  const allOrganizers = [...new Set([...organizerIds.values()].flat())];
  const [venues, organizers] = await Promise.all([
    linkedRowsById(state.linked, ctx, VENUE_KIND, venueIds, db),
    linkedRowsById(state.linked, ctx, ORGANIZER_KIND, allOrganizers, db),
  ]);
  // An event never reveals a venue or organizer its reader may not read on its own (a draft, the trash).
  const readable = (item: linkedRepo.LinkedRow | undefined) =>
    item && canReadPost(ctx.caller, item) ? item : undefined;
  return rows.map((row) => {
    const eventTerms = terms.get(row.id) ?? [];
    return {
      row,
      venue: row.venue_id !== null ? readable(venues.get(row.venue_id)) : undefined,
      organizers: (organizerIds.get(row.id) ?? [])
        .map((id) => readable(organizers.get(id)))
        .filter((o): o is linkedRepo.LinkedRow => o !== undefined),
      categories: eventTerms.filter((t) => t.taxonomy === CATEGORIES.key),
      tags: eventTerms.filter((t) => t.taxonomy === TAGS.key),
    };
  });
}

/** Events' full rows in the order of `ids`, in the request's languages. */
export async function findEventRows(state: EventsState, ctx: RequestContext, ids: readonly number[]) {
  return repo.findEvents(state.db, ids, languages(state, ctx));
}

/** An event's password (empty: none), for `context=edit` (API.md §18). */
export async function eventPassword(state: EventsState, id: number): Promise<string> {
  return (await posts.findPostBase(state.db, id))?.password ?? '';
}

/**
 * The base row of a read by id, reused until a write names the event (or an occurrence's series),
 * like its renderings; writes always read it afresh. Not yet known, it is taken from the event's
 * full row, read in the same round trip and handed on for rendering (on PostgreSQL a first read is
 * then one round trip, not two).
 */
async function readableBase(
  state: EventsState,
  ctx: RequestContext,
  id: number,
): Promise<{ base: posts.PostBase | undefined; row?: repo.EventRow }> {
  const version = await ctx.dataVersion();
  const cached = state.postBases.get(String(id), version, (storedUnder, kept) =>
    state.versions.unchangedSince(storedUnder, version, kept.depends),
  );
  if (cached) return { base: cached.base };
  const [row] = await repo.findEvents(state.db, [id], languages(state, ctx));
  const base = row
    ? {
        id,
        type: 'event',
        author_id: row.author_id,
        status: row.status,
        slug: row.slug,
        password: row.password,
        lang: row.lang,
        published_at: row.published_at,
        status_before_trash: row.status_before_trash,
      }
    : await posts.findPostBase(state.db, id);
  const depends = [changeKey('event', id), ...(row?.series_id ? [changeKey('event', row.series_id)] : [])];
  if (base) state.postBases.set(String(id), version, { base, depends });
  return { base, row };
}

/**
 * A read by slug: the slug's event id is reused until data changes, and the rest is a read by id
 * (on PostgreSQL a repeated read by slug then costs no round trip but the data version's).
 */
async function readableBySlug(
  state: EventsState,
  ctx: RequestContext,
  slug: string,
): Promise<{ base: posts.PostBase; row?: repo.EventRow }> {
  const version = await ctx.dataVersion();
  const key = `event|${slug}`;
  let id = state.slugIds.get(key, version);
  if (id === undefined) {
    id = await posts.findPostIdBySlug(state.db, 'event', slug);
    if (id !== undefined) state.slugIds.set(key, version, id);
  }
  const { base, row } = id !== undefined ? await readableBase(state, ctx, id) : { base: undefined };
  if (!base || base.type !== 'event') throw slugNotFound(slug);
  return { base, row };
}

const slugNotFound = (slug: string) =>
  new ApiError('rest-event-not-found', { message: 'rest_event_slug_not_found', vars: { slug } });

async function readableById(
  state: EventsState,
  ctx: RequestContext,
  id: number,
): Promise<{ base: posts.PostBase; row?: repo.EventRow }> {
  const { base, row } = await readableBase(state, ctx, id);
  return { base: requireEvent(base, id), row };
}

function requireEvent(post: posts.PostBase | undefined, id: number): posts.PostBase {
  if (!post) throw new ApiError('rest-event-not-found', { vars: { id } });
  if (post.type !== 'event') throw new ApiError('rest-invalid-event-id');
  return post;
}

async function resolveEvent(state: EventsState, ref: EventRef, db: Executor = state.db): Promise<posts.PostBase> {
  if ('slug' in ref) {
    const id = await posts.findPostIdBySlug(db, 'event', ref.slug);
    const post = id !== undefined ? await posts.findPostBase(db, id) : undefined;
    if (!post) throw slugNotFound(ref.slug);
    return post;
  }
  return requireEvent(await posts.findPostBase(db, ref.id), ref.id);
}

export async function loadEvent(
  state: EventsState,
  ctx: RequestContext,
  id: number,
  db: Executor = state.db,
): Promise<EventBundle> {
  const row = await repo.findEvent(db, id, languages(state, ctx));
  if (!row) throw new ApiError('rest-event-not-found', { vars: { id } });
  return (await loadBundles(state, ctx, [row], db))[0];
}

/**
 * GET /events/{id} and by slug (API.md §14), checks in order: exists → is an event → trashed →
 * readable → password (unless it matches or the caller may edit the event).
 */
export async function readEvent(
  state: EventsState,
  ctx: RequestContext,
  ref: EventRef,
  password: string | undefined,
): Promise<EventBundle> {
  return loadEvent(state, ctx, (await checkReadable(state, ctx, ref, password)).id);
}

/**
 * The §14 checks of a single read; returns the event id when the caller may see it whole, and its
 * full row when the checks had to read it.
 */
export async function checkReadable(
  state: EventsState,
  ctx: RequestContext,
  ref: EventRef,
  password: string | undefined,
): Promise<{ id: number; row?: repo.EventRow }> {
  const { base: post, row } =
    'id' in ref ? await readableById(state, ctx, ref.id) : await readableBySlug(state, ctx, ref.slug);
  if (post.status === 'trash') throw new ApiError('event-no-longer-available');
  if (!canReadPost(ctx.caller, post)) throw new ApiError('event-not-accessible');
  if (post.password !== '' && password !== post.password && !canEditPost(ctx.caller, post))
    throw new ApiError('event-password-protected');
  return { id: post.id, row };
}

export interface Times {
  start_utc: number;
  end_utc: number;
  timezone: string;
  all_day: boolean;
}

function parseBound(ctx: RequestContext, raw: string | number, timezone: string, name: string): DateTime {
  const parsed = parseDateInput(raw, zoneOf(timezone), ctx.now);
  if (!parsed) throw invalidParam(name, { message: dateProblem(raw, zoneOf(timezone), ctx.now) });
  return parsed;
}

/**
 * The event's times after a write (API.md §13): dates in the event's zone (offsets and timestamps
 * are instants), whole days for all-day events, and end before start rejected. On updates a lone
 * bound changes only that bound, and a new zone keeps the local wall-clock times.
 */
function computeTimes(
  state: EventsState,
  ctx: RequestContext,
  input: EventWriteInput,
  current: Times | undefined,
): Times {
  const timezone = input.timezone ?? current?.timezone ?? state.config.siteTimezone;
  const zone = zoneOf(timezone);
  // A bound not sent keeps its local wall-clock time (creates send both: the arguments require them).
  const bound = (
    raw: string | number | undefined,
    name: 'start_date' | 'end_date',
    stored: 'start_utc' | 'end_utc',
  ) => {
    if (raw !== undefined) return parseBound(ctx, raw, timezone, name);
    if (!current) throw invalidParam(name, { message: 'invalid_date' });
    return localTime(current[stored], current.timezone).setZone(zone, { keepLocalTime: true });
  };
  let start = bound(input.start_date, 'start_date', 'start_utc');
  let end = bound(input.end_date, 'end_date', 'end_utc');
  const allDay = input.all_day ?? current?.all_day ?? false;
  if (allDay) ({ start, end } = snapToDays(start.setZone(zone), end.setZone(zone)));
  if (seconds(end) < seconds(start))
    throw invalidParam('end_date', { message: 'end_before_start', code: 'end_before_start' });
  return { start_utc: seconds(start), end_utc: seconds(end), timezone, all_day: allDay };
}

function storedCost(
  input: EventWriteInput['cost'],
): Pick<repo.EventColumns, 'cost' | 'currency_symbol' | 'currency_position'> | undefined {
  if (!input) return undefined;
  return {
    cost: input.values.length > 0 ? JSON.stringify(input.values) : '',
    currency_symbol: input.currency_symbol,
    currency_position: input.currency_position,
  };
}

export interface Relations {
  venue?: relations.LinkedRef[];
  organizers?: relations.LinkedRef[];
  categories?: relations.TermRef[];
  tags?: relations.TermRef[];
}

/** Database checks of a write, all reported together before anything is written (API.md §5). */
async function validateWrite(
  state: EventsState,
  ctx: RequestContext,
  input: EventWriteInput,
  selfId: number | undefined,
): Promise<Relations> {
  const problems = new Map<string, ParamProblem>();
  if (input.author !== undefined && !(await posts.userExists(state.db, input.author)))
    problems.set('author', { message: 'unknown_user', vars: { value: input.author } });
  if (input.post_parent !== undefined && input.post_parent !== 0) {
    if (input.post_parent === selfId || (await posts.postType(state.db, input.post_parent)) !== 'event') {
      problems.set('post_parent', { message: 'unknown_event', vars: { value: input.post_parent } });
    }
  }
  const result: Relations = {};
  if (input.venue !== undefined)
    result.venue = await relations.parseLinked(state, ctx, VENUE_KIND, input.venue, problems);
  if (input.organizer !== undefined)
    result.organizers = await relations.parseLinked(state, ctx, ORGANIZER_KIND, input.organizer, problems);
  if (input.categories !== undefined)
    result.categories = await relations.parseTermRefs(state, ctx, CATEGORIES, input.categories, 'categories', problems);
  if (input.tags !== undefined)
    result.tags = await relations.parseTermRefs(state, ctx, TAGS, input.tags, 'tags', problems);
  if (problems.size > 0) throw invalidParams(problems);
  return result;
}

/** Applies venue, organizers and terms inside the transaction; `fresh`: to an event inserted in it, with no links to replace. */
async function writeRelations(
  state: EventsState,
  ctx: RequestContext,
  trx: Executor,
  eventId: number,
  rel: Relations,
  fresh = false,
): Promise<void> {
  if (rel.venue) {
    const [venueId] = await relations.materialiseLinked(state, ctx, trx, VENUE_KIND, rel.venue);
    await repo.updateEventColumns(trx, eventId, { venue_id: venueId ?? null });
  }
  if (rel.organizers)
    await repo.setOrganizers(
      trx,
      eventId,
      await relations.materialiseLinked(state, ctx, trx, ORGANIZER_KIND, rel.organizers),
      fresh,
    );
  for (const [taxonomy, refs] of [
    [CATEGORIES, rel.categories],
    [TAGS, rel.tags],
  ] as const) {
    if (refs)
      await repo.setTerms(
        trx,
        eventId,
        taxonomy.key,
        await relations.materialiseTerms(ctx, trx, taxonomy, refs),
        fresh,
      );
  }
}

/**
 * Runs an event write and keeps term counts (published events per term, API.md §12) exact by
 * applying the difference between the event's state before and after, instead of recounting. An
 * existing event must be locked already (posts.lockPostBase), so that concurrent writers of it
 * apply their count changes one after the other.
 */
async function withCounts<T>(
  trx: Executor,
  changes: ChangeSet,
  eventId: number | undefined,
  write: () => Promise<T & { id: number }>,
): Promise<T & { id: number }> {
  const before = eventId === undefined ? null : await repo.eventWriteState(trx, eventId);
  const result = await write();
  const after = await repo.eventWriteState(trx, result.id);
  // Updates bump the iCalendar SEQUENCE when they reschedule (API.md §19.1).
  if (before && after && rescheduled(before.schedule, after.schedule)) await icalRepo.bumpSequence(trx, result.id);
  const deltas = countDeltas(before?.count ?? repo.NOT_COUNTED, after?.count ?? repo.NOT_COUNTED);
  await termsRepo.adjustTermCounts(trx, deltas);
  recordChange(changes, result.id, deltas);
  changes.moved(result.id, before?.listed ?? null, after?.listed ?? null);
  return result;
}

/**
 * The event and the terms whose counts moved: what rendered events embedding them must not be
 * reused past. A term the event stays in, published before and after, did not change.
 */
function recordChange(changes: ChangeSet, eventId: number, countDeltas: ReadonlyMap<number, number>): void {
  changes.add('event', eventId);
  for (const [termId, delta] of countDeltas) if (delta !== 0) changes.add('term', termId);
}

/** What inserting an event takes once its input has been checked (createEvent, the iCalendar import). */
export interface EventInsert {
  readonly input: EventCreateInput;
  readonly times: Times;
  readonly rel: Relations;
  /** The status as stored (already scaled by role and scheduled). */
  readonly status: string;
  readonly publishedAt: number;
  /** An imported event keeps the file's UID and SEQUENCE (API.md §19.2, §19.3); others get new ones. */
  readonly ical?: { uid: string; sequence: number };
}

/**
 * Inserts an event inside the caller's transaction, with its relations, term counts, search
 * document and change set: the body of every event creation, one per request or many per import.
 */
export async function insertEventIn(
  state: EventsState,
  ctx: RequestContext,
  trx: Executor,
  changes: ChangeSet,
  plan: EventInsert,
  attempt: number,
): Promise<number> {
  const { input, times, rel, status } = plan;
  const recurrence = input.recurrence && input.recurrence.length > 0 ? input.recurrence : undefined;
  const now = seconds(ctx.now);
  const baseSlug =
    input.slug === undefined && (status === 'draft' || status === 'pending') ? '' : toSlug(input.slug ?? input.title);
  const cost = storedCost(input.cost);
  const { id } = await withCounts(trx, changes, undefined, async () => {
    const id = await posts.insertPost(trx, {
      type: 'event',
      author_id: input.author ?? ctx.caller?.userId ?? 0,
      status,
      slug: await uniqueSlug(trx, 'event', baseSlug, undefined, attempt),
      title: input.title,
      description: sanitizeHtml(input.description ?? ''),
      excerpt: sanitizeHtml(input.excerpt ?? ''),
      password: input.password ?? '',
      lang: ctx.lang,
      parent_id: input.post_parent ?? 0,
      image_id: input.image !== undefined ? await imageIdOf(ctx, trx, input.image) : null,
      published_at: plan.publishedAt,
      modified_at: now,
    });
    await repo.insertEventColumns(trx, id, {
      start_utc: times.start_utc,
      end_utc: times.end_utc,
      ...sortKeys(times.start_utc, times.end_utc, times.timezone, times.all_day, state.config.siteTimezone),
      timezone: times.timezone,
      all_day: times.all_day ? 1 : 0,
      cost: cost?.cost ?? '',
      currency_symbol: cost?.currency_symbol ?? '',
      currency_code: '',
      currency_position: cost?.currency_position ?? '',
      website: input.website || null,
      show_map: flag(input.show_map) ?? 0,
      show_map_link: flag(input.show_map_link) ?? 0,
      hide_from_listings: (flag(input.hide_from_listings) ?? 0) | (recurrence ? SERIES_ROW : 0),
      sticky: flag(input.sticky) ?? 0,
      featured: flag(input.featured) ?? 0,
      venue_id: null,
      status,
      author_id: input.author ?? ctx.caller?.userId ?? 0,
      ical_uid: plan.ical?.uid ?? plannedIcalUid() ?? newIcalUid(state.config),
      ical_sequence: plan.ical?.sequence ?? 0,
      created_at: now,
      recurrence: recurrence ? JSON.stringify(recurrence) : null,
      materialised_until: null,
      excluded: null,
      series_id: null,
      recurrence_id: null,
      overrides: null,
    });
    changes.created('event', id);
    await writeRelations(state, ctx, trx, id, rel, true);
    await repo.refreshSearchDocument(trx, id);
    if (recurrence) await syncSeries(state.config, ctx.now, trx, changes, id);
    return { id };
  });
  return id;
}

/** An event's times from a create's dates, zone and all-day flag (API.md §13); 400 naming the date when wrong. */
export function timesOfCreate(state: EventsState, ctx: RequestContext, input: EventCreateInput): Times {
  return computeTimes(state, ctx, input, undefined);
}

/** POST /events (API.md §13): 201 with the event; status scaled by role; one transaction. */
export async function createEvent(state: EventsState, ctx: RequestContext, input: EventCreateInput): Promise<number> {
  const times = computeTimes(state, ctx, input, undefined);
  const recurrence = input.recurrence && input.recurrence.length > 0 ? input.recurrence : undefined;
  if (recurrence) checkRecurrence(state.config, ctx.now, recurrence, times);
  const rel = await validateWrite(state, ctx, input, undefined);
  if (!callerCan(ctx.caller, 'create_posts')) throw forbidden(ctx.caller !== null);
  requireAuthorChange(ctx, input.author);
  const now = seconds(ctx.now);
  const publishedAt = publicationInstant(input) ?? now;
  const status = scheduleStatus(scaleStatus(ctx.caller, input.status), publishedAt, now);
  return withSlugRetry((attempt) =>
    ctx.write((trx, changes) =>
      insertEventIn(state, ctx, trx, changes, { input, times, rel, status, publishedAt }, attempt),
    ),
  );
}

/**
 * `scope=all` sent to an occurrence (API.md §20.3): its `start_date`/`end_date` move the series'
 * DTSTART/DTEND by their wall-clock difference from the occurrence's original start and end, so
 * moving one weekly session to 20:00 moves every session to 20:00 and none disappears.
 */
async function shiftedToSeries(
  state: EventsState,
  ctx: RequestContext,
  occurrenceId: number,
  seriesId: number,
  input: EventWriteInput,
): Promise<EventWriteInput> {
  if (input.start_date === undefined && input.end_date === undefined) return input;
  const series = await repo.eventTimes(state.db, seriesId);
  const place = await seriesRepo.seriesColumns(state.db, occurrenceId);
  if (!series || !place?.recurrence_id) return input;
  const zone = zoneOf(series.timezone);
  const originalStart = originalStartOf(place.recurrence_id, zone);
  const originalEnd = originalStart.plus({ seconds: series.end_utc - series.start_utc });
  // Wall-clock differences: the series keeps its local times across DST changes.
  const wall = (dt: DateTime) => dt.setZone(zone).setZone('UTC', { keepLocalTime: true });
  const shift = (raw: string | number | undefined, original: DateTime, stored: number, name: string) => {
    if (raw === undefined) return undefined;
    const moved = wall(parseBound(ctx, raw, series.timezone, name)).diff(wall(original));
    return wall(localTime(stored, series.timezone)).plus(moved).toFormat('yyyy-MM-dd HH:mm:ss');
  };
  return {
    ...input,
    start_date: shift(input.start_date, originalStart, series.start_utc, 'start_date'),
    end_date: shift(input.end_date, originalEnd, series.end_utc, 'end_date'),
  };
}

/**
 * `scope=following` (API.md §20.3): the series splits at this occurrence. The old series keeps its
 * id and ends with UNTIL just before this original start (replacing COUNT); a new series (new id,
 * UID and slug) copies it, starting at this occurrence (`start_date`/`end_date` move it) with the
 * body's `recurrence`, else the old rule with the COUNT that remains. This and later occurrences
 * move to it with their ids and overrides. The split is one transaction; the body's other fields
 * are then written to the new series as an update (checked before the split). On the first
 * occurrence, `following` is `all`. Returns the new series' id.
 */
async function splitSeries(
  state: EventsState,
  ctx: RequestContext,
  occurrenceId: number,
  seriesId: number,
  recurrenceId: string,
  input: EventWriteInput,
): Promise<number> {
  const series = requireEvent(await posts.findPostBase(state.db, seriesId), seriesId);
  const stored = await repo.eventTimes(state.db, seriesId);
  const place = await seriesRepo.seriesColumns(state.db, seriesId);
  const earlier = (await seriesRepo.occurrencesOf(state.db, seriesId)).some((o) => o.recurrence_id < recurrenceId);
  if (!stored || !place?.recurrence || !earlier)
    return updateEvent(state, ctx, { id: occurrenceId }, { ...input, scope: 'all' });
  const allDay = stored.all_day === 1;
  const originalStart = originalStartOf(recurrenceId, zoneOf(stored.timezone));
  const split = Math.floor(originalStart.toSeconds());
  const times = computeTimes(state, ctx, input, {
    start_utc: split,
    end_utc: split + stored.end_utc - stored.start_utc,
    timezone: stored.timezone,
    all_day: allDay,
  });
  const lines = JSON.parse(place.recurrence) as string[];
  const until = allDay
    ? originalStart.minus({ days: 1 }).toFormat('yyyyLLdd')
    : DateTime.fromSeconds(split - 1, { zone: 'utc' }).toFormat("yyyyLLdd'T'HHmmss'Z'");
  const { before, after } = splitPlan(lines, { ...stored, all_day: allDay }, split, until);
  const newLines = input.recurrence && input.recurrence.length > 0 ? input.recurrence : after;
  checkRecurrence(state.config, ctx.now, newLines, times);
  const { scope: _scope, start_date: _s, end_date: _e, recurrence: _r, all_day: _a, ...rest } = input;
  await validateWrite(state, ctx, rest, undefined);
  if (!canEditPost(ctx.caller, series)) throw forbidden(ctx.caller !== null);
  requireAuthorChange(ctx, input.author);
  const now = seconds(ctx.now);
  const id = await withSlugRetry((attempt) =>
    ctx.write(async (trx, changes) => {
      const current = requireEvent(await posts.lockPostBase(trx, seriesId), seriesId);
      if (!canEditPost(ctx.caller, current)) throw forbidden(ctx.caller !== null);
      const slug = await uniqueSlug(trx, 'event', toSlug(input.slug ?? current.slug), undefined, attempt);
      const newId = await seriesRepo.insertSeriesCopy(trx, seriesId, {
        slug: current.slug === '' && input.slug === undefined ? '' : slug,
        start_utc: times.start_utc,
        end_utc: times.end_utc,
        ...sortKeys(times.start_utc, times.end_utc, times.timezone, times.all_day, state.config.siteTimezone),
        recurrence: JSON.stringify(newLines),
        ical_uid: newIcalUid(state.config),
        created_at: now,
      });
      await seriesRepo.setRecurrence(trx, seriesId, before);
      const moved = await seriesRepo.moveOccurrences(trx, seriesId, recurrenceId, newId);
      await materialise(trx, seriesId, horizonOf(state.config, ctx.now), changes, { sharedChanged: false });
      await syncSeries(state.config, ctx.now, trx, changes, newId);
      // The new series counts as one more event for its terms (API.md §12).
      const deltas = countDeltas(repo.NOT_COUNTED, (await repo.eventWriteState(trx, newId))?.count ?? repo.NOT_COUNTED);
      await termsRepo.adjustTermCounts(trx, deltas);
      recordChange(changes, newId, deltas);
      changes.add('event', seriesId, ...moved);
      return newId;
    }),
  );
  if (Object.values(rest).some((value) => value !== undefined)) await updateEvent(state, ctx, { id }, rest);
  return id;
}

/** The old and new series' lines of a split, as 400s on `recurrence` when the series cannot be split. */
function splitPlan(
  lines: readonly string[],
  times: { start_utc: number; end_utc: number; timezone: string; all_day: boolean },
  split: number,
  until: string,
): { before: string[]; after: string[] } {
  try {
    const set = parseRecurrence(lines, times.all_day);
    // COUNT counts from the series' start: the new series gets what the old one has not used.
    const used =
      set.count === undefined ? 0 : expandSeries({ ...set, rdates: [], exdates: [] }, times, split - 1).length;
    return splitLines(lines, times.all_day, until, set.count === undefined ? undefined : Math.max(1, set.count - used));
  } catch (error) {
    if (error instanceof RecurrenceProblem)
      throw invalidParam('scope', { message: 'recurrence_line', vars: { line: error.line, reason: error.reason } });
    throw error;
  }
}

/** The fields an occurrence's update sets for it alone (its overrides, API.md §20.3). */
function overriddenFields(input: EventWriteInput): string[] {
  return Object.entries(input)
    .filter(([name, value]) => value !== undefined && name !== 'scope' && name !== 'status')
    .map(([name]) => name);
}

function touchesTimes(input: EventWriteInput): boolean {
  return (
    input.start_date !== undefined ||
    input.end_date !== undefined ||
    input.timezone !== undefined ||
    input.all_day !== undefined
  );
}

/** The event's stored times, when the update sends some of them (the others keep theirs). */
async function timesAfter(state: EventsState, ctx: RequestContext, db: Executor, id: number, input: EventWriteInput) {
  if (!touchesTimes(input)) return undefined;
  const row = await repo.eventTimes(db, id);
  // Deleted (force) since it was resolved.
  if (!row) throw new ApiError('rest-event-not-found', { vars: { id } });
  return computeTimes(state, ctx, input, {
    start_utc: row.start_utc,
    end_utc: row.end_utc,
    timezone: row.timezone,
    all_day: row.all_day === 1,
  });
}

/**
 * Partial update by id or slug (API.md §13): omitted fields keep their values. The checks run
 * first on the event as read (bad input is 400 before any permission check); the write plans
 * again from the event as locked in its transaction, so that what a concurrent update wrote is
 * kept: a new zone or a lone bound is applied to the stored times, not to the times read before.
 */
export async function updateEvent(
  state: EventsState,
  ctx: RequestContext,
  ref: EventRef,
  sent: EventWriteInput,
): Promise<number> {
  let input = sent;
  let post = await resolveEvent(state, ref);
  let place = await seriesRepo.seriesColumns(state.db, post.id);
  // An occurrence (API.md §20.3): `all` edits its series; `this` (default) makes it an override.
  if (place?.series_id != null && place.recurrence_id !== null && input.scope === 'following')
    return splitSeries(state, ctx, post.id, place.series_id, place.recurrence_id, input);
  if (place?.series_id != null && input.scope === 'all') {
    input = await shiftedToSeries(state, ctx, post.id, place.series_id, input);
    post = requireEvent(await posts.findPostBase(state.db, place.series_id), place.series_id);
    place = await seriesRepo.seriesColumns(state.db, post.id);
  }
  const occurrence = place?.series_id != null;
  if (occurrence) refuseSeriesFields(input);
  const newTimes = await timesAfter(state, ctx, state.db, post.id, input);
  const lines = occurrence
    ? []
    : (input.recurrence ?? (place?.recurrence ? (JSON.parse(place.recurrence) as string[]) : []));
  if (lines.length > 0 && (input.recurrence !== undefined || newTimes)) {
    const stored = await repo.eventTimes(state.db, post.id);
    const times = newTimes ?? (stored && { ...stored, all_day: stored.all_day === 1 });
    if (times) checkRecurrence(state.config, ctx.now, lines, times);
  }
  const rel = await validateWrite(state, ctx, input, post.id);
  if (!canEditPost(ctx.caller, post)) throw forbidden(ctx.caller !== null);
  requireAuthorChange(ctx, input.author);
  await withSlugRetry((attempt) =>
    ctx.write((trx, changes) => updateEventIn(state, ctx, trx, changes, post.id, input, rel, attempt, ctx.conditions)),
  );
  return post.id;
}

/**
 * Applies a partial update inside the caller's transaction (updateEvent, the iCalendar import): the
 * event is locked and the caller's right to edit it checked again, then the write is planned from
 * the event as locked, with its relations, term counts, SEQUENCE, search document and change set.
 */
export async function updateEventIn(
  state: EventsState,
  ctx: RequestContext,
  trx: Executor,
  changeSet: ChangeSet,
  id: number,
  input: EventWriteInput,
  rel: Relations,
  attempt: number,
  conditions: WriteConditions = NO_CONDITIONS,
): Promise<void> {
  const current = requireEvent(await posts.lockPostBase(trx, id), id);
  if (!canEditPost(ctx.caller, current)) throw forbidden(ctx.caller !== null);
  // `If-Match` of an item route (API.md §21), checked on the event as locked.
  await requireCurrent(conditions, () => eventValidator(trx, state.config, ctx.caller, id, 'view'));
  changeSet.updated('event', id, current);
  // Its place in a series (API.md §20), as locked: a series' occurrences follow it below.
  const place = await seriesRepo.seriesColumns(trx, id);
  const occurrence = place?.series_id != null;
  const wasSeries = place?.recurrence != null;
  const lines = occurrence
    ? []
    : (input.recurrence ?? (place?.recurrence ? (JSON.parse(place.recurrence) as string[]) : []));
  const isSeries = lines.length > 0;
  const times = await timesAfter(state, ctx, trx, id, input);
  const { changes, status, translated, inOriginal } = planPostUpdate(ctx, current, input);
  if (input.password !== undefined) changes.password = input.password;
  if (input.post_parent !== undefined) changes.parent_id = input.post_parent;
  const columns: Partial<repo.EventColumns> = { ...storedCost(input.cost) };
  if (changes.status !== undefined) columns.status = changes.status;
  if (changes.author_id !== undefined) columns.author_id = changes.author_id;
  if (times) {
    Object.assign(columns, {
      start_utc: times.start_utc,
      end_utc: times.end_utc,
      ...sortKeys(times.start_utc, times.end_utc, times.timezone, times.all_day, state.config.siteTimezone),
      timezone: times.timezone,
      all_day: times.all_day ? 1 : 0,
    });
  }
  if (input.website !== undefined) columns.website = input.website || null;
  for (const name of ['show_map', 'show_map_link', 'hide_from_listings', 'sticky', 'featured'] as const) {
    if (input[name] !== undefined) columns[name] = input[name] ? 1 : 0;
  }
  if (input.recurrence !== undefined && !occurrence) {
    columns.recurrence = isSeries ? JSON.stringify(lines) : null;
    if (!isSeries) columns.excluded = null;
  }
  if (isSeries || wasSeries)
    columns.hide_from_listings =
      ((input.hide_from_listings ?? userHidden(place?.hide_from_listings ?? 0)) ? 1 : 0) | (isSeries ? SERIES_ROW : 0);
  await withCounts(trx, changeSet, id, async () => {
    const slug = await nextSlug(trx, current, status, { slug: input.slug, name: input.title }, attempt);
    if (slug !== current.slug) changes.slug = slug;
    if (input.image !== undefined) changes.image_id = await imageIdOf(ctx, trx, input.image);
    await posts.updatePost(trx, id, changes);
    if (!inOriginal) await posts.upsertPostTranslation(trx, id, ctx.lang, translated);
    await repo.updateEventColumns(trx, id, columns);
    await writeRelations(state, ctx, trx, id, rel);
    if (Object.keys(translated).length > 0 || input.password !== undefined) await repo.refreshSearchDocument(trx, id);
    if (isSeries || wasSeries) await syncSeries(state.config, ctx.now, trx, changeSet, id);
    if (occurrence) {
      await seriesRepo.addOverrides(trx, id, overriddenFields(input));
      // Trashed or restored on its own (API.md §20.3): restoring it makes it follow its series again.
      if (input.status === 'trash') await seriesRepo.addOverrides(trx, id, ['trash']);
      else if (input.status !== undefined) await seriesRepo.removeOverride(trx, id, 'trash');
    }
    return { id };
  });
}

/** DELETE (API.md §13): trash (410 the second time) or, with force=true for editors, delete for good. */
export async function deleteEvent(
  state: EventsState,
  ctx: RequestContext,
  ref: EventRef,
  force: boolean,
): Promise<EventBundle> {
  const post = await resolveEvent(state, ref);
  if (!canEditPost(ctx.caller, post) || (force && !callerCan(ctx.caller, 'delete_permanently')))
    throw forbidden(ctx.caller !== null);
  if (!force && post.status === 'trash') throw new ApiError('event-is-in-trash');
  const place = await seriesRepo.seriesColumns(state.db, post.id);
  if (force) {
    const last = await loadEvent(state, ctx, post.id);
    await ctx.write(async (trx, changes) => {
      await requireCurrent(ctx.conditions, () => eventValidator(trx, state.config, ctx.caller, post.id, 'view'));
      await repo.lockEventPost(trx, post.id);
      const before = await repo.eventWriteState(trx, post.id);
      changes.moved(post.id, before?.listed ?? null, null);
      // A series goes with its occurrences; a deleted occurrence stays excluded from its series (API.md §20.3).
      if (place?.recurrence != null) await syncSeriesRemoved(trx, changes, post.id);
      if (place?.series_id != null && place.recurrence_id !== null) {
        await seriesRepo.excludeFromSeries(trx, place.series_id, place.recurrence_id);
        // Its EXDATE changes the series' iCalendar, and the ranks of the occurrences left on its date their URLs.
        changes.add('event', place.series_id);
      }
      await posts.deletePost(trx, post.id);
      changes.deleted('event', post.id, post);
      const deltas = countDeltas(before?.count ?? repo.NOT_COUNTED, repo.NOT_COUNTED);
      await termsRepo.adjustTermCounts(trx, deltas);
      recordChange(changes, post.id, deltas);
    });
    return last;
  }
  await ctx.write(async (trx, changes) => {
    // Of two concurrent deletes, the second finds the event trashed (410); a concurrent rename is kept.
    const current = requireEvent(await posts.lockPostBase(trx, post.id), post.id);
    if (current.status === 'trash') throw new ApiError('event-is-in-trash');
    await requireCurrent(ctx.conditions, () => eventValidator(trx, state.config, ctx.caller, post.id, 'view'));
    changes.updated('event', post.id, current);
    return withCounts(trx, changes, post.id, async () => {
      await posts.updatePost(trx, post.id, {
        status: 'trash',
        slug: await posts.uniqueTrashedSlug(trx, 'event', current.slug, post.id),
        modified_at: seconds(ctx.now),
      });
      await repo.updateEventColumns(trx, post.id, { status: 'trash' });
      if (place?.recurrence != null) await syncSeries(state.config, ctx.now, trx, changes, post.id);
      if (place?.series_id != null) await seriesRepo.addOverrides(trx, post.id, ['trash']);
      return { id: post.id };
    });
  });
  return loadEvent(state, ctx, post.id);
}

/** The series of GET /events/{id}/occurrences: the §14 checks, then 400 when it is not a series (API.md §20.2). */
export async function readableSeries(
  state: EventsState,
  ctx: RequestContext,
  id: number,
  password: string | undefined,
): Promise<number> {
  await checkReadable(state, ctx, { id }, password);
  const place = await seriesRepo.seriesColumns(state.db, id);
  if (place?.recurrence == null) throw invalidParam('id', { message: 'not_a_series' });
  return id;
}

/**
 * The id of an occurrence addressed by its series' slug, the local date of its original start and
 * its rank on that date (`/events/by-slug/{slug}/{YYYY-MM-DD}[/{n}]`, API.md §20.2); 404 otherwise.
 */
export async function occurrenceIdBySlug(
  state: EventsState,
  slug: string,
  date: string,
  n: number | undefined,
): Promise<number> {
  const seriesId = await posts.findPostIdBySlug(state.db, 'event', slug);
  const occurrences = seriesId === undefined ? [] : await seriesRepo.occurrencesOf(state.db, seriesId);
  const occurrence = onLocalDate(occurrences, date)[(n ?? 1) - 1];
  if (!occurrence) throw slugNotFound(`${slug}/${date}${n !== undefined ? `/${n}` : ''}`);
  return occurrence.id;
}
