import type { FastifyInstance } from 'fastify';
import qs from 'qs';
import { ApiError } from '../errors.js';

/** Query strings and form bodies: `name[]=a&name[]=b` and `name[0]=a` become arrays (API.md §6). */
export function parseQueryString(text: string): Record<string, unknown> {
  return qs.parse(text, { depth: 3, arrayLimit: 200, parameterLimit: 1000, allowDots: false });
}

/**
 * Request bodies: JSON (invalid → 400 rest_invalid_json), form-encoded, and anything else ignored
 * like WordPress does. Empty bodies are an empty parameter set.
 */
export function registerBodyParsers(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = String(body);
    if (text.trim() === '') return done(null, {});
    try {
      done(null, JSON.parse(text));
    } catch (error) {
      done(
        new ApiError('rest_invalid_json', {
          data: { json_error_message: error instanceof Error ? error.message : String(error) },
        }),
        undefined,
      );
    }
  });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    done(null, parseQueryString(String(body)));
  });
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, _body, done) => done(null, {}));
}
