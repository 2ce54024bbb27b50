import { DateTime } from 'luxon';
import { formatSecondsInZone, offsetAt } from '../../domain/dates.js';
import { zoneOf } from '../../domain/timezones.js';

/** `*_details` of a date (API.md §8): zero-padded strings split from the formatted value. */
export interface DateDetails {
  year: string;
  month: string;
  day: string;
  hour: string;
  minutes: string;
  seconds: string;
}

export function dateDetails(formatted: string): DateDetails {
  return {
    year: formatted.slice(0, 4),
    month: formatted.slice(5, 7),
    day: formatted.slice(8, 10),
    hour: formatted.slice(11, 13),
    minutes: formatted.slice(14, 16),
    seconds: formatted.slice(17, 19),
  };
}

export function localTime(seconds: number, timezone: string): DateTime {
  return DateTime.fromSeconds(seconds, { zone: zoneOf(timezone) });
}

export function formatLocal(seconds: number, timezone: string): string {
  return formatSecondsInZone(seconds, zoneOf(timezone), timezone);
}

// Intl names zones per locale; together these English (and two Asian) locales give the tz-database
// letter abbreviations PHP reports for most zones (EST, CET, AEDT, IST, HKT, JST, SAST, WIB…).
const ABBREVIATION_LOCALES = [
  'en-US',
  'en-GB',
  'en-AU',
  'en-IN',
  'en-NZ',
  'en-ZA',
  'en-HK',
  'en-KE',
  'en-NG',
  'en-IE',
  'ja-JP',
  'id-ID',
];
/** Zones whose tz-database abbreviation no locale spells out: [standard, daylight]. */
const KNOWN_ABBREVIATIONS: Record<string, [string, string]> = {
  'Asia/Seoul': ['KST', 'KDT'],
  'Asia/Shanghai': ['CST', 'CDT'],
  'Asia/Taipei': ['CST', 'CDT'],
  'Asia/Karachi': ['PKT', 'PKST'],
  'Asia/Manila': ['PST', 'PDT'],
  'Asia/Jerusalem': ['IST', 'IDT'],
  'Europe/Moscow': ['MSK', 'MSD'],
};
const abbreviationCache = new Map<string, string>();

function intlAbbreviation(zone: string, at: Date, locale: string): string {
  const parts = new Intl.DateTimeFormat(locale, { timeZone: zone, timeZoneName: 'short' }).formatToParts(at);
  return parts.find((part) => part.type === 'timeZoneName')?.value ?? '';
}

/** PHP's style for zones without a letter abbreviation: `+03`, `-0330`. */
function numericAbbreviation(offsetMinutes: number): string {
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  const hours = String(Math.floor(abs / 60)).padStart(2, '0');
  const minutes = abs % 60;
  return `${sign}${hours}${minutes === 0 ? '' : String(minutes).padStart(2, '0')}`;
}

/**
 * `timezone_abbr` (tec-api.md §5.1): the abbreviation valid at the event's start (EST/EDT, CET/CEST);
 * `UTC±N` zones are their own abbreviation.
 */
export function timezoneAbbreviation(timezone: string, atSeconds: number): string {
  if (timezone === 'UTC' || timezone.startsWith('UTC')) return timezone;
  // Within a zone the offset decides the abbreviation, and it is cheap to find (domain/dates.ts).
  const key = `${timezone}|${offsetAt(zoneOf(timezone), timezone, atSeconds)}`;
  const cached = abbreviationCache.get(key);
  if (cached !== undefined) return cached;
  const local = localTime(atSeconds, timezone);
  const at = new Date(atSeconds * 1000);
  const known = KNOWN_ABBREVIATIONS[timezone];
  const named = known
    ? known[local.isInDST ? 1 : 0]
    : ABBREVIATION_LOCALES.map((locale) => intlAbbreviation(timezone, at, locale)).find((name) =>
        /^[A-Z]{2,5}$/.test(name),
      );
  const result = named ?? numericAbbreviation(local.offset);
  abbreviationCache.set(key, result);
  return result;
}

/** All-day events span whole local days: 00:00:00 of the first to 23:59:59 of the last (API.md §13). */
export function snapToDays(start: DateTime, end: DateTime): { start: DateTime; end: DateTime } {
  return { start: start.startOf('day'), end: end.endOf('day').set({ millisecond: 0 }) };
}

/**
 * The instants lists filter and sort on: timed events use their UTC instants; all-day events are
 * floating days, placed on the same local days in the site zone (so an all-day event on 25 December
 * is on 25 December for every visitor, as in TEC).
 */
export function sortKeys(
  startUtc: number,
  endUtc: number,
  timezone: string,
  allDay: boolean,
  siteTimezone: string,
): { start_key: number; end_key: number } {
  if (!allDay) return { start_key: startUtc, end_key: endUtc };
  const float = (seconds: number) => {
    const local = localTime(seconds, timezone);
    return Math.floor(
      DateTime.fromObject(
        {
          year: local.year,
          month: local.month,
          day: local.day,
          hour: local.hour,
          minute: local.minute,
          second: local.second,
        },
        { zone: zoneOf(siteTimezone) },
      ).toSeconds(),
    );
  };
  return { start_key: float(startUtc), end_key: float(endUtc) };
}
