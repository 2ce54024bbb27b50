import type { ServerResponse } from 'node:http';

/** Bodies smaller than this are cheap to allocate (Node's own pool serves them). */
const REUSED_FROM = 16 * 1024;
const KEPT = 16;
const free: Buffer[] = [];

/**
 * Concatenates a response body into a buffer reused once the response has been handed to the
 * operating system. A fresh 100 KB buffer per list response (50 events) made V8 run a full
 * collection every few dozen responses (external memory pressure), which set the tail latency.
 */
export function concatForResponse(chunks: readonly Buffer[], response: ServerResponse): Buffer {
  let size = 0;
  for (const chunk of chunks) size += chunk.length;
  if (size < REUSED_FROM) return Buffer.concat(chunks, size);
  const index = free.findIndex((buffer) => buffer.length >= size);
  const target = index >= 0 ? free.splice(index, 1)[0] : Buffer.allocUnsafeSlow(2 ** Math.ceil(Math.log2(size)));
  let offset = 0;
  for (const chunk of chunks) offset += chunk.copy(target, offset);
  // 'finish': the last byte is with the OS. A response that closes before (the client left) keeps its buffer.
  response.once('finish', () => {
    if (free.length < KEPT) free.push(target);
  });
  return target.subarray(0, size);
}
