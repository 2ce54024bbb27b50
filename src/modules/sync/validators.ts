import { createHash } from 'node:crypto';
import type { Caller } from '../../auth/caller.js';
import type { Config } from '../../config.js';
import type { Executor } from '../../db/schema.js';
import type { Revised } from '../../cache/entries.js';
import type { VersionedCache } from '../../cache/lru.js';
import type { Validator } from '../../http/conditional.js';
import type { RequestContext } from '../../http/context.js';
import type { EventBundle } from '../events/events.present.js';
import { canReadPost } from '../posts/posts.rules.js';
import * as repo from './validators.repository.js';

/**
 * Which representation of an item: the plain one, or `context=edit` (translations, password). The
 * request language is left out on purpose: one ETag names the item in every language (API.md §21).
 */
export type Variant = 'view' | 'edit';

/**
 * Bumped when a release changes how items are represented, so that clients' copies made by an
 * older release are not taken as current.
 */
const REPRESENTATION = '2';

/** The settings every representation depends on (URLs, the site zone of `date` and `modified`). */
function fingerprint(config: Config): string {
  return [REPRESENTATION, config.publicUrl, config.basePath, config.siteTimezone, config.defaultLanguage].join('|');
}

function validatorOf(config: Config, variant: Variant, sources: readonly repo.SourceRow[]): Validator {
  const hash = createHash('sha256').update(fingerprint(config)).update(`|${variant}`);
  let lastModified = 0;
  for (const source of sources) {
    hash.update(`|${source.role}:${source.id}:${source.revision}`);
    lastModified = Math.max(lastModified, source.changed_at);
  }
  return { etag: `"${hash.digest('base64url').slice(0, 27)}"`, lastModified };
}

/**
 * An event's validator: its own revision and those of its series, and of the venue, organizers and terms it shows to
 * this caller (an event never shows a venue or organizer its reader may not read). Undefined when
 * the event does not exist.
 */
export async function eventValidator(
  db: Executor,
  config: Config,
  caller: Caller | null,
  id: number,
  variant: Variant,
): Promise<Validator | undefined> {
  const sources = await repo.eventSources(db, id);
  return sources.some((source) => source.role === 'self')
    ? validatorOfSources(config, caller, sources, variant)
    : undefined;
}

/**
 * The validator of an event as rendered from `bundle` (its rows as one read gave them): the same
 * as eventValidator gives for that state, so that a single read's ETag names exactly the body it
 * comes with, without reading the revisions again.
 */
export function bundleValidator(
  config: Config,
  caller: Caller | null,
  bundle: EventBundle,
  variant: Variant,
): Validator {
  return validatorOfSources(config, caller, bundleSources(bundle), variant);
}

/**
 * `bundleValidator`, and the same made again for later revisions of the event's terms (their counts
 * move with every event written in them) without the bundle: it holds only the sources.
 */
export function termsFollowingValidator(
  config: Config,
  caller: Caller | null,
  bundle: EventBundle,
  variant: Variant,
): { validator: Validator; withTerms: (terms: ReadonlyMap<number, Revised>) => Validator | undefined } {
  const sources = bundleSources(bundle);
  return {
    validator: validatorOfSources(config, caller, sources, variant),
    withTerms: (terms) => {
      const current: repo.SourceRow[] = [];
      for (const source of sources) {
        const term = source.role === 'term' ? terms.get(source.id) : undefined;
        if (source.role === 'term' && !term) return undefined;
        current.push(term ? { ...source, revision: term.revision, changed_at: term.changed_at } : source);
      }
      return validatorOfSources(config, caller, current, variant);
    },
  };
}

function bundleSources(bundle: EventBundle): repo.SourceRow[] {
  const { row } = bundle;
  const source = (role: string, item: SourceItem, position = 0): repo.SourceRow => ({
    role,
    id: item.id,
    revision: item.revision,
    changed_at: item.changed_at,
    status: item.status,
    author_id: item.author_id,
    position,
  });
  const sources = [source('self', row)];
  const { series_id: seriesId, series_revision: revision, series_changed_at: changedAt } = row;
  if (seriesId !== null && revision !== null && changedAt !== null)
    sources.push(source('series', { id: seriesId, revision, changed_at: changedAt, status: 'publish', author_id: 0 }));
  if (bundle.venue) sources.push(source('venue', bundle.venue));
  for (const organizer of bundle.organizers)
    sources.push(source('organizer', organizer, row.organizer_ids.indexOf(organizer.id)));
  const terms = new Map([...bundle.categories, ...bundle.tags].map((term) => [term.id, term]));
  for (const [position, id] of row.term_ids.entries()) {
    const term = terms.get(id);
    if (term) sources.push(source('term', { ...term, status: 'publish', author_id: 0 }, position));
  }
  return sources;
}

/** What a source of an event's validator is read from. */
interface SourceItem {
  id: number;
  revision: number;
  changed_at: number;
  status: string;
  author_id: number;
}

function validatorOfSources(
  config: Config,
  caller: Caller | null,
  sources: readonly repo.SourceRow[],
  variant: Variant,
): Validator {
  const shown = sources
    .filter(
      (source) =>
        source.role === 'self' ||
        source.role === 'series' ||
        source.role === 'term' ||
        canReadPost(caller, { ...source, status_before_trash: null }),
    )
    .sort((a, b) => order(a) - order(b) || a.position - b.position || a.id - b.id);
  return validatorOf(config, variant, shown);
}

const ROLES = ['self', 'series', 'venue', 'organizer', 'term'];
const order = (source: repo.SourceRow) => ROLES.indexOf(source.role);

/** A venue's or organizer's validator; undefined when it does not exist. */
export async function postValidator(
  db: Executor,
  config: Config,
  id: number,
  variant: Variant,
): Promise<Validator | undefined> {
  const source = await repo.postSource(db, id);
  return source && validatorOf(config, variant, [source]);
}

/** A category's or tag's validator; undefined when it does not exist. */
export async function termValidator(
  db: Executor,
  config: Config,
  id: number,
  variant: Variant,
): Promise<Validator | undefined> {
  const source = await repo.termSource(db, id);
  return source && validatorOf(config, variant, [source]);
}

/**
 * A single read's validator, reused until data changes: a repeated conditional read is then
 * answered 304 for the price of the data version check (API.md §21: "without rendering").
 * Undefined also when data changed while it was read: it could then name a newer state than the
 * body rendered under the request's data version, and a client holding the older body would be
 * told later that its copy is current. Such a response goes without validators.
 */
export async function cachedValidator(
  cache: VersionedCache<Validator>,
  ctx: RequestContext,
  key: string,
  compute: () => Promise<Validator | undefined>,
): Promise<Validator | undefined> {
  const version = await ctx.dataVersion();
  const kept = cache.get(key, version);
  if (kept) return kept;
  const validator = await compute();
  if (!validator || (await ctx.freshDataVersion()) !== version) return undefined;
  cache.set(key, version, validator);
  return validator;
}
