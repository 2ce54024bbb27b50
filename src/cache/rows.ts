import type { VersionedCache } from './lru.js';

/**
 * Rows by id that many representations embed (venues, organizers, terms): each is read once per
 * key and reused until a write changes it (`unchanged`: no write between the version it was read
 * under and `version` named it). Without a `version` (inside a write's transaction, which may see
 * data no version names yet) they are always read afresh.
 */
export async function rowsById<R>(
  cache: VersionedCache<R>,
  version: string | undefined,
  keyOf: (id: number) => string,
  ids: readonly number[],
  load: (ids: readonly number[]) => Promise<Map<number, R>>,
  unchanged: (storedUnder: string, id: number) => boolean,
): Promise<Map<number, R>> {
  if (version === undefined) return load(ids);
  const found = new Map<number, R>();
  const missing: number[] = [];
  for (const id of new Set(ids)) {
    const row = cache.get(keyOf(id), version, (storedUnder) => unchanged(storedUnder, id));
    if (row) found.set(id, row);
    else missing.push(id);
  }
  if (missing.length === 0) return found;
  for (const [id, row] of await load(missing)) {
    cache.set(keyOf(id), version, row);
    found.set(id, row);
  }
  return found;
}
