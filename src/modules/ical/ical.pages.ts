import type { FastifyReply, FastifyRequest } from 'fastify';
import { isRecord } from '../../domain/params.js';
import { ApiError } from '../../errors.js';
import { requestContext, type RequestContext } from '../../http/context.js';
import type { LinkedKind } from '../linked/linked.kind.js';
import type { Taxonomy } from '../terms/taxonomies.js';
import { calendarName } from './ical.render.js';
import { sendEventFile, sendFeed } from './ical.routes.js';
import { anonymous, linkedBySlug, termBySlug, type IcalDeps } from './ical.service.js';
import * as posts from '../posts/posts.repository.js';

/** What a public page shows, as its iCalendar export sees it. */
export type PageTarget =
  | { readonly kind: 'event'; readonly id: number }
  | { readonly kind: 'linked'; readonly linked: LinkedKind; readonly id: number }
  | { readonly kind: 'term'; readonly taxonomy: Taxonomy; readonly slug: string };

/** TEC's export switches on a public page (API.md §19): `ical=1`, or `outlook-ical=1` (no X-WR-CALNAME). */
export function pageExport(request: FastifyRequest): 'ical' | 'outlook' | undefined {
  const query = isRecord(request.query) ? request.query : {};
  if (query['outlook-ical'] === '1') return 'outlook';
  return query.ical === '1' ? 'ical' : undefined;
}

/**
 * The iCalendar export of a page (API.md §19): an event page's file, or the feed of the page's
 * filters (`event_ids=1,2,3` read as `include`), as an attachment. `onMissing` answers when the
 * page would be a 404, which its export stays.
 */
export async function sendPageExport(
  deps: IcalDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  target: PageTarget,
  onMissing: () => FastifyReply,
): Promise<FastifyReply> {
  const ctx = anonymous(requestContext(request));
  const query = isRecord(request.query) ? request.query : {};
  const outlook = pageExport(request) === 'outlook';
  const include = query.event_ids !== undefined ? { include: query.event_ids } : {};
  try {
    if (target.kind === 'event') return await sendEventFile(deps, ctx, request, reply, target.id);
    const item =
      target.kind === 'term'
        ? {
            ...(await termBySlug(deps, ctx, target.taxonomy, target.slug)),
            param: target.taxonomy.path,
            slug: target.slug,
          }
        : await linkedItem(deps, ctx, target.linked, target.id);
    return await sendFeed(deps, ctx, request, reply, {
      extra: { ...include, [item.param]: String(item.id) },
      name: outlook ? null : calendarName(deps.config, item.name),
      filename: `${item.slug}.ics`,
      attachment: true,
    });
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return onMissing();
    throw error;
  }
}

async function linkedItem(deps: IcalDeps, ctx: RequestContext, kind: LinkedKind, id: number) {
  const post = await posts.findPostBase(deps.db, id);
  if (!post || post.type !== kind.type) throw new ApiError(kind.errors.notFound);
  return { ...(await linkedBySlug(deps, ctx, kind, post.slug)), param: kind.type, slug: post.slug };
}
