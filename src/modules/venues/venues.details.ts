/** Venue columns from validated arguments; on create, TEC's defaults (show_map true, stateprovince). */
export function venueDetails(args: Record<string, unknown>, mode: 'create' | 'update'): Record<string, unknown> {
  const details: Record<string, unknown> = {};
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
  ]) {
    if (args[column] !== undefined) details[column] = args[column];
  }
  for (const flag of ['show_map', 'show_map_link']) {
    if (args[flag] !== undefined) details[flag] = args[flag] ? 1 : 0;
    else if (mode === 'create') details[flag] = 1;
  }
  if (mode === 'create' && args.stateprovince === undefined) details.stateprovince = defaultStateProvince(args);
  return details;
}

/** TEC: the state in the United States (or with no country), else the province. */
function defaultStateProvince(args: Record<string, unknown>): string {
  const country = typeof args.country === 'string' ? args.country.trim().toLowerCase() : '';
  const state = typeof args.state === 'string' ? args.state : '';
  const province = typeof args.province === 'string' ? args.province : '';
  if (state !== '' && (country === '' || country === 'us' || country === 'united states')) return state;
  return province;
}
