import { buildApp } from './src/app.js';
import { loadConfig } from './src/config.js';
import { createUser } from './src/modules/users/users.service.js';
const app = await buildApp(loadConfig({ DATABASE_URL: 'sqlite:/tmp/prof.db', LOG_LEVEL: 'silent', RESPONSE_CACHE: 'off' }), { logger: false });
let auth = '';
const login = 'prof-' + Math.random().toString(36).slice(2, 8); const { password } = await createUser(app.calendar.db, login, 'editor', 1); auth = 'Basic ' + Buffer.from(login + ':' + password).toString('base64');
const db = app.calendar.db as any;
const exec = db.getExecutor();
const orig = exec.executeQuery.bind(exec);
let qms = 0; let qn = 0; const slow: Record<string, number> = {};
exec.executeQuery = async (q: any, id: any) => { const t = performance.now(); const r = await orig(q, id); const d = performance.now() - t; qms += d; qn++; const k = q.sql.slice(0, 90); slow[k] = (slow[k] ?? 0) + d; return r; };
async function run(name: string, n: number, make: (i: number) => any) {
  for (let w = 0; w < 5; w++) await app.inject(make(w));
  qms = 0; qn = 0; for (const k in slow) delete slow[k];
  const t = performance.now();
  for (let i = 0; i < n; i++) { const r = await app.inject(make(i + 100)); if (r.statusCode >= 300) console.log(name, r.statusCode, r.body.slice(0, 200)); }
  console.log(name, 'avg', ((performance.now() - t) / n).toFixed(2), 'ms; queries', (qms / n).toFixed(2), 'ms', (qn / n).toFixed(1), 'per req');
  for (const [k, v] of Object.entries(slow).sort((a, b) => b[1] - a[1]).slice(0, 6)) console.log('     ', (v / n).toFixed(2), k);
}
const h = { authorization: auth, 'content-type': 'application/json' };
await run('create', 30, (i) => ({ method: 'POST', url: '/calendar/events/v1/events', headers: h, payload: { title: `P ${i} ${Math.random()}`, start_date: '2027-01-10 18:00', end_date: '2027-01-10 20:00', status: 'publish', categories: ['seed-music'] } }));
await run('single', 50, (i) => ({ url: `/calendar/events/v1/events/${400 + i * 7}` }));
await run('filtered', 20, (i) => ({ url: `/calendar/events/v1/events?categories=seed-arts&search=${['jazz','opera','garden','river'][i % 4]}&start_date=2027-0${1 + (i % 8)}-01&end_date=2027-0${2 + (i % 8)}-15` }));
await run('list50', 20, (i) => ({ url: `/calendar/events/v1/events?per_page=50&page=${1 + (i % 10)}` }));
await app.close();
