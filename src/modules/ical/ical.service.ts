import { createHash } from 'node:crypto';
import type { VersionedCache } from '../../cache/lru.js';
import type { Config } from '../../config.js';
import type { Db } from '../../db/schema.js';
import { mergeSources, parseArgs } from '../../http/args.js';
import type { RequestContext } from '../../http/context.js';
import { ApiError, invalidParam } from '../../errors.js';
import { zoneOf } from '../../domain/timezones.js';
import type { EventsModule } from '../events/events.module.js';
import { findEvents } from '../events/events.repository.js';
import { eventListArgs } from '../events/events.schemas.js';
import { loadBundles, loadEvent } from '../events/events.service.js';
import { buildFilter } from '../events/listing/filter.js';
import type { EventListInput } from '../events/listing/input.js';
import { effectiveBounds } from '../events/listing/window.js';
import type { LinkedKind } from '../linked/linked.kind.js';
import { languages, loadLinked } from '../linked/linked.service.js';
import * as posts from '../posts/posts.repository.js';
import * as termsRepo from '../terms/terms.repository.js';
import type { Taxonomy } from '../terms/taxonomies.js';
import { latestModification } from './ical.repository.js';
import { calendarName, renderCalendar, type SeriesExport } from './ical.render.js';
import type { EventBundle } from '../events/events.present.js';
import * as seriesRepo from '../events/series/series.repository.js';
import { fieldsOf } from '../events/series/series.materialise.js';
import { horizonOf } from '../events/series/series.service.js';

/** An iCalendar file as served: its bytes, their strong ETag, and what the headers say of it. */
export interface IcalFile {
  readonly bytes: Buffer;
  readonly etag: string;
  /** Unix seconds. */
  readonly lastModified: number;
  /** Feeds: the events matching before the ICAL_MAX_EVENTS cap (X-WP-Total). */
  readonly total?: number;
}

/**
 * What the iCalendar routes share: the database and configuration (the events module's), the events
 * module, and the files made under the current data version.
 */
export interface IcalDeps {
  readonly db: Db;
  readonly config: Config;
  readonly events: EventsModule;
  readonly files: VersionedCache<IcalFile>;
}

/**
 * The reader every iCalendar file is made for (API.md §19): anonymous, whatever credentials the
 * request carried, so every caller gets the same bytes (valid credentials were already checked).
 */
export function anonymous(ctx: RequestContext): RequestContext {
  return { ...ctx, caller: null, parse: { ...ctx.parse, caller: null } };
}

/** Parameters feeds ignore (API.md §19): a feed is one whole list, for anonymous readers. */
const IGNORED = new Set(['page', 'per_page', 'password', 'expand']);

/**
 * A feed's parameters: those of `GET /events` with their validation (API.md §10), `status` only
 * `publish`, and the default window of §19 (30 days back, 12 months ahead) for a bound not given.
 */
export function feedInput(
  config: Config,
  ctx: RequestContext,
  query: unknown,
): { input: EventListInput; defaultWindow: boolean } {
  const bag = Object.fromEntries(Object.entries(mergeSources(query, undefined)).filter(([name]) => !IGNORED.has(name)));
  const input = parseArgs(eventListArgs, bag, ctx.parse);
  if (input.status && input.status.some((status) => status !== 'publish'))
    throw invalidParam('status', { message: 'invalid_parameter' });
  const today = ctx.now.setZone(zoneOf(config.siteTimezone)).startOf('day');
  const defaultWindow = input.start_date === undefined || input.end_date === undefined;
  return {
    input: {
      ...input,
      start_date: input.start_date ?? today.minus({ days: 30 }),
      end_date: input.end_date ?? today.plus({ months: 12 }),
    },
    defaultWindow: defaultWindow && input.include === undefined,
  };
}

const etagOf = (bytes: Buffer) => `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 32)}"`;

/**
 * Last-Modified (API.md §19.1): the latest write anywhere in the calendar; for a feed with the
 * default window at least the start of today, when the window last moved.
 */
async function lastModified(deps: IcalDeps, ctx: RequestContext, movingWindow: boolean): Promise<number> {
  const latest = await latestModification(deps.db);
  if (!movingWindow) return latest;
  const today = ctx.now.setZone(zoneOf(deps.config.siteTimezone)).startOf('day');
  return Math.max(latest, Math.floor(today.toSeconds()));
}

async function made(
  deps: IcalDeps,
  ctx: RequestContext,
  body: string,
  movingWindow: boolean,
  total?: number,
): Promise<IcalFile> {
  const bytes = Buffer.from(body, 'utf8');
  return { bytes, etag: etagOf(bytes), lastModified: await lastModified(deps, ctx, movingWindow), total };
}

/** The site-zone day: feeds with the default window change with it. */
const dayOf = (config: Config, ctx: RequestContext) => ctx.now.setZone(zoneOf(config.siteTimezone)).toISODate() ?? '';

/**
 * A feed (API.md §19): the events of `GET /events` with `input` that an anonymous reader sees in
 * full (published, listed, not password-protected), in list order, the first ICAL_MAX_EVENTS of
 * them. Made once per data version, language, parameters and day (cache/lru.ts).
 */
