import { callerCan } from '../../auth/caller.js';
import type { ChangeSet } from '../../changes/change-set.js';
import type { Executor } from '../../db/schema.js';
import { parseHttpUrl } from '../../domain/params.js';
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
import { locationOf } from '../ical/ical.render.js';
import { ORGANIZER_KIND, VENUE_KIND } from '../linked/linked.kind.js';
import { findLinkedMany } from '../linked/linked.repository.js';
import { createLinked, languages } from '../linked/linked.service.js';
import { withSlugRetry } from '../posts/posts.writes.js';
import { CATEGORIES, TAGS } from '../terms/taxonomies.js';
import { findOrCreateTermByName } from '../terms/terms.service.js';
import { fetchCalendar, IMPORT_FETCH_LIMITS, type ResolveHost } from './ics.fetch.js';
import { decodeUtf8 } from './ics.lines.js';
import { IcsProblem } from './ics.problem.js';
import { readEvents, type ImportedEvent } from './ics.read.js';
import { scanCalendar } from './ics.scan.js';
import * as repo from './import.repository.js';

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
  skipped: { uid: string | null; reason: string }[];
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

/** The winning copy of each (UID, RECURRENCE-ID) in the file, and what is skipped before any lookup (API.md §19.3). */
function selectWinners(events: ImportedEvent[], skipped: ImportResult['skipped']): ImportedEvent[] {
  const winners = new Map<string, ImportedEvent>();
  for (const event of events) {
    if (event.uid === null) {
      skipped.push({ uid: null, reason: 'no UID' });
      continue;
    }
    const key = `${event.uid}\n${event.recurrenceId ?? ''}`;
    const other = winners.get(key);
    // The higher SEQUENCE wins, then the later copy in the file.
    if (other && other.sequence > event.sequence) skipped.push({ uid: event.uid, reason: 'duplicate' });
    else {
      if (other) skipped.push({ uid: other.uid, reason: 'duplicate' });
      winners.set(key, event);
    }
  }
  const kept: ImportedEvent[] = [];
  for (const event of [...winners.values()].sort((a, b) => a.index - b.index)) {
    // Series and their overrides wait for recurring events (issue 26, API.md §20.4).
    if (event.recurring || event.recurrenceId !== null)
      skipped.push({ uid: event.uid, reason: 'recurrence not supported' });
    else if (event.title === null) skipped.push({ uid: event.uid, reason: 'no SUMMARY' });
    else kept.push(event);
  }
  return kept;
}

/** Whether the file's copy replaces the stored event: a higher SEQUENCE, or the same with a later stamp. */
function isNewer(event: ImportedEvent, target: repo.ImportTarget): boolean {
  if (event.sequence !== target.ical_sequence) return event.sequence > target.ical_sequence;
  return event.stamp !== null && event.stamp > target.stamp;
}

/** The event's `website`: the URL, unless it is a page of this service (then left as it is). */
function websiteOf(event: ImportedEvent, publicUrl: string): string | undefined {
  if (event.url === null) return '';
  if (event.url === publicUrl || event.url.startsWith(`${publicUrl}/`)) return undefined;
  return parseHttpUrl(event.url) ?? '';
}

/**
 * Venues, organizers and categories matched or created during one import, each looked up once
 * per value, inside the import's transaction (so two VEVENTs at one new place share one venue).
 */
class Linker {
  private readonly venues = new Map<string, number>();
  private readonly organizers = new Map<string, number>();
  private readonly categories = new Map<string, number>();

  constructor(
    private readonly state: EventsState,
    private readonly ctx: RequestContext,
    private readonly trx: Executor,
    private readonly changes: ChangeSet,
  ) {}

  /**
   * LOCATION (API.md §19.3): a venue whose exported LOCATION is the value; else one named the
   * whole value or its text before the first comma; else a new one (that text, the rest as address).
   */
  async venue(location: string, geo: ImportedEvent['geo']): Promise<number | undefined> {
    const key = location.toLowerCase();
    const known = this.venues.get(key);
    if (known !== undefined) return known;
    const parts = location.split(',');
    const prefixes = parts.map((_, i) =>
      parts
        .slice(0, i + 1)
        .join(',')
        .trim(),
    );
    const candidates = await repo.postIdsTitled(this.trx, 'venue', [...prefixes].reverse());
    const rows = await findLinkedMany(this.trx, VENUE_KIND, candidates, languages(this.state, this.ctx));
    const exported = candidates.find((id) => {
      const row = rows.get(id);
      return row !== undefined && locationOf(row) === location;
    });
    const named = exported ?? (await repo.postIdsTitled(this.trx, 'venue', [location, prefixes[0]]))[0];
    const id = named ?? (await this.createVenue(prefixes[0], parts.slice(1).join(',').trim(), geo));
    if (id !== undefined) this.venues.set(key, id);
    return id;
  }

  private async createVenue(name: string, address: string, geo: ImportedEvent['geo']): Promise<number | undefined> {
    const input = relations.inlineInput(this.ctx, VENUE_KIND, {
      venue: name,
      ...(address !== '' ? { address } : {}),
      ...(geo ? { geo_lat: geo.lat, geo_lng: geo.lng } : {}),
    });
    if (!input) return undefined;
    const id = await createLinked(this.state.linked, this.ctx, VENUE_KIND, input, this.trx);
    this.changes.add('venue', id);
    return id;
  }

