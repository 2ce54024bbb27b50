import { FixedOffsetZone, IANAZone, type Zone } from 'luxon';

/** `UTC+2`, `UTC-5:30`, `UTC+5.5` (TEC's offset-only zones, API.md §6). */
const OFFSET_ZONE = /^UTC([+-])(\d{1,2})(?:(?::?(\d{2}))|(?:\.(\d+)))?$/i;

function offsetMinutes(value: string): number | null {
  const match = OFFSET_ZONE.exec(value);
  if (!match) return null;
  const hours = Number(match[2]);
  const minutes =
    match[3] !== undefined ? Number(match[3]) : match[4] !== undefined ? Math.round(Number(`0.${match[4]}`) * 60) : 0;
  if (hours > 14 || minutes > 59) return null;
  const total = hours * 60 + minutes;
  return match[1] === '-' ? -total : total;
}

/**
 * Normalises a time zone parameter: IANA names come back in their canonical spelling, `UTC` and
 * `UTC±N` offsets as given (TEC stores and echoes them verbatim). Anything else is null.
 */
export function normaliseTimezone(value: string): string | null {
  const trimmed = value.trim();
  if (trimmed === '') return null;
  if (/^utc$/i.test(trimmed)) return 'UTC';
  if (offsetMinutes(trimmed) !== null) return `UTC${trimmed.slice(3)}`;
  if (!IANAZone.isValidZone(trimmed)) return null;
  return new Intl.DateTimeFormat('en-US', { timeZone: trimmed }).resolvedOptions().timeZone;
}

export function isValidTimezone(value: string): boolean {
  return normaliseTimezone(value) !== null;
}

const zoneCache = new Map<string, Zone>();

/** The Luxon zone of a stored (normalised) time zone string. */
export function zoneOf(timezone: string): Zone {
  let zone = zoneCache.get(timezone);
  if (!zone) {
    const minutes = offsetMinutes(timezone);
    zone =
      minutes !== null
        ? FixedOffsetZone.instance(minutes)
        : timezone === 'UTC'
          ? FixedOffsetZone.utcInstance
          : IANAZone.create(timezone);
    zoneCache.set(timezone, zone);
  }
  return zone;
}
