import { callerCan, type Caller } from '../../auth/caller.js';

/**
 * Readers who see the same lists and representations (drafts, embedded items, protected text):
 * anonymous callers and subscribers alike, editors alike, any other user on their own.
 */
export function viewerKey(caller: Caller | null): string {
  if (!caller || !callerCan(caller, 'create_posts')) return 'public';
  if (callerCan(caller, 'read_others_private_posts')) return 'all';
  return `u${caller.userId}`;
}
