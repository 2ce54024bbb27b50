import type { Executor } from '../db/schema.js';
import type { RequestContext } from '../http/context.js';
import type { VersionedCache } from './lru.js';

/**
 * Rows by id that many representations embed (venues, organizers, terms): each is read once per
 * key and reused until data changes. Inside a write's transaction (`db` is not the request's
 * handle) they are always read afresh, since the transaction may see data no version names yet.
 */
export async function rowsById<R>(
  ctx: RequestContext,
  cache: VersionedCache<R>,
  keyOf: (id: number) => string,
  ids: readonly number[],
  db: Executor,
  load: (db: Executor, ids: readonly number[]) => Promise<Map<number, R>>,
): Promise<Map<number, R>> {
  if (db !== ctx.db) return load(db, ids);
  const version = await ctx.dataVersion();
  const found = new Map<number, R>();
  const missing: number[] = [];
  for (const id of new Set(ids)) {
    const row = cache.get(keyOf(id), version);
    if (row) found.set(id, row);
    else missing.push(id);
  }
  if (missing.length === 0) return found;
  for (const [id, row] of await load(db, missing)) {
    cache.set(keyOf(id), version, row);
    found.set(id, row);
  }
  return found;
}
