import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DateTime } from 'luxon';
import {
  formatDb,
  formatIsoInZone,
  formatSecondsInZone,
  formatUtcSeconds,
  parseDateInput,
} from '../../src/domain/dates.js';
import { zoneOf } from '../../src/domain/timezones.js';

/** A Saturday: 08:37:48 in UTC, 03:37:48 EST in New York, 09:37:48 CET in Paris. */
const NOW = DateTime.fromISO('2026-11-21T08:37:48Z');

const UTC = 'UTC';
const NEW_YORK = 'America/New_York';
const PARIS = 'Europe/Paris';

function parse(raw: unknown, zone: string, now: DateTime = NOW): DateTime {
  const result = parseDateInput(raw, zoneOf(zone), now);
  assert.ok(result, `${JSON.stringify(raw)} should parse in ${zone}`);
  assert.ok(result.isValid, `${JSON.stringify(raw)} in ${zone} is an invalid DateTime: ${result.invalidReason}`);
  return result;
}

/** Asserts both the wall-clock time in the requested zone and the UTC instant. */
function expectDate(raw: unknown, zone: string, local: string, utc: string, now: DateTime = NOW): void {
  const result = parse(raw, zone, now);
  assert.equal(formatDb(result), local, `local wall clock of ${JSON.stringify(raw)} in ${zone}`);
  assert.equal(formatDb(result.setZone('UTC')), utc, `UTC instant of ${JSON.stringify(raw)} in ${zone}`);
  assert.equal(
    result.offset,
    zoneOf(zone).offset(result.toMillis()),
    `result of ${JSON.stringify(raw)} is expressed in ${zone}`,
  );
}

function expectRejected(raw: unknown, zone = UTC): void {
  assert.equal(parseDateInput(raw, zoneOf(zone), NOW), null, `${JSON.stringify(raw)} should be rejected in ${zone}`);
}

describe('formatDb', () => {
  it('formats a DateTime as "YYYY-MM-DD HH:MM:SS" in its own zone', () => {
    assert.equal(formatDb(DateTime.fromISO('2026-01-02T03:04:05', { zone: 'UTC' })), '2026-01-02 03:04:05');
    assert.equal(formatDb(NOW.setZone(NEW_YORK)), '2026-11-21 03:37:48');
  });

  it('gives what Luxon formats, across zones, offsets, DST changes, fractions of a second and years', () => {
    const zones = ['UTC', NEW_YORK, PARIS, 'Pacific/Chatham', 'Asia/Kolkata', 'UTC+5:45', 'UTC-9:30'];
    const instants = [
      Date.UTC(2026, 2, 29, 0, 59, 59, 999),
      Date.UTC(2026, 9, 25, 1, 0, 0, 500),
      Date.UTC(1969, 11, 31, 23, 59, 59, 250),
      Date.parse('0005-01-01T00:00:00Z') - 1,
      Date.UTC(9999, 11, 31, 12),
      Date.UTC(10000, 0, 2),
    ];
    for (let ms = Date.UTC(2025, 0, 1); ms < Date.UTC(2027, 0, 1); ms += 7_654_321_123) instants.push(ms);
    for (const zone of zones) {
      for (const ms of instants) {
        const dt = DateTime.fromMillis(ms, { zone });
        assert.equal(formatDb(dt), dt.toFormat('yyyy-MM-dd HH:mm:ss'), `${new Date(ms).toISOString()} in ${zone}`);
      }
    }
  });
});

