import { isRecord } from '../domain/params.js';
import type { FastifyRequest } from 'fastify';
import { DateTime } from 'luxon';
import type { Caller } from '../auth/caller.js';
import type { DataVersion } from '../changes/data-version.js';
import type { WriteWork, Writes } from '../changes/writes.js';
import type { Config } from '../config.js';
import type { Db } from '../db/schema.js';
import { isLanguage, type Language } from '../i18n/languages.js';
import type { ParseContext } from './args.js';
import { NO_CONDITIONS, type WriteConditions } from './conditional.js';
import { zoneOf } from '../domain/timezones.js';
import { UrlBuilder, type LanguageForm } from './urls.js';

/** What every request's context is made from: the process's configuration, database, clock, data version and writes. */
export interface ContextSource {
  readonly config: Config;
  readonly db: Db;
  readonly clock: () => Date;
  readonly version: DataVersion;
  readonly writes: Writes;
}

/**
 * Everything a handler needs to know about the request beyond its parameters: request facts only
 * (language, caller, "now", data version, and the write helper that records a change set). The
 * database and configuration are each module's, given to it at start-up (app.ts).
 */
export interface RequestContext {
  readonly language: LanguageForm;
  readonly lang: Language;
  readonly caller: Caller | null;
  readonly now: DateTime;
  readonly urls: UrlBuilder;
  readonly parse: ParseContext;
  /** The write preconditions the request sent (`If-Match`, `If-Unmodified-Since`, API.md §21). */
  readonly conditions: WriteConditions;
  /** The data version of this request, read once (see changes/data-version.ts). */
  dataVersion(): Promise<string>;
  /** The data version as it is now, read again (whether data changed during the request). */
  freshDataVersion(): Promise<string>;
  /** Runs a write in a transaction and publishes what it changed once committed (changes/writes.ts). */
  write<T>(work: WriteWork<T>): Promise<T>;
}

declare module 'fastify' {
  interface FastifyRequest {
    calendarContext: RequestContext | null;
  }
}

/**
 * The data version of one request, read at most once, when first asked for (see
 * RequestContext.dataVersion); `known`: the one already read for it as it began.
 */
export function versionOnce(app: ContextSource, known?: string): () => Promise<string> {
  let version: Promise<string> | undefined = known === undefined ? undefined : Promise.resolve(known);
  return () => (version ??= app.version.current());
}

export function createContext(
  app: ContextSource,
  language: LanguageForm,
  caller: Caller | null,
  dataVersion = versionOnce(app),
  conditions: WriteConditions = NO_CONDITIONS,
): RequestContext {
  const siteZone = zoneOf(app.config.siteTimezone);
  // "now" is read once per request, and only by requests that need it (most cached reads do not).
  let now: DateTime | undefined;
  const clockNow = () => (now ??= DateTime.fromJSDate(app.clock(), { zone: siteZone }));
  return {
    language,
    lang: language.lang,
    caller,
    get now() {
      return clockNow();
    },
    urls: new UrlBuilder(app.config, language),
    parse: {
      get now() {
        return clockNow();
      },
      siteZone,
      caller,
      config: app.config,
    },
    conditions,
    dataVersion,
    freshDataVersion: () => app.version.current(),
    write: (work) => app.writes.transaction(work),
  };
}

export function requestContext(request: FastifyRequest): RequestContext {
  if (!request.calendarContext) throw new Error('request context missing: the context hook did not run');
  return request.calendarContext;
}

/** The `i18n_language` parameter of a request, from the body or the query string (body wins). */
export function languageParameter(request: FastifyRequest): unknown {
  const { body, query } = request;
  if (isRecord(body) && body.i18n_language !== undefined) return body.i18n_language;
  return isRecord(query) ? query.i18n_language : undefined;
}

export function normaliseLanguage(value: unknown): Language | undefined {
  if (typeof value !== 'string') return undefined;
  const lower = value.trim().toLowerCase();
  return isLanguage(lower) ? lower : undefined;
}
