import ical, { ICalCalendarMethod, ICalEventStatus, type ICalEventData } from 'ical-generator';
import { DateTime } from 'luxon';
import type { Config } from '../../config.js';
import { autoParagraph } from '../../domain/html.js';
import { zoneOf } from '../../domain/timezones.js';
import { originalStartOf } from '../../domain/recurrence/ids.js';
import type { RequestContext } from '../../http/context.js';
import { eventPageUrl, type EventBundle } from '../events/events.present.js';
import type { LinkedRow } from '../linked/linked.repository.js';
import { foldLines } from './ical.fold.js';
import { tzidOf, vtimezone } from './ical.timezones.js';

const PARAGRAPH = '\uE000';
const BREAK = '\uE001';
const ENTITIES: Readonly<Record<string, string>> = {
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
  '&nbsp;': ' ',
  '&amp;': '&',
};

/**
 * Stored HTML as text (API.md §19.1): paragraphs become blank lines; `<br>` and the ends of other
 * blocks, line breaks; other tags go. Stored HTML is sanitize-html's output (domain/html.ts): its
 * tags are well formed, no attribute value holds a raw `>`, and its text escapes only the entities
 * above, so tags and entities are replaced here without parsing again: a sanitize-html pass per
 * event had been most of the time of a 2,000-event feed.
 */
