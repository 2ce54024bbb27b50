import { buildApp } from './src/app.js';
import { loadConfig } from './src/config.js';
const app = await buildApp(loadConfig({ DATABASE_URL: 'sqlite:/tmp/prof.db', LOG_LEVEL: 'silent', RESPONSE_CACHE: 'off' }), { logger: false });
const db = app.calendar.db as any;
const exec = db.getExecutor();
const orig = exec.executeQuery.bind(exec);
const queries: any[] = [];
exec.executeQuery = async (q: any, id: any) => { const t = performance.now(); const r = await orig(q, id); queries.push([performance.now() - t, q]); return r; };
await app.inject({ url: '/calendar/events/v1/events?categories=seed-arts&search=jazz&start_date=2027-03-01&end_date=2027-04-30' });
const SQLite = (await import('better-sqlite3')).default;
const raw = new SQLite('/tmp/prof.db');
raw.function('lower', { deterministic: true }, (v: unknown) => (typeof v === 'string' ? v.toLowerCase() : v));
for (const [ms, q] of queries) {
  console.log(ms.toFixed(2), q.sql.slice(0, 100));
  if (ms > 5) { console.log(q.sql); console.log(raw.prepare('explain query plan ' + q.sql).all(...q.parameters).map((r: any) => r.detail)); }
}
await app.close();
