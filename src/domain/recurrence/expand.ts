import { RRuleTemporal } from 'rrule-temporal';
import { Temporal } from 'temporal-polyfill';
import { parseRecurrence, RecurrenceProblem, type RecurrenceDate, type RecurrenceSet } from './lines.js';
import { temporalZoneId } from './zones.js';
import { localDateOf } from './ids.js';

/** The series' own times: DTSTART and DTEND, its zone, and whether it lasts whole days. */
export interface SeriesTimes {
  start_utc: number;
  end_utc: number;
  timezone: string;
  all_day: boolean;
}

/** One occurrence by its original start: `recurrence_id` (API.md §20.2) and its start and end instants. */
export interface Occurrence {
  recurrenceId: string;
  start: number;
  end: number;
  /** The local date of the start in the series' zone (`YYYY-MM-DD`): ids pair up by it (§20.2). */
  localDate: string;
}

/** Occurrences a series may have in all (past ones included): beyond this a write is refused. */
export const MAX_MATERIALISED = 10_000;

const seconds = (zoned: Temporal.ZonedDateTime) => Math.floor(zoned.epochMilliseconds / 1000);
const basic = (text: string) => text.replace(/[-:]/g, '');
/** An instant as a `recurrence_id` (`20270105T180000Z`). */
const utcBasic = (seconds: number) => `${basic(new Date(seconds * 1000).toISOString().slice(0, 19))}Z`;

function wallClock(at: number, zone: string): Temporal.PlainDateTime {
  return Temporal.Instant.fromEpochMilliseconds(at * 1000)
    .toZonedDateTimeISO(zone)
    .toPlainDateTime();
}

/**
 * Wall-clock times to instants as RFC 5545 §3.3.5 says and API.md §20.1 repeats: a time in a DST
 * gap moves forward by the gap, an ambiguous one takes the earlier instant ("compatible").
 */
function instantOf(wall: Temporal.PlainDateTime, zone: string): number {
  return seconds(wall.toZonedDateTime(zone, { disambiguation: 'compatible' }));
}

/**
 * Expands a series up to `horizon` (Unix seconds, inclusive), in order of start. The rule runs on
 * wall-clock times (rrule-temporal over a floating, UTC-labelled timeline), which are then placed in
 * the series' zone: the library itself drops times in a DST gap, where §20.1 moves them forward.
 * UNTIL is a real instant, so it is applied after placing. DTSTART is always the first occurrence
 * and counts toward COUNT. Throws RecurrenceProblem for a rule the library refuses, or for more
 * than MAX_MATERIALISED occurrences.
 */
