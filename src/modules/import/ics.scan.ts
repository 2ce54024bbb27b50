import { DateTime } from 'luxon';
import { contentLines, lineText, type ContentLine } from './ics.lines.js';
import { IcsProblem } from './ics.problem.js';
import { customZone, ianaZone, knownZone } from './ics.zones.js';

/** At most this many VEVENTs per import (API.md §19.3). */
export const MAX_VEVENTS = 10_000;

/**
 * How a VEVENT's DTSTART names its time (API.md §19.3 decides the event's zone from it): a date
 * (all-day), a known zone (IANA or Windows name), UTC, a zone known only from the file's VTIMEZONE,
 * or floating (no zone).
 */
export type StartKind = 'date' | 'zoned' | 'utc' | 'custom' | 'floating';

export interface ScannedEvent {
  /** The UID node-ical is given for this VEVENT, unique in the text (it merges VEVENTs sharing a UID). */
  readonly key: string;
  /** The UID as written, or null when absent. */
  readonly uid: string | null;
  /** The line of its BEGIN:VEVENT. */
  readonly line: number;
  readonly startKind: StartKind;
  /** The IANA zone of a `zoned` start. */
  readonly startZone: string | null;
  /** RRULE or RDATE: a series (API.md §20.4). */
  readonly recurring: boolean;
  readonly recurrenceId: string | null;
}

export interface ScannedCalendar {
  /** The text node-ical reads: unfolded, every date-time in UTC or an IANA zone, one UID per VEVENT. */
  readonly text: string;
  readonly events: ScannedEvent[];
  /** `X-WR-TIMEZONE` when it is an IANA name. */
  readonly calendarZone: string | null;
  /** The zone of floating times: `X-WR-TIMEZONE`, else SITE_TIMEZONE. */
  readonly floatingZone: string;
}

/** Properties of a VEVENT whose values are DATE or DATE-TIME (lists for EXDATE and RDATE). */
const DATE_PROPERTIES = new Set([
  'DTSTART',
  'DTEND',
  'RECURRENCE-ID',
  'EXDATE',
  'RDATE',
  'DTSTAMP',
  'LAST-MODIFIED',
  'CREATED',
]);
/** The date properties whose local times the import reads in a zone (the others are UTC by RFC 5545). */
const ZONED_PROPERTIES = new Set(['DTSTART', 'DTEND', 'RECURRENCE-ID', 'EXDATE', 'RDATE']);
/** The properties the import reads (API.md §19.3); node-ical is given no others (X- properties of every producer). */
const READ_PROPERTIES = new Set([
  'SUMMARY',
  'DESCRIPTION',
  'X-ALT-DESC',
  'DURATION',
  'URL',
  'LOCATION',
  'GEO',
  'ORGANIZER',
  'CATEGORIES',
  'SEQUENCE',
  'LAST-MODIFIED',
  'DTSTAMP',
  'STATUS',
  'RRULE',
]);

/** Properties a VEVENT may have once (RFC 5545 §3.6.1; node-ical refuses a second DTSTART or DTEND). */
const SINGLE_PROPERTIES = new Set(['DTSTART', 'DTEND', 'DURATION', 'RECURRENCE-ID']);
const FREQUENCIES = new Set(['SECONDLY', 'MINUTELY', 'HOURLY', 'DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY']);

const isDate = (value: string) => /^\d{8}$/.test(value) && DateTime.fromFormat(value, 'yyyyMMdd').isValid;
const isDateTime = (value: string) =>
  /^\d{8}T\d{6}Z?$/.test(value) && DateTime.fromFormat(value.slice(0, 15), "yyyyMMdd'T'HHmmss").isValid;

function checkDates(line: ContentLine): void {
  if (line.params.VALUE?.toUpperCase() === 'PERIOD') return;
  const dateOnly = line.params.VALUE?.toUpperCase() === 'DATE';
  for (const value of line.value.split(',')) {
    const text = value.trim();
    if (!(dateOnly ? isDate(text) : isDateTime(text) || (line.name !== 'DTSTAMP' && isDate(text))))
      throw new IcsProblem(`unparsable date-time in ${line.name}`, line.line);
  }
}

/** RRULE as RFC 5545 §3.3.10 requires it: a known FREQ, a valid UNTIL, numeric COUNT and INTERVAL, not both COUNT and UNTIL. */
function checkRule(line: ContentLine): void {
  const parts = new Map(
    line.value.split(';').map((part) => {
      const [name, value = ''] = part.split('=');
      return [name.trim().toUpperCase(), value.trim()] as const;
    }),
  );
  const until = parts.get('UNTIL');
  const valid =
    FREQUENCIES.has(parts.get('FREQ')?.toUpperCase() ?? '') &&
    (until === undefined || isDate(until) || isDateTime(until)) &&
    [parts.get('COUNT'), parts.get('INTERVAL')].every((n) => n === undefined || /^\d+$/.test(n)) &&
    !(parts.has('COUNT') && parts.has('UNTIL'));
  if (!valid) throw new IcsProblem('unparsable RRULE', line.line);
}

