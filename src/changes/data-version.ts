import { dropOldest } from '../domain/collections.js';
import { sql } from 'kysely';
import type SQLite from 'better-sqlite3';
import type { DatabaseHandle } from '../db/connect.js';
import type { DirectReader } from '../db/direct.js';
import type { Db } from '../db/schema.js';
import type { ChangeKind, EventMove } from './change-set.js';

/**
 * A token that changes whenever data may have changed, in this process or another one. Cached
 * entries remember the token they were computed under and are used only while it is current.
 */
export interface DataVersion {
  current(): Promise<string>;
  /**
   * Called by the write helper (changes/writes.ts) once a write has committed, with what it changed
   * (`changeKey`s) when it knows, without them anything may have changed; and how it moved events
   * in and out of lists, when it knows (ChangeSet.moves).
   */
  bump(changed?: readonly string[], moves?: readonly EventMove[]): Promise<void>;
  /** Whether every change from version `from` to version `to` was made by this process. */
  localSince(from: string, to: string): boolean;
  /** Whether nothing under `keys` changed from version `from` to version `to`: every change between was this process's, and named other keys. */
  unchangedSince(from: string, to: string, keys: readonly string[]): boolean;
  /**
   * The event moves of every change from version `from` to version `to`, one list per write;
   * undefined unless every change between was this process's and said how it moved events.
   */
  movesSince(from: string, to: string): readonly (readonly EventMove[])[] | undefined;
  /** Whether no change from version `from` to version `to` named an item of these kinds (each was this process's, and named what it changed). */
  kindsUnchangedSince(from: string, to: string, kinds: readonly ChangeKind[]): boolean;
}

const CHANGED_KEYS_KEPT = 100_000;
/** Writes whose event moves are kept: an entry older than that many writes is computed again. */
const MOVES_KEPT = 10_000;

/**
 * The latest of this process's own bumps that changed each key, by the bump's sequence number (the
 * versions only grow). A bump that names nothing changed everything. So an entry cached under a
 * version stays good, after this process's writes, until one of them names a key it depends on.
 */
export class ChangeJournal {
  private readonly changedAt = new Map<string, number>();
  private everythingAt = 0;
  /** Per kind, the latest bump that named an item of it. */
  private readonly kindChangedAt = new Map<string, number>();
  /** Per recent bump, how it moved events (null: it did not say). */
  private readonly movesAt = new Map<number, readonly EventMove[] | null>();

  /** On PostgreSQL, concurrent bumps may be recorded out of order: a key keeps its latest sequence. */
  record(sequence: number, changed: readonly string[] | undefined, moves?: readonly EventMove[]): void {
    this.movesAt.set(sequence, moves ?? null);
    if (this.movesAt.size > MOVES_KEPT) dropOldest(this.movesAt);
    if (!changed || this.changedAt.size + changed.length > CHANGED_KEYS_KEPT) {
      // Forgetting keys is safe only if everything before counts as changed.
      let latest = Math.max(this.everythingAt, sequence);
      for (const at of this.changedAt.values()) latest = Math.max(latest, at);
      this.everythingAt = latest;
      this.changedAt.clear();
      return;
    }
    for (const key of changed) {
      this.changedAt.set(key, Math.max(this.changedAt.get(key) ?? 0, sequence));
      const kind = key.slice(0, key.indexOf(':'));
      this.kindChangedAt.set(kind, Math.max(this.kindChangedAt.get(kind) ?? 0, sequence));
    }
  }

  kindsUnchangedAfter(sequence: number, kinds: readonly string[]): boolean {
    return this.everythingAt <= sequence && kinds.every((kind) => (this.kindChangedAt.get(kind) ?? 0) <= sequence);
  }

  /** The moves of each bump after `sequence` up to `upTo`; undefined if one is unknown or forgotten. */
  movesAfter(sequence: number, upTo: number): (readonly EventMove[])[] | undefined {
    if (!(upTo >= sequence) || upTo - sequence > MOVES_KEPT) return undefined;
    const found: (readonly EventMove[])[] = [];
    for (let at = sequence + 1; at <= upTo; at++) {
      const moves = this.movesAt.get(at);
      if (!moves) return undefined;
      found.push(moves);
    }
    return found;
  }

  unchangedAfter(sequence: number, keys: readonly string[]): boolean {
    if (this.everythingAt > sequence) return false;
    for (const key of keys) if ((this.changedAt.get(key) ?? 0) > sequence) return false;
    return true;
  }
}

/**
 * SQLite: this process's write counter plus `PRAGMA data_version`, which changes when another
 * connection (another server process, the CLI) commits. Both are read without touching the disk.
 */
