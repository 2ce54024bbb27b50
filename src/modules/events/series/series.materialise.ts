import { readStates } from '../../../changes/change-log.repository.js';
import type { ChangeSet } from '../../../changes/change-set.js';
import type { Executor } from '../../../db/schema.js';
import { expandLines, type Occurrence } from '../../../domain/recurrence/expand.js';
import { recurrenceIdDate } from '../../../domain/recurrence/ids.js';
import { sortKeys } from '../events.dates.js';
import * as repo from './series.repository.js';

/** Write fields that give an override its own dates. */
const TIMES = ['start_date', 'end_date', 'all_day'];

/** The field names of an occurrence's `overrides` (`|title|venue|`). */
export const fieldsOf = (overrides: string | null): ReadonlySet<string> =>
  new Set((overrides ?? '').split('|').filter((name) => name !== ''));

export interface Horizon {
  /** The instant up to which occurrences exist (now + RECURRENCE_HORIZON_MONTHS). */
  until: number;
  siteTimezone: string;
}

/**
 * Pairs the stored occurrences with the expansion (API.md §20.2): the same original start keeps
 * its id; among the rest, those on the same original local date pair up in order; the remaining
 * new starts are new occurrences and the remaining stored ones vanish.
 */
export function pairOccurrences(
  stored: readonly repo.StoredOccurrence[],
  expanded: readonly Occurrence[],
): { kept: [repo.StoredOccurrence, Occurrence][]; added: Occurrence[]; removed: repo.StoredOccurrence[] } {
  const byRecurrenceId = new Map(stored.map((o) => [o.recurrence_id, o]));
  const kept: [repo.StoredOccurrence, Occurrence][] = [];
  const unmatchedNew: Occurrence[] = [];
  const matched = new Set<number>();
  for (const occurrence of expanded) {
    const same = byRecurrenceId.get(occurrence.recurrenceId);
    if (same) {
      kept.push([same, occurrence]);
      matched.add(same.id);
    } else unmatchedNew.push(occurrence);
  }
  const oldByDate = new Map<string, repo.StoredOccurrence[]>();
  for (const old of stored.filter((o) => !matched.has(o.id))) {
    // The original local date in the zone the occurrence had (a series edit may change the zone).
    const localDate = recurrenceIdDate(old.recurrence_id, old.timezone);
    oldByDate.set(localDate, [...(oldByDate.get(localDate) ?? []), old]);
  }
  const added: Occurrence[] = [];
  for (const occurrence of unmatchedNew) {
    const old = oldByDate.get(occurrence.localDate)?.shift();
    if (old) {
      kept.push([old, occurrence]);
      matched.add(old.id);
    } else added.push(occurrence);
  }
  return { kept, added, removed: stored.filter((o) => !matched.has(o.id)) };
}

/**
 * Brings a series' occurrences in line with its lines, times and fields, inside the series write:
 * ids kept by pairOccurrences, vanished ones deleted for good (ids are never reused: the posts
 * sequence moves on), new ones created as copies of the series. `sharedChanged` re-copies the
 * series' fields to every kept occurrence (a series edit). Each occurrence written is recorded in
 * `changes` (caches, change feed). Occurrences deleted one by one stay excluded (`excluded`).
 */
export async function materialise(
  trx: Executor,
  seriesId: number,
  horizon: Horizon,
  changes: ChangeSet,
  options: { sharedChanged: boolean },
): Promise<{ added: number[]; removed: number[] }> {
  const series = await repo.seriesRow(trx, seriesId);
  const stored = await repo.occurrencesOf(trx, seriesId);
  if (!series?.recurrence) {
    await recordDeleted(
      trx,
      changes,
      stored.map((o) => o.id),
    );
    await repo.deleteOccurrences(
      trx,
      stored.map((o) => o.id),
    );
    changes.add('event', ...stored.map((o) => o.id));
    return { added: [], removed: stored.map((o) => o.id) };
  }
  const times = {
    start_utc: series.start_utc,
    end_utc: series.end_utc,
    timezone: series.timezone,
    all_day: series.all_day === 1,
  };
  const lines = JSON.parse(series.recurrence) as string[];
  const excluded = new Set(JSON.parse(series.excluded ?? '[]') as string[]);
  const expanded = expandLines(lines, times, horizon.until).filter((o) => !excluded.has(o.recurrenceId));
  const { kept, added, removed } = pairOccurrences(stored, expanded);
  const timesOf = (o: Occurrence): repo.OccurrenceTimes => ({
    start_utc: o.start,
    end_utc: o.end,
    ...sortKeys(o.start, o.end, times.timezone, times.all_day, horizon.siteTimezone),
    recurrence_id: o.recurrenceId,
  });
  await recordDeleted(
    trx,
    changes,
    removed.map((o) => o.id),
  );
  await repo.deleteOccurrences(
    trx,
    removed.map((o) => o.id),
  );
  const moved: number[] = [];
  const retimed: ({ id: number } & repo.OccurrenceTimes)[] = [];
  for (const [old, occurrence] of kept) {
    if (
      old.recurrence_id !== occurrence.recurrenceId ||
      old.start_utc !== occurrence.start ||
      old.end_utc !== occurrence.end
    ) {
      // An override given its own dates keeps them (API.md §20.3); its original start still follows.
      if (TIMES.some((field) => fieldsOf(old.overrides).has(field)))
        await repo.updateOccurrenceTimes(trx, old.id, { recurrence_id: occurrence.recurrenceId });
      else retimed.push({ id: old.id, ...timesOf(occurrence) });
      moved.push(old.id);
    }
  }
  await repo.updateOccurrencesTimes(trx, retimed);
  const addedIds: number[] = [];
  for (const occurrence of added) addedIds.push(await repo.insertOccurrence(trx, seriesId, timesOf(occurrence)));
  await repo.copyShared(trx, seriesId, addedIds);
  if (options.sharedChanged) {
    // Overrides keep the fields they were given and follow the series in the others (API.md §20.3).
    const byOverrides = new Map<string, number[]>();
    for (const [old] of kept)
      byOverrides.set(old.overrides ?? '', [...(byOverrides.get(old.overrides ?? '') ?? []), old.id]);
    for (const [overrides, ids] of byOverrides) await repo.copyShared(trx, seriesId, ids, fieldsOf(overrides));
  }
  await repo.markMaterialised(trx, seriesId, horizon.until);
  // Every occurrence written is a change (caches, change feed): with shared fields, all that remain.
  const written = options.sharedChanged ? kept.map(([old]) => old.id) : moved;
  changes.add('event', ...written, ...addedIds, ...removed.map((o) => o.id));
  // The change feed (API.md §21.1): every occurrence a series write adds, writes or removes.
  for (const id of addedIds) changes.created('event', id);
  for (const id of written) changes.updated('event', id);
  return { added: addedIds, removed: removed.map((o) => o.id) };
}

/** Occurrences about to be deleted for good, with who could read them, for the change feed. */
async function recordDeleted(trx: Executor, changes: ChangeSet, ids: readonly number[]): Promise<void> {
  const before = await readStates(trx, ids);
  for (const [id, state] of before) changes.deleted('event', id, state);
}