/** The structure checks of API.md §19.3: VCALENDAR first, balanced BEGIN/END, DTSTART in every VEVENT, at most MAX_VEVENTS. */
function checkStructure(lines: ContentLine[]): void {
  const first = lines[0];
  if (!first || first.name !== 'BEGIN' || first.value.trim().toUpperCase() !== 'VCALENDAR')
    throw new IcsProblem('the first line is not BEGIN:VCALENDAR', first?.line ?? 1);
  const stack: ContentLine[] = [];
  let vevents = 0;
  let hasStart = false;
  const seen = new Set<string>();
  for (const line of lines) {
    const component = line.value.trim().toUpperCase();
    if (line.name === 'BEGIN') {
      if (stack.length === 0 && component !== 'VCALENDAR')
        throw new IcsProblem(`BEGIN:${component} outside VCALENDAR`, line.line);
      stack.push(line);
      if (component === 'VEVENT' && stack.length === 2) {
        vevents += 1;
        if (vevents > MAX_VEVENTS) throw new IcsProblem(`more than ${MAX_VEVENTS} VEVENTs`, line.line);
        hasStart = false;
        seen.clear();
      }
    } else if (line.name === 'END') {
      const open = stack.pop();
      if (!open || open.value.trim().toUpperCase() !== component)
        throw new IcsProblem(`END:${component} without its BEGIN`, line.line);
      if (component === 'VEVENT' && stack.length === 1 && !hasStart)
        throw new IcsProblem('a VEVENT without DTSTART', open.line);
    } else if (stack.length === 0) {
      throw new IcsProblem('content outside VCALENDAR', line.line);
    } else if (stack.length === 2 && stack[1].value.trim().toUpperCase() === 'VEVENT') {
      if (SINGLE_PROPERTIES.has(line.name)) {
        if (seen.has(line.name)) throw new IcsProblem(`a VEVENT with two ${line.name}`, line.line);
        seen.add(line.name);
      }
      if (line.name === 'DTSTART') hasStart = true;
      if (DATE_PROPERTIES.has(line.name)) checkDates(line);
      if (line.name === 'RRULE') checkRule(line);
    }
  }
  const unclosed = stack.pop();
  if (unclosed) throw new IcsProblem(`BEGIN:${unclosed.value.trim().toUpperCase()} without its END`, unclosed.line);
  if (vevents === 0) throw new IcsProblem('no VEVENT');
}

interface Zones {
  floatingZone: string;
  /** Instants of local times in the file's own VTIMEZONEs, by TZID. */
  custom: Map<string, ((local: string) => number | null) | null>;
  vtimezones: Map<string, string>;
}

/** One date or date-time property with its times in UTC or an IANA zone, and how its first value named its time. */
function rewriteDates(line: ContentLine, zones: Zones): { line: ContentLine; kind: StartKind; zone: string | null } {
  const { TZID: tzid, ...params } = line.params;
  if (line.params.VALUE?.toUpperCase() === 'DATE' || line.params.VALUE?.toUpperCase() === 'PERIOD')
    return { line: { ...line, params }, kind: 'date', zone: null };
  const values = line.value.split(',').map((v) => v.trim());
  // A date written without VALUE=DATE (lenient producers) is a date all the same.
  if (values.every((v) => /^\d{8}$/.test(v)))
    return { line: { ...line, params: { ...params, VALUE: 'DATE' } }, kind: 'date', zone: null };
  if (values.every((v) => v.endsWith('Z'))) return { line: { ...line, params }, kind: 'utc', zone: null };
  const known = tzid !== undefined ? knownZone(tzid) : null;
  // TZID=UTC names a zone (API.md §19.3: the event's zone is UTC), unlike the `…Z` form.
  if (known === 'UTC') {
    const value = values.map((v) => (v.endsWith('Z') ? v : `${v}Z`)).join(',');
    return { line: { ...line, params, value }, kind: 'zoned', zone: 'UTC' };
  }
  if (known) return { line: { ...line, params: { ...params, TZID: known } }, kind: 'zoned', zone: known };
  if (tzid !== undefined && zones.vtimezones.has(tzid)) {
    if (!zones.custom.has(tzid)) zones.custom.set(tzid, customZone(zones.vtimezones.get(tzid) ?? ''));
    const toInstant = zones.custom.get(tzid);
    const instants = toInstant ? values.map((v) => (v.endsWith('Z') ? v : toInstant(v))) : [];
    if (toInstant && instants.every((i) => i !== null)) {
      const value = instants
        .map((i) =>
          typeof i === 'string' ? i : DateTime.fromSeconds(i ?? 0, { zone: 'utc' }).toFormat("yyyyMMdd'T'HHmmss'Z'"),
        )
        .join(',');
      return { line: { ...line, params, value }, kind: 'custom', zone: null };
    }
  }
  // Floating, or a zone the file names but does not define: read in the floating zone (API.md §19.3).
  return { line: { ...line, params: { ...params, TZID: zones.floatingZone } }, kind: 'floating', zone: null };
}

