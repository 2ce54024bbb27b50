import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { requestContext, type RequestContext } from '../../http/context.js';
import type { Db } from '../../db/schema.js';
import { autoParagraph } from '../../domain/html.js';
import { isRecord } from '../../domain/params.js';
import { ApiError } from '../../errors.js';
import { formatLocal } from '../events/events.dates.js';
import type { EventsModule } from '../events/events.module.js';
import { listEventPage } from '../events/listing/listing.js';
import { findEvents } from '../events/events.repository.js';
import { eventPageUrl } from '../events/events.present.js';
import * as eventsService from '../events/events.service.js';
import { ORGANIZER_KIND, VENUE_KIND, type LinkedKind } from '../linked/linked.kind.js';
import type { LinkedModule } from '../linked/linked.module.js';
import { readLinked } from '../linked/linked.service.js';
import * as posts from '../posts/posts.repository.js';
import * as termsRepo from '../terms/terms.repository.js';
import { CATEGORIES, TAGS, type Taxonomy } from '../terms/taxonomies.js';
import { notFoundPage, renderPage, type PageContent } from './pages.render.js';
import { pageExport, sendPageExport, type PageTarget } from '../ical/ical.pages.js';
import type { IcalDeps } from '../ical/ical.service.js';

function sendPage(reply: FastifyReply, html: string, status = 200): FastifyReply {
  return reply.code(status).type('text/html; charset=utf-8').send(html);
}

/** Renders a page, or the HTML 404 when the item is unknown or not public. */
async function respond(
  ctx: RequestContext,
  reply: FastifyReply,
  build: () => Promise<PageContent>,
): Promise<FastifyReply> {
  try {
    return sendPage(reply, renderPage(await build()));
  } catch (error) {
    if (error instanceof ApiError && error.status < 500) return sendPage(reply, notFoundPage(ctx.lang), 404);
    throw error;
  }
}

async function eventPage(ctx: RequestContext, events: EventsModule, id: number): Promise<PageContent> {
  const { row, venue } = await eventsService.readEvent(events.state, ctx, { id }, undefined);
  return {
    lang: ctx.lang,
    title: row.title,
    restUrl: ctx.urls.rest(`events/${row.id}`),
    facts: [
      `${formatLocal(row.start_utc, row.timezone)} – ${formatLocal(row.end_utc, row.timezone)} (${row.timezone})`,
      venue ? venue.title : '',
    ],
    bodyHtml: autoParagraph(row.description),
    links: venue ? [{ href: ctx.urls.page(`/venue/${encodeURIComponent(venue.slug)}/`), text: venue.title }] : [],
  };
}

async function linkedPage(
  ctx: RequestContext,
  linked: LinkedModule,
  kind: LinkedKind,
  id: number,
): Promise<PageContent> {
  const row = await readLinked(linked, ctx, kind, { id });
  const details = Object.values(row.details).filter((v): v is string => typeof v === 'string' && v !== '');
  return {
    lang: ctx.lang,
    title: row.title,
    restUrl: ctx.urls.rest(`${kind.path}/${row.id}`),
    facts: [details.join(', ')],
    bodyHtml: autoParagraph(row.description),
    links: [],
  };
}

async function termPage(
  ctx: RequestContext,
  events: EventsModule,
  taxonomy: Taxonomy,
  slug: string,
): Promise<PageContent> {
  const { db, config } = events.state;
  const languages = { lang: ctx.lang, defaultLang: config.defaultLanguage };
  const id = await termsRepo.findTermIdBySlug(db, taxonomy.key, slug, languages);
  const term = id !== undefined ? await termsRepo.findTerm(db, taxonomy.key, id, languages) : undefined;
  if (!term) throw new ApiError('rest_term_invalid');
  const page = await listEventPage(events, ctx, {
    page: 1,
    per_page: config.maxPerPage,
    strict_dates: false,
    expand: true,
    [taxonomy.path]: [String(term.id)],
  });
  return {
    lang: ctx.lang,
    title: term.name,
    restUrl: ctx.urls.rest(`${taxonomy.path}/${term.id}`),
    facts: [],
    bodyHtml: term.description,
    links: (await findEvents(db, page.ids, languages)).map((row) => ({
      href: eventPageUrl(ctx, row),
      text: `${row.title} (${formatLocal(row.start_utc, row.timezone)})`,
    })),
  };
}

async function postIdBySlug(db: Db, type: string, slug: string): Promise<number> {
  const id = await posts.findPostIdBySlug(db, type, slug);
  if (id === undefined) throw new ApiError('rest_term_invalid');
  return id;
}

const POST_TYPES: Record<string, (ctx: RequestContext, events: EventsModule, id: number) => Promise<PageContent>> = {
  tribe_events: eventPage,
  tribe_venue: (ctx, events, id) => linkedPage(ctx, events.state.linked, VENUE_KIND, id),
  tribe_organizer: (ctx, events, id) => linkedPage(ctx, events.state.linked, ORGANIZER_KIND, id),
};

