import type { Config } from '../config.js';
import type { Language } from '../i18n/languages.js';

export const NAMESPACE = 'calendar/events/v1';

/** How the request named its language; emitted URLs keep the same form (API.md §15). */
export interface LanguageForm {
  readonly lang: Language;
  readonly source: 'path' | 'param' | 'default';
}

export type QueryValue = string | number | boolean | readonly (string | number)[] | undefined;
export type Query = ReadonlyArray<readonly [string, QueryValue]>;

/** Encodes an ordered query (array values as CSV); undefined values are skipped. */
export function encodeQuery(query: Query): string {
  const params = new URLSearchParams();
  for (const [name, value] of query) {
    if (value === undefined) continue;
    params.append(name, Array.isArray(value) ? value.join(',') : String(value));
  }
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

export class UrlBuilder {
  private readonly apiRoot: string;
  private readonly langSegment: string;
  private readonly langParam: Query;
  private readonly pageLanguage: string;

  constructor(
    private readonly config: Config,
    language: LanguageForm,
  ) {
    this.langSegment = language.source === 'path' ? `/${language.lang}` : '';
    this.langParam = language.source === 'param' ? [['i18n_language', language.lang]] : [];
    this.pageLanguage = language.source === 'default' ? '' : `i18n_language=${language.lang}`;
    this.apiRoot = `${config.publicUrl}${config.basePath}${this.langSegment}/${NAMESPACE}`;
  }

  /** A REST URL under the namespace, keeping the request's language. */
  rest(path: string, query: Query = []): string {
    return `${this.apiRoot}/${path}${encodeQuery([...query, ...this.langParam])}`;
  }

  /** An iCalendar file or feed under PUBLIC_URL, keeping the request's language (API.md §19.2 `ical_url`). */
  ical(path: string): string {
    return `${this.config.publicUrl}${this.langSegment}/ical/${path}${encodeQuery(this.langParam)}`;
  }

  /**
   * A public page under PUBLIC_URL (API.md §8 `url`), keeping the request's language (§15). Pages
   * read `i18n_language` and have no language path segment, so both forms become the parameter.
   */
  page(path: string): string {
    if (this.pageLanguage === '') return `${this.config.publicUrl}${path}`;
    return `${this.config.publicUrl}${path}${path.includes('?') ? '&' : '?'}${this.pageLanguage}`;
  }
}

/** `{host without port}{path}` of PUBLIC_URL: the `global_id` prefix (API.md §18). */
export function globalIdPrefix(config: Config): string {
  const url = new URL(config.publicUrl);
  return `${url.hostname}${url.pathname.replace(/\/+$/, '')}`;
}
