import type { ChangeSet } from '../../../changes/change-set.js';
import type { Config } from '../../../config.js';
import type { Executor } from '../../../db/schema.js';
import { invalidParam, invalidParams, type ParamProblem } from '../../../errors.js';
import { expandLines, type SeriesTimes } from '../../../domain/recurrence/expand.js';
import { MAX_COUNT, parseRecurrence, RecurrenceProblem } from '../../../domain/recurrence/lines.js';
import type { DateTime } from 'luxon';
import { materialise, type Horizon } from './series.materialise.js';
import * as repo from './series.repository.js';

/** Occurrences a write may give a series between the later of DTSTART and now and the horizon (API.md §20.1). */
export const MAX_UPCOMING = MAX_COUNT;

/** Fields of an occurrence that belong to its series (API.md §20.3): `scope=this` may not send them. */
export const SERIES_ONLY_FIELDS = ['slug', 'timezone', 'recurrence', 'password', 'author'] as const;

export function horizonOf(config: Config, now: DateTime): Horizon {
  return {
    until: Math.floor(now.plus({ months: config.recurrenceHorizonMonths }).toSeconds()),
    siteTimezone: config.siteTimezone,
  };
}

const lineProblem = (problem: RecurrenceProblem) =>
  invalidParam('recurrence', { message: 'recurrence_line', vars: { line: problem.line, reason: problem.reason } });

/**
 * What breaks a series' lines against its times (API.md §20.1), on writes only: syntax and kinds
 * per line, the rule as the expander reads it, and at most MAX_UPCOMING occurrences from the later
 * of DTSTART and now up to the horizon. Undefined when none.
 */
export function recurrenceProblem(
  config: Config,
  now: DateTime,
  lines: readonly string[],
  times: SeriesTimes,
): RecurrenceProblem | undefined {
  try {
    const from = Math.max(times.start_utc, Math.floor(now.toSeconds()));
    const upcoming = expandLines(lines, times, horizonOf(config, now).until).filter((o) => o.start >= from);
    if (upcoming.length > MAX_UPCOMING)
      return new RecurrenceProblem(
        parseRecurrence(lines, times.all_day).ruleLine || 1,
        `more than ${MAX_UPCOMING} occurrences up to the horizon (${config.recurrenceHorizonMonths} months)`,
      );
    return undefined;
  } catch (error) {
    if (error instanceof RecurrenceProblem) return error;
    throw error;
  }
}

/** recurrenceProblem as a 400 `rest_invalid_param` naming `recurrence` with `line {n}: {reason}`. */
export function checkRecurrence(config: Config, now: DateTime, lines: readonly string[], times: SeriesTimes): void {
  const problem = recurrenceProblem(config, now, lines, times);
  if (problem) throw lineProblem(problem);
}

/** 400 naming every series-only field sent to one occurrence (API.md §20.3). */
export function refuseSeriesFields(input: Record<string, unknown>): void {
  const problems = new Map<string, ParamProblem>();
  for (const name of SERIES_ONLY_FIELDS)
    if (input[name] !== undefined) problems.set(name, { message: 'series_field', vars: { param: name } });
  if (problems.size > 0) throw invalidParams(problems);
}

/** After a write of a series (or of an event that was one): its occurrences follow, in the same transaction. */
export async function syncSeries(
  config: Config,
  now: DateTime,
  trx: Executor,
  changes: ChangeSet,
  seriesId: number,
): Promise<void> {
  await materialise(trx, seriesId, horizonOf(config, now), changes, { sharedChanged: true });
}

/** Before a series is deleted for good: its occurrences go first. */
export async function syncSeriesRemoved(trx: Executor, changes: ChangeSet, seriesId: number): Promise<void> {
  const ids = (await repo.occurrencesOf(trx, seriesId)).map((o) => o.id);
  await repo.deleteOccurrences(trx, ids);
  changes.add('event', ...ids);
}
