import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import ICAL from 'ical.js';
import { tzidOf, vtimezone } from '../../src/modules/ical/ical.timezones.js';

const seconds = (iso: string) => Date.parse(iso) / 1000;

/** The UTC offset (seconds) ical.js reads from our VTIMEZONE for a local wall-clock time. */
function offsetAt(timezone: string, local: string, from: string, to: string): number {
  const component = new ICAL.Component(
    ICAL.parse(`BEGIN:VCALENDAR\r\n${vtimezone(timezone, seconds(from), seconds(to))}END:VCALENDAR\r\n`),
  );
  const zone = new ICAL.Timezone(component.getFirstSubcomponent('vtimezone') ?? undefined);
  return zone.utcOffset(ICAL.Time.fromDateTimeString(local));
}

describe('VTIMEZONE from the runtime time zone data (API.md §19.1)', () => {
  it('gives each instant of the span its offset, across DST changes', () => {
    const span = ['2026-10-01T00:00:00Z', '2027-12-31T00:00:00Z'] as const;
    assert.equal(offsetAt('Europe/Berlin', '2026-10-20T12:00:00', ...span), 7200);
    assert.equal(offsetAt('Europe/Berlin', '2026-11-20T12:00:00', ...span), 3600);
    assert.equal(offsetAt('Europe/Berlin', '2027-03-28T03:30:00', ...span), 7200);
    assert.equal(offsetAt('America/New_York', '2027-03-14T12:00:00', ...span), -4 * 3600);
    assert.equal(offsetAt('Australia/Lord_Howe', '2027-01-10T12:00:00', ...span), 11 * 3600);
    assert.equal(offsetAt('Australia/Lord_Howe', '2027-06-10T12:00:00', ...span), 10.5 * 3600);
  });

  it('follows rules as they are now: Mexico City has no DST since 2022', () => {
    const text = vtimezone('America/Mexico_City', seconds('2026-01-01T00:00:00Z'), seconds('2027-12-31T00:00:00Z'));
    assert.ok(!text.includes('DAYLIGHT'));
    assert.equal(
      offsetAt('America/Mexico_City', '2027-07-01T12:00:00', '2026-01-01T00:00:00Z', '2027-12-31T00:00:00Z'),
      -6 * 3600,
    );
  });

  it('offset zones get one fixed STANDARD observance and a TZID that needs no quoting', () => {
    assert.equal(tzidOf('UTC+5:30'), 'UTC+0530');
    assert.equal(tzidOf('UTC+5.5'), 'UTC+0530');
    assert.equal(tzidOf('UTC-3'), 'UTC-3');
    assert.equal(tzidOf('Europe/Paris'), 'Europe/Paris');
    const text = vtimezone('UTC+5:30', 0, 10);
    assert.match(
      text,
      /^BEGIN:VTIMEZONE\r\nTZID:UTC\+0530\r\nBEGIN:STANDARD\r\nDTSTART:19700101T000000\r\nTZOFFSETFROM:\+0530\r\nTZOFFSETTO:\+0530\r\n/,
    );
    assert.equal(offsetAt('UTC+5:30', '2027-07-01T12:00:00', '2027-01-01T00:00:00Z', '2027-12-31T00:00:00Z'), 19800);
  });
});
