import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A stand-in for a WordPress + TEC 6.17.2 site, answering with TEC's wire shapes as recorded in
 * reference/tec-live-transcript.md: list envelopes with `rest_url`/`next_rest_url`/`total`/
 * `total_pages`, `X-TEC-Total*` and `X-WP-Total*` headers, HTML-entity titles, `cost_details`,
 * embedded venues/organizers/terms, 404 `*-archive-page-not-found` past the last page, 400
 * `rest_invalid_param` for unknown venue ids, and WordPress's `wp/v2/tribe_events` collection.
 * A real HTTP server on 127.0.0.1, so the importer's own client is exercised.
 */

type Json = Record<string, unknown>;

export interface TecSite {
  categories: Json[];
  tags: Json[];
  venues: Json[];
  organizers: Json[];
  events: Json[];
}

const NS = '/wp-json/tribe/events/v1';

const details = (value: string) => ({
  year: value.slice(0, 4),
  month: value.slice(5, 7),
  day: value.slice(8, 10),
  hour: value.slice(11, 13),
  minutes: value.slice(14, 16),
  seconds: value.slice(17, 19),
});

export class TecStandIn {
  private server: Server | undefined;
  origin = '';
  /** Requests seen, as `METHOD path?query`. */
  readonly requests: string[] = [];
  /** Path prefixes (with query) answered 500 this many more times. */
  readonly failures = new Map<string, number>();
  /** Path prefixes (with query) answered 429 with `Retry-After: 1` this many more times. */
  readonly rateLimited = new Map<string, number>();
  /** Basic credentials the site accepts (`login:password`); others get 401. */
  credentials = 'admin:abcd efgh ijkl mnop qrst uvwx';
  /** Ids WordPress's `wp/v2/tribe_events` lists besides the events (posts TEC's routes answer 400 for). */
  readonly strayWpIds: number[] = [];
  /** When set, every REST request gets this status (a security plugin blocking the API). */
  blockedWith: number | undefined;

  constructor(public site: TecSite) {}

  async start(): Promise<void> {
    this.server = createServer((request, response) => this.answer(request, response));
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }

