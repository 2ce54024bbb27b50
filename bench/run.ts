/**
 * `npm run bench [-- --events N --recurring-share PERCENT --db sqlite|postgres --duration S --warmup S --connections C --no-cache --scenarios a,b --keep --reuse URL]`
 * Seeds a fresh database (or reuses one kept by `--keep`), starts the real server as a child process and drives it with autocannon.
 * Scenarios: bench/scenarios.ts (`mixed`, `mixed-heavy` and `editorial` mix reads with writes, `--scenarios mixed,editorial` picks).
 * During `mixed`, `mixed-heavy` and `editorial` a checker writes titles and reads them back: a stale read is an error.
 * After each scenario the server reconciles its kept counts (`POST /reconcile`): each difference is an error.
 * Prints one table (req/s, p50, p99, errors, ratio to baseline, server CPU per request, CPU steal)
 * and the server's peak RSS, and writes the same as JSON under bench/results/.
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { dialectOf } from '../src/db/connect.js';
import { buildDataset, reuseDataset, type Samples } from './dataset.js';
import { scenarios, type Scenario } from './scenarios.js';
import { withStealShare } from './machine.js';
import { startServer, type RunningServer } from './server.js';

interface Row {
  scenario: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  requests: number;
  /** Server CPU time per request (ms): steadier than req/s on a machine shared with the load generator. */
  cpuPerRequest?: number;
  /** Share of the machine's CPU time given to other guests of the hypervisor meanwhile (Linux). */
  steal?: number;
  stale?: number;
  /** The server's count reconciliation after the scenario; absent when it failed. */
  reconciled?: { checked: number; differences: number };
  /** Why the reconciliation failed (counted as one error). */
  reconcileError?: string;
  ratio?: number;
}

const { values } = parseArgs({
  options: {
    events: { type: 'string', default: '10000' },
    db: { type: 'string', default: 'sqlite' },
    duration: { type: 'string', default: '10' },
    warmup: { type: 'string', default: '5' },
    connections: { type: 'string', default: '10' },
    'no-cache': { type: 'boolean', default: false },
    scenarios: { type: 'string' },
    keep: { type: 'boolean', default: false },
    reuse: { type: 'string' },
    'recurring-share': { type: 'string', default: '10' },
  },
});

/** `--recurring-share`: the percentage of seeded events written as recurring series (0 compares without). */
function recurringShare(): number {
  const value = Number(values['recurring-share']);
  if (!(value >= 0 && value <= 100)) {
    process.stderr.write(
      `bench: --recurring-share must be a percentage from 0 to 100, got "${values['recurring-share']}"\n`,
    );
    process.exit(2);
  }
  return value / 100;
}

/** A numeric option, or the run stops here with what was wrong. */
function numberOption(name: 'events' | 'duration' | 'warmup' | 'connections', min: number): number {
  const value = Number(values[name]);
  if (!Number.isInteger(value) || value < min) {
    process.stderr.write(`bench: --${name} must be a whole number of at least ${min}, got "${values[name]}"\n`);
    process.exit(2);
  }
  return value;
}

if (!['sqlite', 'postgres'].includes(values.db)) {
  process.stderr.write(`bench: --db must be sqlite or postgres, got "${values.db}"\n`);
  process.exit(2);
}
const dialect = values.reuse ? dialectOf(values.reuse) : values.db === 'postgres' ? 'postgres' : 'sqlite';
const duration = numberOption('duration', 1);
const warmup = numberOption('warmup', 0);
const connections = numberOption('connections', 1);
const cache = !values['no-cache'];

/** Responses outside 2xx that the scenario did not expect (`conditional` expects 304s). */
function unexpected(scenario: Scenario, result: autocannon.Result): number {
  if (scenario.expected === undefined) return result.non2xx;
  const code: `${number}` = `${scenario.expected}`;
  return result.non2xx - (result.statusCodeStats?.[code]?.count ?? 0);
}

async function drive(origin: string, scenario: Scenario, seconds: number): Promise<autocannon.Result> {
  return autocannon({
    url: origin,
    connections,
    duration: seconds,
    requests: [
      {
        setupRequest: (request) => {
          const next = scenario.next();
          return { ...request, method: next.method, path: next.path, headers: next.headers ?? {}, body: next.body };
        },
      },
    ],
  });
}

/**
 * During scenarios with `checksStaleness` (`mixed`, …): write a new title, then read it back
 * anonymously (single and list); a different title is a stale read. The events it writes are ones
 * no scenario writes (`checkedIds`), so that no other write can explain a different title.
 */
async function staleChecker(
  origin: string,
  samples: Samples,
  until: () => boolean,
): Promise<{ checks: number; stale: number }> {
  let checks = 0;
  let stale = 0;
  while (!until()) {
    const id = samples.checkedIds[Math.floor(Math.random() * samples.checkedIds.length)];
    const title = `Stale check ${Date.now()}-${checks}`;
    const write = await fetch(`${origin}/calendar/events/v1/events/${id}`, {
      method: 'PATCH',
      headers: { authorization: samples.editorAuth, 'content-type': 'application/json' },
      body: JSON.stringify({ title }),
    });
    if (!write.ok) continue;
    const single = (await (await fetch(`${origin}/calendar/events/v1/events/${id}`)).json()) as { title?: string };
    const listed = (await (await fetch(`${origin}/calendar/events/v1/events?include=${id}`)).json()) as {
      events?: { title: string }[];
    };
    checks += 2;
    for (const [read, seen] of [
      ['single', single.title],
      ['list', listed.events?.[0]?.title ?? title],
    ] as const) {
      if (seen === title) continue;
      stale += 1;
      process.stdout.write(`  stale ${read} read of event ${id}: wrote "${title}", read "${seen}"\n`);
    }
  }
  return { checks, stale };
}

