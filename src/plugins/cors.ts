import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { withVary } from '../http/vary.js';
import { LANGUAGES } from '../i18n/languages.js';

const EXPOSED = [
  'X-WP-Total',
  'X-WP-TotalPages',
  'X-TEC-Total',
  'X-TEC-TotalPages',
  'Link',
  'ETag',
  'Last-Modified',
  'Retry-After',
  'RateLimit-Limit',
  'RateLimit-Remaining',
  'RateLimit-Reset',
].join(', ');

/** Preflight answers (API.md §25.2): listed origins may do everything; `*` only anonymous reads. */
const LISTED_PREFLIGHT = {
  'access-control-allow-methods': 'GET, HEAD, POST, PUT, PATCH, DELETE',
  'access-control-allow-headers':
    'Authorization, Content-Type, If-Match, If-None-Match, If-Modified-Since, If-Unmodified-Since',
  'access-control-max-age': '600',
};
const ANY_PREFLIGHT = {
  'access-control-allow-methods': 'GET, HEAD',
  'access-control-allow-headers': 'If-None-Match, If-Modified-Since',
  'access-control-max-age': '600',
};

const ADMIN = new RegExp(`^/(?:(?:${LANGUAGES.join('|')})/)?admin(?:[/?]|$)`, 'i');

export function isPreflight(request: IncomingMessage): boolean {
  return request.method === 'OPTIONS' && request.headers['access-control-request-method'] !== undefined;
}

/**
 * CORS as API.md §25.2 has it. Not @fastify/cors: cached responses are answered before Fastify
 * (plugins/response-cache.ts) and need the same headers, and `*` applies only to anonymous reads.
 */
export class Cors {
  private readonly listed: ReadonlySet<string>;
  private readonly any: boolean;

  constructor(origins: readonly string[] | '*') {
    this.any = origins === '*';
    this.listed = new Set(origins === '*' ? [] : origins);
  }

  /**
   * With a list, every answer depends on `Origin`, also one without CORS headers: a shared cache
   * must not hand a response made for no origin (or another one) to a listed one.
   */
  get variesByOrigin(): boolean {
    return this.listed.size > 0;
  }

  /** The headers letting `origin` read a response (not a preflight's), or null. */
  allow(origin: string | undefined, anonymousRead: boolean): Record<string, string> | null {
    if (origin === undefined) return null;
    if (this.listed.has(origin)) {
      return { 'access-control-allow-origin': origin, 'access-control-expose-headers': EXPOSED };
    }
    if (this.any && anonymousRead) {
      return { 'access-control-allow-origin': '*', 'access-control-expose-headers': EXPOSED };
    }
    return null;
  }

  /** The headers answering a preflight from `origin`, or null (it then gets none). */
  preflight(origin: string | undefined): Record<string, string> | null {
    if (origin === undefined) return null;
    if (this.listed.has(origin)) return { 'access-control-allow-origin': origin, ...LISTED_PREFLIGHT };
    return this.any ? { 'access-control-allow-origin': '*', ...ANY_PREFLIGHT } : null;
  }
}

function anonymousRead(request: IncomingMessage): boolean {
  return (request.method === 'GET' || request.method === 'HEAD') && !request.headers.authorization;
}

/**
 * Sets CORS headers first thing, so errors (429 included) are readable cross-origin too, and
 * answers preflights with 204 whatever the path. `/admin/` never gets CORS headers.
 */
export function registerCors(app: FastifyInstance, cors: Cors): void {
  // Callback style: a hook every request passes, without a promise per request.
  app.addHook('onRequest', (request, reply, done) => {
    const preflight = isPreflight(request.raw);
    if (!ADMIN.test(request.url)) {
      if (cors.variesByOrigin) reply.header('vary', withVary(reply.getHeader('vary'), 'Origin'));
      const origin = request.headers.origin;
      const headers = preflight ? cors.preflight(origin) : cors.allow(origin, anonymousRead(request.raw));
      if (headers) reply.headers(headers);
    }
    if (preflight) reply.code(204).send();
    else done();
  });
}
