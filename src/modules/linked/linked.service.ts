import { requireCurrent } from '../../http/conditional.js';
import { postValidator } from '../sync/validators.js';
import { changeKey, type ChangeSet } from '../../changes/change-set.js';
import { changeSetOf } from '../../changes/writes.js';
import type { DateTime } from 'luxon';
import { callerCan } from '../../auth/caller.js';
import { lockUntilCommit } from '../../db/locks.js';
import type { Executor } from '../../db/schema.js';
import { ApiError, forbidden, invalidParam, invalidParams, type ParamProblem } from '../../errors.js';
import type { RequestContext } from '../../http/context.js';
import { sanitizeHtml } from '../../domain/html.js';
import { toSlug } from '../../domain/slugs.js';
import * as posts from '../posts/posts.repository.js';
import {
  imageIdOf,
  nextSlug,
  planPostUpdate,
  publicationInstant,
  requireAuthorChange,
  uniqueSlug,
  withSlugRetry,
} from '../posts/posts.writes.js';
import { canEditPost, canReadPost, scaleStatus, scheduleStatus, type PostStatus } from '../posts/posts.rules.js';
import { rowsById } from '../../cache/rows.js';
import type { LinkedKind } from './linked.kind.js';
import * as repo from './linked.repository.js';
import { viewerKey } from '../posts/posts.viewer.js';
import { isReadableEvent } from '../posts/posts.access.js';
import type { LinkedModule } from './linked.module.js';
import type { Config } from '../../config.js';

import type { PostRef } from '../posts/posts.ref.js';
import type { ArgsInput } from '../../http/args.js';
import type { LinkedListArgs } from './linked.schemas.js';

export interface LinkedWriteInput {
  name?: string;
  description?: string;
  excerpt?: string;
  slug?: string;
  status?: PostStatus;
  author?: number;
  date?: DateTime;
  date_utc?: DateTime;
  image?: unknown;
  details: repo.LinkedDetails;
}

export type LinkedListInput = ArgsInput<LinkedListArgs>;

/** The request's language and the site's default, which translations fall back on (any module's configuration). */
export function languages(module: { readonly config: Config }, ctx: RequestContext): repo.Languages {
  return { lang: ctx.lang, defaultLang: module.config.defaultLanguage };
}

const seconds = (ctx: RequestContext) => Math.floor(ctx.now.toSeconds());

/** Venues or organizers by id, as embedded in many events: reused until data changes (cache/rows.ts). */
export async function linkedRowsById(
  linked: LinkedModule,
  ctx: RequestContext,
  kind: LinkedKind,
  ids: readonly number[],
  db: Executor = linked.db,
): Promise<Map<number, repo.LinkedRow>> {
  const version = db === linked.db ? await ctx.dataVersion() : undefined;
  return rowsById(
    linked.state.rows,
    version,
    (id) => `${kind.type}|${id}|${ctx.lang}`,
    ids,
    (missing) => repo.findLinkedMany(db, kind, missing, languages(linked, ctx)),
    (storedUnder, id) =>
      version !== undefined && linked.version.unchangedSince(storedUnder, version, [changeKey(kind.type, id)]),
  );
}

export function searchWords(search: string): string[] {
  return search
    .toLowerCase()
    .split(/[^\p{L}\p{N}-]+/u)
    .filter((word) => word !== '');
}

export async function listLinked(
  linked: LinkedModule,
  ctx: RequestContext,
  kind: LinkedKind,
  input: LinkedListInput,
): Promise<{ ids: number[]; total: number; looksAtEvents: boolean }> {
  if (input.event !== undefined && !(await isReadableEvent(linked.db, ctx.caller, input.event))) {
    throw invalidParam('event', { message: 'unknown_event', vars: { value: input.event } });
  }
  const filter: repo.LinkedFilter = {
    caller: ctx.caller,
    statuses: input.status,
    words: input.search !== undefined ? searchWords(input.search) : undefined,
    eventId: input.event,
    hasEvents: input.has_events,
    upcomingSince: input.only_with_upcoming ? seconds(ctx) : undefined,
    modifiedMin: input.modified_after && Math.floor(input.modified_after.toSeconds()),
    modifiedBefore: input.modified_before && Math.floor(input.modified_before.toSeconds()),
  };
  const total = await countOnce(linked, ctx, kind, filter);
  const offset = (input.page - 1) * input.per_page;
  const ids =
    total <= WHOLE_LIST_LIMIT
      ? (await wholeList(linked, ctx, kind, filter, total)).slice(offset, offset + input.per_page)
      : await repo.listLinkedIds(linked.db, kind, filter, languages(linked, ctx), input.per_page, offset);
  if (ids.length === 0 && input.page > 1) throw new ApiError(kind.errors.pageNotFound);
  return { ids, total, looksAtEvents: looksAtEvents(filter) };
}

