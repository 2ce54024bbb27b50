import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DateTime } from 'luxon';
import { isRecord } from '../../domain/params.js';
import { zoneOf } from '../../domain/timezones.js';
import { ApiError } from '../../errors.js';
import { requestContext, type RequestContext } from '../../http/context.js';
import { totalPages } from '../../http/lists.js';
import { translate } from '../../i18n/translate.js';
import type { VersionedCache } from '../../cache/lru.js';
import { MB, type CacheMaker } from '../../cache/maker.js';
import * as eventsService from '../events/events.service.js';
import type { EventsModule } from '../events/events.module.js';
import { presentEventJsonLd } from '../events/events.present.js';
import type { EventRow } from '../events/events.repository.js';
import type { EventListInput } from '../events/listing/input.js';
import { sendFeed } from '../ical/ical.routes.js';
import { calendarName } from '../ical/ical.render.js';
import { pageExport, sendPageExport, type PageTarget } from '../ical/ical.pages.js';
import { anonymous, type IcalDeps } from '../ical/ical.service.js';
import { ORGANIZER_KIND, VENUE_KIND, type LinkedKind } from '../linked/linked.kind.js';
import { languages, readLinked } from '../linked/linked.service.js';
import * as posts from '../posts/posts.repository.js';
import * as termsRepo from '../terms/terms.repository.js';
import { CATEGORIES, TAGS, type Taxonomy } from '../terms/taxonomies.js';
import { filterQuery, pageInput, periodEvents, upcomingPage } from '../site/data.js';
import { eventBody, eventHead } from '../site/event-page.js';
import { eventPath } from '../site/parts.js';
import { isoDay } from '../site/format.js';
import { html, trusted, type Html } from '../site/html.js';
import { renderShell, SiteLinks, type Pairs, type PageShell } from '../site/layout.js';
import {
  dayLists,
  eventsByDay,
  filterForm,
  listBody,
  monthGrid,
  periodNav,
  subscribeLinks,
  type FilterChoices,
  type ListState,
} from '../site/lists.js';
import { localeOf, text } from '../site/texts.js';
import { itemDetails } from '../site/item-page.js';
import { htmlNotFound } from '../site/errors.js';
import { readPublicFile } from '../site/assets.js';

/** What a page handler returns: the shell without its links (made once per request). */
type Page = Omit<PageShell, 'links'>;

/**
 * How long a rendered page stays right besides writes (which change the data version): lists of
 * events not yet ended change by the minute, period views (today's highlight) by the day, event
 * pages only with the data.
 */
type Freshness = 'minute' | 'day' | 'data';

/** The query of a request without the language parameter, as pairs (the switcher's links keep the rest). */
function ownQuery(request: FastifyRequest): Pairs {
  const query = isRecord(request.query) ? request.query : {};
  return Object.entries(query)
    .filter(([name, value]) => name !== 'i18n_language' && typeof value === 'string')
    .map(([name, value]) => [name, String(value)] as const);
}

export function siteLinksOf(request: FastifyRequest, ctx: RequestContext): SiteLinks {
  const path = request.url.split('?')[0];
  return new SiteLinks(request.server.calendar.config, ctx.language, { path, query: ownQuery(request) });
}

export function sendHtml(reply: FastifyReply, body: string, status = 200): FastifyReply {
  return reply.code(status).type('text/html; charset=utf-8').send(body);
}

/** A bad filter (API.md §23.1): the HTML 400 page naming the parameter, in the page's language. */
function badRequestPage(links: SiteLinks, error: ApiError): string {
  const lang = links.lang;
  const names = error.options.invalid ? [...error.options.invalid.keys()] : (error.options.missing ?? []);
  const messages = error.options.invalid
    ? [...error.options.invalid].map(
        ([name, problem]) => `${name}: ${translate(lang, problem.message, { param: name, ...problem.vars })}`,
      )
    : [translate(lang, error.messageKey)];
  return renderShell({
    links,
    title: text(lang, 'bad_request'),
    body: html`<section class="message-page">
      <h1>${text(lang, 'bad_request')}</h1>
      <ul>
        ${messages.map((message) => html`<li>${message}</li>`)}
      </ul>
      <p>${names.length > 0 ? html`<code>${names.join(', ')}</code>` : ''}</p>
      <p><a href="${links.to('/events/')}">${text(lang, 'back')}</a></p>
    </section>`,
  });
}