describe('parseDateInput: absolute wall-clock forms (API.md §6)', () => {
  it('reads "YYYY-MM-DD HH:MM:SS" as wall-clock time in the zone', () => {
    expectDate('2026-12-21 18:00:00', UTC, '2026-12-21 18:00:00', '2026-12-21 18:00:00');
    expectDate('2026-12-21 18:00:00', NEW_YORK, '2026-12-21 18:00:00', '2026-12-21 23:00:00');
    expectDate('2026-12-21 18:00:00', PARIS, '2026-12-21 18:00:00', '2026-12-21 17:00:00');
  });

  it('keeps the seconds of "YYYY-MM-DD HH:MM:SS"', () => {
    expectDate('2026-12-21 18:05:09', PARIS, '2026-12-21 18:05:09', '2026-12-21 17:05:09');
  });

  it('reads "YYYY-MM-DD HH:MM" with zero seconds', () => {
    expectDate('2026-12-21 18:00', UTC, '2026-12-21 18:00:00', '2026-12-21 18:00:00');
    expectDate('2026-12-21 18:00', NEW_YORK, '2026-12-21 18:00:00', '2026-12-21 23:00:00');
    expectDate('2026-12-21 18:00', PARIS, '2026-12-21 18:00:00', '2026-12-21 17:00:00');
  });

  it('reads "YYYY-MM-DD" as midnight in the zone', () => {
    expectDate('2026-12-21', UTC, '2026-12-21 00:00:00', '2026-12-21 00:00:00');
    expectDate('2026-12-21', NEW_YORK, '2026-12-21 00:00:00', '2026-12-21 05:00:00');
    expectDate('2026-12-21', PARIS, '2026-12-21 00:00:00', '2026-12-20 23:00:00');
  });

  it('reads ISO 8601 without an offset ("2026-12-21T18:00:00") as wall-clock time in the zone', () => {
    expectDate('2026-12-21T18:00:00', UTC, '2026-12-21 18:00:00', '2026-12-21 18:00:00');
    expectDate('2026-12-21T18:00:00', NEW_YORK, '2026-12-21 18:00:00', '2026-12-21 23:00:00');
    expectDate('2026-12-21T18:00:00', PARIS, '2026-12-21 18:00:00', '2026-12-21 17:00:00');
  });

  it('reads ISO 8601 without seconds ("2026-12-21T18:00")', () => {
    expectDate('2026-12-21T18:00', NEW_YORK, '2026-12-21 18:00:00', '2026-12-21 23:00:00');
  });

  it('trims surrounding blanks', () => {
    expectDate('  2026-12-21 18:00:00 ', PARIS, '2026-12-21 18:00:00', '2026-12-21 17:00:00');
  });
});

describe('parseDateInput: explicit offsets are instants converted into the zone (API.md §6, §17)', () => {
  it('converts ISO 8601 with "Z" from UTC into the zone', () => {
    expectDate('2026-12-21T18:00:00Z', UTC, '2026-12-21 18:00:00', '2026-12-21 18:00:00');
    expectDate('2026-12-21T18:00:00Z', NEW_YORK, '2026-12-21 13:00:00', '2026-12-21 18:00:00');
    expectDate('2026-12-21T18:00:00Z', PARIS, '2026-12-21 19:00:00', '2026-12-21 18:00:00');
  });

  it('accepts a lower-case "z"', () => {
    expectDate('2026-12-21t18:00:00z', PARIS, '2026-12-21 19:00:00', '2026-12-21 18:00:00');
  });

  it('converts ISO 8601 with "+02:00" as an instant, not as local digits', () => {
    expectDate('2026-12-21T18:00:00+02:00', UTC, '2026-12-21 16:00:00', '2026-12-21 16:00:00');
    expectDate('2026-12-21T18:00:00+02:00', NEW_YORK, '2026-12-21 11:00:00', '2026-12-21 16:00:00');
    expectDate('2026-12-21T18:00:00+02:00', PARIS, '2026-12-21 17:00:00', '2026-12-21 16:00:00');
  });

  it('converts ISO 8601 with "-05:00" as an instant, possibly onto the next day', () => {
    expectDate('2026-12-21T18:00:00-05:00', UTC, '2026-12-21 23:00:00', '2026-12-21 23:00:00');
    expectDate('2026-12-21T18:00:00-05:00', NEW_YORK, '2026-12-21 18:00:00', '2026-12-21 23:00:00');
    expectDate('2026-12-21T18:00:00-05:00', PARIS, '2026-12-22 00:00:00', '2026-12-21 23:00:00');
  });

  it('accepts an offset written without a colon ("+0200")', () => {
    expectDate('2026-12-21T18:00:00+0200', NEW_YORK, '2026-12-21 11:00:00', '2026-12-21 16:00:00');
  });

  it('converts a "YYYY-MM-DD HH:MM:SS" with an offset as an instant', () => {
    expectDate('2026-12-21 18:00:00+02:00', PARIS, '2026-12-21 17:00:00', '2026-12-21 16:00:00');
  });

  it('rejects offsets beyond ±14:00 or with more than 59 minutes', () => {
    expectRejected('2026-12-21T18:00:00+99:00', NEW_YORK);
    expectRejected('2026-12-21T18:00:00+15:00', NEW_YORK);
    expectRejected('2026-12-21T18:00:00+02:99', NEW_YORK);
  });
});

