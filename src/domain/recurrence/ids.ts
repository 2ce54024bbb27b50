import { DateTime, type Zone } from 'luxon';
import { zoneOf } from '../timezones.js';

/**
 * The local date (`YYYY-MM-DD`) of an occurrence's original start, from its `recurrence_id`
 * (API.md §20.2: UTC basic `20270105T180000Z`, or `YYYYMMDD` for all-day series) in the series' zone.
 */
export function recurrenceIdDate(recurrenceId: string, timezone: string): string {
  const date = `${recurrenceId.slice(0, 4)}-${recurrenceId.slice(4, 6)}-${recurrenceId.slice(6, 8)}`;
  if (recurrenceId.length === 8) return date;
  const instant = DateTime.fromISO(
    `${date}T${recurrenceId.slice(9, 11)}:${recurrenceId.slice(11, 13)}:${recurrenceId.slice(13, 15)}Z`,
  );
  return instant.setZone(zoneOf(timezone)).toISODate() ?? date;
}

/** An occurrence's original start from its `recurrence_id`: the instant, or local midnight of an all-day date. */
export function originalStartOf(recurrenceId: string, zone: Zone): DateTime {
  const date = `${recurrenceId.slice(0, 4)}-${recurrenceId.slice(4, 6)}-${recurrenceId.slice(6, 8)}`;
  if (recurrenceId.length === 8) return DateTime.fromISO(date, { zone });
  const time = `${recurrenceId.slice(9, 11)}:${recurrenceId.slice(11, 13)}:${recurrenceId.slice(13, 15)}`;
  return DateTime.fromISO(`${date}T${time}Z`).setZone(zone);
}
