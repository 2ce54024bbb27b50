import type { FastifyInstance, FastifyRequest } from 'fastify';
import { FrequencyAdmission } from '../cache/admission.js';
import type { AppState } from '../http/context.js';
import { formatSecondsInZone } from '../http/dates.js';
import { zoneOf } from '../http/timezones.js';
import { NAMESPACE } from '../http/urls.js';

declare module 'fastify' {
  interface FastifyRequest {
    responseCacheKey: string | null;
    responseCacheVersion: string | null;
    responseCacheAsked: number;
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

/** Keys whose requests are counted, and requests between two halvings of the counts (FrequencyAdmission). */
const KEYS_COUNTED = 20_000;
const AGING_PERIOD = 50_000;

/**
 * The response cache for anonymous reads (issue "benchmark harness"): a hit is served before the
 * handler; a write bumps the data version after it commits and before its response leaves, so no
 * later read, in this process or another, gets a stale entry.
 */
export function registerResponseCache(app: FastifyInstance, state: AppState): void {
  const responses = state.caches.responses;
  const admission = new FrequencyAdmission(KEYS_COUNTED, AGING_PERIOD);
  app.decorateRequest('responseCacheKey', null);
  app.decorateRequest('responseCacheVersion', null);
  app.decorateRequest('responseCacheAsked', 0);
  if (responses) {
    app.addHook('preHandler', async (request, reply) => {
      if (!cacheable(request)) return;
      const key = cacheKey(state, request);
      // The request's own version read: handlers reuse it for their fragment and count caches.
      const version = await (request.calendarContext?.dataVersion() ?? state.caches.version.current());
      const asked = admission.record(key);
      const hit = responses.get(key, version);
      if (hit) {
        await reply.code(hit.status).headers({ ...hit.headers, 'x-calendar-cache': 'hit' }).send(hit.body);
        return reply;
      }
      request.responseCacheKey = key;
      request.responseCacheVersion = version;
      request.responseCacheAsked = asked;
      reply.header('x-calendar-cache', 'miss');
    });
  }
  app.addHook('onSend', async (request, reply, payload) => {
    if (WRITES.has(request.method)) {
      await state.caches.version.bump(request.calendarContext?.changes);
      return payload;
    }
    const key = request.responseCacheKey;
    const version = request.responseCacheVersion;
    if (!responses || key === null || version === null || reply.statusCode !== 200 || !(typeof payload === 'string' || Buffer.isBuffer(payload))) return payload;
    if (!admission.admits(responses, key, payload.length, version, request.responseCacheAsked)) return payload;
    const headers: Record<string, string> = {};
    for (const name of KEPT_HEADERS) {
      const value = reply.getHeader(name);
      if (value !== undefined) headers[name] = String(value);
    }
    // A copy: list bodies live in buffers reused after the response (http/reused-buffers.ts).
    responses.set(key, version, { status: 200, headers, body: typeof payload === 'string' ? payload : Buffer.from(payload) });
    return payload;
  });
}
