import { Temporal } from 'temporal-polyfill';
import { isValidTimezone, normaliseTimezone } from '../timezones.js';
import { temporalZoneId } from './zones.js';

/** A value of RDATE or EXDATE: an instant (Unix seconds) for timed series, a local date for all-day ones. */
export type RecurrenceDate = { kind: 'instant'; seconds: number } | { kind: 'date'; date: string };

/**
 * A series' `recurrence` lines (API.md §20.1) as the expander needs them: the RRULE without its
 * UNTIL (applied by the expander on real instants, see expand.ts), and the RDATE and EXDATE values.
 */
export interface RecurrenceSet {
  /** The RRULE value without `UNTIL`, e.g. `FREQ=WEEKLY;BYDAY=MO`; undefined for RDATE-only series. */
  rule?: string;
  count?: number;
  until?: RecurrenceDate;
  rdates: RecurrenceDate[];
  exdates: RecurrenceDate[];
}

/** A line that breaks a rule of §20.1: its 1-based number and the reason, for `line {n}: {reason}`. */
export class RecurrenceProblem extends Error {
  constructor(
    readonly line: number,
    readonly reason: string,
  ) {
    super(`line ${line}: ${reason}`);
  }
}

export const MAX_LINES = 20;
export const MAX_COUNT = 1000;
const FREQUENCIES = new Set(['DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY']);
/** RFC 5545 §3.3.10 rule parts besides FREQ, COUNT and UNTIL; RSCALE and SKIP (RFC 7529) are not offered. */
const RULE_PARTS = new Set([
  'INTERVAL',
  'BYSECOND',
  'BYMINUTE',
  'BYHOUR',
  'BYDAY',
  'BYMONTHDAY',
  'BYYEARDAY',
  'BYWEEKNO',
  'BYMONTH',
  'BYSETPOS',
  'WKST',
]);

const DATE = /^(\d{4})(\d{2})(\d{2})$/;
const DATE_TIME = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})(Z?)$/;

/** One content line: `NAME;PARAM=x;PARAM=y:value` (parameter values here never contain `:` or `;`). */
function splitLine(text: string, line: number): { name: string; params: Map<string, string>; value: string } {
  const colon = text.indexOf(':');
  if (colon < 0) throw new RecurrenceProblem(line, 'expected NAME:value');
  const [name, ...rawParams] = text.slice(0, colon).split(';');
  const params = new Map<string, string>();
  for (const param of rawParams) {
    const eq = param.indexOf('=');
    if (eq < 1) throw new RecurrenceProblem(line, `malformed parameter "${param}"`);
    params.set(param.slice(0, eq).toUpperCase(), param.slice(eq + 1).replace(/^"(.*)"$/, '$1'));
  }
  return { name: name.trim().toUpperCase(), params, value: text.slice(colon + 1).trim() };
}

function plainDateOf(value: string): Temporal.PlainDate | undefined {
  const m = DATE.exec(value);
  if (!m) return undefined;
  try {
    return Temporal.PlainDate.from({ year: +m[1], month: +m[2], day: +m[3] }, { overflow: 'reject' });
  } catch {
    return undefined;
  }
}

/** A DATE-TIME in `zone` (an RDATE/EXDATE TZID), or UTC with `Z`; RFC 5545 §3.3.5 gap and fold rules. */
function instantOf(value: string, zone: string | undefined): number | undefined {
  const m = DATE_TIME.exec(value);
  if (!m) return undefined;
  const utc = m[7] === 'Z';
  if (utc === (zone !== undefined)) return undefined;
  try {
    const wall = Temporal.PlainDateTime.from(
      { year: +m[1], month: +m[2], day: +m[3], hour: +m[4], minute: +m[5], second: +m[6] },
      { overflow: 'reject' },
    );
    const zoned = wall.toZonedDateTime(utc ? 'UTC' : temporalZoneId(zone ?? 'UTC'), { disambiguation: 'compatible' });
    return Math.floor(zoned.epochMilliseconds / 1000);
  } catch {
    return undefined;
  }
}

