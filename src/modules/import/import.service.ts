import { callerCan } from '../../auth/caller.js';
import type { ChangeSet } from '../../changes/change-set.js';
import type { Executor } from '../../db/schema.js';
import { ApiError, forbidden, invalidParams, type ParamProblem } from '../../errors.js';
import type { RequestContext } from '../../http/context.js';
import type { EventsState } from '../events/events.state.js';
import * as relations from '../events/events.relations.js';
import {
  insertEventIn,
  timesOfCreate,
  updateEventIn,
  type EventCreateInput,
  type Relations,
} from '../events/events.service.js';
import { withSlugRetry } from '../posts/posts.writes.js';
import { CATEGORIES, TAGS } from '../terms/taxonomies.js';
import { fetchCalendar, IMPORT_FETCH_LIMITS, type ResolveHost } from './ics.fetch.js';
import { decodeUtf8 } from './ics.lines.js';
import { IcsProblem } from './ics.problem.js';
import { readEvents, type ImportedEvent } from './ics.read.js';
import { scanCalendar } from './ics.scan.js';
import { Linker } from './import.linker.js';
import * as repo from './import.repository.js';
import { isNewer, selectWinners, websiteOf, type Skipped } from './import.rules.js';

export type ImportStatus = 'publish' | 'draft' | 'pending' | 'private';

export interface ImportInput {
  /** The text, or the bytes of a `text/calendar` body (decoded only after the permission check). */
  readonly ics?: string | Uint8Array;
  readonly url?: URL;
  readonly dryRun: boolean;
  readonly status: ImportStatus;
  readonly categories?: string[];
  readonly tags?: string[];
}

export interface ImportResult {
  created: (number | string)[];
  updated: number[];
  unchanged: number[];
  skipped: Skipped[];
  dry_run: boolean;
}

export interface ImportDeps {
  readonly events: EventsState;
  readonly resolveHost: ResolveHost;
}

/** Events written between two turns of the event loop: about 60 ms of work on SQLite on the development machine. */
const YIELD_EVERY = 20;

/** Thrown inside the transaction of a dry run, so that nothing it did is kept. */
class DryRunDone extends Error {
  constructor(readonly result: ImportResult) {
    super('dry run');
  }
}

/** The options' categories and tags (API.md §13 rules: ids, slugs, or names the caller may create). */
async function optionTerms(
  state: EventsState,
  ctx: RequestContext,
  input: ImportInput,
): Promise<{ categories: relations.TermRef[]; tags: relations.TermRef[] | undefined }> {
  const problems = new Map<string, ParamProblem>();
  const categories = input.categories
    ? await relations.parseTermRefs(state, ctx, CATEGORIES, input.categories, 'categories', problems)
    : [];
  const tags = input.tags ? await relations.parseTermRefs(state, ctx, TAGS, input.tags, 'tags', problems) : undefined;
  if (problems.size > 0) throw invalidParams(problems);
  return { categories: categories ?? [], tags };
}

async function importText(deps: ImportDeps, input: ImportInput): Promise<string> {
  if (input.url) {
    const bytes = await fetchCalendar(input.url, {
      ...IMPORT_FETCH_LIMITS,
      allowPrivate: deps.events.config.importAllowPrivateUrls,
      resolve: deps.resolveHost,
    });
    return decodeUtf8(bytes);
  }
  const { ics } = input;
  return typeof ics === 'string' ? ics.replace(/^\uFEFF/, '') : decodeUtf8(ics ?? new Uint8Array());
}

/** One import's transaction and what every event of it shares. */
interface ImportRun {
  readonly state: EventsState;
  readonly ctx: RequestContext;
  readonly trx: Executor;
  readonly changes: ChangeSet;
  /** withSlugRetry's attempt (slug candidates to skip). */
  readonly attempt: number;
  readonly status: ImportInput['status'];
  readonly linker: Linker;
  /** The `categories` and `tags` options, as term ids. */
  readonly categories: number[];
  readonly tags: number[] | undefined;
}

type Outcome = { kind: 'created' | 'updated' | 'unchanged'; id: number } | { kind: 'skipped'; reason: string };

/** The event's fields as the VEVENT gives them (API.md §19.3 mapping). */
function mappedFields(run: ImportRun, event: ImportedEvent): EventCreateInput {
  return {
    title: event.title ?? '',
    description: event.description,
    start_date: event.start,
    end_date: event.end,
    timezone: event.timezone,
    all_day: event.allDay,
    website: websiteOf(event, run.state.config.publicUrl),
  };
}

