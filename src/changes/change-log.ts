import type { Transaction } from 'kysely';
import type { Database } from '../db/schema.js';
import type { ChangeSet, ItemChange, ReadState } from './change-set.js';
import * as repo from './change-log.repository.js';

/** A change as committed with its write, at the write's time. */
export interface LoggedChange extends ItemChange {
  readonly atMs: number;
}

/** What a write will append to the change feed (appendChanges), once its other work is done. */
export interface PreparedChanges {
  readonly changes: readonly LoggedChange[];
  readonly rows: readonly Omit<repo.ChangeRow, 'seq'>[];
}

const POST_TYPES: readonly string[] = ['event', 'venue', 'organizer'];

/** The posts and terms a write changed: those it names for caches and those it reports. */
function touched(changes: ChangeSet): { posts: number[]; terms: number[] } {
  const posts = new Set<number>();
  const terms = new Set<number>();
  for (const key of changes.keys ?? []) {
    const [kind, id] = key.split(':');
    if (kind !== 'taxonomy') (kind === 'term' ? terms : posts).add(Number(id));
  }
  for (const item of changes.items) (POST_TYPES.includes(item.type) ? posts : terms).add(item.id);
  return { posts: [...posts], terms: [...terms] };
}

const PUBLIC: ReadState = { status: 'publish', author_id: 0 };

/**
 * Writes what a write changed into its own transaction, before it commits (changes/writes.ts): the
 * revisions behind ETags, and the change-feed rows to append (API.md §21.1), which appendChanges
 * numbers last of all, so that the lock ordering commits is held for the shortest time.
 */
export async function prepareChanges(
  trx: Transaction<Database>,
  changes: ChangeSet,
  nowMs: number,
): Promise<PreparedChanges> {
  const now = Math.floor(nowMs / 1000);
  const { posts, terms } = touched(changes);
  // Every post among the items is among those touched: their revision bump tells who may read them.
  const after = await repo.bumpRevisions(trx, posts, terms, now);
  const items = changes.items;
  const descendants = await repo.bumpDescendantRevisions(
    trx,
    items.filter((item) => item.type === 'category' && item.action !== 'created').map((item) => item.id),
    now,
  );
  // Named like the terms written: what was read with their revisions (an event's ETag) is not reused past them.
  changes.add('term', ...descendants);
  await repo.touchTerms(
    trx,
    items.filter((item) => !POST_TYPES.includes(item.type) && item.action !== 'deleted').map((item) => item.id),
    now,
  );
  if (items.length === 0) return { changes: [], rows: [] };
  const rows = items.map((change) => {
    const isPost = POST_TYPES.includes(change.type);
    const stateAfter = change.action === 'deleted' ? undefined : isPost ? after.get(change.id) : PUBLIC;
    // An update that did not record a state before left who may read the item unchanged.
    const stateBefore = change.before === undefined ? stateAfter : (change.before ?? undefined);
    return {
      item_type: change.type,
      item_id: change.id,
      action: change.action,
      changed_at_ms: nowMs,
      before_status: stateBefore?.status ?? null,
      before_author: stateBefore?.author_id ?? null,
      after_status: stateAfter?.status ?? null,
      after_author: stateAfter?.author_id ?? null,
    };
  });
  return { changes: items.map((item) => ({ ...item, atMs: nowMs })), rows };
}

/**
 * Numbers the prepared rows and appends them: the last statements of the write, because reserving
 * the numbers locks the row every writer bumps until the transaction ends (commit order).
 */
export async function appendChanges(trx: Transaction<Database>, prepared: PreparedChanges): Promise<void> {
  const { rows } = prepared;
  if (rows.length === 0) return;
  const last = await repo.reservePositions(trx, rows.length);
  await repo.insertChanges(
    trx,
    rows.map((row, index) => ({ ...row, seq: last - rows.length + 1 + index })),
  );
}
