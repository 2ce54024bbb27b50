import type { Config } from '../../../config.js';
import type { Db } from '../../../db/schema.js';
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
export const plainListing = (events: { readonly db: Db; readonly config: Config }): PlainListing => ({
  count: (ctx, filter) => repo.countEvents(events.db, filter, languages(events, ctx)),
  ids: (ctx, filter, limit, offset) => repo.listEventIds(events.db, filter, languages(events, ctx), limit, offset),
  async page(ctx, filter, page, perPage) {
    if (filter.collapse && !filter.include) {
      const offset = (page - 1) * perPage;
      const grouped = await repo.groupedPage(events.db, filter, languages(events, ctx), perPage, offset);
      if (grouped) return grouped;
    }
    const [total, ids] = await Promise.all([
      this.count(ctx, filter),
      this.ids(ctx, filter, perPage, (page - 1) * perPage),
    ]);
    return { ids, total };
  },
});
