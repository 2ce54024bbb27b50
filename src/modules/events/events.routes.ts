import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { callerCan } from '../../auth/caller.js';
import type { RequestContext } from '../../http/context.js';
import { formatDb } from '../../domain/dates.js';
import { pageLinks, sendList, setListHeaders, totalPages } from '../../http/lists.js';
import { registerRoute, type RouteRegistry } from '../../http/routes.js';
import { errorResponses } from '../../http/schemas.js';
import type { Query } from '../../http/urls.js';
import type { EventsModule } from './events.module.js';
import { presentEvent } from './events.present.js';
import type { EventListInput } from './listing/input.js';
import { listEventPage, listOccurrencePage } from './listing/listing.js';
import type { EffectiveBounds } from './listing/window.js';
import {
  eventCreateArgs,
  eventDeleteArgs,
  eventListArgs,
  eventListSchema,
  eventReadArgs,
  EventSchema,
  eventUpdateArgs,
} from './events.schemas.js';
import * as service from './events.service.js';
import { postRefOf as refOf } from '../posts/posts.ref.js';
import { canEditPost } from '../posts/posts.rules.js';
import { postTranslations, requireEditContext } from '../posts/posts.translations.js';
import { viewerKey } from '../posts/posts.viewer.js';
import { cachedValidator, eventValidator } from '../sync/validators.js';
import { answeredNotModified, setValidatorHeaders } from '../../http/conditional.js';
import { ApiError } from '../../errors.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RenderedFrom } from './rendering/rendering.js';
import { pageKeptOver, singleKeptOver } from './listing/kept-responses.js';

const EventRef = Type.Ref(EventSchema);

const bool = (value: boolean | undefined) => (value === undefined ? undefined : value ? 1 : 0);
const bound = (value: EffectiveBounds[keyof EffectiveBounds]) => (value ? formatDb(value) : undefined);

/**
 * The effective query that `rest_url` echoes (TEC's order, API.md §9, §18): computed date bounds,
 * every filter the request used (including categories, tags and search), URL-encoded by the builder.
 */
function listQuery(
  ctx: RequestContext,
  input: EventListInput,
  given: ReadonlySet<string>,
  bounds: EffectiveBounds,
): Query {
  const status = input.status ?? (callerCan(ctx.caller, 'create_posts') ? undefined : ['publish']);
  return [
    ['page', input.page],
    ['per_page', input.per_page],
    ['start_date', bound(bounds.start_date)],
    ['end_date', bound(bounds.end_date)],
    ['search', input.search],
    ['categories', input.categories],
    ['tags', input.tags],
    ['venue', input.venue],
    ['organizer', input.organizer],
    ['featured', bool(input.featured)],
    ['geoloc', bool(input.geoloc)],
    ['geoloc_lat', input.geoloc_lat ?? undefined],
    ['geoloc_lng', input.geoloc_lng ?? undefined],
    ['geoloc_radius', input.geoloc_radius],
    ['status', status],
    ['post_parent', input.post_parent],
    ['include', input.include],
    ['starts_before', bound(bounds.starts_before)],
    ['starts_after', bound(bounds.starts_after)],
    ['ends_before', bound(bounds.ends_before)],
    ['ends_after', bound(bounds.ends_after)],
    ['ticketed', given.has('ticketed') ? 0 : undefined],
    ['strict_dates', input.strict_dates ? 1 : undefined],
    ['modified_after', bound(input.modified_after)],
    ['modified_before', bound(input.modified_before)],
    ['orderby', input.orderby],
    ['order', input.orderby !== undefined ? input.order : undefined],
    ['expand', input.expand ? undefined : 0],
    ['context', input.context === 'edit' ? 'edit' : undefined],
  ];
}

/** What `context=edit` adds to an event (API.md §18): its password and its text in every language. */
async function editFields(state: EventsModule['state'], id: number) {
  const password = await service.eventPassword(state, id);
  const translations = await postTranslations(state.db, id, {
    title: 'title',
    description: 'description',
    excerpt: 'excerpt',
  });
  return { password, ...translations };
}

