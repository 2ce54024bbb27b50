import type { DateTime } from 'luxon';
import { invalidParam, invalidParams, type ParamProblem } from '../../../errors.js';
import type { RequestContext } from '../../../http/context.js';
import { parsePositiveInteger } from '../../../domain/params.js';
import { languages } from '../../linked/linked.service.js';
import * as posts from '../../posts/posts.repository.js';
import * as termsRepo from '../../terms/terms.repository.js';
import { CATEGORIES, TAGS, type Taxonomy } from '../../terms/taxonomies.js';
import { existingPostIds } from '../events.repository.js';
import * as repo from './listing.repository.js';
import { parseSearchTerms } from '../search/search-terms.js';
import type { EventsState } from '../events.state.js';
import type { EventListInput } from './input.js';
import type { EffectiveBounds } from './window.js';

const instant = (dt: DateTime | undefined) => (dt ? Math.floor(dt.toSeconds()) : undefined);

/**
 * Term filters: slugs or ids of existing terms (else 400); a category brings its descendants.
 * Resolved once per distinct list of references and language until a term is written (events
 * written in it move only its count).
 */
async function termFilter(
  state: EventsState,
  ctx: RequestContext,
  taxonomy: Taxonomy,
  refs: string[],
  name: string,
  problems: Map<string, ParamProblem>,
): Promise<number[]> {
  const key = `terms|${taxonomy.key}|${ctx.lang}|${JSON.stringify(refs)}`;
  const version = await ctx.dataVersion();
  const cached = state.termFilters.get(key, version, (storedUnder) =>
    state.versions.kindsUnchangedSince(storedUnder, version, ['taxonomy']),
  );
  if (cached) return cached;
  const ids = await resolveTerms(state, ctx, taxonomy, refs, name, problems);
  if (!problems.has(name)) state.termFilters.set(key, version, ids);
  return ids;
}

async function resolveTerms(
  state: EventsState,
  ctx: RequestContext,
  taxonomy: Taxonomy,
  refs: string[],
  name: string,
  problems: Map<string, ParamProblem>,
): Promise<number[]> {
  const ids = refs.map((r) => parsePositiveInteger(r)).filter((id): id is number => id !== undefined);
  const known = await termsRepo.existingTermIds(state.db, taxonomy.key, ids);
  const bySlug = await termsRepo.termIdsBySlugs(
    state.db,
    taxonomy.key,
    refs.filter((r) => parsePositiveInteger(r) === undefined),
    languages(state, ctx),
  );
  const resolved: number[] = [];
  const unknown: string[] = [];
  for (const ref of refs) {
    const id = parsePositiveInteger(ref) ?? bySlug.get(ref);
    if (id !== undefined && (bySlug.has(ref) || known.has(id))) resolved.push(id);
    else unknown.push(ref);
  }
  if (unknown.length > 0) problems.set(name, { message: 'unknown_term', vars: { value: unknown.join(', ') } });
  if (!taxonomy.hierarchical) return resolved;
  const tree = await termsRepo.slugPaths(state.db, taxonomy.key);
  const withDescendants = new Set(resolved);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [id, node] of tree) {
      if (!withDescendants.has(id) && withDescendants.has(node.parent)) {
        withDescendants.add(id);
        grew = true;
      }
    }
  }
  return [...withDescendants];
}

async function postsFilter(
  state: EventsState,
  type: string,
  ids: number[] | undefined,
  name: string,
  problems: Map<string, ParamProblem>,
): Promise<void> {
  if (!ids) return;
  const known = await existingPostIds(state.db, type, ids);
  const unknown = ids.filter((id) => !known.has(id));
  if (unknown.length > 0)
    problems.set(name, { message: 'unknown_item', vars: { param: name, value: unknown.join(', ') } });
}

/** `orderby` and `order` (API.md §21); the default order is left undefined (the lists' fast paths know it). */
function orderOf(input: EventListInput): repo.EventFilter['order'] {
  if (input.orderby === undefined) return undefined;
  const desc = input.order === 'desc';
  return input.orderby === 'start' && !desc ? undefined : { by: input.orderby, desc };
}

export async function buildFilter(
  state: EventsState,
  ctx: RequestContext,
  input: EventListInput,
  bounds: EffectiveBounds,
): Promise<repo.EventFilter> {
  if ((input.geoloc_lat == null) !== (input.geoloc_lng == null)) {
    throw invalidParam(input.geoloc_lat == null ? 'geoloc_lat' : 'geoloc_lng', { message: 'geoloc_pair' });
  }
  const problems = new Map<string, ParamProblem>();
  const categoryIds = input.categories
    ? await termFilter(state, ctx, CATEGORIES, input.categories, 'categories', problems)
    : undefined;
  const tagIds = input.tags ? await termFilter(state, ctx, TAGS, input.tags, 'tags', problems) : undefined;
  await postsFilter(state, 'venue', input.venue, 'venue', problems);
  await postsFilter(state, 'organizer', input.organizer, 'organizer', problems);
  if (input.post_parent !== undefined && (await posts.postType(state.db, input.post_parent)) !== 'event') {
    problems.set('post_parent', { message: 'unknown_event', vars: { value: input.post_parent } });
  }
  if (problems.size > 0) throw invalidParams(problems);
  return {
    caller: ctx.caller,
    statuses: input.status,
    startMin: instant(bounds.start_date),
    endMax: instant(bounds.end_date),
    startBefore: instant(bounds.starts_before),
    startAfter: instant(bounds.starts_after),
    endBefore: instant(bounds.ends_before),
    endAfter: instant(bounds.ends_after),
    search: input.search !== undefined ? parseSearchTerms(input.search) : undefined,
    password: input.password,
    categoryIds,
    tagIds,
    ...(input.context === 'edit' ? { includeHidden: true } : {}),
    venueIds: input.venue,
    organizerIds: input.organizer,
    featured: input.featured,
    parentId: input.post_parent,
    include: input.include,
    collapse: input.expand ? undefined : true,
    geoloc: input.geoloc === true ? true : undefined,
    near:
      input.geoloc_lat != null && input.geoloc_lng != null
        ? { lat: input.geoloc_lat, lng: input.geoloc_lng, radiusKm: input.geoloc_radius ?? 25 }
        : undefined,
    modifiedMin: instant(input.modified_after),
    modifiedBefore: instant(input.modified_before),
    order: orderOf(input),
  };
}
