import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../errors.js';

/** What a client's copy is compared with (API.md §21): a strong ETag and the last change, Unix seconds. */
export interface Validator {
  readonly etag: string;
  readonly lastModified: number;
}

/** The write preconditions a request sent (`If-Match`, `If-Unmodified-Since`). */
export interface WriteConditions {
  readonly ifMatch?: string;
  readonly ifUnmodifiedSince?: string;
}

const opaqueTag = (tag: string) => tag.trim().replace(/^W\//, '');

/** `If-None-Match` matches (weak comparison, RFC 9110 §13.1.2): `*` or any listed tag. */
export function noneMatch(header: string, etag: string): boolean {
  if (header.trim() === '*') return true;
  const current = opaqueTag(etag);
  return header.split(',').some((tag) => opaqueTag(tag) === current);
}

/** `If-Match` passes (strong comparison, RFC 9110 §13.1.1): `*` or a listed tag equal and not weak. */
function matches(header: string, etag: string): boolean {
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim() === etag);
}

/** An HTTP date at whole seconds, or undefined when the header is not one. */
function httpDate(value: string): number | undefined {
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : Math.floor(ms / 1000);
}

/** Whether a GET's client copy is current: a matching If-None-Match, or without one If-Modified-Since ≥ Last-Modified. */
export function isNotModified(request: FastifyRequest, validator: Validator): boolean {
  const { 'if-none-match': ifNoneMatch, 'if-modified-since': ifModifiedSince } = request.headers;
  if (ifNoneMatch !== undefined) return noneMatch(ifNoneMatch, validator.etag);
  if (ifModifiedSince === undefined) return false;
  const since = httpDate(ifModifiedSince);
  return since !== undefined && since >= validator.lastModified;
}

export function setValidatorHeaders(reply: FastifyReply, validator: Validator): FastifyReply {
  return reply
    .header('ETag', validator.etag)
    .header('Last-Modified', new Date(validator.lastModified * 1000).toUTCString());
}

/**
 * Sets a single item's ETag and Last-Modified, and answers 304 (no body) when the client's copy is
 * current. Returns true when it answered.
 */
export function answeredNotModified(request: FastifyRequest, reply: FastifyReply, validator: Validator): boolean {
  setValidatorHeaders(reply, validator);
  if (!isNotModified(request, validator)) return false;
  void reply.code(304).send();
  return true;
}

export function writeConditionsOf(request: FastifyRequest): WriteConditions {
  const { 'if-match': ifMatch, 'if-unmodified-since': ifUnmodifiedSince } = request.headers;
  return { ifMatch, ifUnmodifiedSince };
}

export const NO_CONDITIONS: WriteConditions = {};

/**
 * Checks a write's preconditions against the item's current validator, read only when the request
 * sent some (TEC clients send none and pay nothing). Call it after the existence and permission
 * checks, inside the write's transaction, before anything changes.
 */
export async function requireCurrent(
  conditions: WriteConditions,
  current: () => Promise<Validator | undefined>,
): Promise<void> {
  if (conditions.ifMatch === undefined && conditions.ifUnmodifiedSince === undefined) return;
  const validator = await current();
  if (validator) requirePrecondition(conditions, validator);
}

/**
 * The precondition of a write (API.md §21): unless `If-Match` lists the item's current ETag or is
 * `*` (or, without it, `If-Unmodified-Since` is not before the last change), 412 and nothing changes.
 * A header that is no HTTP date is ignored, as RFC 9110 §13.1.4 says.
 */
export function requirePrecondition(conditions: WriteConditions, current: Validator): void {
  const { ifMatch, ifUnmodifiedSince } = conditions;
  let failed = false;
  if (ifMatch !== undefined) failed = !matches(ifMatch, current.etag);
  else if (ifUnmodifiedSince !== undefined) {
    const since = httpDate(ifUnmodifiedSince);
    failed = since !== undefined && current.lastModified > since;
  }
  if (failed) throw new ApiError('rest_precondition_failed', { data: { etag: current.etag } });
}