describe('parseDateInput: Unix timestamps are UTC instants (API.md §6)', () => {
  // 1798473600 = 2026-12-28 16:00:00 UTC
  it('reads a digit-only string as seconds since the epoch', () => {
    expectDate('1798473600', UTC, '2026-12-28 16:00:00', '2026-12-28 16:00:00');
    expectDate('1798473600', NEW_YORK, '2026-12-28 11:00:00', '2026-12-28 16:00:00');
    expectDate('1798473600', PARIS, '2026-12-28 17:00:00', '2026-12-28 16:00:00');
  });

  it('reads a JSON integer as seconds since the epoch', () => {
    expectDate(1798473600, UTC, '2026-12-28 16:00:00', '2026-12-28 16:00:00');
    expectDate(1798473600, NEW_YORK, '2026-12-28 11:00:00', '2026-12-28 16:00:00');
    expectDate(1798473600, PARIS, '2026-12-28 17:00:00', '2026-12-28 16:00:00');
  });

  it('reads 0 as the epoch', () => {
    expectDate(0, UTC, '1970-01-01 00:00:00', '1970-01-01 00:00:00');
    expectDate('0', UTC, '1970-01-01 00:00:00', '1970-01-01 00:00:00');
  });

  it('rejects negative and fractional JSON numbers', () => {
    expectRejected(-5);
    expectRejected(1.5);
  });

  it('rejects timestamps too large to be a date instead of returning an invalid DateTime', () => {
    expectRejected('99999999999999999999');
    expectRejected('999999999999999');
    expectRejected(1e20);
  });

  it('rejects a decimal timestamp string', () => {
    expectRejected('1798473600.5');
  });
});

