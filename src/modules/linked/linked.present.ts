import type { Config } from '../../config.js';
import type { RequestContext } from '../../http/context.js';
import { formatSecondsInZone, formatUtcSeconds } from '../../domain/dates.js';
import { autoParagraph } from '../../domain/html.js';
import { isRecord } from '../../domain/params.js';
import { globalIdPrefix } from '../../http/urls.js';
import { zoneOf } from '../../domain/timezones.js';
import { presentImage } from '../images/images.js';
import type { LinkedKind } from './linked.kind.js';
import type { LinkedRow } from './linked.repository.js';

export function siteDate(config: Config, seconds: number): string {
  return formatSecondsInZone(seconds, zoneOf(config.siteTimezone), config.siteTimezone);
}

export const utcDate = formatUtcSeconds;

/** Public page of a post: `/{type}/{slug}/` when published, TEC's `?post_type=…&p=` form otherwise. */
export function postPageUrl(
  ctx: RequestContext,
  type: string,
  wpPostType: string,
  row: { id: number; status: string; slug: string },
): string {
  if (row.status === 'publish' && row.slug !== '') return ctx.urls.page(`/${type}/${encodeURIComponent(row.slug)}/`);
  return ctx.urls.page(`/?post_type=${wpPostType}&p=${row.id}`);
}

export function globalIds(config: Config, id: number): { global_id: string; global_id_lineage: string[] } {
  const globalId = `${globalIdPrefix(config)}?id=${id}`;
  return { global_id: globalId, global_id_lineage: [globalId] };
}

/** The head of a venue or organizer object, in TEC's key order (tec-api.md §5.2, §5.3). */
export function presentPostHead(
  config: Config,
  ctx: RequestContext,
  kind: LinkedKind,
  row: LinkedRow,
): Record<string, unknown> {
  return {
    id: row.id,
    author: String(row.author_id),
    status: row.status,
    date: siteDate(config, row.published_at),
    date_utc: utcDate(row.published_at),
    modified: siteDate(config, row.modified_at),
    modified_utc: utcDate(row.modified_at),
    url: postPageUrl(ctx, kind.type, kind.wpPostType, row),
    [kind.nameField]: row.title,
    description: autoParagraph(row.description),
    excerpt: autoParagraph(row.excerpt),
    slug: row.slug,
    image: presentImage(row),
  };
}

/** TEC drops every falsy value from venue and organizer objects (`""`, `"0"`, `false`, `0`, `[]`). */
export function withoutEmpty(object: Record<string, unknown>): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(object)) {
    const empty =
      value === undefined ||
      value === null ||
      value === '' ||
      value === '0' ||
      value === false ||
      value === 0 ||
      (Array.isArray(value) && value.length === 0);
    if (!empty) result[key] = value;
  }
  return result;
}

/** A JSON-LD object without its empty members. */
export function compactJsonLd(object: Record<string, unknown>): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(object)) {
    if (value === undefined || value === null || value === '') continue;
    if (isRecord(value)) {
      const inner = compactJsonLd(value);
      if (Object.keys(inner).some((k) => k !== '@type')) result[key] = inner;
    } else result[key] = value;
  }
  return result;
}
