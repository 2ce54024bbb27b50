import type { Fragment } from '../../../cache/entries.js';
import type { Config } from '../../../config.js';
import type { Validator } from '../../../http/conditional.js';
import type { RequestContext } from '../../../http/context.js';
import { compileSerializer } from '../../../http/json.js';
import { ImageSchema } from '../../images/images.js';
import { languages } from '../../linked/linked.service.js';
import { OrganizerSchema } from '../../organizers/organizers.schemas.js';
import { canEditPost } from '../../posts/posts.rules.js';
import { EmbeddedTermSchema } from '../../terms/terms.schemas.js';
import { VenueSchema } from '../../venues/venues.schemas.js';
import { presentEvent, type EventBundle } from '../events.present.js';
import { findEvents, type EventRow } from '../events.repository.js';
import { CostDetailsSchema, DateDetailsSchema, EventSchema } from '../events.schemas.js';
import { loadBundles } from '../events.service.js';
import type { EventsState } from '../events.state.js';

/**
 * What a rendering was made from, as `changeKey`s (changes/change-set.ts), for a response to be kept
 * over writes that change none of them. `unknown`: the rendering could not tell (the plain one).
 */
export interface RenderedFrom {
  keys: string[];
  unknown?: true;
}

/**
 * How events become response bytes: the plain way (plain.ts: the presenter and the response
 * schema's serializer) or from kept fragments (fragments.ts). Chosen once, at start-up (events.module.ts).
 */
export interface EventRendering {
  /**
   * Events as lists show them (without JSON-LD), as UTF-8 JSON parts in the order of `ids` (missing
   * ones left out); `password`: the one the reader sent, which unlocks a protected event; `from`:
   * where to add what they were made from.
   */
  render(
    ctx: RequestContext,
    ids: readonly number[],
    password: string | undefined,
    from?: RenderedFrom,
  ): Promise<(readonly Buffer[])[]>;
  /**
   * One event as a single read shows it (with JSON-LD), and its validator (API.md §21) made from
   * the rows the body was rendered from; undefined when it does not exist. `knownRows`: rows the
   * caller has already read, in the request's language; `from` as for `render`.
   */
  single(
    ctx: RequestContext,
    id: number,
    password: string | undefined,
    knownRows?: readonly EventRow[],
    from?: RenderedFrom,
  ): Promise<{ json: Buffer; validator: Validator } | undefined>;
}

const eventSerializer = compileSerializer(EventSchema, [
  ImageSchema,
  DateDetailsSchema,
  CostDetailsSchema,
  VenueSchema,
  OrganizerSchema,
  EmbeddedTermSchema,
]);

/** An event's whole representation as JSON (API.md §8), by its response schema. */
export function serializeEvent(
  config: Config,
  ctx: RequestContext,
  bundle: EventBundle,
  options: { jsonLd: boolean; blanked: boolean },
): string {
  return eventSerializer(presentEvent(config, ctx, bundle, options));
}

/** Whether a protected event shows blanked to this reader: no matching password, no right to edit it. */
export function isLocked(
  ctx: RequestContext,
  lock: NonNullable<Fragment['lock']>,
  password: string | undefined,
): boolean {
  return lock.password !== '' && lock.password !== password && !canEditPost(ctx.caller, lock);
}

/** The bundles of `ids`, taking the rows already read from `knownRows`. */
export async function readBundles(
  state: EventsState,
  ctx: RequestContext,
  ids: readonly number[],
  knownRows: readonly EventRow[] = [],
): Promise<EventBundle[]> {
  const known = knownRows.filter((row) => ids.includes(row.id));
  const unread = ids.filter((id) => !known.some((row) => row.id === id));
  return loadBundles(state, ctx, [...known, ...(await findEvents(state.db, unread, languages(state, ctx)))]);
}
