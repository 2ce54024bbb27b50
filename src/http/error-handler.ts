import type { FastifyError, FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import { ApiError } from '../errors.js';
import type { Language } from '../i18n/languages.js';
import { translate } from '../i18n/translate.js';
import { errorLanguage } from '../plugins/request-context.js';

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

function fromFastifyError(error: FastifyError, config: Config): ApiError | undefined {
  if (error instanceof ApiError) return error;
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
    return new ApiError('rest_payload_too_large', { vars: { limit: config.bodyLimit } });
  if (error.code === 'FST_ERR_CTP_INVALID_CONTENT_LENGTH' || error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY')
    return new ApiError('rest_invalid_json');
  return undefined;
}

export function registerErrorHandling(app: FastifyInstance, config: Config): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const known = fromFastifyError(error, config);
    const lang = errorLanguage(request, config.defaultLanguage);
    if (known) return reply.code(known.status).send(renderError(known, lang));
    // Unexpected: a generic message for the client, the details only in the log (API.md §5).
    request.log.error({ err: error }, 'unhandled error');
    const internal = new ApiError('rest_internal_error');
    return reply.code(500).send(renderError(internal, lang));
  });
  app.setNotFoundHandler((request, reply) => {
    const error = new ApiError('rest_no_route');
    return reply.code(404).send(renderError(error, errorLanguage(request, config.defaultLanguage)));
  });
}