/**
 * Serves a page to an anonymous reader (API.md §23.1: credentials never change public pages): a
 * 400 page for bad filters, the 404 page for anything unknown or not public.
 */
async function servePage(
  pages: VersionedCache<string>,
  request: FastifyRequest,
  reply: FastifyReply,
  freshness: Freshness,
  build: (ctx: RequestContext, links: SiteLinks) => Promise<Page>,
): Promise<FastifyReply> {
  const ctx = anonymous(requestContext(request));
  const links = siteLinksOf(request, ctx);
  const { siteTimezone } = request.server.calendar.config;
  const moment =
    freshness === 'minute'
      ? String(Math.floor(ctx.now.toSeconds() / 60))
      : freshness === 'day'
        ? (ctx.now.setZone(zoneOf(siteTimezone)).toISODate() ?? '')
        : '';
  try {
    const key = `${links.lang}|${links.prefix}|${moment}|${request.url}`;
    const body = await pages.computed(key, await ctx.dataVersion(), async () =>
      renderShell({ ...(await build(ctx, links)), links }),
    );
    return sendHtml(reply, body);
  } catch (error) {
    if (!(error instanceof ApiError) || error.status >= 500) throw error;
    if (error.status === 400) return sendHtml(reply, badRequestPage(links, error), 400);
    return htmlNotFound(request, reply);
  }
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const MONTH = /^(\d{4})-(\d{2})$/;

/** A path date in the site's zone; a bad one is the 404 page (API.md §23.1). */
function pathDay(value: string | undefined, today: DateTime, pattern: RegExp): DateTime {
  if (value === undefined || value === '') return today;
  const match = pattern.exec(value);
  const day = match ? DateTime.fromISO(value, { zone: today.zone }) : undefined;
  if (!day?.isValid) throw new ApiError('rest_no_route');
  return day.startOf('day');
}

export interface SiteDeps {
  readonly events: EventsModule;
  readonly ical: IcalDeps;
}

/** The category and tag choices of the filter form: terms with published events, in the page's language. */
async function filterChoices(deps: SiteDeps, ctx: RequestContext): Promise<FilterChoices> {
  const { db, config } = deps.events.state;
  const langs = { lang: ctx.lang, defaultLang: config.defaultLanguage };
  const list = (taxonomy: Taxonomy) =>
    termsRepo.listTerms(
      db,
      { taxonomy: taxonomy.key, hideEmpty: true },
      { orderby: 'name', direction: 'asc' },
      langs,
      200,
      0,
    );
  const [categories, tags] = await Promise.all([list(CATEGORIES), list(TAGS)]);
  return { categories, tags };
}

function feedOf(links: SiteLinks, query: Pairs): string {
  return links.absolute('/ical/events.ics', query).replace(`${links.prefix}/ical/`, '/ical/');
}

/** The `/events/` list and the item pages: upcoming events, paged (API.md §23.1). */
async function upcomingList(
  deps: SiteDeps,
  ctx: RequestContext,
  links: SiteLinks,
  request: FastifyRequest,
  path: string,
  fixed: Record<string, string> = {},
  narrowed: Partial<EventListInput> = {},
): Promise<{ body: Html; total: number }> {
  const query = isRecord(request.query) ? request.query : {};
  const input = { ...pageInput(ctx, { ...query, ...fixed }), ...narrowed };
  const perPage = deps.events.state.config.defaultPerPage;
  const { bundles, total } = await upcomingPage(deps.events, ctx, input, perPage);
  const state: ListState = { links, path, filters: filterQuery(query) };
  return { body: listBody(state, bundles, input.page, totalPages(total, perPage)), total };
}

export function registerPageRoutes(app: FastifyInstance, events: EventsModule, ical: IcalDeps, keep: CacheMaker): void {
  const deps: SiteDeps = { events, ical };
  // Rendered pages under the current data version (a write anywhere makes them all out of date).
  const pages = keep<string>(2_000, 64 * MB, (body) => body.length);
  const serve = (
    request: FastifyRequest,
    reply: FastifyReply,
    freshness: Freshness,
    build: (ctx: RequestContext, links: SiteLinks) => Promise<Page>,
  ) => servePage(pages, request, reply, freshness, build);
  const { db, config, linked } = events.state;
  const schema = { hide: true };
  const siteZone = zoneOf(config.siteTimezone);
  const todayOf = (ctx: RequestContext) => ctx.now.setZone(siteZone).startOf('day');

  const assets = [
    ['site.css', 'text/css; charset=utf-8'],
    ['theme.css', 'text/css; charset=utf-8'],
    ['editor.js', 'text/javascript; charset=utf-8'],
  ] as const;
  for (const [name, type] of assets) {
    const body = readPublicFile(name);
    app.get(`/assets/${name}`, { schema }, async (_request, reply) =>
      reply.type(type).header('Cache-Control', 'public, max-age=3600').send(body),
    );
  }

  /** A list view's filters, form and subscribe links. */
  const listState = (request: FastifyRequest, links: SiteLinks, path: string): ListState => ({
    links,
    path,
    filters: filterQuery(request.query),
  });
  const listHead = (links: SiteLinks, state: ListState) =>
    html`<link rel="alternate" type="text/calendar" href="${feedOf(links, state.filters)}">`;
  const controls = async (ctx: RequestContext, state: ListState) =>
    html`${filterForm(state, await filterChoices(deps, ctx))}${subscribeLinks(state, feedOf(state.links, state.filters), state.filters)}`;

  app.get('/events', { schema }, async (request, reply) => {
    if (pageExport(request))
      return sendFeed(ical, anonymous(requestContext(request)), request, reply, {
        name: pageExport(request) === 'outlook' ? null : calendarName(config),
        filename: 'events.ics',
        attachment: true,
      });
    return serve(request, reply, 'minute', async (ctx, links) => {
      const state = listState(request, links, '/events/');
      const list = await upcomingList(deps, ctx, links, request, '/events/');
      return {
        title: text(ctx.lang, 'upcoming_events'),
        section: 'list',
        head: listHead(links, state),
        body: html`<h1>${text(ctx.lang, 'upcoming_events')}</h1>
          ${await controls(ctx, state)}${list.body}`,
      };
    });
  });

  /** A month, week or day page: its period in the site's zone, the events whose local span overlaps it. */
  const periodRoute = (
    kind: 'month' | 'week' | 'day',
    period: (day: DateTime) => {
      first: DateTime;
      last: DateTime;
      step: { months?: number; weeks?: number; days?: number };
    },
    pathOf: (day: DateTime) => string,
    body: (
      state: ListState,
      first: DateTime,
      last: DateTime,
      ctx: RequestContext,
      bundles: Awaited<ReturnType<typeof periodEvents>>,
    ) => Html,
    title: (first: DateTime, last: DateTime) => string,
  ) => {
    const handler = async (request: FastifyRequest<{ Params: { date?: string } }>, reply: FastifyReply) => {
      const ctx0 = anonymous(requestContext(request));
      let day: DateTime;
      try {
        day = pathDay(request.params.date, todayOf(ctx0), kind === 'month' ? MONTH : DATE);
      } catch {
        return htmlNotFound(request, reply);
      }
      const { first, last, step } = period(day);
      if (pageExport(request))
        return sendFeed(ical, ctx0, request, reply, {
          extra: { start_date: isoDay(first), end_date: isoDay(last) },
          name: pageExport(request) === 'outlook' ? null : calendarName(config),
          filename: 'events.ics',
          attachment: true,
        });
      return serve(request, reply, 'day', async (ctx, links) => {
        const state = listState(request, links, pathOf(day));
        const input = pageInput(ctx, request.query);
        // Events are placed on the days of their own zone (API.md §25.6): a day's margin each side.
        const bundles = await periodEvents(events, ctx, input, first.minus({ days: 1 }), last.plus({ days: 2 }));
        const locale = localeOf(ctx.lang);
        const heading = title(first.setLocale(locale), last.setLocale(locale));
        const nav = periodNav(state, pathOf(first.minus(step)), pathOf(first.plus(step)), `/events/${kind}/`, heading);
        return {
          title: heading,
          section: kind,
          head: listHead(links, state),
          body: html`<h1>${heading}</h1>
            ${await controls(ctx, state)}${nav}${body(state, first, last, ctx, bundles)}`,
        };
      });
    };
    app.get(`/events/${kind}`, { schema }, handler);
    app.get(`/events/${kind}/:date`, { schema }, handler);
  };

  periodRoute(
    'month',
    (day) => ({ first: day.startOf('month'), last: day.endOf('month').startOf('day'), step: { months: 1 } }),
    (day) => `/events/month/${day.toFormat('yyyy-MM')}/`,
    (state, first, _last, ctx, bundles) => monthGrid(state, first, bundles, isoDay(todayOf(ctx))),
    (first) => first.toLocaleString({ month: 'long', year: 'numeric' }),
  );
  periodRoute(
    'week',
    (day) => ({ first: day.startOf('week'), last: day.endOf('week').startOf('day'), step: { weeks: 1 } }),
    (day) => `/events/week/${isoDay(day)}/`,
    (state, first, last, _ctx, bundles) => dayLists(state, eventsByDay(bundles, first, last), true),
    (first, last) =>
      `${first.toLocaleString({ day: 'numeric', month: 'long' })} – ${last.toLocaleString(DateTime.DATE_FULL)}`,
  );
  periodRoute(
    'day',
    (day) => ({ first: day, last: day, step: { days: 1 } }),
    (day) => `/events/day/${isoDay(day)}/`,
    (state, first, last, _ctx, bundles) => dayLists(state, eventsByDay(bundles, first, last), true),
    (first) => first.toLocaleString(DateTime.DATE_HUGE),
  );

  // TEC's URLs (API.md §23.1): permanent redirects, query kept.
  const redirect = (request: FastifyRequest, reply: FastifyReply, path: string) => {
    const ctx = requestContext(request);
    const search = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
    const prefix = ctx.language.source === 'path' ? `/${ctx.lang}` : '';
    return reply.code(301).redirect(`${prefix}${path}${search}`, 301);
  };
  app.get('/events/list', { schema }, async (request, reply) => redirect(request, reply, '/events/'));
  app.get('/events/today', { schema }, async (request, reply) => redirect(request, reply, '/events/day/'));
  app.get<{ Params: { date: string } }>('/events/:date', { schema }, async (request, reply) => {
    if (!DATE.test(request.params.date)) return htmlNotFound(request, reply);
    return redirect(request, reply, `/events/day/${request.params.date}/`);
  });

  /** An item page, or its iCalendar export when asked for (API.md §19). */
  const itemPage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    target: () => Promise<PageTarget>,
    build: (ctx: RequestContext, links: SiteLinks) => Promise<Page>,
    freshness: Freshness = 'minute',
  ) => {
    if (!pageExport(request)) return serve(request, reply, freshness, build);
    let resolved: PageTarget;
    try {
      resolved = await target();
    } catch (error) {
      if (error instanceof ApiError && error.status < 500) return htmlNotFound(request, reply);
      throw error;
    }
    return sendPageExport(ical, request, reply, resolved, () => htmlNotFound(request, reply));
  };
  const postId = async (type: string, slug: string) => {
    const id = await posts.findPostIdBySlug(db, type, slug);
    if (id === undefined) throw new ApiError('rest_no_route');
    return id;
  };

  const eventPage = async (
    request: FastifyRequest,
    ctx: RequestContext,
    links: SiteLinks,
    id: number,
  ): Promise<Page> => {
    const post = await posts.findPostBase(db, id);
    // Only published events have public pages (API.md §23.1); the API's read rules decide the rest.
    if (!post || post.type !== 'event' || post.status !== 'publish') throw new ApiError('rest_no_route');
    const bundle = await eventsService.loadEvent(events.state, ctx, id);
    const locked = bundle.row.password !== '';
    const url = links.absolute(eventPath(bundle.row));
    const data = {
      bundle,
      url,
      icalUrl: ctx.urls.ical(`events/${id}.ics`),
      restUrl: ctx.urls.rest(`events/${id}`),
      jsonLd: locked ? undefined : presentEventJsonLd(config, ctx, bundle),
    };
    return {
      title: bundle.row.title,
      head: eventHead(data),
      body: html`${eventBody(links, data)}${locked ? '' : await seriesDates(request, ctx, links, bundle.row)}`,
    };
  };
  /** A series' page lists its upcoming dates, each linking to its occurrence's page (API.md §23.1, §20.2). */
  const seriesDates = async (request: FastifyRequest, ctx: RequestContext, links: SiteLinks, row: EventRow) => {
    if (row.recurrence === null || row.series_id !== null) return html``;
    const path = eventPath(row);
    const filter = { post_parent: row.id };
    const list = await upcomingList(deps, ctx, links, request, path, {}, filter);
    return html`<section class="series-dates">
      <h2 class="section-title">${text(ctx.lang, 'upcoming')}</h2>
      ${list.body}
    </section>`;
  };
  app.get<{ Params: { slug: string } }>('/event/:slug', { schema }, async (request, reply) =>
    itemPage(
      request,
      reply,
      async () => ({ kind: 'event', id: await postId('event', request.params.slug) }),
      async (ctx, links) => eventPage(request, ctx, links, await postId('event', request.params.slug)),
      'data',
    ),
  );

  // An occurrence of a recurring series (API.md §20.2): `/event/{series slug}/{date}/[{n}/]`.
  type ByOccurrence = { Params: { slug: string; date: string; n?: string } };
  const occurrenceId = (params: ByOccurrence['Params']) => {
    if (!DATE.test(params.date) || (params.n !== undefined && !/^\d+$/.test(params.n)))
      throw new ApiError('rest_no_route');
    return eventsService.occurrenceIdBySlug(
      events.state,
      params.slug,
      params.date,
      params.n === undefined ? undefined : Number(params.n),
    );
  };
  for (const path of ['/event/:slug/:date', '/event/:slug/:date/:n']) {
    app.get<ByOccurrence>(path, { schema }, async (request, reply) =>
      itemPage(
        request,
        reply,
        async () => ({ kind: 'event', id: await occurrenceId(request.params) }),
        async (ctx, links) => eventPage(request, ctx, links, await occurrenceId(request.params)),
        'data',
      ),
    );
  }

  const linkedPage = async (
    request: FastifyRequest,
    ctx: RequestContext,
    links: SiteLinks,
    kind: LinkedKind,
    id: number,
  ): Promise<Page> => {
    const row = await readLinked(linked, ctx, kind, { id });
    if (row.status !== 'publish') throw new ApiError('rest_no_route');
    const path = `/${kind.type}/${encodeURIComponent(row.slug)}/`;
    const list = await upcomingList(deps, ctx, links, request, path, { [kind.type]: String(id) });
    const state = listState(request, links, path);
    const feed = links
      .absolute(`/ical/${kind.path}/${encodeURIComponent(row.slug)}.ics`)
      .replace(`${links.prefix}/ical/`, '/ical/');
    return {
      title: row.title,
      head: html`<link rel="alternate" type="text/calendar" href="${feed}">`,
      body: html`<header class="item-header">
          <h1>${row.title}</h1>
          ${itemDetails(links, kind, row)}
        </header>
        ${row.password === '' && row.description !== '' ? html`<div class="item-description">${trusted(row.description)}</div>` : ''}
        <h2 class="section-title">${text(ctx.lang, 'upcoming_events')}</h2>
        ${subscribeLinks(state, feed, [])}${list.body}`,
    };
  };
  for (const kind of [VENUE_KIND, ORGANIZER_KIND]) {
    app.get<{ Params: { slug: string } }>(`/${kind.type}/:slug`, { schema }, async (request, reply) =>
      itemPage(
        request,
        reply,
        async () => ({ kind: 'linked', linked: kind, id: await postId(kind.type, request.params.slug) }),
        async (ctx, links) => linkedPage(request, ctx, links, kind, await postId(kind.type, request.params.slug)),
      ),
    );
  }

  const termPage = async (
    request: FastifyRequest,
    ctx: RequestContext,
    links: SiteLinks,
    taxonomy: Taxonomy,
    slug: string,
  ): Promise<Page> => {
    const langs = languages(events.state, ctx);
    const id = await termsRepo.findTermIdBySlug(db, taxonomy.key, slug, langs);
    const term = id !== undefined ? await termsRepo.findTerm(db, taxonomy.key, id, langs) : undefined;
    if (!term) throw new ApiError('rest_term_invalid');
    const path = request.url.split('?')[0];
    const list = await upcomingList(deps, ctx, links, request, path, { [taxonomy.path]: String(term.id) });
    const state = listState(request, links, path);
    const feed = `${config.publicUrl}/ical/${taxonomy.path}/${encodeURIComponent(term.slug)}.ics`;
    return {
      title: term.name,
      head: html`<link rel="alternate" type="text/calendar" href="${feed}">`,
      body: html`<header class="item-header">
          <p class="eyebrow">${text(ctx.lang, taxonomy === CATEGORIES ? 'category' : 'tag')}</p>
          <h1>${term.name}</h1>
        </header>
        ${term.description !== '' ? html`<div class="item-description">${trusted(term.description)}</div>` : ''}
        <h2 class="section-title">${text(ctx.lang, 'upcoming_events')}</h2>
        ${subscribeLinks(state, feed, [])}${list.body}`,
    };
  };
  app.get<{ Params: { '*': string } }>('/events/category/*', { schema }, async (request, reply) => {
    const segments = request.params['*'].split('/').filter((s) => s !== '');
    const slug = decodeURIComponent(segments[segments.length - 1] ?? '');
    return itemPage(
      request,
      reply,
      async () => ({ kind: 'term', taxonomy: CATEGORIES, slug }),
      (ctx, links) => termPage(request, ctx, links, CATEGORIES, slug),
    );
  });
  app.get<{ Params: { slug: string } }>('/tag/:slug', { schema }, async (request, reply) =>
    itemPage(
      request,
      reply,
      async () => ({ kind: 'term', taxonomy: TAGS, slug: request.params.slug }),
      (ctx, links) => termPage(request, ctx, links, TAGS, request.params.slug),
    ),
  );

  /** The page of a post id (`?post_type=…&p=…`, API.md §8 `url` of items without a slug page). */
  const byPostType: Record<
    string,
    (request: FastifyRequest, ctx: RequestContext, links: SiteLinks, id: number) => Promise<Page>
  > = {
    tribe_events: (request, ctx, links, id) => eventPage(request, ctx, links, id),
    tribe_venue: (request, ctx, links, id) => linkedPage(request, ctx, links, VENUE_KIND, id),
    tribe_organizer: (request, ctx, links, id) => linkedPage(request, ctx, links, ORGANIZER_KIND, id),
  };
  const targets: Record<string, (id: number) => PageTarget> = {
    tribe_events: (id) => ({ kind: 'event', id }),
    tribe_venue: (id) => ({ kind: 'linked', linked: VENUE_KIND, id }),
    tribe_organizer: (id) => ({ kind: 'linked', linked: ORGANIZER_KIND, id }),
  };
  app.get('/', { schema }, async (request, reply) => {
    const ctx = requestContext(request);
    const query: Record<string, unknown> = isRecord(request.query) ? request.query : {};
    const { post_type: postType, p } = query;
    if (postType === undefined && p === undefined) {
      // `/` and `/{lang}/` (API.md §23.1): the upcoming events, in the same language.
      const prefix = ctx.language.source === 'default' ? '' : `/${ctx.lang}`;
      return reply.redirect(`${prefix}/events/`, 302);
    }
    const render = typeof postType === 'string' ? byPostType[postType] : undefined;
    const target = typeof postType === 'string' ? targets[postType] : undefined;
    if (!render || !target || typeof p !== 'string' || !/^\d+$/.test(p)) return htmlNotFound(request, reply);
    return itemPage(
      request,
      reply,
      async () => target(Number(p)),
      (pageCtx, links) => render(request, pageCtx, links, Number(p)),
    );
  });
}
