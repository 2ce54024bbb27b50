import { ApiError } from '../../../errors.js';
import type { RequestContext } from '../../../http/context.js';
import type { EventFilter } from './listing.repository.js';
import type { EventsState } from '../events.state.js';
import { buildFilter } from './filter.js';
import type { EventListInput } from './input.js';
import { effectiveBounds, type EffectiveBounds } from './window.js';

/**
 * How a page of a filtered event list is found: the plain way (plain.ts, SQL alone) or the
 * accelerated one (accelerated.ts), which wraps it. Chosen once, at start-up (events.module.ts).
 */
export interface EventListing {
  /** The ids of page `page` (from 1) of `perPage` events, in list order, and the total. */
  page(
    ctx: RequestContext,
    filter: EventFilter,
    page: number,
    perPage: number,
  ): Promise<{ ids: number[]; total: number }>;
}

export interface EventPage {
  ids: number[];
  total: number;
  bounds: EffectiveBounds;
  /** The filter the request's parameters made. */
  filter: EventFilter;
}

/** GET /events (API.md §10): filtered, visible, ordered by start; 404 past the last page. */
export async function listEventPage(
  events: { listing: EventListing; state: EventsState },
  ctx: RequestContext,
  input: EventListInput,
): Promise<EventPage> {
  const bounds = effectiveBounds(events.state.config, ctx, input);
  const filter = await buildFilter(events.state, ctx, input, bounds);
  const { ids, total } = await events.listing.page(ctx, filter, input.page, input.per_page);
  if (ids.length === 0 && input.page > 1) throw new ApiError('event-archive-page-not-found');
  return { ids, total, bounds, filter };
}

/**
 * GET /events/{id}/occurrences (API.md §20.2): the list of §10 restricted to one series, with no
 * default window and with occurrences hidden from listings.
 */
export async function listOccurrencePage(
  events: { listing: EventListing; state: EventsState },
  ctx: RequestContext,
  seriesId: number,
  input: EventListInput,
): Promise<EventPage> {
  const bounds = effectiveBounds(events.state.config, ctx, input, { defaultWindow: false });
  const filter = { ...(await buildFilter(events.state, ctx, input, bounds)), seriesId, collapse: undefined };
  const { ids, total } = await events.listing.page(ctx, filter, input.page, input.per_page);
  if (ids.length === 0 && input.page > 1) throw new ApiError('event-archive-page-not-found');
  return { ids, total, bounds, filter };
}
