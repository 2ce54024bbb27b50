import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DateTime } from 'luxon';
import { isValidTimezone, normaliseTimezone, zoneOf } from '../../src/domain/timezones.js';

const WINTER = DateTime.fromISO('2026-01-15T12:00:00Z').toMillis();
const SUMMER = DateTime.fromISO('2026-07-15T12:00:00Z').toMillis();

describe('normaliseTimezone (API.md §6)', () => {
  it('accepts an IANA name such as Europe/Paris unchanged', () => {
    assert.equal(normaliseTimezone('Europe/Paris'), 'Europe/Paris');
  });

  it('returns the canonical casing of an IANA name given in lower case', () => {
    assert.equal(normaliseTimezone('america/new_york'), 'America/New_York');
  });

  it('trims blanks around an IANA name', () => {
    assert.equal(normaliseTimezone('  Europe/Paris '), 'Europe/Paris');
  });

  it('accepts UTC', () => {
    assert.equal(normaliseTimezone('UTC'), 'UTC');
  });

  it('accepts utc in lower case and returns UTC', () => {
    assert.equal(normaliseTimezone('utc'), 'UTC');
  });

  it('accepts a whole-hour offset UTC+2', () => {
    assert.equal(normaliseTimezone('UTC+2'), 'UTC+2');
  });

  it('accepts an hours-and-minutes offset UTC-5:30', () => {
    assert.equal(normaliseTimezone('UTC-5:30'), 'UTC-5:30');
  });

  it('accepts a decimal offset UTC+5.5', () => {
    assert.equal(normaliseTimezone('UTC+5.5'), 'UTC+5.5');
  });

  it('upper-cases the UTC prefix of an offset', () => {
    assert.equal(normaliseTimezone('utc+2'), 'UTC+2');
  });

  it('accepts the extreme offsets UTC+14 and UTC-12', () => {
    assert.equal(normaliseTimezone('UTC+14'), 'UTC+14');
    assert.equal(normaliseTimezone('UTC-12'), 'UTC-12');
  });

  it('rejects an unknown zone name such as Mars/Olympus', () => {
    assert.equal(normaliseTimezone('Mars/Olympus'), null);
  });

  it('rejects GMT+25', () => {
    assert.equal(normaliseTimezone('GMT+25'), null);
  });

  it('rejects an offset beyond 14 hours such as UTC+15', () => {
    assert.equal(normaliseTimezone('UTC+15'), null);
  });

  it('rejects an offset with 60 or more minutes', () => {
    assert.equal(normaliseTimezone('UTC+2:60'), null);
  });

  it('rejects a bare offset without the UTC prefix', () => {
    assert.equal(normaliseTimezone('+02:00'), null);
  });

  it('rejects the empty string and blanks', () => {
    assert.equal(normaliseTimezone(''), null);
    assert.equal(normaliseTimezone('   '), null);
  });
});

describe('isValidTimezone', () => {
  it('agrees with normaliseTimezone', () => {
    assert.equal(isValidTimezone('Europe/Paris'), true);
    assert.equal(isValidTimezone('UTC-5:30'), true);
    assert.equal(isValidTimezone('Mars/Olympus'), false);
    assert.equal(isValidTimezone(''), false);
  });
});

describe('zoneOf', () => {
  it('gives UTC+2 a fixed +120 minute offset at any instant', () => {
    const zone = zoneOf('UTC+2');
    assert.equal(zone.offset(0), 120);
    assert.equal(zone.offset(WINTER), 120);
    assert.equal(zone.offset(SUMMER), 120);
    assert.equal(zone.isUniversal, true);
  });

  it('gives UTC-5:30 a fixed -330 minute offset', () => {
    assert.equal(zoneOf('UTC-5:30').offset(WINTER), -330);
    assert.equal(zoneOf('UTC-5:30').offset(SUMMER), -330);
  });

  it('gives UTC+5.5 a fixed +330 minute offset', () => {
    assert.equal(zoneOf('UTC+5.5').offset(SUMMER), 330);
  });

  it('gives UTC a zero offset', () => {
    assert.equal(zoneOf('UTC').offset(SUMMER), 0);
    assert.equal(zoneOf('UTC').isUniversal, true);
  });

  it('follows daylight saving time for an IANA zone', () => {
    const paris = zoneOf('Europe/Paris');
    assert.equal(paris.offset(WINTER), 60);
    assert.equal(paris.offset(SUMMER), 120);
    const newYork = zoneOf('America/New_York');
    assert.equal(newYork.offset(WINTER), -300);
    assert.equal(newYork.offset(SUMMER), -240);
  });

  it('returns the same zone object for the same name', () => {
    assert.equal(zoneOf('Europe/Paris'), zoneOf('Europe/Paris'));
  });
});