/** Venue, organizer and categories (matched or created), and the options' terms. */
async function mappedRelations(run: ImportRun, event: ImportedEvent): Promise<Relations> {
  const categories: number[] = [];
  // One after another: two spellings of one new name must find the category the first created.
  for (const name of event.categories) categories.push(await run.linker.category(name));
  const venue = event.location !== null ? await run.linker.venue(event.location, event.geo) : undefined;
  const organizer = event.organizer ? await run.linker.organizer(event.organizer) : undefined;
  return {
    venue: venue !== undefined ? [{ id: venue }] : [],
    organizers: organizer !== undefined ? [{ id: organizer }] : [],
    categories: [...categories, ...run.categories].map((id) => ({ id })),
    ...(run.tags ? { tags: run.tags.map((id) => ({ id })) } : {}),
  };
}

/** One winning VEVENT: created, updated, left unchanged or skipped, by the upsert rules of API.md §19.3. */
async function importEvent(
  run: ImportRun,
  event: ImportedEvent,
  target: repo.ImportTarget | undefined,
): Promise<Outcome> {
  const { state, ctx, trx, changes, attempt } = run;
  const identity = { sequence: event.sequence, stamp: event.stamp };
  if (target?.status === 'trash') return { kind: 'skipped', reason: 'trashed' };
  if (!target && event.cancelled) return { kind: 'skipped', reason: 'cancelled' };
  if (target && !isNewer(event, target)) return { kind: 'unchanged', id: target.id };
  if (target) {
    // An update replaces the mapped fields, never the status, except that CANCELLED trashes.
    if (event.cancelled) await updateEventIn(state, ctx, trx, changes, target.id, { status: 'trash' }, {}, attempt);
    else {
      const rel = await mappedRelations(run, event);
      await updateEventIn(state, ctx, trx, changes, target.id, mappedFields(run, event), rel, attempt);
    }
    await repo.setImportIdentity(trx, target.id, identity);
    return { kind: 'updated', id: target.id };
  }
  const input = mappedFields(run, event);
  let times;
  try {
    times = timesOfCreate(state, ctx, input);
  } catch (error) {
    if (error instanceof ApiError) return { kind: 'skipped', reason: 'invalid dates' };
    throw error;
  }
  const rel = await mappedRelations(run, event);
  const publishedAt = Math.floor(ctx.now.toSeconds());
  const ical = { uid: event.uid ?? '', sequence: event.sequence };
  const id = await insertEventIn(
    state,
    ctx,
    trx,
    changes,
    { input, times, rel, status: run.status, publishedAt, ical },
    attempt,
  );
  await repo.setImportIdentity(trx, id, identity);
  return { kind: 'created', id };
}

/**
 * POST /import/ics (API.md §19.3): editors and administrators; the text is read, or the URL
 * fetched, only after that check. Every VEVENT is created, updated or left as it is in one
 * transaction: a file that fails anywhere changes nothing, and a dry run is rolled back.
 */
export async function importCalendar(deps: ImportDeps, ctx: RequestContext, input: ImportInput): Promise<ImportResult> {
  const state = deps.events;
  if (!callerCan(ctx.caller, 'edit_others_posts')) throw forbidden(ctx.caller !== null);
  const options = await optionTerms(state, ctx, input);
  let events: ImportedEvent[];
  try {
    events = readEvents(scanCalendar(await importText(deps, input), state.config.siteTimezone));
  } catch (error) {
    if (error instanceof IcsProblem) throw error.toApiError();
    throw error;
  }
  const skipped: Skipped[] = [];
  const winners = selectWinners(events, skipped);
  try {
    return await withSlugRetry((attempt) =>
      ctx.write(async (trx, changes) => {
        const run: ImportRun = {
          state,
          ctx,
          trx,
          changes,
          attempt,
          status: input.status,
          linker: new Linker(state, ctx, trx, changes),
          categories: await relations.materialiseTerms(ctx, trx, CATEGORIES, options.categories),
          tags: options.tags ? await relations.materialiseTerms(ctx, trx, TAGS, options.tags) : undefined,
        };
        const result: ImportResult = {
          created: [],
          updated: [],
          unchanged: [],
          skipped: [...skipped],
          dry_run: input.dryRun,
        };
        const targets = await repo.eventsByUid(trx, [...new Set(winners.map((e) => e.uid ?? ''))]);
        for (const [index, event] of winners.entries()) {
          // SQLite runs every statement synchronously: without a turn of the event loop now and then, a
          // file of thousands of events would hold up every other request (cached reads, /health) for seconds.
          if (index % YIELD_EVERY === YIELD_EVERY - 1) await new Promise((resolve) => setImmediate(resolve));
          const outcome = await importEvent(run, event, targets.get(event.uid ?? ''));
          if (outcome.kind === 'skipped') result.skipped.push({ uid: event.uid, reason: outcome.reason });
          else if (outcome.kind === 'created') result.created.push(input.dryRun ? (event.uid ?? '') : outcome.id);
          else result[outcome.kind].push(outcome.id);
        }
        if (input.dryRun) throw new DryRunDone(result);
        return result;
      }),
    );
  } catch (error) {
    if (error instanceof DryRunDone) return error.result;
    throw error;
  }
}
