import { changeKey } from '../../changes/change-set.js';
import { Type, type TSchema } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { ENTRY_OVERHEAD, ownBuffer } from '../../cache/entries.js';
import { callerCan } from '../../auth/caller.js';
import type { Config } from '../../config.js';
import type { ArgsSpec, ParsedArgs } from '../../http/args.js';
import type { RequestContext } from '../../http/context.js';
import { pageLinks, sendList, setListHeaders, totalPages } from '../../http/lists.js';
import { compileSerializer } from '../../http/json.js';
import { ImageSchema } from '../images/images.js';
import { viewerKey } from '../posts/posts.viewer.js';
import { findLinkedMany } from './linked.repository.js';
import { registerRoute, type ApiRequest, type RouteRegistry } from '../../http/routes.js';
import { errorResponses } from '../../http/schemas.js';
import type { Query } from '../../http/urls.js';
import { deleteArgs, type LinkedListArgs } from './linked.schemas.js';
import { canEditPost } from '../posts/posts.rules.js';
import { contextArg, postTranslations, requireEditContext } from '../posts/posts.translations.js';
import type { LinkedKind } from './linked.kind.js';
import type { LinkedRow } from './linked.repository.js';
import { postRefOf as refOf } from '../posts/posts.ref.js';
import * as service from './linked.service.js';
import type { LinkedModule } from './linked.module.js';
import { languages } from './linked.service.js';
import { formatDb } from '../../domain/dates.js';
import { answeredNotModified, setValidatorHeaders } from '../../http/conditional.js';
import { cachedValidator, postValidator } from '../sync/validators.js';
import type { FastifyReply } from 'fastify';
import type { KeptOver } from '../../cache/entries.js';

/** A venue-like resource: its kind, schemas and argument specs, and what its writes send to the service. */
export interface LinkedResource<C extends ArgsSpec, U extends ArgsSpec> {
  readonly kind: LinkedKind;
  readonly schema: TSchema;
  readonly listSchema: TSchema;
  readonly args: { readonly list: LinkedListArgs; readonly create: C; readonly update: U };
  present(config: Config, ctx: RequestContext, row: LinkedRow, options: { jsonLd: boolean }): Record<string, unknown>;
  createInput(args: ParsedArgs<C>): service.LinkedWriteInput & { name: string };
  updateInput(args: ParsedArgs<U>): service.LinkedWriteInput;
}

/** The query a list echoes in its links (TEC's order: page, per_page, search, event, has_events, only_with_upcoming, status). */
function listQuery(request: ApiRequest<LinkedListArgs>, input: service.LinkedListInput): Query {
  const { given, ctx } = request;
  const status = input.status ?? (callerCan(ctx.caller, 'create_posts') ? undefined : ['publish']);
  return [
    ['page', input.page],
    ['per_page', input.per_page],
    ['search', input.search],
    ['event', input.event],
    ['has_events', input.has_events === undefined ? undefined : input.has_events ? 1 : 0],
    ['only_with_upcoming', given.has('only_with_upcoming') ? (input.only_with_upcoming ? 1 : 0) : undefined],
    ['status', status],
    ['modified_after', input.modified_after && formatDb(input.modified_after)],
    ['modified_before', input.modified_before && formatDb(input.modified_before)],
  ];
}

