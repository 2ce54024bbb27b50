import type { DateTime } from 'luxon';
import { callerCan } from '../../auth/caller.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { Executor } from '../../db/schema.js';
import { forbidden, invalidParam } from '../../errors.js';
import type { RequestContext } from '../../http/context.js';
import { lockUntilCommit } from '../../db/locks.js';
import { slugCandidate, slugStem, toSlug } from '../../domain/slugs.js';
import { resolveImage } from '../images/images.js';
import { sanitizeHtml } from '../../domain/html.js';
import {
  slugTaken,
  takenSlugs,
  uniqueTrashedSlug,
  type PostBase,
  type PostChanges,
  type TranslatedPostFields,
} from './posts.repository.js';
import { scaleStatus, scheduleStatus, untrashedSlug, type PostStatus } from './posts.rules.js';

/** Rules every post write shares (events, venues, organizers). */

/** Setting another user as author needs the right to edit others' posts. */
export function requireAuthorChange(ctx: RequestContext, author: number | undefined): void {
  if (author !== undefined && author !== ctx.caller?.userId && !callerCan(ctx.caller, 'edit_others_posts'))
    throw forbidden(true);
}

/** Candidates checked per query once the first is taken: one query for all but long series. */
const SLUG_WINDOW = 50;

/**
 * The first free slug of `base`, `base-2`, … for the type. After the first, candidates are checked
 * fifty at a time: one query each made the thousandth event of a weekly series titled alike cost a
 * thousand queries. `db` must be the write's transaction: writers whose candidates could meet wait
 * for each other until commit (a lock on the slug's stem), so each sees the slugs the previous
 * one took, and fifty creates of one title take the first fifty slugs. Serialising is cheaper than
 * retrying here: on a unique violation PostgreSQL aborts the whole transaction, so every retry
 * would redo the write, n writers of one title needing up to n runs each. `attempt` (withSlugRetry)
 * skips candidates when a unique violation happened anyway (a slug written without the lock, by
 * the CLI's seed beside a running server).
 */
export async function uniqueSlug(
  db: Executor,
  type: string,
  base: string,
  exceptId: number | undefined,
  attempt = 0,
): Promise<string> {
  if (base === '') return '';
  await lockUntilCommit(db, `slug|${type}|${slugStem(base)}`);
  const first = slugCandidate(base, 1 + attempt);
  if (!(await slugTaken(db, type, first, exceptId))) return first;
  for (let next = 2 + attempt; ; next += SLUG_WINDOW) {
    const candidates = Array.from({ length: SLUG_WINDOW }, (_, i) => slugCandidate(base, next + i));
    const taken = await takenSlugs(db, type, candidates, exceptId);
    const free = candidates.find((candidate) => !taken.has(candidate));
    if (free !== undefined) return free;
  }
}

/** Runs a write again when a concurrent writer took the same slug (the unique index decides). */
export async function withSlugRetry<T>(write: (attempt: number) => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await write(attempt);
    } catch (error) {
      if (!isUniqueViolation(error) || attempt >= 5) throw error;
    }
  }
}

/** The image id of an `image` parameter (creating the record of a URL), or a 400 naming `image`. */
export async function imageIdOf(ctx: RequestContext, db: Executor, raw: unknown): Promise<number | null> {
  const outcome = await resolveImage(ctx, db, raw);
  if (!outcome.ok) throw invalidParam('image', outcome.problem);
  return outcome.imageId;
}

/** The publication instant a write asks for: `date` (site zone) or `date_utc`. */
export function publicationInstant(input: { date?: DateTime; date_utc?: DateTime }): number | undefined {
  const date = input.date ?? input.date_utc;
  return date ? Math.floor(date.toSeconds()) : undefined;
}

/**
 * The slug after an update (API.md §3, §13): renamed on request, generated on first publication,
 * suffixed in the trash (uniquely), restored without the suffix.
 */
export async function nextSlug(
  db: Executor,
  post: PostBase,
  status: string,
  input: { slug?: string; name?: string },
  attempt: number,
): Promise<string> {
  let base = untrashedSlug(post.slug);
  if (input.slug !== undefined) base = toSlug(input.slug);
  else if (base === '' && status !== 'draft' && status !== 'pending') {
    base = toSlug(
      input.name ??
        (await db.selectFrom('posts').select('title').where('id', '=', post.id).executeTakeFirstOrThrow()).title,
    );
  }
  if (status === 'trash')
    return post.status === 'trash' && input.slug === undefined
      ? post.slug
      : uniqueTrashedSlug(db, post.type, base, post.id);
  if (base === post.slug && attempt === 0) return base;
  return uniqueSlug(db, post.type, base, post.id, attempt);
}

export interface PostUpdate {
  changes: PostChanges;
  /** The status after the update: the stored one unless the input sets another. */
  status: string;
  /** The sent translatable text, stored in the posts row or as the request language's translation. */
  translated: TranslatedPostFields;
  inOriginal: boolean;
}

/**
 * The post-level part of a partial update (API.md §13): only sent fields change; the status only
 * when sent, scaled by role and scheduled by date; text goes to the request language.
 */
export function planPostUpdate(
  ctx: RequestContext,
  post: PostBase,
  input: {
    date?: DateTime;
    date_utc?: DateTime;
    status?: PostStatus;
    author?: number;
    title?: string;
    description?: string;
    excerpt?: string;
  },
): PostUpdate {
  const now = Math.floor(ctx.now.toSeconds());
  const changes: PostChanges = { modified_at: now };
  const publishedAt = publicationInstant(input);
  if (publishedAt !== undefined) changes.published_at = publishedAt;
  let status = post.status;
  if (input.status !== undefined)
    status = scheduleStatus(scaleStatus(ctx.caller, input.status), publishedAt ?? post.published_at, now);
  if (status !== post.status) changes.status = status;
  if (input.author !== undefined) changes.author_id = input.author;
  const translated: TranslatedPostFields = {};
  if (input.title !== undefined) translated.title = input.title;
  if (input.description !== undefined) translated.description = sanitizeHtml(input.description);
  if (input.excerpt !== undefined) translated.excerpt = sanitizeHtml(input.excerpt);
  const inOriginal = post.lang === ctx.lang;
  if (inOriginal) Object.assign(changes, translated);
  return { changes, status, translated, inOriginal };
}
