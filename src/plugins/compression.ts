import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { withVary } from '../http/vary.js';

export type Encoding = 'br' | 'gzip';

/** Bodies up to this size are sent as they are: compressing them saves less than it costs. */
const MIN_SIZE = 1024;
const COMPRESSIBLE = /^(?:text\/|application\/(?:[\w.-]+\+)?(?:json|xml|javascript))/i;

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * Compresses on libuv's thread pool, off the event loop. Brotli at quality 4 (zlib's default is
 * 11, tens of times slower) compresses JSON about as well as gzip's default level 6, faster.
 */
function compress(encoding: Encoding, body: string | Buffer): Promise<Buffer> {
  if (encoding === 'gzip') return gzipAsync(body);
  return brotliAsync(body, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 4,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      [constants.BROTLI_PARAM_SIZE_HINT]: typeof body === 'string' ? Buffer.byteLength(body) : body.length,
    },
  });
}

function quality(params: readonly string[]): number {
  for (const param of params) {
    const [name, value = ''] = param.split('=');
    if (name.trim().toLowerCase() === 'q') {
      const q = Number(value.trim());
      return Number.isFinite(q) ? q : 1;
    }
  }
  return 1;
}

/**
 * The encoding a response to `acceptEncoding` is compressed with: brotli or gzip, whichever the
 * client ranks higher (brotli on a tie), null for neither. The response cache keys by it
 * (response-cache.ts), so a hit is sent as it was compressed.
 */
export function negotiateEncoding(acceptEncoding: string | undefined): Encoding | null {
  if (acceptEncoding === undefined || acceptEncoding === '') return null;
  let br = -1;
  let gz = -1;
  let any = -1;
  for (const part of acceptEncoding.split(',')) {
    const [name, ...params] = part.split(';');
    const token = name.trim().toLowerCase();
    if (token === 'br') br = quality(params);
    else if (token === 'gzip' || token === 'x-gzip') gz = quality(params);
    else if (token === '*') any = quality(params);
  }
  if (br < 0) br = any;
  if (gz < 0) gz = any;
  if (br <= 0 && gz <= 0) return null;
  return br >= gz ? 'br' : 'gzip';
}

/**
 * Compresses textual responses over 1 KB for clients that ask (`Accept-Encoding`): nothing changes
 * for those that do not. Registered before the response cache's hook, which then keeps the
 * compressed bytes.
 */
export function registerCompression(app: FastifyInstance): void {
  // Callback style: most responses pass through untouched, without a promise per response.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (!(typeof payload === 'string' || Buffer.isBuffer(payload)) || reply.hasHeader('content-encoding')) {
      done(null, payload);
      return;
    }
    const size = typeof payload === 'string' ? Buffer.byteLength(payload) : payload.length;
    if (size <= MIN_SIZE || !COMPRESSIBLE.test(String(reply.getHeader('content-type') ?? ''))) {
      done(null, payload);
      return;
    }
    reply.header('vary', withVary(reply.getHeader('vary'), 'Accept-Encoding'));
    const encoding = negotiateEncoding(request.headers['accept-encoding']);
    if (encoding === null) {
      done(null, payload);
      return;
    }
    compress(encoding, payload).then((compressed) => {
      reply.header('content-encoding', encoding);
      reply.removeHeader('content-length');
      done(null, compressed);
    }, done);
  });
}
