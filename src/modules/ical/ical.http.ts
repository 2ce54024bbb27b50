import type { FastifyReply, FastifyRequest } from 'fastify';
import type { IcalFile } from './ical.service.js';

/** `If-None-Match` matches (weak comparison, RFC 9110 §13.1.2): `*` or any listed tag. */
function noneMatch(header: string, etag: string): boolean {
  if (header.trim() === '*') return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => opaque(tag) === opaque(etag));
}

/** Whether the client's copy is current (API.md §19.1): a matching If-None-Match, or without one If-Modified-Since. */
function notModified(request: FastifyRequest, file: IcalFile): boolean {
  const { 'if-none-match': ifNoneMatch, 'if-modified-since': ifModifiedSince } = request.headers;
  if (ifNoneMatch !== undefined) return noneMatch(ifNoneMatch, file.etag);
  if (ifModifiedSince === undefined) return false;
  const since = Date.parse(ifModifiedSince);
  return !Number.isNaN(since) && since >= file.lastModified * 1000;
}

/** A filename that needs no quoting rules: slugs are URL-safe, anything else becomes `_`. */
const safeFilename = (name: string) => name.replace(/[^A-Za-z0-9._-]/g, '_');

/** Sends an iCalendar file with its caching headers (API.md §19.1), or 304 when the client has it. */
export function sendIcal(
  request: FastifyRequest,
  reply: FastifyReply,
  file: IcalFile,
  disposition: { type: 'inline' | 'attachment'; filename: string },
): FastifyReply {
  reply
    .header('Content-Type', 'text/calendar; charset=utf-8')
    .header('Content-Disposition', `${disposition.type}; filename="${safeFilename(disposition.filename)}"`)
    .header('ETag', file.etag)
    .header('Last-Modified', new Date(file.lastModified * 1000).toUTCString())
    .header('Cache-Control', 'public, max-age=300');
  if (file.total !== undefined) reply.header('X-WP-Total', file.total).header('X-TEC-Total', file.total);
  if (notModified(request, file)) return reply.code(304).send();
  return reply.send(file.bytes);
}