/** Venues and organizers are few: up to this many, a filter's whole ordered list is kept and pages are slices. */
const WHOLE_LIST_LIMIT = 10_000;

function filterKey(ctx: RequestContext, kind: LinkedKind, filter: repo.LinkedFilter): string {
  const { caller, ...rest } = filter;
  return `${kind.type}|${viewerKey(caller)}|${ctx.lang}|${JSON.stringify(rest)}`;
}

/**
 * A kept total or list of venues or organizers outlives this process's writes that named none of
 * them (an event's title, dates or terms), unless its filter looks at events.
 */
function keptOver<V>(linked: LinkedModule, kind: LinkedKind, filter: repo.LinkedFilter, version: string) {
  return (storedUnder: string, value: V): V | undefined =>
    !looksAtEvents(filter) && linked.version.kindsUnchangedSince(storedUnder, version, [kind.type]) ? value : undefined;
}

const looksAtEvents = (filter: repo.LinkedFilter) =>
  filter.eventId !== undefined || filter.hasEvents !== undefined || filter.upcomingSince !== undefined;

/** `total` counted once per distinct filter and reader until a write changes it (as for events). */
async function countOnce(
  linked: LinkedModule,
  ctx: RequestContext,
  kind: LinkedKind,
  filter: repo.LinkedFilter,
): Promise<number> {
  const key = filterKey(ctx, kind, filter);
  const version = await ctx.dataVersion();
  return (
    linked.state.counts.carried(key, version, keptOver(linked, kind, filter, version)) ??
    linked.state.counts.computed(key, version, () => repo.countLinked(linked.db, kind, filter, languages(linked, ctx)))
  );
}

async function wholeList(
  linked: LinkedModule,
  ctx: RequestContext,
  kind: LinkedKind,
  filter: repo.LinkedFilter,
  total: number,
): Promise<number[]> {
  const key = `list|${filterKey(ctx, kind, filter)}`;
  const version = await ctx.dataVersion();
  return (
    linked.state.lists.carried(key, version, keptOver(linked, kind, filter, version)) ??
    linked.state.lists.computed(key, version, () =>
      repo.listLinkedIds(linked.db, kind, filter, languages(linked, ctx), total, 0),
    )
  );
}

/** The stored post behind a reference, or the kind's 404 (API.md §5: TEC's 400 is a 404 here). */
export async function resolvePost(
  linked: LinkedModule,
  kind: LinkedKind,
  ref: PostRef,
  db: Executor = linked.db,
): Promise<posts.PostBase> {
  const id = 'id' in ref ? ref.id : await posts.findPostIdBySlug(db, kind.type, ref.slug);
  const post = id !== undefined ? await posts.findPostBase(db, id) : undefined;
  if (!post || post.type !== kind.type) throw new ApiError(kind.errors.notFound);
  return post;
}

/** Single read (API.md §14): unknown → 404, not readable → 403. */
export async function readLinked(
  linked: LinkedModule,
  ctx: RequestContext,
  kind: LinkedKind,
  ref: PostRef,
): Promise<repo.LinkedRow> {
  const post = await resolvePost(linked, kind, ref);
  if (!canReadPost(ctx.caller, post)) throw new ApiError(kind.errors.notAccessible, { status: 403 });
  const row = await repo.findLinked(linked.db, kind, post.id, languages(linked, ctx));
  if (!row) throw new ApiError(kind.errors.notFound);
  return row;
}

