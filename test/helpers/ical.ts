import assert from 'node:assert/strict';
import ICAL from 'ical.js';
import nodeIcal from 'node-ical';

/** A VEVENT as two independent parsers read it. */
export interface ParsedEvent {
  uid: string;
  sequence: number;
  summary: string;
  description: string | null;
  /** ical.js: the start instant (ms), whether it is a date, and the local date-time text as written. */
  start: number;
  end: number;
  isDate: boolean;
  startText: string;
  endText: string;
  tzid: string | null;
  location: string | null;
  categories: string[];
  /** node-ical's reading of the start and end instants (ms). */
  nodeIcalStart: number;
  nodeIcalEnd: number;
}

/**
 * The RFC 5545 checks every file must pass (API.md §19.1): CRLF line ends (the last line too), no
 * line over 75 octets, every VEVENT with UID, a UTC DTSTAMP and DTSTART, every TZID with its
 * VTIMEZONE, and no VTIMEZONE merged or repeated.
 */
export function assertWellFormed(text: string): void {
  assert.ok(text.endsWith('\r\n'), 'the last line ends with CRLF');
  assert.ok(!/[^\r]\n/.test(text) && !/\r(?!\n)/.test(text), 'every line ends with CRLF');
  const lines = text.slice(0, -2).split('\r\n');
  for (const line of lines) assert.ok(Buffer.byteLength(line) <= 75, `line over 75 octets: ${line}`);
  assert.equal(lines[0], 'BEGIN:VCALENDAR');
  const unfolded = text.replace(/\r\n[ \t]/g, '');
  const vevents = unfolded.split('BEGIN:VEVENT\r\n').slice(1);
  for (const vevent of vevents) {
    assert.match(vevent, /^UID:.+$/m, 'UID');
    assert.match(vevent, /^DTSTAMP:\d{8}T\d{6}Z$/m, 'DTSTAMP in UTC');
    assert.match(vevent, /^DTSTART[;:]/m, 'DTSTART');
  }
  const used = new Set([...unfolded.matchAll(/;TZID=([^:;]+)[:;]/g)].map((m) => m[1]));
  const defined = [...unfolded.matchAll(/^BEGIN:VTIMEZONE\r\nTZID:(.+)$/gm)].map((m) => m[1]);
  assert.deepEqual([...new Set(defined)].sort(), defined.sort(), 'one VTIMEZONE per TZID');
  assert.deepEqual([...used].sort(), [...defined].sort(), 'every TZID used has its VTIMEZONE, and no other');
}

/** Parses with ical.js (registering the file's own VTIMEZONEs: it ships no zone data) and node-ical. */
export function parseCalendar(text: string): { events: ParsedEvent[]; calendar: ICAL.Component } {
  const calendar = new ICAL.Component(ICAL.parse(text));
  ICAL.TimezoneService.reset();
  for (const vtimezone of calendar.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(vtimezone);
  const second = nodeIcal.sync.parseICS(text);
  const events = calendar.getAllSubcomponents('vevent').map((component) => {
    const event = new ICAL.Event(component);
    const other = Object.values(second).find((item) => item?.type === 'VEVENT' && item.uid === event.uid);
    assert.ok(other && other.type === 'VEVENT', `node-ical reads VEVENT ${event.uid}`);
    const dtstart = component.getFirstProperty('dtstart');
    const categories = component.getFirstProperty('categories');
    return {
      uid: event.uid,
      sequence: event.sequence,
      summary: event.summary,
      description: event.description ?? null,
      start: event.startDate.toJSDate().getTime(),
      end: event.endDate.toJSDate().getTime(),
      isDate: event.startDate.isDate,
      startText: event.startDate.toString(),
      endText: event.endDate.toString(),
      tzid: (dtstart?.getParameter('tzid') as string | undefined) ?? null,
      location: event.location ?? null,
      categories: categories ? (categories.getValues() as string[]) : [],
      nodeIcalStart: new Date(other.start).getTime(),
      nodeIcalEnd: other.end ? new Date(other.end).getTime() : Number.NaN,
    };
  });
  return { events, calendar };
}