export function expandSeries(
  set: RecurrenceSet & { ruleLine: number },
  times: SeriesTimes,
  horizon: number,
): Occurrence[] {
  const zone = temporalZoneId(times.timezone);
  const startWall = times.all_day
    ? wallClock(times.start_utc, zone).toPlainDate().toPlainDateTime()
    : wallClock(times.start_utc, zone);
  const days = times.all_day
    ? startWall.toPlainDate().until(wallClock(times.end_utc, zone).toPlainDate(), { largestUnit: 'days' }).days
    : 0;
  const duration = times.end_utc - times.start_utc;
  const until = set.until;
  // The floating timeline stops a day past the later bound: the last instants are filtered exactly below.
  const lastWall = wallClock(Math.min(horizon, until?.kind === 'instant' ? until.seconds : horizon), zone)
    .toPlainDate()
    .add({ days: 1 });
  const lastDate = until?.kind === 'date' ? Temporal.PlainDate.from(until.date) : undefined;

  const walls: Temporal.PlainDateTime[] = [];
  if (set.rule === undefined) walls.push(startWall);
  else {
    // The last wall-clock day the series may reach: the horizon's (or UNTIL's) day and one more, or
    // an all-day UNTIL date. `between` is the library's fast path (`all` with an iterator was
    // 50–300 times slower for a daily rule).
    const last = lastDate && Temporal.PlainDate.compare(lastDate, lastWall) < 0 ? lastDate : lastWall;
    let dates: { toPlainDateTime(): { toString(): string } }[];
    try {
      const rule = new RRuleTemporal({
        rruleString: set.rule,
        dtstart: startWall.toZonedDateTime('UTC'),
        includeDtstart: true,
        maxIterations: 100_000,
      });
      dates = rule.between(
        startWall.toZonedDateTime('UTC'),
        last.toPlainDateTime({ hour: 23, minute: 59, second: 59 }).toZonedDateTime('UTC'),
        true,
      );
    } catch (error) {
      throw new RecurrenceProblem(set.ruleLine, error instanceof Error ? error.message : String(error));
    }
    if (dates.length > MAX_MATERIALISED) throw new RecurrenceProblem(set.ruleLine, tooMany);
    // Re-read with our Temporal: the library bundles its own polyfill, whose zone offsets are
    // wrong for some zones (Africa/Casablanca's Ramadan changes, found by the dateutil cross-check).
    for (const date of dates) walls.push(Temporal.PlainDateTime.from(date.toPlainDateTime().toString()));
  }

  const byStart = new Map<number, Temporal.PlainDateTime>();
  const place = (start: number, wall: Temporal.PlainDateTime) => {
    // DTSTART is the first occurrence (API.md §20.1): an RDATE before it is not one.
    if (start > horizon || start < times.start_utc) return;
    if (until?.kind === 'instant' && start > until.seconds && wall !== startWall) return;
    if (!byStart.has(start)) byStart.set(start, wall);
  };
  for (const wall of walls) place(instantOf(wall, zone), wall);
  for (const rdate of set.rdates) {
    const start = startOf(rdate, zone, startWall);
    place(start, wallClock(start, zone));
  }
  const excluded = new Set(set.exdates.map((date) => startOf(date, zone, startWall)));
  const starts = [...byStart.keys()].filter((start) => !excluded.has(start)).sort((a, b) => a - b);
  if (starts.length > MAX_MATERIALISED) throw new RecurrenceProblem(set.ruleLine || 1, tooMany);

  return starts.map((start) => {
    const wall = byStart.get(start) as Temporal.PlainDateTime;
    if (times.all_day) {
      const lastDay = wall.toPlainDate().add({ days });
      return {
        recurrenceId: basic(wall.toPlainDate().toString()),
        start,
        end: instantOf(lastDay.toPlainDateTime({ hour: 23, minute: 59, second: 59 }), zone),
        localDate: wall.toPlainDate().toString(),
      };
    }
    return {
      recurrenceId: utcBasic(start),
      start,
      end: start + duration,
      localDate: localDateOf(start, times.timezone),
    };
  });
}

const tooMany = `the series would have more than ${MAX_MATERIALISED} occurrences`;

/** An RDATE/EXDATE value as the start it names: a date at the series' time of day, or an instant. */
function startOf(date: RecurrenceDate, zone: string, startWall: Temporal.PlainDateTime): number {
  return date.kind === 'date'
    ? instantOf(Temporal.PlainDate.from(date.date).toPlainDateTime(startWall.toPlainTime()), zone)
    : date.seconds;
}

let last: { key: string; occurrences: Occurrence[] } | undefined;

/**
 * expandSeries of a series' lines, remembering the last answer (never to be changed by callers):
 * a write checks a series' lines (API.md §20.1) and then materialises the same expansion.
 */
export function expandLines(lines: readonly string[], times: SeriesTimes, horizon: number): Occurrence[] {
  const key = JSON.stringify([lines, times.start_utc, times.end_utc, times.timezone, times.all_day, horizon]);
  if (last?.key !== key)
    last = { key, occurrences: expandSeries(parseRecurrence(lines, times.all_day), times, horizon) };
  return last.occurrences;
}
