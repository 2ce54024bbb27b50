import { after, before } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { postgresDataVersion } from '../../src/changes/data-version.js';
import { connect } from '../../src/db/connect.js';
import type { Role } from '../../src/auth/capabilities.js';
import { loadConfig, type Config } from '../../src/config.js';
import type { Dialect } from '../../src/db/connect.js';
import type { Fragment } from '../../src/cache/entries.js';
import type { VersionedCache } from '../../src/cache/lru.js';
import type { EventCandidates } from '../../src/modules/events/search/candidates.js';
import { createUser } from '../../src/modules/users/users.service.js';
import { createTestDatabase, type TestDatabase } from './databases.js';
import type { ResolveHost } from '../../src/modules/import/ics.fetch.js';

export const NS = '/calendar/events/v1';
/** The moment of the TEC live transcript; tests move the clock when they need another "now". */
export const DEFAULT_NOW = new Date('2026-11-21T08:37:48Z');

export interface TestResponse {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  text: string;
  // Response bodies are arbitrary JSON by nature; tests assert on them.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

export type Who = Role | 'anonymous' | { authorization: string };

export interface RequestOptions {
  as?: Who;
  query?: Record<string, string | number | boolean | (string | number)[] | undefined>;
  headers?: Record<string, string>;
  form?: boolean;
  /** Send the path as is (public pages), instead of under the namespace. */
  raw?: boolean;
}

export class TestApi {
  now = DEFAULT_NOW;
  private readonly credentials = new Map<Role, { id: number; header: string }>();

  constructor(
    readonly app: FastifyInstance,
    readonly config: Config,
    readonly dialect: Dialect,
  ) {}

  get db() {
    return this.app.calendar.db;
  }

  /** A user of `role` (created on first use) and its Basic authorization header. */
  async user(role: Role): Promise<{ id: number; header: string }> {
    let user = this.credentials.get(role);
    if (!user) {
      const login = `${role}-user`;
      const { id, password } = await createUser(this.db, login, role, 1_700_000_000);
      user = { id, header: `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}` };
      this.credentials.set(role, user);
    }
    return user;
  }

  /** Another user of `role` with its own login, for per-object permission tests. */
  async otherUser(role: Role, login: string): Promise<{ id: number; header: string }> {
    const { id, password } = await createUser(this.db, login, role, 1_700_000_000);
    return { id, header: `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}` };
  }

  async request(method: string, path: string, body?: unknown, options: RequestOptions = {}): Promise<TestResponse> {
    const headers: Record<string, string> = { ...options.headers };
    const who = options.as ?? 'anonymous';
    if (typeof who === 'object') headers.authorization = who.authorization;
    else if (who !== 'anonymous') headers.authorization = (await this.user(who)).header;
    let payload: string | undefined;
    if (body !== undefined) {
      if (options.form) {
        headers['content-type'] = 'application/x-www-form-urlencoded';
        payload = new URLSearchParams(body as Record<string, string>).toString();
      } else {
        headers['content-type'] = 'application/json';
        payload = typeof body === 'string' ? body : JSON.stringify(body);
      }
    }
    const url =
      !options.raw && path.startsWith('/') && !path.startsWith(NS) && !/^\/[a-z-]+\/calendar/.test(path)
        ? `${NS}${path}`
        : path;
    const response = await this.app.inject({
      method: method as never,
      url,
      headers,
      payload,
      query: options.query as never,
    });
    let json: unknown;
    try {
      json = response.body === '' ? undefined : JSON.parse(response.body);
    } catch {
      json = undefined;
    }
    return { status: response.statusCode, headers: response.headers, text: response.body, json };
  }

  get(path: string, options?: RequestOptions) {
    return this.request('GET', path, undefined, options);
  }
  post(path: string, body: unknown, options?: RequestOptions) {
    return this.request('POST', path, body, options);
  }
  put(path: string, body: unknown, options?: RequestOptions) {
    return this.request('PUT', path, body, options);
  }
  patch(path: string, body: unknown, options?: RequestOptions) {
    return this.request('PATCH', path, body, options);
  }
  delete(path: string, options?: RequestOptions) {
    return this.request('DELETE', path, undefined, options);
  }

  /**
   * Empties every content table (users stay), for tests that count whole lists. It writes as an
   * operator's SQL session would, through another connection: the app must notice it like any
   * other process's write (on PostgreSQL such a process bumps the shared data version).
   */
  async clearContent(): Promise<void> {
    const other = connect(this.config.databaseUrl);
    try {
      for (const table of [
        'search_documents',
        'event_terms',
        'event_organizers',
        'events',
        'venues',
        'organizers',
        'post_translations',
        'posts',
        'term_translations',
        'terms',
        'images',
      ] as const) {
        await other.db.deleteFrom(table).execute();
      }
      if (other.dialect === 'postgres') await postgresDataVersion(other.db).bump();
    } finally {
      await other.close();
    }
  }
}

export interface TestAppOptions {
  env?: Record<string, string>;
  /** Resolves host names (imports, webhooks) instead of DNS (AppOptions.resolveHost). */
  resolveHost?: ResolveHost;
}

/**
 * Boots the real application on a fresh database of `dialect` for the enclosing describe block and
 * tears both down afterwards. Returns a handle whose `api` is ready inside tests.
 */
/** `ACCELERATION=off npm test -- …` runs the suites on the plain paths (see scripts/run-tests.mjs). */
function accelerationFromEnvironment(): { ACCELERATION?: string } {
  return process.env.ACCELERATION ? { ACCELERATION: process.env.ACCELERATION } : {};
}

/** The app's in-memory search candidates, which only an accelerated app has (tests under test/acceleration/). */
export function candidatesOf(app: FastifyInstance): EventCandidates {
  const { candidates } = app.calendar.events;
  if (!candidates) throw new Error('search candidates exist only with ACCELERATION=on');
  return candidates;
}

/** The app's kept event renderings, which only an accelerated app has (tests under test/acceleration/). */
export function fragmentsOf(app: FastifyInstance): VersionedCache<Fragment> {
  const { fragments } = app.calendar.events;
  if (!fragments) throw new Error('rendered fragments are kept only with ACCELERATION=on');
  return fragments;
}

export function useTestApp(dialect: Dialect, options: TestAppOptions = {}): { readonly api: TestApi } {
  let database: TestDatabase | undefined;
  let api: TestApi | undefined;
  before(async () => {
    database = await createTestDatabase(dialect);
    const config = loadConfig({
      DATABASE_URL: database.url,
      PUBLIC_URL: 'http://127.0.0.1:8080',
      LOG_LEVEL: 'silent',
      ...accelerationFromEnvironment(),
      ...options.env,
    });
    const handle = { now: DEFAULT_NOW };
    const app = await buildApp(config, {
      clock: () => (api ? api.now : handle.now),
      logger: false,
      resolveHost: options.resolveHost,
    });
    api = new TestApi(app, config, dialect);
  });
  after(async () => {
    await api?.app.close();
    await database?.drop();
  });
  return {
    get api() {
      if (!api) throw new Error('test app not started');
      return api;
    },
  };
}