/** Path parameters are strings, named by the route's path. */
type BySlug = { Params: { slug: string } };

/** The page of a post id as its iCalendar export sees it (`?post_type=…&p=…` pages). */
const TARGETS: Record<string, (id: number) => PageTarget> = {
  tribe_events: (id) => ({ kind: 'event', id }),
  tribe_venue: (id) => ({ kind: 'linked', linked: VENUE_KIND, id }),
  tribe_organizer: (id) => ({ kind: 'linked', linked: ORGANIZER_KIND, id }),
};

/**
 * Public pages at the `url` of events, venues, organizers, categories and tags (API.md §8), and
 * their iCalendar export with `?ical=1` / `?outlook-ical=1` (API.md §19).
 */
export function registerPageRoutes(app: FastifyInstance, events: EventsModule, ical: IcalDeps): void {
  const schema = { hide: true };
  const { db, linked } = events.state;
  /** Renders the page, or its export when asked for; `target` is read only then. */
  const page = async (
    request: FastifyRequest,
    reply: FastifyReply,
    target: () => Promise<PageTarget>,
    build: (ctx: RequestContext) => Promise<PageContent>,
  ) => {
    const ctx = requestContext(request);
    const missing = () => sendPage(reply, notFoundPage(ctx.lang), 404);
    if (!pageExport(request)) return respond(ctx, reply, () => build(ctx));
    let resolved: PageTarget;
    try {
      resolved = await target();
    } catch (error) {
      if (error instanceof ApiError && error.status < 500) return missing();
      throw error;
    }
    return sendPageExport(ical, request, reply, resolved, missing);
  };
  app.get<BySlug>('/event/:slug', { schema }, async (request, reply) => {
    const id = () => postIdBySlug(db, 'event', request.params.slug);
    return page(
      request,
      reply,
      async () => ({ kind: 'event', id: await id() }),
      async (ctx) => eventPage(ctx, events, await id()),
    );
  });
  // An occurrence's page (API.md §20.2): its series' slug, the local date of its original start, its rank that day.
  type ByDate = { Params: { slug: string; date: string; n?: string } };
  for (const path of [
    '/event/:slug/:date(^\\d{4}-\\d{2}-\\d{2})',
    '/event/:slug/:date(^\\d{4}-\\d{2}-\\d{2})/:n(^\\d+)',
  ])
    app.get<ByDate>(path, { schema }, async (request, reply) => {
      const { slug, date, n } = request.params;
      const id = () =>
        eventsService.occurrenceIdBySlug(events.state, slug, date, n === undefined ? undefined : Number(n));
      return page(
        request,
        reply,
        async () => ({ kind: 'event', id: await id() }),
        async (ctx) => eventPage(ctx, events, await id()),
      );
    });
  for (const kind of [VENUE_KIND, ORGANIZER_KIND]) {
    app.get<BySlug>(`/${kind.type}/:slug`, { schema }, async (request, reply) => {
      const id = () => postIdBySlug(db, kind.type, request.params.slug);
      return page(
        request,
        reply,
        async () => ({ kind: 'linked', linked: kind, id: await id() }),
        async (ctx) => linkedPage(ctx, linked, kind, await id()),
      );
    });
  }
  app.get<{ Params: { '*': string } }>('/events/category/*', { schema }, async (request, reply) => {
    const path = request.params['*'].split('/').filter((s) => s !== '');
    const slug = decodeURIComponent(path[path.length - 1] ?? '');
    return page(
      request,
      reply,
      async () => ({ kind: 'term', taxonomy: CATEGORIES, slug }),
      (ctx) => termPage(ctx, events, CATEGORIES, slug),
    );
  });
  app.get<BySlug>('/tag/:slug', { schema }, async (request, reply) =>
    page(
      request,
      reply,
      async () => ({ kind: 'term', taxonomy: TAGS, slug: request.params.slug }),
      (ctx) => termPage(ctx, events, TAGS, request.params.slug),
    ),
  );
  app.get('/', { schema }, async (request, reply) => {
    const ctx = requestContext(request);
    const query: Record<string, unknown> = isRecord(request.query) ? request.query : {};
    const { post_type: postType, p } = query;
    const known = typeof postType === 'string' && postType !== '';
    const render = known ? POST_TYPES[postType] : undefined;
    const target = known ? TARGETS[postType] : undefined;
    if (!render || !target || typeof p !== 'string' || !/^\d+$/.test(p))
      return sendPage(reply, notFoundPage(ctx.lang), 404);
    return page(
      request,
      reply,
      async () => target(Number(p)),
      () => render(ctx, events, Number(p)),
    );
  });
}
