import type { DateTime, Zone } from 'luxon';
import type { Config } from '../../../config.js';
import type { RequestContext } from '../../../http/context.js';
import { formatSecondsInZone } from '../../../domain/dates.js';
import { zoneOf } from '../../../domain/timezones.js';
import type { EventListInput } from './input.js';

/** The date bounds in effect (site-zone wall clock), for the query and for `rest_url` (API.md §18). */
export interface EffectiveBounds {
  start_date?: DateTime;
  end_date?: DateTime;
  starts_before?: DateTime;
  starts_after?: DateTime;
  ends_before?: DateTime;
  ends_after?: DateTime;
}

const RELATIVE = ['starts_before', 'starts_after', 'ends_before', 'ends_after'] as const;

/**
 * The date window of API.md §10: without any date parameter, events starting from the beginning of
 * yesterday and ending by the end of the day 24 months ahead (site zone); `start_date` rounds down to
 * its day and the others up to the end of theirs unless `strict_dates`; any `starts_*`/`ends_*`
 * drops the default bound it does not give; `include` ignores dates.
 */
export function effectiveBounds(
  config: Config,
  ctx: RequestContext,
  input: EventListInput,
  { defaultWindow: withDefault = true } = {},
): EffectiveBounds {
  if (input.include) return {};
  const zone = zoneOf(config.siteTimezone);
  const startOfDay = (dt: DateTime) => (input.strict_dates ? dt : dayEdge(dt, zone, 'start'));
  const endOfDay = (dt: DateTime) => (input.strict_dates ? dt : dayEdge(dt, zone, 'end'));
  // `modified_after` / `modified_before` also drop the default window (API.md §21): a sync wants every change.
  const relative =
    RELATIVE.some((name) => input[name] !== undefined) ||
    input.modified_after !== undefined ||
    input.modified_before !== undefined;
  const window = relative || !withDefault ? undefined : defaultWindow(config, ctx);
  const bounds: EffectiveBounds = {
    start_date: input.start_date ? startOfDay(input.start_date) : window?.start,
    end_date: input.end_date ? endOfDay(input.end_date) : window?.end,
  };
  for (const name of RELATIVE) {
    const value = input[name];
    if (value) bounds[name] = endOfDay(value).setZone(zone);
  }
  if (bounds.start_date) bounds.start_date = bounds.start_date.setZone(zone);
  if (bounds.end_date) bounds.end_date = bounds.end_date.setZone(zone);
  return bounds;
}

const dayEdges = new Map<string, DateTime>();

/**
 * The first or last second of the day of `dt` in `zone`, remembered: lists ask for the same few
 * days again and again, and Luxon's zone arithmetic was a twentieth of a filtered list's time.
 */
function dayEdge(dt: DateTime, zone: Zone, edge: 'start' | 'end'): DateTime {
  const key = `${edge}|${zone.name}|${dt.toMillis()}`;
  let rounded = dayEdges.get(key);
  if (!rounded) {
    const local = dt.setZone(zone);
    rounded = edge === 'start' ? local.startOf('day') : local.endOf('day').set({ millisecond: 0 });
    if (dayEdges.size >= 1_000) dayEdges.clear();
    dayEdges.set(key, rounded);
  }
  return rounded;
}

let lastWindow: { key: string; start: DateTime; end: DateTime } | undefined;

/** The default window of the site-zone day of "now", computed once a day (most lists use it). */
function defaultWindow(config: Config, ctx: RequestContext): { start: DateTime; end: DateTime } {
  const zone = zoneOf(config.siteTimezone);
  const key = `${config.siteTimezone}|${formatSecondsInZone(Math.floor(ctx.now.toSeconds()), zone, config.siteTimezone).slice(0, 10)}`;
  if (lastWindow?.key !== key) {
    const today = ctx.now.setZone(zone);
    lastWindow = {
      key,
      start: today.minus({ days: 1 }).startOf('day'),
      end: today.plus({ months: 24 }).endOf('day').set({ millisecond: 0 }),
    };
  }
  return lastWindow;
}
