import { DateTime, type Zone } from 'luxon';
import { formatSecondsInZone } from '../dates.js';
import { zoneOf } from '../timezones.js';

/** The local date (`YYYY-MM-DD`) of an instant (Unix seconds) in a stored zone. */
export function localDateOf(seconds: number, timezone: string): string {
  return formatSecondsInZone(seconds, zoneOf(timezone), timezone).slice(0, 10);
}

/**
 * The local date (`YYYY-MM-DD`) of an occurrence's original start, from its `recurrence_id`
 * (API.md §20.2: UTC basic `20270105T180000Z`, or `YYYYMMDD` for all-day series) in the series' zone.
 */
export function recurrenceIdDate(recurrenceId: string, timezone: string): string {
  const date = `${recurrenceId.slice(0, 4)}-${recurrenceId.slice(4, 6)}-${recurrenceId.slice(6, 8)}`;
  if (recurrenceId.length === 8) return date;
  const [hour, minute, second] = [9, 11, 13].map((at) => Number(recurrenceId.slice(at, at + 2)));
  const day = Date.parse(`${date}T00:00:00Z`);
  return localDateOf(day / 1000 + hour * 3600 + minute * 60 + second, timezone);
}

/** An occurrence's original start from its `recurrence_id`: the instant, or local midnight of an all-day date. */
export function originalStartOf(recurrenceId: string, zone: Zone): DateTime {
  const date = `${recurrenceId.slice(0, 4)}-${recurrenceId.slice(4, 6)}-${recurrenceId.slice(6, 8)}`;
  if (recurrenceId.length === 8) return DateTime.fromISO(date, { zone });
  const time = `${recurrenceId.slice(9, 11)}:${recurrenceId.slice(11, 13)}:${recurrenceId.slice(13, 15)}`;
  return DateTime.fromISO(`${date}T${time}Z`).setZone(zone);
}

interface Placed {
  recurrence_id: string;
  timezone: string;
}

/**
 * Whether a series' stored lines (JSON) can start two occurrences on one local date: RDATEs, a
 * frequency under a day, or several hours, minutes or seconds in a rule. Others never do, so their
 * occurrences are the 1st on their date without looking at the rest.
 */
export const mayShareDates = (lines: string) =>
  /RDATE|FREQ=(HOURLY|MINUTELY|SECONDLY)|BY(HOUR|MINUTE|SECOND)=[^;"]*,/.test(lines);

/** A series' occurrences whose original start falls on the local `date`, in the order of those starts. */
export function onLocalDate<T extends Placed>(occurrences: readonly T[], date: string): T[] {
  return occurrences
    .filter((o) => recurrenceIdDate(o.recurrence_id, o.timezone) === date)
    .sort((a, b) => (a.recurrence_id < b.recurrence_id ? -1 : 1));
}

/**
 * An occurrence's page path after its series' slug (TEC Pro's scheme, API.md §20.2): the local date
 * of its original start, and from the second occurrence on that date on, its rank.
 */
export function occurrencePath(recurrenceId: string, timezone: string, rank: number): string {
  const date = recurrenceIdDate(recurrenceId, timezone);
  return rank > 1 ? `${date}/${rank}/` : `${date}/`;
}
