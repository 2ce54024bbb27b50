import { randomBytes } from 'node:crypto';
import { rmSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { loadConfig } from '../src/config.js';
import { connect, type DatabaseHandle } from '../src/db/connect.js';
import { migrateToLatest } from '../src/db/migrate.js';
import { progressReporter, stepReporter } from '../src/modules/seed/progress.js';
import { seedCalendar } from '../src/modules/seed/seed.js';
import { WORDS } from '../src/modules/seed/seed.data.js';
import { createUser } from '../src/modules/users/users.service.js';

/** What the scenarios rotate through: drawn from the seeded data so caches see realistic hit rates. */
/** Sample events kept for the stale-read check alone. */
const CHECKED = 200;

export interface Samples {
  eventIds: number[];
  /** Events only the stale-read check writes (no scenario writes them). */
  checkedIds: number[];
  slugs: string[];
  categorySlugs: string[];
  words: string[];
  windows: [string, string][];
  /** The first of `editorAuths`: the editor of the single-editor scenarios. */
  editorAuth: string;
  /** `Authorization` headers of the editors that `editorial` writes as (`EDITORS` of them). */
  editorAuths: string[];
}

/** Editors made for each run: `editorial` has them save events at once. */
export const EDITORS = 5;

export interface Dataset {
  url: string;
  /** Events in the database. */
  events: number;
  samples: Samples;
  drop(): Promise<void>;
}

const PG_ADMIN = process.env.BENCH_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function createDatabase(dialect: 'sqlite' | 'postgres'): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `bench_${randomBytes(4).toString('hex')}`;
  if (dialect === 'sqlite') {
    const dir = join('bench', '.data');
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `${name}.db`);
    return {
      url: `sqlite:${file}`,
      drop: async () => ['', '-wal', '-shm'].forEach((suffix) => rmSync(`${file}${suffix}`, { force: true })),
    };
  }
  const admin = new pg.Client({ connectionString: PG_ADMIN });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(PG_ADMIN);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: PG_ADMIN });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}

function isoDay(seconds: number): string {
  return new Date(seconds * 1000).toISOString().slice(0, 10);
}

/** A fresh database with `events` seeded events (that share of them recurring series), the editors, and samples for the scenarios. */
export async function buildDataset(
  dialect: 'sqlite' | 'postgres',
  events: number,
  recurringShare: number,
): Promise<Dataset> {
  const database = await createDatabase(dialect);
  const config = loadConfig({ DATABASE_URL: database.url, LOG_LEVEL: 'silent' });
  const handle = connect(database.url);
  try {
    await migrateToLatest(handle.db, handle.dialect);
    await seedCalendar(handle.db, config, {
      events,
      recurringShare,
      onProgress: progressReporter('seeding events'),
      onStep: stepReporter(),
    });
    return { url: database.url, events, samples: await sample(handle), drop: database.drop };
  } finally {
    await handle.close();
  }
}

/** A database seeded by an earlier run (`--keep`), reused as it is: it is not dropped afterwards. */
export async function reuseDataset(url: string): Promise<Dataset> {
  const handle = connect(url);
  try {
    await migrateToLatest(handle.db, handle.dialect);
    const { n } = await handle.db
      .selectFrom('events')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return { url, events: Number(n), samples: await sample(handle), drop: async () => undefined };
  } finally {
    await handle.close();
  }
}

/** `EDITORS` new editors (logins unique to this run, so a kept database takes more), as `Authorization` headers. */
async function createEditors(handle: DatabaseHandle): Promise<string[]> {
  const prefix = `bench-editor-${randomBytes(4).toString('hex')}`;
  const auths: string[] = [];
  for (let i = 1; i <= EDITORS; i += 1) {
    const login = `${prefix}-${i}`;
    const { password } = await createUser(handle.db, login, 'editor', Math.floor(Date.now() / 1000));
    auths.push(`Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`);
  }
  return auths;
}

/** New editors, and what the scenarios rotate through, drawn from the seeded data. */
async function sample(handle: DatabaseHandle): Promise<Samples> {
  const editorAuths = await createEditors(handle);
  const published = await handle.db
    .selectFrom('posts')
    .innerJoin('events', 'events.post_id', 'posts.id')
    .select(['posts.id', 'posts.slug'])
    .where('posts.status', '=', 'publish')
    .where('posts.password', '=', '')
    .where('posts.type', '=', 'event')
    .orderBy('posts.id')
    .limit(5000)
    .execute();
  const checked = Math.min(CHECKED, Math.floor(published.length / 2));
  const categories = await handle.db.selectFrom('terms').select('slug').where('taxonomy', '=', 'category').execute();
  const now = Math.floor(Date.now() / 1000);
  const windows: [string, string][] = Array.from({ length: 24 }, (_, i) => [
    isoDay(now + i * 30 * 86_400),
    isoDay(now + (i + 2) * 30 * 86_400),
  ]);
  return {
    eventIds: published.slice(0, published.length - checked).map((r) => r.id),
    checkedIds: published.slice(published.length - checked).map((r) => r.id),
    slugs: published.map((r) => r.slug).filter((s) => s !== ''),
    categorySlugs: categories.map((r) => r.slug),
    words: WORDS.slice(0, 12),
    windows,
    editorAuth: editorAuths[0],
    editorAuths,
  };
}
