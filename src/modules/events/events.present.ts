import { DateTime } from 'luxon';
import type { Config } from '../../config.js';
import type { RequestContext } from '../../http/context.js';
import { formatIsoInZone, formatUtcSeconds } from '../../domain/dates.js';
import { autoParagraph, htmlToText } from '../../domain/html.js';
import { zoneOf } from '../../domain/timezones.js';
import { occurrencePath } from '../../domain/recurrence/ids.js';
import { translate } from '../../i18n/translate.js';
import { presentImage } from '../images/images.js';
import { globalIds, postPageUrl, siteDate, utcDate } from '../linked/linked.present.js';
import type { LinkedRow } from '../linked/linked.repository.js';
import { organizerJsonLd, presentOrganizer } from '../organizers/organizers.present.js';
import type { TermRow } from '../terms/terms.repository.js';
import { presentEmbeddedTerm } from '../terms/terms.present.js';
import { CATEGORIES, TAGS } from '../terms/taxonomies.js';
import { presentVenue, venueJsonLd } from '../venues/venues.present.js';
import { costCurrency, costPrice, formatCost, readStoredCost } from './events.cost.js';
import { dateDetails, formatLocal, timezoneAbbreviation } from './events.dates.js';
import type { EventRow } from './events.repository.js';
import { userHidden } from './series/series.repository.js';

/** An event and everything its representation embeds. */
export interface EventBundle {
  row: EventRow;
  venue: LinkedRow | undefined;
  organizers: LinkedRow[];
  categories: TermRow[];
  tags: TermRow[];
}

export interface PresentOptions {
  /** Single reads add `json_ld` to the event and to its venue and organizers (tec-api.md §5.9). */
  jsonLd: boolean;
  /** A protected event the caller has not unlocked (API.md §14). */
  blanked: boolean;
}

const ISO_WITH_OFFSET = "yyyy-MM-dd'T'HH:mm:ssZZ";

function eventJsonLd(config: Config, ctx: RequestContext, bundle: EventBundle, url: string): Record<string, unknown> {
  const { row } = bundle;
  const cost = readStoredCost(row);
  const price = costPrice(cost);
  const json: Record<string, unknown> = {
    '@context': 'http://schema.org',
    '@type': 'Event',
    name: row.title,
    description: htmlToText(row.excerpt !== '' ? row.excerpt : row.description),
  };
  if (row.image_url) json.image = row.image_url;
  Object.assign(json, {
    url,
    eventAttendanceMode: 'https://schema.org/OfflineEventAttendanceMode',
    eventStatus: 'https://schema.org/EventScheduled',
    startDate: formatIsoInZone(row.start_utc, zoneOf(row.timezone), row.timezone),
    endDate: formatIsoInZone(row.end_utc, zoneOf(row.timezone), row.timezone),
  });
  if (bundle.venue) json.location = venueJsonLd(ctx, bundle.venue);
  if (bundle.organizers[0]) json.organizer = organizerJsonLd(bundle.organizers[0]);
  if (price !== undefined) {
    const currency = costCurrency(cost);
    json.offers = {
      '@type': 'Offer',
      price,
      ...(currency === undefined ? {} : { priceCurrency: currency }),
      url,
      category: 'primary',
      availability: 'inStock',
      validFrom: DateTime.fromSeconds(row.published_at, { zone: zoneOf(config.siteTimezone) })
        .startOf('day')
        .toFormat(ISO_WITH_OFFSET),
    };
  }
  json.performer = 'Organization';
  return json;
}

function dates(row: EventRow) {
  const start = formatLocal(row.start_utc, row.timezone);
  const end = formatLocal(row.end_utc, row.timezone);
  const utcStart = formatUtcSeconds(row.start_utc);
  const utcEnd = formatUtcSeconds(row.end_utc);
  return {
    start_date: start,
    start_date_details: dateDetails(start),
    end_date: end,
    end_date_details: dateDetails(end),
    utc_start_date: utcStart,
    utc_start_date_details: dateDetails(utcStart),
    utc_end_date: utcEnd,
    utc_end_date_details: dateDetails(utcEnd),
    timezone: row.timezone,
    timezone_abbr: timezoneAbbreviation(row.timezone, row.start_utc),
  };
}

/** The replacement values of TEC's password blanking, with names kept (API.md §14, tec-api.md §6.4). */
const BLANKED = {
  description: '',
  excerpt: '',
  image: false,
  all_day: null,
  cost: '',
  cost_details: { currency_symbol: '', currency_code: '', currency_position: '', values: [] },
  website: '',
  show_map: null,
  show_map_link: null,
  hide_from_listings: null,
  sticky: null,
  featured: null,
  categories: [],
  tags: [],
  venue: [],
  organizer: [],
  custom_fields: [],
} as const;