describe('parseDateInput: relative forms in the zone (API.md §6)', () => {
  it('reads "now" as the current instant', () => {
    expectDate('now', UTC, '2026-11-21 08:37:48', '2026-11-21 08:37:48');
    expectDate('now', NEW_YORK, '2026-11-21 03:37:48', '2026-11-21 08:37:48');
    expectDate('now', PARIS, '2026-11-21 09:37:48', '2026-11-21 08:37:48');
  });

  it('reads "today" as midnight of the current day in the zone', () => {
    expectDate('today', UTC, '2026-11-21 00:00:00', '2026-11-21 00:00:00');
    expectDate('today', NEW_YORK, '2026-11-21 00:00:00', '2026-11-21 05:00:00');
    expectDate('today', PARIS, '2026-11-21 00:00:00', '2026-11-20 23:00:00');
  });

  it('takes "today" from the zone\'s calendar day, not from UTC\'s', () => {
    const lateEvening = DateTime.fromISO('2026-11-21T02:00:00Z'); // still Friday the 20th in New York
    expectDate('today', NEW_YORK, '2026-11-20 00:00:00', '2026-11-20 05:00:00', lateEvening);
    expectDate('today', PARIS, '2026-11-21 00:00:00', '2026-11-20 23:00:00', lateEvening);
  });

  it('reads "tomorrow" as midnight of the next day', () => {
    expectDate('tomorrow', UTC, '2026-11-22 00:00:00', '2026-11-22 00:00:00');
    expectDate('tomorrow', NEW_YORK, '2026-11-22 00:00:00', '2026-11-22 05:00:00');
    expectDate('tomorrow', PARIS, '2026-11-22 00:00:00', '2026-11-21 23:00:00');
  });

  it('reads "yesterday" as midnight of the previous day', () => {
    expectDate('yesterday', UTC, '2026-11-20 00:00:00', '2026-11-20 00:00:00');
    expectDate('yesterday', NEW_YORK, '2026-11-20 00:00:00', '2026-11-20 05:00:00');
    expectDate('yesterday', PARIS, '2026-11-20 00:00:00', '2026-11-19 23:00:00');
  });

  it('reads the keywords case-insensitively', () => {
    expectDate('Tomorrow', UTC, '2026-11-22 00:00:00', '2026-11-22 00:00:00');
    expectDate('NOW', UTC, '2026-11-21 08:37:48', '2026-11-21 08:37:48');
  });

  it('reads "+1 week" as seven days from now', () => {
    expectDate('+1 week', UTC, '2026-11-28 08:37:48', '2026-11-28 08:37:48');
    expectDate('+1 week', NEW_YORK, '2026-11-28 03:37:48', '2026-11-28 08:37:48');
    expectDate('+1 week', PARIS, '2026-11-28 09:37:48', '2026-11-28 08:37:48');
  });

  it('reads "-2 days" as two days before now', () => {
    expectDate('-2 days', UTC, '2026-11-19 08:37:48', '2026-11-19 08:37:48');
    expectDate('-2 days', NEW_YORK, '2026-11-19 03:37:48', '2026-11-19 08:37:48');
    expectDate('-2 days', PARIS, '2026-11-19 09:37:48', '2026-11-19 08:37:48');
  });

  it('reads "3 hours ago" as three hours before now', () => {
    expectDate('3 hours ago', UTC, '2026-11-21 05:37:48', '2026-11-21 05:37:48');
    expectDate('3 hours ago', NEW_YORK, '2026-11-21 00:37:48', '2026-11-21 05:37:48');
    expectDate('3 hours ago', PARIS, '2026-11-21 06:37:48', '2026-11-21 05:37:48');
  });

  it('reads "+1 month" as the same wall-clock time one calendar month later', () => {
    expectDate('+1 month', UTC, '2026-12-21 08:37:48', '2026-12-21 08:37:48');
    expectDate('+1 month', NEW_YORK, '2026-12-21 03:37:48', '2026-12-21 08:37:48');
    expectDate('+1 month', PARIS, '2026-12-21 09:37:48', '2026-12-21 08:37:48');
  });

  it('reads minute and year units, singular or plural', () => {
    expectDate('+30 minutes', UTC, '2026-11-21 09:07:48', '2026-11-21 09:07:48');
    expectDate('+1 minute', UTC, '2026-11-21 08:38:48', '2026-11-21 08:38:48');
    expectDate('-1 year', UTC, '2025-11-21 08:37:48', '2025-11-21 08:37:48');
    expectDate('2 years ago', UTC, '2024-11-21 08:37:48', '2024-11-21 08:37:48');
    expectDate('+1 hour', UTC, '2026-11-21 09:37:48', '2026-11-21 09:37:48');
  });

  it('reads "next wednesday" as midnight of the coming Wednesday', () => {
    expectDate('next wednesday', UTC, '2026-11-25 00:00:00', '2026-11-25 00:00:00');
    expectDate('next wednesday', NEW_YORK, '2026-11-25 00:00:00', '2026-11-25 05:00:00');
    expectDate('next wednesday', PARIS, '2026-11-25 00:00:00', '2026-11-24 23:00:00');
  });

  it('reads "next saturday" on a Saturday as a week later', () => {
    expectDate('next saturday', UTC, '2026-11-28 00:00:00', '2026-11-28 00:00:00');
  });

  it('reads "last monday" as midnight of the previous Monday', () => {
    expectDate('last monday', UTC, '2026-11-16 00:00:00', '2026-11-16 00:00:00');
    expectDate('last monday', NEW_YORK, '2026-11-16 00:00:00', '2026-11-16 05:00:00');
    expectDate('last monday', PARIS, '2026-11-16 00:00:00', '2026-11-15 23:00:00');
  });

  it('reads "last saturday" on a Saturday as a week earlier', () => {
    expectDate('last saturday', UTC, '2026-11-14 00:00:00', '2026-11-14 00:00:00');
  });
});

