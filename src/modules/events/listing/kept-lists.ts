import type { EventMove } from '../../../changes/change-set.js';
import type { EventFilter } from './listing.repository.js';
import { decides, mayList } from './matches.js';

/**
 * An event list in order as kept between requests: its first `ids` (all of them unless a long
 * search or a `head`) of `total`. Ids are kept in a typed array: the garbage collector skips its
 * contents, whereas it visits every element of a JavaScript array in each full collection (measured in
 * docs/performance-log.md, "Figures moved from code comments"). `keys`, the start keys beside the
 * ids, are kept for the lists that writes patch in place (`patchable`).
 */
export interface KeptList {
  ids: Int32Array | Float64Array;
  total: number;
  keys?: Float64Array;
  /**
   * Only the first ids of a list too long to keep whole, in a filter writes patch: `total` is the
   * count when it was read, and the count kept beside it (countOnce) is the one to answer with.
   */
  head?: true;
}

/** The ids a typed array has room for. */
const capacity = (values: Int32Array | Float64Array) =>
  (values.buffer.byteLength - values.byteOffset) / values.BYTES_PER_ELEMENT;

/** A kept list's size for the cache's budget, in ids (a start key counts as two), with the room its arrays keep. */
export const keptSize = (list: KeptList) => capacity(list.ids) + 2 * (list.keys ? capacity(list.keys) : 0);

/** Whether `list` holds every id of its filter. */
export const isWhole = (list: KeptList) => !list.head && list.ids.length === list.total;

/** A whole kept list with its start keys: what writes patch. */
export type PatchableList = KeptList & { keys: Float64Array };

const INT32_MAX = 2 ** 31 - 1;

/** Ids as the smallest typed array that holds them exactly. */
export function idArray(ids: ArrayLike<number>): Int32Array | Float64Array {
  return Array.prototype.every.call(ids, (id: number) => id <= INT32_MAX)
    ? Int32Array.from(ids)
    : Float64Array.from(ids);
}

/**
 * Lists a write's moves can be applied to in place: every event they may hold is decided in
 * memory (matches.ts) and they are in start order. A create in a site's default window had made
 * every kept page of it be read again in SQL, a page at a time (issue "reads while editors write").
 */
export const patchable = (filter: EventFilter) =>
  decides(filter) && filter.include === undefined && filter.order === undefined;

/**
 * The list with the moved event where its state after the move puts it: taken out wherever it
 * was, put back in start order if the filter selects it. Idempotent, so a list read after the
 * write had committed (stamped with an older version) comes out the same. A head stays the first
 * ids of the list: an event that goes after its last one is left out, and one taken out shortens it.
 *
 * The arrays are changed in place, within room kept behind their last values: a copy of a site's
 * default window per create (about 800 KB at 100,000 events) made V8 collect its whole heap every
 * few creates (docs/performance-log.md). So the list passed in must not be read after this call,
 * only the one returned; readers copy their page out before they next wait (accelerated.ts).
 */
export function patched(list: PatchableList, filter: EventFilter, move: EventMove): PatchableList {
  const key = move.after && mayList(filter, move.id, move.after) ? move.after.start_key : undefined;
  const at = list.ids.indexOf(move.id);
  if (at < 0 && key === undefined) return list;
  if (at >= 0 && key === list.keys[at]) return list;
  let { ids, keys } = list;
  if (at >= 0) {
    ids = removed(ids, at);
    keys = removed(keys, at);
  }
  if (key !== undefined) {
    const to = insertionPoint(ids, keys, key, move.id);
    if (!list.head || to < ids.length) {
      ids = inserted(ids instanceof Int32Array && move.id > INT32_MAX ? Float64Array.from(ids) : ids, to, move.id);
      keys = inserted(keys, to, key);
    }
  }
  return list.head ? { ...list, ids, keys } : { ids, keys, total: ids.length };
}

type Typed = Int32Array | Float64Array;

/** `values` without the value at `at`, moved down in place. */
function removed<T extends Typed>(values: T, at: number): T {
  values.copyWithin(at, at + 1);
  return values.subarray(0, values.length - 1) as T;
}

/** `values` with `value` at `at`: in place when there is room behind them, else in a new array with room to spare. */
function inserted<T extends Typed>(values: T, at: number, value: number): T {
  const Typed = values.constructor as new (buffer: ArrayBuffer, offset: number, length: number) => T;
  const { buffer, byteOffset, length, BYTES_PER_ELEMENT: size } = values;
  let out: T;
  if (capacity(values) > length) {
    out = new Typed(buffer as ArrayBuffer, byteOffset, length + 1);
    out.copyWithin(at + 1, at, length);
  } else {
    out = new Typed(new ArrayBuffer((length + 1 + spareFor(length)) * size), 0, length + 1);
    out.set(values.subarray(0, at));
    out.set(values.subarray(at), at + 1);
  }
  out[at] = value;
  return out;
}

/** Room made for a list of `length` when it outgrows its arrays: an eighth more, so that they are seldom made again. */
const spareFor = (length: number) => 64 + (length >> 3);

/** Where (key, id) goes among ids ordered by (start key, id). */
function insertionPoint(ids: Typed, keys: Float64Array, key: number, id: number): number {
  let low = 0;
  let high = ids.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (keys[middle] < key || (keys[middle] === key && ids[middle] < id)) low = middle + 1;
    else high = middle;
  }
  return low;
}
