import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import type { Dialect } from '../../src/db/connect.js';
import { createTestDatabase, type TestDatabase } from './databases.js';

/** Debian's Chromium (DESIGN.md: `npx playwright install` cannot download here; .ci/run installs the package). */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Whether the browser suites can run: without Chromium they are skipped with a visible message on a
 * developer's machine, and fail where the browser is required (CI, or REQUIRE_POSTGRES=1 like the
 * database helper), so a green CI always means the browser ran.
 */
export function browserAvailable(): boolean {
  if (existsSync(CHROMIUM)) return true;
  if (process.env.CI || process.env.REQUIRE_POSTGRES === '1')
    throw new Error(`Chromium is required here but missing at ${CHROMIUM} (apt-get install chromium)`);
  process.stderr.write(`\n*** Chromium missing at ${CHROMIUM}: the browser tests are SKIPPED on this machine. ***\n\n`);
  return false;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface BrowserHarness {
  readonly app: FastifyInstance;
  readonly origin: string;
  readonly browser: Browser;
  /** A new browser context (its own cookies) with the given viewport width. */
  context(width?: number): Promise<BrowserContext>;
}

/**
 * A real HTTP server on a fresh database of `dialect` and a headless Chromium for the enclosing
 * describe block. The clock is real: pages show "now" as a visitor would see it.
 */
export function useBrowser(dialect: Dialect, env: Record<string, string> = {}): { readonly harness: BrowserHarness } {
  let database: TestDatabase | undefined;
  let harness: BrowserHarness | undefined;
  let profile: string | undefined;
  before(async () => {
    database = await createTestDatabase(dialect);
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    const config = loadConfig({
      DATABASE_URL: database.url,
      PUBLIC_URL: origin,
      PORT: String(port),
      LOG_LEVEL: 'silent',
      SITE_NAME: 'Springfield Events',
      ...(process.env.ACCELERATION ? { ACCELERATION: process.env.ACCELERATION } : {}),
      ...env,
    });
    const app = await buildApp(config, { logger: false });
    await app.listen({ port, host: '127.0.0.1' });
    profile = mkdtempSync(join(tmpdir(), 'calendar-chromium-'));
    // A fresh profile per suite; the flags keep Chromium from reaching any network service of its own.
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        `--disk-cache-dir=${join(profile, 'cache')}`,
      ],
    });
    harness = {
      app,
      origin,
      browser,
      context: (width = 1280) => browser.newContext({ viewport: { width, height: 900 }, baseURL: origin }),
    };
  });
  after(async () => {
    await harness?.browser.close();
    await harness?.app.close();
    await database?.drop();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });
  return {
    get harness() {
      if (!harness) throw new Error('the browser harness is not ready (use it inside a test)');
      return harness;
    },
  };
}

/** Where screenshots go: test artifacts, and docs/screenshots for the README when asked to refresh them. */
export function screenshotDir(): string {
  const dir = join('test-artifacts', 'screenshots');
  mkdirSync(dir, { recursive: true });
  return dir;
}