describe('parseDateInput: relative forms followed by a time of day (API.md §6)', () => {
  it('reads "tomorrow 9am"', () => {
    expectDate('tomorrow 9am', UTC, '2026-11-22 09:00:00', '2026-11-22 09:00:00');
    expectDate('tomorrow 9am', NEW_YORK, '2026-11-22 09:00:00', '2026-11-22 14:00:00');
    expectDate('tomorrow 9am', PARIS, '2026-11-22 09:00:00', '2026-11-22 08:00:00');
  });

  it('reads "next wednesday 4:30pm"', () => {
    expectDate('next wednesday 4:30pm', UTC, '2026-11-25 16:30:00', '2026-11-25 16:30:00');
    expectDate('next wednesday 4:30pm', NEW_YORK, '2026-11-25 16:30:00', '2026-11-25 21:30:00');
    expectDate('next wednesday 4:30pm', PARIS, '2026-11-25 16:30:00', '2026-11-25 15:30:00');
  });

  it('reads "yesterday 23:59"', () => {
    expectDate('yesterday 23:59', UTC, '2026-11-20 23:59:00', '2026-11-20 23:59:00');
    expectDate('yesterday 23:59', NEW_YORK, '2026-11-20 23:59:00', '2026-11-21 04:59:00');
    expectDate('yesterday 23:59', PARIS, '2026-11-20 23:59:00', '2026-11-20 22:59:00');
  });

  it('reads "today 16:00"', () => {
    expectDate('today 16:00', UTC, '2026-11-21 16:00:00', '2026-11-21 16:00:00');
    expectDate('today 16:00', NEW_YORK, '2026-11-21 16:00:00', '2026-11-21 21:00:00');
    expectDate('today 16:00', PARIS, '2026-11-21 16:00:00', '2026-11-21 15:00:00');
  });

  it('reads a date followed by a 12-hour time ("2018-01-01 4pm")', () => {
    expectDate('2018-01-01 4pm', UTC, '2018-01-01 16:00:00', '2018-01-01 16:00:00');
    expectDate('2018-01-01 4pm', NEW_YORK, '2018-01-01 16:00:00', '2018-01-01 21:00:00');
    expectDate('2018-01-01 4pm', PARIS, '2018-01-01 16:00:00', '2018-01-01 15:00:00');
  });

  it('reads 12am as midnight and 12pm as noon', () => {
    expectDate('tomorrow 12am', UTC, '2026-11-22 00:00:00', '2026-11-22 00:00:00');
    expectDate('tomorrow 12pm', UTC, '2026-11-22 12:00:00', '2026-11-22 12:00:00');
  });

  it('reads "+1 week 9am" as the time of day seven days ahead', () => {
    expectDate('+1 week 9am', PARIS, '2026-11-28 09:00:00', '2026-11-28 08:00:00');
  });

  it('rejects an impossible time of day after a relative form', () => {
    expectRejected('tomorrow 13pm');
    expectRejected('tomorrow 24:00');
    expectRejected('today 16:60');
  });
});

describe('parseDateInput: daylight saving time', () => {
  it('shifts a wall-clock time in the spring-forward gap (2026-03-08 02:30 New York) forward by the gap', () => {
    // 02:00 → 03:00 EDT: 02:30 does not exist; Luxon moves it to 03:30 EDT (07:30 UTC), the same day.
    expectDate('2026-03-08 02:30', NEW_YORK, '2026-03-08 03:30:00', '2026-03-08 07:30:00');
    assert.equal(parse('2026-03-08 02:30', NEW_YORK).offset, -240);
  });

  it('converts 2026-03-29 12:00 Paris (CEST) to 10:00 UTC', () => {
    expectDate('2026-03-29 12:00', PARIS, '2026-03-29 12:00:00', '2026-03-29 10:00:00');
    assert.equal(parse('2026-03-29 12:00', PARIS).offset, 120);
  });

  it('converts 2026-03-28 12:00 Paris (CET) to 11:00 UTC', () => {
    expectDate('2026-03-28 12:00', PARIS, '2026-03-28 12:00:00', '2026-03-28 11:00:00');
    assert.equal(parse('2026-03-28 12:00', PARIS).offset, 60);
  });

  it('keeps the wall-clock time of an ambiguous fall-back time (2026-11-01 01:30 New York)', () => {
    const result = parse('2026-11-01 01:30', NEW_YORK);
    assert.equal(formatDb(result), '2026-11-01 01:30:00');
    assert.ok([-240, -300].includes(result.offset), `offset ${result.offset} is EDT or EST`);
  });
});

