import type { ArgsInput } from '../../http/args.js';
import type { LinkedDetails } from '../linked/linked.repository.js';
import type { venueFields } from './venues.schemas.js';

type VenueArgs = ArgsInput<typeof venueFields>;

/** Venue columns from validated arguments; on create, TEC's defaults (show_map true, stateprovince). */
export function venueDetails(args: VenueArgs, mode: 'create' | 'update'): LinkedDetails {
  const details: LinkedDetails = {};
  for (const column of [
    'address',
    'city',
    'country',
    'province',
    'state',
    'zip',
    'phone',
    'website',
    'stateprovince',
    'geo_lat',
    'geo_lng',
  ] as const) {
    const value = args[column];
    if (value !== undefined) details[column] = value;
  }
  for (const flag of ['show_map', 'show_map_link'] as const) {
    const value = args[flag];
    if (value !== undefined) details[flag] = value ? 1 : 0;
    else if (mode === 'create') details[flag] = 1;
  }
  if (mode === 'create' && args.stateprovince === undefined) details.stateprovince = defaultStateProvince(args);
  return details;
}

/** TEC: the state in the United States (or with no country), else the province. */
function defaultStateProvince(args: VenueArgs): string {
  const country = typeof args.country === 'string' ? args.country.trim().toLowerCase() : '';
  const state = typeof args.state === 'string' ? args.state : '';
  const province = typeof args.province === 'string' ? args.province : '';
  if (state !== '' && (country === '' || country === 'us' || country === 'united states')) return state;
  return province;
}
