import { Type, type TSchema } from '@sinclair/typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isRecord } from '../domain/params.js';
import { LANGUAGES } from '../i18n/languages.js';
import { invalidParams, type ParamProblem } from '../errors.js';
import { mergeSources, nulProblems, parseArgs, type ArgsSpec, type ParsedArgs } from './args.js';
import { requestContext, type RequestContext } from './context.js';
import { NAMESPACE } from './urls.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route takes a `text/calendar` body (http/body.ts). */
    calendarBody?: boolean;
  }
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** Path parameters the API knows: `{id}` is digits only, `{slug}` anything but `/` (API.md §1). */
export const PATH_PARAMS = {
  id: { fastify: ':id(^\\d+)', pattern: '(?P<id>\\d+)', schema: Type.Integer({ description: 'The item id' }) },
  slug: { fastify: ':slug', pattern: '(?P<slug>[^/]+)', schema: Type.String({ description: 'The item slug' }) },
  delivery_id: {
    fastify: ':delivery_id(^\\d+)',
    pattern: '(?P<delivery_id>\\d+)',
    schema: Type.Integer({ description: 'The delivery id' }),
  },
  // An occurrence by its series' slug, the local date of its original start and its rank that day (API.md §20).
  date: {
    fastify: ':date(^\\d{4}-\\d{2}-\\d{2})',
    pattern: '(?P<date>\\d{4}-\\d{2}-\\d{2})',
    schema: Type.String({ description: 'The local date of the occurrence (YYYY-MM-DD)' }),
  },
  n: {
    fastify: ':n(^\\d+)',
    pattern: '(?P<n>\\d+)',
    schema: Type.Integer({ description: 'The 2nd, 3rd… occurrence on that date' }),
  },
} as const;
type PathParam = keyof typeof PATH_PARAMS;

export interface ApiRequest<S extends ArgsSpec> {
  readonly ctx: RequestContext;
  readonly args: ParsedArgs<S>;
  readonly params: { id?: number; slug?: string; date?: string; n?: number; delivery_id?: number };
  /** The parameters the request actually sent (declared args only), for links that echo them. */
  readonly given: ReadonlySet<string>;
  /** Every parameter the request sent, declared or not. */
  readonly bag: Readonly<Record<string, unknown>>;
  readonly raw: FastifyRequest;
}

export interface RouteDefinition<S extends ArgsSpec> {
  readonly methods: readonly Method[];
  /** Relative to the namespace, e.g. `/categories/{id}`. */
  readonly path: string;
  /**
   * The OpenAPI `operationId` of the route's first method, e.g. `listEvents`, `getEventById`. A
   * route serving POST, PUT and PATCH names its POST operation `update…`; its PUT and PATCH
   * operations become `replace…` and `patch…` (see `operationIdsOf`).
   */
  readonly operationId: string;
  readonly args: S;
  readonly summary: string;
  readonly tags: readonly string[];
  readonly responses: Readonly<Record<number, TSchema>>;
  readonly secured?: boolean;
  /** A body limit of its own (bytes) instead of BODY_LIMIT. */
  readonly bodyLimit?: number;
  /** Also takes a `text/calendar` body, as the `ics` parameter (API.md §19.3); elsewhere that is 415. */
  readonly calendarBody?: boolean;
  handler(request: ApiRequest<S>, reply: FastifyReply): Promise<unknown>;
}

/** One endpoint as the namespace index shows it (API.md §16). */
export interface IndexedEndpoint {
  readonly methods: readonly Method[];
  readonly args: ArgsSpec;
}

export interface IndexedRoute {
  readonly pattern: string;
  readonly path: string;
  readonly endpoints: IndexedEndpoint[];
}

/** Every route registered through `registerRoute`, in registration order (the index reads it). */
export class RouteRegistry {
  readonly routes = new Map<string, IndexedRoute>();
  private readonly operationIds = new Set<string>();
  /** The operationId of each documented operation, by `{method} {OpenAPI path}` (relative to the namespace). */
  private readonly operations = new Map<string, string>();