function dateList(
  line: number,
  name: string,
  params: Map<string, string>,
  value: string,
  allDay: boolean,
): RecurrenceDate[] {
  const kind = params.get('VALUE')?.toUpperCase() ?? 'DATE-TIME';
  if (kind === 'PERIOD') throw new RecurrenceProblem(line, `${name} with VALUE=PERIOD is not supported`);
  if (kind !== 'DATE' && kind !== 'DATE-TIME') throw new RecurrenceProblem(line, `unknown VALUE=${kind}`);
  if (allDay && kind !== 'DATE')
    throw new RecurrenceProblem(line, `${name} of an all-day series must be VALUE=DATE (YYYYMMDD)`);
  if (!allDay && kind === 'DATE')
    throw new RecurrenceProblem(line, `${name} of a timed series must be a date-time (with TZID or in UTC)`);
  const tzid = params.get('TZID');
  if (tzid !== undefined && (allDay || !isValidTimezone(tzid)))
    throw new RecurrenceProblem(line, `unknown or misplaced TZID "${tzid}"`);
  const zone = tzid === undefined ? undefined : (normaliseTimezone(tzid) ?? undefined);
  const values = value.split(',').map((v) => v.trim());
  return values.map((text) => {
    if (allDay) {
      const date = plainDateOf(text);
      if (!date) throw new RecurrenceProblem(line, `"${text}" is not a date YYYYMMDD`);
      return { kind: 'date', date: date.toString() };
    }
    const seconds = instantOf(text, zone);
    if (seconds === undefined)
      throw new RecurrenceProblem(
        line,
        `"${text}" is not a date-time YYYYMMDDTHHMMSS with a TZID parameter, or YYYYMMDDTHHMMSSZ in UTC`,
      );
    return { kind: 'instant', seconds };
  });
}

function parseRule(
  line: number,
  value: string,
  allDay: boolean,
): Pick<RecurrenceSet, 'rule' | 'count' | 'until'> & { parts: Map<string, string> } {
  const parts = new Map<string, string>();
  for (const part of value.split(';').filter((p) => p.trim() !== '')) {
    const eq = part.indexOf('=');
    const key = (eq < 0 ? part : part.slice(0, eq)).trim().toUpperCase();
    if (eq < 1) throw new RecurrenceProblem(line, `malformed rule part "${part}"`);
    if (parts.has(key)) throw new RecurrenceProblem(line, `${key} appears twice`);
    parts.set(
      key,
      part
        .slice(eq + 1)
        .trim()
        .toUpperCase(),
    );
  }
  const freq = parts.get('FREQ');
  if (freq === undefined) throw new RecurrenceProblem(line, 'FREQ is missing');
  if (!FREQUENCIES.has(freq)) throw new RecurrenceProblem(line, 'FREQ must be DAILY, WEEKLY, MONTHLY or YEARLY');
  for (const key of parts.keys()) {
    if (key !== 'FREQ' && key !== 'COUNT' && key !== 'UNTIL' && !RULE_PARTS.has(key))
      throw new RecurrenceProblem(line, `unknown rule part ${key}`);
  }
  const countText = parts.get('COUNT');
  const untilText = parts.get('UNTIL');
  if (countText !== undefined && untilText !== undefined)
    throw new RecurrenceProblem(line, 'COUNT and UNTIL must not both be given');
  let count: number | undefined;
  if (countText !== undefined) {
    count = /^\d+$/.test(countText) ? Number(countText) : NaN;
    if (!(count >= 1 && count <= MAX_COUNT))
      throw new RecurrenceProblem(line, `COUNT must be an integer from 1 to ${MAX_COUNT}`);
  }
  let until: RecurrenceDate | undefined;
  if (untilText !== undefined) {
    if (allDay) {
      const date = plainDateOf(untilText);
      if (!date) throw new RecurrenceProblem(line, 'UNTIL of an all-day series must be a date YYYYMMDD');
      until = { kind: 'date', date: date.toString() };
    } else {
      const seconds = instantOf(untilText, undefined);
      if (seconds === undefined) throw new RecurrenceProblem(line, 'UNTIL must be a UTC date-time YYYYMMDDTHHMMSSZ');
      until = { kind: 'instant', seconds };
    }
  }
  const interval = parts.get('INTERVAL');
  if (interval !== undefined && !/^[1-9]\d{0,3}$/.test(interval))
    throw new RecurrenceProblem(line, 'INTERVAL must be a positive integer');
  const rule = [...parts]
    .filter(([key]) => key !== 'UNTIL')
    .map(([key, v]) => `${key}=${v}`)
    .join(';');
  return { rule, count, until, parts };
}

