import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { noneMatch } from '../http/conditional.js';

/** A strong ETag naming these bytes: the same body, the same tag, in any process. */
export function etagOfBytes(payload: string | Buffer): string {
  return `"${createHash('sha256').update(payload).digest('base64url').slice(0, 27)}"`;
}

/**
 * Lists, pages and every other read without validators of its own get an ETag of their body
 * (API.md §21): it changes exactly when the body does, so callers shown different bodies get
 * different tags, and a matching `If-None-Match` is answered 304 without a body. Single items set
 * theirs from revisions before rendering (modules/sync/validators.ts); iCalendar feeds theirs.
 * Registered before compression: the tag names the uncompressed representation.
 */
export function registerBodyEtags(app: FastifyInstance): void {
  // Callback style, like the other per-response hooks: no promise per response.
  app.addHook('onSend', (request, reply, payload, done) => {
    const method = request.raw.method;
    if (
      (method !== 'GET' && method !== 'HEAD') ||
      reply.statusCode !== 200 ||
      reply.hasHeader('etag') ||
      request.routeOptions.config.operational ||
      !(typeof payload === 'string' || Buffer.isBuffer(payload))
    ) {
      done(null, payload);
      return;
    }
    const etag = etagOfBytes(payload);
    reply.header('ETag', etag);
    const ifNoneMatch = request.headers['if-none-match'];
    if (ifNoneMatch !== undefined && noneMatch(ifNoneMatch, etag)) {
      reply.code(304);
      done(null, null);
      return;
    }
    done(null, payload);
  });
}
