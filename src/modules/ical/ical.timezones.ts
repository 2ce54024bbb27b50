import { LRUCache } from 'lru-cache';
import { DateTime, type Zone } from 'luxon';
import { zoneOf } from '../../domain/timezones.js';

const DAY = 86_400;

const offsetText = (minutes: number) => {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}${String(abs % 60).padStart(2, '0')}`;
};

/**
 * The TZID of a stored time zone: IANA names as stored; `UTC±N` offsets as `UTC+5` or, with
 * minutes, `UTC+0530`: a parameter value may hold no `:` unquoted (RFC 5545 §3.1), and TEC's
 * spellings (`UTC+5:30`, `UTC+5.5`) differ for one offset.
 */
export function tzidOf(timezone: string): string {
  const zone = zoneOf(timezone);
  if (!zone.isUniversal) return timezone;
  const offset = zone.offset(0);
  return offset % 60 === 0 ? `UTC${offset < 0 ? '-' : '+'}${Math.abs(offset / 60)}` : `UTC${offsetText(offset)}`;
}

const localText = (seconds: number, offsetMinutes: number) =>
  DateTime.fromSeconds(seconds + offsetMinutes * 60, { zone: 'utc' }).toFormat("yyyyLLdd'T'HHmmss");

function observance(zone: Zone, at: number, from: number, to: number, fixed: boolean): string[] {
  const dst = !fixed && DateTime.fromSeconds(at, { zone }).isInDST;
  const kind = dst ? 'DAYLIGHT' : 'STANDARD';
  const name = zone.offsetName(at * 1000, { format: 'short', locale: 'en-US' });
  return [
    `BEGIN:${kind}`,
    `DTSTART:${fixed ? '19700101T000000' : localText(at, from)}`,
    `TZOFFSETFROM:${offsetText(from)}`,
    `TZOFFSETTO:${offsetText(to)}`,
    ...(name ? [`TZNAME:${name}`] : []),
    `END:${kind}`,
  ];
}

/** The first second at which `zone`'s offset differs from its offset at `low` (which differs by `high`). */
function transitionBetween(zone: Zone, low: number, high: number): number {
  const before = zone.offset(low * 1000);
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    if (zone.offset(middle * 1000) === before) low = middle;
    else high = middle;
  }
  return high;
}

interface Transition {
  /** The first second of the new offset. */
  readonly at: number;
  /** The observance's lines. */
  readonly lines: readonly string[];
}

/** Transitions by zone and UTC year: each costs a year of daily offset lookups, the same for every file. */
const transitionsByYear = new LRUCache<string, readonly Transition[]>({ max: 20_000 });

/** A zone's offset changes within one UTC year, sampled daily: no zone changes offset twice within a day. */
function transitionsIn(zone: Zone, year: number): readonly Transition[] {
  const key = `${zone.name}|${year}`;
  const cached = transitionsByYear.get(key);
  if (cached) return cached;
  const transitions: Transition[] = [];
  const end = Date.UTC(year + 1, 0, 1) / 1000;
  let offset = zone.offset(Date.UTC(year, 0, 1));
  for (let day = Date.UTC(year, 0, 1) / 1000; day < end; day += DAY) {
    const next = zone.offset((day + DAY) * 1000);
    if (next === offset) continue;
    const at = transitionBetween(zone, day, day + DAY);
    transitions.push({ at, lines: observance(zone, at, offset, next, false) });
    offset = next;
  }
  transitionsByYear.set(key, transitions);
  return transitions;
}

const yearOf = (seconds: number) => new Date(seconds * 1000).getUTCFullYear();

/**
 * A VTIMEZONE whose observances give the right UTC offset at every instant from `from` to `to`
 * (Unix seconds), read from the runtime's own time zone data (Intl, through Luxon): one observance
 * for the offset at the start and one per transition, each with its explicit onset. So a zone whose
 * rules changed is exported as it is now (Mexico has had no DST since 2022), unlike a file of fixed
 * rules.
 */
export function vtimezone(timezone: string, from: number, to: number): string {
  const zone = zoneOf(timezone);
  const lines = ['BEGIN:VTIMEZONE', `TZID:${tzidOf(timezone)}`];
  if (zone.isUniversal) {
    const offset = zone.offset(0);
    lines.push(...observance(zone, 0, offset, offset, true));
  } else {
    const start = Math.floor(from / DAY) * DAY - DAY;
    const end = to + DAY;
    const offset = zone.offset(start * 1000);
    lines.push(...observance(zone, start, offset, offset, false));
    for (let year = yearOf(start); year <= yearOf(end); year++) {
      for (const transition of transitionsIn(zone, year)) {
        if (transition.at > start && transition.at <= end) lines.push(...transition.lines);
      }
    }
  }
  lines.push('END:VTIMEZONE');
  return `${lines.join('\r\n')}\r\n`;
}
