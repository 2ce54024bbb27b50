import { DateTime, FixedOffsetZone, type Zone } from 'luxon';

/** The wire format of every date in the contract (API.md §8). */
export const DB_FORMAT = 'yyyy-MM-dd HH:mm:ss';

/**
 * `YYYY-MM-DD HH:MM:SS` of a DateTime in its own zone, put together from its offset: Luxon's
 * `toFormat` was a fortieth of a filtered list's time (its `rest_url` echoes two dates).
 */
export function formatDb(instant: DateTime): string {
  if (instant.year < 0 || instant.year > 9999) return instant.toFormat(DB_FORMAT);
  return formatUtcSeconds(Math.floor(instant.toSeconds()) + instant.offset * 60);
}

const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const UNITS: Record<string, 'seconds' | 'minutes' | 'hours' | 'days' | 'weeks' | 'months' | 'years'> = {
  sec: 'seconds',
  second: 'seconds',
  min: 'minutes',
  minute: 'minutes',
  hour: 'hours',
  day: 'days',
  week: 'weeks',
  month: 'months',
  year: 'years',
};

const ABSOLUTE =
  /^(\d{4})-(\d{2})-(\d{2})(?:(?:[ t]+|t)(\d{1,2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?\s*(z|[+-]\d{2}(?::?\d{2})?)?$/i;
const DATE_THEN_REST = /^(\d{4})-(\d{2})-(\d{2})\s+(.+)$/;
const TIME_OF_DAY =
  /^(?:(\d{1,2})(?::(\d{2}))?(?::(\d{2}))?\s*(am|pm)|(\d{1,2}):(\d{2})(?::(\d{2}))?|(noon|midnight))$/i;
const RELATIVE_AMOUNT = /^([+-]?\d+)\s*(sec|second|min|minute|hour|day|week|month|year)s?(\s+ago)?$/i;

interface TimeOfDay {
  hour: number;
  minute: number;
  second: number;
}

function parseTimeOfDay(text: string): TimeOfDay | null {
  const match = TIME_OF_DAY.exec(text.trim());
  if (!match) return null;
  if (match[8]) return { hour: match[8].toLowerCase() === 'noon' ? 12 : 0, minute: 0, second: 0 };
  if (match[4]) {
    const hour12 = Number(match[1]);
    if (hour12 < 1 || hour12 > 12) return null;
    const hour = (hour12 % 12) + (match[4].toLowerCase() === 'pm' ? 12 : 0);
    return checked(hour, Number(match[2] ?? 0), Number(match[3] ?? 0));
  }
  return checked(Number(match[5]), Number(match[6]), Number(match[7] ?? 0));
}

function checked(hour: number, minute: number, second: number): TimeOfDay | null {
  return hour <= 23 && minute <= 59 && second <= 59 ? { hour, minute, second } : null;
}

/** The zone of an explicit offset, or null when it is out of range (beyond ±14:00, or 60+ minutes). */
function offsetZone(text: string): Zone | null {
  if (text.toLowerCase() === 'z') return FixedOffsetZone.utcInstance;
  const digits = text.replace(':', '');
  const hours = Number(digits.slice(1, 3));
  const extra = Number(digits.slice(3, 5) || 0);
  const minutes = hours * 60 + extra;
  if (extra > 59 || minutes > 14 * 60) return null;
  return FixedOffsetZone.instance(digits[0] === '-' ? -minutes : minutes);
}

function validDate(dt: DateTime): DateTime | null {
  return dt.isValid ? dt : null;
}

/** Years 1–9999 (API.md §25.3): what the wire format can write, and far beyond any calendar's need. */
function inYearRange(dt: DateTime): boolean {
  return dt.year >= 1 && dt.year <= 9999;
}

function parseAbsolute(text: string, zone: Zone): DateTime | null {
  const match = ABSOLUTE.exec(text);
  if (match) {
    const [, y, mo, d, h, mi, s, offset] = match;
    const parts = { year: +y, month: +mo, day: +d, hour: +(h ?? 0), minute: +(mi ?? 0), second: +(s ?? 0) };
    if (parts.hour > 23 || parts.minute > 59 || parts.second > 59) return null;
    // A date carrying an explicit offset is an instant, converted into the wanted zone (API.md §6, §17).
    const fixed = offset ? offsetZone(offset) : null;
    if (offset && !fixed) return null;
    const parsed = fixed
      ? DateTime.fromObject(parts, { zone: fixed }).setZone(zone)
      : DateTime.fromObject(parts, { zone });
    return validDate(parsed) && sameWallClock(parsed, parts, Boolean(offset)) ? parsed : null;
  }
  const withTime = DATE_THEN_REST.exec(text);
  if (!withTime) return null;
  const time = parseTimeOfDay(withTime[4]);
  if (!time) return null;
  const parsed = DateTime.fromObject({ year: +withTime[1], month: +withTime[2], day: +withTime[3], ...time }, { zone });
  return validDate(parsed);
}

/** Rejects impossible calendar dates such as 2026-02-31, which Luxon reports as invalid. */
function sameWallClock(
  parsed: DateTime,
  parts: { year: number; month: number; day: number },
  hasOffset: boolean,
): boolean {
  return hasOffset || (parsed.year === parts.year && parsed.month === parts.month && parsed.day === parts.day);
}

function withTime(base: DateTime, rest: string): DateTime | null {
  if (rest === '') return base;
  const time = parseTimeOfDay(rest);
  return time ? base.set({ ...time, millisecond: 0 }) : null;
}

function weekdayShift(today: DateTime, weekday: number, direction: 'next' | 'last' | 'this'): DateTime {
  const current = today.weekday; // 1 = Monday
  if (direction === 'next') return today.plus({ days: ((weekday - current + 6) % 7) + 1 });
  if (direction === 'last') return today.minus({ days: ((current - weekday + 6) % 7) + 1 });
  return today.plus({ days: (weekday - current + 7) % 7 });
}

function parseRelative(text: string, zone: Zone, now: DateTime): DateTime | null {
  const local = now.setZone(zone).set({ millisecond: 0 });
  const midnight = local.startOf('day');
  const words = text.toLowerCase().split(/\s+/);
  const [first, second] = words;
  const anchors: Record<string, DateTime> = {
    now: local,
    today: midnight,
    midnight,
    noon: midnight.set({ hour: 12 }),
    tomorrow: midnight.plus({ days: 1 }),
    yesterday: midnight.minus({ days: 1 }),
  };
  if (first in anchors) return withTime(anchors[first], words.slice(1).join(' '));
  if ((first === 'next' || first === 'last' || first === 'this') && WEEKDAYS.includes(second)) {
    return withTime(weekdayShift(midnight, WEEKDAYS.indexOf(second) + 1, first), words.slice(2).join(' '));
  }
  if (WEEKDAYS.includes(first))
    return withTime(weekdayShift(midnight, WEEKDAYS.indexOf(first) + 1, 'this'), words.slice(1).join(' '));
  const timeOnly = parseTimeOfDay(text);
  if (timeOnly) return local.set({ ...timeOnly });
  return parseAmount(words, local);
}

/** `+N unit(s)`, `-N unit(s)`, `N unit(s) ago`, optionally followed by a time of day. */
function parseAmount(words: string[], local: DateTime): DateTime | null {
  for (let split = Math.min(words.length, 3); split >= 1; split--) {
    const match = RELATIVE_AMOUNT.exec(words.slice(0, split).join(' '));
    if (!match) continue;
    const amount = Number(match[1]) * (match[3] ? -1 : 1);
    const moved = local.plus({ [UNITS[match[2].toLowerCase()]]: amount });
    return withTime(moved, words.slice(split).join(' '));
  }
  return null;
}

/**
 * Parses a date parameter in every form of API.md §6. Wall-clock forms are read in `zone`; Unix
 * timestamps and forms with an explicit offset are instants. Returns null when nothing matches.
 */
export function parseDateInput(raw: unknown, zone: Zone, now: DateTime): DateTime | null {
  const parsed = readDate(raw, zone, now);
  return parsed && inYearRange(parsed) ? parsed : null;
}

/** Why parseDateInput refused a date: unreadable, or readable but outside years 1–9999. */
export function dateProblem(raw: unknown, zone: Zone, now: DateTime): 'invalid_date' | 'date_out_of_range' {
  return readDate(raw, zone, now) ? 'date_out_of_range' : 'invalid_date';
}

function readDate(raw: unknown, zone: Zone, now: DateTime): DateTime | null {
  if (typeof raw === 'number') {
    return Number.isInteger(raw) && raw >= 0 ? validDate(DateTime.fromSeconds(raw, { zone })) : null;
  }
  if (typeof raw !== 'string') return null;
  const text = raw.trim().replace(/\s+/g, ' ');
  if (text === '' || text.length > 64) return null;
  // Out-of-range timestamps give an invalid DateTime: reject them like any other unreadable date.
  if (/^\d+$/.test(text)) return validDate(DateTime.fromSeconds(Number(text), { zone }));
  if (/^\d{4}-\d{2}-\d{2}/.test(text)) return parsedAbsolute(text, zone);
  return parseRelative(text, zone, now);
}

const absoluteDates = new Map<string, DateTime | null>();

/**
 * An absolute date, remembered per zone (it does not depend on "now"; a DateTime never changes):
 * lists and writes send the same dates again and again, and each is read twice (validation, then
 * use), and Luxon's `fromObject` was a fiftieth of a create.
 */
function parsedAbsolute(text: string, zone: Zone): DateTime | null {
  const key = `${zone.name}|${text}`;
  let parsed = absoluteDates.get(key);
  if (parsed === undefined) {
    parsed = parseAbsolute(text, zone);
    if (absoluteDates.size >= 1_000) absoluteDates.clear();
    absoluteDates.set(key, parsed);
  }
  return parsed;
}

const DAY_SECONDS = 86_400;
const dayOffsets = new Map<string, number>();

/**
 * The UTC offset (minutes) of `zone` at an instant, remembered per zone and UTC day: rendering
 * thousands of dates per second through Luxon's Intl lookups would dominate list requests. Days
 * that contain a transition are not remembered and are computed exactly.
 */
export function offsetAt(zone: Zone, zoneName: string, seconds: number): number {
  const day = Math.floor(seconds / DAY_SECONDS);
  const key = `${zoneName}|${day}`;
  let offset = dayOffsets.get(key);
  if (offset === undefined) {
    const first = zone.offset(day * DAY_SECONDS * 1000);
    const last = zone.offset(((day + 1) * DAY_SECONDS - 1) * 1000);
    offset = first === last ? first : NaN;
    if (dayOffsets.size > 100_000) dayOffsets.clear();
    dayOffsets.set(key, offset);
  }
  return Number.isNaN(offset) ? zone.offset(seconds * 1000) : offset;
}

const dayTexts = new Map<number, string>();
const TWO_DIGITS = Array.from({ length: 60 }, (_, n) => String(n).padStart(2, '0'));

/**
 * `YYYY-MM-DD HH:MM:SS` of a UTC instant (Unix seconds). The date of each day is formatted once
 * by `Date` and remembered; only the time of day is put together here. Formatting the whole
 * instant each time was a twentieth of rendering an event (eight dates each).
 */
export function formatUtcSeconds(instant: number): string {
  const seconds = Math.floor(instant);
  const day = Math.floor(seconds / DAY_SECONDS);
  let date = dayTexts.get(day);
  if (date === undefined) {
    date = new Date(day * DAY_SECONDS * 1000).toISOString().slice(0, 10);
    if (dayTexts.size >= 100_000) dayTexts.clear();
    dayTexts.set(day, date);
  }
  const time = seconds - day * DAY_SECONDS;
  return `${date} ${TWO_DIGITS[Math.floor(time / 3600)]}:${TWO_DIGITS[Math.floor(time / 60) % 60]}:${TWO_DIGITS[time % 60]}`;
}

/** `YYYY-MM-DD HH:MM:SS` wall-clock time of an instant in a zone; same result as Luxon, much faster. */
export function formatSecondsInZone(seconds: number, zone: Zone, zoneName: string): string {
  return formatUtcSeconds(seconds + offsetAt(zone, zoneName, seconds) * 60);
}

/** `YYYY-MM-DDTHH:MM:SS±HH:MM` of an instant in a zone (ISO 8601 with offset, as Luxon's `ZZ`). */
export function formatIsoInZone(seconds: number, zone: Zone, zoneName: string): string {
  const offset = offsetAt(zone, zoneName, seconds);
  const abs = Math.abs(offset);
  const sign = offset < 0 ? '-' : '+';
  const hhmm = `${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
  return `${formatUtcSeconds(seconds + offset * 60).replace(' ', 'T')}${sign}${hhmm}`;
}
