import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerOptions } from 'node:http';
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { FrequencyAdmission } from '../cache/admission.js';
import { ownBuffer, type CachedResponse, type KeptOver } from '../cache/entries.js';
import type { DataVersion } from '../changes/data-version.js';
import { VersionedCache } from '../cache/lru.js';
import { MB } from '../cache/maker.js';
import { formatSecondsInZone } from '../domain/dates.js';
import { zoneOf } from '../domain/timezones.js';
import { NAMESPACE } from '../http/urls.js';
import { negotiateEncoding, type Encoding } from './compression.js';
import type { CacheLookups } from './metrics.js';
import { noneMatch } from '../http/conditional.js';

declare module 'http' {
  interface IncomingMessage {
    /** The response cache key, when the server's front computed it (a GET without credentials). */
    calendarCacheKey?: string;
    /** The data version the front read for this request, when it looked for a hit and missed: the request's own version. */
    calendarDataVersion?: string;
  }
}

declare module 'fastify' {
  interface FastifyRequest {
    responseCacheKey: string | null;
    responseCacheVersion: string | null;
    responseCacheAsked: number;
    /**
     * Set by a handler that can tell which writes leave its response as it is (a venue list that
     * does not filter on events: writes that name no venue; an event list: writes that change no
     * event it shows and move none in or out): the response is then kept over those writes, as
     * the caches it was made from are.
     */
    responseCacheKeptOver: KeptOver | null;
  }
}

const KEPT_HEADERS = [
  'content-type',
  'content-language',
  'x-tec-total',
  'x-tec-totalpages',
  'x-wp-total',
  'x-wp-totalpages',
  'link',
  'content-encoding',
  'vary',
  'etag',
  'last-modified',
];

/** The headers a 304 repeats (RFC 9110 §15.4.5): those that would have described the body. */
const NOT_MODIFIED_HEADERS = ['etag', 'last-modified', 'vary', 'content-language'];

/**
 * Whether the client already has the stored response (API.md §21): a matching If-None-Match, or
 * without one an If-Modified-Since not before its Last-Modified.
 */
function clientHasCopy(request: IncomingMessage, stored: Record<string, string>): boolean {
  const { 'if-none-match': ifNoneMatch, 'if-modified-since': ifModifiedSince } = request.headers;
  if (stored.etag === undefined) return false;
  if (ifNoneMatch !== undefined) return noneMatch(ifNoneMatch, stored.etag);
  if (ifModifiedSince === undefined || stored['last-modified'] === undefined) return false;
  const since = Date.parse(ifModifiedSince);
  return !Number.isNaN(since) && since >= Date.parse(stored['last-modified']);
}

/** A stored response as sent to this request: whole, or as a 304 when the client has it. */
function answerOf(
  request: IncomingMessage,
  stored: CachedResponse,
): { status: 200 | 304; headers: Record<string, string> } {
  if (!clientHasCopy(request, stored.headers)) return { status: 200, headers: stored.headers };
  const headers: Record<string, string> = {};
  for (const name of NOT_MODIFIED_HEADERS) if (stored.headers[name] !== undefined) headers[name] = stored.headers[name];
  return { status: 304, headers };
}

/** Keys whose requests are counted, and requests between two halvings of the counts (FrequencyAdmission). */
const KEYS_COUNTED = 20_000;
const AGING_PERIOD = 50_000;

function anonymousGet(request: IncomingMessage): boolean {
  return request.method === 'GET' && !request.headers.authorization;
}

/** What the front does besides the cache: rate limits, CORS and metrics (composed in app.ts). */
export interface FrontHooks {
  /** Counts the request against its budget; false hands it to Fastify, which answers 429. */
  admit(request: IncomingMessage): boolean;
  /** The headers a hit is sent with to this request. */
  headers(request: IncomingMessage, stored: Record<string, string>): Record<string, string>;
  /** A hit was sent (200, or 304 to a client that had it); `started` is from performance.now(). */
  sent(route: string, started: number, status: number): void;
}