  /** ORGANIZER (API.md §19.3): one with that email, else one named the CN, else a new one. */
  async organizer(organizer: NonNullable<ImportedEvent['organizer']>): Promise<number | undefined> {
    const key = `${organizer.email ?? ''}\n${organizer.name ?? ''}`.toLowerCase();
    const known = this.organizers.get(key);
    if (known !== undefined) return known;
    let id = organizer.email !== null ? await repo.organizerIdByEmail(this.trx, organizer.email) : undefined;
    if (id === undefined && organizer.name !== null)
      id = (await repo.postIdsTitled(this.trx, 'organizer', [organizer.name]))[0];
    if (id === undefined) {
      const input = relations.inlineInput(this.ctx, ORGANIZER_KIND, {
        organizer: organizer.name ?? organizer.email,
        ...(organizer.email !== null ? { email: organizer.email } : {}),
      });
      if (input) {
        id = await createLinked(this.state.linked, this.ctx, ORGANIZER_KIND, input, this.trx);
        this.changes.add('organizer', id);
      }
    }
    if (id !== undefined) this.organizers.set(key, id);
    return id;
  }

  /** CATEGORIES: by name in the request language (case-insensitive), created when missing. */
  async category(name: string): Promise<number> {
    const key = name.toLowerCase();
    let id = this.categories.get(key);
    if (id === undefined) {
      id = await findOrCreateTermByName(this.ctx, this.trx, CATEGORIES, name);
      // Possibly new: term lists and counts must not be served from before it.
      this.changes.add('term', id);
      this.categories.set(key, id);
    }
    return id;
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
  const baseSkipped: ImportResult['skipped'] = [];
  const winners = selectWinners(events, baseSkipped);
  try {
    return await withSlugRetry((attempt) =>
      ctx.write(async (trx, changes) => {
        const result: ImportResult = {
          created: [],
          updated: [],
          unchanged: [],
          skipped: [...baseSkipped],
          dry_run: input.dryRun,
        };
        const linker = new Linker(state, ctx, trx, changes);
        const optionCategories = await relations.materialiseTerms(ctx, trx, CATEGORIES, options.categories);
        const optionTags = options.tags ? await relations.materialiseTerms(ctx, trx, TAGS, options.tags) : undefined;
        const targets = await repo.eventsByUid(trx, [...new Set(winners.map((e) => e.uid ?? ''))]);
        for (const [index, event] of winners.entries()) {
          // SQLite runs every statement synchronously: without a turn of the event loop now and then, a
          // file of thousands of events would hold up every other request (cached reads, /health) for seconds.
          if (index % YIELD_EVERY === YIELD_EVERY - 1) await new Promise((resolve) => setImmediate(resolve));
          const uid = event.uid ?? '';
          const target = targets.get(uid);
          if (target?.status === 'trash') {
            result.skipped.push({ uid, reason: 'trashed' });
            continue;
          }
          if (!target && event.cancelled) {
            result.skipped.push({ uid, reason: 'cancelled' });
            continue;
          }
          if (target && !isNewer(event, target)) {
            result.unchanged.push(target.id);
            continue;
          }
          const write: EventCreateInput = {
            title: event.title ?? '',
            description: event.description,
            start_date: event.start,
            end_date: event.end,
            timezone: event.timezone,
            all_day: event.allDay,
            website: websiteOf(event, state.config.publicUrl),
          };
          const rel: Relations = {
            venue: [],
            organizers: [],
            categories: [
              ...(await Promise.all(event.categories.map((name) => linker.category(name)))),
              ...optionCategories,
            ].map((id) => ({ id })),
            ...(optionTags ? { tags: optionTags.map((id) => ({ id })) } : {}),
          };
          const venue = event.location !== null ? await linker.venue(event.location, event.geo) : undefined;
          if (venue !== undefined) rel.venue = [{ id: venue }];
          const organizer = event.organizer ? await linker.organizer(event.organizer) : undefined;
          if (organizer !== undefined) rel.organizers = [{ id: organizer }];
          const identity = { sequence: event.sequence, stamp: event.stamp };
          if (target) {
            // An update replaces the mapped fields, never the status, except that CANCELLED trashes.
            const update = event.cancelled ? { status: 'trash' as const } : write;
            await updateEventIn(state, ctx, trx, changes, target.id, update, event.cancelled ? {} : rel, attempt);
            await repo.setImportIdentity(trx, target.id, identity);
            result.updated.push(target.id);
            continue;
          }
          let times;
          try {
            times = timesOfCreate(state, ctx, write);
          } catch (error) {
            if (!(error instanceof ApiError)) throw error;
            result.skipped.push({ uid, reason: 'invalid dates' });
            continue;
          }
          const now = Math.floor(ctx.now.toSeconds());
          const id = await insertEventIn(
            state,
            ctx,
            trx,
            changes,
            {
              input: write,
              times,
              rel,
              status: input.status,
              publishedAt: now,
              ical: { uid, sequence: event.sequence },
            },
            attempt,
          );
          await repo.setImportIdentity(trx, id, identity);
          result.created.push(input.dryRun ? uid : id);
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
