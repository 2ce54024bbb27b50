import { callerCan } from '../../auth/caller.js';
import type { Executor } from '../../db/schema.js';
import { ApiError, type ParamProblem } from '../../errors.js';
import { parseArgs } from '../../http/args.js';
import type { RequestContext } from '../../http/context.js';
import { isRecord, parseList, parsePositiveInteger } from '../../domain/params.js';
import { ORGANIZER_KIND, VENUE_KIND, type LinkedKind } from '../linked/linked.kind.js';
import { postTextInput } from '../linked/linked.schemas.js';
import { createLinked, languages, lockLinkedNames, type LinkedWriteInput } from '../linked/linked.service.js';
import { organizerDetails } from '../organizers/organizers.present.js';
import { organizerCreateArgs } from '../organizers/organizers.schemas.js';
import * as termsRepo from '../terms/terms.repository.js';
import { findOrCreateTermByName } from '../terms/terms.service.js';
import type { Taxonomy } from '../terms/taxonomies.js';
import type { EventsState } from './events.state.js';
import { venueDetails } from '../venues/venues.details.js';
import { venueCreateArgs } from '../venues/venues.schemas.js';
import { existingPostIds } from './events.repository.js';

/** A linked venue or organizer as an event write names it: an existing id, or an inline object to create. */
export type LinkedRef = { id: number } | { create: LinkedWriteInput & { name: string } };

/** A term as an event write names it: an existing id, or a name to create. */
export type TermRef = { id: number } | { name: string };

const isEmpty = (raw: unknown) =>
  raw === null || raw === '' || raw === 0 || raw === '0' || raw === false || (Array.isArray(raw) && raw.every(isEmpty));

/** An inline venue or organizer (TEC's arguments, as in an event body), or undefined when invalid. */
export function inlineInput(
  ctx: RequestContext,
  kind: LinkedKind,
  raw: Record<string, unknown>,
): (LinkedWriteInput & { name: string }) | undefined {
  try {
    if (kind.type === 'venue') {
      const args = parseArgs(venueCreateArgs, raw, ctx.parse);
      return { ...postTextInput(args), name: args.venue, details: venueDetails(args, 'create') };
    }
    const args = parseArgs(organizerCreateArgs, raw, ctx.parse);
    return { ...postTextInput(args), name: args.organizer, details: organizerDetails(args) };
  } catch (error) {
    if (error instanceof ApiError) return undefined;
    throw error;
  }
}

/** One venue/organizer entry: an id, `{"id": n}` or an inline object with at least a name (TEC's validator). */
function parseEntry(ctx: RequestContext, kind: LinkedKind, raw: unknown): LinkedRef | undefined {
  const id = parsePositiveInteger(raw);
  if (id !== undefined) return { id };
  if (!isRecord(raw)) return undefined;
  const object = raw;
  if (object.id !== undefined) {
    const objectId = parsePositiveInteger(object.id);
    return objectId !== undefined ? { id: objectId } : undefined;
  }
  const input = inlineInput(ctx, kind, object);
  return input ? { create: input } : undefined;
}

function entriesOf(raw: unknown): unknown[] {
  if (Array.isArray(raw)) return raw;
  if (typeof raw === 'string') return parseList(raw) ?? [];
  return [raw];
}

/**
 * Parses `venue` / `organizer` of an event write; null means "unlink" (venue) or "none"
 * (organizers). Unknown ids and malformed entries are problems naming the parameter (API.md §18).
 */
export async function parseLinked(
  state: EventsState,
  ctx: RequestContext,
  kind: LinkedKind,
  raw: unknown,
  problems: Map<string, ParamProblem>,
): Promise<LinkedRef[] | undefined> {
  const name = kind.nameField;
  if (isEmpty(raw)) return [];
  const entries = entriesOf(raw);
  const refs = entries
    .map((entry) => parseEntry(ctx, kind, entry))
    .filter((ref): ref is LinkedRef => ref !== undefined);
  if (refs.length !== entries.length) {
    problems.set(name, { message: 'invalid_reference', vars: { param: name } });
    return undefined;
  }
  const ids = refs.flatMap((ref) => ('id' in ref ? [ref.id] : []));
  const known = await existingPostIds(state.db, kind.type, ids);
  const unknown = ids.filter((id) => !known.has(id));
  if (unknown.length > 0) {
    problems.set(name, { message: 'unknown_item', vars: { param: name, value: unknown.join(', ') } });
    return undefined;
  }
  return kind.type === 'venue' ? refs.slice(0, 1) : refs;
}

/** Creates the inline entries (with duplicate reuse) inside the write's transaction; returns ids in order. */
export async function materialiseLinked(
  state: EventsState,
  ctx: RequestContext,
  db: Executor,
  kind: LinkedKind,
  refs: LinkedRef[],
): Promise<number[]> {
  const names = refs.flatMap((ref) => ('create' in ref ? [ref.create.name] : []));
  // One inline entry takes its lock only if it is new (createLinked); several take theirs in order.
  if (names.length > 1) await lockLinkedNames(db, kind, names);
  const ids: number[] = [];
  for (const ref of refs) {
    if ('id' in ref) ids.push(ref.id);
    else {
      try {
        ids.push(await createLinked(state.linked, ctx, kind, ref.create, db));
      } catch (error) {
        if (error instanceof ApiError)
          throw new ApiError(kind.type === 'venue' ? 'could-not-create-venue' : 'could-not-create-organizer');
        throw error;
      }
    }
  }
  return ids;
}

/**
 * Categories or tags of an event write: ids or slugs of existing terms, or names of new ones, which
 * only callers who may manage the taxonomy can create (API.md §13, §17).
 */
export async function parseTermRefs(
  state: EventsState,
  ctx: RequestContext,
  taxonomy: Taxonomy,
  values: string[],
  name: string,
  problems: Map<string, ParamProblem>,
): Promise<TermRef[] | undefined> {
  const ids = values.map((v) => parsePositiveInteger(v)).filter((id): id is number => id !== undefined);
  const known = await termsRepo.existingTermIds(state.db, taxonomy.key, ids);
  const slugs = await termsRepo.termIdsBySlugs(
    state.db,
    taxonomy.key,
    values.filter((v) => parsePositiveInteger(v) === undefined),
    languages(state, ctx),
  );
  const refs: TermRef[] = [];
  const unknown: string[] = [];
  for (const value of values) {
    const id = parsePositiveInteger(value);
    if (id !== undefined) {
      if (known.has(id)) refs.push({ id });
      else unknown.push(value);
      continue;
    }
    const bySlug = slugs.get(value);
    if (bySlug !== undefined) refs.push({ id: bySlug });
    else {
      const byName = await termsRepo.findTermIdByName(state.db, taxonomy.key, 0, value.toLowerCase());
      if (byName !== undefined) refs.push({ id: byName });
      else if (callerCan(ctx.caller, taxonomy.manage)) refs.push({ name: value });
      else unknown.push(value);
    }
  }
  if (unknown.length > 0) {
    problems.set(name, { message: 'unknown_term', vars: { value: unknown.join(', ') } });
    return undefined;
  }
  return refs;
}

export async function materialiseTerms(
  ctx: RequestContext,
  db: Executor,
  taxonomy: Taxonomy,
  refs: TermRef[],
): Promise<number[]> {
  const ids: number[] = [];
  for (const ref of refs) ids.push('id' in ref ? ref.id : await findOrCreateTermByName(ctx, db, taxonomy, ref.name));
  return ids;
}

export { ORGANIZER_KIND, VENUE_KIND };
