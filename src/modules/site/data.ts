import type { DateTime } from 'luxon';
import { mergeSources, parseArgs } from '../../http/args.js';
import type { RequestContext } from '../../http/context.js';
import { eventListArgs } from '../events/events.schemas.js';
import type { EventBundle } from '../events/events.present.js';
import { findEvents } from '../events/events.repository.js';
import { loadBundles } from '../events/events.service.js';
import type { EventsModule } from '../events/events.module.js';
import type { EventListInput } from '../events/listing/input.js';
import { listEventPage } from '../events/listing/listing.js';
import { languages } from '../linked/linked.service.js';

/** The list parameters a public page takes (API.md §23.1): the §10 filters and `page`. */
export const PAGE_FILTERS = ['categories', 'tags', 'venue', 'organizer', 'search'] as const;
const PAGE_PARAMS: ReadonlySet<string> = new Set([...PAGE_FILTERS, 'page']);

/** The most events one month, week or day page shows; a busier period shows the first ones. */
export const PERIOD_LIMIT = 2_000;

/**
 * The page's filters parsed by the rules of `GET /events` (API.md §10): the same validation and
 * 400s. Other query parameters (`i18n_language`, `ical`…) are not the list's.
 */
export function pageInput(ctx: RequestContext, query: unknown): EventListInput {
  // A filter form sends its empty fields too: an empty field is no filter (the API would refuse `search=`).
  const bag = Object.fromEntries(
    Object.entries(mergeSources(query, undefined)).filter(([name, value]) => PAGE_PARAMS.has(name) && value !== ''),
  );
  return parseArgs(eventListArgs, bag, ctx.parse);
}

/** The filters a page was asked for, as they go into its links (shareable URLs). */
export function filterQuery(query: unknown): [string, string][] {
  const bag = mergeSources(query, undefined);
  const pairs: [string, string][] = [];
  for (const name of PAGE_FILTERS) {
    const value = bag[name];
    if (typeof value === 'string' && value !== '') pairs.push([name, value]);
    else if (Array.isArray(value)) pairs.push([name, value.map(String).join(',')]);
  }
  return pairs;
}

async function bundlesOf(events: EventsModule, ctx: RequestContext, ids: readonly number[]): Promise<EventBundle[]> {
  const rows = await findEvents(events.state.db, ids, languages(events.state, ctx));
  const byId = new Map(rows.map((row) => [row.id, row]));
  const ordered = ids.map((id) => byId.get(id)).filter((row) => row !== undefined);
  return loadBundles(events.state, ctx, ordered);
}

/** A page of events not yet ended (the `/events/` list and item pages), in list order; 404 past the end. */
export async function upcomingPage(
  events: EventsModule,
  ctx: RequestContext,
  input: EventListInput,
  perPage: number,
): Promise<{ bundles: EventBundle[]; total: number }> {
  const page = await listEventPage(events, ctx, {
    ...input,
    per_page: perPage,
    status: ['publish'],
    ends_after: ctx.now,
    strict_dates: true,
  });
  return { bundles: await bundlesOf(events, ctx, page.ids), total: page.total };
}

/**
 * The published, listed events whose span overlaps [from, to) (month, week and day pages,
 * API.md §23.1): started before the period ends and ending after it begins.
 */
export async function periodEvents(
  events: EventsModule,
  ctx: RequestContext,
  input: EventListInput,
  from: DateTime,
  to: DateTime,
): Promise<EventBundle[]> {
  const page = await listEventPage(events, ctx, {
    ...input,
    page: 1,
    per_page: PERIOD_LIMIT,
    status: ['publish'],
    starts_before: to,
    ends_after: from,
    strict_dates: true,
  });
  return bundlesOf(events, ctx, page.ids);
}
