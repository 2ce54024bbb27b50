import { randomUUID } from 'node:crypto';
import type { Config } from '../../config.js';
import type { Executor } from '../../db/schema.js';
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
 * Runs an event update and bumps its SEQUENCE when the update changed what API.md §19.1 names
 * (start, end, all-day, time zone, status, venue), so subscribed calendars replace their copy.
 * Compared before and after inside the write's transaction: a PATCH that resends the same dates bumps nothing.
 */
export async function withSequence<T>(trx: Executor, eventId: number, write: () => Promise<T>): Promise<T> {
  const before = await repo.scheduleState(trx, eventId);
  const result = await write();
  const after = await repo.scheduleState(trx, eventId);
  if (before && after && repo.SCHEDULE_COLUMNS.some((k) => before[k] !== after[k]))
    await repo.bumpSequence(trx, eventId);
  return result;
}
