import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, it } from 'node:test';
import SQLite from 'better-sqlite3';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { NS, useTestApp } from '../helpers/app.js';
import { createTestDatabase, testDialects } from '../helpers/databases.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

interface CliRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** The real CLI in a child process, without blocking this one: the app here goes on writing meanwhile. */
function cli(url: string, ...args: string[]): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: url, LOG_LEVEL: 'silent' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

describe('backup on SQLite (API.md §25.5)', () => {
  const t = useTestApp('sqlite');
  const dir = mkdtempSync(join(tmpdir(), 'calendar-backup-'));
  const copy = join(dir, 'copy.db');
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('copies the database while the server writes; the copy passes integrity_check and opens with the app', async () => {
    for (let i = 0; i < 20; i++) await t.api.post('/categories', { name: `Before ${i}` }, { as: 'editor' });
    let writing = true;
    let written = 0;
    const writes = (async () => {
      while (writing) {
        const res = await t.api.post('/categories', { name: `During ${written}` }, { as: 'editor' });
        assert.equal(res.status, 201);
        written++;
      }
    })();
    const run = await cli(t.api.config.databaseUrl, 'backup', copy);
    const writtenDuring = written;
    writing = false;
    await writes;
    assert.equal(run.status, 0, run.stderr);
    assert.ok(writtenDuring > 0, 'the server wrote while the backup ran');
    assert.equal(run.stdout, `Backed up the database to ${copy} (${statSync(copy).size} bytes).\n`);
    assert.deepEqual(
      ['-wal', '-shm', '.partial'].filter((suffix) => existsSync(`${copy}${suffix}`)),
      [],
      'a single file',
    );

    const check = new SQLite(copy, { readonly: true });
    try {
      assert.equal(check.pragma('integrity_check', { simple: true }), 'ok');
    } finally {
      check.close();
    }
    const restored = await buildApp(loadConfig({ DATABASE_URL: `sqlite:${copy}`, LOG_LEVEL: 'silent' }), {
      logger: false,
    });
    try {
      const res = await restored.inject({ url: `${NS}/categories?hide_empty=false&per_page=50&search=Before` });
      assert.equal(res.statusCode, 200);
      assert.equal(res.json().categories.length, 20);
    } finally {
      await restored.close();
    }
  });

  it('the copy has a new epoch: change-feed tokens issued before are refused there (410), still served here', async () => {
    const token = (await t.api.get('/changes', { as: 'administrator' })).json.next_since;
    const copied = join(dir, 'epoch.db');
    assert.equal((await cli(t.api.config.databaseUrl, 'backup', copied)).status, 0);
    const restored = await buildApp(loadConfig({ DATABASE_URL: `sqlite:${copied}`, LOG_LEVEL: 'silent' }), {
      logger: false,
    });
    try {
      const { header } = await t.api.user('administrator');
      const there = await restored.inject({ url: `${NS}/changes?since=${token}`, headers: { authorization: header } });
      assert.equal(there.statusCode, 410);
      assert.equal(there.json().code, 'rest_sync_token_expired');
    } finally {
      await restored.close();
    }
    assert.equal((await t.api.get('/changes', { as: 'administrator', query: { since: token } })).status, 200);
  });

  it('refuses to overwrite a file without --force, and overwrites it with --force', async () => {
    const before = statSync(copy);
    const refused = await cli(t.api.config.databaseUrl, 'backup', copy);
    assert.equal(refused.status, 1);
    assert.match(refused.stderr, /^error: .*exists; add --force to overwrite it\n$/);
    assert.equal(refused.stdout, '');
    assert.equal(statSync(copy).mtimeMs, before.mtimeMs, 'left as it was');
    await t.api.post('/categories', { name: 'After the first backup' }, { as: 'editor' });
    const forced = await cli(t.api.config.databaseUrl, 'backup', copy, '--force');
    assert.equal(forced.status, 0, forced.stderr);
    assert.match(forced.stdout, /^Backed up the database to .* \(\d+ bytes\)\.\n$/);
    const check = new SQLite(copy, { readonly: true });
    try {
      const { n } = check.prepare('SELECT count(*) AS n FROM terms WHERE name = ?').get('After the first backup') as {
        n: number;
      };
      assert.equal(n, 1, 'the new copy');
    } finally {
      check.close();
    }
  });
});

if ((await testDialects()).includes('postgres')) {
  describe('backup on PostgreSQL', () => {
    it('exits 2 with how to use pg_dump instead, and writes nothing', async () => {
      const database = await createTestDatabase('postgres');
      after(() => database.drop());
      const target = join(tmpdir(), `calendar-backup-${process.pid}.dump`);
      const run = await cli(database.url, 'backup', target);
      assert.equal(run.status, 2);
      assert.equal(run.stdout, '');
      assert.match(run.stderr, /pg_dump --format=custom "\$DATABASE_URL" -f ".*calendar-backup-\d+\.dump"/);
      assert.equal(existsSync(target), false);
    });
  });
}

for (const dialect of await testDialects()) {
  describe(`reset-epoch [${dialect}]`, () => {
    const t = useTestApp(dialect);

    it('after a restore, reset-epoch makes tokens issued before it expire (410)', async () => {
      const token = (await t.api.get('/changes', { as: 'administrator' })).json.next_since;
      const run = await cli(t.api.config.databaseUrl, 'reset-epoch');
      assert.equal(run.status, 0, run.stderr);
      assert.match(run.stdout, /new epoch/);
      const res = await t.api.get('/changes', { as: 'administrator', query: { since: token } });
      assert.equal(res.status, 410);
      const fresh = (await t.api.get('/changes', { as: 'administrator' })).json.next_since;
      assert.equal((await t.api.get('/changes', { as: 'administrator', query: { since: fresh } })).status, 200);
    });
  });
}
