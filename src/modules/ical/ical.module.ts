import { MB, type CacheMaker } from '../../cache/maker.js';
import type { EventsModule } from '../events/events.module.js';
import type { IcalDeps, IcalFile } from './ical.service.js';

/**
 * The iCalendar files made under the current data version, by parameters and language: a write
 * anywhere makes them all out of date, as for every other read (changes/writes.ts). A feed of 2,000
 * events is about a megabyte.
 */
export function createIcalModule(events: EventsModule, keep: CacheMaker): IcalDeps {
  const { db, config } = events.state;
  return { db, config, events, files: keep<IcalFile>(1_000, 64 * MB, (file) => file.bytes.length) };
}