export function sqliteDataVersion(database: SQLite.Database): DataVersion {
  let local = 0;
  const journal = new ChangeJournal();
  // Prepared once: `database.pragma()` would compile the statement on every request.
  const dataVersion = database.prepare('PRAGMA data_version').pluck();
  return {
    current: async () => `${local}:${Number(dataVersion.get())}`,
    bump: async (changed, moves) => {
      local += 1;
      journal.record(local, changed, moves);
    },
    localSince: sameDatabasePart,
    unchangedSince: (from, to, keys) => sameDatabasePart(from, to) && journal.unchangedAfter(localPart(from), keys),
    movesSince: (from, to) =>
      sameDatabasePart(from, to) ? journal.movesAfter(localPart(from), localPart(to)) : undefined,
    kindsUnchangedSince: (from, to, kinds) =>
      sameDatabasePart(from, to) && journal.kindsUnchangedAfter(localPart(from), kinds),
  };
}

/** A SQLite version's write counter: the number before its colon. */
const localPart = (version: string) => parseInt(version, 10);

/**
 * Whether two SQLite versions have the same `data_version` (after the colon): data_version moves
 * only when another connection commits. Compared in place, without splitting: these checks run for
 * every kept entry a request reuses after a write.
 */
function sameDatabasePart(a: string, b: string): boolean {
  const i = a.indexOf(':');
  const j = b.indexOf(':');
  if (a.length - i !== b.length - j) return false;
  for (let k = 1; i + k < a.length; k++) if (a.charCodeAt(i + k) !== b.charCodeAt(j + k)) return false;
  return true;
}

/**
 * Concurrent callers share one read, but only a read that starts after they asked: a read already
 * under way may predate a write they must see, so they join the next one instead.
 */
export function coalesced(read: () => Promise<string>): () => Promise<string> {
  let running: Promise<string> | undefined;
  let queued: Promise<string> | undefined;
  const start = () => {
    running = read().finally(() => {
      running = undefined;
    });
    return running;
  };
  return () => {
    if (!running) return start();
    queued ??= running
      .then(
        () => undefined,
        () => undefined,
      )
      .then(() => {
        queued = undefined;
        return running ?? start();
      });
    return queued;
  };
}

const OWN_VERSIONS_KEPT = 100_000;
const VERSION_QUERY = 'SELECT version FROM cache_state WHERE id = 1';

/**
 * PostgreSQL: a shared counter row, bumped by whichever process writes (migration 0005). Read on
 * `direct` when given (a connection of its own, cheaper than the pool), else, or when that fails,
 * through the pool.
 */
export function postgresDataVersion(db: Db, direct?: DirectReader): DataVersion {
  /** The versions this process's own bumps produced (the newest ones). */
  const own = new Set<number>();
  const journal = new ChangeJournal();
  const localSince = (from: string, to: string) => {
    const [first, last] = [Number(from), Number(to)];
    if (!(last >= first) || last - first > OWN_VERSIONS_KEPT) return false;
    for (let version = first + 1; version <= last; version++) if (!own.has(version)) return false;
    return true;
  };
  const read = async (): Promise<{ version: number }[]> => {
    if (direct) {
      try {
        return await direct.query<{ version: number }>('cache_state_version', VERSION_QUERY);
      } catch {
        // The pool below reports the error if the database is really gone.
      }
    }
    return (await sql.raw<{ version: number }>(VERSION_QUERY).execute(db)).rows;
  };
  return {
    current: coalesced(async () => String((await read())[0]?.version ?? 0)),
    bump: async (changed, moves) => {
      const { rows } = await sql<{
        version: number;
      }>`UPDATE cache_state SET version = version + 1 WHERE id = 1 RETURNING version`.execute(db);
      const version = Number(rows[0]?.version);
      own.add(version);
      if (own.size > OWN_VERSIONS_KEPT) dropOldest(own);
      journal.record(version, changed, moves);
    },
    localSince,
    unchangedSince: (from, to, keys) => localSince(from, to) && journal.unchangedAfter(Number(from), keys),
    movesSince: (from, to) => (localSince(from, to) ? journal.movesAfter(Number(from), Number(to)) : undefined),
    kindsUnchangedSince: (from, to, kinds) => localSince(from, to) && journal.kindsUnchangedAfter(Number(from), kinds),
  };
}

/** The data version of a database: SQLite's own counters, or PostgreSQL's shared row. */
export function dataVersionOf(handle: DatabaseHandle): DataVersion {
  return handle.sqlite ? sqliteDataVersion(handle.sqlite) : postgresDataVersion(handle.db, handle.direct);
}
