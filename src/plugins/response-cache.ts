import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { CachedResponse } from '../cache/caches.js';
import { LruCache } from '../cache/lru.js';
import type { AppState } from '../http/context.js';
import { formatSecondsInZone } from '../http/dates.js';
import { zoneOf } from '../http/timezones.js';
import { NAMESPACE } from '../http/urls.js';

declare module 'fastify' {
  interface FastifyRequest {
    responseCacheKey: string | null;
    responseCacheVersion: string | null;
  }
}

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const KEPT_HEADERS = ['content-type', 'content-language', 'x-tec-total', 'x-tec-totalpages', 'x-wp-total', 'x-wp-totalpages', 'link'];

/**
 * Responses depend on "now" through the default date window (days) and `only_with_upcoming`
 * (seconds): the key carries the site-zone day, and the second for upcoming filters.
 */
function cacheKey(state: AppState, request: FastifyRequest): string {
  const name = state.config.siteTimezone;
  const now = formatSecondsInZone(Math.floor(state.clock().getTime() / 1000), zoneOf(name), name);
  const stamp = request.url.includes('only_with_upcoming') ? now : now.slice(0, 10);
  return `${stamp}|${request.raw.calendarPathLanguage ?? ''}|${request.url}`;
}

function cacheable(request: FastifyRequest): boolean {
  return request.method === 'GET' && !request.headers.authorization && (request.routeOptions.url ?? '').startsWith(`/${NAMESPACE}`);
}

/**
 * Responses are kept from the second time their key is asked for: most searches are asked for once,
 * and copying each of those 40 KB pages into the cache evicted the pages read again and again and
 * made V8 collect every few hundred responses (benchmark `filtered`: 787 req/s and 1.45 ms of CPU
 * per request with the cache, 2,079 and 0.53 ms without).
 */
const ASKED_ONCE_KEPT = 20_000;

/**
 * The response cache for anonymous reads (issue "benchmark harness"): a hit is served before the
 * handler; a write bumps the data version after it commits and before its response leaves, so no
 * later read, in this process or another, gets a stale entry.
 */
export function registerResponseCache(app: FastifyInstance, state: AppState): void {
  const responses = state.caches.responses;
  app.decorateRequest('responseCacheKey', null);
  app.decorateRequest('responseCacheVersion', null);
  if (responses) {
    const askedOnce = new LruCache<true>(ASKED_ONCE_KEPT, ASKED_ONCE_KEPT);
    app.addHook('preHandler', async (request, reply) => {
      if (!cacheable(request)) return;
      const key = cacheKey(state, request);
      // The request's own version read: handlers reuse it for their fragment and count caches.
      const version = await (request.calendarContext?.dataVersion() ?? state.caches.version.current());
      const hit = responses.get(key, version);
      if (hit) {
        await reply.code(hit.status).headers({ ...hit.headers, 'x-calendar-cache': 'hit' }).send(hit.body);
        return reply;
      }
      if (askedOnce.get(key)) {
        request.responseCacheKey = key;
        request.responseCacheVersion = version;
      } else {
        askedOnce.set(key, true);
      }
      reply.header('x-calendar-cache', 'miss');
    });
  }
  app.addHook('onSend', async (request, reply, payload) => {
    if (WRITES.has(request.method)) {
      await state.caches.version.bump(request.calendarContext?.changes);
      return payload;
    }
    if (responses && request.responseCacheKey && reply.statusCode === 200 && (typeof payload === 'string' || Buffer.isBuffer(payload))) {
      const headers: Record<string, string> = {};
      for (const name of KEPT_HEADERS) {
        const value = reply.getHeader(name);
        if (value !== undefined) headers[name] = String(value);
      }
      // A copy: list bodies live in buffers reused after the response (http/reused-buffers.ts).
      const entry: CachedResponse = { status: 200, headers, body: typeof payload === 'string' ? payload : Buffer.from(payload) };
      responses.set(request.responseCacheKey, request.responseCacheVersion!, entry);
    }
    return payload;
  });
}
