import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Caller } from '../auth/caller.js';
import { ApiError, invalidParam } from '../errors.js';
import type { VersionedCache } from '../cache/lru.js';
import {
  createContext,
  languageParameter,
  normaliseLanguage,
  versionOnce,
  type ContextSource,
} from '../http/context.js';
import type { LanguageForm } from '../http/urls.js';
import { writeConditionsOf } from '../http/conditional.js';
import type { Language } from '../i18n/languages.js';
import type { CredentialRow } from '../modules/users/users.repository.js';
import { authenticate } from '../modules/users/users.service.js';
import type { AuthenticationGuard } from './rate-limit.js';
import { GRANT_SCHEME, takeGrant } from '../modules/admin/grants.js';

declare module 'http' {
  interface IncomingMessage {
    /** The `/{lang}/` path segment removed by the URL rewrite, if any. */
    calendarPathLanguage?: Language;
  }
}

/** Language of a request (API.md §15): the parameter wins over the path segment; invalid → 400. */
export function resolveLanguage(request: FastifyRequest, defaultLanguage: Language): LanguageForm {
  const param = languageParameter(request);
  if (param !== undefined) {
    const lang = normaliseLanguage(param);
    if (!lang)
      throw invalidParam('i18n_language', {
        message: 'not_one_of',
        vars: { param: 'i18n_language', values: 'nl, en, fi, fr, de, hu, it, pl, pt-br, ro, es, sv' },
      });
    return { lang, source: 'param' };
  }
  const fromPath = request.raw.calendarPathLanguage;
  return fromPath ? { lang: fromPath, source: 'path' } : { lang: defaultLanguage, source: 'default' };
}

/** The best language for an error message, never throwing (invalid parameters are ignored). */
export function errorLanguage(request: FastifyRequest, defaultLanguage: Language): Language {
  return (
    request.calendarContext?.lang ??
    normaliseLanguage(languageParameter(request)) ??
    request.raw.calendarPathLanguage ??
    defaultLanguage
  );
}

function decodeBasic(value: string): { login: string; password: string } | undefined {
  const decoded = Buffer.from(value, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return undefined;
  return { login: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

/**
 * The caller of a request (API.md §4): none without an Authorization header; HTTP Basic or Bearer
 * with an application password; anything malformed or wrong is 401, never a silent anonymous.
 */
export async function resolveCaller(
  app: ContextSource,
  credentialRows: VersionedCache<CredentialRow>,
  header: string | undefined,
  dataVersion: () => Promise<string>,
): Promise<Caller | null> {
  if (header === undefined || header.trim() === '') return null;
  const [scheme, value = ''] = header.trim().split(/\s+/, 2);
  const credentials = /^basic$/i.test(scheme)
    ? decodeBasic(value)
    : /^bearer$/i.test(scheme) && value !== ''
      ? { login: null, password: value }
      : undefined;
  // No login or password holds a NUL (PostgreSQL could not even compare one): a wrong credential.
  if (!credentials || `${credentials.login ?? ''}${credentials.password}`.includes('\0'))
    throw new ApiError('incorrect_password');
  const version = await dataVersion();
  // No request writes users or application passwords (the CLI does, and server start before it
  // serves): a found credential outlives this process's own writes. Any other process's change,
  // including the CLI's, still makes it be looked up again.
  const stillValid = (storedUnder: string) => app.version.localSince(storedUnder, version);
  const cache = { rows: credentialRows, version, stillValid };
  const caller = await authenticate(app.db, credentials.login, credentials.password, cache);
  if (!caller) throw new ApiError('incorrect_password');
  return caller;
}

/**
 * The signed-in editor behind an editor grant (modules/admin/grants.ts), carried in the Authorization
 * header so that everything treating credentialed requests apart (the response cache) does so; an
 * unknown or used grant is a wrong credential.
 */
function editorCaller(grant: string): Caller {
  const caller = takeGrant(grant);
  if (!caller) throw new ApiError('incorrect_password');
  return caller;
}

/**
 * Gives every request but the operational ones (`/health`, `/ready`, `/metrics`) its context;
 * `credentialRows` keeps application passwords found, by hash (on PostgreSQL a lookup is a round
 * trip on every authenticated request); `guard` applies the rate limits that depend on the caller.
 */
export function registerRequestContext(
  app: FastifyInstance,
  state: ContextSource,
  credentialRows: VersionedCache<CredentialRow>,
  guard: AuthenticationGuard,
): void {
  app.decorateRequest('calendarContext', null);
  app.addHook('preValidation', async (request, reply) => {
    if (request.routeOptions.config.operational) return;
    const language = resolveLanguage(request, state.config.defaultLanguage);
    const dataVersion = versionOnce(state, request.raw.calendarDataVersion);
    // A read takes its version before it reads anything: a row read first, then stamped with the
    // version of a write that committed meanwhile, would be kept as current (a stale rendering).
    if (request.method === 'GET' || request.method === 'HEAD') await dataVersion();
    let caller: Caller | null;
    try {
      const { authorization } = request.headers;
      const grant = authorization !== undefined ? GRANT_SCHEME.exec(authorization) : null;
      caller = grant ? editorCaller(grant[1]) : await resolveCaller(state, credentialRows, authorization, dataVersion);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'incorrect_password')
        guard.onFailedAuthentication(request, reply);
      throw error;
    }
    guard.onAuthentication(request, reply, caller);
    request.calendarContext = createContext(state, language, caller, dataVersion, writeConditionsOf(request));
  });
}