  private send(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
    // WordPress escapes `/` as `\/` in JSON (transcript): a client must not care.
    const text = JSON.stringify(body).replace(/\//g, '\\/');
    response.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', ...headers });
    response.end(text);
  }

  private answer(request: IncomingMessage, response: ServerResponse): void {
    const url = new URL(request.url ?? '/', this.origin);
    this.requests.push(`${request.method} ${url.pathname}${url.search}`);
    for (const [prefix, left] of this.failures) {
      if (`${url.pathname}${url.search}`.startsWith(prefix) && left > 0) {
        this.failures.set(prefix, left - 1);
        return this.send(response, 500, { code: 'internal_server_error', message: 'Boom', data: { status: 500 } });
      }
    }
    for (const [prefix, left] of this.rateLimited) {
      if (`${url.pathname}${url.search}`.startsWith(prefix) && left > 0) {
        this.rateLimited.set(prefix, left - 1);
        return this.send(
          response,
          429,
          { code: 'too_many_requests', message: 'Slow down', data: { status: 429 } },
          { 'Retry-After': '1' },
        );
      }
    }
    if (this.blockedWith && url.pathname.startsWith('/wp-json')) {
      return this.send(response, this.blockedWith, {
        code: 'rest_forbidden',
        message: 'REST API restricted to authenticated users.',
        data: { status: this.blockedWith },
      });
    }
    const auth = request.headers.authorization;
    const authorised = auth === `Basic ${Buffer.from(this.credentials).toString('base64')}`;
    if (auth !== undefined && !authorised) {
      return this.send(response, 401, {
        code: 'incorrect_password',
        message: 'The provided password is an invalid application password.',
        data: { status: 401 },
      });
    }
    if (url.pathname === '/') {
      response.writeHead(200, { 'content-type': 'text/html' });
      return void response.end('<html><body>A WordPress blog</body></html>');
    }
    if (url.pathname === `${NS}/` || url.pathname === NS) return this.send(response, 200, this.index());
    if (url.pathname === '/wp-json/wp/v2/tribe_events') return this.wpEvents(response, url, authorised);
    const route = url.pathname.slice(NS.length + 1).replace(/\/$/, '');
    const [collection, id] = route.split('/');
    if (['categories', 'tags', 'venues', 'organizers', 'events'].includes(collection) && id === undefined)
      return this.list(response, url, collection as keyof TecSite, authorised);
    if (collection === 'events' && id) return this.single(response, Number(id), authorised);
    if ((collection === 'venues' || collection === 'organizers') && id) {
      const found = this.site[collection].find((entry) => entry.id === Number(id));
      if (found) return this.send(response, 200, found);
      // TEC answers an unknown venue or organizer id with a 400 (transcript §4).
      return this.send(response, 400, {
        code: 'rest_invalid_param',
        message: 'Invalid parameter(s): id',
        data: { status: 400, params: { id: 'Invalid parameter.' }, details: [] },
      });
    }
    this.send(response, 404, {
      code: 'rest_no_route',
      message: 'No route was found matching the URL and request method.',
      data: { status: 404 },
    });
  }

  private index(): Json {
    const routes: Json = {};
    for (const path of [
      '',
      '/doc',
      '/events',
      '/events/(?P<id>\\d+)',
      '/venues',
      '/organizers',
      '/categories',
      '/tags',
    ])
      routes[`/tribe/events/v1${path}`] = { namespace: 'tribe/events/v1', methods: ['GET'] };
    return { namespace: 'tribe/events/v1', routes, _links: { up: [{ href: `${this.origin}/wp-json/` }] } };
  }

  private visible(collection: keyof TecSite, url: URL, authorised: boolean): Json[] {
    const asked = (url.searchParams.get('status') ?? 'publish').split(',');
    // Anonymous callers see published items only, whatever they ask for (TEC).
    const statuses = authorised ? asked : ['publish'];
    return this.site[collection].filter((entry) => {
      if (collection === 'categories' || collection === 'tags') return true;
      if (!statuses.includes(String(entry.status))) return false;
      // TEC lists never show events hidden from listings.
      return !(collection === 'events' && entry.hide_from_listings === true);
    });
  }

  private list(response: ServerResponse, url: URL, collection: keyof TecSite, authorised: boolean): void {
    const page = Number(url.searchParams.get('page') ?? 1);
    const perPage = Math.min(Number(url.searchParams.get('per_page') ?? 10), 50);
    const all = this.visible(collection, url, authorised).map((entry) =>
      collection === 'events' && entry.password ? blanked(entry) : stripPassword(entry),
    );
    const totalPages = Math.max(1, Math.ceil(all.length / perPage));
    const terms = collection === 'categories' || collection === 'tags';
    if (page > totalPages && !terms) {
      const singular = collection.slice(0, -1);
      return this.send(response, 404, {
        code: `${singular}-archive-page-not-found`,
        message: `The requested ${singular} archive page does not exist`,
        data: { status: 404 },
      });
    }
    const items = all.slice((page - 1) * perPage, page * perPage);
    const link = (p: number) => {
      const next = new URL(url);
      next.searchParams.set('page', String(p));
      // TEC's links are raw, with unencoded spaces (transcript).
      return decodeURIComponent(next.toString());
    };
    const links: Json = {};
    if (page < totalPages) links.next_rest_url = link(page + 1);
    if (page > 1) links.previous_rest_url = link(page - 1);
    const headers = {
      'X-TEC-Total': String(all.length),
      'X-TEC-TotalPages': String(totalPages),
      'X-WP-Total': String(all.length),
      'X-WP-TotalPages': String(totalPages),
    };
    const body = terms
      ? { rest_url: link(page), total: all.length, total_pages: totalPages, [collection]: items, ...links }
      : { [collection]: items, rest_url: link(page), ...links, total: all.length, total_pages: totalPages };
    this.send(response, 200, body, headers);
  }

  private single(response: ServerResponse, id: number, authorised: boolean): void {
    const found = this.site.events.find((entry) => entry.id === id);
    if (this.strayWpIds.includes(id)) {
      // TEC's answer for an id that is a post but not an event (rest-invalid-event-id, tec-api.md §13).
      return this.send(response, 400, {
        code: 'rest_invalid_param',
        message: 'Invalid parameter(s): id',
        data: { status: 400, params: { id: 'Invalid parameter.' }, details: [] },
      });
    }
    if (!found) {
      return this.send(response, 404, {
        code: 'rest-event-not-found',
        message: `Event with ID ${id} does not exist.`,
        data: { status: 404 },
      });
    }
    if (found.status !== 'publish' && !authorised)
      return this.send(response, 403, {
        code: 'event-not-accessible',
        message: 'The requested event is not accessible',
        data: { status: 403 },
      });
    if (found.password)
      return this.send(response, 403, {
        code: 'event-password-protected',
        message: 'The requested event is password protected',
        data: { status: 403 },
      });
    this.send(response, 200, stripPassword(found));
  }

  private wpEvents(response: ServerResponse, url: URL, authorised: boolean): void {
    const statuses = authorised ? (url.searchParams.get('status') ?? 'publish').split(',') : ['publish'];
    const all = this.site.events.filter((entry) => statuses.includes(String(entry.status)));
    const perPage = Number(url.searchParams.get('per_page') ?? 10);
    const page = Number(url.searchParams.get('page') ?? 1);
    const totalPages = Math.max(1, Math.ceil((all.length + this.strayWpIds.length) / perPage));
    const items = [
      ...all.map((entry) => ({
        id: entry.id,
        content: { rendered: entry.password ? '' : entry.description, protected: Boolean(entry.password) },
      })),
      ...this.strayWpIds.map((id) => ({ id, content: { rendered: '', protected: false } })),
    ].slice((page - 1) * perPage, page * perPage);
    this.send(response, 200, items, { 'X-WP-Total': String(all.length), 'X-WP-TotalPages': String(totalPages) });
  }
}

function stripPassword(entry: Json): Json {
  const copy = { ...entry };
  delete copy.password;
  return copy;
}

/** TEC's blanking of a protected event in lists (tec-api.md §6.4). */
function blanked(entry: Json): Json {
  return {
    ...stripPassword(entry),
    description: '',
    excerpt: '',
    image: false,
    cost: '',
    cost_details: { currency_symbol: '', currency_position: '', currency_code: '', values: [] },
    website: '',
    categories: [],
    tags: [],
    venue: [],
    organizer: [],
  };
}

// ---- Builders of TEC-shaped items (key order of the transcript) ----

const ORIGIN = 'http://tec.example';

export function tecTerm(
  taxonomy: 'tribe_events_cat' | 'post_tag',
  id: number,
  name: string,
  slug: string,
  parent = 0,
): Json {
  const collection = taxonomy === 'tribe_events_cat' ? 'categories' : 'tags';
  return {
    id,
    count: 1,
    description: `${name} events`,
    link: `${ORIGIN}/events/${collection === 'categories' ? 'category' : 'tag'}/${slug}/`,
    name,
    slug,
    taxonomy,
    ...(taxonomy === 'tribe_events_cat' ? { parent } : {}),
    meta: [],
    urls: {
      self: `${ORIGIN}${NS}/${collection}/${id}`,
      collection: `${ORIGIN}${NS}/${collection}`,
    },
  };
}

/** A term as an event embeds it (transcript). */
function embeddedTerm(term: Json): Json {
  return {
    name: term.name,
    slug: term.slug,
    term_group: 0,
    term_taxonomy_id: term.id,
    taxonomy: term.taxonomy,
    description: term.description,
    parent: term.parent ?? 0,
    count: 1,
    filter: 'raw',
    id: term.id,
    urls: term.urls,
  };
}

const stamp = '2026-11-21 08:37:48';

export function tecVenue(id: number, name: string, slug: string, extra: Json = {}): Json {
  return {
    id,
    author: '1',
    status: 'publish',
    date: stamp,
    date_utc: stamp,
    modified: stamp,
    modified_utc: stamp,
    url: `${ORIGIN}/venue/${slug}/`,
    venue: name,
    description: `<p>The ${name}.</p>`,
    slug,
    address: `${id} Main Street`,
    city: 'Springfield',
    country: 'United States',
    state: 'IL',
    zip: '62701',
    phone: '+1 555 0100',
    website: `https://example.org/${slug}`,
    stateprovince: 'IL',
    geo_lat: 39.78,
    geo_lng: -89.65,
    show_map: true,
    show_map_link: true,
    global_id: `tec.example?id=${id}`,
    global_id_lineage: [`tec.example?id=${id}`],
    ...extra,
  };
}

export function tecOrganizer(id: number, name: string, slug: string, extra: Json = {}): Json {
  return {
    id,
    author: '1',
    status: 'publish',
    date: stamp,
    date_utc: stamp,
    modified: stamp,
    modified_utc: stamp,
    url: `${ORIGIN}/organizer/${slug}/`,
    organizer: name,
    description: `<p>${name} organises.</p>`,
    slug,
    phone: '+1 555 0199',
    website: `https://example.org/${slug}`,
    email: `${slug}@example.org`,
    global_id: `tec.example?id=${id}`,
    global_id_lineage: [`tec.example?id=${id}`],
    ...extra,
  };
}

export interface EventSpec {
  id: number;
  title: string;
  slug: string;
  /** UTC start `YYYY-MM-DD HH:MM:SS`. */
  start: string;
  end: string;
  timezone?: string;
  venue?: Json;
  organizers?: Json[];
  categories?: Json[];
  tags?: Json[];
  extra?: Json;
}

export function tecEvent(spec: EventSpec): Json {
  const tz = spec.timezone ?? 'UTC';
  return {
    id: spec.id,
    global_id: `tec.example?id=${spec.id}`,
    global_id_lineage: [`tec.example?id=${spec.id}`],
    author: '1',
    status: 'publish',
    date: stamp,
    date_utc: stamp,
    modified: stamp,
    modified_utc: stamp,
    url: `${ORIGIN}/event/${spec.slug}/`,
    rest_url: `${ORIGIN}${NS}/events/${spec.id}`,
    title: spec.title,
    description: `<p>About ${spec.title}.</p>`,
    excerpt: `<p>${spec.title}</p>`,
    slug: spec.slug,
    image: false,
    all_day: false,
    // Wall-clock fields: the stand-in keeps UTC ones; the importer reads utc_* with the zone.
    start_date: spec.start,
    start_date_details: details(spec.start),
    end_date: spec.end,
    end_date_details: details(spec.end),
    utc_start_date: spec.start,
    utc_start_date_details: details(spec.start),
    utc_end_date: spec.end,
    utc_end_date_details: details(spec.end),
    timezone: tz,
    timezone_abbr: tz,
    cost: '$10',
    cost_details: { currency_symbol: '', currency_code: '', currency_position: '', values: ['10'] },
    website: `https://example.org/${spec.slug}`,
    show_map: false,
    show_map_link: false,
    hide_from_listings: false,
    sticky: false,
    featured: false,
    categories: (spec.categories ?? []).map(embeddedTerm),
    tags: (spec.tags ?? []).map(embeddedTerm),
    venue: spec.venue ?? [],
    organizer: spec.organizers ?? [],
    custom_fields: [],
    ...spec.extra,
  };
}
