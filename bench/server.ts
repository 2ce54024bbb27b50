import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';

/** What `POST /reconcile` found: kept counts compared with a recount, and how many differed. */
export interface Reconciliation {
  checked: number;
  differences: number;
  details: unknown[];
}

export interface RunningServer {
  origin: string;
  process: ChildProcess;
  /** The server's `METRICS_TOKEN`: the bearer of `/metrics` and `/reconcile`. */
  metricsToken: string;
  /** Asks the server to recount its kept counts and compare (`POST /reconcile`); a failure throws. */
  reconcile(): Promise<Reconciliation>;
  /** Peak resident set size so far (kB), from /proc (Linux). */
  peakRssKb(): number | undefined;
  /** CPU time the server process has used so far (ms, user + system), from /proc (Linux). */
  cpuTimeMs(): number | undefined;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/**
 * Until the server answers and has built its search candidates: at a million events the build
 * takes seconds, and under load far longer; measured alongside, it would slow whichever scenario
 * ran first and make searches wait for it.
 */
async function waitUntilUp(origin: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited with code ${child.exitCode}`);
    try {
      const res = await fetch(`${origin}/health`);
      if (res.ok && ((await res.json()) as { search_index?: string }).search_index === 'ready') return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('server did not start (or build its search candidates) within 180 s');
}

/**
 * The server compiled once into one ES module (dependencies stay in node_modules), so the measured
 * process runs plain JavaScript as in production, without the TypeScript loader.
 */
async function productionBuild(root: string): Promise<string> {
  const outdir = join(root, 'bench', '.build');
  // The off-thread reader's worker is an entry point of its own, beside the server (src/db/off-thread.ts).
  const entryPoints = {
    server: join(root, 'src', 'server.ts'),
    'off-thread.worker': join(root, 'src', 'db', 'off-thread.worker.ts'),
  };
  await build({
    entryPoints,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    outdir,
    outExtension: { '.js': '.mjs' },
    logLevel: 'warning',
  });
  return join(outdir, 'server.mjs');
}

/**
 * The V8 flags `npm start` gives the server (package.json: heap limits, garbage-collection
 * settings), so the measured process runs as in production: every flag before the TypeScript loader.
 */
function startV8Flags(root: string): string[] {
  const { scripts } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: { start: string } };
  const words = scripts.start.split(/\s+/);
  const loader = words.indexOf('--import');
  return words.slice(1, loader < 0 ? words.length : loader).filter((word) => word.startsWith('--'));
}

/**
 * Starts the real server as a child process with production settings and request logging off:
 * this checkout's, or with `root` the one in that directory (bench/pair.ts compares two).
 */
export async function startServer(
  databaseUrl: string,
  options: { cache: boolean; extraEnv?: Record<string, string>; build?: boolean; root?: string },
): Promise<RunningServer> {
  const root = resolve(options.root ?? '.');
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  // BENCH_SERVER_FLAGS: extra Node flags for the server alone (`--cpu-prof` to see where a scenario's time goes).
  const extra = process.env.BENCH_SERVER_FLAGS?.split(/\s+/).filter(Boolean) ?? [];
  const entry = options.build
    ? [...startV8Flags(root), ...extra, await productionBuild(root)]
    : [...extra, '--import', 'tsx', 'src/server.ts'];
  const metricsToken = options.extraEnv?.METRICS_TOKEN ?? randomBytes(16).toString('hex');
  const child = spawn(process.execPath, entry, {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      DATABASE_URL: databaseUrl,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      RESPONSE_CACHE: options.cache ? 'on' : 'off',
      CALENDAR_ADMIN_PASSWORD: 'bench-admin-password',
      METRICS_TOKEN: metricsToken,
      ...options.extraEnv,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    await waitUntilUp(origin, child);
  } catch (error) {
    // A server that never came up must not outlive the run that started it.
    child.kill('SIGKILL');
    throw error;
  }
  return {
    origin,
    process: child,
    metricsToken,
    async reconcile() {
      const res = await fetch(`${origin}/reconcile`, {
        method: 'POST',
        headers: { authorization: `Bearer ${metricsToken}` },
      });
      if (!res.ok) throw new Error(`POST /reconcile answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
      const body = (await res.json()) as Partial<Reconciliation>;
      if (typeof body.checked !== 'number' || typeof body.differences !== 'number') {
        throw new Error(
          `POST /reconcile answered without checked and differences: ${JSON.stringify(body).slice(0, 200)}`,
        );
      }
      return { checked: body.checked, differences: body.differences, details: body.details ?? [] };
    },
    peakRssKb() {
      try {
        const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
        const match = /VmHWM:\s+(\d+) kB/.exec(status);
        return match ? Number(match[1]) : undefined;
      } catch {
        return undefined;
      }
    },
    cpuTimeMs() {
      try {
        // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th, in ticks of 10 ms.
        const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
        return (Number(fields[11]) + Number(fields[12])) * 10;
      } catch {
        return undefined;
      }
    },
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