export function htmlAsText(html: string): string {
  return autoParagraph(html)
    .replace(/[\uE000\uE001]/g, '')
    .replace(/<\/p\s*>/gi, PARAGRAPH)
    .replace(/<br\s*\/?>|<\/(?:div|li|h[1-6]|tr|blockquote|pre|figure|table)\s*>/gi, BREAK)
    .replace(/<[^>]*>/g, '')
    .replace(/&(?:lt|gt|quot|#39|nbsp|amp);/g, (entity) => ENTITIES[entity] ?? entity)
    .replace(/\s+/g, ' ')
    .replace(/ ?\uE001 ?/g, '\n')
    .replace(/ ?\uE000 ?/g, '\n\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

const detail = (venue: LinkedRow, key: string) => {
  const value = venue.details[key];
  return typeof value === 'string' ? value.trim() : '';
};

/** LOCATION (API.md §19.1): name, address, city, state or province, zip, country; empties skipped. */
export function locationOf(venue: LinkedRow): string {
  const region = detail(venue, 'stateprovince') || detail(venue, 'state') || detail(venue, 'province');
  return [
    venue.title.trim(),
    detail(venue, 'address'),
    detail(venue, 'city'),
    region,
    detail(venue, 'zip'),
    detail(venue, 'country'),
  ]
    .filter((part) => part !== '')
    .join(', ');
}

function geoOf(venue: LinkedRow): { lat: number; lon: number } | undefined {
  const { geo_lat: lat, geo_lng: lng } = venue.details;
  return typeof lat === 'number' && typeof lng === 'number' ? { lat, lon: lng } : undefined;
}

/** ORGANIZER's CN is a quoted parameter, which can hold neither quotes nor line breaks (RFC 5545 §3.1). */
const parameterText = (text: string) => text.replace(/["\p{Cc}]/gu, ' ').trim();

const utcDate = (seconds: number) => new Date(seconds * 1000);

/** The local calendar day of an instant in a zone, as a date ical-generator prints as it is. */
const localDay = (seconds: number, timezone: string) =>
  DateTime.fromSeconds(seconds, { zone: zoneOf(timezone) })
    .setZone('utc', { keepLocalTime: true })
    .startOf('day');

/** A series' exceptions in a file (API.md §19.1): EXDATEs (recurrence ids) and overrides (own VEVENTs). */
export interface SeriesExport {
  exdates: readonly string[];
  overrides: readonly EventBundle[];
}

/**
 * RECURRENCE-ID or EXDATE of an original start, in DTSTART's form (API.md §19.1): a local time with
 * the series' TZID, UTC with `Z`, or a DATE for all-day series.
 */
function originalStartLine(name: string, recurrenceId: string, row: EventBundle['row']): string {
  if (row.all_day === 1) return `${name};VALUE=DATE:${recurrenceId.slice(0, 8)}`;
  if (row.timezone === 'UTC') return `${name}:${recurrenceId}`;
  const local = originalStartOf(recurrenceId, zoneOf(row.timezone)).toFormat("yyyyMMdd'T'HHmmss");
  return `${name};TZID=${tzidOf(row.timezone)}:${local}`;
}

/**
 * The recurrence lines of a VEVENT: a series' own lines and its EXDATEs, or an override's
 * RECURRENCE-ID. They are added to ical-generator's output (which is folded afterwards): its own
 * RRULE support prefixes `RRULE:` to any single line and writes an all-day RECURRENCE-ID as a time.
 */
function recurrenceLines(
  row: EventBundle['row'],
  recurrence: { series?: SeriesExport; overrideOf?: EventBundle['row'] },
): string[] {
  if (recurrence.overrideOf && row.recurrence_id !== null)
    return [originalStartLine('RECURRENCE-ID', row.recurrence_id, recurrence.overrideOf)];
  if (row.recurrence === null) return [];
  const exdates = [...(recurrence.series?.exdates ?? [])].map((id) => originalStartLine('EXDATE', id, row));
  return [...(JSON.parse(row.recurrence) as string[]), ...exdates];
}

const VEVENT_END = 'END:VEVENT\r\n';

/** A VEVENT as ical-generator writes it, with the recurrence lines before its end. */
function veventText(vevent: string, lines: readonly string[]): string {
  if (lines.length === 0) return vevent;
  if (!vevent.endsWith(VEVENT_END)) throw new Error('ical-generator: unexpected end of VEVENT');
  return `${vevent.slice(0, -VEVENT_END.length)}${lines.map((line) => `${line}\r\n`).join('')}${VEVENT_END}`;
}

/** The UID of an event's VEVENT: an occurrence alone has `{recurrence_id}-{series UID}` (API.md §19.1). */
function uidOf(row: EventBundle['row'], asOverride: boolean): string {
  // Every event has a UID once the service has started (ical/ical.maintenance.ts).
  if (row.series_ical_uid === null) return row.ical_uid ?? '';
  return asOverride ? row.series_ical_uid : `${row.recurrence_id ?? ''}-${row.series_ical_uid}`;
}

function eventData(
  ctx: RequestContext,
  bundle: EventBundle,
  recurrence: { series?: SeriesExport; overrideOf?: EventBundle['row'] } = {},
): ICalEventData {
  const { row, venue } = bundle;
  const organizer = bundle.organizers.find((o) => typeof o.details.email === 'string' && o.details.email !== '');
  const modified = utcDate(row.modified_at);
  const description = row.description.trim();
  const data: Omit<ICalEventData, 'start'> = {
    id: uidOf(row, recurrence.overrideOf !== undefined),
    sequence: row.ical_sequence,
    stamp: modified,
    lastModified: modified,
    created: utcDate(row.created_at ?? row.modified_at),
    summary: row.title,
    description: description === '' ? null : { plain: htmlAsText(description), html: autoParagraph(description) },
    url: eventPageUrl(ctx, row),
    status: ICalEventStatus.CONFIRMED,
    categories: bundle.categories.map((term) => ({ name: term.name })),
    attachments: row.image_url ? [row.image_url] : [],
  };
  if (venue) {
    const geo = geoOf(venue);
    data.location = geo ? { title: locationOf(venue), geo } : locationOf(venue);
  }
  if (organizer) data.organizer = { name: parameterText(organizer.title), email: String(organizer.details.email) };
  if (row.all_day === 1) {
    // Whole local days, DTEND exclusive: the day after the last one (RFC 5545 §3.6.1).
    return {
      ...data,
      allDay: true,
      start: localDay(row.start_utc, row.timezone),
      end: localDay(row.end_utc, row.timezone).plus({ days: 1 }),
    };
  }
  if (row.timezone === 'UTC') return { ...data, start: utcDate(row.start_utc), end: utcDate(row.end_utc) };
  return {
    ...data,
    timezone: tzidOf(row.timezone),
    start: zonedTime(row.start_utc, row.timezone),
    end: zonedTime(row.end_utc, row.timezone),
  };
}

/**
 * An instant as a Luxon time in the event's zone. ical-generator writes it in the event's TZID by
 * asking Luxon to place it there (`setZone(tzid)`), which Luxon cannot for offset TZIDs such as
 * `UTC+0530`: such a time, already in its zone, stays where it is.
 */
function zonedTime(seconds: number, timezone: string): DateTime {
  const zone = zoneOf(timezone);
  const time = DateTime.fromSeconds(seconds, { zone });
  if (!zone.isUniversal) return time;
  return new Proxy(time, {
    get: (target, key): unknown => (key === 'setZone' ? () => target : Reflect.get(target, key, target)),
  });
}

export interface CalendarOptions {
  /** X-WR-CALNAME, or null to leave it out (TEC's `outlook-ical=1`). */
  readonly name: string | null;
  /** The exceptions of the series among the events, by series id. */
  readonly series?: ReadonlyMap<number, SeriesExport>;
  /** Where open-ended rules' VTIMEZONE observances must reach (the recurrence horizon). */
  readonly horizon?: number;
}

/** The calendar's name on the short URLs (API.md §19.1): `{SITE_NAME}: {item name}`. */
export const calendarName = (config: Config, item?: string) =>
  item === undefined ? config.siteName : `${config.siteName}: ${item}`;

const END = 'END:VCALENDAR';

/**
 * An iCalendar file of events (API.md §19.1). ical-generator writes the calendar's properties and
 * each VEVENT, escaping TEXT values; each time zone used gets its own VTIMEZONE covering the file's
 * times in that zone (ical.timezones.ts). The components are folded by ical.fold.ts, which folds
 * as ical-generator does, only faster: so the calendar is written as its head (folded by
 * ical-generator) and components, instead of ical-generator's `toString()` of the whole. DTSTAMP is
 * always UTC: the calendar has no zone of its own (X-WR-TIMEZONE is only the clients' hint), so
 * ical-generator prints stamps with `Z`.
 */
export function renderCalendar(
  config: Config,
  ctx: RequestContext,
  bundles: readonly EventBundle[],
  options: CalendarOptions,
): string {
  const spans = new Map<string, { from: number; to: number }>();
  const all = [...bundles, ...bundles.flatMap(({ row }) => options.series?.get(row.id)?.overrides ?? [])];
  for (const { row } of all) {
    if (row.all_day === 1 || row.timezone === 'UTC') continue;
    const tzid = tzidOf(row.timezone);
    const span = spans.get(tzid);
    // A series' rule runs up to the horizon: its zone's observances must too.
    const end = row.recurrence !== null ? Math.max(row.end_utc, options.horizon ?? 0) : row.end_utc;
    spans.set(tzid, {
      from: Math.min(span?.from ?? Infinity, row.start_utc),
      to: Math.max(span?.to ?? -Infinity, end),
    });
  }
  const calendar = ical({
    // No version: a built server (bench/.build) has no package.json beside it to read one from.
    prodId: `//${config.siteName}//calendar-events-service//EN`,
    scale: 'GREGORIAN',
    method: ICalCalendarMethod.PUBLISH,
    ttl: 3600,
  });
  if (options.name !== null) calendar.x('X-WR-CALNAME', options.name);
  calendar.x('X-WR-TIMEZONE', config.siteTimezone);
  const head = calendar.toString();
  if (!head.endsWith(END)) throw new Error('ical-generator: unexpected end of calendar');
  // Each component is folded on its own: a feed's text is never split into lines whole.
  const components = [
    ...[...spans].map(([tzid, span]) => foldLines(vtimezone(tzid, span.from, span.to))),
    ...bundles.flatMap((bundle) => {
      const series = options.series?.get(bundle.row.id);
      const vevent = (item: EventBundle, recurrence: { series?: SeriesExport; overrideOf?: EventBundle['row'] }) =>
        foldLines(
          veventText(
            calendar.createEvent(eventData(ctx, item, recurrence)).toString(),
            recurrenceLines(item.row, recurrence),
          ),
        );
      return [
        vevent(bundle, { series }),
        ...(series?.overrides ?? []).map((override) => vevent(override, { overrideOf: bundle.row })),
      ];
    }),
  ];
  // Every line ends with CRLF, the last one too (ical-generator leaves it out).
  return `${head.slice(0, -END.length)}${components.join('')}${END}\r\n`;
}