/**
 * The response cache for anonymous reads (issue "benchmark harness"). A current entry is served by
 * the HTTP server's front, before Fastify sees the request: routing, query parsing, hooks and the
 * reply object had cost twice what sending the cached bytes costs. Misses go through Fastify, whose
 * hooks (registerResponseCache) keep responses; a write bumps the data version after it commits and
 * before its response leaves, and every hit checks the version first, so no later read, in this
 * process or another, gets a stale entry.
 */
export class ResponseCache {
  private readonly admission = new FrequencyAdmission(KEYS_COUNTED, AGING_PERIOD);

  private readonly responses = new VersionedCache<CachedResponse>(5_000, 12 * MB, (response) => response.body.length);

  /** Requests answered from the cache and not, for `/metrics`. */
  readonly lookups: { -readonly [K in keyof CacheLookups]: number } = { hit: 0, miss: 0 };

  constructor(
    private readonly version: DataVersion,
    private readonly siteTimezone: string,
    private readonly clock: () => Date,
  ) {}

  /**
   * A response is keyed by the URL as received (base path, language segment and query included),
   * by the content encoding it is sent in (compression.ts), and by "now" as far as it depends on
   * it: the default date window on the site-zone day, `only_with_upcoming` on the second.
   */
  keyOf(receivedUrl: string, encoding: Encoding | null): string {
    const name = this.siteTimezone;
    const now = formatSecondsInZone(Math.floor(this.clock().getTime() / 1000), zoneOf(name), name);
    return `${receivedUrl.includes('only_with_upcoming') ? now : now.slice(0, 10)}|${encoding ?? ''}|${receivedUrl}`;
  }

  /** The entry current at `version`, counted as asked for when found. */
  currentHit(key: string, version: string): CachedResponse | undefined {
    const hit = this.responses.get(
      key,
      version,
      (storedUnder, stored) => stored.keptOver?.(this.version, storedUnder, version) ?? false,
    );
    if (hit) {
      this.admission.record(key);
      this.lookups.hit++;
    }
    return hit;
  }

  /** Counts a request that has no current entry; returns how often its key was asked for. */
  recordMiss(key: string): number {
    this.lookups.miss++;
    return this.admission.record(key);
  }

  /** Keeps a response asked for `times` if the admission policy takes it. */
  keep(
    key: string,
    version: string,
    times: number,
    reply: FastifyReply,
    payload: string | Buffer,
    keptOver: KeptOver | null,
  ): void {
    const size = typeof payload === 'string' ? Buffer.byteLength(payload) : payload.length;
    if (!this.admission.admits(this.responses, key, size, version, times)) return;
    const headers: Record<string, string> = {};
    for (const name of KEPT_HEADERS) {
      const value = reply.getHeader(name);
      if (value !== undefined) headers[name] = String(value);
    }
    headers['content-length'] = String(size);
    headers['x-calendar-cache'] = 'hit';
    // A copy: list bodies live in buffers reused after the response (http/reused-buffers.ts).
    this.responses.set(key, version, {
      headers,
      body: typeof payload === 'string' ? ownBuffer(payload) : Buffer.from(payload),
      route: reply.request.routeOptions.url ?? '',
      keptOver: keptOver ?? undefined,
    });
  }

