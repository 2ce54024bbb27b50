import type { FastifyInstance, FastifyRequest } from 'fastify';
import qs from 'qs';
import { ApiError } from '../errors.js';

/**
 * A raw `text/calendar` body (the import's, API.md §19.3). Its bytes are a getter, not an own
 * property, so that parameter checks that walk every value (the NUL check) never walk 10 MiB.
 */
export class CalendarBody {
  readonly #bytes: Buffer;

  constructor(bytes: Buffer) {
    this.#bytes = bytes;
  }

  get bytes(): Buffer {
    return this.#bytes;
  }
}

/** Query strings and form bodies: `name[]=a&name[]=b` and `name[0]=a` become arrays (API.md §6). */
export function parseQueryString(text: string): Record<string, unknown> {
  return qs.parse(text, { depth: 3, arrayLimit: 200, parameterLimit: 1000, allowDots: false });
}

/**
 * A multipart form as the same parameter bag a form-encoded body gives (API.md §25.7: read as a
 * form); file parts carry no parameter and are skipped, except an `ics` file on a route that takes
 * iCalendar bodies (`curl -F ics=@export.ics`), kept as bytes like a `text/calendar` body.
 * Node's fetch implementation parses it.
 */
async function parseMultipart(body: Buffer, request: FastifyRequest): Promise<Record<string, unknown>> {
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(body), {
      headers: { 'content-type': request.headers['content-type'] ?? '' },
    }).formData();
  } catch {
    throw new ApiError('rest_bad_request');
  }
  const fields = new URLSearchParams();
  let calendar: CalendarBody | undefined;
  for (const [name, value] of form) {
    if (typeof value === 'string') fields.append(name, value);
    else if (name === 'ics' && request.routeOptions.config.calendarBody === true)
      calendar = new CalendarBody(Buffer.from(await value.arrayBuffer()));
  }
  const parsed = parseQueryString(fields.toString());
  return calendar ? { ...parsed, ics: calendar } : parsed;
}

/**
 * Request bodies (API.md §1, §25.7): JSON (invalid → 400 rest_invalid_json), form-encoded and
 * multipart forms. A non-empty body of any other type is 415; an empty one is no parameters.
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
  app.addContentTypeParser(
    'multipart/form-data',
    { parseAs: 'buffer' },
    async (request: FastifyRequest, body: Buffer) => (body.length === 0 ? {} : parseMultipart(body, request)),
  );
  // The import's raw iCalendar text, kept as bytes: it is decoded (UTF-8 checked) only after the
  // permission check (API.md §19.3); any other route answers 415 as for every unknown type.
  app.addContentTypeParser('text/calendar', { parseAs: 'buffer' }, (request, body: Buffer, done) => {
    if (body.length === 0) return done(null, {});
    if (request.routeOptions.config.calendarBody === true) return done(null, { ics: new CalendarBody(body) });
    done(new ApiError('rest_unsupported_media_type'), undefined);
  });
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body: Buffer, done) => {
    if (body.length === 0) return done(null, {});
    done(new ApiError('rest_unsupported_media_type'), undefined);
  });
}
