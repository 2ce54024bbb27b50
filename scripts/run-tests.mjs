// Runs every test file under test/ with Node's test runner (TypeScript through tsx).
//   node scripts/run-tests.mjs [files…]          with acceleration (the default service)
//   node scripts/run-tests.mjs --plain [files…]  with ACCELERATION=off: the suites that test the API
//     through HTTP, on the plain paths; test/unit/ and test/acceleration/ (the accelerators' own
//     tests) are left out, since they do not depend on the switch or need it on.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const ACCELERATOR_SUITES = new Set(['unit', 'acceleration']);

function findTests(dir, skipped) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'helpers' || skipped.has(name) ? [] : findTests(path, skipped);
    return name.endsWith('.test.ts') ? [path] : [];
  });
}

const args = process.argv.slice(2);
const plain = args.includes('--plain');
const only = args.filter((arg) => arg !== '--plain');
const files = only.length > 0 ? only : findTests('test', plain ? ACCELERATOR_SUITES : new Set()).sort();
const env = plain ? { ...process.env, ACCELERATION: 'off' } : process.env;
if (plain) process.stdout.write(`ACCELERATION=off: ${files.length} test files on the plain paths\n`);
const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=2', ...files], {
  stdio: 'inherit',
  env,
});
process.exit(result.status ?? 1);
