/**
 * `npx tsx bench/copy.ts [--events 10000] [--keep-ids]` — measures import:tec's copy mode (API.md §24): seeds one
 * calendar (the seed command's data: venues, organizers, terms, 2 % hidden, 2 % protected and 10 %
 * draft events), gives 2 % of its events a French translation, serves it over HTTP, copies it into a
 * second, empty installation and compares both installations' event lists read with `context=edit`
 * for every status (ids, links by id and write times left out). Both on temporary SQLite files.
 * With `--keep-ids` the import keeps the source's ids, and the lists must have the same ids in the
 * same order too. Prints the time taken, the import's table and the outcome of the comparison;
 * exits 1 if they differ.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { importTec } from '../src/modules/migration/import.js';
import { reportLines } from '../src/modules/migration/report.js';
import { progressReporter } from '../src/modules/seed/progress.js';
import { seedCalendar } from '../src/modules/seed/seed.js';
import { createUser } from '../src/modules/users/users.service.js';
import { comparableEvents, EVERY_STATUS } from '../test/migration/comparable.js';

const { values } = parseArgs({
  options: { events: { type: 'string', default: '10000' }, 'keep-ids': { type: 'boolean', default: false } },
});
const events = Number(values.events);
const keepIds = values['keep-ids'] === true;

const dir = mkdtempSync(join(tmpdir(), 'copy-bench-'));
const app = (name: string) =>
  buildApp(
    loadConfig({
      DATABASE_URL: `sqlite:${join(dir, `${name}.db`)}`,
      PUBLIC_URL: 'http://127.0.0.1:8080',
      LOG_LEVEL: 'silent',
    }),
    { logger: false },
  );

async function admin(instance: FastifyInstance): Promise<string> {
  const { password } = await createUser(instance.calendar.db, 'admin', 'administrator', Math.floor(Date.now() / 1000));
  return `admin:${password}`;
}

async function list(instance: FastifyInstance, auth: string, path: string, key: string, query: string) {
  const items: Record<string, unknown>[] = [];
  for (let page = 1; ; page++) {
    const response = await instance.inject({
      url: `/calendar/events/v1/${path}?per_page=50&page=${page}&${query}`,
      headers: { authorization: `Basic ${Buffer.from(auth).toString('base64')}` },
    });
    if (response.statusCode === 404 && page > 1) return items;
    const body = response.json<Record<string, unknown>>();
    if (response.statusCode !== 200) throw new Error(`${path}: ${response.body}`);
    items.push(...(body[key] as Record<string, unknown>[]));
    if (page >= (body.total_pages as number)) return items;
  }
}

const eventsOf = (instance: FastifyInstance, auth: string) =>
  list(
    instance,
    auth,
    'events',
    'events',
    `context=edit&status=${EVERY_STATUS}&start_date=1900-01-01&end_date=2200-12-31`,
  );

/** The first few events that differ, key by key, to say what a copy lost. */
function reportDifferences(a: unknown[], b: unknown[]): void {
  let shown = 0;
  for (let i = 0; i < Math.max(a.length, b.length) && shown < 5; i++) {
    const [x, y] = [a[i] as Record<string, unknown>, b[i] as Record<string, unknown>];
    const keys = Object.keys({ ...x, ...y }).filter((key) => JSON.stringify(x?.[key]) !== JSON.stringify(y?.[key]));
    if (keys.length === 0) continue;
    shown++;
    for (const key of keys)
      process.stdout.write(`  ${String(x?.slug)} ${key}: ${JSON.stringify(x?.[key])} → ${JSON.stringify(y?.[key])}\n`);
  }
}

const source = await app('source');
const target = await app('target');
try {
  const sourceAuth = await admin(source);
  const seeded = await seedCalendar(source.calendar.db, source.calendar.config, {
    events,
    onProgress: progressReporter('seed'),
  });
  // Translations: the seed writes none.
  for (let id = seeded.eventIds.first; id <= seeded.eventIds.last; id += 50) {
    await source.inject({
      method: 'PATCH',
      url: `/calendar/events/v1/events/${id}?i18n_language=fr`,
      headers: { authorization: `Basic ${Buffer.from(sourceAuth).toString('base64')}` },
      payload: { title: `Événement ${id}`, description: `<p>Description ${id}</p>` },
    });
  }
  await source.listen({ port: 0, host: '127.0.0.1' });
  const site = `http://127.0.0.1:${(source.server.address() as AddressInfo).port}`;
  const targetAuth = await admin(target);

  const started = performance.now();
  const report = await importTec(target, {
    site,
    auth: sourceAuth,
    dryRun: false,
    keepIds,
    allowPrivate: true,
    progress: (kind) => progressReporter(kind),
  });
  const seconds = (performance.now() - started) / 1000;
  process.stdout.write(
    `${reportLines(report).join('\n')}\n\nCopied ${events} seeded events in ${seconds.toFixed(1)} s.\n`,
  );

  const [from, to] = [await eventsOf(source, sourceAuth), await eventsOf(target, targetAuth)];
  const hidden = from.filter((e) => e.hide_from_listings === true).length;
  const protectedEvents = from.filter((e) => e.password !== '').length;
  const translated = from.filter((e) => Object.keys(e.translations as object).length > 1).length;
  const identities = (list: Record<string, unknown>[]) =>
    JSON.stringify(list.map((e) => [e.id, e.slug, e.recurrence_id, e.series_id]));
  const sameIds = identities(from) === identities(to);
  const same = JSON.stringify(comparableEvents(from)) === JSON.stringify(comparableEvents(to)) && (!keepIds || sameIds);
  process.stdout.write(
    `Lists with context=edit, every status: source ${from.length} events, copy ${to.length}; ` +
      `${hidden} hidden, ${protectedEvents} protected, ${translated} translated; ${same ? 'identical' : 'DIFFERENT'}` +
      `; ids ${sameIds ? 'identical' : 'different'}${keepIds ? '' : ' (expected without --keep-ids)'}.\n`,
  );
  for (const [path, key] of [
    ['venues', 'venues'],
    ['organizers', 'organizers'],
  ] as const) {
    const [a, b] = [
      await list(source, sourceAuth, path, key, `status=${EVERY_STATUS}`),
      await list(target, targetAuth, path, key, `status=${EVERY_STATUS}`),
    ];
    process.stdout.write(`${path}: source ${a.length}, copy ${b.length}\n`);
  }
  if (!same) reportDifferences(comparableEvents(from), comparableEvents(to));
  process.exitCode = same ? 0 : 1;
} finally {
  await source.close();
  await target.close();
  rmSync(dir, { recursive: true, force: true });
}
