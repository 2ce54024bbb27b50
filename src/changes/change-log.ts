import type { Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import type { ChangeSet, ItemChange, ReadState } from './change-set.js';
import * as repo from './change-log.repository.js';

/** A change as committed with its write: its number in the feed and its time. */
export interface LoggedChange extends ItemChange {
  readonly seq: number;
  readonly atMs: number;
}

const POST_TYPES: readonly string[] = ['event', 'venue', 'organizer'];

/** The posts and terms a write changed: those it names for caches and those it reports. */
function touched(changes: ChangeSet): { posts: number[]; terms: number[] } {
  const posts = new Set<number>();
  const terms = new Set<number>();
  for (const key of changes.keys ?? []) {
    const [kind, id] = key.split(':');
    (kind === 'term' ? terms : posts).add(Number(id));
  }
  for (const item of changes.items) (POST_TYPES.includes(item.type) ? posts : terms).add(item.id);
  return { posts: [...posts], terms: [...terms] };
}

const PUBLIC: ReadState = { status: 'publish', author_id: 0 };

/**
 * Writes what a write changed into its own transaction, just before it commits (changes/writes.ts):
 * the revisions behind ETags, and one change-feed row per item change (API.md §21.1). Numbers are
 * reserved last, so the lock that orders commits is held for the shortest time.
 */
export async function logChanges(
  trx: Transaction<Database>,
  changes: ChangeSet,
  nowMs: number,
): Promise<LoggedChange[]> {
  const now = Math.floor(nowMs / 1000);
  const { posts, terms } = touched(changes);
  await repo.bumpRevisions(trx, posts, terms, now);
  const items = changes.items;
  await repo.bumpDescendantRevisions(
    trx,
    items.filter((item) => item.type === 'category' && item.action !== 'created').map((item) => item.id),
    now,
  );
  await repo.touchTerms(
    trx,
    items.filter((item) => !POST_TYPES.includes(item.type) && item.action !== 'deleted').map((item) => item.id),
    now,
  );
  if (items.length === 0) return [];
  const after = await repo.readStates(
    trx,
    items.filter((item) => POST_TYPES.includes(item.type)).map((item) => item.id),
  );
  const last = await repo.reservePositions(trx, items.length);
  const logged = items.map((item, index) => ({ ...item, seq: last - items.length + 1 + index, atMs: nowMs }));
  await repo.insertChanges(
    trx,
    logged.map((change) => {
      const isPost = POST_TYPES.includes(change.type);
      const stateAfter = change.action === 'deleted' ? undefined : isPost ? after.get(change.id) : PUBLIC;
      // An update that did not record a state before left who may read the item unchanged.
      const stateBefore = change.before === undefined ? stateAfter : (change.before ?? undefined);
      return {
        seq: change.seq,
        item_type: change.type,
        item_id: change.id,
        action: change.action,
        changed_at_ms: nowMs,
        before_status: stateBefore?.status ?? null,
        before_author: stateBefore?.author_id ?? null,
        after_status: stateAfter?.status ?? null,
        after_author: stateAfter?.author_id ?? null,
      };
    }),
  );
  return logged;
}
