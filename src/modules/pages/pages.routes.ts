import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { requestContext, type RequestContext } from '../../http/context.js';
import { autoParagraph } from '../../domain/html.js';
import { ApiError } from '../../errors.js';
import { formatLocal } from '../events/events.dates.js';
import type { EventsModule } from '../events/events.module.js';
import { listEventPage } from '../events/listing/listing.js';
import { findEvents } from '../events/events.repository.js';
import * as eventsService from '../events/events.service.js';
import { ORGANIZER_KIND, VENUE_KIND, type LinkedKind } from '../linked/linked.kind.js';
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
  const { row, venue } = await eventsService.readEvent(ctx, events.state, { id }, undefined);
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

async function linkedPage(ctx: RequestContext, kind: LinkedKind, id: number): Promise<PageContent> {
  const row = await readLinked(ctx, kind, { id });
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
  const languages = { lang: ctx.lang, defaultLang: ctx.config.defaultLanguage };
  const id = await termsRepo.findTermIdBySlug(ctx.db, taxonomy.key, slug, languages);
  const term = id !== undefined ? await termsRepo.findTerm(ctx.db, taxonomy.key, id, languages) : undefined;
  if (!term) throw new ApiError('rest_term_invalid');
  const page = await listEventPage(ctx, events, {
    page: 1,
    per_page: ctx.config.maxPerPage,
    strict_dates: false,
    [taxonomy.path]: [String(term.id)],
  });
  return {
    lang: ctx.lang,
    title: term.name,
    restUrl: ctx.urls.rest(`${taxonomy.path}/${term.id}`),
    facts: [],
    bodyHtml: term.description,
    links: (await findEvents(ctx.db, page.ids, languages)).map((row) => ({
      href: ctx.urls.page(`/event/${encodeURIComponent(row.slug)}/`),
      text: `${row.title} (${formatLocal(row.start_utc, row.timezone)})`,
    })),
  };
}

async function postIdBySlug(ctx: RequestContext, type: string, slug: string): Promise<number> {
  const id = await posts.findPostIdBySlug(ctx.db, type, slug);
  if (id === undefined) throw new ApiError('rest_term_invalid');
  return id;
}

const POST_TYPES: Record<string, (ctx: RequestContext, events: EventsModule, id: number) => Promise<PageContent>> = {
  tribe_events: eventPage,
  tribe_venue: (ctx, _events, id) => linkedPage(ctx, VENUE_KIND, id),
  tribe_organizer: (ctx, _events, id) => linkedPage(ctx, ORGANIZER_KIND, id),
};

/** Public pages at the `url` of events, venues, organizers, categories and tags (API.md §8). */
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
  const slugOf = (request: FastifyRequest) => (request.params as { slug: string }).slug;
  app.get('/event/:slug', { schema }, async (request, reply) => {
    const ctx = requestContext(request);
    const id = () => postIdBySlug(ctx, 'event', slugOf(request));
    return page(
      request,
      reply,
      async () => ({ kind: 'event', id: await id() }),
      async () => eventPage(ctx, events, await id()),
    );
  });
  for (const kind of [VENUE_KIND, ORGANIZER_KIND]) {
    app.get(`/${kind.type}/:slug`, { schema }, async (request, reply) => {
      const ctx = requestContext(request);
      const id = () => postIdBySlug(ctx, kind.type, slugOf(request));
      return page(
        request,
        reply,
        async () => ({ kind: 'linked', linked: kind, id: await id() }),
        async () => linkedPage(ctx, kind, await id()),
      );
    });
  }
  app.get('/events/category/*', { schema }, async (request, reply) => {
    const path = (request.params as { '*': string })['*'].split('/').filter((s) => s !== '');
    const slug = decodeURIComponent(path[path.length - 1] ?? '');
    return page(
      request,
      reply,
      async () => ({ kind: 'term', taxonomy: CATEGORIES, slug }),
      (ctx) => termPage(ctx, events, CATEGORIES, slug),
    );
  });
  app.get('/tag/:slug', { schema }, async (request, reply) =>
    page(
      request,
      reply,
      async () => ({ kind: 'term', taxonomy: TAGS, slug: slugOf(request) }),
      (ctx) => termPage(ctx, events, TAGS, slugOf(request)),
    ),
  );
  app.get('/', { schema }, async (request, reply) => {
    const ctx = requestContext(request);
    const query = request.query as { post_type?: string; p?: string };
    const render = query.post_type ? POST_TYPES[query.post_type] : undefined;
    const target = query.post_type ? TARGETS[query.post_type] : undefined;
    if (!render || !target || !/^\d+$/.test(query.p ?? '')) return sendPage(reply, notFoundPage(ctx.lang), 404);
    return page(
      request,
      reply,
      async () => target(Number(query.p)),
      () => render(ctx, events, Number(query.p)),
    );
  });
}