  /** Claims OpenAPI operation ids for the methods of `path` (relative to the namespace): each id names one operation of the whole API. */
  claimOperationIds(path: string, ids: ReadonlyMap<Method, string>): void {
    for (const [method, id] of ids) {
      if (this.operationIds.has(id)) throw new Error(`operationId ${id} is already taken`);
      this.operationIds.add(id);
      this.operations.set(`${method.toLowerCase()} ${path}`, id);
    }
  }

  /**
   * The OpenAPI document with every claimed operationId set. Routes serving several methods stay
   * one Fastify route (registering one per method had made the server's garbage collection far
   * busier under load: docs/performance-log.md), so their per-method ids are set here.
   */
  withOperationIds<T extends { paths?: Record<string, object | undefined> }>(document: T): T {
    for (const [path, item] of Object.entries(document.paths ?? {})) {
      if (!item) continue;
      const operations: [string, unknown][] = Object.entries(item);
      for (const [method, operation] of operations) {
        const id = this.operations.get(`${method} ${path}`);
        // The methods of one route share one operation object: each gets its own copy.
        if (id !== undefined && isRecord(operation)) {
          Object.assign(item, { [method]: { ...operation, operationId: id } });
        }
      }
    }
    return document;
  }

  add(path: string, endpoint: IndexedEndpoint): void {
    const pattern = `/${NAMESPACE}${toPattern(path)}`;
    const route = this.routes.get(pattern) ?? { pattern, path, endpoints: [] };
    route.endpoints.push(endpoint);
    this.routes.set(pattern, route);
  }

  methodsOf(path: string): Method[] {
    const route = [...this.routes.values()].find((r) => r.path === path);
    return route ? route.endpoints.flatMap((e) => e.methods) : [];
  }
}

/** The verbs of the PUT and PATCH operations of an update route whose POST operation is `update…`. */
const UPDATE_VERBS: Partial<Record<Method, string>> = { POST: 'update', PUT: 'replace', PATCH: 'patch' };

/**
 * The operationId of each method of a route: its own id for a single method; for an update route
 * (POST, PUT, PATCH, id `update…`) `update…`, `replace…` and `patch…` (docs/api.md, "Operation ids").
 */
export function operationIdsOf(
  definition: Pick<RouteDefinition<ArgsSpec>, 'methods' | 'operationId' | 'path'>,
): Map<Method, string> {
  const { methods, operationId } = definition;
  if (methods.length === 1) return new Map([[methods[0], operationId]]);
  const noun = operationId.startsWith('update') ? operationId.slice('update'.length) : undefined;
  if (noun === undefined || methods.some((method) => UPDATE_VERBS[method] === undefined)) {
    throw new Error(
      `route ${definition.path}: several methods need an update route (POST/PUT/PATCH) whose operationId starts with "update", got ${operationId}`,
    );
  }
  return new Map(methods.map((method) => [method, `${UPDATE_VERBS[method]}${noun}`]));
}

const isPathParam = (name: string): name is PathParam => Object.hasOwn(PATH_PARAMS, name);

export function pathParams(path: string): PathParam[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => {
    if (!isPathParam(name)) throw new Error(`route ${path}: unknown path parameter {${name}}`);
    return name;
  });
}

function toPattern(path: string): string {
  return path.replace(/\{(\w+)\}/g, (_, name: PathParam) => PATH_PARAMS[name].pattern);
}

export function toFastifyUrl(path: string): string {
  return `/${NAMESPACE}${path.replace(/\{(\w+)\}/g, (_, name: PathParam) => PATH_PARAMS[name].fastify)}`;
}

export const languageParameter = Type.String({
  description: 'The content language of the request and response (docs/api.md, "Languages")',
  enum: [...LANGUAGES],
});