export async function loadLinked(
  linked: LinkedModule,
  ctx: RequestContext,
  kind: LinkedKind,
  id: number,
): Promise<repo.LinkedRow> {
  const row = await repo.findLinked(linked.db, kind, id, languages(linked, ctx));
  if (!row) throw new ApiError(kind.errors.notFound);
  return row;
}

/** Checks that need the database but change nothing; all problems are reported together. */
async function validateWrite(input: LinkedWriteInput, db: Executor): Promise<void> {
  const problems = new Map<string, ParamProblem>();
  if (input.author !== undefined && !(await posts.userExists(db, input.author))) {
    problems.set('author', { message: 'unknown_user', vars: { value: input.author } });
  }
  if (problems.size > 0) throw invalidParams(problems);
}

/**
 * Makes concurrent creates of a venue or organizer name (case-insensitive) wait for each other until
 * commit (see createLinked). A write creating several takes their locks here first, in one order for
 * all writers: two events naming the same two new organizers in opposite orders would otherwise
 * each hold one lock and wait for the other (a deadlock, which PostgreSQL breaks after a second).
 */
export async function lockLinkedNames(trx: Executor, kind: LinkedKind, names: readonly string[]): Promise<void> {
  for (const name of [...new Set(names.map((n) => n.toLowerCase()))].sort())
    await lockUntilCommit(trx, `name|${kind.type}|${name}`);
}

/**
 * Creates a venue or organizer (API.md §13), or returns an existing one with the same name (and
 * description, if sent) that the caller can see: TEC's duplicate reuse. Nothing is written onto the
 * reused item, so a create can never alter somebody else's venue. The rule holds under concurrent
 * creates: inside the transaction, writers of one name (case-insensitive) wait for each other
 * before they look again for a duplicate, so the second finds the first's. Most duplicates are
 * found by the first look, without a write or a lock.
 */
export async function createLinked(
  linked: LinkedModule,
  ctx: RequestContext,
  kind: LinkedKind,
  input: LinkedWriteInput & { name: string },
  db: Executor = linked.db,
): Promise<number> {
  await validateWrite(input, db);
  if (!callerCan(ctx.caller, 'create_posts')) throw forbidden(ctx.caller !== null);
  requireAuthorChange(ctx, input.author);
  const description = input.description !== undefined ? sanitizeHtml(input.description) : undefined;
  const duplicateIn = (executor: Executor) => repo.findDuplicate(executor, kind, input.name, description, ctx.caller);
  const duplicate = await duplicateIn(db);
  if (duplicate !== undefined) return duplicate;
  const now = seconds(ctx);
  const publishedAt = publicationInstant(input) ?? now;
  const status = scheduleStatus(scaleStatus(ctx.caller, input.status), publishedAt, now);
  const keepsEmptySlug = input.slug === undefined && (status === 'draft' || status === 'pending');
  const baseSlug = keepsEmptySlug ? '' : toSlug(input.slug ?? input.name);
  const write = async (trx: Executor, attempt: number) => {
    await lockLinkedNames(trx, kind, [input.name]);
    const created = await duplicateIn(trx);
    if (created !== undefined) return created;
    const id = await posts.insertPost(trx, {
      type: kind.type,
      author_id: input.author ?? ctx.caller?.userId ?? 0,
      status,
      slug: await uniqueSlug(trx, kind.type, baseSlug, undefined, attempt),
      title: input.name,
      description: description ?? '',
      excerpt: input.excerpt !== undefined ? sanitizeHtml(input.excerpt) : '',
      password: '',
      lang: ctx.lang,
      parent_id: 0,
      image_id: input.image !== undefined ? await imageIdOf(ctx, trx, input.image) : null,
      published_at: publishedAt,
      modified_at: now,
    });
    await repo.insertDetails(trx, kind, id, input.details);
    // Also when created inline by an event write, in that write's transaction (API.md §21.1).
    changeSetOf(trx)?.created(kind.type, id);
    return id;
  };
  return withSlugRetry((attempt) => (db === linked.db ? ctx.write((trx) => write(trx, attempt)) : write(db, attempt)));
}

