import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeUtf8 } from '../../src/modules/import/ics.lines.js';
import { IcsProblem } from '../../src/modules/import/ics.problem.js';
import { readEvents } from '../../src/modules/import/ics.read.js';
import { scanCalendar } from '../../src/modules/import/ics.scan.js';

const calendar = (...lines: string[]) => ['BEGIN:VCALENDAR', 'VERSION:2.0', ...lines, 'END:VCALENDAR', ''].join('\n');

const EXCHANGE_ZONE = [
  'BEGIN:VTIMEZONE',
  'TZID:tzone://Microsoft/Custom',
  'BEGIN:STANDARD',
  'DTSTART:16010101T030000',
  'TZOFFSETFROM:-0400',
  'TZOFFSETTO:-0500',
  'RRULE:FREQ=YEARLY;BYDAY=1SU;BYMONTH=11',
  'END:STANDARD',
  'BEGIN:DAYLIGHT',
  'DTSTART:16010101T020000',
  'TZOFFSETFROM:-0500',
  'TZOFFSETTO:-0400',
  'RRULE:FREQ=YEARLY;BYDAY=2SU;BYMONTH=3',
  'END:DAYLIGHT',
  'END:VTIMEZONE',
];

describe('iCalendar import pre-scan (API.md §19.3)', () => {
  it('reads how each DTSTART names its time, and the event zone that follows', () => {
    const text = calendar(
      'X-WR-TIMEZONE:Europe/Lisbon',
      ...EXCHANGE_ZONE,
      'BEGIN:VEVENT',
      'UID:windows',
      'DTSTART;TZID="Pacific Standard Time":20270710T090000',
      'SUMMARY:Windows',
      'END:VEVENT',
      'BEGIN:VEVENT',
      'UID:exchange',
      // Unquoted, colon and all, as Exchange writes it; summer time there is UTC−4.
      'DTSTART;TZID=tzone://Microsoft/Custom:20270710T090000',
      'SUMMARY:Exchange',
      'END:VEVENT',
      'BEGIN:VEVENT',
      'UID:floating',
      'DTSTART:20270710T090000',
      'SUMMARY:Floating',
      'END:VEVENT',
      'BEGIN:VEVENT',
      'UID:utc-zone',
      'DTSTART;TZID=UTC:20270710T090000',
      'SUMMARY:A TZID of UTC',
      'END:VEVENT',
      'BEGIN:VEVENT',
      'UID:lenient-date',
      'DTSTART:20270710',
      'SUMMARY:A date without VALUE=DATE',
      'END:VEVENT',
    );
    const scanned = scanCalendar(text, 'Asia/Tokyo');
    assert.deepEqual(
      scanned.events.map((e) => [e.uid, e.startKind, e.startZone]),
      [
        ['windows', 'zoned', 'America/Los_Angeles'],
        ['exchange', 'custom', null],
        ['floating', 'floating', null],
        ['utc-zone', 'zoned', 'UTC'],
        ['lenient-date', 'date', null],
      ],
    );
    const events = readEvents(scanned);
    assert.deepEqual(
      events.map((e) => [e.timezone, e.start, e.allDay]),
      [
        ['America/Los_Angeles', '2027-07-10 09:00:00', false],
        // 09:00 at UTC−4 is 13:00 UTC, 14:00 in Lisbon (summer time), the X-WR-TIMEZONE.
        ['Europe/Lisbon', '2027-07-10 14:00:00', false],
        ['Europe/Lisbon', '2027-07-10 09:00:00', false],
        ['UTC', '2027-07-10 09:00:00', false],
        ['Europe/Lisbon', '2027-07-10 00:00:00', true],
      ],
    );
  });

  it('without X-WR-TIMEZONE, floating times are read in SITE_TIMEZONE and UTC times keep UTC', () => {
    const text = calendar(
      'BEGIN:VEVENT',
      'UID:a',
      'DTSTART:20270110T090000',
      'END:VEVENT',
      'BEGIN:VEVENT',
      'UID:b',
      'DTSTART:20270110T090000Z',
      'END:VEVENT',
    );
    const events = readEvents(scanCalendar(text, 'Asia/Tokyo'));
    assert.deepEqual(
      events.map((e) => [e.timezone, e.start, e.end]),
      [
        ['Asia/Tokyo', '2027-01-10 09:00:00', '2027-01-10 09:00:00'],
        ['UTC', '2027-01-10 09:00:00', '2027-01-10 09:00:00'],
      ],
    );
  });

  it('RRULE or RDATE make a series; RECURRENCE-ID an override; EXDATE alone neither', () => {
    const event = (uid: string, line: string) => [
      'BEGIN:VEVENT',
      `UID:${uid}`,
      'DTSTART:20270110T090000Z',
      line,
      'END:VEVENT',
    ];
    const text = calendar(
      ...event('rule', 'RRULE:FREQ=DAILY;COUNT=2'),
      ...event('dates', 'RDATE:20270112T090000Z,20270114T090000Z'),
      ...event('override', 'RECURRENCE-ID:20270111T090000Z'),
      ...event('exdate', 'EXDATE:20270111T090000Z'),
    );
    assert.deepEqual(
      scanCalendar(text, 'UTC').events.map((e) => [e.uid, e.recurring, e.recurrenceId]),
      [
        ['rule', true, null],
        ['dates', true, null],
        ['override', false, '20270111T090000Z'],
        ['exdate', false, null],
      ],
    );
  });

  it('names the physical line of each structural problem', () => {
    const cases: [string, string, number | undefined][] = [
      ['', 'the first line is not BEGIN:VCALENDAR', 1],
      ['BEGIN:VCALENDAR\nEND:VCALENDAR\nX-AFTER:1\n', 'content outside VCALENDAR', 3],
      [
        'BEGIN:VCALENDAR\nBEGIN:VEVENT\nDTSTART:20270101\nRRULE:FREQ=DAILY;COUNT=2;UNTIL=20270105\nEND:VEVENT\nEND:VCALENDAR\n',
        'unparsable RRULE',
        4,
      ],
      [
        'BEGIN:VCALENDAR\nBEGIN:VEVENT\nDTSTART:20270101\nSUMMARY:a\0b\nEND:VEVENT\nEND:VCALENDAR\n',
        'a NUL character',
        4,
      ],
    ];
    for (const [text, reason, line] of cases) {
      assert.throws(
        () => scanCalendar(text, 'UTC'),
        (error: unknown) => error instanceof IcsProblem && error.reason === reason && error.line === line,
        reason,
      );
    }
  });

  it('joins lines folded through a UTF-8 character before decoding, keeping the line numbers as sent', () => {
    const head = Buffer.from('BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:fold\r\nSUMMARY:Caf');
    const folded = Buffer.concat([head, Buffer.from([0xc3, 0x0d, 0x0a, 0x20, 0xa9]), Buffer.from(' au lait\r\n')]);
    const valid = Buffer.concat([folded, Buffer.from('DTSTART:20270101T100000Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n')]);
    const [event] = readEvents(scanCalendar(decodeUtf8(valid), 'UTC'));
    assert.equal(event.title, 'Café au lait');
    // The broken date is on line 6 as sent (the fold took lines 4 and 5).
    const broken = Buffer.concat([folded, Buffer.from('DTSTART:2027-01-01\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n')]);
    assert.throws(
      () => scanCalendar(decodeUtf8(broken), 'UTC'),
      (error: unknown) => error instanceof IcsProblem && error.line === 6,
    );
    // A byte that is invalid wherever the folds are: the line of the character.
    const latin1 = Buffer.concat([head, Buffer.from([0xe9]), Buffer.from('\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n')]);
    assert.throws(
      () => decodeUtf8(latin1),
      (error: unknown) => error instanceof IcsProblem && error.reason === 'not UTF-8' && error.line === 4,
    );
  });
});