  /**
   * A request listener that answers current hits itself and hands everything else to `next`
   * (Fastify). It reads the data version only when an entry of some version is under the key, and
   * only once the request is within its rate limit.
   */
  front(next: RequestListener, hooks: FrontHooks, log: () => FastifyBaseLogger): RequestListener {
    return (request, response) => {
      if (!anonymousGet(request)) return next(request, response);
      const key = this.keyOf(request.url ?? '/', negotiateEncoding(request.headers['accept-encoding']));
      request.calendarCacheKey = key;
      if (!this.responses.has(key) || !hooks.admit(request)) return next(request, response);
      const started = performance.now();
      this.version
        .current()
        .then(
          (version) => {
            const hit = this.currentHit(key, version);
            if (!hit) {
              // Read as the request began, before anything it reads: the request keeps it (http/context.ts).
              request.calendarDataVersion = version;
              return next(request, response);
            }
            const { status, headers } = answerOf(request, hit);
            response.writeHead(status, hooks.headers(request, headers));
            if (status === 200) response.end(hit.body);
            else response.end();
            hooks.sent(hit.route, started, status);
            // Fastify logs the requests it handles; a hit it never sees is logged here alike.
            log().info({ req: request, res: { statusCode: status }, cache: 'hit' }, 'request completed');
          },
          // Fastify reads the version again and answers the failure in the contract's envelope.
          () => next(request, response),
        )
        .catch((error: unknown) => {
          log().error({ err: error }, 'a cached response could not be sent');
          response.destroy();
        });
    };
  }
}

/** Fastify's server options that its own HTTP server factory applies (fastify/lib/server.js). */
interface HttpServerOptions {
  http?: ServerOptions;
  keepAliveTimeout: number;
  requestTimeout: number;
  connectionTimeout: number;
  maxRequestsPerSocket: number;
}

/** A Fastify `serverFactory`: an HTTP server like Fastify's own whose requests pass the cache's front first. */
export function serverWithCacheFront(cache: ResponseCache, hooks: FrontHooks, log: () => FastifyBaseLogger) {
  return (handler: RequestListener, options: HttpServerOptions): Server => {
    const server = createServer(options.http ?? {}, cache.front(handler, hooks, log));
    server.keepAliveTimeout = options.keepAliveTimeout;
    server.requestTimeout = options.requestTimeout;
    server.setTimeout(options.connectionTimeout);
    if (options.maxRequestsPerSocket > 0) server.maxRequestsPerSocket = options.maxRequestsPerSocket;
    return server;
  };
}

function cacheable(request: FastifyRequest): boolean {
  return anonymousGet(request.raw) && (request.routeOptions.url ?? '').startsWith(`/${NAMESPACE}`);
}

/**
 * The Fastify side of the response cache: keeps responses to cacheable reads and serves hits the
 * front did not (requests injected without a server, or kept meanwhile). Writes need nothing here:
 * the write helper bumps the data version once they commit (changes/writes.ts).
 */
export function registerResponseCache(app: FastifyInstance, version: DataVersion, cache: ResponseCache): void {
  app.decorateRequest('responseCacheKey', null);
  app.decorateRequest('responseCacheVersion', null);
  app.decorateRequest('responseCacheAsked', 0);
  app.decorateRequest('responseCacheKeptOver', null);
  app.addHook('preHandler', async (request, reply) => {
    if (!cacheable(request)) return;
    const key =
      request.raw.calendarCacheKey ??
      cache.keyOf(request.originalUrl, negotiateEncoding(request.headers['accept-encoding']));
    // The request's own version read: handlers reuse it for their fragment and count caches.
    const current = await (request.calendarContext?.dataVersion() ?? version.current());
    const hit = cache.currentHit(key, current);
    if (hit) {
      const { status, headers } = answerOf(request.raw, hit);
      await reply
        .code(status)
        .headers(headers)
        .send(status === 200 ? hit.body : undefined);
      return reply;
    }
    request.responseCacheKey = key;
    request.responseCacheVersion = current;
    request.responseCacheAsked = cache.recordMiss(key);
    reply.header('x-calendar-cache', 'miss');
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    const key = request.responseCacheKey;
    const current = request.responseCacheVersion;
    if (
      key !== null &&
      current !== null &&
      reply.statusCode === 200 &&
      (typeof payload === 'string' || Buffer.isBuffer(payload))
    )
      cache.keep(key, current, request.responseCacheAsked, reply, payload, request.responseCacheKeptOver);
    done(null, payload);
  });
}
