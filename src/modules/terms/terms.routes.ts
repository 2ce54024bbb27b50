import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { ArgsSpec } from '../../http/args.js';
import type { RequestContext } from '../../http/context.js';
import { givenQuery, pageLinks, setListHeaders, totalPages } from '../../http/lists.js';
import { idParam, registerRoute, type ApiRequest, type RouteRegistry } from '../../http/routes.js';
import { errorResponses } from '../../http/schemas.js';
import { presentTerm } from './terms.present.js';
import {
  categoryCreateArgs,
  categoryListArgs,
  categoryUpdateArgs,
  tagCreateArgs,
  tagListArgs,
  tagUpdateArgs,
  termListSchema,
  TermSchema,
  termReadArgs,
} from './terms.schemas.js';
import { callerCan } from '../../auth/caller.js';
import { termTranslations, requireEditContext } from '../posts/posts.translations.js';
import type { TermsModule } from './terms.module.js';
import * as service from './terms.service.js';
import { CATEGORIES, TAGS, type Taxonomy } from './taxonomies.js';
import { formatDb } from '../../domain/dates.js';
import { answeredNotModified, setValidatorHeaders } from '../../http/conditional.js';
import { cachedValidator, termValidator } from '../sync/validators.js';
import type { FastifyReply } from 'fastify';

/** The order in which list filters are echoed in `rest_url` and the page links. */
const LINK_ORDER = [
  'page',
  'per_page',
  'search',
  'slug',
  'include',
  'exclude',
  'parent',
  'post',
  'event',
  'hide_empty',
  'orderby',
  'order',
  'modified_after',
  'modified_before',
];

const TermRef = Type.Ref(TermSchema);

/** A write response's validators (API.md §21), read before its body so that they never name a newer state. */
async function validatorHeaders(terms: TermsModule, reply: FastifyReply, id: number): Promise<void> {
  const validator = await termValidator(terms.db, terms.config, id, 'view');
  if (validator) setValidatorHeaders(reply, validator);
}

async function present(terms: TermsModule, ctx: RequestContext, taxonomy: Taxonomy, id: number) {
  const { row, tree } = await service.getTerm(terms, ctx, taxonomy, id);
  return presentTerm(row, taxonomy, ctx.urls, tree);
}

function writeInput<A extends service.TermWriteInput>(
  request: ApiRequest<ArgsSpec>,
  args: A,
): A & Pick<service.TermWriteInput, 'parentSent'> {
  return { ...args, parentSent: request.bag.parent !== undefined && request.bag.parent !== null };
}

/** The argument specs of a taxonomy's routes: the categories', or the tags' (the same without `parent`). */
type TaxonomyArgs =
  | { list: typeof categoryListArgs; create: typeof categoryCreateArgs; update: typeof categoryUpdateArgs }
  | { list: typeof tagListArgs; create: typeof tagCreateArgs; update: typeof tagUpdateArgs };