export async function feed(
  deps: IcalDeps,
  ctx: RequestContext,
  input: EventListInput,
  options: { name: string | null; defaultWindow: boolean },
): Promise<IcalFile> {
  const key = `feed|${ctx.lang}|${dayOf(deps.config, ctx)}|${JSON.stringify(options)}|${JSON.stringify(input)}`;
  return deps.files.computed(key, await ctx.dataVersion(), async () => {
    const { events, db, config } = deps;
    const filter = await buildFilter(events.state, ctx, input, effectiveBounds(config, ctx, input));
    // A series counts once and is exported whole (API.md §19).
    const { ids, total } = await events.listing.page(
      ctx,
      { ...filter, statuses: ['publish'], unprotected: true, collapse: true },
      1,
      config.icalMaxEvents,
    );
    const bundles = await loadBundles(events.state, ctx, await findEvents(db, ids, languages(deps, ctx)));
    const calendar = { name: options.name, ...(await seriesExports(deps, ctx, bundles)) };
    return made(deps, ctx, renderCalendar(config, ctx, bundles, calendar), options.defaultWindow, total);
  });
}

/**
 * The exceptions of the series among `bundles` (API.md §19.1): an EXDATE for each occurrence
 * trashed or deleted on its own, a VEVENT for each published override.
 */
async function seriesExports(
  deps: IcalDeps,
  ctx: RequestContext,
  bundles: readonly EventBundle[],
): Promise<{ series: Map<number, SeriesExport>; horizon: number }> {
  const series = new Map<number, SeriesExport>();
  const horizon = horizonOf(deps.config, ctx.now).until;
  const seriesRows = bundles.map((b) => b.row).filter((row) => row.recurrence !== null);
  if (seriesRows.length === 0) return { series, horizon };
  const exceptions = await seriesRepo.exceptionsOf(
    deps.db,
    seriesRows.map((row) => row.id),
  );
  const overrideIds = exceptions
    .filter((o) => o.status === 'publish' && fieldsOf(o.overrides).size > 0 && !fieldsOf(o.overrides).has('trash'))
    .map((o) => o.id);
  const overrides = await loadBundles(
    deps.events.state,
    ctx,
    await findEvents(deps.db, overrideIds, languages(deps, ctx)),
  );
  for (const row of seriesRows) {
    const trashed = exceptions
      .filter((o) => o.series_id === row.id && o.status === 'trash')
      .map((o) => o.recurrence_id);
    const deleted = JSON.parse(row.excluded ?? '[]') as string[];
    series.set(row.id, {
      exdates: [...new Set([...trashed, ...deleted])].sort(),
      overrides: overrides.filter((o) => o.row.series_id === row.id),
    });
  }
  return { series, horizon };
}

/** One event's file (API.md §19): published and not password-protected, listed or not; else 404. */
export async function eventFile(
  deps: IcalDeps,
  ctx: RequestContext,
  id: number,
): Promise<{ file: IcalFile; slug: string }> {
  const post = await posts.findPostBase(deps.db, id);
  if (!post || post.type !== 'event' || post.status !== 'publish' || post.password !== '')
    throw new ApiError('rest-event-not-found', { vars: { id } });
  const key = `event|${id}|${ctx.lang}`;
  const file = await deps.files.computed(key, await ctx.dataVersion(), async () => {
    const bundle = await loadEvent(deps.events.state, ctx, id);
    const calendar = { name: calendarName(deps.config), ...(await seriesExports(deps, ctx, [bundle])) };
    return made(deps, ctx, renderCalendar(deps.config, ctx, [bundle], calendar), false);
  });
  return { file, slug: post.slug };
}

/** A category's or tag's id and name by slug in the request language; unknown → 404 `rest_term_invalid`. */
export async function termBySlug(
  deps: IcalDeps,
  ctx: RequestContext,
  taxonomy: Taxonomy,
  slug: string,
): Promise<{ id: number; name: string }> {
  const id = await termsRepo.findTermIdBySlug(deps.db, taxonomy.key, slug, languages(deps, ctx));
  const term = id !== undefined ? await termsRepo.findTerm(deps.db, taxonomy.key, id, languages(deps, ctx)) : undefined;
  if (!term) throw new ApiError('rest_term_invalid');
  return { id: term.id, name: term.name };
}

/** A public venue's or organizer's id and name by slug; unknown or not public → its 404. */
export async function linkedBySlug(
  deps: IcalDeps,
  ctx: RequestContext,
  kind: LinkedKind,
  slug: string,
): Promise<{ id: number; name: string }> {
  const id = await posts.findPostIdBySlug(deps.db, kind.type, slug);
  const post = id !== undefined ? await posts.findPostBase(deps.db, id) : undefined;
  if (!post || post.status !== 'publish' || post.password !== '') throw new ApiError(kind.errors.notFound);
  return { id: post.id, name: (await loadLinked(deps.events.state.linked, ctx, kind, post.id)).title };
}
