import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../../errors.js';
import { requestContext, type RequestContext } from '../../http/context.js';
import { ORGANIZER_KIND, VENUE_KIND, type LinkedKind } from '../linked/linked.kind.js';
import { CATEGORIES, TAGS, type Taxonomy } from '../terms/taxonomies.js';
import { sendIcal } from './ical.http.js';
import { calendarName } from './ical.render.js';
import { anonymous, eventFile, feed, feedInput, linkedBySlug, termBySlug, type IcalDeps } from './ical.service.js';

/** `{name}.ics` of a path segment; anything else is no route (API.md §1). */
function icsName(request: FastifyRequest): string {
  const match = /^(.+)\.ics$/.exec((request.params as { file: string }).file);
  if (!match) throw new ApiError('rest_no_route');
  return match[1];
}

type Handler = (ctx: RequestContext, request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply>;

/** The feed of `GET /events` with `extra` parameters, named `name` (API.md §19). */
export async function sendFeed(
  deps: IcalDeps,
  ctx: RequestContext,
  request: FastifyRequest,
  reply: FastifyReply,
  options: { extra?: Record<string, unknown>; name: string | null; filename: string; attachment?: boolean },
): Promise<FastifyReply> {
  const { input, defaultWindow } = feedInput(ctx, { ...(request.query as object), ...options.extra });
  const file = await feed(deps, ctx, input, { name: options.name, defaultWindow });
  return sendIcal(request, reply, file, {
    type: options.attachment ? 'attachment' : 'inline',
    filename: options.filename,
  });
}

/** One event's file, as an attachment (API.md §19). */
export async function sendEventFile(
  deps: IcalDeps,
  ctx: RequestContext,
  request: FastifyRequest,
  reply: FastifyReply,
  id: number,
): Promise<FastifyReply> {
  const { file, slug } = await eventFile(deps, ctx, id);
  return sendIcal(request, reply, file, { type: 'attachment', filename: `${slug}.ics` });
}

/**
 * The public iCalendar routes (API.md §19), outside the namespace and hidden from the OpenAPI
 * document of the JSON API (docs/api.md describes them). Every file is made for an anonymous reader.
 */
export function registerIcalRoutes(app: FastifyInstance, deps: IcalDeps): void {
  const schema = { hide: true };
  const route = (url: string, handle: Handler) =>
    app.get(url, { schema }, async (request, reply) => handle(anonymous(requestContext(request)), request, reply));

  route('/ical/events.ics', (ctx, request, reply) =>
    sendFeed(deps, ctx, request, reply, { name: calendarName(ctx.config), filename: 'events.ics' }),
  );
  route('/ical/events/:file', (ctx, request, reply) => {
    const id = icsName(request);
    if (!/^\d+$/.test(id)) throw new ApiError('rest_no_route');
    return sendEventFile(deps, ctx, request, reply, Number(id));
  });
  for (const taxonomy of [CATEGORIES, TAGS] as Taxonomy[]) {
    route(`/ical/${taxonomy.path}/:file`, async (ctx, request, reply) => {
      const slug = icsName(request);
      const term = await termBySlug(ctx, taxonomy, slug);
      return sendFeed(deps, ctx, request, reply, {
        extra: { [taxonomy.path]: String(term.id) },
        name: calendarName(ctx.config, term.name),
        filename: `${slug}.ics`,
      });
    });
  }
  for (const kind of [VENUE_KIND, ORGANIZER_KIND] as LinkedKind[]) {
    route(`/ical/${kind.path}/:file`, async (ctx, request, reply) => {
      const slug = icsName(request);
      const item = await linkedBySlug(ctx, kind, slug);
      return sendFeed(deps, ctx, request, reply, {
        extra: { [kind.type]: String(item.id) },
        name: calendarName(ctx.config, item.name),
        filename: `${slug}.ics`,
      });
    });
  }
}
