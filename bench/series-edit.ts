/**
 * `npx tsx bench/series-edit.ts [--database <url>] [--occurrences 500] [--rounds 5]` — how long a
 * write to a series of N occurrences takes (issue 26: under 200 ms for 500): its creation, and
 * edits of its title, time of day, rule, time zone and venue, each the median of several rounds,
 * through the API in-process (no HTTP). A temporary SQLite file unless a database URL is given (an
 * empty PostgreSQL database, say).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createUser } from '../src/modules/users/users.service.js';

const { values } = parseArgs({
  options: {
    database: { type: 'string' },
    occurrences: { type: 'string', default: '500' },
    rounds: { type: 'string', default: '5' },
  },
});
const count = Number(values.occurrences);
const rounds = Number(values.rounds);
const dir = mkdtempSync(join(tmpdir(), 'series-edit-'));
const app = await buildApp(
  loadConfig({
    DATABASE_URL: values.database ?? `sqlite:${join(dir, 'series.db')}`,
    PUBLIC_URL: 'http://127.0.0.1:8080',
    LOG_LEVEL: 'silent',
  }),
  { logger: false },
);

try {
  const login = `bench-${Date.now()}`;
  const { password } = await createUser(app.calendar.db, login, 'administrator', Math.floor(Date.now() / 1000));
  const authorization = `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;
  const send = async (method: 'POST' | 'PATCH', path: string, body: unknown) => {
    const started = performance.now();
    const response = await app.inject({
      method,
      url: `/calendar/events/v1${path}`,
      headers: { authorization, 'content-type': 'application/json' },
      payload: JSON.stringify(body),
    });
    if (response.statusCode >= 300) throw new Error(`${method} ${path}: ${response.statusCode} ${response.body}`);
    return { ms: performance.now() - started, id: response.json<{ id: number }>().id };
  };
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const day = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  const compact = day.replace(/-/g, '');
  const series = (title: string) => ({
    title,
    start_date: `${day} 19:00`,
    end_date: `${day} 20:00`,
    timezone: 'Europe/Paris',
    recurrence: [`RRULE:FREQ=DAILY;COUNT=${count}`],
  });
  await send('POST', '/events', series('Warm-up'));
  const creates: number[] = [];
  let id = 0;
  for (let round = 0; round < rounds; round++) {
    const created = await send('POST', '/events', series(`Daily ${round}`));
    creates.push(created.ms);
    id = created.id;
  }
  const edits: [string, (round: number) => unknown][] = [
    ['title', (round) => ({ title: `Daily class ${round}` })],
    [
      'time of day',
      (round) => ({ start_date: `${day} ${18 + (round % 2)}:00`, end_date: `${day} ${19 + (round % 2)}:00` }),
    ],
    [
      'rule (an EXDATE)',
      (round) => ({
        recurrence: [`RRULE:FREQ=DAILY;COUNT=${count}`, ...(round % 2 ? [] : [`EXDATE:${compact}T170000Z`])],
      }),
    ],
    ['time zone', (round) => ({ timezone: round % 2 ? 'Europe/Paris' : 'Europe/Berlin' })],
    ['venue', (round) => ({ venue: { venue: `Hall ${round}` } })],
  ];
  const lines = [`create: ${median(creates).toFixed(0)} ms`];
  for (const [name, body] of edits) {
    const times: number[] = [];
    for (let round = 0; round < rounds; round++) times.push((await send('PATCH', `/events/${id}`, body(round))).ms);
    lines.push(`${name}: ${median(times).toFixed(0)} ms`);
  }
  process.stdout.write(`A series of ${count} occurrences, median of ${rounds} writes each:\n  ${lines.join('\n  ')}\n`);
} finally {
  await app.close();
  rmSync(dir, { recursive: true, force: true });
}