/** The VTIMEZONE blocks of the text, as text, by TZID (read only if a date-time names one that is no IANA or Windows name). */
function vtimezonesOf(lines: ContentLine[]): Map<string, string> {
  const found = new Map<string, string>();
  let block: string[] | undefined;
  let tzid: string | undefined;
  for (const line of lines) {
    const component = line.value.trim().toUpperCase();
    if (line.name === 'BEGIN' && component === 'VTIMEZONE') [block, tzid] = [[], undefined];
    if (!block) continue;
    block.push(lineText(line));
    if (line.name === 'TZID' && tzid === undefined) tzid = line.value.trim();
    if (line.name === 'END' && component === 'VTIMEZONE') {
      if (tzid !== undefined && !found.has(tzid)) found.set(tzid, block.join('\r\n'));
      block = undefined;
    }
  }
  return found;
}

/**
 * Checks an iCalendar text and prepares it for node-ical (DESIGN.md picks it for import). node-ical
 * reports no line numbers and accepts nearly anything, so the checks that must name a line run here;
 * and it reads floating times in the first VTIMEZONE's or the process's zone, and custom TZIDs in
 * the process's zone, so those are rewritten here to what API.md §19.3 says they mean.
 */
export function scanCalendar(text: string, siteTimezone: string): ScannedCalendar {
  const lines = contentLines(text);
  checkStructure(lines);
  const calendarZone = ianaZone(lines.find((line) => line.name === 'X-WR-TIMEZONE')?.value);
  const zones: Zones = {
    floatingZone: calendarZone ?? siteTimezone,
    custom: new Map(),
    vtimezones: vtimezonesOf(lines),
  };
  // node-ical is given the VEVENTs' properties the import reads and nothing else: no VTIMEZONE (every
  // time is rewritten to UTC or an IANA zone), no other component, no VALARM inside them.
  const output: string[] = ['BEGIN:VCALENDAR'];
  const events: ScannedEvent[] = [];
  let depth = 0;
  let event:
    | {
        line: number;
        uid: string | null;
        kind: StartKind;
        zone: string | null;
        recurring: boolean;
        recurrenceId: string | null;
      }
    | undefined;
  for (const line of lines) {
    const component = line.value.trim().toUpperCase();
    if (line.name === 'BEGIN') depth += 1;
    if (line.name === 'END') depth -= 1;
    if (line.name === 'BEGIN' && component === 'VEVENT' && depth === 2) {
      event = { line: line.line, uid: null, kind: 'floating', zone: null, recurring: false, recurrenceId: null };
      output.push('BEGIN:VEVENT', `UID:import-${events.length}`);
    } else if (event && line.name === 'END' && component === 'VEVENT' && depth === 1) {
      output.push('END:VEVENT');
      events.push({
        key: `import-${events.length}`,
        uid: event.uid,
        line: event.line,
        startKind: event.kind,
        startZone: event.zone,
        recurring: event.recurring,
        recurrenceId: event.recurrenceId,
      });
      event = undefined;
    } else if (event && depth === 2 && line.name !== 'BEGIN' && line.name !== 'END') {
      if (line.name === 'UID') event.uid ??= line.value.trim() || null;
      else if (ZONED_PROPERTIES.has(line.name)) {
        const rewritten = rewriteDates(line, zones);
        if (line.name === 'DTSTART') [event.kind, event.zone] = [rewritten.kind, rewritten.zone];
        if (line.name === 'RECURRENCE-ID') event.recurrenceId = line.value.trim();
        output.push(lineText(rewritten.line));
      } else if (READ_PROPERTIES.has(line.name)) output.push(lineText(line));
      if (line.name === 'RRULE' || line.name === 'RDATE') event.recurring = true;
    }
  }
  output.push('END:VCALENDAR');
  return { text: `${output.join('\r\n')}\r\n`, events, calendarZone, floatingZone: zones.floatingZone };
}
