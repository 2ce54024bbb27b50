import type { Caller } from '../../auth/caller.js';
import type { Executor } from '../../db/schema.js';
import { findPostBase } from './posts.repository.js';
import { canReadPost } from './posts.rules.js';

/**
 * Whether `id` names an event the caller may read: list filters by event (`event=`, `post=`)
 * treat any other id as unknown (API.md §18), so they reveal nothing of unreadable events.
 */
export async function isReadableEvent(db: Executor, caller: Caller | null, id: number): Promise<boolean> {
  const post = await findPostBase(db, id);
  return post?.type === 'event' && canReadPost(caller, post);
}
