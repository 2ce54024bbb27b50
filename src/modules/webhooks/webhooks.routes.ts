import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { RequestContext } from '../../http/context.js';
import { pageLinks, setListHeaders, totalPages } from '../../http/lists.js';
import { idParam, registerRoute, type RouteRegistry } from '../../http/routes.js';
import { errorResponses } from '../../http/schemas.js';
import {
  deliveryListArgs,
  deliveryListSchema,
  DeliverySchema,
  webhookCreateArgs,
  webhookListArgs,
  webhookListSchema,
  WebhookSchema,
  webhookUpdateArgs,
} from './webhooks.schemas.js';
import * as service from './webhooks.service.js';

const WebhookRef = Type.Ref(WebhookSchema);
const DeliveryRef = Type.Ref(DeliverySchema);

function deliveryParam(params: { delivery_id?: number }): number {
  if (params.delivery_id === undefined) throw new Error('the route has no {delivery_id} path parameter');
  return params.delivery_id;
}

/** Administrator-managed webhooks and their delivery logs (API.md §22). */
export function registerWebhookRoutes(
  app: FastifyInstance,
  registry: RouteRegistry,
  webhooks: service.WebhooksModule,
): void {
  const tags = ['webhooks'];
  const secured = true;
  const paged = (
    ctx: RequestContext,
    path: string,
    query: [string, string | number | undefined][],
    page: number,
    total: number,
    perPage: number,
  ) => {
    const pages = totalPages(total, perPage);
    return {
      pages,
      links: pageLinks((q) => ctx.urls.rest(path, q), query, page, page < pages, page > 1, true),
    };
  };

  registerRoute(app, registry, {
    methods: ['GET'],
    path: '/webhooks',
    operationId: 'listWebhooks',
    args: webhookListArgs,
    summary: 'List webhooks',
    tags,
    secured,
    responses: { 200: webhookListSchema, ...errorResponses(400, 401, 403) },
    handler: async ({ ctx, args }, reply) => {
      const { items, total } = await service.listWebhooks(webhooks, ctx, args.page, args.per_page);
      const { pages, links } = paged(
        ctx,
        'webhooks',
        [
          ['page', args.page],
          ['per_page', args.per_page],
        ],
        args.page,
        total,
        args.per_page,
      );
      setListHeaders(reply, total, pages, links);
      return { webhooks: items, ...links, total, total_pages: pages };
    },
  });

  registerRoute(app, registry, {
    methods: ['POST'],
    path: '/webhooks',
    operationId: 'createWebhook',
    args: webhookCreateArgs,
    summary: 'Create a webhook (its secret is in this response only)',
    tags,
    secured,
    responses: { 201: WebhookRef, ...errorResponses(400, 401, 403) },
    handler: async ({ ctx, args }, reply) => {
      const webhook = await service.createWebhook(webhooks, ctx, args);
      // The one response that carries the secret: no shared cache may keep it.
      reply.code(201).header('Cache-Control', 'no-store');
      return webhook;
    },
  });

  registerRoute(app, registry, {
    methods: ['GET'],
    path: '/webhooks/{id}',
    operationId: 'getWebhookById',
    args: {},
    summary: 'Read a webhook',
    tags,
    secured,
    responses: { 200: WebhookRef, ...errorResponses(401, 403, 404) },
    handler: async ({ ctx, params }) => service.readWebhook(webhooks, ctx, idParam(params)),
  });

  registerRoute(app, registry, {
    methods: ['POST', 'PUT', 'PATCH'],
    path: '/webhooks/{id}',
    operationId: 'updateWebhookById',
    args: webhookUpdateArgs,
    summary: 'Update a webhook (partial; active=false cancels pending deliveries)',
    tags,
    secured,
    responses: { 200: WebhookRef, ...errorResponses(400, 401, 403, 404) },
    handler: async ({ ctx, params, args }) => service.updateWebhook(webhooks, ctx, idParam(params), args),
  });

  registerRoute(app, registry, {
    methods: ['DELETE'],
    path: '/webhooks/{id}',
    operationId: 'deleteWebhookById',
    args: {},
    summary: 'Delete a webhook and its delivery log',
    tags,
    secured,
    responses: { 200: WebhookRef, ...errorResponses(401, 403, 404) },
    handler: async ({ ctx, params }) => service.deleteWebhook(webhooks, ctx, idParam(params)),
  });

  registerRoute(app, registry, {
    methods: ['GET'],
    path: '/webhooks/{id}/deliveries',
    operationId: 'listWebhookDeliveries',
    args: deliveryListArgs,
    summary: "A webhook's deliveries, newest first",
    tags,
    secured,
    responses: { 200: deliveryListSchema, ...errorResponses(400, 401, 403, 404) },
    handler: async ({ ctx, params, args }, reply) => {
      const id = idParam(params);
      const { items, total } = await service.listDeliveries(webhooks, ctx, id, args);
      const query: [string, string | number | undefined][] = [
        ['page', args.page],
        ['per_page', args.per_page],
        ['status', args.status],
      ];
      const { pages, links } = paged(ctx, `webhooks/${id}/deliveries`, query, args.page, total, args.per_page);
      setListHeaders(reply, total, pages, links);
      return { deliveries: items, ...links, total, total_pages: pages };
    },
  });

  registerRoute(app, registry, {
    methods: ['GET'],
    path: '/webhooks/{id}/deliveries/{delivery_id}',
    operationId: 'getWebhookDelivery',
    args: {},
    summary: 'Read a delivery',
    tags,
    secured,
    responses: { 200: DeliveryRef, ...errorResponses(401, 403, 404) },
    handler: async ({ ctx, params }) => service.readDelivery(webhooks, ctx, idParam(params), deliveryParam(params)),
  });

  registerRoute(app, registry, {
    methods: ['POST'],
    path: '/webhooks/{id}/deliveries/{delivery_id}/redeliver',
    operationId: 'redeliverWebhookDelivery',
    args: {},
    summary: 'Deliver again: back to pending, retry schedule restarted',
    tags,
    secured,
    responses: { 202: DeliveryRef, ...errorResponses(401, 403, 404) },
    handler: async ({ ctx, params }, reply) => {
      const delivery = await service.redeliver(webhooks, ctx, idParam(params), deliveryParam(params));
      reply.code(202);
      return delivery;
    },
  });

  registerRoute(app, registry, {
    methods: ['POST'],
    path: '/webhooks/{id}/ping',
    operationId: 'pingWebhook',
    args: {},
    summary: 'Send webhook.ping now and wait for the answer (never retried)',
    tags,
    secured,
    responses: { 200: DeliveryRef, ...errorResponses(401, 403, 404) },
    handler: async ({ ctx, params }) => service.ping(webhooks, ctx, idParam(params)),
  });
}
