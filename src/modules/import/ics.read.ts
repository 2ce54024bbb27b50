import { DateTime } from 'luxon';
import nodeIcal from 'node-ical';
import { autoParagraph, plainText } from '../../domain/html.js';
import { MAX_TITLE_LENGTH } from '../../http/args.js';
import { DB_FORMAT } from '../../domain/dates.js';
import { IcsProblem } from './ics.problem.js';
import type { ScannedCalendar, ScannedEvent } from './ics.scan.js';

/** One VEVENT as the import maps it onto an event (API.md §19.3). */
export interface ImportedEvent {
  /** Position in the file (later copies of a key win ties). */
  readonly index: number;
  readonly uid: string | null;
  readonly recurring: boolean;
  readonly recurrenceId: string | null;
  readonly title: string | null;
  /** HTML: X-ALT-DESC, else DESCRIPTION as paragraphs (sanitised when stored). */
  readonly description: string;
  readonly allDay: boolean;
  readonly timezone: string;
  /** Wall-clock start and end in `timezone`, `YYYY-MM-DD HH:MM:SS` (all-day: the first and last day). */
  readonly start: string;
  readonly end: string;
  readonly url: string | null;
  readonly location: string | null;
  readonly geo: { lat: number; lng: number } | null;
  readonly organizer: { name: string | null; email: string | null } | null;
  readonly categories: string[];
  readonly sequence: number;
  /** LAST-MODIFIED, else DTSTAMP, in Unix seconds. */
  readonly stamp: number | null;
  readonly cancelled: boolean;
}

type Parsed = nodeIcal.VEvent & Record<string, unknown>;

/** node-ical gives a property with parameters as `{params, val}`, without as the value itself. */
function textOf(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  if (value && typeof value === 'object' && 'val' in value) return textOf(value.val);
  return null;
}

/** Markup that shows a DESCRIPTION is HTML rather than plain text. */
const HTML_TAG = /<\/?(?:p|br|b|i|u|a|em|strong|span|div|ul|ol|li|h[1-6])(?:\s[^>]*)?\/?>/i;

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function descriptionOf(event: Parsed): string {
  const alternative = event['ALT-DESC'];
  const html = alternative && typeof alternative === 'object' && 'params' in alternative ? alternative : undefined;
  const type = html && isRecord(html.params) ? (textOf(html.params.FMTTYPE) ?? '').toLowerCase() : '';
  if (html && type === 'text/html') return textOf(html) ?? '';
  const text = textOf(event.description)?.replace(/\r\n?/g, '\n');
  if (!text) return '';
  // Google Calendar writes its descriptions as HTML in DESCRIPTION: kept as HTML (and sanitised).
  return autoParagraph(HTML_TAG.test(text) ? text : escapeHtml(text));
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

function organizerOf(value: unknown): ImportedEvent['organizer'] {
  const address = textOf(value);
  if (address === null) return null;
  const params = isRecord(value) && isRecord(value.params) ? value.params : {};
  const cn = typeof params.CN === 'string' ? params.CN.trim() : '';
  const email = /^mailto:/i.test(address) ? address.replace(/^mailto:/i, '').trim() : '';
  if (cn === '' && email === '') return null;
  return { name: cn || null, email: email || null };
}

function categoriesOf(value: unknown): string[] {
  const values = Array.isArray(value) ? value : value === undefined ? [] : [value];
  const names = values.map((item) => plainText(textOf(item) ?? '').trim()).filter((name) => name !== '');
  return [...new Set(names)];
}

/** SUMMARY as a title (API.md §18): plain text, at most MAX_TITLE_LENGTH characters; null when empty. */
function titleOf(summary: unknown): string | null {
  const text = plainText(textOf(summary) ?? '').trim();
  return text === '' ? null : [...text].slice(0, MAX_TITLE_LENGTH).join('');
}

const seconds = (date: unknown) =>
  date instanceof Date && !Number.isNaN(date.getTime()) ? Math.floor(date.getTime() / 1000) : null;

/** The zone of an event (API.md §19.3): a named zone; else X-WR-TIMEZONE (IANA), else SITE_TIMEZONE (UTC times: `UTC`). */
function zoneOf(scanned: ScannedEvent, calendar: ScannedCalendar): string {
  switch (scanned.startKind) {
    case 'zoned':
      return scanned.startZone ?? calendar.floatingZone;
    case 'utc':
      return calendar.calendarZone ?? 'UTC';
    default:
      return calendar.floatingZone;
  }
}

/** Start and end as wall-clock text: dates as node-ical built them (local midnight), date-times in the event's zone. */
function timesOf(event: Parsed, allDay: boolean, zone: string): { start: string; end: string } {
  if (allDay) {
    // node-ical makes dates local midnights of this process; the exclusive DTEND becomes the last day.
    const day = (date: Date) =>
      DateTime.fromObject({ year: date.getFullYear(), month: date.getMonth() + 1, day: date.getDate() });
    const first = day(event.start);
    const endDate: unknown = event.end;
    const last = endDate instanceof Date ? DateTime.max(first, day(endDate).minus({ days: 1 })) : first;
    return { start: first.toFormat(DB_FORMAT), end: last.toFormat(DB_FORMAT) };
  }
  const start = DateTime.fromJSDate(event.start, { zone });
  const endDate: unknown = event.end;
  const end = endDate instanceof Date ? DateTime.fromJSDate(endDate, { zone }) : start;
  return { start: start.toFormat(DB_FORMAT), end: DateTime.max(start, end).toFormat(DB_FORMAT) };
}

/** The VEVENTs of a scanned calendar, in file order, read by node-ical (text unescaped, DURATION applied). */
export function readEvents(calendar: ScannedCalendar): ImportedEvent[] {
  let parsed: nodeIcal.CalendarResponse;
  try {
    parsed = nodeIcal.sync.parseICS(calendar.text);
  } catch (error) {
    // What the pre-scan lets through should parse; if node-ical still refuses it, the file is at fault.
    throw new IcsProblem(`unreadable data (${error instanceof Error ? error.message : String(error)})`);
  }
  return calendar.events.map((scanned, index) => {
    const event = parsed[scanned.key] as Parsed | undefined;
    if (!event || event.type !== 'VEVENT') throw new Error(`node-ical lost VEVENT ${scanned.key}`);
    const allDay = scanned.startKind === 'date';
    const timezone = zoneOf(scanned, calendar);
    const geo = isRecord(event.geo) ? event.geo : undefined;
    const lat = Number(geo?.lat);
    const lng = Number(geo?.lon);
    const sequence = Number(textOf(event.sequence) ?? 0);
    return {
      index,
      uid: scanned.uid,
      recurring: scanned.recurring,
      recurrenceId: scanned.recurrenceId,
      title: titleOf(event.summary),
      description: descriptionOf(event),
      allDay,
      timezone,
      ...timesOf(event, allDay, timezone),
      url: textOf(event.url)?.trim() || null,
      location: textOf(event.location)?.trim() || null,
      geo: geo && Number.isFinite(lat) && Number.isFinite(lng) ? { lat, lng } : null,
      organizer: organizerOf(event.organizer),
      categories: categoriesOf(event.categories),
      sequence: Number.isSafeInteger(sequence) && sequence >= 0 ? sequence : 0,
      stamp: seconds(event.lastmodified) ?? seconds(event.dtstamp),
      cancelled: textOf(event.status)?.trim().toUpperCase() === 'CANCELLED',
    };
  });
}
