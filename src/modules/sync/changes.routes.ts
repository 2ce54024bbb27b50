import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.js';
import type { Db } from '../../db/schema.js';
import { forbidden } from '../../errors.js';
import { arg, withDefault } from '../../http/args.js';
import { registerRoute, type RouteRegistry } from '../../http/routes.js';
import { errorResponses } from '../../http/schemas.js';
import { ITEM_ACTIONS, ITEM_TYPES } from '../../changes/change-set.js';
import { parseSince, purgeExpiredChanges, readChanges } from './changes.feed.js';

const MAX_PER_PAGE = 1000;

const changesArgs = {
  since: arg.string({ description: 'The token of the previous response (next_since); absent: start here' }),
  per_page: withDefault(
    arg.positiveInt({ description: `Most changes to return (clamped to ${MAX_PER_PAGE})` }),
    () => 100,
    100,
  ),
};

export const ChangesSchema = Type.Object({
  changes: Type.Array(
    Type.Object({
      type: Type.String({ enum: [...ITEM_TYPES] }),
      id: Type.Integer(),
      action: Type.String({ enum: [...ITEM_ACTIONS] }),
      modified_utc: Type.String({ description: 'Time of the change, UTC, YYYY-MM-DD HH:MM:SS' }),
    }),
  ),
  next_since: Type.String({ description: 'Token to resume after the last change returned' }),
  has_more: Type.Boolean(),
});

/** GET /changes (API.md §21.1): any authenticated user; each sees what it may read. */
export function registerChangesRoute(
  app: FastifyInstance,
  registry: RouteRegistry,
  deps: { db: Db; config: Config; clock: () => Date },
): void {
  registerRoute(app, registry, {
    methods: ['GET'],
    path: '/changes',
    operationId: 'listChanges',
    args: changesArgs,
    summary: 'Changes since a token, in commit order (incremental sync)',
    tags: ['sync'],
    secured: true,
    responses: { 200: ChangesSchema, ...errorResponses(400, 401, 410) },
    handler: async ({ ctx, args }, reply) => {
      const token = parseSince(args.since);
      if (!ctx.caller) throw forbidden(false);
      reply.header('Cache-Control', 'no-store');
      const perPage = Math.min(args.per_page, MAX_PER_PAGE);
      return readChanges(deps.db, deps.config, ctx.caller, token, perPage, deps.clock().getTime());
    },
  });
}

const PURGE_INTERVAL_MS = 3_600_000;

/** Forgets expired changes at start-up and hourly after (API.md §21.1 retention). */
export function schedulePurge(app: FastifyInstance, deps: { db: Db; config: Config; clock: () => Date }): void {
  const purge = () =>
    purgeExpiredChanges(deps.db, deps.config, deps.clock().getTime()).catch((error: unknown) =>
      app.log.error({ err: error }, 'expired changes could not be purged'),
    );
  const timer = setInterval(() => void purge(), PURGE_INTERVAL_MS).unref();
  app.addHook('onReady', async () => {
    await purge();
  });
  app.addHook('onClose', async () => clearInterval(timer));
}