/** The keys of an event that come from its own row, up to `featured` (API.md §8, tec-api.md §5.1). */
export function presentEventHead(config: Config, ctx: RequestContext, row: EventRow): Record<string, unknown> {
  const { cost, cost_details } = formatCost(readStoredCost(row), translate(ctx.lang, 'cost_free'));
  return {
    id: row.id,
    ...globalIds(config, row.id),
    author: String(row.author_id),
    status: row.status,
    date: siteDate(config, row.published_at),
    date_utc: utcDate(row.published_at),
    modified: siteDate(config, row.modified_at),
    modified_utc: utcDate(row.modified_at),
    url: eventPageUrl(ctx, row),
    rest_url: ctx.urls.rest(`events/${row.id}`),
    title: row.title,
    description: autoParagraph(row.description),
    excerpt: autoParagraph(row.excerpt),
    slug: row.series_slug ?? row.slug,
    image: presentImage(row),
    all_day: row.all_day === 1,
    ...dates(row),
    cost,
    cost_details,
    website: row.website ?? '',
    show_map: row.show_map === 1,
    show_map_link: row.show_map_link === 1,
    hide_from_listings: userHidden(row.hide_from_listings),
    sticky: row.sticky === 1,
    featured: row.featured === 1,
  };
}

/**
 * The keys after `custom_fields` (API.md §19.2, §20.2): identifiers and the series' keys, so a
 * protected event shows them too.
 */
export function presentEventTail(ctx: RequestContext, row: EventRow): EventTail {
  const isSeries = row.recurrence !== null;
  return {
    // Every event has a UID once the service has started (ical/ical.maintenance.ts); occurrences carry their series'.
    ical_uid: row.series_ical_uid ?? row.ical_uid ?? '',
    ical_url: ctx.urls.ical(`events/${row.id}.ics`),
    is_recurring: isSeries || row.series_id !== null,
    series_id: row.series_id,
    recurrence_id: row.recurrence_id,
    recurrence: isSeries ? (JSON.parse(row.recurrence as string) as string[]) : [],
    occurrences_url: isSeries ? ctx.urls.rest(`events/${row.id}/occurrences`) : null,
  };
}

export interface EventTail {
  ical_uid: string;
  ical_url: string;
  is_recurring: boolean;
  series_id: number | null;
  recurrence_id: string | null;
  recurrence: string[];
  occurrences_url: string | null;
}

/** An occurrence's page is its series' page, the local date of its original start and its rank on it (API.md §20.2, TEC Pro). */
export function eventPageUrl(ctx: RequestContext, row: EventRow): string {
  if (row.series_slug === null || row.recurrence_id === null || row.status !== 'publish' || row.series_slug === '')
    return postPageUrl(ctx, 'event', 'tribe_events', row);
  return ctx.urls.page(
    `/event/${encodeURIComponent(row.series_slug)}/${occurrencePath(row.recurrence_id, row.timezone, row.date_rank)}`,
  );
}

/** The JSON-LD of a single read (tec-api.md §5.9). */
export function presentEventJsonLd(config: Config, ctx: RequestContext, bundle: EventBundle): Record<string, unknown> {
  return eventJsonLd(config, ctx, bundle, eventPageUrl(ctx, bundle.row));
}

/** An event object in TEC's key order (API.md §8, tec-api.md §5.1). */
export function presentEvent(
  config: Config,
  ctx: RequestContext,
  bundle: EventBundle,
  options: PresentOptions,
): Record<string, unknown> {
  const event: Record<string, unknown> = {
    ...presentEventHead(config, ctx, bundle.row),
    categories: bundle.categories.map((term) => presentEmbeddedTerm(term, CATEGORIES, ctx.urls)),
    tags: bundle.tags.map((term) => presentEmbeddedTerm(term, TAGS, ctx.urls)),
    venue: bundle.venue ? presentVenue(config, ctx, bundle.venue, { jsonLd: options.jsonLd }) : [],
    organizer: bundle.organizers.map((organizer) =>
      presentOrganizer(config, ctx, organizer, { jsonLd: options.jsonLd }),
    ),
    custom_fields: [],
    ...presentEventTail(ctx, bundle.row),
  };
  if (options.blanked) Object.assign(event, BLANKED);
  if (options.jsonLd && !options.blanked) event.json_ld = presentEventJsonLd(config, ctx, bundle);
  return event;
}
