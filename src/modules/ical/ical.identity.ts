import { randomUUID } from 'node:crypto';
import type { Config } from '../../config.js';
import * as repo from './ical.repository.js';

/** The host part of UIDs made here (API.md §19.2): PUBLIC_URL's host, without the port. */
export function uidHost(config: Config): string {
  return new URL(config.publicUrl).hostname;
}

/** A new event's `ical_uid`: `{uuid}@{PUBLIC_URL host}`, stored, so it never follows later changes of dates or PUBLIC_URL. */
export function newIcalUid(config: Config): string {
  return `${randomUUID()}@${uidHost(config)}`;
}

/**
 * Whether an event update changed what API.md §19.1 names (start, end, all-day, time zone, status,
 * venue), so that its SEQUENCE is bumped and subscribed calendars replace their copy. Compared
 * before and after inside the write's transaction: a PATCH that resends the same dates bumps nothing.
 */
export function rescheduled(before: repo.ScheduleState, after: repo.ScheduleState): boolean {
  return repo.SCHEDULE_COLUMNS.some((column) => before[column] !== after[column]);
}
