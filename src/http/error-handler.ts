import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { ApiError, type ErrorCode } from '../errors.js';
import type { Language } from '../i18n/languages.js';
import { translate } from '../i18n/translate.js';
import { errorLanguage } from '../plugins/request-context.js';
import { NAMESPACE } from './urls.js';

export interface ErrorBody {
  code: string;
  message: string;
  data: Record<string, unknown> & { status: number };
}

/** The one renderer of the error envelope (API.md §5). */
export function renderError(error: ApiError, lang: Language): ErrorBody {
  const { options } = error;
  const data: ErrorBody['data'] = { status: error.status, ...options.data };
  let vars = options.vars ?? {};
  if (options.missing) {
    vars = { ...vars, params: options.missing.join(', ') };
    data.params = [...options.missing];
  }
  if (options.invalid) {
    const names = [...options.invalid.keys()];
    vars = { ...vars, params: names.join(', ') };
    const params: Record<string, string> = {};
    const details: Record<string, { code: string; message: string }> = {};
    for (const [name, problem] of options.invalid) {
      params[name] = translate(lang, problem.message, { param: name, ...problem.vars });
      if (problem.code) details[name] = { code: problem.code, message: params[name] };
    }
    data.params = params;
    data.details = Object.keys(details).length > 0 ? details : [];
  }
  return { code: error.code, message: translate(lang, error.messageKey, vars), data };
}

/** Fastify's own errors in the contract's terms; undefined for an unexpected failure. */
function fromFastifyError(error: FastifyError, config: Config, bodyLimit = config.bodyLimit): ApiError | undefined {
  if (error instanceof ApiError) return error;
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError('rest_payload_too_large', { vars: { limit: bodyLimit } });
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiError('rest_invalid_json');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError('rest_unsupported_media_type');
    case 'FST_ERR_BAD_URL':
      return new ApiError('rest_bad_request');
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new ApiError('rest_uri_too_long');
  }
  // Any other complaint of the framework about the request keeps its status, in the envelope.
  // Errors thrown by other code reach here too, often with no `code` at all.
  const code: unknown = error.code;
  const status = error.statusCode ?? 500;
  if (typeof code === 'string' && code.startsWith('FST_') && status >= 400 && status < 500)
    return new ApiError('rest_bad_request', { status });
  return undefined;
}

/** Errors raised while reading a body: on an unknown route the route is what is wrong (API.md §1). */
const BODY_ERRORS: ReadonlySet<string> = new Set([
  'rest_invalid_json',
  'rest_unsupported_media_type',
  'rest_payload_too_large',
  'rest_bad_request',
]);

function isApiRequest(request: FastifyRequest): boolean {
  return (
    request.url === `/${NAMESPACE}` ||
    request.url.startsWith(`/${NAMESPACE}/`) ||
    request.url.startsWith(`/${NAMESPACE}?`)
  );
}

function sendError(request: FastifyRequest, reply: FastifyReply, error: ApiError, lang: Language): FastifyReply {
  // Browsers would pop a login dialog for `Basic`; HTML pages never ask (API.md §18).
  if (error.status === 401 && isApiRequest(request)) reply.header('WWW-Authenticate', 'Bearer realm="calendar"');
  return reply.code(error.status).send(renderError(error, lang));
}

/**
 * `onUnmatched` hears of every answer to a request no route matched (those pass no route's hooks:
 * plugins/metrics.ts counts them this way).
 */
export function registerErrorHandling(
  app: FastifyInstance,
  config: Config,
  onUnmatched: (request: FastifyRequest, reply: FastifyReply, status: number) => void,
  htmlNotFound: (request: FastifyRequest, reply: FastifyReply) => FastifyReply,
): void {
  const answer = (request: FastifyRequest, reply: FastifyReply, error: ApiError, lang: Language) => {
    if (request.is404) onUnmatched(request, reply, error.status);
    return sendError(request, reply, error, lang);
  };
  app.setErrorHandler((error: FastifyError, request, reply) => {
    // A route may have its own limit (the import's, API.md §19.3).
    let known = fromFastifyError(error, config, request.routeOptions.bodyLimit);
    if (known && request.is404 && BODY_ERRORS.has(known.code)) known = new ApiError('rest_no_route');
    const lang = errorLanguage(request, config.defaultLanguage);
    if (known) return answer(request, reply, known, lang);
    // Unexpected: a generic message for the client, the details only in the log (API.md §5).
    request.log.error({ err: error }, 'unhandled error');
    return answer(request, reply, new ApiError('rest_internal_error'), lang);
  });
  app.setNotFoundHandler((request, reply) => {
    // Unknown paths outside the API and the iCalendar routes are the website's 404 page (API.md §23.1).
    if (!isApiRequest(request) && !request.url.startsWith('/ical/')) {
      onUnmatched(request, reply, 404);
      return htmlNotFound(request, reply);
    }
    return answer(request, reply, new ApiError('rest_no_route'), errorLanguage(request, config.defaultLanguage));
  });
}

/**
 * Fastify's `frameworkErrors`: a URL the router cannot read (bad percent-encoding, an over-long
 * path segment) is answered before any hook runs, so only the path's language is known.
 */
export function frameworkErrorHandler(config: Config) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply): void => {
    const known = fromFastifyError(error, config) ?? new ApiError('rest_internal_error');
    if (known.status >= 500) request.log.error({ err: error }, 'unhandled framework error');
    void reply
      .code(known.status)
      .header('Content-Language', request.raw.calendarPathLanguage ?? config.defaultLanguage)
      .send(renderError(known, request.raw.calendarPathLanguage ?? config.defaultLanguage));
  };
}

/**
 * Node's `clientError`: requests the HTTP parser rejects (headers too large, malformed, too slow)
 * never become requests; they still get the contract's envelope, then the connection closes.
 */
export function clientErrorHandler(config: Config) {
  return (error: Error & { code?: string }, socket: Duplex): void => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const code: ErrorCode =
      error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? 'rest_request_timeout'
        : error.code === 'HPE_HEADER_OVERFLOW'
          ? 'rest_headers_too_large'
          : 'rest_bad_request';
    const known = new ApiError(code);
    const body = JSON.stringify(renderError(known, config.defaultLanguage));
    if (socket.writable) {
      socket.write(
        `HTTP/1.1 ${known.status} ${STATUS_CODES[known.status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
          `Content-Language: ${config.defaultLanguage}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy(error);
  };
}
