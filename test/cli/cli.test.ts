import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { connect, type DatabaseHandle } from '../../src/db/connect.js';
import { authenticate } from '../../src/modules/users/users.service.js';
import { createTestDatabase, testDialects, type TestDatabase } from '../helpers/databases.js';

/** SQLite's statistics after a seed: per-index averages, but no value samples (db/dialect.ts). */
async function assertPlannerAveragesWithoutSamples(url: string): Promise<void> {
  const handle = connect(url);
  try {
    const { sqlite } = handle;
    assert.ok(sqlite, 'a SQLite database');
    const count = (table: string) => sqlite.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number };
    assert.ok(count('sqlite_stat1').n > 0);
    assert.equal(count('sqlite_stat4').n, 0);
  } finally {
    await handle.close();
  }
}

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const PASSWORD = /^[A-Za-z0-9]{16,}$/;

interface CliResult {
  status: number | null;
  stdout: string;
  stderr: string;
  lines: string[];
}

/** Runs the real CLI in a child process against `url` (each spawn costs ~0.5 s: keep them few). */
function cli(url: string, ...args: string[]): CliResult {
  return cliWithEnv({}, url, ...args);
}

function cliWithEnv(env: Record<string, string>, url: string, ...args: string[]): CliResult {
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: url, LOG_LEVEL: 'silent', ...env },
    encoding: 'utf8',
  });
  const lines = result.stdout.split('\n').filter((line) => line !== '');
  return { status: result.status, stdout: result.stdout, stderr: result.stderr, lines };
}

function lastLine(result: CliResult): string {
  return result.lines[result.lines.length - 1] ?? '';
}

function assertFailed(result: CliResult, code: number, stderr: RegExp): void {
  assert.equal(result.status, code, result.stderr);
  assert.match(result.stderr, stderr);
  assert.match(result.stderr, /^error: /);
  assert.equal(result.stdout, '');
}

describe('cli usage', () => {
  const url = 'sqlite::memory:';

  it('help prints the usage on stdout and exits 0', () => {
    const result = cli(url, 'help');
    assert.equal(result.status, 0, result.stderr);
    for (const command of [
      'migrate',
      'user:create',
      'user:list',
      'user:role',
      'user:delete',
      'app-password:create',
      'app-password:list',
      'app-password:revoke',
    ]) {
      assert.ok(result.stdout.includes(command), command);
    }
  });

  it('an unknown command exits 2 with the usage on stderr', () => {
    const result = cli(url, 'user:frobnicate');
    assertFailed(result, 2, /unknown command "user:frobnicate"/);
    assert.match(result.stderr, /app-password:create <login> \[--name <label>\]/);
  });

  it('user:create without --role is a usage error', () => {
    assertFailed(cli(url, 'user:create', 'nobody'), 2, /missing --role/);
  });
});

