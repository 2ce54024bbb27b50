import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Caller } from '../auth/caller.js';
import type { Config } from '../config.js';
import { ApiError } from '../errors.js';
import { isPreflight } from './cors.js';

declare module 'http' {
  interface IncomingMessage {
    /** The budget an anonymous request was counted against, so the cache front and Fastify count it once. */
    calendarRateCount?: RateCount | null;
  }
}

/** Where a request stands in one budget's current window. */
export interface RateCount {
  readonly limit: number;
  readonly remaining: number;
  /** Seconds until the window ends. */
  readonly reset: number;
  readonly over: boolean;
}

const WINDOW_MS = 60_000;

/**
 * Requests per key in fixed 60-second windows aligned on the clock (API.md §25.1). The counts of a
 * window are dropped whole when it ends, so memory is bounded by the clients of one minute.
 */
class FixedWindow {
  private window = -1;
  private counts = new Map<string, number>();

  constructor(private readonly limit: number) {}

  take(key: string, nowMs: number): RateCount {
    const window = Math.floor(nowMs / WINDOW_MS);
    if (window !== this.window) {
      this.window = window;
      this.counts = new Map();
    }
    const count = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, count);
    return {
      limit: this.limit,
      remaining: Math.max(0, this.limit - count),
      reset: Math.ceil(((window + 1) * WINDOW_MS - nowMs) / 1000),
      over: count > this.limit,
    };
  }
}

/** Of two budgets a request counted against, the one that decides: exceeded first, else the fewest left. */
function tightest(a: RateCount | null, b: RateCount | null): RateCount | null {
  if (a === null || b === null) return a ?? b;
  if (a.over !== b.over) return a.over ? a : b;
  return a.remaining <= b.remaining ? a : b;
}

const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

function hasCredentials(request: IncomingMessage): boolean {
  const header = request.headers.authorization;
  return header !== undefined && header.trim() !== '';
}

/**
 * The three budgets of API.md §25.1, each off at 0: requests per minute (anonymous ones per client
 * IP, authenticated reads per user), authenticated writes per user, and failed authentications per
 * IP, which only answer further *failing* attempts with 429. Counted per process.
 *
 * Not @fastify/rate-limit: a response-cache hit is answered before Fastify sees the request
 * (response-cache.ts) yet must be counted first; the per-user budgets are known only once the
 * caller is authenticated; and the failed-authentication budget counts outcomes, not requests.
 */
export class RateLimits {
  private readonly requests: FixedWindow | null;
  private readonly writes: FixedWindow | null;
  private readonly failures: FixedWindow | null;
  private readonly trusted: (address: string, hop: number) => boolean;

  constructor(
    config: Config,
    private readonly clock: () => Date,
  ) {
    const window = (limit: number) => (limit > 0 ? new FixedWindow(limit) : null);
    this.requests = window(config.rateLimitPerMinute);
    this.writes = window(config.rateLimitWritesPerMinute);
    this.failures = window(config.rateLimitFailedAuthPerMinute);
    this.trusted = proxyAddr.compile([...config.trustProxy]);
  }

  /** The socket's address, or the `X-Forwarded-For` entry added by the nearest untrusted hop. */
  clientIp(request: IncomingMessage): string {
    return proxyAddr(request, this.trusted);
  }

  /** Whether requests without credentials are counted (RATE_LIMIT_PER_MINUTE is on). */
  get countsAnonymous(): boolean {
    return this.requests !== null;
  }

  /** Counts a request without credentials against its IP's budget, once per request. */
  anonymous(request: IncomingMessage): RateCount | null {
    if (request.calendarRateCount === undefined) {
      request.calendarRateCount = this.requests?.take(this.clientIp(request), this.clock().getTime()) ?? null;
    }
    return request.calendarRateCount;
  }

  /** Counts an authenticated request against its user's read or write budget. */
  authenticated(request: IncomingMessage, caller: Caller): RateCount | null {
    const budget = READS.has(request.method ?? 'GET') ? this.requests : this.writes;
    return budget?.take(`user:${caller.userId}`, this.clock().getTime()) ?? null;
  }

  /** Counts a failed authentication against its IP's request and failure budgets. */
  failedAuthentication(request: IncomingMessage): RateCount | null {
    const now = this.clock().getTime();
    const ip = this.clientIp(request);
    return tightest(this.requests?.take(ip, now) ?? null, this.failures?.take(ip, now) ?? null);
  }

  /** The IETF draft's headers, sent on every response counted against a budget. */
  headers(count: RateCount): Record<string, string> {
    return {
      'ratelimit-limit': String(count.limit),
      'ratelimit-remaining': String(count.remaining),
      'ratelimit-reset': String(count.reset),
    };
  }

  /** Sets the headers of `count` and throws 429 when the request is over its budget. */
  enforce(reply: FastifyReply, count: RateCount | null): void {
    if (count === null) return;
    reply.headers(this.headers(count));
    if (!count.over) return;
    reply.header('retry-after', String(count.reset));
    throw new ApiError('rest_too_many_requests', { vars: { seconds: count.reset } });
  }
}

function exempt(request: FastifyRequest): boolean {
  return request.routeOptions.config.operational === true || isPreflight(request.raw);
}

/**
 * Anonymous requests are counted by the first hook, before anything else runs (the cache front
 * may have counted them already); requests with credentials by `onAuthentication` and
 * `onFailedAuthentication` once the request context knows the caller.
 */
export function registerRateLimits(app: FastifyInstance, limits: RateLimits): void {
  // Off, the hook would still cost every request its call.
  if (!limits.countsAnonymous) return;
  app.addHook('onRequest', async (request, reply) => {
    if (exempt(request) || hasCredentials(request.raw)) return;
    limits.enforce(reply, limits.anonymous(request.raw));
  });
}

/**
 * What the request context reports of each authentication (plugins/request-context.ts); it skips
 * the operational routes, and preflights are answered before it runs.
 */
export interface AuthenticationGuard {
  onAuthentication(request: FastifyRequest, reply: FastifyReply, caller: Caller | null): void;
  onFailedAuthentication(request: FastifyRequest, reply: FastifyReply): void;
}

export function authenticationGuard(limits: RateLimits): AuthenticationGuard {
  return {
    onAuthentication: (request, reply, caller) =>
      limits.enforce(reply, caller ? limits.authenticated(request.raw, caller) : limits.anonymous(request.raw)),
    onFailedAuthentication: (request, reply) => limits.enforce(reply, limits.failedAuthentication(request.raw)),
  };
}
