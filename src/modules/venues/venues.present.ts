import type { Config } from '../../config.js';
import type { RequestContext } from '../../http/context.js';
import { htmlToText } from '../../domain/html.js';
import { globalIds, presentPostHead, withoutEmpty, compactJsonLd, postPageUrl } from '../linked/linked.present.js';
import { VENUE_KIND } from '../linked/linked.kind.js';
import type { LinkedRow } from '../linked/linked.repository.js';

const str = (value: unknown): string => (typeof value === 'string' ? value : '');

/** schema.org Place of a venue (tec-api.md §5.8, with plain-text description). */
export function venueJsonLd(ctx: RequestContext, row: LinkedRow): Record<string, unknown> {
  const d = row.details;
  return compactJsonLd({
    '@type': 'Place',
    name: row.title,
    description: htmlToText(row.description),
    image: row.image_url ?? undefined,
    url: postPageUrl(ctx, 'venue', 'tribe_venue', row),
    address: {
      '@type': 'PostalAddress',
      streetAddress: str(d.address),
      addressLocality: str(d.city),
      addressRegion: str(d.stateprovince) || str(d.state) || str(d.province),
      postalCode: str(d.zip),
      addressCountry: str(d.country),
    },
    geo:
      d.geo_lat !== null && d.geo_lng !== null
        ? { '@type': 'GeoCoordinates', latitude: d.geo_lat, longitude: d.geo_lng }
        : undefined,
    telephone: str(d.phone),
    sameAs: str(d.website),
  });
}

/** A venue object (API.md §8): TEC's order, empty values omitted, then flags and global ids. */
export function presentVenue(
  config: Config,
  ctx: RequestContext,
  row: LinkedRow,
  options: { jsonLd: boolean },
): Record<string, unknown> {
  const d = row.details;
  const body = withoutEmpty({
    ...presentPostHead(config, ctx, VENUE_KIND, row),
    address: d.address,
    city: d.city,
    country: d.country,
    province: d.province,
    state: d.state,
    zip: d.zip,
    phone: d.phone,
    website: d.website,
    stateprovince: d.stateprovince,
  });
  if (d.geo_lat !== null && d.geo_lng !== null) Object.assign(body, { geo_lat: d.geo_lat, geo_lng: d.geo_lng });
  if (options.jsonLd) body.json_ld = venueJsonLd(ctx, row);
  return { ...body, show_map: d.show_map === 1, show_map_link: d.show_map_link === 1, ...globalIds(config, row.id) };
}
