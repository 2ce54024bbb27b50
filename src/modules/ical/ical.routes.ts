import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isRecord } from '../../domain/params.js';
import { ApiError } from '../../errors.js';
import { requestContext, type RequestContext } from '../../http/context.js';
import { ORGANIZER_KIND, VENUE_KIND, type LinkedKind } from '../linked/linked.kind.js';
import { CATEGORIES, TAGS, type Taxonomy } from '../terms/taxonomies.js';
import { sendIcal } from './ical.http.js';
import { calendarName } from './ical.render.js';
import { anonymous, eventFile, feed, feedInput, linkedBySlug, termBySlug, type IcalDeps } from './ical.service.js';

/** `{name}.ics` of a path segment; anything else is no route (API.md §1). */
function icsName(file: string): string {
  const match = /^(.+)\.ics$/.exec(file);
  if (!match) throw new ApiError('rest_no_route');
  return match[1];
}

/** Path parameters are strings, named by the route's path. */
type ByFile = { Params: { file: string } };

/** The feed of `GET /events` with `extra` parameters, named `name` (API.md §19). */
export async function sendFeed(
  deps: IcalDeps,
  ctx: RequestContext,
  request: FastifyRequest,
  reply: FastifyReply,
  options: { extra?: Record<string, unknown>; name: string | null; filename: string; attachment?: boolean },
): Promise<FastifyReply> {
  const query = isRecord(request.query) ? request.query : {};
  const { input, defaultWindow } = feedInput(deps.config, ctx, { ...query, ...options.extra });
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
  const { config } = deps;
  /** A route of `{name}.ics` files: `handle` gets the name. */
  const fileRoute = (
    url: string,
    handle: (ctx: RequestContext, request: FastifyRequest, reply: FastifyReply, name: string) => Promise<FastifyReply>,
  ) =>
    app.get<ByFile>(url, { schema }, async (request, reply) =>
      handle(anonymous(requestContext(request)), request, reply, icsName(request.params.file)),
    );

  app.get('/ical/events.ics', { schema }, async (request, reply) =>
    sendFeed(deps, anonymous(requestContext(request)), request, reply, {
      name: calendarName(config),
      filename: 'events.ics',
    }),
  );
  fileRoute('/ical/events/:file', (ctx, request, reply, id) => {
    if (!/^\d+$/.test(id)) throw new ApiError('rest_no_route');
    return sendEventFile(deps, ctx, request, reply, Number(id));
  });
  const taxonomies: readonly Taxonomy[] = [CATEGORIES, TAGS];
  for (const taxonomy of taxonomies) {
    fileRoute(`/ical/${taxonomy.path}/:file`, async (ctx, request, reply, slug) => {
      const term = await termBySlug(deps, ctx, taxonomy, slug);
      return sendFeed(deps, ctx, request, reply, {
        extra: { [taxonomy.path]: String(term.id) },
        name: calendarName(config, term.name),
        filename: `${slug}.ics`,
      });
    });
  }
  const kinds: readonly LinkedKind[] = [VENUE_KIND, ORGANIZER_KIND];
  for (const kind of kinds) {
    fileRoute(`/ical/${kind.path}/:file`, async (ctx, request, reply, slug) => {
      const item = await linkedBySlug(deps, ctx, kind, slug);
      return sendFeed(deps, ctx, request, reply, {
        extra: { [kind.type]: String(item.id) },
        name: calendarName(config, item.name),
        filename: `${slug}.ics`,
      });
    });
  }
}