describe('parseDateInput: rejections (API.md §6)', () => {
  it('rejects "not-a-date"', () => {
    expectRejected('not-a-date');
  });

  it('rejects free text such as "\\"before my birthday\\""', () => {
    expectRejected('"before my birthday"');
    expectRejected('before my birthday');
  });

  it('rejects an impossible day (2026-02-31)', () => {
    expectRejected('2026-02-31');
    expectRejected('2026-02-31 10:00:00');
    expectRejected('2026-02-31T10:00:00Z');
  });

  it('rejects an impossible month (2026-13-01)', () => {
    expectRejected('2026-13-01');
    expectRejected('2026-00-10');
  });

  it('rejects an impossible time of day ("25:00", "2026-12-21 24:00", "2026-12-21T25:00:00Z")', () => {
    expectRejected('25:00');
    expectRejected('2026-12-21 24:00');
    expectRejected('2026-12-21 18:60');
    expectRejected('2026-12-21T25:00:00Z');
  });

  it('rejects a date followed by trailing garbage', () => {
    expectRejected('2026-12-21 16:00 foo');
    expectRejected('2026-12-21abc');
  });

  it('rejects unknown weekdays and units', () => {
    expectRejected('next funday');
    expectRejected('+1 fortnight');
  });

  it('rejects the empty string and blanks', () => {
    expectRejected('');
    expectRejected('   ');
  });

  it('rejects null, undefined, booleans, objects and arrays', () => {
    expectRejected(null);
    expectRejected(undefined);
    expectRejected(true);
    expectRejected({});
    expectRejected([]);
    expectRejected(['2026-12-21']);
  });

  it('rejects numeric strings that are not digit-only timestamps', () => {
    expectRejected('-5');
    expectRejected('1.5');
  });
});

describe('formatSecondsInZone and formatIsoInZone', () => {
  it('give what Luxon gives, across DST changes, half-hour and negative offsets', () => {
    const zones = [
      'UTC',
      NEW_YORK,
      PARIS,
      'Asia/Kolkata',
      'America/St_Johns',
      'Australia/Lord_Howe',
      'UTC+5.5',
      'UTC-3',
    ];
    // Around the 2026 and 2027 DST changes of New York, Paris and Lord Howe, hour by hour, and a spread of other instants.
    const starts = [
      '2026-03-08T05:00:00Z',
      '2026-03-29T00:00:00Z',
      '2026-10-04T14:00:00Z',
      '2026-11-01T05:00:00Z',
      '2027-04-04T14:00:00Z',
    ];
    const instants = starts.flatMap((start) =>
      Array.from({ length: 6 }, (_, h) => DateTime.fromISO(start).toSeconds() + h * 1800),
    );
    for (let i = 0; i < 50; i++) instants.push(1_780_000_000 + i * 987_654);
    for (const name of zones) {
      for (const seconds of instants) {
        const expected = DateTime.fromSeconds(seconds, { zone: zoneOf(name) });
        assert.equal(
          formatSecondsInZone(seconds, zoneOf(name), name),
          expected.toFormat('yyyy-MM-dd HH:mm:ss'),
          `${name} ${seconds}`,
        );
        assert.equal(
          formatIsoInZone(seconds, zoneOf(name), name),
          expected.toFormat("yyyy-MM-dd'T'HH:mm:ssZZ"),
          `${name} ${seconds}`,
        );
      }
    }
  });
});

describe('formatUtcSeconds', () => {
  it('gives the UTC wall clock of any instant, before 1970 and on leap days too', () => {
    const instants = [
      0, -1, 59, 86_399, 86_400, 951_782_399, 951_868_800, 1_709_208_000, 4_107_542_399, -2_208_988_801,
      1_795_000_000.9,
    ];
    for (let i = 0; i < 2_000; i++) instants.push(Math.floor((Math.random() - 0.3) * 5_000_000_000));
    for (const seconds of instants) {
      assert.equal(
        formatUtcSeconds(seconds),
        DateTime.fromSeconds(Math.floor(seconds), { zone: 'UTC' }).toFormat('yyyy-MM-dd HH:mm:ss'),
        String(seconds),
      );
    }
  });
});
