import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { noneMatch } from '../http/conditional.js';

/** A strong ETag naming these bytes: the same body, the same tag, in any process. */
export function etagOfBytes(payload: string | Buffer): string {
  return `"${createHash('sha256').update(payload).digest('base64url').slice(0, 27)}"`;
}

const DIGEST_SIZE = 32;
const itemDigests = new WeakMap<readonly Buffer[], Buffer>();

/** The SHA-256 of an item's bytes, kept while its parts are (cached renderings keep theirs until they change). */
function itemDigest(parts: readonly Buffer[]): Buffer {
  let digest = itemDigests.get(parts);
  if (!digest) {
    const hash = createHash('sha256');
    for (const part of parts) hash.update(part);
    itemDigests.set(parts, (digest = hash.digest()));
  }
  return digest;
}

/**
 * The ETag of a list body made of `head`, the items (each in parts) and `tail`, without hashing the
 * whole body again: it hashes the head, each item's digest and the tail. It depends on the bytes
 * alone (not on how an item is split into parts), so the same body gets the same tag in any process.
 */
export function etagOfItems(head: Buffer, items: readonly (readonly Buffer[])[], tail: Buffer): string {
  // One buffer and one update: a hash update costs about a microsecond whatever its size.
  const input = Buffer.allocUnsafe(8 + head.length + DIGEST_SIZE * items.length + tail.length);
  input.writeUInt32BE(head.length, 0);
  input.writeUInt32BE(items.length, 4);
  let offset = 8 + head.copy(input, 8);
  for (const item of items) offset += itemDigest(item).copy(input, offset);
  tail.copy(input, offset);
  return etagOfBytes(input);
}

const knownEtags = new WeakMap<Buffer, string>();

/** Sends `body` with an ETag computed while it was put together (etagOfItems): the hook below uses it. */
export function withKnownEtag(body: Buffer, etag: string): Buffer {
  knownEtags.set(body, etag);
  return body;
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
    const etag = (Buffer.isBuffer(payload) && knownEtags.get(payload)) || etagOfBytes(payload);
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
