import { dropOldest } from '../domain/collections.js';
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { DirectReader } from './direct.js';
import { OffThreadReader } from './off-thread.js';
import type { Database } from './schema.js';

export type Dialect = 'sqlite' | 'postgres';

export interface DatabaseHandle {
  readonly db: Kysely<Database>;
  readonly dialect: Dialect;
  /** The SQLite connection itself (changes/data-version reads `PRAGMA data_version` from it). */
  readonly sqlite?: SQLite.Database;
  /** SQLite files: long reads that can run on a worker thread (search/candidates.ts word sets). */
  readonly offThread?: OffThreadReader;
  /** PostgreSQL: a connection of its own for the data version read of every request (changes/data-version.ts). */
  readonly direct?: DirectReader;
  /** Connections in use and idle, and queries waiting for one (`/metrics`, API.md §25.4). */
  poolStats(): PoolStats;
  close(): Promise<void>;
}

export interface PoolStats {
  readonly idle: number;
  readonly busy: number;
  readonly waiting: number;
}

// BIGINT columns hold ids and Unix seconds, far below 2^53: read them as numbers, not strings.
pg.types.setTypeParser(20, (value) => Number(value));

export function dialectOf(url: string): Dialect {
  return url.startsWith('sqlite:') ? 'sqlite' : 'postgres';
}

function openSqlite(path: string): SQLite.Database {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const database = new SQLite(path);
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = NORMAL');
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  // SQLite's built-in lower() folds ASCII only; PostgreSQL's folds all of Unicode. One definition
  // for both keeps case-insensitive search identical on the two dialects.
  database.function('lower', { deterministic: true }, (value: unknown) =>
    typeof value === 'string' ? value.toLowerCase() : value,
  );
  database.function(
    'calendar_distance_km',
    { deterministic: true },
    (lat1: unknown, lng1: unknown, lat2: unknown, lng2: unknown) =>
      typeof lat1 === 'number' && typeof lng1 === 'number' && typeof lat2 === 'number' && typeof lng2 === 'number'
        ? distanceKm(lat1, lng1, lat2, lng2)
        : null,
  );
  return database;
}

/** Haversine great-circle distance in km; the same formula as PostgreSQL's calendar_distance_km (migration 0002). */
export function distanceKm(lat1: number, lng1: number, lat2: number, lng2: number): number {
  const rad = Math.PI / 180;
  const a =
    Math.sin(((lat2 - lat1) * rad) / 2) ** 2 +
    Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(((lng2 - lng1) * rad) / 2) ** 2;
  return 2 * 6371 * Math.asin(Math.sqrt(a));
}

/** What Kysely's SQLite driver uses of a prepared statement. */
type DriverStatement = Pick<SQLite.Statement, 'reader' | 'all' | 'iterate' | 'run'>;

/**
 * A reading statement whose rows are read as arrays and made objects here. better-sqlite3 builds
 * each row object key by key in native code, which cost more than the read itself for wide rows
 * such as an event's. Same objects: a repeated column name keeps its last
 * value, as better-sqlite3 does.
 */
function objectRows(statement: SQLite.Statement): DriverStatement {
  if (!statement.reader) return statement;
  const names = statement.columns().map((column) => column.name);
  statement.raw(true);
  const toObject = (values: unknown[]) => {
    const row: Record<string, unknown> = {};
    for (let i = 0; i < names.length; i++) row[names[i]] = values[i];
    return row;
  };
  const rows: DriverStatement = {
    reader: true,
    all: (...params: unknown[]) => (statement.all(...params) as unknown[][]).map(toObject),
    *iterate(...params: unknown[]) {
      for (const values of statement.iterate(...params) as IterableIterator<unknown[]>) yield toObject(values);
    },
    run: (...params: unknown[]) => statement.run(...params),
  };
  return rows;
}

/**
 * Kysely prepares every SQLite statement anew; better-sqlite3 statements are reusable, so the
 * connection hands out one prepared statement per distinct SQL text (bounded).
 */
function withStatementCache(database: SQLite.Database, limit = 500): SQLite.Database {
  const statements = new Map<string, DriverStatement>();
  const prepare = (source: string) => {
    let statement = statements.get(source);
    if (!statement) {
      statement = objectRows(database.prepare(source));
      if (statements.size >= limit) dropOldest(statements);
      statements.set(source, statement);
    }
    return statement;
  };
  return new Proxy(database, {
    get: (target, key): unknown => (key === 'prepare' ? prepare : Reflect.get(target, key, target)),
  });
}

/**
 * Kysely sends unnamed statements to PostgreSQL, which plans each one again; naming them by their
 * SQL text lets every pooled connection prepare a statement once and reuse it.
 */
function withNamedStatements(pool: pg.Pool): pg.Pool {
  const names = new Map<string, string>();
  const nameOf = (text: string) => {
    let name = names.get(text);
    if (!name) {
      name = `s${createHash('sha1').update(text).digest('hex').slice(0, 16)}`;
      if (names.size < 2000) names.set(text, name);
    }
    return name;
  };
  const connect = async () => {
    const client = await pool.connect();
    const query = client.query.bind(client) as (config: unknown, values?: unknown) => Promise<unknown>;
    return Object.assign(Object.create(client) as pg.PoolClient, {
      query: (text: unknown, values?: unknown[]) =>
        typeof text === 'string' && values !== undefined
          ? query({ name: nameOf(text), text, values })
          : query(text, values),
      release: (error?: Error | boolean) => client.release(error),
    });
  };
  return Object.assign(Object.create(pool) as pg.Pool, { connect, end: () => pool.end() });
}

export function connect(url: string): DatabaseHandle {
  const dialect = dialectOf(url);
  if (dialect === 'sqlite') {
    const path = url.slice('sqlite:'.length);
    const sqlite = openSqlite(path);
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
    const offThread = path === ':memory:' ? undefined : new OffThreadReader(path);
    return {
      db,
      dialect,
      sqlite,
      offThread,
      // One connection; Kysely queues queries behind an open transaction, and that queue is not
      // visible, so `waiting` stays 0 and `busy` says whether a transaction is open.
      poolStats: () => ({ idle: sqlite.inTransaction ? 0 : 1, busy: sqlite.inTransaction ? 1 : 0, waiting: 0 }),
      close: async () => Promise.all([db.destroy(), offThread?.close()]).then(() => undefined),
    };
  }
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // An idle client killed by the server (restart, failover, DROP DATABASE) is discarded by the pool;
  // without a listener its 'error' event would crash the process.
  pool.on('error', () => undefined);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: withNamedStatements(pool) }) });
  const direct = new DirectReader(url);
  return {
    db,
    dialect,
    direct,
    poolStats: () => ({
      idle: pool.idleCount,
      busy: pool.totalCount - pool.idleCount,
      waiting: pool.waitingCount,
    }),
    close: async () => Promise.all([db.destroy(), direct.close()]).then(() => undefined),
  };
}
