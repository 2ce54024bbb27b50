import { sql } from 'kysely';
import type SQLite from 'better-sqlite3';
import type { DatabaseHandle } from '../db/connect.js';
import type { DirectReader } from '../db/direct.js';
import type { Db } from '../db/schema.js';

/**
 * A token that changes whenever data may have changed, in this process or another one. Cached
 * entries remember the token they were computed under and are used only while it is current.
 */
export interface DataVersion {
  current(): Promise<string>;
  /** Called after every write request, before its response leaves. */
  bump(): Promise<void>;
  /** Whether every change from version `from` to version `to` was made by this process. */
  localSince(from: string, to: string): boolean;
}

/**
 * SQLite: this process's write counter plus `PRAGMA data_version`, which changes when another
 * connection (another server process, the CLI) commits. Both are read without touching the disk.
 */
export function sqliteDataVersion(database: SQLite.Database): DataVersion {
  let local = 0;
  // Prepared once: `database.pragma()` would compile the statement on every request.
  const dataVersion = database.prepare('PRAGMA data_version').pluck();
  return {
    current: async () => `${local}:${dataVersion.get() as number}`,
    bump: async () => {
      local += 1;
    },
    // data_version moves only when another connection commits.
    localSince: (from, to) => from.split(':')[1] === to.split(':')[1],
  };
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
    bump: async () => {
      const { rows } = await sql<{ version: number }>`UPDATE cache_state SET version = version + 1 WHERE id = 1 RETURNING version`.execute(db);
      own.add(Number(rows[0]?.version));
      if (own.size > OWN_VERSIONS_KEPT) own.delete(own.values().next().value as number);
    },
    localSince: (from, to) => {
      const [first, last] = [Number(from), Number(to)];
      if (!(last >= first) || last - first > OWN_VERSIONS_KEPT) return false;
      for (let version = first + 1; version <= last; version++) if (!own.has(version)) return false;
      return true;
    },
  };
}

/** The data version of a database: SQLite's own counters, or PostgreSQL's shared row. */
export function dataVersionOf(handle: DatabaseHandle): DataVersion {
  return handle.sqlite ? sqliteDataVersion(handle.sqlite) : postgresDataVersion(handle.db, handle.direct);
}
