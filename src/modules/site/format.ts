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
 * The local days an event covers in its own zone (API.md §25.6: pages group by the event's local
 * start): from its start day to its end day, an end at exactly midnight belonging to the day before.
 */
export function localSpan(row: EventRow): { first: string; last: string } {
  const start = DateTime.fromSeconds(row.start_utc, { zone: zoneOf(row.timezone) });
  let end = DateTime.fromSeconds(row.end_utc, { zone: zoneOf(row.timezone) });
  if (row.end_utc > row.start_utc && end.equals(end.startOf('day'))) end = end.minus({ seconds: 1 });
  return { first: isoDay(start), last: isoDay(end) };
}

const DAY_LONG = { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' } as const;
const DAY_SHORT = { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' } as const;
const TIME = { hour: 'numeric', minute: '2-digit' } as const;

/** `<time datetime>` with the offset, showing `label`. */
function timeElement(dt: DateTime, label: string, dateOnly = false): Html {
  const datetime = dateOnly ? isoDay(dt) : (dt.toISO({ suppressMilliseconds: true }) ?? '');
  return html`<time datetime="${datetime}">${label}</time>`;
}

/** A long date heading, e.g. "Saturday, December 12, 2026" in the page's language. */
export function dayHeading(day: DateTime): string {
  return day.toLocaleString(DAY_LONG);
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
