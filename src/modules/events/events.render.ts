import { viewerKey } from '../posts/posts.viewer.js';
import type { RequestContext } from '../../http/context.js';
import { compileSerializer } from '../../http/json.js';
import { canEditPost } from '../posts/posts.rules.js';
import { ImageSchema } from '../images/images.js';
import { OrganizerSchema } from '../organizers/organizers.schemas.js';
import { EmbeddedTermSchema } from '../terms/terms.schemas.js';
import { VenueSchema } from '../venues/venues.schemas.js';
import { languages } from '../linked/linked.service.js';
import { presentEvent } from './events.present.js';
import { findEvents } from './events.repository.js';
import { CostDetailsSchema, DateDetailsSchema, EventSchema } from './events.schemas.js';
import { loadBundles } from './events.service.js';

const serializeEvent = compileSerializer(EventSchema, [ImageSchema, DateDetailsSchema, CostDetailsSchema, VenueSchema, OrganizerSchema, EmbeddedTermSchema]);


interface Fragment {
  json: string;
  password: string;
  author_id: number;
  status: string;
}

/**
 * Events as JSON strings in the order of `ids`, each rendered once and reused from the fragment
 * cache until data changes (issue "benchmark harness": no per-request re-rendering, no N+1).
 * Protected events the caller has not unlocked are rendered blanked and never cached that way.
 */
export async function renderEvents(ctx: RequestContext, ids: readonly number[], options: { jsonLd: boolean; password?: string }): Promise<string[]> {
  const version = await ctx.dataVersion();
  const cache = ctx.app.caches.fragments;
  const keyOf = (id: number) => `event|${id}|${ctx.lang}|${ctx.language.source}|${options.jsonLd ? 1 : 0}|${viewerKey(ctx.caller)}`;
  const locked = (meta: { password: string; author_id: number; status: string }) =>
    meta.password !== '' && meta.password !== options.password && !canEditPost(ctx.caller, meta);
  const result = new Map<number, string>();
  const missing: number[] = [];
  for (const id of ids) {
    const cached = cache.get(keyOf(id), version);
    const fragment = cached ? (JSON.parse(cached.slice(0, cached.indexOf('\n'))) as Omit<Fragment, 'json'>) : undefined;
    if (cached && fragment && !locked(fragment)) result.set(id, cached.slice(cached.indexOf('\n') + 1));
    else missing.push(id);
  }
  if (missing.length > 0) {
    const bundles = await loadBundles(ctx, await findEvents(ctx.db, missing, languages(ctx)));
    for (const bundle of bundles) {
      const isLocked = locked(bundle.row);
      const json = serializeEvent(presentEvent(ctx, bundle, { jsonLd: options.jsonLd && !isLocked, blanked: isLocked }));
      result.set(bundle.row.id, json);
      if (!isLocked) {
        const meta = JSON.stringify({ password: bundle.row.password, author_id: bundle.row.author_id, status: bundle.row.status });
        cache.set(keyOf(bundle.row.id), version, `${meta}\n${json}`);
      }
    }
  }
  return ids.map((id) => result.get(id)).filter((json): json is string => json !== undefined);
}
