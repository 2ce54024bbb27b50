import type { RequestContext } from '../../../http/context.js';
import { languages } from '../../linked/linked.service.js';
import * as repo from './listing.repository.js';
import type { EventListing } from './listing.js';

/** The plain listing's parts, which the accelerated listing falls back on. */
export interface PlainListing extends EventListing {
  count(ctx: RequestContext, filter: repo.EventFilter): Promise<number>;
  /** The ids in list order: all of them, or `limit` from `offset`. */
  ids(ctx: RequestContext, filter: repo.EventFilter, limit?: number, offset?: number): Promise<number[]>;
}

/** Every page counted and read in SQL: the reference the accelerated listing is tested against. */
export const plainListing: PlainListing = {
  count: (ctx, filter) => repo.countEvents(ctx.db, filter, languages(ctx)),
  ids: (ctx, filter, limit, offset) => repo.listEventIds(ctx.db, filter, languages(ctx), limit, offset),
  async page(ctx, filter, page, perPage) {
    const [total, ids] = await Promise.all([
      this.count(ctx, filter),
      this.ids(ctx, filter, perPage, (page - 1) * perPage),
    ]);
    return { ids, total };
  },
};