function registerTaxonomy(
  app: FastifyInstance,
  registry: RouteRegistry,
  terms: TermsModule,
  taxonomy: Taxonomy,
  args: TaxonomyArgs,
): void {
  const tags = [taxonomy.path];
  const label = taxonomy.hierarchical ? 'event category' : 'event tag';
  /** `Category` / `Tag` and `Categories` / `Tags`, for operation ids. */
  const One = `${taxonomy.key[0].toUpperCase()}${taxonomy.key.slice(1)}`;
  const Many = `${taxonomy.path[0].toUpperCase()}${taxonomy.path.slice(1)}`;

  registerRoute(app, registry, {
    methods: ['GET'],
    path: `/${taxonomy.path}`,
    operationId: `list${Many}`,
    args: args.list,
    summary: `List ${taxonomy.path}`,
    tags,
    responses: { 200: termListSchema(taxonomy.path), ...errorResponses(400) },
    handler: async (request, reply) => {
      const { ctx, given } = request;
      const input = request.args;
      const page = await service.listTerms(terms, ctx, taxonomy, input);
      const pages = totalPages(page.total, input.per_page);
      const filters = givenQuery(LINK_ORDER, given, {
        ...input,
        modified_after: input.modified_after && formatDb(input.modified_after),
        modified_before: input.modified_before && formatDb(input.modified_before),
      });
      const links = pageLinks(
        (q) => ctx.urls.rest(`${taxonomy.path}/`, q),
        filters,
        input.page,
        input.page < pages,
        input.page > 1,
        given.has('page'),
      );
      setListHeaders(reply, page.total, pages, links);
      return {
        rest_url: links.rest_url,
        total: page.total,
        total_pages: pages,
        [taxonomy.path]: page.rows.map((row) => presentTerm(row, taxonomy, ctx.urls, page.tree)),
        next_rest_url: links.next_rest_url,
        previous_rest_url: links.previous_rest_url,
      };
    },
  });

  registerRoute(app, registry, {
    methods: ['POST'],
    path: `/${taxonomy.path}`,
    operationId: `create${One}`,
    args: args.create,
    summary: `Create an ${label}`,
    tags,
    secured: true,
    responses: { 201: TermRef, ...errorResponses(400, 401, 403) },
    handler: async (request, reply) => {
      const id = await service.createTerm(terms, request.ctx, taxonomy, writeInput(request, request.args));
      await validatorHeaders(terms, reply, id);
      const term = await present(terms, request.ctx, taxonomy, id);
      reply.code(201).header('Location', term.urls.self);
      return term;
    },
  });

  registerRoute(app, registry, {
    methods: ['GET'],
    path: `/${taxonomy.path}/{id}`,
    operationId: `get${One}ById`,
    args: termReadArgs,
    summary: `Read an ${label}`,
    tags,
    responses: { 200: TermRef, ...errorResponses(401, 403, 404) },
    handler: async ({ ctx, params, args, raw }, reply) => {
      const term = await present(terms, ctx, taxonomy, idParam(params));
      const variant = args.context === 'edit' ? 'edit' : 'view';
      if (variant === 'edit') requireEditContext(callerCan(ctx.caller, taxonomy.manage), ctx.caller !== null);
      const validator = await cachedValidator(terms.state.validators, ctx, `${term.id}|${variant}`, () =>
        termValidator(terms.db, terms.config, term.id, variant),
      );
      if (validator && answeredNotModified(raw, reply, validator)) return reply;
      if (variant !== 'edit') return term;
      return { ...term, ...(await termTranslations(terms.db, term.id)) };
    },
  });

  registerRoute(app, registry, {
    methods: ['POST', 'PUT', 'PATCH'],
    path: `/${taxonomy.path}/{id}`,
    operationId: `update${One}ById`,
    args: args.update,
    summary: `Update an ${label} (partial: only sent fields change)`,
    tags,
    secured: true,
    responses: { 200: TermRef, ...errorResponses(400, 401, 403, 404) },
    handler: async (request, reply) => {
      const id = idParam(request.params);
      await service.updateTerm(terms, request.ctx, taxonomy, id, writeInput(request, request.args));
      await validatorHeaders(terms, reply, id);
      return present(terms, request.ctx, taxonomy, id);
    },
  });

  registerRoute(app, registry, {
    methods: ['DELETE'],
    path: `/${taxonomy.path}/{id}`,
    operationId: `delete${One}ById`,
    args: {},
    summary: `Delete an ${label} permanently`,
    tags,
    secured: true,
    responses: { 200: TermRef, ...errorResponses(401, 403, 404) },
    handler: async ({ ctx, params }) => {
      const { row, tree } = await service.deleteTerm(terms, ctx, taxonomy, idParam(params));
      return presentTerm(row, taxonomy, ctx.urls, tree);
    },
  });
}

export function registerTermRoutes(app: FastifyInstance, registry: RouteRegistry, terms: TermsModule): void {
  registerTaxonomy(app, registry, terms, CATEGORIES, {
    list: categoryListArgs,
    create: categoryCreateArgs,
    update: categoryUpdateArgs,
  });
  registerTaxonomy(app, registry, terms, TAGS, { list: tagListArgs, create: tagCreateArgs, update: tagUpdateArgs });
}