/** Registers list, create, and the by-id and by-slug item routes of a venue-like resource. */
export function registerLinkedRoutes<C extends ArgsSpec, U extends ArgsSpec>(
  app: FastifyInstance,
  registry: RouteRegistry,
  linked: LinkedModule,
  resource: LinkedResource<C, U>,
): void {
  const { kind } = resource;
  const present = (ctx: RequestContext, row: LinkedRow, options: { jsonLd: boolean }) =>
    resource.present(linked.config, ctx, row, options);
  const ref = Type.Ref(resource.schema);
  const serialize = compileSerializer(resource.schema, [ImageSchema]);
  /** List items as UTF-8 JSON, rendered once and reused until a write names the item (as events). */
  const renderList = async (ctx: RequestContext, ids: readonly number[]): Promise<(readonly Buffer[])[]> => {
    const version = await ctx.dataVersion();
    const keyOf = (id: number) => `${kind.type}|${id}|${ctx.lang}|${ctx.language.source}|${viewerKey(ctx.caller)}`;
    const found = new Map<number, readonly Buffer[]>();
    const missing = ids.filter((id) => {
      const cached = linked.state.renderings.get(keyOf(id), version, (storedUnder) =>
        linked.version.unchangedSince(storedUnder, version, [changeKey(kind.type, id)]),
      );
      if (cached !== undefined) found.set(id, cached.json);
      return cached === undefined;
    });
    for (const row of (await findLinkedMany(linked.db, kind, missing, languages(linked, ctx))).values()) {
      const json = ownBuffer(serialize(present(ctx, row, { jsonLd: false })));
      linked.state.renderings.set(keyOf(row.id), version, { json: [json], bytes: json.length + ENTRY_OVERHEAD });
      found.set(row.id, [json]);
    }
    return ids.map((id) => found.get(id)).filter((json): json is readonly Buffer[] => json !== undefined);
  };
  const tags = [kind.path];
  /** A write response's validators (API.md §21), read before its body so that they never name a newer state. */
  const validatorHeaders = async (reply: FastifyReply, id: number) => {
    const validator = await postValidator(linked.db, linked.config, id, 'view');
    if (validator) setValidatorHeaders(reply, validator);
  };
  /** `Venue` / `Organizer` and `Venues` / `Organizers`, for operation ids. */
  const One = `${kind.type[0].toUpperCase()}${kind.type.slice(1)}`;
  const Many = `${kind.path[0].toUpperCase()}${kind.path.slice(1)}`;
  const article = kind.type === 'organizer' ? 'an' : 'a';
  const keptOverWritesOfOtherKinds: KeptOver = (versions, storedUnder, version) =>
    versions.kindsUnchangedSince(storedUnder, version, [kind.type]);

  registerRoute(app, registry, {
    methods: ['GET'],
    path: `/${kind.path}`,
    operationId: `list${Many}`,
    args: resource.args.list,
    summary: `List ${kind.path}`,
    tags,
    responses: { 200: resource.listSchema, ...errorResponses(400, 404) },
    handler: async (request, reply) => {
      const { ctx } = request;
      const input = request.args;
      const { ids, total, looksAtEvents } = await service.listLinked(linked, ctx, kind, input);
      // Its ids, total and items are all kept over writes that name no item of its kind (service.keptOver).
      if (!looksAtEvents) request.raw.responseCacheKeptOver = keptOverWritesOfOtherKinds;
      const pages = totalPages(total, input.per_page);
      const links = pageLinks(
        (q) => ctx.urls.rest(`${kind.path}/`, q),
        listQuery(request, input),
        input.page,
        input.page < pages,
        input.page > 1,
        true,
      );
      setListHeaders(reply, total, pages, links);
      const items = await renderList(ctx, ids);
      return sendList(reply, kind.path, items, links, total, pages);
    },
  });

  registerRoute(app, registry, {
    methods: ['POST'],
    path: `/${kind.path}`,
    operationId: `create${One}`,
    args: resource.args.create,
    summary: `Create ${article} ${kind.type} (or reuse an identical one)`,
    tags,
    secured: true,
    responses: { 201: ref, ...errorResponses(400, 401, 403) },
    handler: async ({ ctx, args }, reply) => {
      const id = await service.createLinked(linked, ctx, kind, resource.createInput(args));
      reply.code(201);
      await validatorHeaders(reply, id);
      return present(ctx, await service.loadLinked(linked, ctx, kind, id), { jsonLd: false });
    },
  });

  for (const path of [`/${kind.path}/{id}`, `/${kind.path}/by-slug/{slug}`]) {
    const by = path.includes('{id}') ? 'id' : 'slug';
    const By = by === 'id' ? 'ById' : 'BySlug';
    registerRoute(app, registry, {
      methods: ['GET'],
      path,
      operationId: `get${One}${By}`,
      args: { context: contextArg },
      summary: `Read ${article} ${kind.type} by ${by}`,
      tags,
      responses: { 200: ref, ...errorResponses(401, 403, 404) },
      handler: async ({ ctx, params, args, raw }, reply) => {
        const row = await service.readLinked(linked, ctx, kind, refOf(params));
        const variant = args.context === 'edit' ? 'edit' : 'view';
        if (variant === 'edit') requireEditContext(canEditPost(ctx.caller, row), ctx.caller !== null);
        const validator = await cachedValidator(linked.state.validators, ctx, `${row.id}|${variant}`, () =>
          postValidator(linked.db, linked.config, row.id, variant),
        );
        if (validator && answeredNotModified(raw, reply, validator)) return reply;
        const item = present(ctx, row, { jsonLd: true });
        if (variant !== 'edit') return item;
        return {
          ...item,
          ...(await postTranslations(linked.db, row.id, { title: kind.nameField, description: 'description' })),
        };
      },
    });
    registerRoute(app, registry, {
      methods: ['POST', 'PUT', 'PATCH'],
      path,
      operationId: `update${One}${By}`,
      args: resource.args.update,
      summary: `Update ${article} ${kind.type} by ${by} (partial: only sent fields change)`,
      tags,
      secured: true,
      responses: { 200: ref, ...errorResponses(400, 401, 403, 404) },
      handler: async ({ ctx, args, params }, reply) => {
        const id = await service.updateLinked(linked, ctx, kind, refOf(params), resource.updateInput(args));
        await validatorHeaders(reply, id);
        return present(ctx, await service.loadLinked(linked, ctx, kind, id), { jsonLd: false });
      },
    });
    registerRoute(app, registry, {
      methods: ['DELETE'],
      path,
      operationId: `delete${One}${By}`,
      args: deleteArgs,
      summary: `Trash ${article} ${kind.type} by ${by} (force=true: delete permanently)`,
      tags,
      secured: true,
      responses: { 200: ref, ...errorResponses(401, 403, 404, 410) },
      handler: async ({ ctx, args, params }, reply) => {
        const row = await service.deleteLinked(linked, ctx, kind, refOf(params), args.force);
        // A trashed item still has validators; one deleted for good has none.
        if (!args.force) await validatorHeaders(reply, row.id);
        return present(ctx, row, { jsonLd: false });
      },
    });
  }
}