/** A page of events as `context=edit` shows them: unblanked, with the edit fields (rendered one by one: editors' lists are rare). */
async function editableEvents(events: EventsModule, ctx: RequestContext, ids: number[]): Promise<Buffer[][]> {
  const { state } = events;
  const bundles = await service.loadBundles(state, ctx, await service.findEventRows(state, ctx, ids));
  const items: Buffer[][] = [];
  for (const bundle of bundles) {
    const event = presentEvent(state.config, ctx, bundle, { jsonLd: false, blanked: false });
    items.push([Buffer.from(JSON.stringify({ ...event, ...(await editFields(state, bundle.row.id)) }))]);
  }
  return items;
}

export function registerEventRoutes(app: FastifyInstance, registry: RouteRegistry, events: EventsModule): void {
  const tags = ['events'];
  const { state } = events;
  /**
   * Sets a `context=edit` read's ETag and Last-Modified (API.md §21); true when it answered 304.
   * Plain reads take theirs from the rows they are rendered from (EventRendering.single).
   */
  const editNotModified = async (ctx: RequestContext, raw: FastifyRequest, reply: FastifyReply, id: number) => {
    const validator = await cachedValidator(state.validators, ctx, `${id}|edit|${viewerKey(ctx.caller)}`, () =>
      eventValidator(state.db, state.config, ctx.caller, id, 'edit'),
    );
    return validator !== undefined && answeredNotModified(raw, reply, validator);
  };
  /** A write response's validators, read before its body so that they never name a newer state. */
  const validatorHeaders = async (ctx: RequestContext, reply: FastifyReply, id: number) => {
    const validator = await eventValidator(state.db, state.config, ctx.caller, id, 'view');
    if (validator) setValidatorHeaders(reply, validator);
  };

  registerRoute(app, registry, {
    methods: ['GET'],
    path: '/events',
    operationId: 'listEvents',
    args: eventListArgs,
    summary: 'List events',
    tags,
    responses: { 200: eventListSchema, ...errorResponses(400, 404) },
    handler: async ({ ctx, args, given, raw }, reply) => {
      const input = args;
      // context=edit (API.md §18): only for callers who may edit every event it can list.
      if (input.context === 'edit') requireEditContext(callerCan(ctx.caller, 'edit_others_posts'), ctx.caller !== null);
      const page = await listEventPage(events, ctx, input);
      const pages = totalPages(page.total, input.per_page);
      const links = pageLinks(
        (q) => ctx.urls.rest('events/', q),
        listQuery(ctx, input, given, page.bounds),
        input.page,
        input.page < pages,
        input.page > 1,
        true,
      );
      setListHeaders(reply, page.total, pages, links);
      if (input.context === 'edit')
        return sendList(reply, 'events', await editableEvents(events, ctx, page.ids), links, page.total, pages);
      const from: RenderedFrom = { keys: [] };
      const rendered = await events.rendering.render(ctx, page.ids, input.password, from);
      if (!from.unknown) raw.responseCacheKeptOver = pageKeptOver(page.filter, page.ids, from.keys);
      return sendList(reply, 'events', rendered, links, page.total, pages);
    },
  });

  registerRoute(app, registry, {
    methods: ['GET'],
    path: '/events/{id}/occurrences',
    operationId: 'listEventOccurrences',
    args: eventListArgs,
    summary: "List a recurring series' occurrences (no default date window)",
    tags,
    responses: { 200: eventListSchema, ...errorResponses(400, 403, 404) },
    handler: async ({ ctx, args, given, params, raw }, reply) => {
      const input = args;
      const seriesId = await service.readableSeries(state, ctx, Number(params.id), input.password);
      const page = await listOccurrencePage(events, ctx, seriesId, input);
      const pages = totalPages(page.total, input.per_page);
      const links = pageLinks(
        (q) => ctx.urls.rest(`events/${seriesId}/occurrences`, q),
        listQuery(ctx, input, given, page.bounds),
        input.page,
        input.page < pages,
        input.page > 1,
        true,
      );
      setListHeaders(reply, page.total, pages, links);
      const from: RenderedFrom = { keys: [] };
      const rendered = await events.rendering.render(ctx, page.ids, input.password, from);
      if (!from.unknown) raw.responseCacheKeptOver = pageKeptOver(page.filter, page.ids, from.keys);
      return sendList(reply, 'events', rendered, links, page.total, pages);
    },
  });

  registerRoute(app, registry, {
    methods: ['POST'],
    path: '/events',
    operationId: 'createEvent',
    args: eventCreateArgs,
    summary: 'Create an event',
    tags,
    secured: true,
    responses: { 201: EventRef, ...errorResponses(400, 401, 403) },
    handler: async ({ ctx, args }, reply) => {
      const id = await service.createEvent(state, ctx, args);
      reply.code(201);
      await validatorHeaders(ctx, reply, id);
      return presentEvent(state.config, ctx, await service.loadEvent(state, ctx, id), {
        jsonLd: false,
        blanked: false,
      });
    },
  });

  // An occurrence by its series' slug and date is the same item as by its id (API.md §20).
  const refFor = async (params: { id?: number; slug?: string; date?: string; n?: number }) =>
    params.slug !== undefined && params.date !== undefined
      ? { id: await service.occurrenceIdBySlug(state, params.slug, params.date, params.n) }
      : refOf(params);
  for (const path of [
    '/events/{id}',
    '/events/by-slug/{slug}',
    '/events/by-slug/{slug}/{date}',
    '/events/by-slug/{slug}/{date}/{n}',
  ]) {
    const by = path.includes('{id}')
      ? 'id'
      : path.includes('{n}')
        ? 'slug, date and rank'
        : path.includes('{date}')
          ? 'slug and date'
          : 'slug';
    const By = {
      id: 'ById',
      slug: 'BySlug',
      'slug and date': 'OccurrenceByDate',
      'slug, date and rank': 'OccurrenceByDateAndRank',
    }[by];
    registerRoute(app, registry, {
      methods: ['GET'],
      path,
      operationId: `getEvent${By}`,
      args: eventReadArgs,
      summary: `Read an event by ${by}`,
      tags,
      responses: { 200: EventRef, ...errorResponses(400, 403, 404) },
      handler: async ({ ctx, args, params, raw }, reply) => {
        if (args.context !== 'edit') {
          const { id, row } = await service.checkReadable(state, ctx, await refFor(params), args.password);
          const from: RenderedFrom = { keys: [] };
          const single = await events.rendering.single(ctx, id, args.password, row ? [row] : [], from);
          if (!single) throw new ApiError('rest-event-not-found', { vars: { id } });
          if (!from.unknown) raw.responseCacheKeptOver = singleKeptOver(id, from.keys);
          if (answeredNotModified(raw, reply, single.validator)) return reply;
          return reply.type('application/json; charset=utf-8').send(single.json);
        }
        const bundle = await service.readEvent(state, ctx, await refFor(params), args.password);
        const event = presentEvent(state.config, ctx, bundle, { jsonLd: true, blanked: false });
        requireEditContext(canEditPost(ctx.caller, bundle.row), ctx.caller !== null);
        if (await editNotModified(ctx, raw, reply, bundle.row.id)) return reply;
        const { password, ...translations } = await editFields(state, bundle.row.id);
        const { json_ld: jsonLd, ...head } = event;
        return { ...head, password, json_ld: jsonLd, ...translations };
      },
    });
    registerRoute(app, registry, {
      methods: ['POST', 'PUT', 'PATCH'],
      path,
      operationId: `updateEvent${By}`,
      args: eventUpdateArgs,
      summary: `Update an event by ${by} (partial: only sent fields change)`,
      tags,
      secured: true,
      responses: { 200: EventRef, ...errorResponses(400, 401, 403, 404) },
      handler: async ({ ctx, args, params }, reply) => {
        const id = await service.updateEvent(state, ctx, await refFor(params), args);
        await validatorHeaders(ctx, reply, id);
        return presentEvent(state.config, ctx, await service.loadEvent(state, ctx, id), {
          jsonLd: false,
          blanked: false,
        });
      },
    });
    registerRoute(app, registry, {
      methods: ['DELETE'],
      path,
      operationId: `deleteEvent${By}`,
      args: eventDeleteArgs,
      summary: `Trash an event by ${by} (force=true: delete permanently)`,
      tags,
      secured: true,
      responses: { 200: EventRef, ...errorResponses(401, 403, 404, 410) },
      handler: async ({ ctx, args, params }, reply) => {
        const bundle = await service.deleteEvent(state, ctx, await refFor(params), args.force);
        // A trashed event still has validators; one deleted for good has none.
        if (!args.force) await validatorHeaders(ctx, reply, bundle.row.id);
        return presentEvent(state.config, ctx, bundle, { jsonLd: false, blanked: false });
      },
    });
  }
}
