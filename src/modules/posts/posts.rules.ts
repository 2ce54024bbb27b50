import type { Caller } from '../../auth/caller.js';
import { callerCan } from '../../auth/caller.js';

/** Post statuses (API.md §3); anything else is a 400. */
export const STATUSES = ['publish', 'future', 'draft', 'pending', 'private', 'trash'] as const;
export type PostStatus = (typeof STATUSES)[number];

export function isStatus(value: string): value is PostStatus {
  return STATUSES.some((status) => status === value);
}

/** Statuses that count as published for the edit rules (WordPress: publish and future). */
const PUBLISHED: readonly string[] = ['publish', 'future'];

export interface OwnedPost {
  readonly author_id: number;
  readonly status: string;
  /** For a trashed post, its status before (WordPress decides edits of it by that status). */
  readonly status_before_trash: string | null;
}

function owns(caller: Caller, post: OwnedPost): boolean {
  return post.author_id === caller.userId;
}

/** Read access to one post (API.md §4, §14): published for all; otherwise editors or the author. */
export function canReadPost(caller: Caller | null, post: OwnedPost): boolean {
  if (post.status === 'publish') return true;
  if (!caller) return false;
  return callerCan(caller, 'read_others_private_posts') || (owns(caller, post) && callerCan(caller, 'create_posts'));
}

/** Edit and delete rights on one post (API.md §4): contributors only their own unpublished posts. */
export function canEditPost(caller: Caller | null, post: OwnedPost): boolean {
  if (!caller) return false;
  if (callerCan(caller, 'edit_others_posts')) return true;
  if (!owns(caller, post)) return false;
  const status = post.status === 'trash' ? post.status_before_trash : post.status;
  return status !== null && PUBLISHED.includes(status)
    ? callerCan(caller, 'edit_own_published_posts')
    : callerCan(caller, 'edit_own_posts');
}

/**
 * The status a write may set (TEC `scale_back_post_status`, API.md §4): publishers get what they
 * ask (publish when nothing); others get `pending` instead of publish/future/private, `draft` by default.
 */
export function scaleStatus(caller: Caller | null, requested: PostStatus | undefined): PostStatus {
  if (callerCan(caller, 'publish_posts')) return requested ?? 'publish';
  if (requested === undefined) return 'draft';
  return requested === 'publish' || requested === 'future' || requested === 'private' ? 'pending' : requested;
}

/** Publishing with a future date schedules the post, and a past date publishes a scheduled one (WordPress). */
export function scheduleStatus(status: PostStatus, publishedAt: number, now: number): PostStatus {
  if (status === 'publish' && publishedAt > now) return 'future';
  if (status === 'future' && publishedAt <= now) return 'publish';
  return status;
}

export const TRASH_SUFFIX = '__trashed';

const TRASHED = /__trashed(-\d+)?$/;

/** `slug__trashed` (TEC), or `slug__trashed-2`… when another trashed item already has it. */
export function trashedSlug(slug: string, attempt = 1): string {
  if (slug === '') return slug;
  const base = `${untrashedSlug(slug)}${TRASH_SUFFIX}`;
  return attempt <= 1 ? base : `${base}-${attempt}`;
}

export function untrashedSlug(slug: string): string {
  return slug.replace(TRASHED, '');
}
