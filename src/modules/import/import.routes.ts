import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { arg, fail, ok, withDefault, type ArgSpec } from '../../http/args.js';
import { CalendarBody } from '../../http/body.js';
import { ApiError, invalidParam } from '../../errors.js';
import { registerRoute, type RouteRegistry } from '../../http/routes.js';
import { errorResponses } from '../../http/schemas.js';
import { importUrl, isFetchableScheme } from './ics.fetch.js';
import { importCalendar, type ImportDeps } from './import.service.js';

/** The import's own body limit (API.md §19.3): 10 MiB, BODY_LIMIT elsewhere. */
export const IMPORT_BODY_LIMIT = 10 * 1024 * 1024;

/** `ics`: the text in a JSON or form body, or the bytes of a `text/calendar` body. */
const icsArg: ArgSpec<string | Uint8Array, false> = {
  schema: Type.String({ description: 'The iCalendar text (or send it as the body with Content-Type: text/calendar)' }),
  required: false,
  always: false,
  parse: (raw, name) => {
    if (typeof raw === 'string') return ok(raw);
    if (raw instanceof CalendarBody) return ok(raw.bytes);
    return fail('not_of_type', { param: name, type: 'string' }, 'rest_invalid_type');
  },
};

/** `url`: an absolute URL; its scheme is checked apart (rest_import_url_forbidden, API.md §25.7). */
const urlArg: ArgSpec<URL, false> = {
  schema: Type.String({ description: 'An http, https or webcal URL to fetch the iCalendar file from', format: 'uri' }),
  required: false,
  always: false,
  parse: (raw, name) => {
    const url = typeof raw === 'string' ? importUrl(raw) : null;
    return url ? ok(url) : fail('must_be_url', { param: name });
  },
};

export const importArgs = {
  ics: icsArg,
  url: urlArg,
  dry_run: withDefault(
    arg.boolean({ description: 'Report what would change without changing anything' }),
    () => false,
    false,
  ),
  status: withDefault(
    arg.enumOf(['publish', 'draft', 'pending', 'private'] as const, { description: 'The status of new events' }),
    () => 'publish' as const,
    'publish',
  ),
  categories: arg.idOrSlugList({ description: 'Categories (ids, slugs or new names) added to every imported event' }),
  tags: arg.idOrSlugList({ description: 'Tags (ids, slugs or new names) added to every imported event' }),
};

const ImportResultSchema = Type.Object(
  {
    created: Type.Array(Type.Union([Type.Integer(), Type.String()]), {
      description: 'Ids of created events (in a dry run, the UIDs that would be created)',
    }),
    updated: Type.Array(Type.Integer()),
    unchanged: Type.Array(Type.Integer()),
    skipped: Type.Array(Type.Object({ uid: Type.Union([Type.String(), Type.Null()]), reason: Type.String() })),
    dry_run: Type.Boolean(),
  },
  { $id: 'ImportResult', description: 'What an iCalendar import did (API.md §19.3)' },
);

/** POST /import/ics (API.md §19.3). */
export function registerImportRoutes(app: FastifyInstance, registry: RouteRegistry, deps: ImportDeps): void {
  app.addSchema(ImportResultSchema);
  registerRoute(app, registry, {
    methods: ['POST'],
    path: '/import/ics',
    operationId: 'importIcs',
    args: importArgs,
    summary: 'Import events from an iCalendar text, file or URL (editors and administrators)',
    tags: ['import'],
    secured: true,
    bodyLimit: IMPORT_BODY_LIMIT,
    calendarBody: true,
    responses: { 200: Type.Ref(ImportResultSchema), ...errorResponses(400, 401, 403, 413, 415) },
    handler: async ({ ctx, args }) => {
      // Parameters first, permissions next (importCalendar), the text or URL last (API.md §19.3).
      if (args.ics === undefined && args.url === undefined)
        throw new ApiError('rest_missing_callback_param', { missing: ['ics'] });
      if (args.ics !== undefined && args.url !== undefined) throw invalidParam('url', { message: 'import_ics_or_url' });
      if (args.url && !isFetchableScheme(args.url)) throw new ApiError('rest_import_url_forbidden');
      return importCalendar(deps, ctx, {
        ics: args.ics,
        url: args.url,
        dryRun: args.dry_run,
        status: args.status,
        categories: args.categories,
        tags: args.tags,
      });
    },
  });
}
