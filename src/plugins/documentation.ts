import swagger from '@fastify/swagger';
import { KindGuard, type TSchema } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { DateTime } from 'luxon';
import type { Config } from '../config.js';
import type { ArgSpec, ParseContext } from '../http/args.js';
import { formatDb } from '../domain/dates.js';
import { requestContext, type RequestContext } from '../http/context.js';
import {
  languageParameter,
  PATH_PARAMS,
  pathParams,
  toFastifyUrl,
  type IndexedRoute,
  type RouteRegistry,
} from '../http/routes.js';
import { ErrorSchema } from '../http/schemas.js';
import { NAMESPACE } from '../http/urls.js';
import { SHARED_SCHEMAS } from '../modules/shared-schemas.js';

function displayDefault(value: unknown): unknown {
  if (DateTime.isDateTime(value)) return formatDb(value);
  return value;
}

function schemaType(schema: TSchema): unknown {
  if (KindGuard.IsUnion(schema)) return schema.anyOf.map((s): unknown => s.type);
  return schema.type;
}

/** One argument as the WordPress-style index shows it: schema keywords, then `required`. */
function describeArg(spec: ArgSpec<unknown>, ctx: ParseContext): Record<string, unknown> {
  const { schema } = spec;
  const out: Record<string, unknown> = {};
  const dynamicDefault = spec.defaultValue ? displayDefault(spec.defaultValue(ctx)) : undefined;
  if (dynamicDefault !== undefined) out.default = dynamicDefault;
  if (schema.description) out.description = schema.description;
  out.type = schemaType(schema);
  if (schema.format) out.format = schema.format;
  if (schema.enum) out.enum = schema.enum;
  if (KindGuard.IsArray(schema)) out.items = { type: schemaType(schema.items) };
  out.required = spec.required;
  return out;
}

const LANGUAGE_ARG = { ...describeArgSchema(languageParameter), required: false };

function describeArgSchema(schema: TSchema): Record<string, unknown> {
  return { description: schema.description, type: schema.type, enum: schema.enum };
}

function describeRoute(route: IndexedRoute, ctx: RequestContext): Record<string, unknown> {
  const entry: Record<string, unknown> = {
    namespace: NAMESPACE,
    methods: route.endpoints.flatMap((e) => e.methods),
    endpoints: route.endpoints.map((endpoint) => ({
      methods: endpoint.methods,
      args: {
        ...pathArgs(route.path),
        ...Object.fromEntries(
          Object.entries(endpoint.args).map(([name, spec]) => [name, describeArg(spec, ctx.parse)]),
        ),
        i18n_language: LANGUAGE_ARG,
      },
    })),
  };
  if (!route.path.includes('{')) entry._links = { self: [{ href: selfHref(ctx, route.path) }] };
  return entry;
}

function selfHref(ctx: RequestContext, path: string): string {
  return ctx.urls.rest(path.replace(/^\//, '')).replace(/\/(\?|$)/, '$1');
}

/** The `{id}` / `{slug}` of a route's path as arguments, required as in WordPress's index. */
function pathArgs(path: string): Record<string, unknown> {
  return Object.fromEntries(
    pathParams(path).map((name) => [name, { ...describeArgSchema(PATH_PARAMS[name].schema), required: true }]),
  );
}

/** The namespace index of API.md §16, generated from the registered route definitions. */
export function namespaceIndex(registry: RouteRegistry, ctx: RequestContext): Record<string, unknown> {
  const routes: Record<string, unknown> = {};
  for (const route of registry.routes.values()) routes[route.pattern] = describeRoute(route, ctx);
  // WordPress links `up` to the REST root; this service has none, so the index links itself.
  return { namespace: NAMESPACE, routes, _links: { self: [{ href: selfHref(ctx, '') }] } };
}

/**
 * Paths are relative to the namespace that `servers` names, as in TEC's document: @fastify/swagger
 * strips the server's path from every route, which leaves the namespace index as `''`; it is `/`.
 */
function indexAtRoot<T extends { paths?: Record<string, unknown> }>(document: T): T {
  if (!document.paths || !('' in document.paths)) return document;
  const { '': index, ...paths } = document.paths;
  return { ...document, paths: { '/': index, ...paths } };
}

export async function registerDocumentation(
  app: FastifyInstance,
  registry: RouteRegistry,
  config: Config,
): Promise<void> {
  app.addSchema(ErrorSchema);
  for (const schema of SHARED_SCHEMAS) app.addSchema(schema);
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Calendar Events REST API',
        version: '1.0.0',
        description:
          'Event calendar API, wire-compatible with The Events Calendar v1 REST API (namespace calendar/events/v1). ' +
          'Every route is also served under /{lang}/calendar/events/v1/… for the 12 content languages; ' +
          'the i18n_language parameter wins over the path segment. ' +
          'Reference documentation: docs/api.md in the service\'s source repository (sections "Authentication", ' +
          '"Roles and permissions", "Dates and time zones", "Errors" and "Differences from The Events Calendar").',
      },
      servers: [{ url: `${config.publicUrl}${config.basePath}/${NAMESPACE}` }],
      components: {
        securitySchemes: {
          basicAuth: { type: 'http', scheme: 'basic', description: 'login:application-password' },
          bearerAuth: { type: 'http', scheme: 'bearer', description: 'an application password' },
        },
      },
    },
    transformObject: (documents) =>
      'openapiObject' in documents
        ? registry.withOperationIds(indexAtRoot(documents.openapiObject))
        : documents.swaggerObject,
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`),
    },
  });

  const querystring = { type: 'object', properties: { i18n_language: languageParameter } };
  registry.claimOperationIds('/', new Map([['GET', 'getNamespaceIndex']]));
  registry.claimOperationIds('/doc', new Map([['GET', 'getOpenApiDocument']]));
  registry.add('', { methods: ['GET'], args: {} });
  app.get(
    toFastifyUrl(''),
    { schema: { summary: 'Namespace index', operationId: 'getNamespaceIndex', tags: ['discovery'], querystring } },
    async (request) => namespaceIndex(registry, requestContext(request)),
  );
  registry.add('/doc', { methods: ['GET'], args: {} });
  app.get(
    toFastifyUrl('/doc'),
    {
      schema: {
        summary: 'OpenAPI 3.1 document of the API',
        operationId: 'getOpenApiDocument',
        tags: ['discovery'],
        querystring,
      },
    },
    async () => app.swagger(),
  );
}

/** OPTIONS on every route answers with `Allow` and the route's index entry, as WordPress does. */
export function registerOptionsRoutes(app: FastifyInstance, registry: RouteRegistry): void {
  for (const route of registry.routes.values()) {
    const methods = route.endpoints.flatMap((e) => e.methods);
    app.route({
      method: 'OPTIONS',
      url: toFastifyUrl(route.path),
      schema: { hide: true },
      handler: async (request, reply) => {
        reply.header('Allow', [...methods, 'OPTIONS'].join(', '));
        return describeRoute(route, requestContext(request));
      },
    });
  }
}