/** The documented request shape of a route: its args as query string or body, plus path params. */
function documentedSchema(
  definition: Pick<RouteDefinition<ArgsSpec>, 'args' | 'path' | 'methods' | 'calendarBody'>,
): Record<string, TSchema> {
  const properties: Record<string, TSchema> = {};
  for (const [name, spec] of Object.entries(definition.args)) {
    properties[name] = spec.required ? spec.schema : Type.Optional(spec.schema);
  }
  const params = pathParams(definition.path);
  const schema: Record<string, TSchema> = {};
  if (params.length > 0) {
    schema.params = Type.Object(Object.fromEntries(params.map((name) => [name, PATH_PARAMS[name].schema])));
  }
  const readsOnly = definition.methods.every((m) => m === 'GET' || m === 'DELETE');
  if (readsOnly) {
    schema.querystring = Type.Object({ ...properties, i18n_language: Type.Optional(languageParameter) });
  } else {
    schema.querystring = Type.Object({ i18n_language: Type.Optional(languageParameter) });
    schema.body = Type.Object(properties);
    // The import also takes the iCalendar text itself as the body (API.md §19.3).
    if (definition.calendarBody) {
      const form = { schema: schema.body };
      schema.body = Type.Unsafe({
        content: {
          'application/json': form,
          'application/x-www-form-urlencoded': form,
          'multipart/form-data': form,
          'text/calendar': { schema: Type.String({ description: 'The iCalendar text' }) },
        },
      });
    }
  }
  return schema;
}

/** The `{id}` of a route whose path has one: registerRoute always fills it in for such a path. */
export function idParam(params: ApiRequest<ArgsSpec>['params']): number {
  if (params.id === undefined) throw new Error('idParam: the route has no {id} path parameter');
  return params.id;
}

/**
 * The path's `{id}` and `{slug}`. An id beyond 2^53 - 1 names nothing JSON can carry exactly (nor
 * any stored item), and a NUL in any parameter is refused: both are 400s (API.md §25.3).
 */
function pathValues(
  raw: FastifyRequest,
  bag: Record<string, unknown>,
): { id?: number; slug?: string; date?: string; n?: number; delivery_id?: number } {
  const params = isRecord(raw.params) ? raw.params : {};
  const slug = typeof params.slug === 'string' ? params.slug : undefined;
  const date = typeof params.date === 'string' ? params.date : undefined;
  const n = typeof params.n === 'string' ? Number(params.n) : undefined;
  const problems = new Map<string, ParamProblem>();
  const id = typeof params.id === 'string' ? Number(params.id) : undefined;
  if (id !== undefined && !Number.isSafeInteger(id))
    problems.set('id', { message: 'id_out_of_range', vars: { param: 'id' } });
  if (n !== undefined && !Number.isSafeInteger(n))
    problems.set('n', { message: 'id_out_of_range', vars: { param: 'n' } });
  const deliveryId = typeof params.delivery_id === 'string' ? Number(params.delivery_id) : undefined;
  if (deliveryId !== undefined && !Number.isSafeInteger(deliveryId))
    problems.set('delivery_id', { message: 'id_out_of_range', vars: { param: 'delivery_id' } });
  nulProblems(bag, problems);
  if (slug !== undefined) nulProblems({ slug }, problems);
  if (problems.size > 0) throw invalidParams(problems);
  return { id, slug, date, n, delivery_id: deliveryId };
}

/**
 * Registers a route: Fastify serves it, the registry feeds the namespace index, and the same
 * schemas feed /doc. Arguments are parsed before the handler runs (validate → authorise → act).
 */
export function registerRoute<S extends ArgsSpec>(
  app: FastifyInstance,
  registry: RouteRegistry,
  definition: RouteDefinition<S>,
): void {
  registry.claimOperationIds(definition.path, operationIdsOf(definition));
  registry.add(definition.path, { methods: definition.methods, args: definition.args });
  const handler = async (raw: FastifyRequest, reply: FastifyReply) => {
    const ctx = requestContext(raw);
    const bag = mergeSources(raw.query, raw.body);
    const params = pathValues(raw, bag);
    const args = parseArgs(definition.args, bag, ctx.parse);
    const given = new Set(Object.keys(definition.args).filter((name) => bag[name] !== undefined));
    return definition.handler({ ctx, args, params, given, bag, raw }, reply);
  };
  app.route({
    method: [...definition.methods],
    url: toFastifyUrl(definition.path),
    schema: {
      summary: definition.summary,
      tags: [...definition.tags],
      ...(definition.secured ? { security: [{ basicAuth: [] }, { bearerAuth: [] }] } : {}),
      ...documentedSchema(definition),
      response: definition.responses,
    },
    ...(definition.bodyLimit !== undefined ? { bodyLimit: definition.bodyLimit } : {}),
    config: { calendarBody: definition.calendarBody === true },
    handler,
  });
}