/**
 * Parses and checks a series' lines (API.md §20.1) for an event of that kind (`allDay`). Throws a
 * RecurrenceProblem naming the first offending line. The rule's BY… values are checked by the
 * expander's library when the series is expanded (expand.ts), which reports them on line `ruleLine`.
 */
export function parseRecurrence(lines: readonly string[], allDay: boolean): RecurrenceSet & { ruleLine: number } {
  if (lines.length > MAX_LINES) throw new RecurrenceProblem(MAX_LINES + 1, `at most ${MAX_LINES} lines`);
  const set: RecurrenceSet & { ruleLine: number } = { rdates: [], exdates: [], ruleLine: 0 };
  lines.forEach((text, index) => {
    const line = index + 1;
    const { name, params, value } = splitLine(text.trim(), line);
    if (name === 'RRULE') {
      if (set.ruleLine > 0) throw new RecurrenceProblem(line, 'at most one RRULE');
      const { rule, count, until } = parseRule(line, value, allDay);
      Object.assign(set, { rule, count, until, ruleLine: line });
    } else if (name === 'RDATE') set.rdates.push(...dateList(line, name, params, value, allDay));
    else if (name === 'EXDATE') set.exdates.push(...dateList(line, name, params, value, allDay));
    else if (name === 'EXRULE') throw new RecurrenceProblem(line, 'EXRULE is not supported (use EXDATE)');
    else if (name === 'DTSTART') throw new RecurrenceProblem(line, 'DTSTART is the event start_date, not a line');
    else throw new RecurrenceProblem(line, `unknown line ${name}; expected RRULE, RDATE or EXDATE`);
  });
  if (set.rule === undefined && set.rdates.length === 0)
    throw new RecurrenceProblem(1, 'at least one RRULE or RDATE is required');
  return set;
}

/**
 * The lines of the two series a split makes (API.md §20.3 `scope=following`): the old series ends
 * with UNTIL just before the split (`until`, in UNTIL's form), replacing COUNT; the new one keeps
 * the rule, with the COUNT that remains (`remaining`) or the old UNTIL. RDATE and EXDATE lines go to
 * both: each series keeps only the dates between its own start and end.
 */
export function splitLines(
  lines: readonly string[],
  allDay: boolean,
  until: string,
  remaining: number | undefined,
): { before: string[]; after: string[] } {
  const set = parseRecurrence(lines, allDay);
  if (set.rule === undefined) throw new RecurrenceProblem(1, 'a series without RRULE cannot be split');
  const rule = set.rule
    .split(';')
    .filter((part) => !part.startsWith('COUNT='))
    .join(';');
  const ruleLine = set.ruleLine - 1;
  const untilText = /;UNTIL=([^;]+)/i.exec(`;${lines[ruleLine].slice(lines[ruleLine].indexOf(':') + 1)}`)?.[1];
  const replace = (replacement: string) => lines.map((line, i) => (i === ruleLine ? replacement : line));
  const tail = remaining !== undefined ? `;COUNT=${remaining}` : untilText !== undefined ? `;UNTIL=${untilText}` : '';
  return { before: replace(`RRULE:${rule};UNTIL=${until}`), after: replace(`RRULE:${rule}${tail}`) };
}