/** `POST /reconcile` after a scenario, printed; its differences (or its failure, as one) are errors of that scenario. */
async function reconcileCounts(
  server: RunningServer,
): Promise<{ errors: number; reconciled?: Row['reconciled']; reconcileError?: string }> {
  try {
    const result = await server.reconcile();
    const { checked, differences } = result;
    process.stdout.write(`  count reconciliation: ${checked} kept counts checked, ${differences} differences\n`);
    if (differences > 0) process.stdout.write(`    ${JSON.stringify(result.details).slice(0, 500)}\n`);
    return { errors: differences, reconciled: { checked, differences } };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    process.stdout.write(`  count reconciliation failed: ${message}\n`);
    return { errors: 1, reconcileError: message };
  }
}

function printTable(rows: Row[], rssKb: number | undefined): void {
  const header = ['scenario', 'req/s', 'p50 ms', 'p99 ms', 'errors', 'vs baseline', 'server CPU ms/req', 'CPU steal'];
  const lines = rows.map((r) => [
    r.scenario,
    r.requestsPerSecond.toFixed(0),
    r.p50.toFixed(1),
    r.p99.toFixed(1),
    String(r.errors),
    r.ratio !== undefined ? `${(r.ratio * 100).toFixed(1)} %` : '',
    r.cpuPerRequest !== undefined ? r.cpuPerRequest.toFixed(3) : '',
    r.steal !== undefined ? `${(r.steal * 100).toFixed(1)} %` : '',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i].length)));
  const format = (cells: string[]) =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  process.stdout.write(
    `\n${format(header)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}\n${lines.map(format).join('\n')}\n`,
  );
  process.stdout.write(`\nserver peak RSS: ${rssKb !== undefined ? `${(rssKb / 1024).toFixed(0)} MB` : 'unknown'}\n`);
}

async function main(): Promise<void> {
  const dataset = values.reuse
    ? await reuseDataset(values.reuse)
    : await buildDataset(dialect, numberOption('events', 1), recurringShare());
  const { events } = dataset;
  process.stdout.write(
    `Benchmark: ${events} events on ${dialect}, ${connections} connections, ${duration} s per scenario, response cache ${cache ? 'on' : 'off'}\n`,
  );
  const server = await startServer(dataset.url, { cache, build: true });
  const rows: Row[] = [];
  try {
    const all = scenarios(dataset.samples);
    const only = values.scenarios ? values.scenarios.split(',') : undefined;
    const wanted = only ? all.filter((s) => only.includes(s.name)) : all;
    for (const scenario of wanted) {
      await scenario.prepare?.(server.origin);
      if (warmup > 0) {
        process.stdout.write(`warming up ${scenario.name} (${warmup} s)…\n`);
        await drive(server.origin, scenario, warmup);
      }
      process.stdout.write(`running ${scenario.name}…\n`);
      let done = false;
      const checker = scenario.checksStaleness ? staleChecker(server.origin, dataset.samples, () => done) : undefined;
      const cpuBefore = server.cpuTimeMs();
      const { result, steal } = await withStealShare(() => drive(server.origin, scenario, duration));
      const cpuAfter = server.cpuTimeMs();
      done = true;
      const staleness = await checker;
      if (staleness)
        process.stdout.write(`  stale-read check: ${staleness.checks} reads after writes, ${staleness.stale} stale\n`);
      const reconciliation = await reconcileCounts(server);
      rows.push({
        scenario: scenario.name,
        requestsPerSecond: result.requests.average,
        p50: result.latency.p50,
        p99: result.latency.p99,
        errors:
          unexpected(scenario, result) +
          result.errors +
          result.timeouts +
          (staleness?.stale ?? 0) +
          reconciliation.errors,
        requests: result.requests.total,
        cpuPerRequest:
          cpuBefore !== undefined && cpuAfter !== undefined && result.requests.total > 0
            ? (cpuAfter - cpuBefore) / result.requests.total
            : undefined,
        stale: staleness?.stale,
        reconciled: reconciliation.reconciled,
        reconcileError: reconciliation.reconcileError,
        steal,
      });
    }
    const baseline = rows.find((r) => r.scenario === 'baseline')?.requestsPerSecond;
    for (const row of rows) if (baseline) row.ratio = row.requestsPerSecond / baseline;
    const rss = server.peakRssKb();
    printTable(rows, rss);
    const file = `bench/results/${new Date().toISOString().replace(/[:.]/g, '-')}-${dialect}-${events}${cache ? '' : '-nocache'}.json`;
    writeFileSync(
      file,
      `${JSON.stringify({ date: new Date().toISOString(), dialect, events, connections, duration, warmup, cache, peakRssKb: rss, rows }, null, 2)}\n`,
    );
    process.stdout.write(`results written to ${file}\n`);
  } finally {
    await server.stop();
    if (!values.keep) await dataset.drop();
    else if (!values.reuse) process.stdout.write(`database kept: run again on it with --reuse ${dataset.url}\n`);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
