import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import pg from 'pg';
import { connect, type DatabaseHandle, type Dialect } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';

const PG_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

let postgresAvailable: Promise<boolean> | undefined;

async function connectOnce(): Promise<void> {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 10_000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function probePostgres(): Promise<boolean> {
  // A busy two-core machine can be slow to accept the first connection: retry before giving up.
  for (let attempt = 1; ; attempt++) {
    try {
      await connectOnce();
      return true;
    } catch (error) {
      if (attempt < 3) continue;
      return unreachable(error);
    }
  }
}

function unreachable(error: unknown): boolean {
  if (process.env.CI || process.env.REQUIRE_POSTGRES === '1') {
    throw new Error(`PostgreSQL is required here but unreachable at ${PG_ADMIN_URL}: ${(error as Error).message}`);
  }
  process.stderr.write(
    `\n*** PostgreSQL unreachable at ${PG_ADMIN_URL}: PostgreSQL tests are SKIPPED on this machine. ***\n\n`,
  );
  return false;
}

/** The dialects every storage test runs on: SQLite always, PostgreSQL when reachable (required in CI). */
export async function testDialects(): Promise<Dialect[]> {
  postgresAvailable ??= probePostgres();
  return (await postgresAvailable) ? ['sqlite', 'postgres'] : ['sqlite'];
}

export interface TestDatabase {
  readonly url: string;
  drop(): Promise<void>;
}

/** A fresh, empty database: a temporary SQLite file, or a new PostgreSQL database dropped afterwards. */
export async function createTestDatabase(dialect: Dialect): Promise<TestDatabase> {
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'calendar-test-'));
    return {
      url: `sqlite:${join(dir, 'calendar.db')}`,
      drop: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  const name = `calendar_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: PG_ADMIN_URL });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}

/**
 * A fresh database of `dialect`, migrated and connected before the suite's tests and dropped after
 * them (call inside `describe`); `handle()` is the open connection.
 */
export function useMigratedDatabase(dialect: Dialect): { handle(): DatabaseHandle } {
  let database: TestDatabase | undefined;
  let handle: DatabaseHandle | undefined;
  before(async () => {
    database = await createTestDatabase(dialect);
    handle = connect(database.url);
    await migrateToLatest(handle.db, handle.dialect);
  });
  after(async () => {
    await handle?.close();
    await database?.drop();
  });
  return {
    handle: () => {
      if (!handle) throw new Error('the database opens before the first test of the suite');
      return handle;
    },
  };
}
