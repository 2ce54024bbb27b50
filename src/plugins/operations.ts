import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { sql } from 'kysely';
import type { Config } from '../config.js';
import type { Db } from '../db/schema.js';
import { forbidden } from '../errors.js';
import type { Metrics } from './metrics.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Health, readiness and metrics (API.md §25.4): no rate limit, no caller, no language. */
    operational?: boolean;
  }
}

const READY_WITHIN_MS = 1_000;

export interface OperationsOptions {
  readonly db: Db;
  readonly metrics: Metrics;
  /** What `/health` says of the in-memory search candidates (`npm run bench` waits for `ready`). */
  searchIndexState(): string;
  /** Counts the kept list totals again and compares (`POST /reconcile`). */
  reconcileCounts(): Promise<{ checked: number; differences: number; details: unknown[] }>;
}

/** Whether a trivial query answers within a second; a slower database counts as down. */
async function databaseAnswers(db: Db): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), READY_WITHIN_MS);
  });
  const query = sql`SELECT 1`.execute(db).then(
    () => true,
    () => false,
  );
  try {
    return await Promise.race([query, late]);
  } finally {
    clearTimeout(timer);
  }
}

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Compares digests, so the time taken tells nothing of the token (nor of its length). */
function bearerMatches(header: string | undefined, token: string): boolean {
  return header !== undefined && timingSafeEqual(digest(header), digest(`Bearer ${token}`));
}

function noStore(reply: FastifyReply): FastifyReply {
  return reply.header('cache-control', 'no-store');
}

/**
 * `/health`, `/ready` and `/metrics` (API.md §25.4): outside the namespace and the language
 * segment, not in `/doc`, never rate-limited, never cached. `/ready` answers 503 from the start
 * of a graceful shutdown on, so a load balancer stops sending requests while in-flight ones end.
 */
export function registerOperations(app: FastifyInstance, config: Config, options: OperationsOptions): void {
  let shuttingDown = false;
  app.addHook('preClose', async () => {
    shuttingDown = true;
  });
  const route = { config: { operational: true }, schema: { hide: true } };
  const status = { type: 'object', properties: { status: { type: 'string' } } };
  // `search_index` (beyond the contract's `status`): whether the in-memory search candidates are
  // built; at a million events that takes seconds after start. Always `ready` with ACCELERATION=off.
  const health = { type: 'object', properties: { status: { type: 'string' }, search_index: { type: 'string' } } };
  app.get('/health', { ...route, schema: { hide: true, response: { 200: health } } }, async (_request, reply) => {
    noStore(reply);
    return { status: 'ok', search_index: options.searchIndexState() };
  });
  app.get('/ready', { ...route, schema: { hide: true, response: { 200: status, 503: status } } }, async (_, reply) => {
    noStore(reply);
    if (!shuttingDown && (await databaseAnswers(options.db))) return { status: 'ok' };
    return reply.code(503).send({ status: 'unavailable' });
  });
  app.get('/metrics', route, async (request, reply) => {
    noStore(reply);
    if (config.metricsToken !== undefined && !bearerMatches(request.headers.authorization, config.metricsToken)) {
      throw forbidden(false);
    }
    const { registry } = options.metrics;
    return reply.type(registry.contentType).send(await registry.metrics());
  });
  // Proves the totals kept across writes right (docs/api.md): only with METRICS_TOKEN, as it
  // counts every kept list again in SQL.
  app.post('/reconcile', route, async (request, reply) => {
    noStore(reply);
    if (config.metricsToken === undefined || !bearerMatches(request.headers.authorization, config.metricsToken)) {
      throw forbidden(false);
    }
    const found = await options.reconcileCounts();
    if (found.differences > 0) request.log.warn({ reconciliation: found }, 'kept list totals differed from a recount');
    return found;
  });
}
