/**
 * `npm run bench:pair -- --a DIR --b DIR --reuse FILE [--scenario single] [--requests 16000]
 * [--warmup 4000] [--rounds 4] [--connections 10] [--no-cache]`
 *
 * An A/B of two builds of the server on one machine at one time. Each round starts both (DIR is a
 * checkout with its node_modules) on copies of one seeded SQLite FILE (`npm run bench -- --keep`),
 * sends both the same requests at once, drawn from a `bench/scenarios.ts` scenario, and compares the
 * server CPU each spent per request. Run alone, a scenario moves by 10–30 % between runs minutes apart
 * on a shared 2-core machine; side by side, both builds see the same drift. Rounds alternate which
 * build starts first. Prints each round and the change of B against A over all rounds.
 */
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { reuseDataset } from './dataset.js';
import { scenarios, type BenchRequest, type Scenario } from './scenarios.js';
import { startServer, type RunningServer } from './server.js';

const { values } = parseArgs({
  options: {
    a: { type: 'string' },
    b: { type: 'string' },
    reuse: { type: 'string' },
    scenario: { type: 'string', default: 'single' },
    requests: { type: 'string', default: '16000' },
    warmup: { type: 'string', default: '4000' },
    rounds: { type: 'string', default: '4' },
    connections: { type: 'string', default: '10' },
    'no-cache': { type: 'boolean', default: false },
  },
});

function fail(message: string): never {
  process.stderr.write(`bench:pair: ${message}\n`);
  process.exit(2);
}

function count(name: 'requests' | 'warmup' | 'rounds' | 'connections', min: number): number {
  const value = Number(values[name]);
  if (!Number.isInteger(value) || value < min) fail(`--${name} must be a whole number of at least ${min}`);
  return value;
}

const builds = [values.a, values.b].map((dir, i) => {
  if (!dir) fail(`--${i === 0 ? 'a' : 'b'} must name a checkout of the project`);
  if (!existsSync(join(dir, 'src', 'server.ts'))) fail(`${dir} has no src/server.ts`);
  if (!existsSync(join(dir, 'node_modules'))) fail(`${dir} has no node_modules (run npm ci there, or link them)`);
  return resolve(dir);
});
const seeded = values.reuse?.replace(/^sqlite:/, '');
if (!seeded || !existsSync(seeded)) fail('--reuse must name a seeded SQLite file (npm run bench -- --keep)');
const requests = count('requests', 1);
const warmup = count('warmup', 0);
const rounds = count('rounds', 1);
const connections = count('connections', 1);
const cache = !values['no-cache'];

const sqliteFiles = (path: string) => [path, `${path}-wal`, `${path}-shm`];

function copyDatabase(from: string, to: string): void {
  for (const [source, target] of sqliteFiles(from).map((file, i) => [file, sqliteFiles(to)[i]])) {
    rmSync(target, { force: true });
    if (existsSync(source)) copyFileSync(source, target);
  }
}

/** `count` requests of `list` from `from` on, sent to `server` over the connections. */
function drive(server: RunningServer, list: readonly BenchRequest[], from: number, count: number) {
  let next = from;
  return autocannon({
    url: server.origin,
    connections,
    amount: count,
    requests: [
      {
        setupRequest: (request) => {
          const { method, path, headers, body } = list[next++ % list.length];
          return { ...request, method, path, headers: headers ?? {}, body };
        },
      },
    ],
  });
}

/** Both servers at once, the first of `order` started and driven first; the results by build (A, B). */
async function bothAtOnce<T>(order: readonly number[], run: (build: number) => Promise<T>): Promise<T[]> {
  const results = await Promise.all(order.map(run));
  return builds.map((_, build) => results[order.indexOf(build)]);
}

interface Round {
  cpu: number[];
  unexpected: number[];
}

async function round(scenario: Scenario, staging: string, dir: string, index: number): Promise<Round> {
  const order = index % 2 === 0 ? [0, 1] : [1, 0];
  const files = builds.map((_, i) => join(dir, `build-${i}.db`));
  files.forEach((file) => copyDatabase(staging, file));
  const servers = await bothAtOnce(order, (i) =>
    startServer(`sqlite:${files[i]}`, { cache, build: true, root: builds[i] }),
  );
  try {
    await scenario.prepare?.(servers[0].origin);
    const list = Array.from({ length: warmup + requests }, () => scenario.next());
    if (warmup > 0) await bothAtOnce(order, (i) => drive(servers[i], list, 0, warmup));
    const before = servers.map((server) => server.cpuTimeMs() ?? NaN);
    const results = await bothAtOnce(order, (i) => drive(servers[i], list, warmup, requests));
    const cpu = servers.map((server, i) => ((server.cpuTimeMs() ?? NaN) - before[i]) / results[i].requests.total);
    const expected = scenario.expected === undefined ? undefined : `${scenario.expected}`;
    const unexpected = results.map(
      (result) =>
        result.non2xx -
        (expected ? (result.statusCodeStats?.[expected as `${number}`]?.count ?? 0) : 0) +
        result.errors,
    );
    return { cpu, unexpected };
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
  }
}

const percent = (b: number, a: number) => `${b >= a ? '+' : ''}${((b / a - 1) * 100).toFixed(1)} %`;

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-pair-'));
  try {
    // The editors the scenarios write as are made once, in the copy both builds start from.
    const staging = join(dir, 'staging.db');
    copyDatabase(seeded as string, staging);
    const dataset = await reuseDataset(`sqlite:${staging}`);
    const scenario = scenarios(dataset.samples).find((s) => s.name === values.scenario);
    if (!scenario) fail(`no scenario "${values.scenario}" (see bench/scenarios.ts)`);
    process.stdout.write(
      `A ${builds[0]}\nB ${builds[1]}\n${scenario.name}, ${dataset.events} events, response cache ${cache ? 'on' : 'off'}: ` +
        `${rounds} rounds of ${requests} requests after ${warmup}, ${connections} connections each\n`,
    );
    const sums = [0, 0];
    for (let i = 0; i < rounds; i++) {
      const { cpu, unexpected } = await round(scenario, staging, dir, i);
      cpu.forEach((ms, build) => (sums[build] += ms));
      const errors = unexpected.some((n) => n > 0)
        ? `, unexpected responses A ${unexpected[0]} B ${unexpected[1]}`
        : '';
      process.stdout.write(
        `round ${i + 1}: A ${cpu[0].toFixed(3)}  B ${cpu[1].toFixed(3)} ms CPU per request  ${percent(cpu[1], cpu[0])}${errors}\n`,
      );
    }
    process.stdout.write(
      `${scenario.name}: A ${(sums[0] / rounds).toFixed(3)}  B ${(sums[1] / rounds).toFixed(3)} ms CPU per request, B ${percent(sums[1], sums[0])}\n`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    `bench:pair failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
