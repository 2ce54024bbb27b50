/** Drops the first-inserted entry of a Map or Set: insertion order makes them simple FIFO caches. */
export function dropOldest(collection: Map<unknown, unknown> | Set<unknown>): void {
  const oldest = collection.keys().next();
  if (!oldest.done) collection.delete(oldest.value);
}
