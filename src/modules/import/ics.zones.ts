import { createRequire } from 'node:module';
import ICAL from 'ical.js';
import { IANAZone } from 'luxon';
import { normaliseTimezone } from '../../domain/timezones.js';

/**
 * node-ical's Windows time-zone table (CLDR's windowsZones, keyed by Windows names and Outlook's
 * display names): the same mapping node-ical applies, so a TZID we call "known" is one it resolves.
 */
const windowsZones = createRequire(import.meta.url)('node-ical/windowsZones.json') as Record<
  string,
  { iana?: string[] } | undefined
>;

/** An IANA name (canonical spelling) for a TZID that is an IANA or Windows name (API.md §19.3), else null. */
export function knownZone(tzid: string): string | null {
  const name = tzid.trim();
  if (/^(utc|gmt|z|etc\/utc|etc\/gmt)$/i.test(name)) return 'UTC';
  if (IANAZone.isValidZone(name)) return normaliseTimezone(name);
  const windows = windowsZones[name]?.iana?.[0];
  return windows !== undefined && IANAZone.isValidZone(windows) ? normaliseTimezone(windows) : null;
}

/** An IANA zone name for an event (`X-WR-TIMEZONE` must be one to count), else null. */
export function ianaZone(name: string | undefined): string | null {
  if (name === undefined || !IANAZone.isValidZone(name.trim())) return null;
  return normaliseTimezone(name.trim());
}

/**
 * A zone known only from the file's own VTIMEZONE (Outlook's "Customized Time Zone", made-up
 * names): ical.js reads its observances, so a local time there becomes an instant. Null when the
 * VTIMEZONE cannot be read.
 */
export function customZone(vtimezone: string): ((local: string) => number | null) | null {
  let zone: ICAL.Timezone;
  try {
    const parsed: unknown = ICAL.parse(vtimezone);
    if (!Array.isArray(parsed)) return null;
    zone = new ICAL.Timezone(new ICAL.Component(parsed));
  } catch {
    return null;
  }
  return (local) => {
    const match = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})$/.exec(local);
    if (!match) return null;
    const [year, month, day, hour, minute, second] = match.slice(1).map(Number);
    try {
      return ICAL.Time.fromData({ year, month, day, hour, minute, second, isDate: false }, zone).toUnixTime();
    } catch {
      return null;
    }
  };
}