for (const dialect of await testDialects()) {
  describe(`cli [${dialect}]`, () => {
    let database: TestDatabase;
    let handle: DatabaseHandle;
    let url: string;
    let first: string;
    let second: string;

    before(async () => {
      database = await createTestDatabase(dialect);
      url = database.url;
      handle = connect(url);
    });
    after(async () => {
      await handle?.close();
      await database?.drop();
    });

    it('user:create prints the password alone on the last line, and it authenticates', async () => {
      const result = cli(url, 'user:create', 'alice', '--role', 'editor');
      assert.equal(result.status, 0, result.stderr);
      assert.ok(result.lines.length >= 2, result.stdout);
      first = lastLine(result);
      assert.match(first, PASSWORD);
      assert.ok(!result.lines.slice(0, -1).some((line) => line.includes(first)), 'password printed only once');
      const caller = await authenticate(handle.db, 'alice', first);
      assert.equal(caller?.login, 'alice');
      assert.equal(caller?.role, 'editor');
      assert.equal(await authenticate(handle.db, 'bob', first), undefined);
    });

    it('user:create with a taken login fails on stderr and prints no password', () => {
      assertFailed(cli(url, 'user:create', 'alice', '--role', 'author'), 1, /already exists/);
    });

    it('user:create with an unknown role fails', () => {
      assertFailed(cli(url, 'user:create', 'bob', '--role', 'wizard'), 1, /unknown role "wizard"/);
    });

    it('app-password:create --name prints a new working password on the last line', async () => {
      const result = cli(url, 'app-password:create', 'alice', '--name', 'my laptop');
      assert.equal(result.status, 0, result.stderr);
      second = lastLine(result);
      assert.match(second, PASSWORD);
      assert.notEqual(second, first);
      assert.equal((await authenticate(handle.db, 'alice', second))?.login, 'alice');
    });

    it('app-password:list shows it and app-password:revoke stops it working', async () => {
      const list = cli(url, 'app-password:list', 'alice');
      assert.equal(list.status, 0, list.stderr);
      assert.equal(list.lines.length, 2, list.stdout);
      const laptop = list.lines.find((line) => / {2}my laptop {2}/.test(line));
      assert.ok(laptop, list.stdout);
      assert.match(laptop, /^\d+ {2}my laptop {2}\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      assert.ok(!list.stdout.includes(first) && !list.stdout.includes(second), 'no password in the list');

      const revoke = cli(url, 'app-password:revoke', 'alice', laptop.split(' ')[0]);
      assert.equal(revoke.status, 0, revoke.stderr);
      assert.equal(await authenticate(handle.db, 'alice', second), undefined);
      assert.equal((await authenticate(handle.db, 'alice', first))?.login, 'alice');
    });

    it('user:role changes the role, shown by user:list', async () => {
      const result = cli(url, 'user:role', 'alice', 'author');
      assert.equal(result.status, 0, result.stderr);
      assert.equal((await authenticate(handle.db, 'alice', first))?.role, 'author');
      const list = cli(url, 'user:list');
      assert.equal(list.status, 0, list.stderr);
      assert.equal(list.lines.length, 1, list.stdout);
      assert.match(list.lines[0], /^\d+ {2}alice {2}author$/);
    });

    it('user:delete removes the user and its passwords', async () => {
      const result = cli(url, 'user:delete', 'alice');
      assert.equal(result.status, 0, result.stderr);
      assert.equal(await authenticate(handle.db, 'alice', first), undefined);
      assert.deepEqual(await handle.db.selectFrom('users').select('login').execute(), []);
    });
  });
}

/**
 * A server caches the credentials it has found and the lists it has counted: what the CLI changes
 * from its own process must still show on the very next request.
 */
for (const dialect of await testDialects()) {
  describe(`a running server sees the cli's changes at once [${dialect}]`, () => {
    let database: TestDatabase;
    let app: FastifyInstance;
    const basic = (password: string) => `Basic ${Buffer.from(`alice:${password}`).toString('base64')}`;
    const listAs = async (password: string) =>
      (await app.inject({ url: '/calendar/events/v1/events', headers: { authorization: basic(password) } })).statusCode;
    const createAs = async (password: string) =>
      (
        await app.inject({
          method: 'POST',
          url: '/calendar/events/v1/events',
          headers: { authorization: basic(password) },
          payload: { title: 'By alice', start_date: '2026-12-01 18:00', end_date: '2026-12-01 20:00' },
        })
      ).statusCode;
    const total = async () =>
      (await app.inject({ url: '/calendar/events/v1/events' })).json().total as number | undefined;

    before(async () => {
      database = await createTestDatabase(dialect);
      app = await buildApp(loadConfig({ DATABASE_URL: database.url, LOG_LEVEL: 'silent' }), { logger: false });
    });
    after(async () => {
      await app?.close();
      await database?.drop();
    });

    it('seed: the seeded events are listed, and found by a word through its compacted search index', async () => {
      assert.equal(await total(), 0);
      assert.equal(await total(), 0);
      assert.equal(cli(database.url, 'seed', '--events', '30').status, 0);
      assert.ok(((await total()) ?? 0) > 0);
      const found = (await app.inject({ url: '/calendar/events/v1/events?search=concert&per_page=50' })).json<{
        total: number;
        events: { title: string; excerpt: string; description: string }[];
      }>();
      assert.ok(found.total > 0);
      // §10: the title, excerpt or description.
      for (const event of found.events)
        assert.match(`${event.title} ${event.excerpt} ${event.description}`, /concert/i);
      if (dialect === 'sqlite') await assertPlannerAveragesWithoutSamples(database.url);
    });

    it('seed --recurring-share writes that share of events as series, with their occurrences listed', async () => {
      const fresh = await createTestDatabase(dialect);
      try {
        const refused = cli(fresh.url, 'seed', '--events', '40', '--recurring-share', '150');
        assert.notEqual(refused.status, 0);
        assert.match(refused.stderr, /--recurring-share/);
        const result = cli(fresh.url, 'seed', '--events', '40', '--recurring-share', '50');
        assert.equal(result.status, 0, result.stderr);
        const [, series, occurrences] = /\((\d+) recurring series with (\d+) occurrences\)/.exec(result.stdout) ?? [];
        assert.ok(Number(series) >= 10 && Number(series) <= 30, result.stdout);
        assert.ok(Number(occurrences) > Number(series), result.stdout);
        const seeded = await buildApp(loadConfig({ DATABASE_URL: fresh.url, LOG_LEVEL: 'silent' }), { logger: false });
        try {
          const handle = seeded.calendar.db;
          const rows = await handle.selectFrom('events').select(['post_id', 'series_id', 'recurrence']).execute();
          assert.equal(rows.filter((row) => row.recurrence !== null).length, Number(series));
          assert.equal(rows.filter((row) => row.series_id !== null).length, Number(occurrences));
        } finally {
          await seeded.close();
        }
      } finally {
        await fresh.drop();
      }
    });

    it('seed records the site zone its all-day events are keyed in, so a server started next does not rekey them', async () => {
      const fresh = await createTestDatabase(dialect);
      try {
        assert.equal(cliWithEnv({ SITE_TIMEZONE: 'Pacific/Auckland' }, fresh.url, 'seed', '--events', '30').status, 0);
        const handle = connect(fresh.url);
        try {
          const stored = await handle.db
            .selectFrom('settings')
            .select('value')
            .where('key', '=', 'site_timezone')
            .executeTakeFirst();
          assert.equal(stored?.value, 'Pacific/Auckland');
        } finally {
          await handle.close();
        }
      } finally {
        await fresh.drop();
      }
    });

    it('a revoked password, a lower role and a deleted user take effect on the next request', async () => {
      const first = lastLine(cli(database.url, 'user:create', 'alice', '--role', 'editor'));
      const second = lastLine(cli(database.url, 'app-password:create', 'alice', '--name', 'phone'));
      for (const password of [first, second, first, second]) assert.equal(await listAs(password), 200);
      // A write of this process keeps both found passwords; the CLI's changes below must still show.
      assert.equal(await createAs(first), 201);
      assert.equal(await listAs(second), 200);

      const phone = cli(database.url, 'app-password:list', 'alice').lines.find((line) => line.includes('  phone  '));
      assert.ok(phone, 'the phone password is listed');
      assert.equal(cli(database.url, 'app-password:revoke', 'alice', phone.split(' ')[0]).status, 0);
      assert.equal(await listAs(second), 401);
      assert.equal(await listAs(first), 200);

      assert.equal(cli(database.url, 'user:role', 'alice', 'subscriber').status, 0);
      assert.equal(await createAs(first), 403);

      assert.equal(cli(database.url, 'user:delete', 'alice').status, 0);
      assert.equal(await listAs(first), 401);
    });
  });
}
