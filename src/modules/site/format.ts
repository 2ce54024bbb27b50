import { DateTime } from 'luxon';
import type { Language } from '../../i18n/languages.js';
import { zoneOf } from '../../domain/timezones.js';
import type { EventRow } from '../events/events.repository.js';
import { timezoneAbbreviation } from '../events/events.dates.js';
import { html, type Html } from './html.js';
import { localeOf, text } from './texts.js';

/** An instant in the event's own zone and the page's language. */
export function localOf(seconds: number, timezone: string, lang: Language): DateTime {
  return DateTime.fromSeconds(seconds, { zone: zoneOf(timezone) }).setLocale(localeOf(lang));
}

/** ISO date `YYYY-MM-DD` of a DateTime (always valid here: built from stored instants). */
export const isoDay = (dt: DateTime): string => dt.toISODate() ?? '';

/**
 * Intl formatters by locale, zone and options: building one costs far more than using it, and a
 * month page formats hundreds of dates. `null` marks a zone Intl does not know (TEC's `UTC+2`
 * offsets), which Luxon formats instead.
 */
const formatters = new Map<string, Intl.DateTimeFormat | null>();

function formatterOf(
  locale: string,
  timezone: string,
  options: Intl.DateTimeFormatOptions,
): Intl.DateTimeFormat | null {
  const key = `${locale}|${timezone}|${JSON.stringify(options)}`;
  let formatter = formatters.get(key);
  if (formatter === undefined) {
    try {
      formatter = new Intl.DateTimeFormat(locale, { ...options, timeZone: timezone });
    } catch {
      formatter = null;
    }
    formatters.set(key, formatter);
  }
  return formatter;
}

const YMD = { year: 'numeric', month: '2-digit', day: '2-digit' } as const;

/** The local calendar day `YYYY-MM-DD` of an instant in a zone (en-CA writes dates that way). */
export function localDate(seconds: number, timezone: string): string {
  const formatter = formatterOf('en-CA', timezone, YMD);
  if (formatter) return formatter.format(seconds * 1000);
  return DateTime.fromSeconds(seconds, { zone: zoneOf(timezone) }).toISODate() ?? '';
}

/** A wall-clock time (`7:00 PM`, `19:00`) of an instant in a zone and the page's language. */
export function localTime(seconds: number, timezone: string, lang: Language): string {
  const formatter = formatterOf(localeOf(lang), timezone, TIME);
  if (formatter) return formatter.format(seconds * 1000);
  return localOf(seconds, timezone, lang).toLocaleString(TIME);
}

/**
 * The local days an event covers in its own zone (API.md §25.6: pages group by the event's local
 * start): from its start day to the day of its last second, so an end at midnight belongs to the day before.
 */
export function localSpan(row: EventRow): { first: string; last: string } {
  const lastSecond = row.end_utc > row.start_utc ? row.end_utc - 1 : row.end_utc;
  return { first: localDate(row.start_utc, row.timezone), last: localDate(lastSecond, row.timezone) };
}

const DAY_LONG = { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' } as const;
const DAY_SHORT = { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' } as const;
const TIME = { hour: 'numeric', minute: '2-digit' } as const;

/** `<time datetime>` with the offset, showing `label`. */
function timeElement(dt: DateTime, label: string, dateOnly = false): Html {
  const datetime = dateOnly ? isoDay(dt) : (dt.toISO({ suppressMilliseconds: true }) ?? '');
  return html`<time datetime="${datetime}">${label}</time>`;
}

/** A long date heading of a calendar day `YYYY-MM-DD`, e.g. "Saturday, December 12, 2026" in the page's language. */
export function dayHeading(iso: string, lang: Language): string {
  const [year, month, day] = iso.split('-').map(Number);
  return formatterOf(localeOf(lang), 'UTC', DAY_LONG)?.format(Date.UTC(year, month - 1, day)) ?? iso;
}

/**
 * When an event happens, in its zone and the page's language (API.md §23.1): all-day and multi-day
 * events read as dates, timed ones with their times and the zone's abbreviation.
 */
export function eventWhen(row: EventRow, lang: Language): Html {
  const start = localOf(row.start_utc, row.timezone, lang);
  const end = localOf(row.end_utc, row.timezone, lang);
  const span = localSpan(row);
  const abbr = timezoneAbbreviation(row.timezone, row.start_utc);
  if (row.all_day === 1) {
    const first = timeElement(start, start.toLocaleString(DAY_LONG), true);
    if (span.first === span.last) return html`${first} · ${text(lang, 'all_day')}`;
    return html`${first} – ${timeElement(end, end.toLocaleString(DAY_LONG), true)}`;
  }
  const from = timeElement(start, `${start.toLocaleString(DAY_SHORT)}, ${start.toLocaleString(TIME)}`);
  if (span.first === span.last)
    return html`${from} – ${timeElement(end, end.toLocaleString(TIME))} <abbr title="${row.timezone}">${abbr}</abbr>`;
  const to = timeElement(end, `${end.toLocaleString(DAY_SHORT)}, ${end.toLocaleString(TIME)}`);
  return html`${from} – ${to} <abbr title="${row.timezone}">${abbr}</abbr>`;
}

/**
 * When an event happens, under its day's heading: the times of a timed event that starts and ends
 * that day, "All day" for a one-day all-day event, the whole span otherwise.
 */
export function timesWithinDay(row: EventRow, lang: Language): Html {
  const span = localSpan(row);
  if (span.first !== span.last) return eventWhen(row, lang);
  if (row.all_day === 1) return html`${text(lang, 'all_day')}`;
  const start = localOf(row.start_utc, row.timezone, lang);
  const end = localOf(row.end_utc, row.timezone, lang);
  const abbr = timezoneAbbreviation(row.timezone, row.start_utc);
  return html`${timeElement(start, start.toLocaleString(TIME))} – ${timeElement(end, end.toLocaleString(TIME))} <abbr title="${row.timezone}">${abbr}</abbr>`;
}
