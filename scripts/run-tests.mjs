// Runs every test file under test/ with Node's test runner (TypeScript through tsx).
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function findTests(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'helpers' ? [] : findTests(path);
    return name.endsWith('.test.ts') ? [path] : [];
  });
}

const only = process.argv.slice(2);
const files = only.length > 0 ? only : findTests('test').sort();
const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=2', ...files], { stdio: 'inherit' });
process.exit(result.status ?? 1);
