import type { DataVersion } from '../changes/data-version.js';
import type { Validator } from '../http/conditional.js';

/** What caches hold besides rows and ids: rendered bytes, and whole responses. */

/** What an item contributes to the validators of the items that embed it. */
export interface Revised {
  readonly revision: number;
  readonly changed_at: number;
}

/** A response to an anonymous read, with every header it is sent with again (content length and `X-Calendar-Cache: hit` included). */
export interface CachedResponse {
  headers: Record<string, string>;
  body: Buffer;
  /** The route pattern it answered (the `route` label of metrics, plugins/metrics.ts). */
  route: string;
  /** Whether it is still the response at a newer version, when its handler could say: else it is kept for its own version only. */
  keptOver?: KeptOver;
}

/**
 * Whether a response kept under the data version `storedUnder` is still the one to send at
 * `version`: the versions' journal tells what this process's writes between changed and moved.
 */
export type KeptOver = (versions: DataVersion, storedUnder: string, version: string) => boolean;

/**
 * An item's rendered representation, kept as UTF-8 bytes so that a list is assembled by copying
 * bytes, without encoding the whole body again on every response. An event's JSON is kept in
 * parts: its own bytes, and the venue, organizer and term bytes it shares with other events (held
 * once, by reference; an occurrence's description too, with its series), so the cache holds about
 * twice as many events in the same memory.
 */
export interface Fragment {
  json: readonly Buffer[];
  /** The memory this fragment alone holds (its own parts and bookkeeping), which the cache budgets. */
  bytes: number;
  /** What decides whether a reader sees a protected item blanked (events only). */
  lock?: { password: string; author_id: number; status: string; status_before_trash: string | null };
  /** The blanked representation of a protected item, for readers who have not unlocked it. */
  blanked?: Buffer;
  /** A single read's validator (API.md §21), made from the rows the fragment was rendered from. */
  validator?: Validator;
  /** A single read's validator made again for the current revisions of its terms (slots). */
  revalidated?: (terms: ReadonlyMap<number, Revised>) => Validator | undefined;
  /** The last one made, for these revisions of its terms, checked under this data version. */
  lastValidator?: { version: string; revisions: string; validator: Validator };
  /** An embedded term's revision and change time, which the validators of the events showing it are made of. */
  revised?: Revised;
  /** What it was rendered from (`changeKey`s): after this process's writes, it is reused until one of them names one of these. */
  depends?: readonly string[];
  /**
   * Parts that hold a shared item rendered on its own (an event's terms), filled with that item's
   * current bytes on every use: `at` in `json`, after `open`. A term's count moves with every event
   * written in it, and events that embedded its bytes had all been rendered again.
   */
  slots?: readonly { at: number; open: Buffer; kind: string; id: number }[];
  /**
   * The parts with their slots filled, the terms' bytes they were filled with, and the data version
   * they were last found current under (looked at once per version, made again when a term's bytes moved).
   */
  filled?: { version: string; parts: readonly Buffer[]; terms: readonly Buffer[] };
}

/** What a cache entry costs besides its bytes (key, entry, arrays), counted so the budget is honest. */
export const ENTRY_OVERHEAD = 512;

/** Bytes of a string in a buffer of their own: a slice of Node's shared pool would keep the whole 8 KB slab alive. */
export function ownBuffer(text: string): Buffer {
  const buffer = Buffer.allocUnsafeSlow(Buffer.byteLength(text));
  buffer.write(text);
  return buffer;
}

/** Bytes of strings kept together (parts of one fragment), as views of one buffer of their own. */
export function ownBuffers(texts: readonly string[]): Buffer[] {
  const lengths = texts.map((text) => Buffer.byteLength(text));
  const buffer = Buffer.allocUnsafeSlow(lengths.reduce((sum, length) => sum + length, 0));
  let offset = 0;
  return texts.map((text, i) => {
    buffer.write(text, offset);
    offset += lengths[i];
    return buffer.subarray(offset - lengths[i], offset);
  });
}
