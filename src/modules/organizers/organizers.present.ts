import type { Config } from '../../config.js';
import type { RequestContext } from '../../http/context.js';
import { htmlToText } from '../../domain/html.js';
import { compactJsonLd, globalIds, presentPostHead, withoutEmpty } from '../linked/linked.present.js';
import { ORGANIZER_KIND } from '../linked/linked.kind.js';
import type { LinkedDetails, LinkedRow } from '../linked/linked.repository.js';
import type { ArgsInput } from '../../http/args.js';
import type { organizerFields } from './organizers.schemas.js';

const str = (value: unknown): string => (typeof value === 'string' ? value : '');

/** schema.org Person of an organizer (tec-api.md §5.8; the e-mail in plain text, §17). */
export function organizerJsonLd(row: LinkedRow): Record<string, unknown> {
  const d = row.details;
  return compactJsonLd({
    '@type': 'Person',
    name: row.title,
    description: htmlToText(row.description),
    image: row.image_url ?? undefined,
    url: str(d.website),
    telephone: str(d.phone),
    email: str(d.email),
    sameAs: str(d.website),
  });
}

/** An organizer object (API.md §8): TEC's order with empty values omitted, then global ids. */
export function presentOrganizer(
  config: Config,
  ctx: RequestContext,
  row: LinkedRow,
  options: { jsonLd: boolean },
): Record<string, unknown> {
  const d = row.details;
  const body = withoutEmpty({
    ...presentPostHead(config, ctx, ORGANIZER_KIND, row),
    phone: d.phone,
    website: d.website,
    email: d.email,
  });
  if (options.jsonLd) body.json_ld = organizerJsonLd(row);
  return { ...body, ...globalIds(config, row.id) };
}

/** Organizer columns from validated arguments. */
export function organizerDetails(args: ArgsInput<typeof organizerFields>): LinkedDetails {
  const details: LinkedDetails = {};
  for (const column of ['phone', 'website', 'email'] as const) {
    const value = args[column];
    if (value !== undefined) details[column] = value;
  }
  return details;
}
