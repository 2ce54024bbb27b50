import { zoneOf } from '../timezones.js';

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * The Temporal time zone of a stored zone: IANA names as they are, `UTC` and TEC's `UTC±N` offsets
 * as the fixed offsets Temporal spells `±HH:MM`.
 */
export function temporalZoneId(timezone: string): string {
  const zone = zoneOf(timezone);
  if (zone.type === 'iana') return zone.name;
  const minutes = zone.offset(0);
  if (minutes === 0) return 'UTC';
  const abs = Math.abs(minutes);
  return `${minutes < 0 ? '-' : '+'}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}
