import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { tecEvent } from '../helpers/tec-stand-in.js';
import { TEC_AUTH, useTecImport } from './tec-site.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The real CLI in a child process (each spawn costs a second or more: keep them few). Asynchronous:
 * the stand-in site answers from this process, which a synchronous spawn would block.
 */
function cli(databaseUrl: string, env: Record<string, string>, ...args: string[]) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent', ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  return new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) =>
    child.on('close', (status) => resolve({ status, stdout, stderr })),
  );
}

// The command's wiring (options, output, exit codes); the import itself is tested on both databases
// in import-tec.test.ts.
describe('npm run cli -- import:tec', () => {
  const { t, tec } = useTecImport('sqlite');

  it('prints a table per resource and exits 0; a failed item is listed and exits 1', async () => {
    const allow = { IMPORT_ALLOW_PRIVATE_URLS: 'true' };
    const first = await cli(t.api.config.databaseUrl, allow, 'import:tec', tec.origin, '--auth', TEC_AUTH);
    assert.equal(first.status, 0, first.stderr);
    const lines = first.stdout.split('\n');
    assert.match(lines[0], /^Imported from http:\/\/127\.0\.0\.1:\d+\/wp-json\/tribe\/events\/v1\/:$/);
    assert.match(lines[1], /^resource\s+created\s+updated\s+unchanged\s+failed$/);
    assert.match(first.stdout, /^events\s+124\s+0\s+0\s+0$/m);
    assert.match(first.stdout, /^categories\s+3\s+0\s+0\s+0$/m);
    assert.match(first.stdout, /events #1122 members-only: password-protected/);
    // No terminal: plain progress lines on stderr instead of a bar (the 123 listed events).
    assert.match(first.stderr, /^events 123\/123 \(100%\)/m);
    assert.ok(!first.stdout.includes(TEC_AUTH.split(':')[1]), 'the password is never printed');

    const local = await t.api.post(
      '/events',
      { title: 'Mine', slug: 'clash', start_date: '2027-09-01 10:00', end_date: '2027-09-01 11:00' },
      { as: 'administrator' },
    );
    assert.equal(local.status, 201);
    tec.site.events.push(
      tecEvent({ id: 1300, title: 'Clash', slug: 'clash', start: '2027-09-02 18:00:00', end: '2027-09-02 19:00:00' }),
    );
    const second = await cli(t.api.config.databaseUrl, allow, 'import:tec', tec.origin, '--auth', TEC_AUTH);
    assert.equal(second.status, 1, second.stderr);
    assert.match(second.stdout, /^events\s+0\s+0\s+124\s+1$/m);
    assert.match(second.stdout, /^Failed:\n^events #1300 clash: slug taken$/m);
  });

  it('exits 2 without writing for a private address not allowed, a site without TEC, a bad --since or ids --keep-ids cannot keep', async () => {
    const blocked = await cli(t.api.config.databaseUrl, {}, 'import:tec', tec.origin);
    assert.equal(blocked.status, 2);
    assert.match(blocked.stderr, /^error: .*IMPORT_ALLOW_PRIVATE_URLS=true/);
    assert.equal(blocked.stdout, '');
    const since = await cli(t.api.config.databaseUrl, {}, 'import:tec', tec.origin, '--since', 'someday');
    assert.equal(since.status, 2);
    assert.match(since.stderr, /--since must be a date/);
    // The first test imported without --keep-ids: every item now holds another id than its source's.
    const allow = { IMPORT_ALLOW_PRIVATE_URLS: 'true' };
    const keep = await cli(t.api.config.databaseUrl, allow, 'import:tec', tec.origin, '--auth', TEC_AUTH, '--keep-ids');
    assert.equal(keep.status, 2, keep.stderr);
    assert.match(keep.stderr, /^error: --keep-ids: \d+ of the source's ids are taken here; nothing was written:$/m);
    assert.match(keep.stderr, /^ {2}events #1001: imported before as #\d+ \(a run without --keep-ids\)$/m);
    assert.equal(keep.stdout, '');
  });
});