/**
 * Partial update (API.md §13): only sent fields change; status only when sent, scaled by role. The
 * checks run first on the post as read; the write plans again from the post as locked in its
 * transaction, so that a concurrent update's fields are kept (posts.lockPostBase).
 */
export async function updateLinked(
  linked: LinkedModule,
  ctx: RequestContext,
  kind: LinkedKind,
  ref: PostRef,
  input: LinkedWriteInput,
): Promise<number> {
  const post = await resolvePost(linked, kind, ref);
  await validateWrite(input, linked.db);
  if (!canEditPost(ctx.caller, post)) throw forbidden(ctx.caller !== null);
  requireAuthorChange(ctx, input.author);

  await withSlugRetry((attempt) =>
    ctx.write(async (trx, changeSet) => {
      const current = await posts.lockPostBase(trx, post.id);
      if (!current) throw new ApiError(kind.errors.notFound);
      if (!canEditPost(ctx.caller, current)) throw forbidden(ctx.caller !== null);
      await requireCurrent(ctx.conditions, () => postValidator(trx, linked.config, post.id, 'view'));
      const { changes, status, translated, inOriginal } = planPostUpdate(ctx, current, { ...input, title: input.name });
      const slug = await nextSlug(trx, current, status, input, attempt);
      if (slug !== current.slug) changes.slug = slug;
      if (input.image !== undefined) changes.image_id = await imageIdOf(ctx, trx, input.image);
      await posts.updatePost(trx, post.id, changes);
      if (!inOriginal) await posts.upsertPostTranslation(trx, post.id, ctx.lang, translated);
      await repo.updateDetails(trx, kind, post.id, input.details);
      changeSet.updated(kind.type, post.id, current);
      if (status === 'trash' && current.status !== 'trash') await unlinkEvents(trx, changeSet, kind, post.id, ctx);
    }),
  );
  return post.id;
}

/** Unlinks the item from its events, each of which changes (API.md §21.1: links removed by trashing). */
async function unlinkEvents(
  trx: Executor,
  changes: ChangeSet,
  kind: LinkedKind,
  id: number,
  ctx: RequestContext,
): Promise<void> {
  for (const eventId of await repo.unlinkFromEvents(trx, kind, id, seconds(ctx))) changes.updated('event', eventId);
}

/**
 * DELETE (API.md §13): to the trash with `__trashed` on the slug and links to events removed; a
 * second delete is 410; `force=true` deletes permanently (editors and administrators). Returns the
 * item's last state.
 */
export async function deleteLinked(
  linked: LinkedModule,
  ctx: RequestContext,
  kind: LinkedKind,
  ref: PostRef,
  force: boolean,
): Promise<repo.LinkedRow> {
  const post = await resolvePost(linked, kind, ref);
  if (!canEditPost(ctx.caller, post) || (force && !callerCan(ctx.caller, 'delete_permanently')))
    throw forbidden(ctx.caller !== null);
  if (force) {
    const last = await loadLinked(linked, ctx, kind, post.id);
    await ctx.write(async (trx, changes) => {
      await requireCurrent(ctx.conditions, () => postValidator(trx, linked.config, post.id, 'view'));
      await unlinkEvents(trx, changes, kind, post.id, ctx);
      await posts.deletePost(trx, post.id);
      changes.deleted(kind.type, post.id, post);
    });
    return last;
  }
  if (post.status === 'trash') throw new ApiError(kind.errors.inTrash);
  await ctx.write(async (trx, changes) => {
    // Of two concurrent deletes, the second finds the item trashed (410); a concurrent rename is kept.
    const current = await posts.lockPostBase(trx, post.id);
    if (!current) throw new ApiError(kind.errors.notFound);
    if (current.status === 'trash') throw new ApiError(kind.errors.inTrash);
    await requireCurrent(ctx.conditions, () => postValidator(trx, linked.config, post.id, 'view'));
    await posts.updatePost(trx, post.id, {
      status: 'trash',
      slug: await posts.uniqueTrashedSlug(trx, kind.type, current.slug, post.id),
      modified_at: seconds(ctx),
    });
    changes.updated(kind.type, post.id, current);
    await unlinkEvents(trx, changes, kind, post.id, ctx);
  });
  return loadLinked(linked, ctx, kind, post.id);
}
