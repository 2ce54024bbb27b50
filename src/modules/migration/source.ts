import { getJson, SourceError, type FetchOptions, type SourceResponse } from './fetch.js';

/** The namespaces the importer reads: TEC's, and this service's own (copy mode, API.md §24). */
export const TEC_NAMESPACE = 'tribe/events/v1';
export const OWN_NAMESPACE = 'calendar/events/v1';

/** A fatal problem before anything is written (the source, or no administrator here): exit 2 (API.md §24). */
export class SourceUnusable extends Error {}

export interface Source {
  /** The normalised REST root, ending in `/`: the key of every import record. */
  readonly root: string;
  readonly namespace: string;
  /** The source is this service: lists are read with `context=edit` (API.md §24). */
  readonly copyMode: boolean;
  /** WordPress's `wp/v2` collection of events, where TEC sites list events hidden from listings. */
  readonly wpEventsUrl: string | undefined;
  readonly fetch: FetchOptions;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Whether a body is a REST namespace index with an events collection (TEC v1 or ours). */
function isEventsIndex(body: unknown): body is { namespace: string; routes: Record<string, unknown> } {
  if (!isRecord(body) || typeof body.namespace !== 'string' || !isRecord(body.routes)) return false;
  return Object.keys(body.routes).some((route) => route.endsWith('/events'));
}

/** `{site}` with one trailing slash removed, and the query kept. */
function siteBase(site: string): URL {
  let url: URL;
  try {
    url = new URL(site);
  } catch {
    throw new SourceUnusable(`"${site}" is not a URL (expected e.g. https://example.org)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new SourceUnusable(`"${site}" is not an http(s) URL`);
  return url;
}

/** The REST roots to try, in the order of API.md §24, for one namespace. */
function candidates(site: URL, namespace: string): string[] {
  const base = site.toString().replace(/\/+$/, '');
  const origin = `${site.origin}${site.pathname.replace(/\/+$/, '')}`;
  return [
    `${origin}/wp-json/${namespace}/`,
    `${origin}/?rest_route=/${namespace}/`,
    `${origin}/${namespace}/`,
    `${base}/`,
  ];
}

/** What a failed discovery says: the most telling answer seen. */
function explain(site: string, seen: { url: string; response?: SourceResponse; error?: SourceError }[]): string {
  const forbidden = seen.find((s) => s.error?.kind === 'forbidden');
  if (forbidden?.error) return forbidden.error.message;
  const blocked = seen.find((s) => s.response && (s.response.status === 401 || s.response.status === 403));
  if (blocked?.response) {
    const code = isRecord(blocked.response.body) ? ` (${String(blocked.response.body.code)})` : '';
    return `the REST API of ${site} answered ${blocked.response.status}${code} at ${blocked.url}: it is blocked for this client (a security plugin or server rule), or the credentials are refused`;
  }
  if (seen.every((s) => s.error)) {
    return `${site} is unreachable: ${seen[0]?.error?.message ?? 'no answer'}`;
  }
  return `${site} does not look like a site running The Events Calendar: no TEC v1 REST index (tribe/events/v1 with an /events route) was found`;
}

/**
 * Finds the source's REST root (API.md §24): `{site}/wp-json/{ns}/`, `{site}/?rest_route=/{ns}/`,
 * `{site}/{ns}/`, or `{site}` itself; without `--namespace`, TEC's namespace first, then ours.
 * With credentials, a refusal of them (401/403) stops the run here, before anything is written.
 */
export async function discover(site: string, namespace: string | undefined, fetch: FetchOptions): Promise<Source> {
  const url = siteBase(site);
  const namespaces = namespace ? [namespace.replace(/^\/+|\/+$/g, '')] : [TEC_NAMESPACE, OWN_NAMESPACE];
  const seen: { url: string; response?: SourceResponse; error?: SourceError }[] = [];
  for (const ns of namespaces) {
    for (const candidate of candidates(url, ns)) {
      try {
        const response = await getJson(candidate, fetch);
        seen.push({ url: candidate, response });
        if (response.status === 401 && fetch.auth)
          throw new SourceUnusable(`${site} refused the credentials given with --auth (HTTP 401)`);
        if (response.status !== 200 || !isEventsIndex(response.body)) continue;
        const found = response.body.namespace;
        const root = candidate;
        return {
          root,
          namespace: found,
          copyMode: found === OWN_NAMESPACE,
          wpEventsUrl: found === OWN_NAMESPACE ? undefined : wpEventsUrl(root, found),
          fetch,
        };
      } catch (error) {
        if (!(error instanceof SourceError)) throw error;
        seen.push({ url: candidate, error });
        if (error.kind === 'forbidden') throw new SourceUnusable(error.message);
      }
    }
  }
  throw new SourceUnusable(explain(site, seen));
}

/** `…/wp-json/tribe/events/v1/` → `…/wp-json/wp/v2/tribe_events`, and likewise for `?rest_route=`. */
function wpEventsUrl(root: string, namespace: string): string | undefined {
  const marker = `${namespace}/`;
  const at = root.lastIndexOf(marker);
  if (at === -1) return undefined;
  return `${root.slice(0, at)}wp/v2/tribe_events`;
}

/** A URL under the source's root with a query (`?rest_route=` roots take `&`). */
export function sourceUrl(source: Source, path: string, query: Record<string, string | number> = {}): string {
  const params = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
  const joiner = source.root.includes('?') ? '&' : '?';
  const qs = params.toString();
  return `${source.root}${path}${qs ? joiner + qs : ''}`;
}

export interface Page {
  readonly items: unknown[];
  readonly page: number;
  readonly totalPages: number;
  readonly total: number;
}

export type PageOutcome = { ok: true; page: Page } | { ok: false; page: number; reason: string };

function describeFailure(response: SourceResponse): string {
  const body = response.body;
  if (isRecord(body) && typeof body.code === 'string')
    return `HTTP ${response.status} ${body.code}${typeof body.message === 'string' ? `: ${body.message}` : ''}`;
  return `HTTP ${response.status}`;
}

const headerNumber = (value: string | string[] | undefined) => {
  const raw = Array.isArray(value) ? value[0] : value;
  return raw !== undefined && /^\d+$/.test(raw) ? Number(raw) : undefined;
};

/**
 * Every page of a list (`per_page=50`), in order. A page still failing after the retries is
 * reported and the next one is read (API.md §24); the walk ends after the last page, which the
 * first answer's `total_pages` (or headers) tells, or when a page has no `next_rest_url` link.
 */
export async function* pages(
  source: Source,
  path: string,
  key: string,
  query: Record<string, string | number>,
): AsyncGenerator<PageOutcome> {
  let totalPages: number | undefined;
  for (let page = 1; totalPages === undefined || page <= totalPages; page++) {
    const url = sourceUrl(source, path, { ...query, per_page: 50, page });
    let response: SourceResponse;
    try {
      response = await getJson(url, source.fetch);
    } catch (error) {
      if (!(error instanceof SourceError)) throw error;
      yield { ok: false, page, reason: error.message };
      if (totalPages === undefined) return;
      continue;
    }
    // Past the last page: TEC answers 404 `*-archive-page-not-found` (terms: an empty page).
    if (response.status === 404 && page > 1) return;
    const body = response.body;
    const items = isRecord(body) ? body[key] : undefined;
    if (response.status !== 200 || !Array.isArray(items)) {
      yield {
        ok: false,
        page,
        reason: response.status === 200 ? `no "${key}" list in the answer` : describeFailure(response),
      };
      if (totalPages === undefined) return;
      continue;
    }
    const record = body as Record<string, unknown>;
    totalPages =
      (typeof record.total_pages === 'number' ? record.total_pages : undefined) ??
      headerNumber(response.headers['x-wp-totalpages']) ??
      (record.next_rest_url ? page + 1 : page);
    const total = typeof record.total === 'number' ? record.total : items.length;
    yield { ok: true, page: { items, page, totalPages, total } };
    if (items.length === 0 || (!record.next_rest_url && page >= totalPages)) return;
  }
}

/** One item by id; undefined when the source says it does not exist or may not be read. */
export async function item(source: Source, path: string, query: Record<string, string | number> = {}) {
  const response = await getJson(sourceUrl(source, path, query), source.fetch);
  return response;
}

/**
 * The ids and protection of every event in WordPress's own collection (`wp/v2/tribe_events`): TEC
 * lists never show events hidden from listings, this does. Undefined when the route is missing.
 */
export async function wpEventIds(
  source: Source,
  statuses: string,
): Promise<{ ids: Map<number, { protected: boolean }>; failures: string[] } | undefined> {
  if (!source.wpEventsUrl) return undefined;
  const ids = new Map<number, { protected: boolean }>();
  const failures: string[] = [];
  const joiner = source.wpEventsUrl.includes('?') ? '&' : '?';
  for (let page = 1, totalPages = 1; page <= totalPages; page++) {
    const url = `${source.wpEventsUrl}${joiner}per_page=100&page=${page}&status=${statuses}&_fields=id,content`;
    let response: SourceResponse;
    try {
      response = await getJson(url, source.fetch);
    } catch (error) {
      if (!(error instanceof SourceError)) throw error;
      failures.push(`page ${page}: ${error.message}`);
      continue;
    }
    if (response.status === 404 && page === 1) return undefined;
    if (response.status !== 200 || !Array.isArray(response.body)) {
      if (page === 1) return undefined;
      failures.push(`page ${page}: ${describeFailure(response)}`);
      continue;
    }
    totalPages = headerNumber(response.headers['x-wp-totalpages']) ?? page;
    for (const entry of response.body) {
      if (!isRecord(entry) || typeof entry.id !== 'number') continue;
      const content = isRecord(entry.content) ? entry.content : {};
      ids.set(entry.id, { protected: content.protected === true });
    }
  }
  return { ids, failures };
}
